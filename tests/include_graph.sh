#!/bin/sh
# The core's include graph has no circle (maint/include-graph.sh), and no
# front-end in core/kinds/ includes the checker: a front-end fills the
# container model and returns its errors as values (SPEC §18).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
if "$abs_top_srcdir/maint/include-graph.sh" "$abs_top_srcdir" >"$out" 2>"$err"; then
    pass "no module of core/ includes itself through others"
else
    fail "include circles: $(cat "$out" "$err")"
fi
"$abs_top_srcdir/maint/include-graph.sh" --edges "$abs_top_srcdir" >"$scratch/edges"
grep -q '^check kubernetes$\|^check file_kind$' "$scratch/edges" &&
    pass "the edges are read (check.c calls the front-ends)" ||
    fail "maint/include-graph.sh --edges lists no edge from check"
checker=$(cd "$abs_top_srcdir" && grep -l '^#include "\(check\|host\|scan\)\.h"' core/kinds/*.c core/kinds/*.h || true)
[ -z "$checker" ] && pass "no front-end includes check.h, host.h or scan.h" ||
    fail "front-ends that include the checker: $checker"
finish
