#!/bin/sh
# The real-world corpus (../shared/corpus): every format finishes, never
# crashes, the JSON is valid, and the findings per rule, severity and status
# are exactly those pinned in tests/corpus-summary.txt - a change that loses
# (or adds) findings fails here.  Skipped when the corpus is absent.
. "${abs_top_srcdir:?}/tests/lib.sh"
corpus="${SHARED_DIR:-}/corpus"
if [ ! -d "$corpus" ]; then
    echo "corpus.sh: SKIP: no corpus at $corpus"
    exit 77
fi
make_scratch
expect_status_in() {
    set +e
    sl "$@" >"$out" 2>"$err"
    status=$?
    set -e
}
expect_status_in --format json "$corpus"
case $status in
    0|1) pass "json run exit status $status" ;;
    *) fail "json run exit status $status"; sed 's/^/    /' "$err" | tail -5 >&2 ;;
esac
json_valid "$out" && pass "corpus JSON is valid" || fail "corpus JSON is invalid"
python3 "$srcdir_tests/corpus_summary.py" "$out" >"$scratch/summary"
if cmp -s "$srcdir_tests/corpus-summary.txt" "$scratch/summary"; then
    pass "corpus findings per rule as pinned"
else
    fail "corpus findings per rule differ from tests/corpus-summary.txt"
    diff "$srcdir_tests/corpus-summary.txt" "$scratch/summary" | sed 's/^/    /' >&2
fi
expect_status_in --format text --color always "$corpus"
case $status in
    0|1) pass "text run exit status $status" ;;
    *) fail "text run exit status $status" ;;
esac
finish
