#!/bin/sh
# The JSON documents say which fields they hold by their "schema" number
# (SPEC §16: the JSON output's schema version changes if its fields do).
# This pins the fields of each schema this sandlint writes - the report,
# --list-rules and --list-plugins: a change to the fields that keeps the
# number fails here.  Changing them means a new schema number, its fields
# below, and the change in NEWS and sandlint(1).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
if ! command -v python3 >/dev/null 2>&1; then
    echo "json_schema.sh: SKIP: python3 is needed to read the JSON documents"
    exit 77
fi
cd "$scratch"
mkdir root repo
cat >repo/compose.yaml <<'EOF'
services:
  web:
    image: x
    privileged: true
    cap_add: ["${CAP}"]
EOF
printf '[allowlist sandbox_privileges]\n* = web:privileged\n' >repo/.sandlint.ini
set +e
sl --format json --root repo repo >report.json 2>"$err"
set -e
sl --root root --list-rules --format json >rules.json
sl --root root --list-plugins --format json >plugins.json
status=0
python3 - report.json rules.json plugins.json <<'PY' >check.out 2>&1 || status=$?
import json, sys
# schema number -> the fields, in order, of each object of the document.
REPORT = {1: {
    "document": ["tool", "version", "schema", "findings", "summary"],
    "finding": ["rule", "name", "group", "plugin", "severity", "status", "allowlisted",
                "package", "file", "line", "column", "end_line", "end_column", "service",
                "field", "value", "key", "message", "hint"],
    "summary": ["files", "services", "errors", "warnings", "suppressed"],
}}
RULES = {1: {
    "document": ["tool", "version", "schema", "rules"],
    "rule": ["code", "name", "group", "group_code", "plugin", "kinds", "default_severity",
             "severity", "opt_in", "enabled", "summary", "url"],
}}
PLUGINS = {1: {
    "document": ["tool", "version", "schema", "plugins"],
    "plugin": ["name", "version", "summary", "abi", "path", "rules"],
}}
problems = []
def check(what, document, schemas, parts):
    schema = document.get("schema")
    if schema not in schemas:
        problems.append("%s: schema %r is not pinned here" % (what, schema))
        return
    fields = schemas[schema]
    if list(document) != fields["document"]:
        problems.append("%s (schema %d): fields %s" % (what, schema, list(document)))
    for name, objects in parts(document):
        if not objects:
            problems.append("%s: no %s to check" % (what, name))
        for item in objects:
            if list(item) != fields[name]:
                problems.append("%s (schema %d): %s fields %s; a change needs a new schema"
                                % (what, schema, name, list(item)))
                break
report, rules, plugins = (json.load(open(path)) for path in sys.argv[1:4])
check("the report", report, REPORT,
      lambda d: [("finding", d["findings"]), ("summary", [d["summary"]])])
check("--list-rules", rules, RULES, lambda d: [("rule", d["rules"])])
check("--list-plugins", plugins, PLUGINS, lambda d: [("plugin", d["plugins"])])
print("\n".join(problems) if problems else
      "report schema %d, --list-rules schema %d, --list-plugins schema %d: fields as pinned"
      % (report["schema"], rules["schema"], plugins["schema"]))
sys.exit(1 if problems else 0)
PY
[ "$status" -eq 0 ] && pass "$(cat check.out)" || { fail "JSON schemas:"; sed 's/^/    /' check.out >&2; }
finish
