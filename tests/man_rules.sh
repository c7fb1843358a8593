#!/bin/sh
# man/sandlint-rules.7 is up to date: it equals what man/gen-rules-man.sh
# makes of the documentation of the rules the built sandlint loads.  The
# script also turns a rule's options and opt-in flag into markup (shown on
# the ABI 1.1 test plugin, whose rules have both).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
page="$abs_top_srcdir/man/sandlint-rules.7"
generated="$scratch/sandlint-rules.7"
if ! sh "$abs_top_srcdir/man/gen-rules-man.sh" "$SANDLINT" >"$generated" 2>"$err"; then
    fail "man/gen-rules-man.sh failed"
    sed 's/^/    /' "$err" >&2
    
# Options and opt-in: a sandlint that also loads the test plugin abi11.
: "${TEST_PLUGIN_DIR:?}"
wrapper="$scratch/sandlint-with-abi11"
printf '#!/bin/sh\nexec "%s" --plugin "%s" "$@"\n' "$SANDLINT" "$TEST_PLUGIN_DIR/abi11.so" >"$wrapper"
chmod +x "$wrapper"
extended="$scratch/extended.7"
if sh "$abs_top_srcdir/man/gen-rules-man.sh" "$wrapper" >"$extended" 2>"$err"; then
    contains "$extended" ".It Sy Options" "an Options item for a rule with options"
    contains "$extended" ".It Cm limit" "each option is an item"
    contains "$extended" "(integer, default 3)" "with its type and default"
    contains "$extended" "Off by default: it runs only when a selector such as" "opt-in rules say so"
    if command -v mandoc >/dev/null 2>&1; then
        if report=$(mandoc -Tlint -Wwarning "$extended" 2>&1); then
            pass "a page with options and opt-in rules is mandoc-clean"
        else
            fail "page with options: $report"
        fi
    fi
else
    fail "man/gen-rules-man.sh failed with the abi11 plugin"
    sed 's/^/    /' "$err" >&2
fi
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

# Options and opt-in: a sandlint that also loads the test plugin abi11.
: "${TEST_PLUGIN_DIR:?}"
wrapper="$scratch/sandlint-with-abi11"
printf '#!/bin/sh\nexec "%s" --plugin "%s" "$@"\n' "$SANDLINT" "$TEST_PLUGIN_DIR/abi11.so" >"$wrapper"
chmod +x "$wrapper"
extended="$scratch/extended.7"
if sh "$abs_top_srcdir/man/gen-rules-man.sh" "$wrapper" >"$extended" 2>"$err"; then
    contains "$extended" ".It Sy Options" "an Options item for a rule with options"
    contains "$extended" ".It Cm limit" "each option is an item"
    contains "$extended" "(integer, default 3)" "with its type and default"
    contains "$extended" "Off by default: it runs only when a selector such as" "opt-in rules say so"
    if command -v mandoc >/dev/null 2>&1; then
        if report=$(mandoc -Tlint -Wwarning "$extended" 2>&1); then
            pass "a page with options and opt-in rules is mandoc-clean"
        else
            fail "page with options: $report"
        fi
    fi
else
    fail "man/gen-rules-man.sh failed with the abi11 plugin"
    sed 's/^/    /' "$err" >&2
fi
finish
