#!/bin/sh
# --update-allowlist (SPEC §8, issue 12): one command makes a run pass; the
# configuration keeps every other byte; a second run changes nothing; the
# package names do not depend on where the repository is; a one-file run
# calls no entry stale; what cannot be edited safely is refused untouched.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# lines_kept ORIGINAL EDITED : every line of ORIGINAL is in EDITED, in order.
lines_kept() {
    python3 - "$1" "$2" <<'PY'
import sys
original = open(sys.argv[1], "rb").read().splitlines()
edited = iter(open(sys.argv[2], "rb").read().splitlines())
sys.exit(0 if all(any(line == other for other in edited) for line in original) else 1)
PY
}

# trial NAME : runs the adoption path on repo-NAME: a failing run, one
# --update-allowlist, a passing run, a second update that changes nothing,
# and the repository moved elsewhere still passing.
trial() {
    name=$1
    config=$2
    repo="repo-$name"
    cp "$repo/$config" "$name.orig"
    # As a new user: in the repository, on all of it.
    cd "$repo"
    expect_status 1 "$name: the first run fails" -- .
    expect_status 0 "$name: --update-allowlist" -- --update-allowlist .
    contains "$err" "entries in $config" "$name: says what it changed"
    head -1 "$err" | grep -q "^added 2[0-9], removed 0 entries in $config\$" \
        && pass "$name: $(head -1 "$err")" || true
    expect_status 0 "$name: the next run passes" -- .
    contains "$err" "allowlisted" "$name: the findings are allowlisted"
    cp "$config" "../$name.after"
    expect_status 0 "$name: a second --update-allowlist" -- --update-allowlist .
    contains "$err" "added 0, removed 0 entries in $config" "$name: the second update changes nothing"
    cd "$scratch"
    lines_kept "$name.orig" "$repo/$config" && pass "$name: every line of the file is still there, in order" \
        || fail "$name: lines of the original file were lost or moved"
    cmp -s "$name.after" "$repo/$config" && pass "$name: byte for byte" || fail "$name: the file changed"
    mkdir -p "elsewhere-$name/deeper"
    cp -R "$repo" "elsewhere-$name/deeper/checkout"
    (cd "elsewhere-$name/deeper/checkout" && sl . >/dev/null 2>&1) \
        && pass "$name: the repository moved elsewhere still passes" \
        || fail "$name: the moved repository fails"
}

corpus="${SHARED_DIR:-}/corpus/inspect_evals"
if [ -d "$corpus" ]; then
    for variant in toml ini inspect; do
        cp -R "$corpus" "repo-$variant"
        chmod -R u+w "repo-$variant"
    done
    printf '\n[tool.sandlint]\npackages = ["src/inspect_evals/*"]\n' >> repo-toml/pyproject.toml
    trial toml pyproject.toml
    grep -q '^\[tool.sandlint.allowlists.sandbox_privileges\]' repo-toml/pyproject.toml \
        && pass "toml: the entries are in [tool.sandlint.allowlists.sandbox_privileges]" \
        || fail "toml: no allowlist table"
    printf '[sandlint]\n# packages of the eval suite\npackages = src/inspect_evals/*\n' > repo-ini/.sandlint.ini
    trial ini .sandlint.ini
    grep -q '^threecb = default:cap_add:SYS_PTRACE$' repo-ini/.sandlint.ini \
        && pass "ini: one PACKAGE = KEY line per entry" || fail "ini: entry lines"
    printf '\n[tool.inspect-evals-lint.allowlists.sandbox_privileges]\n# reviewed\nthreecb = [\n    "default:cap_add:SYS_PTRACE",\n]\n' \
        >> repo-inspect/pyproject.toml
    trial inspect pyproject.toml
    lacks repo-inspect/pyproject.toml "[tool.sandlint.allowlists" \
        "inspect: the existing inspect-evals-lint table keeps being used"
    python3 -c 'import sys, tomllib; table = tomllib.load(open(sys.argv[1], "rb"))["tool"]["inspect-evals-lint"]["allowlists"]["sandbox_privileges"]; sys.exit(table["threecb"] != ["default:cap_add:SYS_PTRACE", "default:security_opt:seccomp=unconfined"])' \
        repo-inspect/pyproject.toml \
        && pass "inspect: an entry already there is not added again; the new one goes after it" \
        || fail "inspect: threecb's entries"
else
    echo "update_allowlist.sh: no corpus at $corpus: the inspect_evals trials are skipped"
fi

# --- a small repository ---------------------------------------------------------
mkdir -p small/evals/alpha small/evals/beta
printf 'services:\n  default:\n    privileged: true\n    cap_add: [SYS_ADMIN]\n' > small/evals/alpha/compose.yaml
printf 'services:\n  default:\n    pid: host\n' > small/evals/beta/compose.yaml
expect_status 0 "no configuration: --update-allowlist creates .sandlint.ini" -- \
    --root small --update-allowlist small
[ -f small/.sandlint.ini ] && pass ".sandlint.ini created at the root" || fail "no .sandlint.ini"
contains small/.sandlint.ini "[allowlist sandbox_privileges]" "the new file has the group's section"
contains small/.sandlint.ini "* = default:pid:host" "without packages, entries go under '*'"
printf '[sandlint]\npackages = evals/*\n' > small/.sandlint.ini
chmod 640 small/.sandlint.ini
expect_status 0 "packages" -- --root small --update-allowlist small
contains small/.sandlint.ini "alpha = default:cap_add:SYS_ADMIN" "entries under their package"
[ "$(stat -c %a small/.sandlint.ini)" = 640 ] && pass "the file's mode is kept" \
    || fail "mode changed to $(stat -c %a small/.sandlint.ini)"
[ -z "$(ls -A small | grep 'sandlint-' || true)" ] && pass "no temporary file left" \
    || fail "temporary files: $(ls -A small)"

# A one-file run under a package calls no entry stale, and removes nothing.
printf 'services:\n  default:\n    image: x\n' > small/evals/alpha/compose.yaml
expect_status 0 "one file of alpha" -- --root small small/evals/alpha/compose.yaml
lacks "$out" "no longer needed" "a one-file run reports no stale entry"
expect_status 0 "--update-allowlist on one file" -- --root small --update-allowlist \
    small/evals/alpha/compose.yaml
contains "$err" "added 0, removed 0 entries" "a package not fully checked loses nothing"
# The whole run removes what is gone.
expect_status 0 "the whole tree" -- --root small small
contains "$out" "no longer needed" "the whole run reports the stale entries"
expect_status 0 "--update-allowlist removes stale entries" -- --root small --update-allowlist small
contains "$err" "added 0, removed 2 entries" "two stale entries removed"
lacks small/.sandlint.ini "alpha = " "alpha's entries are gone"
contains small/.sandlint.ini "beta = default:pid:host" "beta's entry stays"

# Two at once never leave a half-written file.
printf 'services:\n  default:\n    cap_add: [NET_ADMIN, SYS_TIME, SYS_NICE]\n' > small/evals/alpha/compose.yaml
sl --root small --update-allowlist small >/dev/null 2>&1 &
first=$!
sl --root small --update-allowlist small >/dev/null 2>&1 || true
wait "$first" || true
expect_status 0 "after two updates at once" -- --root small small
contains small/.sandlint.ini "alpha = default:cap_add:SYS_TIME" "the file is whole"

# --- what cannot be edited safely --------------------------------------------------
mkdir -p broken
printf 'services:\n  web:\n    privileged: true\n' > broken/compose.yaml
printf '[sandlint]\nselect = SBX001\n[allowlist sandbox_privileges]\n = web:privileged\n' > broken/.sandlint.ini
cp broken/.sandlint.ini broken.ini
expect_status 2 "a configuration with an error" -- --root broken --update-allowlist broken
cmp -s broken.ini broken/.sandlint.ini && pass "a broken configuration is untouched" \
    || fail "a broken configuration was changed"
contains "$err" ".sandlint.ini:4:" "the error has its line"
printf '[sandlint]\n' > broken/.sandlint.ini
chmod 444 broken/.sandlint.ini
expect_status 2 "a read-only configuration" -- --root broken --update-allowlist broken
contains "$err" "the configuration is read-only" "read-only is refused"
[ "$(cat broken/.sandlint.ini)" = "[sandlint]" ] && pass "the read-only file is untouched" \
    || fail "the read-only file changed"
chmod 644 broken/.sandlint.ini
expect_status 2 "with standard input" -- --update-allowlist -
contains "$err" "--update-allowlist cannot take standard input" "stdin refused"
expect_status 2 "with --exit-zero" -- --update-allowlist --exit-zero broken
expect_status 2 "with json" -- --update-allowlist --format json broken
contains "$err" "--update-allowlist prints a text report, not json" "another format refused"
finish
