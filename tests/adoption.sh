#!/bin/sh
# Adopting sandlint and trusting its reports (issue 12, SPEC §2, §3, §8,
# §9): quiet accepted findings and the summary that counts them, hints
# ready to paste, entries for every package ('*'), --strict, --exit-zero,
# --extend-select.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

mkdir -p repo/evals/alpha repo/evals/beta
cat > repo/evals/alpha/compose.yaml <<'YAML'
services:
  default:
    privileged: true
    cap_add: [SYS_ADMIN, "${CAP}"]
    # sandlint: ignore[SBX003] -- the data directory is reviewed (SEC-7)
    volumes: ["/srv/data:/data"]
YAML
cat > repo/evals/beta/compose.yaml <<'YAML'
services:
  default:
    privileged: true
YAML
cat > repo/.sandlint.ini <<'INI'
[sandlint]
packages = evals/*

[allowlist sandbox_privileges]
alpha = default:cap_add:SYS_ADMIN
* = default:privileged
INI

# --- accepted findings are quiet, and counted --------------------------------
expect_status 0 "everything accepted but a warning" -- --root repo repo
lacks "$out" "Allowlisted:" "text: allowlisted findings are not printed"
lacks "$out" "/srv/data" "text: suppressed findings are not printed"
contains "$out" "warning: cap_add entry '\${CAP}' is interpolated" "text: the warning is printed"
contains "$err" "0 errors, 1 warning in 2 files (2 services), 3 allowlisted, 1 suppressed" \
    "the summary counts accepted findings"
expect_status 0 "--show-accepted" -- --root repo --show-accepted repo
contains "$out" "evals/alpha/compose.yaml:3:5: note: Allowlisted: privileged mode" \
    "--show-accepted: an allowlisted finding is a note"
contains "$out" "evals/alpha/compose.yaml:6:15: note: bind-mounts host path '/srv/data' [SBX003] (suppressed: the data directory is reviewed (SEC-7))" \
    "--show-accepted: a suppressed finding is a note with its reason"
expect_status 0 "github" -- --root repo --format github repo
[ "$(wc -l < "$out")" -eq 1 ] && pass "github: only the warning is annotated" \
    || fail "github: $(wc -l < "$out") annotations"
expect_status 0 "github --show-accepted" -- --root repo --format github --show-accepted repo
[ "$(grep -c '^::notice ' "$out")" -eq 4 ] && pass "github --show-accepted: accepted findings are notices" \
    || fail "github --show-accepted: $(grep -c '^::notice ' "$out") notices"
expect_status 0 "json" -- --root repo --format json repo
[ "$(grep -c '"allowlisted": true' "$out")" -eq 3 ] && pass "json keeps allowlisted findings" \
    || fail "json lost allowlisted findings"
contains "$out" '"status": "suppressed"' "json keeps suppressed findings"
contains "$out" '"summary": {"files": 2, "services": 2, "errors": 0, "warnings": 4, "suppressed": 1}' \
    "the json summary is unchanged in form"

# --- entries under '*' apply in every package --------------------------------
grep -q '"package": "beta".*"key": "default:privileged".*"allowlisted": true\|"allowlisted": true.*"package": "beta".*"key": "default:privileged"' "$out" \
    && pass "'* = default:privileged' accepts it in beta" || fail "'*' entry did not apply in beta"

# --- hints ready to paste -------------------------------------------------------
sed -i '/^alpha = /d' repo/.sandlint.ini
expect_status 1 "a finding to allowlist" -- --root repo repo
contains "$out" "hint: remove the setting, or review the required access and add 'evals/alpha/compose.yaml = default:cap_add:SYS_ADMIN' under [allowlist sandbox_privileges]" \
    "INI: the hint gives the line to add, scoped to the file, and its section"
mkdir -p toml/evals/alpha
cp repo/evals/alpha/compose.yaml toml/evals/alpha/
printf '[tool.sandlint]\npackages = ["evals/*"]\n' > toml/pyproject.toml
expect_status 1 "pyproject" -- --root toml toml
contains "$out" "add '\"evals/alpha/compose.yaml\" = [\"default:privileged\"]' under [tool.sandlint.allowlists.sandbox_privileges]" \
    "TOML: the hint gives the TOML form"
printf '[tool.inspect-evals-lint]\n' > toml/pyproject.toml
expect_status 1 "inspect-evals-lint table" -- --root toml toml
contains "$out" "add '\"evals/alpha/compose.yaml\" = [\"default:privileged\"]' under [tool.sandlint.allowlists.sandbox_privileges]" \
    "TOML: a file entry goes to sandlint's table even beside inspect-evals-lint's"
mkdir -p elsewhere
cp repo/evals/alpha/compose.yaml elsewhere/
expect_status 1 "a file outside the root" -- --root toml elsewhere
contains "$out" "review the required access and run with a --root that holds the file to allowlist it" \
    "a file outside the root: no entry is offered (never one for '*')"
lacks "$out" "'* = " "no '*' entry is offered"

# --- exit status ----------------------------------------------------------------
printf 'services:\n  web:\n    cap_add: ["${CAP}"]\n' > warn.yaml
expect_status 0 "warnings pass by default" -- warn.yaml
expect_status 1 "--strict: warnings fail" -- --strict warn.yaml
expect_status 0 "--strict: accepted findings do not fail" -- --strict --root repo \
    --config repo/.sandlint.ini repo/evals/beta
expect_status 0 "--exit-zero" -- --exit-zero repo/evals/alpha
contains "$out" "error: privileged mode" "--exit-zero still reports"
expect_status 2 "--exit-zero keeps exit 2" -- --exit-zero --select NOPE warn.yaml

# --- --extend-select ----------------------------------------------------------
printf 'services:\n  web:\n    privileged: true\n    volumes: ["/srv:/srv"]\n' > both.yaml
expect_status 1 "--select narrows" -- --select SBX003 --format json both.yaml
lacks "$out" '"rule": "SBX001"' "--select SBX003 runs only SBX003"
expect_status 1 "--extend-select adds" -- --select SBX003 --extend-select SBX001 --format json \
    both.yaml
contains "$out" '"rule": "SBX001"' "--extend-select SBX001 adds SBX001"
expect_status 2 "--extend-select checks selectors" -- --extend-select NOPE warn.yaml
contains "$err" "unknown rule selector 'NOPE'" "--extend-select: unknown selector named"

# --- not Compose is never a silent pass, and --strict fails it --------------
# A file named explicitly that is neither agent-env values (a top-level key
# the chart does not have) nor a Kubernetes object, but uses Kubernetes
# fields (SPEC §12).
printf 'version: "3"\nservices:\n  web:\n    securityContext:\n      privileged: true\n' > sandbox.yaml
expect_status 0 "Kubernetes fields in a file of no kind" -- sandbox.yaml
contains "$out" "sandbox.yaml:4:5: warning: not a Compose file (Kubernetes: a manifest or a Helm values file) and not checked [SL003]" \
    "a file of no kind with Kubernetes fields is said to be unchecked"
expect_status 1 "--strict: a file that is not Compose fails" -- --strict sandbox.yaml
# A Kubernetes manifest named explicitly is checked as one (SPEC §12).
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostPID: true\n  containers: []\n' > pod.yaml
expect_status 1 "a Kubernetes manifest named explicitly is checked" -- pod.yaml
contains "$out" "pod.yaml:5:3: error:" "its finding is reported"
lacks "$out" "SL003" "and it is not called 'not a Compose file'"
# Named agent-env values that override part of the chart's defaults.
printf 'services:\n  web:\n    securityContext:\n      privileged: true\n' > overrides.yaml
expect_status 1 "agent-env overrides named explicitly are checked" -- --format json overrides.yaml
contains "$out" '"key": "web:securityContext.privileged"' "as agent-env values"

# --- standard input -------------------------------------------------------------
stdin_run() {
    input=$1
    shift
    set +e
    printf "$input" | sl "$@" >"$out" 2>"$err"
    status=$?
    set -e
}
stdin_run 'services:\n  web:\n    privileged: true\n' -
[ "$status" -eq 1 ] && pass "stdin: exit 1 for a finding" || fail "stdin: exit $status"
contains "$out" "compose.yaml:3:5: error: privileged mode" "stdin: named compose.yaml by default"
contains "$err" "in 1 file (1 service)" "stdin: one file"
printf 'alpha = default:cap_add:NET_ADMIN\n' >> repo/.sandlint.ini
stdin_run 'services:\n  default:\n    privileged: true\n' --root repo \
    --stdin-filename repo/evals/alpha/compose.yaml --format json -
contains "$out" '"package": "alpha", "file": "evals/alpha/compose.yaml"' \
    "--stdin-filename: package and path from the name"
contains "$out" '"allowlisted": true' "--stdin-filename: the package's allowlist applies"
lacks "$out" '"SL005"' "stdin: no allowlist entry is called stale"
stdin_run 'services:\n  web:\n    privileged: true  # sandlint: ignore[SBX001] -- ok\n' -
[ "$status" -eq 0 ] && pass "stdin: suppression comments work" || fail "stdin: exit $status"
stdin_run 'services:\n  crash_me:\n    image: x\n' --plugin "$TEST_PLUGIN_DIR/crasher.so" -
[ "$status" -eq 2 ] && pass "stdin: checked in a worker (a crash costs the file, not the run)" \
    || fail "stdin: exit $status"
contains "$out" "plugin crasher crashed" "stdin: the crash is reported"
stdin_run '' -
contains "$err" "0 errors, 0 warnings in 1 file (0 services)" "stdin: empty input is an empty file"
expect_status 2 "'-' with other operands" -- - warn.yaml
contains "$err" "'-' (standard input) cannot be combined with other operands" "'-' alone"
expect_status 2 "--stdin-filename without '-'" -- --stdin-filename x.yaml warn.yaml
finish
