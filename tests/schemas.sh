#!/bin/sh
# SARIF 2.1.0 and GitLab Code Quality output validate against their schemas
# (SPEC §9), with sandlint's own promises (tests/sarif_check.py): every
# golden fixture's SARIF, a run with files and a configuration outside the
# root, and a GitLab report.  Needs python3-jsonschema: SKIP (77) without.
# The corpus's SARIF: tests/corpus_schemas.sh.
. "${abs_top_srcdir:?}/tests/lib.sh"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if ! "$python" -c 'import jsonschema' 2>/dev/null; then
    echo "schemas.sh: SKIP: python3-jsonschema is missing"
    exit 77
fi
make_scratch
golden="$srcdir_tests/golden"
schema="$srcdir_tests/data/sarif/sarif-schema-2.1.0.json"
gitlab_schema="$srcdir_tests/data/gitlab/codequality.schema.json"
[ -f "$schema" ] || fail "the SARIF schema is missing: $schema (the sources ship it)"

n=0
for input in "$golden"/*.yaml "$golden"/*/; do
    [ -e "$input" ] || continue
    n=$((n + 1))
    name=$(basename "$input")
    if [ -d "$input" ]; then
        (cd "$input" && sl --format sarif --root .) >"$scratch/$n.sarif" 2>/dev/null || true
    else
        (cd "$golden" && sl --format sarif --root . "$name") >"$scratch/$n.sarif" 2>/dev/null || true
    fi
done
"$python" "$srcdir_tests/sarif_check.py" "$schema" "$scratch"/*.sarif \
    && pass "SARIF of $n golden fixtures validates" || fail "SARIF of golden fixtures does not validate"

cd "$scratch"
mkdir -p machine/checkout machine/elsewhere
printf 'services:\n  web:\n    privileged: true\n' > machine/elsewhere/compose.yaml
printf 'services:\n  web:\n    privileged: true\n    pid: host\n' > machine/checkout/compose.yaml
printf '[allowlist sandbox_privileges]\n./compose.yaml = web:privileged\n' > machine/base.ini
(cd machine/checkout && sl --format sarif --config ../base.ini --root . . ../elsewhere) \
    > outside.sarif 2>/dev/null || true
"$python" "$srcdir_tests/sarif_check.py" "$schema" outside.sarif \
    && pass "SARIF with a file and a configuration outside the root validates" \
    || fail "SARIF with things outside the root does not validate"

(cd machine/checkout && sl --format gitlab --show-accepted --config ../base.ini --root . . \
    ../elsewhere) > gitlab.json 2>/dev/null || true
"$python" -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
    "$gitlab_schema" gitlab.json && pass "gitlab output validates against the Code Quality schema" \
    || fail "gitlab output does not validate"
finish
