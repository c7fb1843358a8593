#!/bin/sh
# The pre-commit hooks run by pre-commit itself (`pre-commit try-repo`, as a
# user tries a hook repository before adding it), with the built sandlint
# on PATH as `sandlint` (the hooks are language: system):
#   - a repository with a privileged agent-env values file: the sandlint
#     hook (whole repository) and the sandlint-files hook (the changed
#     files) fail, with SBX001;
#   - a repository without any sandbox file (a shared hook template): both
#     pass, with the one line of --allow-no-files.
# The hook repository is a scratch git repository holding this tree's
# .pre-commit-hooks.yaml (try-repo clones it), so the test needs neither
# network nor a git checkout of sandlint.  Needs pre-commit and git.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
for tool in pre-commit git; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "precommit_try.sh: SKIP: $tool is not installed"
        exit 77
    fi
done
cd "$scratch"
# pre-commit and git keep their state here, not in the user's home.
HOME=$scratch/home
PRE_COMMIT_HOME=$scratch/pre-commit
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com
GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
export HOME PRE_COMMIT_HOME GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
    GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
mkdir "$HOME" bin
# The hooks run `sandlint`: the built one (through SANDLINT_WRAPPER when set).
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${SANDLINT_WRAPPER:-}" "$SANDLINT" >bin/sandlint
chmod +x bin/sandlint
PATH=$scratch/bin:$PATH
export PATH

new_repo() {
    mkdir "$1"
    git -C "$1" init -q
}
commit_all() {
    git -C "$1" add -A
    git -C "$1" commit -q -m "$2"
}
new_repo hooks
cp "$abs_top_srcdir/.pre-commit-hooks.yaml" hooks/
commit_all hooks "sandlint hooks"

# try HOOK REPO [ARGS...] : pre-commit try-repo in REPO; output in $out.
try() {
    hook=$1 repo=$2
    shift 2
    set +e
    (cd "$repo" && pre-commit try-repo "$scratch/hooks" "$hook" --verbose "$@") >"$out" 2>&1
    status=$?
    set -e
}

# --- a privileged agent-env values file ----------------------------------------------
new_repo evals
mkdir -p evals/evals/ctf
cat >evals/evals/ctf/values.yaml <<'EOF'
services:
  default:
    image: python:3.12-bookworm
    securityContext:
      privileged: true
EOF
printf '# evals\n' >evals/README.md
printf 'x = 1\n' >evals/tool.py
commit_all evals "evals"
try sandlint evals --all-files
if [ "$status" -eq 1 ] && grep -q 'values.yaml:5:7: error: .*\[SBX001\]' "$out"; then
    pass "try-repo sandlint: a privileged values file fails with SBX001 (exit 1)"
else
    fail "try-repo sandlint on a privileged values file: exit $status"
    sed 's/^/    | /' "$out" >&2
fi
try sandlint-files evals --files evals/ctf/values.yaml README.md tool.py
if [ "$status" -eq 1 ] && grep -q 'values.yaml:5:7: error: .*\[SBX001\]' "$out"; then
    pass "try-repo sandlint-files: the changed values file fails with SBX001"
else
    fail "try-repo sandlint-files on a privileged values file: exit $status"
    sed 's/^/    | /' "$out" >&2
fi

# --- a repository without sandbox files ----------------------------------------------
new_repo plain
printf '# plain\n' >plain/README.md
printf 'name: build\non: push\n' >plain/settings.yaml
printf '{"name": "plain"}\n' >plain/package.json
commit_all plain "plain"
for hook in sandlint sandlint-files; do
    try "$hook" plain --all-files
    if [ "$status" -eq 0 ] && grep -q 'Passed' "$out" &&
       grep -q 'sandlint: no sandbox files found under .*; nothing to check' "$out"; then
        pass "try-repo $hook: no sandbox file passes (exit 0) with one line"
    else
        fail "try-repo $hook in a repository without sandbox files: exit $status"
        sed 's/^/    | /' "$out" >&2
    fi
done
finish
