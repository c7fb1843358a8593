#!/bin/sh
# Confinement that fails (SPEC §11, issue 20's test gaps): strace makes the
# kernel refuse Landlock (ENOSYS) or the seccomp filter (EINVAL); auto then
# says so once and checks, require refuses to run (exit 2) - for either
# half.  Needs strace that can trace and inject: SKIP (77) without it, and
# where the kernel lacks Landlock or seccomp anyway.
. "${abs_top_srcdir:?}/tests/lib.sh"
if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
    echo "confine_strace.sh: SKIP: strace is missing or cannot trace here"
    exit 77
fi
make_scratch
cd "$scratch"
unset SANDLINT_CONFINE
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
mkdir tree
printf 'services:\n  web:\n    privileged: true\n' > tree/compose.yaml
if "$SANDLINT" --sandbox-check tree 2>/dev/null | grep -q 'Landlock: not available\|seccomp: not available'; then
    echo "confine_strace.sh: SKIP: this kernel lacks Landlock or seccomp"
    exit 77
fi

# traced INJECTION ARGS... : sandlint under strace, the syscall failing.
traced() {
    injection=$1
    shift
    set +e
    strace -f -qq -o /dev/null -e "inject=$injection" "$SANDLINT" "$@" >"$out" 2>"$err"
    status=$?
    set -e
}

# Landlock missing (ENOSYS): auto notes it once and checks; require refuses.
traced landlock_create_ruleset:error=ENOSYS --confine=auto tree
[ "$status" -eq 1 ] && pass "auto without Landlock still checks" || fail "auto without Landlock: exit $status"
contains "$err" "note: no Landlock confinement (this kernel has no Landlock)" "auto says once that it cannot confine"
[ "$(grep -c 'note:' "$err")" -eq 1 ] && pass "the note appears once" || fail "note repeated"
traced landlock_create_ruleset:error=ENOSYS --confine=require tree
[ "$status" -eq 2 ] && pass "require without Landlock exits 2" || fail "require without Landlock: exit $status"
contains "$err" "cannot confine the scan (--confine=require)" "require says why"

# The seccomp filter refused (EINVAL from seccomp(2)): the same for seccomp.
traced seccomp:error=EINVAL --confine=auto tree
[ "$status" -eq 1 ] && pass "auto without a seccomp filter still checks" \
    || fail "auto without seccomp: exit $status"
contains "$err" "note: no seccomp filter" "auto says that it has no seccomp filter"
traced seccomp:error=EINVAL --confine=require tree
[ "$status" -eq 2 ] && pass "require without a seccomp filter exits 2" \
    || fail "require without seccomp: exit $status"
contains "$err" "cannot confine the scan (--confine=require): no seccomp filter" \
    "require names the seccomp failure"
[ ! -s "$out" ] && pass "and checks nothing" || fail "require without seccomp reported: $(head -2 "$out")"
finish
