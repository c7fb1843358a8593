#!/bin/sh
# Command-line behaviour: options, exit statuses, output streams, colour,
# discovery (SPEC §2, §4, §9).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

mkdir clean dirty warn
printf 'services:\n  web:\n    image: nginx\n' > clean/compose.yaml
printf 'services:\n  web:\n    privileged: true\n' > dirty/compose.yaml
printf 'services:\n  web:\n    cap_add: ["${CAP}"]\n' > warn/compose.yaml

# --- informational options and usage errors ------------------------------
expect_status 0 "--version" -- --version && contains "$out" "sandlint " "--version prints the version"
expect_status 0 "--help" -- --help && contains "$out" "Usage: sandlint" "--help prints usage"
contains "$out" "--format FMT" "--help lists --format"
expect_status 2 "unknown option" -- --frobnicate && contains "$err" "unknown option '--frobnicate'" "unknown option is named"
expect_status 2 "unknown format" -- --format xml clean && contains "$err" "unknown format 'xml'" "unknown format is named"
expect_status 2 "missing argument" -- --format && contains "$err" "needs an argument" "missing option argument"
expect_status 2 "bad --color" -- --color sometimes clean
expect_status 2 "missing operand" -- does-not-exist && contains "$err" "does-not-exist: No such file or directory" "missing operand is a usage error"
expect_status 2 "unknown selector" -- --select NOPE clean && contains "$err" "unknown rule selector 'NOPE'" "unknown selector"
expect_status 2 "bad size" -- --max-file-size 12Q clean
expect_status 2 "empty --select" -- --select "" clean && contains "$err" "empty rule selection" "an empty --select is refused"

# --- exit statuses ---------------------------------------------------------
expect_status 0 "clean tree" -- clean && contains "$err" "0 errors, 0 warnings in 1 file (1 service)" "summary on stderr"
[ -s "$out" ] && fail "clean run printed findings" || pass "clean run prints nothing on stdout"
expect_status 1 "error finding" -- dirty && contains "$out" "dirty/compose.yaml:3:5: error: privileged mode" "compiler-style line"
contains "$out" "    hint: remove the setting, or review the required access and add 'dirty/compose.yaml = web:privileged' under [allowlist sandbox_privileges]" "the hint gives the entry ready to paste (scoped to the file)"
contains "$err" "1 error, 0 warnings in 1 file (1 service)" "singular summary"
expect_status 0 "warnings only" -- warn && contains "$out" "warning: cap_add entry '\${CAP}' is interpolated and cannot be checked [SBX001]" "warning line"
expect_status 1 "mixed operands" -- clean warn dirty && contains "$err" "1 error, 1 warning in 3 files (3 services)" "counts across operands"
expect_status 1 "--quiet" -- --quiet dirty
[ -s "$err" ] && fail "--quiet still printed a summary" || pass "--quiet drops the summary"

# --- JSON: one document on stdout, nothing else --------------------------
expect_status 1 "json" -- --format json clean warn dirty
json_valid "$out" && pass "json output is valid" || fail "json output is not valid JSON"
contains "$out" '"summary": {"files": 3, "services": 3, "errors": 1, "warnings": 1, "suppressed": 0}' "json summary"
contains "$out" '"file": "dirty/compose.yaml", "line": 3, "column": 5' "json file and position"
contains "$err" "1 error, 1 warning" "summary stays on stderr with json"
head -c 1 "$out" | grep -q '{' && pass "stdout starts with the document" || fail "stdout has something before the JSON"

# --- --output --------------------------------------------------------------
expect_status 1 "--output" -- --format json --output report.json dirty
[ -s "$out" ] && fail "--output still wrote to stdout" || pass "--output leaves stdout empty"
json_valid report.json && pass "--output file holds the report" || fail "--output file is not JSON"
expect_status 2 "unwritable --output" -- --output no/such/dir/report.txt dirty
contains "$err" "cannot write no/such/dir/report.txt" "unwritable output is reported"

# --- colour ------------------------------------------------------------------
esc=$(printf '\033')
expect_status 1 "--color always" -- --color always dirty
grep -q "$esc\[" "$out" && pass "--color always colours" || fail "--color always: no escape codes"
expect_status 1 "--color never" -- --color never dirty
grep -q "$esc" "$out" && fail "--color never coloured" || pass "--color never does not colour"
expect_status 1 "auto on a pipe" -- dirty
grep -q "$esc" "$out" && fail "auto coloured a pipe" || pass "auto does not colour a pipe"
# FORCE_COLOR: set, not empty and not 0 colours a pipe; NO_COLOR and
# --color never win over it.  (Exported and unset again: an assignment
# before a shell function call is not portable.)
for value in 1 true; do
    export FORCE_COLOR="$value"
    expect_status 1 "FORCE_COLOR=$value" -- dirty
    grep -q "$esc\[1;31m" "$out" && pass "FORCE_COLOR=$value colours a pipe" \
        || fail "FORCE_COLOR=$value did not colour a pipe"
done
for value in 0 ''; do
    export FORCE_COLOR="$value"
    expect_status 1 "FORCE_COLOR='$value'" -- dirty
    grep -q "$esc" "$out" && fail "FORCE_COLOR='$value' coloured a pipe" \
        || pass "FORCE_COLOR='$value' does not force colour"
done
export FORCE_COLOR=1 NO_COLOR=1
expect_status 1 "FORCE_COLOR and NO_COLOR" -- dirty
grep -q "$esc" "$out" && fail "FORCE_COLOR won over NO_COLOR" || pass "NO_COLOR wins over FORCE_COLOR"
unset NO_COLOR
expect_status 1 "FORCE_COLOR and --color never" -- --color never dirty
grep -q "$esc" "$out" && fail "FORCE_COLOR won over --color never" \
    || pass "--color never wins over FORCE_COLOR"
expect_status 1 "FORCE_COLOR with json" -- --format json dirty
grep -q "$esc" "$out" && fail "FORCE_COLOR coloured JSON" || pass "FORCE_COLOR leaves JSON alone"
unset FORCE_COLOR
if command -v script >/dev/null 2>&1; then
    script -qec "'$SANDLINT' dirty" /dev/null > tty.out 2>&1 || true
    grep -q "$esc\[1;31m" tty.out && pass "auto colours a terminal" || fail "auto did not colour a terminal"
    NO_COLOR=1 script -qec "'$SANDLINT' dirty" /dev/null > tty.out 2>&1 || true
    grep -q "$esc\[" tty.out && fail "NO_COLOR was ignored" || pass "NO_COLOR turns auto colour off"
    NO_COLOR=1 script -qec "'$SANDLINT' --color always dirty" /dev/null > tty.out 2>&1 || true
    grep -q "$esc\[" tty.out && pass "--color always wins over NO_COLOR" || fail "--color always lost to NO_COLOR"
fi

# --- rules -------------------------------------------------------------------
expect_status 0 "--list-rules" -- --list-rules
for code in SBX001 SBX002 SBX003 SBX004 SBX005 SBX006; do
    contains "$out" "$code" "--list-rules lists $code"
done
[ "$(grep -c sandbox_privileges "$out")" -eq 8 ] && pass "eight rules in sandbox_privileges" || fail "not eight sandbox_privileges rules"
expect_status 0 "--list-plugins" -- --list-plugins && contains "$out" "privileges" "--list-plugins lists privileges"
contains "$out" "1.0" "--list-plugins shows the ABI"
expect_status 0 "--explain" -- --explain SBX001
for section in "What it reports" "Why it matters" "How to fix" "Allowlist key" "Example"; do
    contains "$out" "$section" "--explain shows '$section'"
done
expect_status 0 "--explain by name" -- --explain privileges && contains "$out" "SBX001 privileges" "--explain accepts a name"
expect_status 2 "--explain unknown" -- --explain NOPE && contains "$err" "no rule with code or name 'NOPE'" "--explain unknown rule"

# --- selection -----------------------------------------------------------------
mkdir sel
cat > sel/compose.yaml <<'YAML'
services:
  web:
    privileged: true
    network_mode: host
    volumes:
      - /srv:/srv
      - /var/run/docker.sock:/var/run/docker.sock
YAML
expect_status 1 "--select SBX001" -- --format json --select SBX001 sel
grep -q '"rule": "SBX00[2-6]"' "$out" && fail "--select SBX001 ran other rules" || pass "--select SBX001 runs one rule"
contains "$out" '"rule": "SBX001"' "--select SBX001 keeps SBX001"
expect_status 1 "--ignore SBX001" -- --format json --ignore SBX001 sel
lacks "$out" '"rule": "SBX001"' "--ignore SBX001 drops it"
expect_status 0 "--select with --ignore" -- --select SBX001 --ignore privileges sel
rules_in() { grep -o '"rule": "[A-Z]*[0-9]*"' "$out" | sort -u | tr '\n' ' '; }
expect_status 1 "--select IESC001" -- --format json --select IESC001 sel
[ "$(rules_in)" = '"rule": "SBX001" "rule": "SBX002" "rule": "SBX003" "rule": "SBX006" ' ] \
    && pass "--select IESC001 runs the whole group" || fail "--select IESC001: $(rules_in)"
expect_status 1 "--select SBX003" -- --format json --select SBX003 sel
[ "$(rules_in)" = '"rule": "SBX003" ' ] && pass "--select SBX003 runs one rule" || fail "--select SBX003: $(rules_in)"
expect_status 1 "--select SBX0" -- --format json --select SBX0 sel
[ "$(rules_in)" = '"rule": "SBX001" "rule": "SBX002" "rule": "SBX003" "rule": "SBX006" ' ] \
    && pass "--select SBX0 (a code prefix)" || fail "--select SBX0: $(rules_in)"
expect_status 1 "--ignore SBX006" -- --format json --ignore SBX006 sel
[ "$(rules_in)" = '"rule": "SBX001" "rule": "SBX002" "rule": "SBX003" ' ] \
    && pass "--ignore SBX006 drops the socket finding" || fail "--ignore SBX006: $(rules_in)"
lacks "$out" "docker.sock" "--ignore SBX006: SBX003 does not take the socket over"
expect_status 1 "--select by name and group" -- --format json --select mounts,namespaces sel
[ "$(rules_in)" = '"rule": "SBX002" "rule": "SBX003" ' ] && pass "--select by rule names" || fail "--select names: $(rules_in)"
expect_status 0 "--list-rules with selection" -- --list-rules --select SBX003
contains "$out" "(not selected)" "--list-rules marks rules not selected"

finish
