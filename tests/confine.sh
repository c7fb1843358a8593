#!/bin/sh
# Self-confinement (Landlock + seccomp): a hostile plugin, while confined,
# cannot read outside the tree, write anywhere, open sockets, exec, ptrace,
# push terminal input or signal its parent; --sandbox-check reports every
# probe refused; --confine modes.  Skipped where the kernel lacks
# Landlock or seccomp.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
: "${TEST_PLUGIN_DIR:?}"
unset SANDLINT_CONFINE
# LeakSanitizer (in --enable-sanitizers builds) reads /proc at exit, which
# confinement forbids; leaks are checked by the unconfined tests.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
mkdir tree
printf 'services:\n  web:\n    privileged: true\n' > tree/compose.yaml

set +e
sl --sandbox-check tree >"$out" 2>"$err"
status=$?
set -e
if grep -q 'Landlock: not available\|seccomp: not available' "$out"; then
    echo "confine.sh: SKIP: this kernel lacks Landlock or seccomp:"
    head -2 "$out"
    exit 77
fi
[ "$status" -eq 0 ] && pass "--sandbox-check exits 0" || fail "--sandbox-check exit $status"
contains "$out" "Result: confinement holds (10 of 10 probes refused)" "--sandbox-check: every probe refused"
lacks "$out" "ALLOWED" "--sandbox-check: nothing allowed"

for mode in isolated in-process; do
    extra="--jobs 2"
    [ "$mode" = in-process ] && extra="--no-isolation"
    tag="$$-$mode"
    rm -f "/tmp/sandlint-escaped-$tag" "/tmp/sandlint-escaped-$tag-ctor" \
        tree/escaped-tree tree/escaped-tree-ctor
    set +e
    # shellcheck disable=SC2086
    SANDLINT_TEST_ESCAPE_DIR="$scratch/tree" SANDLINT_TEST_ESCAPE_TAG="$tag" \
        "$SANDLINT" --confine=require $extra --format json \
        --plugin "$TEST_PLUGIN_DIR/escaper.so" tree >"$out" 2>"$err"
    status=$?
    set -e
    [ "$status" -eq 1 ] && pass "$mode: the run completes (exit 1 for the finding)" \
        || { fail "$mode: exit $status"; cat "$err" >&2; }
    # The check callback's attempts, and the constructor's: plugins are
    # loaded only once sandlint is confined.
    for attempt in read_etc_passwd write_in_tree write_in_tmp truncate_fds \
                   tcp_socket udp_socket exec_sh ptrace tiocsti signal_parent \
                   ctor_read_etc_passwd ctor_write_in_tree ctor_write_in_tmp \
                   ctor_tcp_socket ctor_exec_sh ctor_truncate_fds; do
        contains "$out" "\"message\": \"$attempt: refused" "$mode: $attempt refused"
    done
    lacks "$out" "ALLOWED" "$mode: no attempt succeeded"
    json_valid "$out" && pass "$mode: the report is valid JSON" || fail "$mode: the report is not JSON"
    [ ! -e tree/escaped-tree ] && [ ! -e tree/escaped-tree-ctor ] \
        && pass "$mode: nothing written in the tree" || fail "$mode: a file was written in the tree"
    [ ! -e "/tmp/sandlint-escaped-$tag" ] && [ ! -e "/tmp/sandlint-escaped-$tag-ctor" ] \
        && pass "$mode: nothing written in /tmp" || fail "$mode: a file was written in /tmp"
    # The same with the report in a file the plugin could truncate.
    set +e
    # shellcheck disable=SC2086
    SANDLINT_TEST_ESCAPE_DIR="$scratch/tree" SANDLINT_TEST_ESCAPE_TAG="$tag-file" \
        "$SANDLINT" --confine=auto $extra --format json --output "$scratch/report.json" \
        --plugin "$TEST_PLUGIN_DIR/escaper.so" tree >/dev/null 2>&1
    set -e
    json_valid "$scratch/report.json" && contains "$scratch/report.json" "truncate_fds: refused" \
        "$mode: --output report intact and truncation refused" \
        || fail "$mode: the --output report was damaged"
    rm -f "/tmp/sandlint-escaped-$tag-file" "/tmp/sandlint-escaped-$tag-file-ctor"
    contains "$out" '"key": "web:privileged"' "$mode: the rules still ran"
done

# Unconfined, the same plugin gets through (the test can fail).
rm -f tree/escaped-tree
set +e
SANDLINT_TEST_ESCAPE_DIR="$scratch/tree" SANDLINT_TEST_ESCAPE_TAG="$$-off" \
    "$SANDLINT" --confine=off --jobs 1 --format json \
    --plugin "$TEST_PLUGIN_DIR/escaper.so" tree >"$out" 2>"$err"
set -e
contains "$out" "read_etc_passwd: ALLOWED" "--confine=off: the plugin can read /etc/passwd"
contains "$out" "ctor_read_etc_passwd: ALLOWED" "--confine=off: so can its constructor"
[ -e tree/escaped-tree ] && pass "--confine=off: writes get through" || fail "--confine=off: no write?"
rm -f "/tmp/sandlint-escaped-$$-off" "/tmp/sandlint-escaped-$$-off-ctor" tree/escaped-tree \
    tree/escaped-tree-ctor

# Modes and the environment default.
expect_status 2 "bad mode" -- --confine=sometimes tree
contains "$err" "--confine takes auto, require or off" "bad --confine value"
set +e
SANDLINT_CONFINE=bogus "$SANDLINT" tree >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 2 ] && pass "bad SANDLINT_CONFINE" || fail "bad SANDLINT_CONFINE: exit $status"
expect_status 1 "auto is quiet where confinement works" -- tree
lacks "$err" "note:" "no confinement note when confined"
# Landlock or seccomp that fail (strace makes them): tests/confine_strace.sh.
finish
