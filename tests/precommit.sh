#!/bin/sh
# .pre-commit-hooks.yaml: valid YAML (read with sandlint's own YAML model
# through tests/yaml_json), the two hooks with the fields pre-commit needs,
# and `files` patterns (Python re.search, as pre-commit applies them) that
# select exactly the files sandlint's discovery checks, plus .sandlint.ini
# and pyproject.toml for the whole-repository hook.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
: "${abs_top_builddir:?}"
python=$(command -v python3 || true)
if [ -z "$python" ]; then
    echo "precommit.sh: SKIP: python3 is needed to apply the hooks' regular expressions"
    exit 77
fi
hooks="$abs_top_srcdir/.pre-commit-hooks.yaml"
if "$abs_top_builddir/tests/yaml_json" "$hooks" > "$scratch/hooks.json" 2> "$err"; then
    pass ".pre-commit-hooks.yaml is valid YAML"
else
    fail ".pre-commit-hooks.yaml: $(cat "$err")"
    finish
fi

# Names to try, in a tree; each holds a finding, so sandlint's JSON report
# says which of them discovery checks.
cd "$scratch"
mkdir tree
names="compose.yaml compose.yml docker-compose.yml docker-compose.yaml compose.override.yml
docker-compose.prod.yaml compose-dev.yml composer.yml compose.yaml.yml deep/er/compose.yaml
deep/docker-compose.ci.yml Compose.yaml COMPOSE.YML compose.YAML compose.json compose.yaml.bak
mycompose.yaml docker-docker-compose.yml xdocker-compose.yml compose .yml compose.ya.ml
docker-compose dir.compose.yaml/x.txt deep/compose.yml.orig"
for name in $names; do
    mkdir -p "tree/$(dirname "$name")"
    printf 'services:\n  web:\n    privileged: true\n' > "tree/$name"
done
(cd tree && sl --format json --root . --no-isolation .) > discovered.json 2> "$err" || true
printf '%s\n' $names > names.txt

status=0
"$python" - "$scratch/hooks.json" discovered.json names.txt <<'PY' > check.out 2>&1 || status=$?
import json, re, sys

hooks = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
names = open(sys.argv[3]).read().split()
discovered = {f["file"] for f in report["findings"] if f["rule"] == "SBX001"}
problems = []

if not isinstance(hooks, list) or [h.get("id") for h in hooks] != ["sandlint", "sandlint-files"]:
    sys.exit("expected the hooks sandlint and sandlint-files, in that order")
for hook in hooks:
    for field, want in (("entry", "sandlint"), ("language", "system"), ("require_serial", "true")):
        if hook.get(field) != want:
            problems.append("%s: %s is %r, not %r" % (hook["id"], field, hook.get(field), want))
    if not hook.get("name"):
        problems.append("%s has no name" % hook["id"])
whole, changed = hooks
if whole.get("pass_filenames") != "false":
    problems.append("sandlint must not pass file names (stale entries need whole packages)")
if changed.get("pass_filenames") != "true":
    problems.append("sandlint-files must pass file names")

# The Compose names: exactly what discovery checks, at any depth.
if len(discovered) < 10:
    problems.append("discovery found only %s" % sorted(discovered))
for hook in hooks:
    pattern = re.compile(hook["files"])
    for name in names:
        want = name in discovered
        if bool(pattern.search(name)) != want:
            problems.append("%s: files %s %s, which discovery %s"
                            % (hook["id"], "matches" if not want else "misses", name,
                               "checks" if want else "skips"))
# The configuration: a change to it runs the whole-repository hook only
# (sandlint-files would check a configuration file as a Compose file).
for name in (".sandlint.ini", "pyproject.toml", "sub/pkg/pyproject.toml", "a/.sandlint.ini"):
    if not re.search(whole["files"], name):
        problems.append("sandlint does not run when %s changes" % name)
    if re.search(changed["files"], name):
        problems.append("sandlint-files would pass %s as a Compose file" % name)
for name in ("pyproject.toml.orig", "x.sandlint.ini", "setup.cfg", "sandlint.ini"):
    if re.search(whole["files"], name):
        problems.append("sandlint runs when %s changes" % name)
print("\n".join(problems) if problems else
      "%d names: the hooks select what discovery checks" % len(names))
sys.exit(1 if problems else 0)
PY
if [ "$status" -eq 0 ]; then
    pass "$(cat check.out)"
else
    fail "hook definitions:"
    sed 's/^/    /' check.out >&2
fi

# The entries run as pre-commit runs them, from the repository root:
# `sandlint` alone, and `sandlint FILE...` for the changed files.
mkdir repo && cd repo
printf 'services:\n  web:\n    image: x\n' > compose.yaml
mkdir sub && printf 'services:\n  db:\n    privileged: true\n' > sub/docker-compose.yml
expect_status 1 "the sandlint hook checks the whole repository" -- --no-isolation
contains "$out" "sub/docker-compose.yml" "whole-repository hook finds sub/"
expect_status 0 "the sandlint-files hook checks the files it is given" -- --no-isolation compose.yaml
finish
