#!/bin/sh
# The plugin SDK as a third party sees it: `make install DESTDIR=...`, then
# build examples/plugin/ using only `pkg-config --cflags sandlint` and
# `plugindir`, load it with --plugin, and check its findings.  Also checks
# what the install contains.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
: "${abs_top_builddir:?}"
if ! command -v pkg-config >/dev/null 2>&1; then
    echo "sdk.sh: SKIP: pkg-config is missing"
    exit 77
fi
stage="$scratch/stage"
if ! (cd "$abs_top_builddir" && ${MAKE:-make} install DESTDIR="$stage") >"$scratch/install.log" 2>&1; then
    fail "make install DESTDIR failed"
    tail -20 "$scratch/install.log" >&2
    finish
fi
pc=$(find "$stage" -name sandlint.pc | head -n 1)
[ -n "$pc" ] && pass "sandlint.pc installed" || { fail "no sandlint.pc installed"; finish; }
PKG_CONFIG_PATH=$(dirname "$pc")
PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
cflags=$(pkg-config --cflags sandlint)
plugindir=$(pkg-config --variable=plugindir sandlint)
# pkgconf applies the sysroot to variables too; pkg-config 0.29 does not.
case $plugindir in "$stage"*) plugindir=${plugindir#"$stage"} ;; esac
case $cflags in *"$stage"*/include*) pass "Cflags point at the staged headers" ;;
    *) fail "unexpected Cflags: $cflags" ;; esac
[ -f "$stage$plugindir/privileges.so" ] && pass "plugins installed in plugindir" || fail "no privileges.so in $stage$plugindir"
count=$(find "$stage$plugindir" -name '*.so' | wc -l)
[ "$count" -eq 6 ] && pass "six plugins installed" || fail "$count plugins installed"
[ -z "$(find "$stage$plugindir" -name '*.la')" ] && pass "no .la files beside the plugins" || fail ".la files installed"
[ -f "$(dirname "$(dirname "$(dirname "$pc")")")/include/sandlint/plugin.h" ] || \
    [ -n "$(find "$stage" -path '*/include/sandlint/plugin.h')" ] && pass "SDK header installed" || fail "no SDK header"
for page in sandlint.1 sandlint.conf.5 sandlint-plugin.3 sandlint-rules.7; do
    [ -n "$(find "$stage" -name "$page")" ] && pass "$page installed" || fail "$page not installed"
done
for completion in bash-completion/completions/sandlint zsh/site-functions/_sandlint \
                  fish/vendor_completions.d/sandlint.fish; do
    [ -n "$(find "$stage" -path "*/share/$completion")" ] && pass "$completion installed" \
        || fail "$completion not installed"
done

# Build the example plugin exactly as its README says, outside the tree.
cp "$abs_top_srcdir/examples/plugin/host_gateway.c" "$abs_top_srcdir/examples/plugin/Makefile" \
   "$abs_top_srcdir/examples/plugin/sample.yaml" "$scratch/"
if (cd "$scratch" && ${MAKE:-make} CFLAGS="-O2 -Werror") >"$scratch/build.log" 2>&1; then
    pass "examples/plugin builds with pkg-config alone"
else
    fail "examples/plugin does not build"
    cat "$scratch/build.log" >&2
fi
installed=$(find "$stage" -path '*/bin/sandlint' | head -n 1)
cd "$scratch"
set +e
"$installed" --format json --no-default-plugins --plugin ./host_gateway.so sample.yaml >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "installed sandlint runs the out-of-tree plugin" || fail "exit $status: $(cat "$err")"
contains "$out" '"rule": "ACME001"' "out-of-tree rule reports"
contains "$out" '"key": "web:extra_hosts:host.docker.internal:host-gateway", "message": "extra_hosts maps a name to the host'"'"'s own address"' "list-form finding"
contains "$out" '"key": "worker:extra_hosts:metrics.local"' "mapping-form finding"
lacks "$out" "10.0.0.5" "ordinary entries are fine"
if command -v nm >/dev/null 2>&1; then
    exported=$(nm -D --defined-only host_gateway.so | awk '$2 ~ /^[TDBR]$/ {print $3}' | tr '\n' ' ')
    [ "$exported" = "sandlint_plugin_entry " ] && pass "example exports only its entry" || fail "example exports: $exported"
fi
finish
