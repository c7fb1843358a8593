#!/bin/sh
# .pre-commit-hooks.yaml: valid YAML (read with sandlint's own YAML model
# through tests/yaml_json) and a valid manifest (`pre-commit
# validate-manifest`, when pre-commit is installed); the three hooks with
# the fields pre-commit needs, --allow-no-files in every entry, the image
# of the docker_image hook at configure.ac's version; the whole-repository
# hooks run for every name of every kind of file sandlint reads (SPEC §15),
# .env and the configuration, and the changed-files hook is given them (by
# identify's types, which pre-commit applies).  tests/precommit_try.sh runs
# the hooks with pre-commit itself.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
: "${abs_top_builddir:?}"
# A Python that has identify (pre-commit's own interpreter has it), else any.
python=
for candidate in "$(sed -n '1s/^#! *//p' "$(command -v pre-commit || echo /dev/null)" 2>/dev/null)" \
                 python3 /usr/bin/python3; do
    [ -n "$candidate" ] && command -v "${candidate%% *}" >/dev/null 2>&1 || continue
    [ -z "$python" ] && python=$candidate
    if $candidate -c 'import identify' 2>/dev/null; then
        python=$candidate
        break
    fi
done
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
if command -v pre-commit >/dev/null 2>&1; then
    if pre-commit validate-manifest "$hooks" > "$out" 2>&1; then
        pass "pre-commit validate-manifest accepts .pre-commit-hooks.yaml"
    else
        fail "pre-commit validate-manifest: $(cat "$out")"
    fi
else
    echo "precommit.sh: SKIP (partly): pre-commit is not installed (validate-manifest)"
fi
version=$(sed -n 's/^AC_INIT(\[sandlint\], \[\([^]]*\)\].*/\1/p' "$abs_top_srcdir/configure.ac")

# Names to try, in a tree; each holds a finding, so sandlint's JSON report
# says which of them discovery checks.
cd "$scratch"
mkdir tree
names="compose.yaml compose.yml docker-compose.yml docker-compose.yaml compose.override.yml
docker-compose.prod.yaml compose-dev.yml deep/er/compose.yaml deep/docker-compose.ci.yml
values.yaml helm-values.yaml agent-values.yml deep/values.yaml"
for name in $names; do
    mkdir -p "tree/$(dirname "$name")"
    case $name in
        *values*) printf 'services:\n  web:\n    image: x\n    securityContext:\n      privileged: true\n' ;;
        *) printf 'services:\n  web:\n    privileged: true\n' ;;
    esac > "tree/$name"
done
(cd tree && sl --format json --root . --no-isolation .) > discovered.json 2> "$err" || true
printf '%s\n' $names > names.txt

status=0
$python - "$scratch/hooks.json" discovered.json names.txt "$version" <<'PY' > check.out 2>&1 || status=$?
import json, re, sys

hooks = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
names = open(sys.argv[3]).read().split()
version = sys.argv[4]
discovered = {f["file"] for f in report["findings"] if f["rule"] == "SBX001"}
problems = []

ids = [h.get("id") for h in hooks] if isinstance(hooks, list) else None
if ids != ["sandlint", "sandlint-files", "sandlint-docker"]:
    sys.exit("expected the hooks sandlint, sandlint-files and sandlint-docker, not %r" % ids)
whole, changed, docker = hooks
image = "ghcr.io/sandlint/sandlint:%s" % version
for hook, entry, language in ((whole, "sandlint --allow-no-files", "system"),
                              (changed, "sandlint --allow-no-files", "system"),
                              (docker, image + " --allow-no-files", "docker_image")):
    for field, want in (("entry", entry), ("language", language), ("require_serial", "true")):
        if hook.get(field) != want:
            problems.append("%s: %s is %r, not %r" % (hook["id"], field, hook.get(field), want))
    if not hook.get("name") or not hook.get("description"):
        problems.append("%s has no name or description" % hook["id"])
for hook in (whole, docker):
    if hook.get("pass_filenames") != "false":
        problems.append("%s must not pass file names (stale entries need whole packages)"
                        % hook["id"])
if changed.get("pass_filenames") != "true":
    problems.append("sandlint-files must pass file names")
if whole.get("files") != docker.get("files"):
    problems.append("sandlint and sandlint-docker run for different files")

# The whole-repository hooks run for every name of every kind of file
# sandlint reads (SPEC §15), .env (Compose interpolates with it) and the
# configuration; not for files that cannot change a sandbox.
pattern = re.compile(whole["files"])
runs_for = names + [
    "svc-compose.yaml", "a/svc_compose.yml", "x.compose.yaml", "values-prod.yaml",
    "values.dev.yml", "my_values.yaml", "a.values.yaml", "deploy/pod.yaml",
    "k8s/jobs/job.yml", "ctf/chall/challenge.yaml", "ctf/chall/challenge.yml",
    "ctf/chall/challenge.json", ".devcontainer.json", ".devcontainer/devcontainer.json",
    ".devcontainer/python/devcontainer.json", "scripts/run.sh", "run.bash", "bin/start",
    "Makefile", "sub/makefile", "GNUmakefile", "rules.mk", ".github/workflows/ci.yml",
    ".gitlab-ci.yml", "runner/config.toml", ".env", "evals/x/.env", ".sandlint.ini",
    "pyproject.toml", "sub/pkg/pyproject.toml",
]
for name in runs_for:
    if not pattern.search(name):
        problems.append("sandlint does not run when %s changes" % name)
for name in ("README.md", "src/main.c", "package.json", "docs/notes.txt", ".gitignore",
             "pyproject.toml.orig", "x.sandlint.ini", "setup.cfg", ".env.example"):
    if pattern.search(name):
        problems.append("sandlint runs when %s changes" % name)
# What discovery finds, the hook runs for.
if len(discovered) < 10:
    problems.append("discovery found only %s" % sorted(discovered))
for name in discovered:
    if not pattern.search(name):
        problems.append("discovery checks %s, for which sandlint does not run" % name)

# The changed-files hook: identify's types (what pre-commit applies).
types = changed.get("types_or")
if sorted(types or []) != ["json", "makefile", "shell", "toml", "yaml"]:
    problems.append("sandlint-files types_or is %r" % types)
try:
    from identify import identify
except ImportError:
    print("SKIP (partly): no identify module; types not applied")
else:
    for name in runs_for:
        if name.endswith((".env", ".sandlint.ini", "pyproject.toml")) or name == "bin/start":
            continue    # no sandbox file: no need to pass it (bin/start: by its shebang)
        tags = identify.tags_from_filename(name.rsplit("/", 1)[-1])
        if not tags & set(types or []):
            problems.append("sandlint-files is not given %s (types %s)" % (name, sorted(tags)))
print("\n".join(problems) if problems else
      "%d names: the hooks run for what sandlint reads" % len(runs_for))
sys.exit(1 if problems else 0)
PY
grep '^SKIP' check.out | sed 's/^/precommit.sh: /' || true
if [ "$status" -eq 0 ]; then
    pass "$(tail -n 1 check.out)"
else
    fail "hook definitions:"
    sed 's/^/    /' check.out >&2
fi

# The entries run as pre-commit runs them, from the repository root:
# `sandlint --allow-no-files` alone, and with the changed files.
mkdir repo && cd repo
printf 'services:\n  web:\n    image: x\n' > compose.yaml
mkdir sub && printf 'services:\n  db:\n    privileged: true\n' > sub/docker-compose.yml
printf '# notes\n' > README.md
expect_status 1 "the sandlint hook checks the whole repository" -- --allow-no-files --no-isolation
contains "$out" "sub/docker-compose.yml" "whole-repository hook finds sub/"
expect_status 0 "the sandlint-files hook checks the files it is given" -- --allow-no-files \
    --no-isolation compose.yaml README.md
finish
