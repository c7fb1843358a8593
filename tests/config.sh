#!/bin/sh
# Configuration: root discovery, --root, --config, INI and TOML giving the
# same result, and every config error with its position (SPEC §3).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
golden="$srcdir_tests/golden"

# --- INI and TOML allowlists give the same findings --------------------------
strip_config() {
    # The findings without stale entries (they point into different files)
    # and without the config file's name and positions in hints.
    python3 -c '
import json, re, sys
report = json.load(sys.stdin)
for finding in report["findings"]:
    if finding["rule"] != "SL005":
        finding["hint"] = re.sub(r"in [.\w]+:\d+:\d+", "in CONFIG", finding["hint"])
        print(json.dumps(finding, sort_keys=True))
'
}
(cd "$golden/cfg-ini" && sl --format json --root . 2>/dev/null | strip_config) >"$scratch/ini.json" || true
(cd "$golden/cfg-toml" && sl --format json --root . 2>/dev/null | strip_config) >"$scratch/toml.json" || true
[ -s "$scratch/ini.json" ] || fail "no INI findings to compare"
if cmp -s "$scratch/ini.json" "$scratch/toml.json"; then
    pass "INI and TOML allowlists give the same findings"
else
    fail "INI and TOML results differ"
    diff "$scratch/ini.json" "$scratch/toml.json" | head -10 >&2
fi

cd "$scratch"
mkdir -p repo/pkg/sub repo/.git
printf 'services:\n  web:\n    privileged: true\n    cap_add: [SYS_ADMIN]\n' > repo/pkg/sub/compose.yaml

# --- root discovery ----------------------------------------------------------
# Without packages, every file is in the package "*".
printf '[sandlint]\nselect = SBX001\n[allowlist sandbox_privileges]\n* = web:privileged\n' > repo/.sandlint.ini
printf '[packages]\n' > repo/pyproject.toml   # not ours: ignored anyway
(cd repo/pkg/sub && sl --format json) >"$out" 2>"$err" || true
contains "$out" '"file": "pkg/sub/compose.yaml"' "root found upward: paths relative to it"
contains "$out" '"message": "Allowlisted: privileged' "upward .sandlint.ini applied"
cat > repo/pyproject.toml <<'TOML'
[tool.sandlint]
select = ["SBX001"]
TOML
(cd repo/pkg/sub && sl --format json .) >"$out" 2>"$err" || true
contains "$out" '"message": "Allowlisted: privileged' ".sandlint.ini wins over pyproject.toml"
rm repo/.sandlint.ini
(cd repo/pkg && sl --format json .) >"$out" 2>"$err" || true
contains "$out" '"file": "pkg/sub/compose.yaml"' "pyproject root: paths relative to it"
lacks "$out" 'Allowlisted' "pyproject without allowlists allows nothing"
printf '[project]\nname = "x"\n' > repo/pyproject.toml
(cd repo/pkg && sl --format json .) >"$out" 2>"$err" || true
contains "$out" '"file": "sub/compose.yaml"' "pyproject.toml without our tables is not a root"

# --- --root and --config -------------------------------------------------------
printf '[allowlist sandbox_privileges]\n* = web:privileged\n' > alt.ini
expect_status 1 "--config" -- --format json --config alt.ini repo/pkg/sub
contains "$out" "Allowlisted: privileged" "--config file applied"
contains "$out" '"file": "repo/pkg/sub/compose.yaml"' "--config: root is the config's directory"
expect_status 1 "--root" -- --format json --root repo repo/pkg/sub
contains "$out" '"file": "pkg/sub/compose.yaml"' "--root sets the base of paths"
expect_status 2 "--config missing" -- --config nope.ini repo
contains "$err" "nope.ini: cannot read configuration file" "missing --config file"

# --- command-line selection replaces the configuration's ---------------------
printf '[sandlint]\nselect = SBX002\n' > sel.ini
expect_status 1 "--select overrides config" -- --format json --config sel.ini --select SBX001 repo
contains "$out" '"rule": "SBX001"' "--select replaces config select"

# --- config errors: exit 2, file:line:col: message -----------------------------
config_error() {
    name=$1 file=$2 want=$3
    set +e
    sl --config "$file" repo >"$out" 2>"$err"
    status=$?
    set -e
    if [ "$status" -ne 2 ]; then
        fail "$name: exit $status, expected 2"
    else
        contains "$err" "$want" "$name"
    fi
    [ -s "$out" ] && fail "$name: a report was printed" || true
}
printf '[sandlint]\nselect = SBX001\ncolour = yes\n' > e1.ini
config_error "INI unknown key" e1.ini "e1.ini:3:1: unknown setting 'colour' in [sandlint]"
printf '# x\n[sandlint]\nselect = SBX001, NOPE\n' > e2.ini
config_error "INI bad selector" e2.ini "e2.ini:3:18: unknown rule selector 'NOPE'"
printf '[sandlint]\n\n[allowlist no_such_group]\npkg = a:b\n' > e3.ini
config_error "INI unknown group" e3.ini "e3.ini:3:12: allowlist group 'no_such_group' is not the group of any loaded rule"
printf '[sandlint]\n[frobs]\nx = 1\n' > e4.ini
config_error "INI unknown section" e4.ini "e4.ini:2:1: unknown section [frobs]"
printf 'select = SBX001\n' > e5.ini
config_error "INI setting outside a section" e5.ini "e5.ini:1:1: setting 'select' outside a section"
printf '[sandlint]\nthis line has no equals sign\n' > e6.ini
config_error "INI syntax error" e6.ini "e6.ini:2:1: syntax error"
{ printf '[allowlist sandbox_privileges]\npkg = '; head -c 300 /dev/zero | tr '\0' a; printf '\n'; } > e7.ini
config_error "INI over-long line" e7.ini "e7.ini:2:"
printf '[allowlist sandbox_privileges]\npkg =\n' > e8.ini
config_error "INI empty entry" e8.ini "e8.ini:2:6: empty allowlist entry"
printf '[tool.sandlint]\nselect = ["SBX001"]\ncolour = true\n' > e1.toml
config_error "TOML unknown key" e1.toml "e1.toml:3:1: unknown setting 'colour' in [tool.sandlint]"
printf '[tool.sandlint]\nselect = 42\n' > e2.toml
config_error "TOML wrong type" e2.toml "e2.toml:2:10: tool.sandlint.select must be a string or an array of strings, not integer"
printf '[tool.sandlint]\nignore = ["SBX001", 7]\n' > e3.toml
config_error "TOML wrong item type" e3.toml "e3.toml:2:21: tool.sandlint.ignore must hold strings, not integer"
printf '[tool.sandlint.allowlists.nope]\npkg = ["a:b"]\n' > e4.toml
config_error "TOML unknown group" e4.toml "e4.toml:1:27: allowlist group 'nope' is not the group of any loaded rule"
printf '[tool.sandlint]\nselect = ["SBX001", "BOGUS"]\n' > e5.toml
config_error "TOML bad selector" e5.toml "e5.toml:2:21: unknown rule selector 'BOGUS'"
printf '[tool.sandlint]\nselect = [\n' > e6.toml
config_error "TOML syntax error" e6.toml "e6.toml:3:1:"
printf '[tool.sandlint.allowlists.sandbox_privileges]\npkg = "web:privileged"\nother = 3\n' > e7.toml
config_error "TOML allowlist wrong type" e7.toml "e7.toml:3:9: tool.sandlint.allowlists.sandbox_privileges must be a string or an array of strings, not integer"
printf '[tool.sandlint]\nselect = "SBX001"\n[tool.sandlint]\n' > e8.toml
config_error "TOML duplicate table" e8.toml "e8.toml:3:"
finish
