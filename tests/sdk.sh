#!/bin/sh
# The plugin SDK as a third party sees it: `make install DESTDIR=...`, then
# build the installed examples/plugin/ using only `pkg-config --cflags
# sandlint` and `plugindir`, run its golden test, load it with --plugin,
# and check its findings and its option.  Also checks what the install
# contains.
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
[ "$count" -eq 9 ] && pass "nine plugins installed" || fail "$count plugins installed"
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

# Build the example plugin from where `make install` put it, exactly as its
# README says, outside the tree; its golden test uses the rule's option.
example=$(find "$stage" -type d -path '*/doc/sandlint/examples/plugin' | head -n 1)
[ -n "$example" ] && pass "examples/plugin installed in the doc directory" ||
    { fail "examples/plugin not installed under doc/sandlint"; finish; }
for file in README.md Makefile host_gateway.c root_writable.c sample.yaml \
        golden/.sandlint.ini golden/expected.json golden/sandbox/compose.yaml \
        golden/sandbox/values.yaml golden/sandbox/k8s/pod.yaml; do
    [ -f "$example/$file" ] || fail "examples/plugin/$file not installed"
done
[ -n "$(find "$stage" -path '*/include/sandlint/rule.h')" ] && pass "rule.h installed" ||
    fail "no rule.h installed"
cp -R "$example" "$scratch/example"
if (cd "$scratch/example" && ${MAKE:-make} CFLAGS="-O2 -Werror") >"$scratch/build.log" 2>&1; then
    pass "examples/plugin builds with pkg-config alone"
else
    fail "examples/plugin does not build"
    cat "$scratch/build.log" >&2
fi
installed=$(find "$stage" -path '*/bin/sandlint' | head -n 1)
cd "$scratch/example"
if ${MAKE:-make} check SANDLINT="$installed" >"$scratch/check.log" 2>&1; then
    pass "the example's golden test passes with the installed sandlint"
else
    fail "the example's golden test fails"
    cat "$scratch/check.log" >&2
fi
set +e
"$installed" --format json --no-default-plugins --plugin ./host_gateway.so sample.yaml >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "installed sandlint runs the out-of-tree plugin" || fail "exit $status: $(cat "$err")"
contains "$out" '"rule": "ACME001"' "out-of-tree rule reports"
contains "$out" '"key": "web:extra_hosts:host.docker.internal:host-gateway", "message": "extra_hosts maps '"'"'host.docker.internal'"'"' to the host'"'"'s own address"' "list-form finding"
contains "$out" '"key": "worker:extra_hosts:metrics.local"' "mapping-form finding"
contains "$out" "allowlist 'worker:extra_hosts:metrics.local' under acme_network" "%k in the rule's hint"
lacks "$out" "10.0.0.5" "ordinary entries are fine"
printf '[rule ACME001]\nallowed_hosts = metrics.local, host.docker.internal\n' > .sandlint.ini
set +e
"$installed" --format json --no-default-plugins --plugin ./host_gateway.so sample.yaml >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 0 ] && pass "allowed_hosts silences the reviewed names" || fail "exit $status: $(cat "$err")"
printf '[rule ACME001]\nallowed_host = metrics.local\n' > .sandlint.ini
set +e
"$installed" --no-default-plugins --plugin ./host_gateway.so sample.yaml >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 2 ] && pass "a misspelt option is a config error" || fail "misspelt option: exit $status"
contains "$err" ".sandlint.ini:2:1: rule ACME001 has no option 'allowed_host' (its options: allowed_hosts)" "the error names the file, line and column"
rm .sandlint.ini
# The rule written on the container model reports on every kind alike,
# from the installed example's golden sandbox.
set +e
"$installed" --root golden --format json --no-default-plugins --plugin ./host_gateway.so \
    --plugin ./root_writable.so \
    golden >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "installed sandlint runs the model rule" || fail "exit $status: $(cat "$err")"
contains "$out" '"key": "web:root-writable", "message": "the service may run as root on a writable root file system (no read_only)"' "the model rule on a Compose service"
contains "$out" '"key": "default:root-writable", "message": "the container may run as root on a writable root file system (no readOnlyRootFilesystem)"' "on an agent-env service"
contains "$out" '"key": "Pod/runner/helper:root-writable"' "on a Kubernetes container"
lacks "$out" "Pod/runner/main" "a pod's runAsNonRoot covers its container"
lacks "$out" "hardened:" "a read-only root is fine"
if command -v nm >/dev/null 2>&1; then
    exported=$(nm -D --defined-only host_gateway.so | awk '$2 ~ /^[TDBR]$/ {print $3}' | tr '\n' ' ')
    [ "$exported" = "sandlint_plugin_entry " ] && pass "example exports only its entry" || fail "example exports: $exported"
fi
finish
