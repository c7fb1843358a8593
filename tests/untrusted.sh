#!/bin/sh
# --untrusted (SPEC §14, §17, issue 20): in CI on a stranger's pull
# request, the scanned tree is the attacker's, and so are its exceptions.
# Every kind of in-tree exception is tried here, and none may make the run
# pass: suppression comments (each form), an in-tree .sandlint.ini or
# pyproject.toml (allowlist entries, ignore, select, exclude, kubernetes,
# packages), one found further up, and a --config inside the tree.  Only the
# trusted configuration (--config from outside, the base branch's) accepts
# findings, and no entry of it is called stale.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# The base branch's configuration, outside the checkout.
cat > trusted.ini <<'INI'
[allowlist sandbox_privileges]
evals/reviewed/compose.yaml = web:privileged
evals/gone/compose.yaml = web:privileged
INI
mkdir -p pr/evals/reviewed pr/evals/new
printf 'services:\n  web:\n    privileged: true\n' > pr/evals/reviewed/compose.yaml

# untrusted_fails NAME: the pull request's tree must fail, under --untrusted
# and under SANDLINT_UNTRUSTED=1, with the new finding reported.
untrusted_fails() {
    name=$1
    (cd pr && expect_status 1 "$name: --untrusted fails" -- --untrusted --config ../trusted.ini .) \
        || true
    contains "$out" "evals/new/compose.yaml" "$name: the new finding is reported"
    lacks "$out" "evals/reviewed" "$name: the reviewed finding stays accepted"
    set +e
    (cd pr && SANDLINT_UNTRUSTED=1 sl --config ../trusted.ini .) >"$out" 2>"$err"
    status=$?
    set -e
    [ "$status" -eq 1 ] && pass "$name: SANDLINT_UNTRUSTED=1 fails too" \
        || fail "$name: SANDLINT_UNTRUSTED=1: exit $status"
}

# --- suppression comments: reported, not honoured --------------------------------
cat > pr/evals/new/compose.yaml <<'YAML'
# sandlint: ignore-file[SBX] -- the whole file is fine
services:
  web:
    # sandlint: ignore[SBX001] -- reviewed, honest
    privileged: true
    pid: host  # inspect-evals-lint: ignore[IESC001] -- also fine
    cap_add: [SYS_ADMIN]  # sandlint: ignore[SBX001] -- and this
    volumes: ["/:/host"]  # sandlint: ignroe[] no reason, not even valid
YAML
(cd pr && expect_status 0 "trusted: the comments accept everything" -- --root . \
    --config ../trusted.ini .) || true
untrusted_fails "comments"
(cd pr && expect_status 1 "comments" -- --untrusted --config ../trusted.ini .) || true
for at in 1:1 4:5 6:16 7:27 8:27; do
    contains "$out" "evals/new/compose.yaml:$at: warning: suppression comment not honoured: --untrusted [SL004]" \
        "the comment at $at is reported"
done
lacks "$out" "suppression comment matches no finding" "no other judgement of the comments"
lacks "$out" "names no rule" "their contents are not read"
contains "$out" "evals/new/compose.yaml:5:5: error: privileged mode" "an own-line comment's finding fails"
contains "$out" "evals/new/compose.yaml:6:5: error:" "an inspect-evals-lint comment's finding fails"
contains "$out" "evals/new/compose.yaml:7:15: error:" "a same-line comment's finding fails"
(cd pr && expect_status 1 "--strict" -- --untrusted --strict --config ../trusted.ini .) || true

# --- configuration in the tree: never read ---------------------------------------------
printf 'services:\n  web:\n    privileged: true\n' > pr/evals/new/compose.yaml
cat > pr/.sandlint.ini <<'INI'
[sandlint]
ignore = SBX
select = SBX002
exclude = evals/new/*
packages = evals/*
plugins = ./evil.so
[allowlist sandbox_privileges]
* = web:privileged
new = web:privileged
evals/new/compose.yaml = web:privileged
INI
(cd pr && expect_status 2 "trusted: the in-tree configuration is read (and its plugin refused)" -- .) || true
untrusted_fails "an in-tree .sandlint.ini"
rm pr/.sandlint.ini
cat > pr/pyproject.toml <<'TOML'
[tool.sandlint]
ignore = ["SBX"]
[tool.sandlint.allowlists.sandbox_privileges]
"*" = ["web:privileged"]
[tool.inspect-evals-lint.allowlists.IESC001]
new = ["web:privileged"]
TOML
(cd pr && expect_status 0 "trusted: the in-tree pyproject.toml accepts it" -- .) || true
untrusted_fails "an in-tree pyproject.toml"
rm pr/pyproject.toml
# Found further up: the root is the current directory, never discovered.
printf '[allowlist sandbox_privileges]\n* = web:privileged\n' > .sandlint.ini
(cd pr && expect_status 0 "trusted: a configuration further up applies" -- .) || true
(cd pr && expect_status 1 "--untrusted: not one further up" -- --untrusted .) || true
contains "$out" "evals/new/compose.yaml:3:5: error:" "paths are relative to the current directory"
(cd pr && expect_status 1 "--untrusted --root" -- --untrusted --root evals evals/new) || true
contains "$out" "new/compose.yaml:3:5: error:" "--root is the root"
rm .sandlint.ini

# --- a --config inside the tree is refused ------------------------------------------
printf '[allowlist sandbox_privileges]\n* = web:privileged\n' > pr/evals/planted.ini
(cd pr && expect_status 2 "--config inside an operand" -- --untrusted --config evals/planted.ini evals) \
    || true
contains "$err" "lies inside the tree that --untrusted scans" "says why"
(cd pr && expect_status 2 "--config inside the root" -- --untrusted --config evals/planted.ini \
    evals/new) || true
ln -s pr/evals/planted.ini outside-link.ini
(cd pr && expect_status 2 "--config outside, leading inside" -- --untrusted \
    --config ../outside-link.ini .) || true
contains "$err" "lies inside the tree that --untrusted scans" "a link into the tree is refused too"
cp pr/evals/planted.ini copied.ini
(cd pr && expect_status 0 "the same file copied outside is used" -- --untrusted \
    --config ../copied.ini .) || true
rm pr/evals/planted.ini

# --- no stale entries, no way to turn it off ------------------------------------------
rm -r pr/evals/new
(cd pr && expect_status 0 "trusted" -- --config ../trusted.ini --root . .) || true
contains "$out" "on 'evals/gone/compose.yaml' is no longer needed" "a trusted run calls the entry stale"
(cd pr && expect_status 0 "untrusted" -- --untrusted --config ../trusted.ini .) || true
lacks "$out" "no longer needed" "--untrusted calls no entry stale (a pull request cannot edit it)"
for value in '' 0; do
    set +e
    (cd pr && SANDLINT_UNTRUSTED=$value sl --root . --config ../trusted.ini .) >"$out" 2>"$err"
    set -e
    contains "$out" "no longer needed" "SANDLINT_UNTRUSTED='$value' is off"
done
set +e
(cd pr && SANDLINT_UNTRUSTED=yes sl --update-allowlist .) >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 2 ] && pass "no option turns SANDLINT_UNTRUSTED off (--update-allowlist refused)" \
    || fail "SANDLINT_UNTRUSTED=yes --update-allowlist: exit $status"
finish
