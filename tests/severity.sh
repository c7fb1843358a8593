#!/bin/sh
# Per-rule severity in the configuration (SPEC §16-17): `severity =
# error|warning` under [rule CODE] (INI) and [tool.sandlint.rules.CODE]
# (TOML) changes the findings a rule reports at its default severity - in
# text, JSON, SARIF and the exit status - but not a "cannot be checked"
# warning; the codes that say a file was not checked cannot be lowered;
# wrong values are configuration errors at their position.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# privileged (an error) and an interpolated cap_add (a warning that cannot be
# checked); no CPU limit (SBX106, a warning by default, opt-in).
mkdir repo
cat >repo/compose.yaml <<'EOF'
services:
  web:
    image: nginx
    privileged: true
    cap_add: ["${CAP}"]
    cpus: ${CPUS}
  db:
    image: postgres
EOF
cd repo

expect_status 1 "no configuration: privileged fails" -- .
contains "$out" "compose.yaml:4:5: error: privileged mode" "privileged is an error by default"

# --- lowering an error makes the run pass -------------------------------------------
printf '[rule SBX001]\nseverity = warning\n' >.sandlint.ini
expect_status 0 "SBX001 lowered to warning: exit 0" -- .
contains "$out" "compose.yaml:4:5: warning: privileged mode" "the finding is printed as a warning"
contains "$out" "hint: remove the setting, or review the required access" \
    "the hint still asks to remove the setting (not 'use a literal value')"
contains "$out" "compose.yaml:5:15: warning: cap_add entry '\${CAP}' is interpolated" \
    "the interpolated entry stays a warning"
contains "$err" "0 errors, 2 warnings" "the summary counts warnings"
expect_status 1 "--strict still fails on warnings" -- --strict .
expect_status 0 "JSON" -- --format json .
json_valid "$out" || fail "JSON report is not valid"
contains "$out" '"rule": "SBX001", "name": "privileges", "group": "sandbox_privileges", "plugin": "privileges", "severity": "warning", "status": "warn"' \
    "JSON: severity warning, status warn"
expect_status 0 "SARIF" -- --format sarif .
contains "$out" '"ruleId": "SBX001", "ruleIndex": ' "SARIF has the result"
grep -o '"ruleId": "SBX001", "ruleIndex": [0-9]*, "level": "[a-z]*"' "$out" | sort -u >levels
[ "$(cut -d'"' -f10 levels | sort -u)" = "warning" ] && pass "SARIF: the results' level is warning" ||
    fail "SARIF levels: $(cat levels)"
grep -q '"id": "SBX001", .*"defaultConfiguration": {"level": "warning"' "$out" &&
    pass "SARIF: the rule's configured level is warning" || fail "SARIF: SBX001's defaultConfiguration"
COLUMNS=1000
export COLUMNS
expect_status 0 "--explain shows the configured severity" -- --explain SBX001
unset COLUMNS
contains "$out" "default severity error (configured: warning)" "--explain: default and configured"
expect_status 0 "--list-rules --format json" -- --list-rules --format json
contains "$out" '"code": "SBX001", "name": "privileges", "group": "sandbox_privileges", "group_code": "IESC001", "plugin": "privileges", "kinds": ["compose", "agent-env", "kubernetes", "devcontainer", "rcds", "shell", "makefile", "github-actions", "gitlab-ci", "gitlab-runner"], "default_severity": "error", "severity": "warning"' \
    "--list-rules --format json: default and configured severity"

# --- raising a warning makes the run fail, but not a 'cannot be checked' one ---------
printf '[rule SBX106]\nseverity = error\n' >.sandlint.ini
expect_status 1 "SBX106 raised to error" -- --select SBX106 .
contains "$out" "compose.yaml:7:3: error: no CPU limit" "the missing limit is an error"
contains "$out" "compose.yaml:6:5: warning: cpus '\${CPUS}' is interpolated" \
    "the interpolated cpus stays a warning"
rm .sandlint.ini
expect_status 0 "SBX106 is a warning without configuration" -- --select SBX106 .

# --- TOML ------------------------------------------------------------------------------
printf '[tool.sandlint.rules.SBX001]\nseverity = "warning"\n' >pyproject.toml
expect_status 0 "TOML: SBX001 lowered" -- .
contains "$out" "compose.yaml:4:5: warning: privileged mode" "TOML: printed as a warning"
printf '[tool.sandlint.rules.SBX001]\nseverity = 1\n' >pyproject.toml
expect_status 2 "TOML: severity must be a string" -- .
contains "$err" "pyproject.toml:2:12:" "TOML: the error points at the value"
rm pyproject.toml

# --- the core's codes ---------------------------------------------------------------
# A stale allowlist entry (SL005) raised to an error fails the run.
printf '[allowlist sandbox_privileges]\n* = web:volumes:/gone\n* = web:privileged\n[rule SL005]\nseverity = error\n' >.sandlint.ini
expect_status 1 "SL005 raised: a stale entry fails" -- .
contains "$out" ".sandlint.ini:2:5: error: allowlist entry 'web:volumes:/gone'" "the stale entry is an error"
for code in SL001 SL002 SL006 SL007; do
    printf '[rule %s]\nseverity = warning\n' "$code" >.sandlint.ini
    expect_status 2 "$code cannot be lowered" -- .
    contains "$err" ".sandlint.ini:2:12: severity of rule $code cannot be lowered" \
        "$code: the error points at the value"
done
printf '[rule SL001]\nseverity = error\n' >.sandlint.ini
expect_status 1 "SL001 may be raised" -- .

# --- wrong values and unknown rules -----------------------------------------------
printf '[rule SBX001]\nseverity = critical\n' >.sandlint.ini
expect_status 2 "an unknown severity" -- .
contains "$err" ".sandlint.ini:2:12: severity of rule SBX001 must be \"error\" or \"warning\", not 'critical'" \
    "the error names the allowed values"
printf '[rule SBX999]\nseverity = error\n' >.sandlint.ini
expect_status 2 "severity of an unknown rule" -- .
contains "$err" "options for rule 'SBX999', but no loaded rule has that code" "an unknown rule is an error"

# --- an allowlisted finding stays accepted ----------------------------------------
printf '[rule SBX106]\nseverity = error\n[allowlist sandbox_hardening]\n* = web:cpu_limit\n* = db:cpu_limit\n' >.sandlint.ini
expect_status 0 "a raised finding can be allowlisted" -- --select SBX106 .
finish
