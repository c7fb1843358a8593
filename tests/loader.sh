#!/bin/sh
# Plugin loading from the command line (SPEC §2, §10): --plugin,
# --plugin-dir, SANDLINT_PLUGIN_PATH, --no-default-plugins, refusals.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
: "${TEST_PLUGIN_DIR:?}"
plugins="$TEST_PLUGIN_DIR"
printf 'services:\n  web:\n    image: nginx\n    privileged: true\n' > compose.yaml
# The ABI of the header this sandlint was built with.
minor=$(sed -n 's/^#define SL_ABI_MINOR \([0-9]*\)$/\1/p' "$abs_top_srcdir/include/sandlint/plugin.h")

# Refusals: exit 2 with a message naming the file.
expect_status 2 "wrong major" -- --plugin "$plugins/wrong_major.so" .
contains "$err" "$plugins/wrong_major.so: plugin refused: built for plugin ABI 2.0, but this sandlint provides ABI 1.$minor" "wrong major names file and both versions"
expect_status 2 "no entry symbol" -- --plugin "$plugins/no_entry.so" .
contains "$err" "$plugins/no_entry.so: plugin refused: no sandlint_plugin_entry symbol" "missing entry symbol"
expect_status 2 "no rules" -- --plugin "$plugins/no_rules.so" .
contains "$err" "$plugins/no_rules.so: plugin refused: descriptor has no rules" "descriptor without rules"
expect_status 2 "rule without code" -- --plugin "$plugins/rule_without_code.so" .
contains "$err" "rule_without_code.so: plugin refused: rule 0 has no code" "rule without code"
expect_status 2 "null descriptor" -- --plugin "$plugins/null_descriptor.so" .
expect_status 2 "not found" -- --plugin nosuchplugin .
contains "$err" "plugin 'nosuchplugin' not found in:" "unknown plugin name"
printf 'not an ELF file' > fake.so
expect_status 2 "not a shared object" -- --plugin ./fake.so .
contains "$err" "./fake.so: cannot load plugin:" "garbage file refused"

# Loading by name through --plugin-dir and SANDLINT_PLUGIN_PATH.
expect_status 1 "--plugin-dir" -- --format json --plugin-dir "$plugins" --plugin good .
contains "$out" '"rule": "TST001"' "--plugin NAME found in --plugin-dir"
contains "$out" '"rule": "SBX001"' "default plugins still load"
set +e
SANDLINT_PLUGIN_PATH="/nonexistent:$plugins" "$SANDLINT" --format json --plugin good . >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "SANDLINT_PLUGIN_PATH exit status" || fail "SANDLINT_PLUGIN_PATH: exit $status"
contains "$out" '"rule": "TST001"' "--plugin NAME found via SANDLINT_PLUGIN_PATH"

# --no-default-plugins: only the named ones.
expect_status 0 "--no-default-plugins" -- --format json --no-default-plugins --plugin "$plugins/good.so" .
contains "$out" '"rule": "TST001"' "named plugin runs"
lacks "$out" '"rule": "SBX001"' "default plugins are not loaded"
expect_status 2 "no plugins at all" -- --no-default-plugins .
contains "$err" "no rule plugins loaded" "running without rules is refused"

# A plugin built for a newer minor ABI that uses no new slots loads.
expect_status 0 "newer minor" -- --format json --no-default-plugins --plugin "$plugins/newer_minor.so" .
contains "$out" '"rule": "TST005"' "newer-minor plugin runs"
expect_status 0 "newer minor listed" -- --list-plugins --no-default-plugins --plugin "$plugins/newer_minor.so"
host_abi=$(awk '$1 == "sandlint" { print $3 }' "$out")
plugin_abi=$(awk '$1 == "newer_minor" { print $3 }' "$out")
[ "$plugin_abi" = "1.$((${host_abi#1.} + 1))" ] &&
    pass "--list-plugins shows the plugin's declared ABI ($plugin_abi, the host's $host_abi)" ||
    fail "--list-plugins shows ABI '$plugin_abi' for a plugin built for the minor after $host_abi"

# The same plugin twice loads once; two plugins defining one code refuse.
expect_status 0 "same file twice" -- --no-default-plugins --plugin "$plugins/good.so" --plugin "$plugins/good.so" .
mkdir copy
cp "$plugins/good.so" copy/good.so
expect_status 2 "duplicate plugin name" -- --no-default-plugins --plugin "$plugins/good.so" --plugin copy/good.so .
contains "$err" "a plugin named 'good' is already loaded" "duplicate plugin refused"
# A plugin with a built-in's name never replaces it silently (0.1 did):
# exit 2, naming both files.
mkdir shadow
cp "$abs_top_builddir/plugins/.libs/privileges.so" shadow/privileges.so
expect_status 2 "a plugin named like a built-in" -- --plugin shadow/privileges.so .
contains "$err" "shadow/privileges.so: plugin refused: a plugin named 'privileges' is already loaded from" \
    "the duplicate names its own file"
contains "$err" "plugins/.libs/privileges.so" "and the built-in's file"

# Built-in plugins export only their entry point.
if command -v nm >/dev/null 2>&1; then
    for so in "$abs_top_builddir"/plugins/.libs/*.so; do
        exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | tr '\n' ' ')
        [ "$exported" = "sandlint_plugin_entry " ] && pass "$(basename "$so") exports only its entry" \
            || fail "$(basename "$so") exports: $exported"
    done
fi
finish
