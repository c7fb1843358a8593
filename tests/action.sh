#!/bin/sh
# The GitHub Action (action.yml, action/*.sh), run on this machine with a
# runner's environment faked by tests/action_runner.py: it builds sandlint
# from a clean copy of the sources (make distdir) into a fake tool cache,
# checks examples/, and must leave a SARIF 2.1.0 report with results,
# annotations in the log and its outputs.  A second run finds the install
# (the cache hit) and does not build again.  Inputs are passed through.
# With the image input, nothing is built: sandlint runs from the image
# through the container engine (faked here: no container can start).
#
# Building takes minutes, so by default the tool cache is filled with this
# build tree's sandlint (a cache hit from the first run); with
# SANDLINT_TEST_ACTION_BUILD=1 (CI does it once) the first run builds it
# from the sources as on GitHub.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
: "${abs_top_builddir:?}"
python=$(command -v python3 || true)
if [ -z "$python" ]; then
    echo "action.sh: SKIP: python3 is needed to run the action's steps"
    exit 77
fi
if ! command -v bash >/dev/null 2>&1; then
    echo "action.sh: SKIP: the action's steps run in bash, which is missing"
    exit 77
fi
action="$scratch/action.json"
if "$abs_top_builddir/tests/yaml_json" "$abs_top_srcdir/action.yml" > "$action" 2> "$err"; then
    pass "action.yml is valid YAML"
else
    fail "action.yml: $(cat "$err")"
    finish
fi
"$python" - "$action" <<'PY' > "$scratch/shape" 2>&1 && pass "action.yml: a composite action, inputs passed through env" || { fail "action.yml:"; cat "$scratch/shape" >&2; }
import json, sys
action = json.load(open(sys.argv[1]))
problems = []
if action["runs"]["using"] != "composite":
    problems.append("not composite")
for name in ("paths", "format", "extend-select", "args", "sarif-file", "config", "untrusted"):
    if name not in action["inputs"]:
        problems.append("no input " + name)
if "sarif-file" not in action["outputs"]:
    problems.append("no sarif-file output")
for step in action["runs"]["steps"]:
    # Expressions inside a script are pasted into it before bash reads it
    # (script injection): inputs go through env only.
    if "${{" in step.get("run", ""):
        problems.append("expression in run: " + step["run"])
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY

# A clean copy of the sources, as the action's checkout would be.
if ! (cd "$abs_top_builddir" && ${MAKE:-make} distdir distdir="$scratch/action-src") \
        > "$scratch/distdir.log" 2>&1; then
    fail "make distdir failed"
    tail -20 "$scratch/distdir.log" >&2
    finish
fi
mkdir "$scratch/tool-cache" "$scratch/temp" "$scratch/workspace"
cp -R "$abs_top_srcdir/examples" "$scratch/workspace/"
RUNNER_TOOL_CACHE="$scratch/tool-cache" RUNNER_TEMP="$scratch/temp" ImageOS=test
GITHUB_WORKSPACE="$scratch/workspace"
export RUNNER_TOOL_CACHE RUNNER_TEMP ImageOS GITHUB_WORKSPACE
cd "$scratch/workspace"

# run_action LOG NAME=VALUE... : runs the action; its outputs go to $out.
run_action() {
    log=$1
    shift
    "$python" "$srcdir_tests/action_runner.py" "$action" "$scratch/action-src" "$@" \
        > "$out" 2> "$log" || fail "action_runner.py failed: $(tail -5 "$log")"
}
# field NAME : a top-level field of the runner's report.
field() { "$python" -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, r))' "$out" "$1"; }

if [ "${SANDLINT_TEST_ACTION_BUILD:-}" != 1 ]; then
    # The install the build step would make, as this build tree's sandlint.
    GITHUB_OUTPUT="$scratch/key" SANDLINT_SOURCE="$scratch/action-src" \
        bash "$scratch/action-src/action/build.sh" key 2>/dev/null \
        || fail "action/build.sh key failed"
    prefix=$(sed -n 's/^prefix=//p' "$scratch/key")
    mkdir -p "$prefix/bin"
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$SANDLINT" > "$prefix/bin/sandlint"
    chmod +x "$prefix/bin/sandlint"
    echo "action.sh: the tool cache holds this build (SANDLINT_TEST_ACTION_BUILD=1 builds)"
fi
start=$(date +%s)
run_action "$scratch/first.log" paths=examples
first_seconds=$(( $(date +%s) - start ))
[ "$(field status)" = 1 ] && pass "the step fails: the examples have findings" \
    || fail "status $(field status): $(tail -20 "$scratch/first.log")"
[ "$(field "outputs['exit-code']")" = 1 ] && pass "exit-code output" || fail "exit-code: $(field outputs)"
sarif=$(field "outputs['sarif-file']")
[ "$sarif" = sandlint.sarif ] && pass "sarif-file output" || fail "sarif-file output: '$sarif'"
contains "$scratch/first.log" "cache" "the cache step ran"
if [ "${SANDLINT_TEST_ACTION_BUILD:-}" = 1 ]; then
    contains "$scratch/first.log" "sandlint action: building" "a cache miss builds"
fi
contains "$scratch/first.log" "::error file=examples/ctf-challenge/compose.yaml,line=4,col=7" \
    "annotations in the log"
lacks "$scratch/first.log" "--extend-select" "an empty extend-select is not passed"
if [ -f sandlint.sarif ]; then
    "$python" - sandlint.sarif <<'PY' > "$scratch/summary" 2>&1 && pass "SARIF: $(cat "$scratch/summary")" || fail "SARIF: $(cat "$scratch/summary")"
import collections, json, sys
document = json.load(open(sys.argv[1], encoding="utf-8"))
assert document["version"] == "2.1.0", document["version"]
results = document["runs"][0]["results"]
assert results, "no results"
files = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
assert "examples/ctf-challenge/compose.yaml" in files, files
levels = collections.Counter(r["level"] for r in results)
rules = collections.Counter(r["ruleId"] for r in results)
print("version 2.1.0, %d results in %d files (%s; %s)" % (
    len(results), len(files), ", ".join("%s %d" % kv for kv in sorted(levels.items())),
    ", ".join("%s %d" % kv for kv in sorted(rules.items()))))
PY
    if "$python" -c 'import jsonschema' 2>/dev/null; then
        "$python" "$srcdir_tests/sarif_check.py" "$srcdir_tests/data/sarif/sarif-schema-2.1.0.json" \
            sandlint.sarif && pass "SARIF validates against the schema" || fail "SARIF does not validate"
    fi
else
    fail "no sandlint.sarif written"
fi

# Again: the install is found (a cache hit), inputs reach sandlint.
rm -f sandlint.sarif
run_action "$scratch/second.log" paths="examples/safe-service examples/eval-sandbox" \
    format=json sarif-file=reports/out.sarif extend-select=SBX001 args="--jobs 1" \
    fail-on-findings=false
contains "$scratch/second.log" "(hit)" "the second run hits the cache"
lacks "$scratch/second.log" "sandlint action: building" "a cache hit does not build"
contains "$scratch/second.log" "--extend-select SBX001" "extend-select is passed through"
contains "$scratch/second.log" "--jobs 1 --extend-select SBX001 -- examples/safe-service examples/eval-sandbox" \
    "args and paths are passed through"
# Until sandlint has --extend-select, that run stops with a usage error
# (exit 2, which fail-on-findings=false does not hide); with it, it checks.
status=$(field status)
case $status in
    0) [ "$(field "outputs['sarif-file']")" = reports/out.sarif ] && [ -s reports/out.sarif ] \
           && pass "sarif-file input" || fail "sarif-file input: $(field outputs)" ;;
    2) contains "$scratch/second.log" "extend-select" "without --extend-select in sandlint: a usage error" ;;
    *) fail "second run: status $status: $(tail -20 "$scratch/second.log")" ;;
esac
run_action "$scratch/third.log" paths="examples/safe-service examples/eval-sandbox" \
    format=json sarif-file=reports/out.sarif fail-on-findings=false
[ "$(field status)" = 0 ] && pass "fail-on-findings=false: the step passes" \
    || fail "fail-on-findings=false: status $(field status): $(tail -5 "$scratch/third.log")"
[ "$(field "outputs['exit-code']")" = 1 ] && pass "exit-code still says 1" || fail "exit-code: $(field outputs)"
[ -s reports/out.sarif ] && pass "sarif-file input (a new directory)" || fail "no reports/out.sarif"
grep -q '"findings"' "$scratch/third.log" && pass "format input: json in the log" || fail "no JSON report in the log"
# The image input: no build, sandlint run from the image by the container
# engine, confined, with the workspace at its own path.  A fake docker runs
# this build's sandlint where the image's would run, and records how it was
# called.
rm -rf reports sandlint.sarif
mkdir "$scratch/engine"
cat > "$scratch/engine/docker" <<ENGINE
#!/bin/sh
printf '%s\n' "\$@" > "$scratch/docker.args"
workdir=
while [ \$# -gt 0 ]; do
    case \$1 in
        --workdir) workdir=\$2; shift 2 ;;
        --volume|--tmpfs|--user|--env|--security-opt|--network|--cap-drop) shift 2 ;;
        run|--rm|--read-only) shift ;;
        example.org/sandlint:test) shift; break ;;
        *) echo "fake docker: unexpected \$1" >&2; exit 125 ;;
    esac
done
cd "\$workdir" && exec "$SANDLINT" "\$@"
ENGINE
chmod +x "$scratch/engine/docker"
PATH="$scratch/engine:$PATH" run_action "$scratch/image.log" paths=examples image=example.org/sandlint:test
[ "$(field status)" = 1 ] && pass "image input: the step fails on the examples' findings" \
    || fail "image input: status $(field status): $(tail -20 "$scratch/image.log")"
lacks "$scratch/image.log" "actions/cache" "image input: no cache step"
lacks "$scratch/image.log" "sandlint action: building" "image input: nothing is built"
contains "$scratch/image.log" "sandlint action: using example.org/sandlint:test through docker" \
    "image input: the image is used"
contains "$scratch/image.log" "::error file=examples/ctf-challenge/compose.yaml,line=4,col=7" \
    "image input: annotations in the log"
[ -s sandlint.sarif ] && pass "image input: the SARIF report is written in the workspace" \
    || fail "image input: no sandlint.sarif"
tr '\n' ' ' < "$scratch/docker.args" > "$scratch/docker.line"
for flags in "run --rm --network none --read-only" "--cap-drop ALL" "--security-opt no-new-privileges" \
        "--volume $GITHUB_WORKSPACE:$GITHUB_WORKSPACE --workdir $GITHUB_WORKSPACE" \
        "example.org/sandlint:test --format"; do
    contains "$scratch/docker.line" "$flags" "image input: docker $flags"
done
contains "$scratch/docker.line" "--volume $RUNNER_TEMP:$RUNNER_TEMP:ro" \
    "image input: the runner's temporary directory, read-only (the pull-request recipe's config)"
PATH="$scratch/engine:$PATH" run_action "$scratch/bad-image.log" image='x; touch pwned'
[ "$(field status)" = 2 ] && [ ! -e pwned ] && pass "image input: a reference that is not one is refused" \
    || fail "image input 'x; touch pwned': status $(field status)"

# --- pull requests: README.md's recipe, end to end -----------------------------------
# A base branch whose configuration accepts one reviewed finding, and a pull
# request that adds a privileged service with every exception its author
# can write: a suppression comment, an allowlist entry, an ignore.  The
# recipe's steps come from README.md itself.
if ! command -v git >/dev/null 2>&1; then
    echo "action.sh: SKIP (partly): git is missing; the pull-request recipe is not run"
    echo "action.sh: the first run (build and check) took ${first_seconds}s"
    finish
fi
recipe="$scratch/recipe.yaml"
"$python" - "$abs_top_srcdir/README.md" > "$recipe" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
marker = text.index("<!-- The pull-request recipe")
print(re.search(r"```yaml\n(.*?)```", text[marker:], re.S).group(1))
PY
"$abs_top_builddir/tests/yaml_json" "$recipe" > "$scratch/recipe.json" \
    && pass "README.md: the pull-request recipe is valid YAML" || fail "README.md: recipe: $(cat "$recipe")"
# recipe EXPRESSION : a value of the recipe's steps, by a Python expression
# over its list of steps.
recipe() { "$python" -c 'import json, sys; steps = json.load(open(sys.argv[1]))["jobs"]["sandlint"]["steps"]; print(eval(sys.argv[2]))' "$scratch/recipe.json" "$1"; }

git_quiet() { git -c user.name=test -c user.email=test@example.invalid -c init.defaultBranch=main "$@" >/dev/null 2>&1; }
mkdir "$scratch/origin.git" "$scratch/pr-temp" "$scratch/elsewhere"
git_quiet init --bare "$scratch/origin.git"
git_quiet clone "$scratch/origin.git" "$scratch/pr"
cd "$scratch/pr"
mkdir -p evals/reviewed evals/new
printf 'services:\n  web:\n    privileged: true\n' > evals/reviewed/compose.yaml
printf '[allowlist sandbox_privileges]\nevals/reviewed/compose.yaml = web:privileged\n' > .sandlint.ini
git_quiet add -A
git_quiet commit -m base
git_quiet push origin HEAD
base_sha=$(git rev-parse HEAD)
cat > evals/new/compose.yaml <<'YAML'
services:
  web:
    # sandlint: ignore[SBX001] -- trust me
    privileged: true
YAML
printf '[sandlint]\nignore = SBX\n[allowlist sandbox_privileges]\nevals/reviewed/compose.yaml = web:privileged\n* = web:privileged\n' \
    > .sandlint.ini
git_quiet commit -a -m 'the pull request'
git_quiet add -A
git_quiet commit -m 'the pull request, new file'

# Without the recipe, the pull request's exceptions make the check pass.
run_action "$scratch/naive.log" paths=.
[ "$(field status)" = 0 ] && pass "without --untrusted, the pull request passes itself" \
    || fail "naive run: status $(field status)"

# The recipe: the base branch's configuration, outside the checkout...
config_step=$(recipe '[s["run"] for s in steps if "git show" in s.get("run", "")][0]')
if BASE_SHA=$base_sha RUNNER_TEMP="$scratch/pr-temp" bash -eo pipefail -c "$config_step" \
        > "$scratch/config-step.log" 2>&1; then
    pass "the recipe's configuration step runs"
else
    fail "the recipe's configuration step: $(cat "$scratch/config-step.log")"
fi
cmp -s "$scratch/pr-temp/sandlint.ini" /dev/stdin <<'INI' && pass "it holds the base branch's configuration" || fail "$(cat "$scratch/pr-temp/sandlint.ini")"
[allowlist sandbox_privileges]
evals/reviewed/compose.yaml = web:privileged
INI
# ... and the action's inputs, as the recipe gives them.
config=$(recipe '[s["with"]["config"] for s in steps if "with" in s and "config" in s["with"]][0]' \
    | sed "s|\${{ runner.temp }}|$scratch/pr-temp|")
untrusted=$(recipe '[str(s["with"]["untrusted"]).lower() for s in steps if "with" in s and "untrusted" in s["with"]][0]')
run_action "$scratch/pr.log" paths=. config="$config" untrusted="$untrusted"
[ "$(field status)" = 1 ] && pass "recipe: the pull request's new privileged service fails" \
    || fail "recipe: status $(field status): $(tail -5 "$scratch/pr.log")"
contains "$scratch/pr.log" "--config $scratch/pr-temp/sandlint.ini --untrusted" "recipe: the inputs reach sandlint"
contains "$scratch/pr.log" "::error file=evals/new/compose.yaml,line=4," "recipe: the new finding is annotated"
contains "$scratch/pr.log" "::warning file=evals/new/compose.yaml,line=3,col=5,title=SL004" \
    "recipe: the comment is reported, not honoured"
lacks "$scratch/pr.log" "file=evals/reviewed" "recipe: the base branch's reviewed finding stays accepted"
[ -s sandlint.sarif ] && pass "recipe: sandlint.sarif written" || fail "recipe: no SARIF"
# The pull request's own configuration as config: refused.
run_action "$scratch/inside.log" paths=. config=.sandlint.ini untrusted=true
[ "$(field status)" = 2 ] && pass "a config inside the checkout is refused" \
    || fail "config inside: status $(field status)"
# A SARIF path through a link the pull request planted: refused, nothing
# written (nor a directory made) where it leads.
rm -f sandlint.sarif
ln -s "$scratch/elsewhere" reports
run_action "$scratch/planted.log" paths=. config="$config" untrusted=true \
    sarif-file=reports/deeper/out.sarif
[ "$(field status)" = 2 ] && pass "a planted link on the SARIF path fails the step" \
    || fail "planted link: status $(field status)"
[ -z "$(ls -A "$scratch/elsewhere")" ] && pass "nothing is written or made through it" \
    || fail "written through the link: $(ls -A "$scratch/elsewhere")"
run_action "$scratch/bad-input.log" paths=. untrusted=yes
[ "$(field status)" = 2 ] && pass "untrusted takes true or false" || fail "untrusted=yes: status $(field status)"
echo "action.sh: the first run (build and check) took ${first_seconds}s"
finish
