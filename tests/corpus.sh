#!/bin/sh
# The real-world corpus (../shared/corpus): every format finishes, never
# crashes, and the JSON is valid.  Skipped when the corpus is absent.
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
grep -q '"files": [1-9][0-9][0-9]' "$out" && pass "hundreds of files checked" || fail "too few files checked"
expect_status_in --format text --color always "$corpus"
case $status in
    0|1) pass "text run exit status $status" ;;
    *) fail "text run exit status $status" ;;
esac
finish
