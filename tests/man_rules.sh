#!/bin/sh
# man/sandlint-rules.7 is up to date: it equals what man/gen-rules-man.sh
# makes of the documentation of the rules the built sandlint loads.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
page="$abs_top_srcdir/man/sandlint-rules.7"
generated="$scratch/sandlint-rules.7"
if ! sh "$abs_top_srcdir/man/gen-rules-man.sh" "$SANDLINT" >"$generated" 2>"$err"; then
    fail "man/gen-rules-man.sh failed"
    sed 's/^/    /' "$err" >&2
    finish
fi
if cmp -s "$page" "$generated"; then
    pass "sandlint-rules.7 matches the rules' documentation"
else
    fail "man/sandlint-rules.7 is out of date; regenerate it with
    man/gen-rules-man.sh ./sandlint > man/sandlint-rules.7"
    diff -u "$page" "$generated" >&2 || true
fi
if command -v mandoc >/dev/null 2>&1; then
    if report=$(mandoc -Tlint -Wwarning "$generated" 2>&1); then
        pass "generated page is mandoc-clean"
    else
        fail "generated page: $report"
    fi
fi
finish
