#!/bin/sh
# File kinds (SPEC §12): which files are agent-env values or Kubernetes
# objects, and that keys, allowlists, suppressions, --update-allowlist,
# standard input and every output format work for them as for Compose.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
mkdir -p repo/task repo/charts/web repo/deploy/nested repo/other
cat > repo/task/values.yaml <<'YAML'
services:
  default:
    image: python:3.12
    runtimeClassName: runc
    securityContext:
      privileged: true  # sandlint: ignore[SBX001] -- reviewed: a CTF needs it
YAML
# Another chart's values: skipped silently, neither checked nor counted.
printf 'replicaCount: 2\nimage:\n  repository: nginx\n' > repo/charts/web/values.yaml
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: runner}\nspec:\n  hostPID: true\n  containers: []\n' \
    > repo/deploy/nested/pod.yaml
printf 'not: an object\n' > repo/deploy/notes.yaml
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: elsewhere}\nspec:\n  hostIPC: true\n' \
    > repo/other/pod.yaml

# --- discovery ---------------------------------------------------------------
expect_status 1 "a values file is found" -- --root repo --format json repo
contains "$out" '"key": "default:runtimeClassName:runc"' "agent-env values are checked"
contains "$out" '"files": 3,' "other charts' values are neither checked nor counted"
lacks "$out" "charts/web" "another chart's values are not reported"
contains "$out" '"key": "Pod/runner:hostPID"' "no kubernetes setting: objects are found by content"
contains "$out" '"key": "Pod/elsewhere:hostIPC"' "anywhere in the tree"
lacks "$out" "notes.yaml" "a YAML file that is no object is skipped silently"
printf '[sandlint]\nkubernetes = none\n' > repo/.sandlint.ini
expect_status 1 "kubernetes = none" -- --root repo --format json repo
contains "$out" '"files": 1,' "kubernetes = none: only the values file"
lacks "$out" "Pod/" "kubernetes = none turns content discovery off"
printf '[sandlint]\nkubernetes = deploy/**\n' > repo/.sandlint.ini
expect_status 1 "kubernetes globs" -- --root repo --format json repo
contains "$out" '"key": "Pod/runner:hostPID"' "an object under a kubernetes glob is checked"
lacks "$out" "Pod/elsewhere" "an object outside the globs is not"
lacks "$out" "notes.yaml" "a YAML file under the glob that is no object is skipped silently"
contains "$out" '"files": 2,' "and is not counted"
expect_status 1 "an object named explicitly" -- --root repo --format json repo/other/pod.yaml
contains "$out" '"key": "Pod/elsewhere:hostIPC"' "a named object is checked whatever the globs"
printf '[tool.sandlint]\nkubernetes = ["deploy/**"]\n' > pyproject.toml
mkdir toml && mv pyproject.toml toml/ && cp -R repo/deploy toml/
expect_status 1 "kubernetes in pyproject.toml" -- --root toml --format json toml
contains "$out" '"key": "Pod/runner:hostPID"' "the TOML setting works as the INI one"
printf '[tool.sandlint]\nkubernetes = [1]\n' > toml/pyproject.toml
expect_status 2 "kubernetes globs are strings" -- --root toml toml
contains "$err" "pyproject.toml:2:" "a wrong type is a config error at its position"

# --- suppressions, allowlists, --update-allowlist ----------------------------
expect_status 1 "suppression comment" -- --root repo --format json --show-accepted repo/task
contains "$out" '"key": "default:securityContext.privileged", "message": "a privileged container' \
    "the finding is keyed by the field path"
grep '"key": "default:securityContext.privileged"' "$out" >line || true
contains line '"status": "suppressed"' "a suppression comment covers an agent-env finding"
printf '[sandlint]\nkubernetes = deploy/**\n[allowlist sandbox_privileges]\n* = default:runtimeClassName:runc\n* = Pod/runner:hostPID\n' \
    > repo/.sandlint.ini
expect_status 0 "allowlist" -- --root repo --format json repo
contains "$out" '"message": "Allowlisted: runtimeClassName' "'* = S:runtimeClassName:runc' accepts it"
contains "$out" '"key": "Pod/runner:hostPID", "message": "Allowlisted: ' "a workload key in the allowlist"
printf '[sandlint]\nkubernetes = deploy/**\n' > repo/.sandlint.ini
expect_status 0 "--update-allowlist" -- --root repo --update-allowlist repo
contains repo/.sandlint.ini "deploy/nested/pod.yaml = Pod/runner:hostPID" "--update-allowlist writes the workload key, scoped to its file"
contains repo/.sandlint.ini "task/values.yaml = default:runtimeClassName:runc" "and the agent-env key"
expect_status 0 "a run after the update passes" -- --root repo repo

# --- standard input and output formats ---------------------------------------
printf 'services:\n  default:\n    image: x\n    runtimeClassName: kata\n' >stdin.yaml
expect_status 1 "standard input named values.yaml" -- --format json --stdin-filename task/values.yaml - <stdin.yaml
contains "$out" '"key": "default:runtimeClassName:kata"' "standard input is agent-env by its name"
# Kind by content (SPEC §13): a Job on standard input without a name, a Pod
# in a file named like Compose.
printf 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec:\n  template:\n    spec:\n      hostNetwork: true\n      containers: [{name: c, image: x}]\n' >job.yaml
expect_status 1 "a Job on standard input" -- --format json - <job.yaml
contains "$out" '"key": "Job/job:hostNetwork"' "standard input without --stdin-filename is Kubernetes by content"
lacks "$out" "not a Compose file" "and never read as Compose"
expect_status 1 "a Job on standard input named compose.yaml" -- --format json --stdin-filename compose.yaml - <job.yaml
contains "$out" '"key": "Job/job:hostNetwork"' "a Compose name does not make an object Compose"
mkdir -p named && cp job.yaml named/docker-compose.agent.yaml
expect_status 1 "a Job named like Compose, as an operand" -- --format json named/docker-compose.agent.yaml
contains "$out" '"key": "Job/job:hostNetwork"' "a named file is Kubernetes by content whatever its name"
for format in sarif gitlab; do
    expect_status 1 "$format" -- --root repo --format $format repo/other/pod.yaml
    json_valid "$out" && pass "$format is valid JSON" || fail "$format is not JSON"
    contains "$out" "Pod/elsewhere:hostIPC" "$format carries the workload key"
done
expect_status 1 "github" -- --root repo --format github repo/other/pod.yaml
contains "$out" "::error file=other/pod.yaml,line=5,col=3" "github annotates the object's line"

# --- the examples show every new finding --------------------------------------
expect_status 1 "examples" -- --format json --extend-select sandbox_hardening \
    "$abs_top_srcdir/examples/agent-env" "$abs_top_srcdir/examples/agent-sandbox/sandbox.yaml"
for code in SBX001 SBX002 SBX003 SBX006 SBX007 SBX008 SBX101 SBX102 SBX103 SBX105 SBX106 SBX107 SBX109; do
    contains "$out" "\"rule\": \"$code\"" "the examples show $code"
done

# --- Lists that aliases multiply ---------------------------------------------
# list_bomb LEVELS: a List of two aliases of a List of ten aliases ... of a
# privileged Pod, LEVELS Lists deep: 2 x 10^(LEVELS-1) Pods in a few
# hundred bytes.
list_bomb() {
    printf 'x-defs:\n  a0: &a0 {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: x, securityContext: {privileged: true}}]}}\n'
    level=1
    while [ "$level" -lt "$1" ]; do
        previous=$((level - 1))
        printf '  a%d: &a%d {apiVersion: v1, kind: List, items: [' "$level" "$level"
        for _ in 1 2 3 4 5 6 7 8 9; do printf '*a%d, ' "$previous"; done
        printf '*a%d]}\n' "$previous"
        level=$((level + 1))
    done
    printf 'apiVersion: v1\nkind: List\nitems: [*a%d, *a%d]\n' "$(($1 - 1))" "$(($1 - 1))"
}
list_bomb 6 > wide-list.yaml
expect_status 1 "a List that aliases repeat 200,000 times" -- --format json wide-list.yaml
contains "$out" 'more than 10000 Kubernetes objects (Lists, with their aliases); the rest were not checked' \
    "objects past 10,000 in a file are an error, not a long run"
list_bomb 10 > deep-list.yaml
expect_status 1 "Lists nested ten deep" -- --format json deep-list.yaml
contains "$out" 'Kubernetes Lists nested more than 8 deep; the objects inside were not checked' \
    "Lists nested past the limit are an error, not a silent pass"
[ "$(grep -c '"rule": "SL002"' "$out")" -eq 1 ] && pass "the limit is reported once" \
    || fail "the limit is reported $(grep -c '"rule": "SL002"' "$out") times"
# A Kubernetes object in a CI file's place is Kubernetes (SPEC §15: a file
# with top-level apiVersion and kind, whatever its name), not a workflow
# without jobs that passes.
mkdir -p ci-place/.github/workflows
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n  hostPID: true\n  containers: [{name: c, image: x}]\n' \
    > ci-place/.github/workflows/pod.yaml
sed 's/name: w/name: g/' ci-place/.github/workflows/pod.yaml > ci-place/.gitlab-ci.yml
expect_status 1 "Pods in a workflow's and in .gitlab-ci.yml's place" -- ci-place
contains "$out" ".github/workflows/pod.yaml:5:3: error: hostPID" "the Pod in .github/workflows is checked"
contains "$out" ".gitlab-ci.yml:5:3: error: hostPID" "the Pod in .gitlab-ci.yml is checked"
finish
