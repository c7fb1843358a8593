#!/bin/sh
# --update-allowlist on a real evaluation repository (the shared corpus's
# inspect_evals, about 190 Compose files, SPEC §8, §14): one command makes a
# run pass, with one entry per file; the configuration keeps every other
# byte; a second run changes nothing; the repository moved elsewhere still
# passes; an inspect-evals-lint table is never given path scopes.  Needs
# the shared corpus: SKIP (77) without it.
. "${abs_top_srcdir:?}/tests/lib.sh"
corpus="${SHARED_DIR:-}/corpus/inspect_evals"
if [ ! -d "$corpus" ]; then
    echo "update_allowlist_corpus.sh: SKIP: no corpus at $corpus"
    exit 77
fi
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

# trial NAME CONFIG [OPTION...] : the adoption path on repo-NAME: a failing
# run, one --update-allowlist, a passing run that prints no accepted
# finding, a second update that changes nothing, and the repository moved
# elsewhere still passing.
trial() {
    name=$1
    config=$2
    shift 2
    repo="repo-$name"
    cp "$repo/$config" "$name.orig"
    cd "$repo"
    expect_status 1 "$name: the first run fails" -- .
    expect_status 0 "$name: --update-allowlist" -- --update-allowlist "$@" .
    contains "$err" "entries in $config" "$name: says what it changed"
    grep -q "^added [1-9][0-9]*, removed 0 entries in $config\$" "$err" \
        && pass "$name: $(grep '^added' "$err")" || fail "$name: $(cat "$err")"
    # Warnings are not accepted by an update without --strict (SBX007's
    # runtime warnings of SPEC §13 stay printed); no error may be.
    ! grep -q ': error: ' "$out" && pass "$name: the accepted findings are not printed again" \
        || fail "$name: the update printed: $(grep ': error: ' "$out" | head -3)"
    tail -1 "$err" | grep -q '^0 errors, .* allowlisted$' \
        && pass "$name: the summary is the run's after the change" \
        || fail "$name: summary: $(tail -1 "$err")"
    expect_status 0 "$name: the next run passes" -- .
    contains "$err" "allowlisted" "$name: the findings are allowlisted"
    cp "$config" "../$name.after"
    expect_status 0 "$name: a second --update-allowlist" -- --update-allowlist "$@" .
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

for variant in toml ini inspect inspect-package narrow; do
    cp -R "$corpus" "repo-$variant"
    chmod -R u+w "repo-$variant"
done
printf '\n[tool.sandlint]\npackages = ["src/inspect_evals/*"]\n' >> repo-toml/pyproject.toml
trial toml pyproject.toml
grep -q '^\[tool.sandlint.allowlists.sandbox_privileges\]' repo-toml/pyproject.toml \
    && pass "toml: the entries are in [tool.sandlint.allowlists.sandbox_privileges]" \
    || fail "toml: no allowlist table"
grep -q '^"src/inspect_evals/threecb/task_configs/null_writing/compose.yaml" = \[' repo-toml/pyproject.toml \
    && pass "toml: one quoted path scope per file" || fail "toml: path scopes"

printf '[sandlint]\n# packages of the eval suite\npackages = src/inspect_evals/*\n' > repo-ini/.sandlint.ini
trial ini .sandlint.ini
grep -q '^src/inspect_evals/threecb/task_configs/null_writing/compose.yaml = default:cap_add:SYS_PTRACE$' \
    repo-ini/.sandlint.ini \
    && pass "ini: one FILE = KEY line per entry" || fail "ini: entry lines"
lacks repo-ini/.sandlint.ini "threecb = " "ini: no package entry by default"
lacks repo-ini/.sandlint.ini "* = " "ini: never a '*' entry"

inspect_table='\n[tool.inspect-evals-lint.allowlists.sandbox_privileges]\n# reviewed\nthreecb = [\n    "default:cap_add:SYS_PTRACE",\n]\n'
# shellcheck disable=SC2059
printf "$inspect_table" >> repo-inspect/pyproject.toml
cp repo-inspect/pyproject.toml inspect.before
trial inspect pyproject.toml
python3 - inspect.before repo-inspect/pyproject.toml <<'PY' \
    && pass "inspect: the inspect-evals-lint table is left as it was; path entries go to sandlint's table" \
    || fail "inspect: the inspect-evals-lint table changed, or no sandlint table"
import sys, tomllib
before, after = (tomllib.load(open(p, "rb"))["tool"] for p in sys.argv[1:])
table = lambda t: t["inspect-evals-lint"]["allowlists"]["sandbox_privileges"]
assert table(before) == table(after), (table(before), table(after))
ours = after["sandlint"]["allowlists"]["sandbox_privileges"]
assert ours and all("/" in scope for scope in ours), list(ours)[:3]
PY

# With --allowlist-scope package, the inspect-evals-lint table keeps being
# used, and what is there already is not added again (0.2's way).
# shellcheck disable=SC2059
printf "$inspect_table" >> repo-inspect-package/pyproject.toml
trial inspect-package pyproject.toml --allowlist-scope package
lacks repo-inspect-package/pyproject.toml "[tool.sandlint.allowlists" \
    "inspect-package: the existing inspect-evals-lint table keeps being used"
python3 -c 'import sys, tomllib; table = tomllib.load(open(sys.argv[1], "rb"))["tool"]["inspect-evals-lint"]["allowlists"]["sandbox_privileges"]; sys.exit(table["threecb"] != ["default:cap_add:SYS_PTRACE", "default:security_opt:seccomp=unconfined"])' \
    repo-inspect-package/pyproject.toml \
    && pass "inspect-package: an entry already there is not added again; new ones go after it" \
    || fail "inspect-package: threecb's entries"

# --narrow turns the package entries into file entries: what the package
# run accepted, file by file, in sandlint's own table; the
# inspect-evals-lint table stays (that tool reads it by package).
cd repo-narrow
printf '[sandlint]\npackages = src/inspect_evals/*\n' > .sandlint.ini
expect_status 0 "narrow: package entries first" -- --update-allowlist --allowlist-scope package .
grep -q '^threecb = ' .sandlint.ini && pass "narrow: package entries written" || fail "narrow: no package entry"
expect_status 0 "--narrow" -- --update-allowlist --narrow .
contains "$err" "narrowed" "narrow: says how many entries it narrowed"
lacks .sandlint.ini "threecb = " "narrow: the package entries are gone"
expect_status 0 "narrow: the next run passes" -- .
cd "$scratch"
finish
