#!/bin/sh
# maint/include-graph.sh - the core's include graph, and its circles.
#
#     maint/include-graph.sh [SRCDIR]          list the circles (exit 1 if any)
#     maint/include-graph.sh --edges [SRCDIR]  print every edge "A B"
#
# A module is a .c file and its .h (core/kinds/compose.c and compose.h are
# "compose"); module A depends on B when A's .c or .h includes "B.h".  A
# header without a .c of its name (a private header shared by a component's
# files, such as config_edit_internal.h) belongs to the modules that include
# it: its edges are folded into theirs.  A circle is a module that depends
# on itself through others, as check.c -> kubernetes.h and kubernetes.c ->
# check.h did: such a pair cannot be understood, tested or moved apart.
set -eu
edges_only=0
if [ "${1:-}" = --edges ]; then edges_only=1; shift; fi
srcdir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$srcdir"
files=$(find core -name '*.c' -o -name '*.h' | sort)
# "module included" pairs, and the modules that have a .c file.
for file in $files; do
    module=$(basename "$file"); module=${module%.*}
    sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$file" | while read -r header; do
        case $header in config|sandlint/*) continue ;; esac
        header=${header##*/}
        [ "$header" = "$module" ] || echo "E $module $header"
    done
    case $file in *.c) echo "C $module" ;; esac
done | sort -u | awk -v edges_only="$edges_only" '
$1 == "C" { implemented[$2] = 1; next }
{ edge[$2 " " $3] = 1; nodes[$2] = 1; nodes[$3] = 1 }
END {
    # Fold header-only modules into the modules that include them.
    changed = 1
    while (changed) {
        changed = 0
        for (e in edge) {
            split(e, ab, " ")
            if (implemented[ab[2]]) continue
            for (f in edge) {
                split(f, cd, " ")
                if (cd[1] == ab[2] && cd[2] != ab[1] && !((ab[1] " " cd[2]) in edge)) {
                    edge[ab[1] " " cd[2]] = 1
                    changed = 1
                }
            }
        }
    }
    for (e in edge) {
        split(e, ab, " ")
        if (!implemented[ab[1]] || !implemented[ab[2]]) { delete edge[e]; continue }
        out[ab[1]] = out[ab[1]] " " ab[2]
    }
    if (edges_only) {
        for (e in edge) print e
        exit 0
    }
    # A module is on a circle when it reaches itself: a breadth-first walk
    # from each, printing the path back.
    circles = 0
    for (start in implemented) {
        delete parent; delete seen
        queue[0] = start; head = 0; tail = 1; found = ""
        while (head < tail && found == "") {
            node = queue[head++]
            n = split(out[node], next_nodes, " ")
            for (i = 1; i <= n; i++) {
                to = next_nodes[i]
                if (to == start) { found = node; break }
                if (to in seen) continue
                seen[to] = 1; parent[to] = node; queue[tail++] = to
            }
        }
        if (found == "") continue
        path = start
        for (node = found; node != start; node = parent[node]) stack[++depth] = node
        while (depth > 0) path = path " -> " stack[depth--]
        print "circle: " path " -> " start
        circles++
    }
    exit circles > 0
}'
