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
        # The entry to add is written in the syntax of the configuration.
        finding["hint"] = re.sub(r"add \x27.*\x27 under \[.*\]$", "add ENTRY", finding["hint"])
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
    diff "$scratch/ini.json" "$scratch/toml.json" | head -5 >&2
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
expect_status 1 "--root" -- --format json --root repo repo/pkg/sub || true
contains "$out" '"file": "pkg/sub/compose.yaml"' "--root sets the base of paths"
expect_status 2 "--config missing" -- --config nope.ini repo || true
contains "$err" "nope.ini: cannot read configuration file" "missing --config file"

# --- command-line selection replaces the configuration's ---------------------
printf '[sandlint]\nselect = SBX002\n' > sel.ini
expect_status 1 "--select overrides config" -- --format json --config sel.ini --select SBX001 repo || true
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
# --- trust: a discovered configuration names plugins only by name (issue 10) ---
# The scanned tree is the attacker's: its own .so must never load from a
# configuration that discovery found there.
mkdir -p trust/sub
printf 'services:\n  web:\n    image: nginx\n    privileged: true\n' > trust/sub/compose.yaml
cp "$TEST_PLUGIN_DIR/good.so" trust/x.so
printf '[sandlint]\nplugins = ./x.so\n' > trust/.sandlint.ini
(cd trust && expect_status 2 "discovered plugin path" -- --format json sub) || true
contains "$err" ".sandlint.ini:2:11: plugin './x.so' is a path" "discovered plugin path: error at its position"
contains "$err" "--config FILE" "discovered plugin path: says how to trust the file"
lacks "$out" "TST001" "discovered plugin path: the tree's plugin did not run"
expect_status 2 "plugin path with --root" -- --format json --root trust trust/sub || true
contains "$err" ".sandlint.ini:2:11: plugin './x.so' is a path" "a config found through --root is not trusted"
printf '[sandlint]\nplugins = x.so\n' > trust/.sandlint.ini
(cd trust && expect_status 2 "discovered plugin file name" -- sub) || true
contains "$err" "plugin 'x.so' is a path" "a name ending in .so is a path"
printf '[sandlint]\nplugins = good\nplugin-dir = .\n' > trust/.sandlint.ini
(cd trust && expect_status 2 "discovered plugin-dir" -- --plugin-dir "$TEST_PLUGIN_DIR" sub) || true
contains "$err" ".sandlint.ini:3:14: plugin-dir is not allowed" "discovered plugin-dir refused at its position"
rm trust/.sandlint.ini
mkdir -p outer/inner
printf '[tool.sandlint]\nplugin-dir = ["inner"]\n' > outer/pyproject.toml
printf 'services:\n  web:\n    privileged: true\n' > outer/inner/compose.yaml
(cd outer/inner && expect_status 2 "pyproject plugin-dir further up" -- .) || true
contains "$err" "pyproject.toml:2:15: plugin-dir is not allowed" "pyproject.toml found upward: plugin-dir refused"
# By name, resolved in --plugin-dir: allowed.
printf '[sandlint]\nplugins = good\n' > trust/.sandlint.ini
(cd trust && expect_status 1 "discovered plugin name" -- --format json --plugin-dir "$TEST_PLUGIN_DIR" sub) || true
contains "$out" '"rule": "TST001"' "a plugin named by name in a discovered config loads from --plugin-dir"
# Named with --config, the file is trusted.
printf '[sandlint]\nplugins = ./x.so\n' > trust/.sandlint.ini
expect_status 1 "--config trusts plugin paths" -- --format json --config trust/.sandlint.ini trust/sub || true
contains "$out" '"rule": "TST001"' "--config FILE: its plugin path loads"

# --- --root must be a directory ---------------------------------------------------
expect_status 2 "--root missing" -- --root no/such/dir repo || true
contains "$err" "--root 'no/such/dir': No such file or directory" "--root missing: exit 2 with a message"
expect_status 2 "--root a file" -- --root repo/pkg/sub/compose.yaml repo || true
contains "$err" "is not a directory" "--root naming a file: exit 2"

# --- cosmetic: messages that tell the truth ---------------------------------------
# A configuration over the size limit: no Compose option governs it.
mkdir big
printf '[sandlint]\n' > big/.sandlint.ini
truncate -s 17M big/.sandlint.ini
expect_status 2 "config too large" -- --root big repo || true
contains "$err" "configuration file is larger than 16777216 bytes" "config size error"
lacks "$err" "max-file-size" "config size error does not name --max-file-size"
# 198 bytes of text fit, whatever ends the line.
printf '[allowlist sandbox_privileges]\r\nsub = web:%0188d\r\n' 0 > crlf.ini
expect_status 1 "198-byte CRLF line" -- --config crlf.ini repo || true
printf '[allowlist sandbox_privileges]\r\nsub = web:%0189d\r\n' 0 > crlf.ini
expect_status 2 "199-byte CRLF line" -- --config crlf.ini repo || true
contains "$err" "crlf.ini:2:1: line is 199 bytes long" "over-long CRLF line: its true length"
# A NUL in a value is shown escaped, never cut.
printf '[tool.sandlint]\n"col\\u0000our" = 1\n' > nul.toml
expect_status 2 "NUL in a key" -- --config nul.toml repo || true
contains "$err" "nul.toml:2:1: unknown setting 'col\\x00our'" "NUL shown as \\x00"
printf '[tool.sandlint]\nselect = ["SBX\\u0000x"]\n' > nul.toml
expect_status 2 "NUL in a selector" -- --config nul.toml repo || true
contains "$err" "rule selector 'SBX\\x00x' holds a NUL byte" "a NUL cannot cut a selector to another one"

# --- INI: nothing cut, nothing ignored ---------------------------------------------
printf '[allowlist sandbox_privileges]\n= web:privileged\n' > e9.ini
config_error "INI empty package name" e9.ini "e9.ini:2:1: missing name before '='"
printf '[allowlist sandbox_privileges] junk\nsub = web:privileged\n' > e10.ini
config_error "INI text after a header" e10.ini "e10.ini:1:32: text after the section header: 'junk'"

# --- new settings are read -------------------------------------------------------
printf '[sandlint]\nexclude = vendor/*\nextend-select = SBX001\n[rule SBX003]\ndepth = 3\n' > new.ini
# [rule CODE] is read, then checked against what the loaded rules declare
# (SBX003 declares no options; tests/plugin_abi.sh covers rules that do).
expect_status 2 "INI exclude, extend-select, [rule CODE]" -- --config new.ini repo || true
contains "$err" "new.ini:5:1: rule SBX003 has no option 'depth' (it declares none)" "INI rule option checked against the rule"
printf '[tool.sandlint]\nexclude = ["vendor/*"]\nextend-select = ["SBX001"]\n[tool.sandlint.rules.SBX003]\ndepth = 3\n' > new.toml
expect_status 2 "TOML exclude, extend-select, rules" -- --config new.toml repo || true
contains "$err" "new.toml:5:1: rule SBX003 has no option 'depth' (it declares none)" "TOML rule option checked against the rule"
finish
