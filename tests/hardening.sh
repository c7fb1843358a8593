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
expect_status 1 "SBX003 sarif" -- --format sarif sev
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

finish
