#!/bin/sh
# The sandbox_hardening group (SPEC §7b) as a user meets it: off by
# default, on with --extend-select or the configuration's extend-select;
# its SARIF security severities; and SBX003's critical host system
# directories (SPEC §7, §9).  The findings themselves are pinned by the
# golden fixtures tests/golden/sbx10*.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
python=/usr/bin/python3
cd "$scratch"

# --- SBX003: host system directories are critical in SARIF ------------------
mkdir sev
cat > sev/compose.yaml <<'YAML'
services:
  web:
    volumes:
      - /etc:/host/etc
      - /etc/localtime:/etc/localtime:ro
      - ./data:/data
      - ../up:/up
YAML
expect_status 1 "SBX003 sarif" -- --format sarif sev || true
"$python" - "$out" <<'PY' && pass "SBX003: system directories critical (9.5, read-only 9.0), other host paths 7.5" \
    || fail "SBX003 security-severity"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
scores = {r["message"]["text"].split("'")[1]:
          r["properties"]["security-severity"] for r in run["results"]}
assert scores["/etc"] == "9.5", scores
assert scores["/etc/localtime"] == "9.0", scores
assert scores["./data"] == "7.5", scores
assert scores["../up"] == "7.5", scores
PY

# --- the group is off by default --------------------------------------------
mkdir plain
cat > plain/compose.yaml <<'YAML'
services:
  web:
    image: nginx
    ports: ["80:80"]
YAML
rules_in() { grep -o '"rule": "[A-Z]*[0-9]*"' "$out" | sort -u | sed 's/"rule": //; s/"//g' | tr '\n' ' '; }
all_rules="SBX101 SBX102 SBX103 SBX104 SBX105 SBX106 SBX107 SBX108 "   # SBX110: pods only
expect_status 0 "default rules" -- --format json plain || true
[ -z "$(rules_in)" ] && pass "off by default: no hardening finding without a selection" \
    || fail "off by default: $(rules_in)"
expect_status 1 "--extend-select sandbox_hardening" -- --format json --extend-select sandbox_hardening plain || true
[ "$(rules_in)" = "$all_rules" ] && pass "--extend-select sandbox_hardening runs all eight" \
    || fail "--extend-select sandbox_hardening: $(rules_in)"
expect_status 1 "--extend-select SBX1" -- --format json --extend-select SBX1 plain || true
[ "$(rules_in)" = "$all_rules" ] && pass "a code prefix selects the opt-in rules" \
    || fail "--extend-select SBX1: $(rules_in)"
expect_status 1 "--select SBX101" -- --format json --select SBX101 plain || true
[ "$(rules_in)" = "SBX101 " ] && pass "--select SBX101 runs one rule" || fail "--select SBX101: $(rules_in)"
expect_status 0 "--select published_ports" -- --format json --select published_ports plain || true
[ "$(rules_in)" = "SBX108 " ] && pass "--select by name" || fail "--select published_ports: $(rules_in)"
expect_status 0 "--list-rules" -- --list-rules || true
[ "$(grep -c 'sandbox_hardening.*(opt-in, not selected)$' "$out")" -eq 10 ] \
    && pass "--list-rules marks the ten rules opt-in, not selected" || fail "--list-rules: $(cat "$out")"

# --- ... and on with the configuration's extend-select ------------------------
mkdir ini toml both
cp plain/compose.yaml ini/compose.yaml
cp plain/compose.yaml toml/compose.yaml
printf '[sandlint]\nextend-select = sandbox_hardening\n' > ini/.sandlint.ini
printf '[tool.sandlint]\nextend-select = ["sandbox_hardening"]\n' > toml/pyproject.toml
for config in ini toml; do
    cd "$scratch/$config"
    expect_status 1 "$config: extend-select" -- --format json . || true
    cd "$scratch"
    [ "$(rules_in)" = "$all_rules" ] && pass "$config: extend-select = sandbox_hardening turns the group on" \
        || fail "$config: extend-select: $(rules_in)"
done
cp plain/compose.yaml both/compose.yaml
printf '[sandlint]\nselect = SBX001\nextend-select = read_only\n' > both/.sandlint.ini
cd "$scratch/both"
expect_status 1 "select and extend-select" -- --format json . || true
cd "$scratch"
[ "$(rules_in)" = "SBX103 " ] && pass "extend-select adds to the configuration's select" \
    || fail "select + extend-select: $(rules_in)"

# --- --explain: what a hardened docker run does, and the Compose lines --------
explains() {
    code=$1
    shift
    # Unwrapped (COLUMNS): the phrases are looked for on one line.
    COLUMNS=100000
    export COLUMNS
    expect_status 0 "--explain $code" -- --explain "$code" || return 0
    unset COLUMNS
    for text in "$@"; do
        contains "$out" "$text" "--explain $code: $text"
    done
}
explains SBX101 "opt-in" "docker run --cap-drop ALL" "cap_drop:" "- ALL"
explains SBX102 "docker run --security-opt no-new-privileges" "- no-new-privileges:true"
explains SBX103 "docker run --read-only" "read_only: true"
explains SBX104 "docker run --pids-limit 512" "pids_limit: 512" "pids: 512"
explains SBX105 "docker run --memory 2g" "mem_limit: 2g" "memory: 2g"
explains SBX106 "docker run --cpus 2" "cpus: 2"
explains SBX107 "docker run --user 1000:1000" 'user: "1000:1000"' "image may set"
explains SBX108 "without -p" '"127.0.0.1:8080:80"' "host_ip: 127.0.0.1"
explains SBX109 "opt-in" "allowEntities world or all" "no internet at all" "allowDomains: [pypi.org"
explains SBX007 "gVisor" "runtimeClassName" "Remove runtimeClassName"
explains SBX008 "automountServiceAccountToken: true" "/var/run/secrets/kubernetes.io/serviceaccount/token" "automountServiceAccountToken: false"

# --- security-severity per rule -----------------------------------------------
expect_status 1 "hardening sarif" -- --format sarif --extend-select sandbox_hardening plain || true
"$python" - "$out" <<'PY' && pass "hardening rules carry their security-severity" || fail "hardening security-severity"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r["properties"]["security-severity"] for r in run["tool"]["driver"]["rules"]}
want = {"SBX101": "7.0", "SBX102": "6.5", "SBX103": "5.5", "SBX104": "5.0",
        "SBX105": "5.0", "SBX106": "4.0", "SBX107": "4.0", "SBX108": "4.0"}
for code, score in want.items():
    assert rules[code] == score, (code, rules[code])
results = {r["ruleId"]: r["properties"]["security-severity"] for r in run["results"]}
for code, score in want.items():
    assert results[code] == score, (code, results[code])
PY

# --- the hardened example passes everything -----------------------------------
example="$abs_top_srcdir/examples/hardened-sandbox"
expect_status 0 "hardened example" -- --format json --extend-select sandbox_hardening "$example" || true
contains "$out" '"findings": []' "examples/hardened-sandbox: no finding with the hardening group"
expect_status 1 "examples" -- --format json "$abs_top_srcdir/examples" || true
lacks "$out" '"rule": "SBX10' "examples/ with the default rules: no hardening finding"

finish
