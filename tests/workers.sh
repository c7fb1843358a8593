#!/bin/sh
# Worker processes and the report file fail closed (issue 10): workers die
# with sandlint, have a memory limit, are never started idle; the report
# replaces its destination only when the run completes and never replaces
# a checked file; a run that checks nothing or cannot write fails.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
: "${TEST_PLUGIN_DIR:?}"
priv='services:\n  web:\n    privileged: true\n'
mkdir tree
printf "$priv" > tree/compose.yaml
printf 'services:\n  app:\n    image: x\n' > tree/compose.yml
asan=no
grep -q __asan_init "$SANDLINT" 2>/dev/null && asan=yes

# --- processes of a run ----------------------------------------------------
# Lists the processes whose command line names this scratch directory.
run_processes() {
    pgrep -f -- "$scratch/hang" 2>/dev/null || true
}
mkdir hang
printf 'services:\n  hang_me:\n    image: x\n' > hang/compose.yaml
printf "$priv" > hang/compose.yml
for signal in KILL TERM; do
    printf 'old report\n' > "report-$signal.txt"
    "$SANDLINT" --timeout 0 --jobs 2 --plugin "$TEST_PLUGIN_DIR/hanger.so" \
        --output "$scratch/report-$signal.txt" "$scratch/hang" >/dev/null 2>&1 &
    coordinator=$!
    # Wait until a worker hangs on the file (or give up after 10 s).
    tries=0
    while [ "$(run_processes | wc -l)" -lt 2 ] && [ "$tries" -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    [ "$(run_processes | wc -l)" -ge 2 ] && pass "$signal: workers are running" \
        || fail "$signal: no worker started"
    kill "-$signal" "$coordinator" 2>/dev/null || true
    wait "$coordinator" 2>/dev/null || true
    tries=0
    while [ -n "$(run_processes)" ] && [ "$tries" -lt 50 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if [ -z "$(run_processes)" ]; then
        pass "SIG$signal to sandlint stops every worker"
    else
        fail "SIG$signal: workers outlive sandlint: $(run_processes | tr '\n' ' ')"
        run_processes | xargs kill -9 2>/dev/null || true
    fi
    [ "$(cat "report-$signal.txt")" = "old report" ] \
        && pass "SIG$signal: the old report is untouched" || fail "SIG$signal: report changed"
    sleep 0.2
    leftovers=$(ls -A | grep "^\.report-$signal.txt.sandlint-" || true)
    [ -z "$leftovers" ] && pass "SIG$signal: no temporary file left" \
        || fail "SIG$signal: left $leftovers"
done

# No idle workers, one worker for every round: tests/workers_strace.sh.

# An allocation bomb costs one file, with a clear error.  (Not under
# AddressSanitizer, which needs an unlimited address space.)
if [ "$asan" = no ]; then
    mkdir bomb
    awk 'BEGIN { print "services:"; for (i = 0; i < 400000; i++) printf "  s%d:\n    image: img%d\n", i, i }' > bomb/compose.yaml
    printf "$priv" > bomb/compose.yml
    expect_status 1 "allocation bomb" -- --jobs 1 --max-memory 64M bomb || true
    contains "$out" "bomb/compose.yaml: error: ran out of memory reading the YAML (the --max-memory limit is 64 MiB); not checked" \
        "memory limit: a clear per-file error"
    contains "$out" "bomb/compose.yml:3:5: error: privileged mode" "memory limit: the other file is checked"
fi
expect_status 2 "--max-memory too small" -- --max-memory 1M tree
contains "$err" "--max-memory needs a size of at least 64M" "--max-memory bound"

# --- the report file -------------------------------------------------------
printf 'old\n' > kept.txt
expect_status 2 "a run that fails to start" -- --select NOPE --output kept.txt tree
[ "$(cat kept.txt)" = old ] && pass "a failed run leaves --output untouched" \
    || fail "a failed run changed --output"
expect_status 1 "a complete run" -- --output kept.txt tree
contains kept.txt "tree/compose.yaml:3:5: error: privileged mode" "a complete run replaces --output"
[ -z "$(ls -A | grep '\.sandlint-' || true)" ] && pass "no temporary files" \
    || fail "temporary files left: $(ls -A | grep '\.sandlint-')"
cp tree/compose.yaml before.yaml
expect_status 2 "--output is the operand" -- --output tree/compose.yaml tree/compose.yaml
contains "$err" "refusing to write the report over tree/compose.yaml" "output over an operand refused"
cmp -s before.yaml tree/compose.yaml && pass "the operand is untouched" || fail "the operand was changed"
expect_status 2 "--output is a discovered file" -- --output tree/compose.yaml .
contains "$err" "refusing to write the report over tree/compose.yaml, which is checked; nothing written" \
    "output over a discovered file refused"
cmp -s before.yaml tree/compose.yaml && pass "the discovered file is untouched" \
    || fail "the discovered file was changed"
ln -s compose.yaml tree/link.txt
expect_status 2 "--output through a symbolic link" -- --output tree/link.txt tree
cmp -s before.yaml tree/compose.yaml && pass "a link to a checked file is refused too" \
    || fail "a link to a checked file was written through"
rm tree/link.txt
expect_status 1 "--output /dev/null" -- --output /dev/null tree
[ -c /dev/null ] && pass "/dev/null is still a device" || fail "/dev/null was replaced"
if [ -w /dev/full ]; then
    expect_status 2 "--output /dev/full" -- --output /dev/full tree
    contains "$err" "error writing /dev/full" "a full disk is an error"
    set +e
    sl --list-rules >/dev/full 2>"$err"
    status=$?
    sl --sandbox-check tree >/dev/full 2>>"$err"
    status2=$?
    set -e
    [ "$status" -eq 2 ] && [ "$status2" -eq 2 ] && pass "--list-rules and --sandbox-check to a full disk exit 2" \
        || fail "full disk: exit $status and $status2"
    contains "$err" "error writing standard output" "full disk: the message says so"
fi

# --- nothing to check is not a pass ----------------------------------------
mkdir empty
printf 'not: compose\n' > empty/values.yaml
expect_status 2 "no sandbox files" -- empty
contains "$err" "no sandbox files found under empty" "a run that checks nothing fails"
finish
