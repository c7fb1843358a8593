#!/bin/sh
# Writes never leave through a planted link (SPEC §14, issue 20): --output
# and the configuration --update-allowlist edits are reached without
# following a symbolic link inside the scanned trees (the root and the
# operands); a destination there that is not a regular file is refused; the
# user's own links and devices outside the trees work as before.  A
# configuration that a link leads out of the root is refused, and messages
# never quote a configuration outside the root.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

mkdir -p repo/evals elsewhere
printf 'services:\n  web:\n    privileged: true\n' > repo/evals/compose.yaml
printf 'keep me\n' > victim

# --- --output: planted links and special files ----------------------------------
ln -s ../elsewhere repo/reports
(cd repo && expect_status 2 "a planted directory link" -- --format sarif --output reports/r.sarif .) \
    || true
contains "$err" "cannot write reports/r.sarif: a directory on the way is a symbolic link inside the scanned tree" \
    "says why"
[ -z "$(ls -A elsewhere)" ] && pass "nothing was written through it" || fail "written: $(ls -A elsewhere)"
# The root counts even when the operand is below it (the Action runs from
# the checkout's top with paths=evals).
expect_status 2 "a planted link under the root, outside the operand" -- --root repo \
    --output repo/reports/r.sarif repo/evals
ln -s ../victim repo/sandlint.sarif
(cd repo && expect_status 2 "a planted file link" -- --format sarif --output sandlint.sarif .) || true
contains "$err" "it is a symbolic link inside the scanned tree" "a link as the file itself is refused"
[ "$(cat victim)" = "keep me" ] && pass "the file it leads to is untouched" || fail "victim changed"
[ -L repo/sandlint.sarif ] && pass "the link is left alone" || fail "the link was replaced"
mkdir repo/real
ln -s real repo/inside
(cd repo && expect_status 2 "a link to a directory of the tree itself" -- --output inside/x.txt .) \
    || true
(cd repo && expect_status 2 "'..' after a planted link" -- --output reports/../x.txt .) || true
[ ! -e x.txt ] && pass "'..' is not taken past the link" || fail "x.txt written"
mkfifo repo/out.fifo
set +e
(cd repo && timeout 20 "$SANDLINT" --output out.fifo .) >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 2 ] && pass "a planted FIFO is refused, not waited on" || fail "FIFO: exit $status"
contains "$err" "it is not a regular file, and it lies inside the scanned tree" "says why"

# The user's own links and devices, outside the trees, work as before.
ln -s elsewhere mine
(cd repo && expect_status 1 "through the user's link outside the tree" -- --output ../mine/r.txt .) \
    || true
[ -s elsewhere/r.txt ] && pass "written where the user's link leads" || fail "no elsewhere/r.txt"
# A link such as /dev/stdout is written through, never renamed over: with
# standard output a file, 0.2 replaced /dev/stdout with a regular file.
# (Tried on a link of our own, so that a regression cannot break the
# machine's /dev/stdout.)
ln -s /proc/self/fd/1 stdout-link
(cd repo && expect_status 1 "a link to standard output" -- --output ../stdout-link .) || true
contains "$out" "privileged mode" "the report reaches standard output"
[ -L stdout-link ] && pass "the link is still a link" || fail "the link was replaced by a file"
set +e
(cd repo && sl --output /dev/stdout . | cat) >"$out" 2>"$err"
set -e
contains "$out" "privileged mode" "/dev/stdout reaches the pipe"
(cd repo && expect_status 1 "/dev/null" -- --output /dev/null .) || true
(cd repo && expect_status 1 "a new file in the tree" -- --output reports.txt .) || true
[ -s repo/reports.txt ] && pass "a plain path in the tree is written" || fail "no reports.txt"
[ -z "$(ls -A repo | grep 'sandlint-' || true)" ] && pass "no temporary file left" \
    || fail "temporary files: $(ls -A repo)"
rm repo/reports.txt repo/inside repo/out.fifo repo/sandlint.sarif

# --- the configuration --update-allowlist edits ------------------------------------
printf '[sandlint]\n' > repo/real/shared.ini
ln -s real/shared.ini repo/.sandlint.ini
expect_status 1 "a configuration linked within the root is read" -- --root repo repo
expect_status 2 "but not edited through the link" -- --root repo --update-allowlist repo
contains "$err" "it is a symbolic link; --update-allowlist edits files, not links" "says why"
[ "$(cat repo/real/shared.ini)" = "[sandlint]" ] && pass "the file it leads to is untouched" \
    || fail "shared.ini changed"
rm repo/.sandlint.ini
# A configuration at the end of a planted directory link (--config names
# it inside the tree).
mkdir -p cfgdir
printf '[sandlint]\n' > cfgdir/sandlint.ini
ln -s ../cfgdir repo/conf
expect_status 2 "a configuration behind a planted directory link" -- --root repo \
    --config repo/conf/sandlint.ini repo
contains "$err" "a symbolic link, or lies under one, that leads out of the root" \
    "refused when read"

# --- configurations outside the root: refused behind a link, never quoted -------------
printf '[secret]\nTOKEN = hunter2-supersecret\n' > secret.txt
ln -s ../secret.txt repo/.sandlint.ini
expect_status 2 "a discovered configuration that leads out of the root" -- --root repo repo
contains "$err" ".sandlint.ini: the configuration file is a symbolic link, or lies under one, that leads out of the root" \
    "refused, with the reason"
lacks "$err" "hunter2" "the file it leads to is not quoted"
lacks "$err" "secret" "not even its section"
(cd repo/evals && expect_status 2 "found upward" -- .) || true
lacks "$err" "hunter2" "found upward: not quoted"
rm repo/.sandlint.ini
expect_status 2 "an outside --config with an error" -- --root repo --config secret.txt repo
contains "$err" "secret.txt:1:1: unknown section [<not quoted>]" "the position, not the text"
contains "$err" "its text is not quoted" "and why"
lacks "$err" "hunter2" "nothing of the file"
printf '[tool.sandlint]\nselect = hunter2\n' > secret.toml
expect_status 2 "an outside TOML --config with a syntax error" -- --root repo --config secret.toml repo
contains "$err" "secret.toml:2:10: not valid TOML here" "the position only"
lacks "$err" "hunter2" "nothing of the TOML file"
cp secret.txt repo/inside.ini
expect_status 2 "the same file inside the root" -- --root repo --config repo/inside.ini repo
contains "$err" "unknown section [secret]" "is quoted: the repository's own file"
finish
