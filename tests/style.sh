#!/bin/sh
# Style is checked by a script, not by review comments: C sources are
# indented with spaces, have no trailing blanks, no line over 100 columns,
# include config.h first (core/ and tests/), and avoid the unbounded string
# functions (sprintf, strcpy, strcat, gets).
. "${abs_top_srcdir:?}/tests/lib.sh"
cd "$abs_top_srcdir"
sources=$(ls core/*.c core/*.h core/*/*.c core/*/*.h plugins/*.c plugins/*.h include/sandlint/*.h \
              tests/*.c tests/plugins/*.c fuzz/*.c bench/*.c examples/plugin/*.c 2>/dev/null)
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
for file in core/*.c core/*/*.c tests/test_*.c fuzz/*.c; do
    first=$(grep -m1 '^#include' "$file")
    case $first in
        '#include "config.h"') ;;
        *) fail "$file: the first include must be config.h, not $first" ;;
    esac
done
[ "$failures" -eq 0 ] && pass "$(echo "$sources" | wc -w) files in style"
finish
