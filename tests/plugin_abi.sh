#!/bin/sh
# Plugin ABI 1.1 from the command line (SPEC §10): a plugin built against
# the 1.0 header runs unchanged; findings about a whole document; '%k' in
# hints; per-rule options from INI and TOML with config errors at their
# positions; opt-in rules; --explain and --list-rules show both.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
: "${TEST_PLUGIN_DIR:?}"
abi10="$TEST_PLUGIN_DIR/abi10.so"
abi11="$TEST_PLUGIN_DIR/abi11.so"
abi12="$TEST_PLUGIN_DIR/abi12.so"
mkdir sandbox
cat > sandbox/compose.yaml <<'YAML'
services:
  web:
    image: nginx:1.0
networks:
  hostnet:
    driver: host
  quiet:  # sandlint: ignore[TST101] -- reviewed
    driver: host
  plain: {}
x-test-flag: true
YAML

# --- ABI 1.0 compatibility ---------------------------------------------
expect_status 0 "1.0 plugin listed" -- --no-default-plugins --plugin "$abi10" --list-plugins
contains "$out" "abi10" "the 1.0 plugin loads into the 1.1 host"
awk '$1 == "abi10" { print $3 }' "$out" >abi
[ "$(cat abi)" = "1.0" ] && pass "--list-plugins shows ABI 1.0 for it" || fail "ABI shown: $(cat abi)"
expect_status 1 "1.0 plugin runs" -- --root . --format json --no-default-plugins --plugin "$abi10" sandbox
contains "$out" '"rule": "TST010"' "the 1.0 plugin reports"
contains "$out" '"key": "web:image:nginx:1.0"' "its key is built as in 1.0"
contains "$out" '"hint": "100% literal: %k stays, %% stays, %s stays"' "its hint prints exactly as given"
expect_status 1 "1.0 plugin, text" -- --root . --no-default-plugins --plugin "$abi10" sandbox
contains "$out" "    hint: 100% literal: %k stays, %% stays, %s stays" "text output keeps the 1.0 hint too"
printf 'services:\n  web:\n    image: x\nx-abi10-document: 1\n' > sandbox/compose.yaml.1
mkdir one && mv sandbox/compose.yaml.1 one/compose.yaml
expect_status 2 "1.0 plugin reporting without service" -- --root . --format json --no-default-plugins --plugin "$abi10" one
contains "$out" '"rule": "SL006"' "a 1.0 finding without service is still refused"
contains "$out" "(in check_document, for ABI 1.0) service" "with the 1.0 reason"

# --- document-level findings and %k ---------------------------------------
expect_status 1 "document-level findings" -- --root . --format json --no-default-plugins --plugin "$abi11" sandbox
contains "$out" '"service": null, "field": "networks", "value": "hostnet", "key": "networks:hostnet"' "key field:value, no service"
contains "$out" '"hint": "allowlist '"'"'networks:hostnet'"'"' under test_group (100% sure)"' "%k is the key, %% a percent sign"
contains "$out" '"field": "x-test-flag", "value": null, "key": "x-test-flag"' "key field without value"
contains "$out" '"line": 5, "column": 3' "points at the network's key"
n=$(grep -c '"key": "networks:hostnet"' "$out")
[ "$n" -eq 1 ] && pass "one finding per rule and key" || fail "networks:hostnet reported $n times"
lacks "$out" "networks:plain" "a network without driver host is fine"
grep '"key": "networks:quiet"' "$out" >quiet || true
contains quiet '"status": "suppressed"' "a suppression comment covers a document-level finding"
lacks "$out" "SL004" "the suppression comment is used"
expect_status 1 "SARIF with document-level findings" -- --root . --format sarif --no-default-plugins --plugin "$abi11" sandbox
if json_valid "$out"; then pass "SARIF is JSON"; else fail "SARIF is not JSON"; fi
contains "$out" "networks:hostnet" "SARIF carries the key"
cat > .sandlint.ini <<'INI'
[sandlint]
packages = sandbox
[allowlist test_group]
sandbox = networks:hostnet
INI
expect_status 0 "allowlisted document-level finding" -- --root . --format json --no-default-plugins --plugin "$abi11" sandbox
contains "$out" '"allowlisted": true' "an allowlist entry covers a document-level key"
contains "$out" '"message": "Allowlisted: network '"'"'hostnet'"'"' uses the host'"'"'s network stack"' "allowlisted message"
rm .sandlint.ini

# --- options --------------------------------------------------------------
expect_status 0 "option defaults" -- --root . --format json --no-default-plugins --plugin "$abi11" --select TST102 sandbox
contains "$out" '"message": "label=none limit=3 strict=0 hosts=a.example|b.example has_b=1"' "defaults of every type"
cat > .sandlint.ini <<'INI'
[rule TST102]
label = hello world
limit = -12
strict = yes
hosts = x.example, b.example
INI
expect_status 0 "INI options" -- --root . --format json --no-default-plugins --plugin "$abi11" --select TST102 sandbox
contains "$out" '"message": "label=hello world limit=-12 strict=1 hosts=x.example|b.example has_b=1"' "[rule CODE] values reach the rule"
rm .sandlint.ini
cat > pyproject.toml <<'TOML'
[tool.sandlint]
[tool.sandlint.rules.TST102]
label = "from toml"
limit = 9223372036854775807
strict = true
hosts = ["q.example"]
TOML
expect_status 0 "TOML options" -- --root . --format json --no-default-plugins --plugin "$abi11" --select TST102 sandbox
contains "$out" '"message": "label=from toml limit=9223372036854775807 strict=1 hosts=q.example has_b=0"' "[tool.sandlint.rules.CODE] values reach the rule"
rm pyproject.toml

# Configuration errors: exit 2, file:line:col, before any file is read.
config_error() {   # config_error FILE TEXT EXPECTED DESCRIPTION
    printf '%b' "$2" > "$1"
    expect_status 2 "$4" -- --root . --no-default-plugins --plugin "$abi11" sandbox
    contains "$err" "$3" "$4"
    lacks "$out" "TST10" "$4: nothing checked"
    rm -f "$1"
}
config_error .sandlint.ini '[rule TST102]\nlimit = many\n' \
    ".sandlint.ini:2:9: option 'limit' of rule TST102 must be a 64-bit integer, not 'many'" "INI wrong integer"
config_error .sandlint.ini '[rule TST102]\n\nstrict = maybe\n' \
    ".sandlint.ini:3:10: option 'strict' of rule TST102 must be a boolean" "INI wrong boolean"
config_error .sandlint.ini '[rule TST102]\nlimits = 3\n' \
    ".sandlint.ini:2:1: rule TST102 has no option 'limits' (its options: label, limit, strict, hosts)" "unknown option"
config_error .sandlint.ini '[rule TST999]\nlimit = 3\n' \
    ".sandlint.ini:1:7: options for rule 'TST999', but no loaded rule has that code" "unknown rule"
config_error .sandlint.ini '[rule SL001]\nlimit = 3\n' \
    ".sandlint.ini:2:1: rule SL001 has no option 'limit' (it declares none)" "a rule without options"
config_error pyproject.toml '[tool.sandlint.rules.TST102]\nstrict = "true"\n' \
    "pyproject.toml:2:10: option 'strict' of rule TST102 must be a boolean, not a string" "TOML string for a boolean"
config_error pyproject.toml '[tool.sandlint.rules.TST102]\nhosts = "one"\n' \
    "pyproject.toml:2:9: option 'hosts' of rule TST102 must be an array of strings" "TOML string for a list"
config_error pyproject.toml '[tool.sandlint.rules.TST102]\nlabel = 3\n' \
    "pyproject.toml:2:9: option 'label' of rule TST102 must be a string, not an integer" "TOML integer for a string"

# A rule asking for an option it does not declare, or with another type,
# fails on the file (SL006) with the reason.
printf 'services:\n  web:\n    x-wrong-type: 1\n  db:\n    x-unknown-option: 1\n' > one/compose.yaml
expect_status 2 "getter misuse" -- --root . --format json --no-default-plugins --plugin "$abi11" --select TST102 one
contains "$out" "option 'label' of rule TST102 is a string, not an integer" "wrong getter type named"
contains "$out" "rule TST102 declares no option 'no_such_option'" "undeclared option named"

# --- opt-in rules ------------------------------------------------------------
expect_status 1 "default selection" -- --root . --format json --no-default-plugins --plugin "$abi11" sandbox
lacks "$out" "TST103" "an opt-in rule does not run by default"
for selector in TST103 opt-in-rule test_hardening TST10; do
    expect_status 1 "--select $selector" -- --root . --format json --no-default-plugins --plugin "$abi11" --select "$selector" sandbox
    contains "$out" '"rule": "TST103"' "--select $selector runs the opt-in rule"
done
expect_status 1 "--extend-select" -- --root . --format json --no-default-plugins --plugin "$abi11" --extend-select test_hardening sandbox
contains "$out" '"rule": "TST103"' "--extend-select GROUP runs the opt-in rule"
contains "$out" '"rule": "TST101"' "--extend-select keeps the default rules"
printf '[sandlint]\nselect = test_hardening\n' > .sandlint.ini
expect_status 1 "select in the configuration" -- --root . --format json --no-default-plugins --plugin "$abi11" sandbox
contains "$out" '"rule": "TST103"' "select = GROUP in the configuration runs it"
rm .sandlint.ini
expect_status 0 "--list-rules" -- --root . --no-default-plugins --plugin "$abi11" --list-rules
contains "$out" "runs only when selected (test plugin) (opt-in, not selected)" "--list-rules marks an opt-in rule"
expect_status 0 "--list-rules selected" -- --root . --no-default-plugins --plugin "$abi11" --select TST103 --list-rules
contains "$out" "(test plugin) (opt-in)" "--list-rules marks a selected opt-in rule"
expect_status 0 "--explain opt-in" -- --root . --no-default-plugins --plugin "$abi11" --explain TST103
contains "$out" "default severity error, opt-in" "--explain says opt-in"

# --- --explain lists options --------------------------------------------------
# (Unwrapped, COLUMNS: each line is looked for whole.)
COLUMNS=100000
export COLUMNS
expect_status 0 "--explain options" -- --root . --no-default-plugins --plugin "$abi11" --explain TST102
unset COLUMNS
contains "$out" "Options" "an Options section"
contains "$out" "  Set under [rule TST102] in .sandlint.ini or [tool.sandlint.rules.TST102] in pyproject.toml." "where options are set"
contains "$out" '  label (string, default "none")' "string option and default"
contains "$out" "  limit (integer, default 3)" "integer option and default"
contains "$out" "  strict (boolean, default false)" "boolean option and default"
contains "$out" '  hosts (list, default "a.example", "b.example")' "list option and default"
contains "$out" "    host names" "each option's summary"

# --- ABI 1.2: file kinds --------------------------------------------------------
mkdir kinds
cat > kinds/values.yaml <<'YAML'
services:
  default:
    image: python:3.12
    initContainers:
      - name: setup
        image: busybox
YAML
cat > kinds/pod.yaml <<'YAML'
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: main, image: busybox}]
          initContainers: [{image: busybox}]
YAML
printf 'services:\n  web:\n    image: nginx\n' > kinds/compose.yaml
printf '[sandlint]\nkubernetes = kinds/pod.yaml\n' > .sandlint.ini
expect_status 0 "1.1 plugin on every kind" -- --root . --format json --no-default-plugins --plugin "$abi11" --select TST102 kinds
contains "$out" '"service": "web"' "a 1.1 rule checks the Compose file"
n=$(grep -c '"rule": "TST102"' "$out")
[ "$n" -eq 1 ] && pass "a 1.1 rule checks Compose only" || fail "TST102 reported $n times"
expect_status 0 "1.1 plugin listed" -- --no-default-plugins --plugin "$abi11" --list-plugins
awk '$1 == "abi11" { print $3 }' "$out" >abi
[ "$(cat abi)" = "1.1" ] && pass "the 1.1 plugin is built for ABI 1.1" || fail "ABI shown: $(cat abi)"
expect_status 0 "1.2 plugin on every kind" -- --root . --format json --no-default-plugins --plugin "$abi12" kinds
contains "$out" '"service": "web", "field": "container", "value": null, "key": "web:container", "message": "compose container (sort 1)"' "Compose: the service is the container"
contains "$out" '"service": "default", "field": "container", "value": null, "key": "default:container", "message": "agent-env container (sort 1)"' "agent-env: the service"
contains "$out" '"service": "default/setup", "field": "container", "value": null, "key": "default/setup:container", "message": "agent-env container (sort 2)"' "agent-env: its init container"
contains "$out" '"key": "CronJob/nightly/main:container", "message": "kubernetes container (sort 1)"' "Kubernetes: a CronJob's container"
contains "$out" '"key": "CronJob/nightly/initContainers[0]:container", "message": "kubernetes container (sort 2)"' "an unnamed init container by its place"
contains "$out" '"key": "CronJob/nightly:pod", "message": "pod spec of CronJob/nightly"' "pod_specs() finds the CronJob's pod spec"
n=$(grep -c '"rule": "TST121"' "$out")
[ "$n" -eq 1 ] && pass "a Kubernetes-only rule runs on objects only" || fail "TST121 reported $n times"
# What a 1.2 plugin's check_service receives has not changed with the
# container model of ABI 1.3: the same services, keys and roots, and no
# call for a scope.
contains "$out" '"message": "compose service web at 2:3, 1 settings, root kind -"' "1.2 check_service: a Compose service"
contains "$out" '"message": "agent-env service default at 2:3, 2 settings, root kind -"' "1.2 check_service: an agent-env service"
contains "$out" '"message": "kubernetes service CronJob/nightly at 8:9, 2 settings, root kind CronJob"' "1.2 check_service: a CronJob's pod spec, its object as the root"
n=$(grep -c '"rule": "TST122"' "$out")
[ "$n" -eq 3 ] && pass "1.2 check_service: one call per service or pod spec" || fail "TST122 reported $n times"
rm .sandlint.ini
mkdir shapes
printf 'apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js}\nspec:\n  replicatedJobs:\n    - template:\n        spec:\n          template:\n            spec:\n              containers: [{name: w, image: busybox}]\n' \
    > shapes/jobset.yaml
expect_status 0 "1.2 plugin on a pod spec found by its shape" -- --root . --format json \
    --no-default-plugins --plugin "$abi12" shapes/jobset.yaml
contains "$out" '"key": "JobSet/js:pod", "message": "pod spec of JobSet/js"' \
    "pod_specs() finds a pod spec wherever its shape shows it (SPEC §13)"
finish
