#!/bin/sh
# The manual pages are mandoc-clean (mandoc -Tlint -Wwarning).
. "${abs_top_srcdir:?}/tests/lib.sh"
if ! command -v mandoc >/dev/null 2>&1; then
    echo "man.sh: SKIP: mandoc is not installed"
    exit 77
fi
count=0
for page in "$abs_top_srcdir"/man/*.[1-9]; do
    count=$((count + 1))
    if report=$(mandoc -Tlint -Wwarning "$page" 2>&1); then
        pass "$(basename "$page") is mandoc-clean"
    else
        fail "$(basename "$page"): $report"
    fi
done
[ "$count" -gt 0 ] || fail "no manual pages found"
finish
