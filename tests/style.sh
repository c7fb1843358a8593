#!/bin/sh
# Style is checked by a script, not by review comments: C sources are
# indented with spaces, have no trailing blanks, no line over 100 columns,
# include config.h first (core/ and tests/), and avoid the unbounded string
# functions (sprintf, strcpy, strcat, gets).
. "${abs_top_srcdir:?}/tests/lib.sh"
cd "$abs_top_srcdir"
sources=$(ls core/*/*.c core/*/*.h core/*/*/*.c core/*/*/*.h plugins/*.c include/sandlint/*.h \
              tests/*.c tests/*.h tests/plugins/*.c fuzz/*.c bench/*.c examples/plugin/*.c \
              2>/dev/null || true)
tab=$(printf '\t')
for file in $sources; do
    if grep -n "$tab" "$file" >/dev/null; then
        fail "$file: tab characters (indent with spaces)"
    fi
    if grep -nE ' +$' "$file" >/dev/null; then
        fail "$file: trailing blanks on line $(grep -nE ' +$' "$file" | head -1 | cut -d: -f1)"
    fi
    long=$(awk 'length > 100 { print FNR; exit }' "$file")
    [ -z "$long" ] || fail "$file:$long: line longer than 100 columns"
    if grep -nE '(^|[^a-z_])(sprintf|strcpy|strcat|gets)\(' "$file" >/dev/null; then
        fail "$file: unbounded string function: $(grep -nE '(^|[^a-z_])(sprintf|strcpy|strcat|gets)\(' "$file" | head -1)"
    fi
done
for file in core/*/*.c core/*/*/*.c tests/test_*.c fuzz/*.c; do
    first=$(grep -m1 '^#include' "$file")
    case $first in
        '#include "config.h"') ;;
        *) fail "$file: the first include must be config.h, not $first" ;;
    esac
done
# The built-in rules are written exactly as an in-house rule is (SPEC §10):
# they include system headers and the installed SDK headers, and plugins/
# holds no header of its own that could carry Compose logic.
for file in plugins/*.h; do
    [ -e "$file" ] && fail "$file: a header in plugins/ (put what rules share in the SDK)"
done
for file in plugins/*.c; do
    grep -n '^#[[:space:]]*include' "$file" | while IFS= read -r line; do
        case ${line#*:} in
            '#include <sandlint/rule.h>'|'#include <sandlint/plugin.h>') ;;
            '#include <sandlint/'*|'#include "'*) echo "$file:$line" ;;
        esac
    done >"${TMPDIR:-/tmp}/style-includes.$$"
    if [ -s "${TMPDIR:-/tmp}/style-includes.$$" ]; then
        fail "a built-in plugin includes a header that is not the installed SDK: $(head -1 "${TMPDIR:-/tmp}/style-includes.$$")"
    fi
    rm -f "${TMPDIR:-/tmp}/style-includes.$$"
done
[ "$failures" -eq 0 ] && pass "$(echo "$sources" | wc -w) files in style"
finish
