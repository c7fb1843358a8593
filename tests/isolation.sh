#!/bin/sh
# Crash isolation and parallel workers: a plugin that crashes, aborts, hangs
# or fails costs one file, with an error naming plugin and file; every
# other file is still checked; the report is the same for any --jobs.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
: "${TEST_PLUGIN_DIR:?}"
for name in a b c d e f g h; do
    mkdir "$name"
    printf 'services:\n  web:\n    privileged: true\n' > "$name/compose.yaml"
done
printf 'services:\n  crash_me:\n    image: x\n' > b/compose.yml
printf 'services:\n  hang_me:\n    image: x\n' > d/compose.yml
printf 'services:\n  abort_me:\n    image: x\n' > f/compose.yml
printf 'services:\n  fail_me:\n    image: x\n' > g/compose.yml
plugins="--plugin $TEST_PLUGIN_DIR/crasher.so --plugin $TEST_PLUGIN_DIR/hanger.so"

for jobs in 1 2 3; do
    # shellcheck disable=SC2086
    expect_status 2 "misbehaving plugins, --jobs $jobs" -- --format json --timeout 2 --jobs "$jobs" $plugins .
    cp "$out" "jobs$jobs.json"
done
json_valid jobs1.json && pass "valid JSON" || fail "invalid JSON"
# (AddressSanitizer builds turn the SIGSEGV into exit status 1.)
if grep -q "plugin crasher crashed (signal 11, Segmentation fault) on b/compose.yml (rule TST010); the file was not completely checked" jobs1.json ||
   grep -q "plugin crasher crashed (exit status 1) on b/compose.yml (rule TST010)" jobs1.json; then
    pass "segfault reported with plugin and file"
else
    fail "segfault not reported"
fi
contains jobs1.json "plugin crasher crashed (signal 6, Aborted) on f/compose.yml (rule TST010)" "abort reported"
contains jobs1.json "plugin hanger timed out after 2 seconds on d/compose.yml (rule TST011)" "hang reported"
contains jobs1.json "plugin hanger failed (refusing to check fail_me) on g/compose.yml (rule TST011); the file was not completely checked" "plugin error reported, in the one SL006 format"
grep '"rule": "SL006"' jobs1.json | grep -c '"severity": "error", "status": "fail"' | grep -qx 4 \
    && pass "each unchecked file is an error" || fail "SL006 findings are not errors"
for name in a b c d e f g h; do
    grep -q "\"file\": \"$name/compose.yaml\".*\"key\": \"web:privileged\"" jobs1.json \
        && pass "$name/compose.yaml still checked" || fail "$name/compose.yaml lost"
done
[ "$(grep '"rule": "TST010"' jobs1.json | grep -c '/compose.yaml"')" -eq 8 ] && pass "crasher checked the other files" || fail "crasher findings missing"
cmp -s jobs1.json jobs2.json && cmp -s jobs1.json jobs3.json && pass "identical reports for --jobs 1, 2, 3" \
    || fail "reports differ between --jobs values"

# The same in every format, and in-process when nothing crashes.
rm b/compose.yml d/compose.yml f/compose.yml g/compose.yml
for format in text json sarif github; do
    sl --format "$format" --jobs 1 --color always . >"one.$format" 2>/dev/null || true
    sl --format "$format" --jobs 3 --color always . >"three.$format" 2>/dev/null || true
    sl --format "$format" --no-isolation --color always . >"inproc.$format" 2>/dev/null || true
    cmp -s "one.$format" "three.$format" && cmp -s "one.$format" "inproc.$format" \
        && pass "$format: --jobs 1, --jobs 3 and --no-isolation agree byte for byte" \
        || fail "$format output differs"
done
expect_status 2 "bad --jobs" -- --jobs 0 .
expect_status 2 "bad --timeout" -- --timeout -1 .
finish
