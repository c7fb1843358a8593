#!/bin/sh
# Worker processes counted with strace (issue 10): --jobs 8 for two files
# starts at most two (no idle workers), and the files that include and
# extends name, checked in later rounds, reuse the first round's worker.
# Needs strace that can trace: SKIP (77) without it.
. "${abs_top_srcdir:?}/tests/lib.sh"
if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
    echo "workers_strace.sh: SKIP: strace is missing or cannot trace here"
    exit 77
fi
make_scratch
cd "$scratch"
priv='services:\n  web:\n    privileged: true\n'
mkdir tree
printf "$priv" > tree/compose.yaml
printf 'services:\n  app:\n    image: x\n' > tree/compose.yml

set +e
strace -f -qq -e trace=clone,clone3,fork,vfork -o "$scratch/trace" \
    "$SANDLINT" --confine=off --jobs 8 tree >/dev/null 2>&1
set -e
# A worker is a process of its own (no CLONE_VM); clones that share
# memory are threads, such as LeakSanitizer's tracer at exit in the
# sanitizer build.
forks=$(grep 'clone\|fork' "$scratch/trace" | grep -vc 'CLONE_VM' || true)
[ "$forks" -le 2 ] && pass "--jobs 8 on two files starts $forks workers" \
    || fail "--jobs 8 on two files started $forks processes"
# The files that extends names come in rounds after the walk (here
# two: common.yml, then deeper.yml); the workers of the first round
# check them too.
mkdir -p rounds/base
printf 'services:\n  app:\n    extends:\n      file: base/common.yml\n      service: web\n' \
    > rounds/compose.yaml
printf 'services:\n  web:\n    extends:\n      file: deeper.yml\n      service: root\n    image: x\n' \
    > rounds/base/common.yml
printf "services:\n  root:\n    image: y\n    privileged: true\n" > rounds/base/deeper.yml
set +e
strace -f -qq -e trace=clone,clone3,fork,vfork -o "$scratch/trace-rounds" \
    "$SANDLINT" --confine=off --jobs 1 rounds > rounds.out 2>&1
set -e
forks=$(grep 'clone\|fork' "$scratch/trace-rounds" | grep -vc 'CLONE_VM' || true)
[ "$forks" -eq 1 ] && pass "three rounds of files: one worker" \
    || fail "three rounds of files started $forks processes"
contains rounds.out "rounds/base/deeper.yml:4:5: error: privileged mode" \
    "the last round's file is checked"
finish
