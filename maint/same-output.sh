#!/bin/sh
# maint/same-output.sh - does a refactor leave every output byte for byte?
#
#     maint/same-output.sh save DIR [BUILD_DIR]      record the outputs in DIR
#     maint/same-output.sh compare DIR [BUILD_DIR]   run again and diff with DIR
#
# Runs the built sandlint (BUILD_DIR, default .) in text, json and sarif over
# the shared Compose corpus and the shared Kubernetes corpus (with
# `kubernetes = **`), each alone and with the hardening group, and examples/
# (alone and with the hardening group).  Run `save` on the commit before a move or a
# port and `compare` after it: any difference is printed and the exit status
# is 1.  The shared corpora come from SHARED_DIR (default: what configure
# found); a missing corpus is said, not skipped silently.
set -eu
usage() { echo "usage: $0 save|compare DIR [BUILD_DIR]" >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1 dir=$2 build=${3:-.}
case $action in save|compare) ;; *) usage ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
sandlint="$build/sandlint"
[ -x "$sandlint" ] || { echo "$0: no sandlint in $build: build first" >&2; exit 2; }
shared=${SHARED_DIR:-$(cd "$build" && make -s print-shared-dir 2>/dev/null || true)}
for corpus in corpus corpus-k8s; do
    [ -d "$shared/$corpus" ] || { echo "$0: no $corpus under '$shared' (set SHARED_DIR)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The Kubernetes corpus with a configuration that names every file; copied
# so that the shared tree is never written to.  Paths in the output are
# relative to the root, so the copy's place does not show.
mkdir "$work/k8s"
cp -R "$shared/corpus-k8s/." "$work/k8s/"
printf '[sandlint]\nkubernetes = **\n' >"$work/k8s/.sandlint.ini"

out="$work/out"
mkdir "$out"
# run NAME ROOT [ARG...]: one input in the three formats.  Exit status and
# standard error are part of what must not change.
run() {
    name=$1 root=$2
    shift 2
    for format in text json sarif; do
        set +e
        (cd "$root" && "$sandlint" --color never --format "$format" "$@") \
            >"$out/$name.$format" 2>"$out/$name.$format.stderr"
        echo "exit $?" >>"$out/$name.$format.stderr"
        set -e
    done
}
run corpus "$shared/corpus" --root "$shared/corpus" .
run corpus-hardening "$shared/corpus" --root "$shared/corpus" --extend-select sandbox_hardening .
run corpus-k8s "$work/k8s" .
run corpus-k8s-hardening "$work/k8s" --extend-select sandbox_hardening .
run examples "$here" --root "$here" examples
run examples-hardening "$here" --root "$here" --extend-select sandbox_hardening examples
# SARIF names the version; a refactor does not change it, a release does.

if [ "$action" = save ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$out"/* "$dir/"
    echo "saved $(ls "$out" | wc -l) outputs in $dir"
    exit 0
fi
if diff -r "$dir" "$out" >"$work/diff"; then
    echo "identical: $(ls "$out" | wc -l) outputs"
    exit 0
fi
head -n 200 "$work/diff"
echo "$0: outputs differ from $dir" >&2
exit 1
