#!/bin/sh
# The example plugins of sandlint-plugin(3) compile as printed (with
# -std=c99 -Wall -Wextra -Werror), load, and report the example their own
# rule documents; the one written on the container model reports on a
# Compose file, agent-env values and a Kubernetes pod alike.  A source is
# the literal display between the lines `.\" BEGIN EXAMPLE PLUGIN` and
# `.\" END EXAMPLE PLUGIN` (`MODEL EXAMPLE PLUGIN` for the second) of the
# page.
. "${abs_top_srcdir:?}/tests/lib.sh"
: "${abs_top_builddir:?}"

compiler=
for candidate in ${CC:-} cc gcc clang; do
    if command -v "$candidate" >/dev/null 2>&1; then
        compiler=$candidate
        break
    fi
done
if [ -z "$compiler" ]; then
    echo "man_example.sh: SKIP: no C compiler"
    exit 77
fi
make_scratch
page="$abs_top_srcdir/man/sandlint-plugin.3"

# extract NAME FILE: the display between the NAME markers, with the mdoc
# escapes it may use undone; any other escape or a macro line inside the
# display is an error in the page.
extract() {
    marker_begin=".\\\" BEGIN $1" marker_end=".\\\" END $1" awk '
BEGIN { begin = ENVIRON["marker_begin"]; end = ENVIRON["marker_end"] }
function unescape(line,    out, c, i, name) {
    out = ""
    while ((i = index(line, "\\")) > 0) {
        out = out substr(line, 1, i - 1)
        c = substr(line, i + 1, 1)
        line = substr(line, i + 2)
        if (c == "e" || c == "\\") {
            out = out "\\"
        } else if (c == "&") {
            # zero-width: nothing
        } else if (c == "-") {
            out = out "-"
        } else if (c == "(") {
            name = substr(line, 1, 2)
            line = substr(line, 3)
            if (name == "aq") out = out "\047"
            else if (name == "dq") out = out "\""
            else if (name == "ga") out = out "`"
            else if (name == "ti") out = out "~"
            else if (name == "ha") out = out "^"
            else if (name == "rs") out = out "\\"
            else { print "unsupported escape \\(" name > "/dev/stderr"; bad = 1 }
        } else {
            print "unsupported escape \\" c > "/dev/stderr"
            bad = 1
        }
    }
    return out line
}
$0 == begin { state = 1; begun = 1; next }
$0 == end { if (state != 3) bad = 1; state = 0; ended = 1; next }
state == 1 {
    if ($0 !~ /^\.Bd -literal/) { print "no .Bd -literal after the BEGIN marker" > "/dev/stderr"; bad = 1 }
    state = 2
    next
}
state == 2 && $0 == ".Ed" { state = 3; next }
state == 2 && /^[.\047]/ { print "macro inside the example: " $0 > "/dev/stderr"; bad = 1; next }
state == 2 { print unescape($0); next }
state == 3 { print "text between .Ed and the END marker" > "/dev/stderr"; bad = 1 }
END { if (!begun || !ended || bad) exit 1 }
' "$page" >"$2" 2>"$err"
}
if ! extract "EXAMPLE PLUGIN" "$scratch/example.c"; then
    fail "cannot extract the example plugin from sandlint-plugin.3"
    sed 's/^/    /' "$err" >&2
    finish
fi
[ -s "$scratch/example.c" ] && pass "example plugin extracted" || { fail "empty example"; finish; }

cd "$scratch"
# shellcheck disable=SC2086
if $compiler -std=c99 -Wall -Wextra -Werror -I"$abs_top_srcdir/include" \
        -fPIC -fvisibility=hidden -shared -o x.so example.c 2>"$err"; then
    pass "example plugin compiles as printed"
else
    fail "example plugin does not compile"
    sed 's/^/    /' "$err" >&2
    finish
fi
if command -v nm >/dev/null 2>&1; then
    exported=$(nm -D --defined-only x.so 2>/dev/null | awk '$2 ~ /^[TDBR]$/ { print $3 }' | tr '\n' ' ')
    [ "$exported" = "sandlint_plugin_entry " ] && pass "example exports only its entry" ||
        fail "example exports: $exported"
fi

# The plugin loads, and its rule reports the Example of its own --explain.
expect_status 0 "--list-rules with the example" -- --root . --no-default-plugins --plugin ./x.so --list-rules || finish
code=$(awk 'NR > 1 && $4 != "sandlint" { print $1; exit }' "$out")
[ -n "$code" ] && pass "example plugin loads rule $code" || { fail "example plugin has no rule"; finish; }
expect_status 0 "--explain $code" -- --root . --no-default-plugins --plugin ./x.so --explain "$code" || finish
mkdir sandbox
awk 'found && /^[^ ]/ { exit } found { sub(/^  /, ""); print } $0 == "Example" { found = 1 }' "$out" >sandbox/compose.yaml
[ -s sandbox/compose.yaml ] && pass "rule $code documents an example" || fail "rule $code has no Example"
set +e
sl --root . --format json --no-default-plugins --plugin ./x.so sandbox >"$out" 2>"$err"
status=$?
set -e
[ "$status" -le 1 ] && pass "example run finishes (exit $status)" || {
    fail "example run: exit $status"
    sed 's/^/    /' "$err" >&2
}
contains "$out" "\"rule\": \"$code\"" "the example plugin reports its own example"
lacks "$out" '"rule": "SL006"' "the example plugin does not fail"

# The rule written on the container model: as printed, on three kinds.
if ! extract "MODEL EXAMPLE PLUGIN" "$scratch/model.c"; then
    fail "cannot extract the model example plugin from sandlint-plugin.3"
    sed 's/^/    /' "$err" >&2
    finish
fi
if $compiler -std=c99 -Wall -Wextra -Werror -I"$abs_top_srcdir/include" \
        -fPIC -fvisibility=hidden -shared -o model.so model.c 2>"$err"; then
    pass "the model example compiles as printed"
else
    fail "the model example does not compile"
    sed 's/^/    /' "$err" >&2
    finish
fi
mkdir kinds kinds/k8s
printf 'services:\n  web:\n    image: example/web\n' >kinds/compose.yaml
printf 'services:\n  default:\n    image: example/agent\n' >kinds/values.yaml
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: main}]\n' \
    >kinds/k8s/pod.yaml
printf '[sandlint]\nkubernetes = kinds/k8s/*.yaml\n' >.sandlint.ini
set +e
sl --root . --format json --no-default-plugins --plugin ./model.so kinds >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "the model example runs (exit 1)" || fail "model example: exit $status"
contains "$out" '"key": "web:root-writable"' "the model example reports on Compose"
contains "$out" '"key": "default:root-writable"' "on agent-env values"
contains "$out" '"key": "Pod/p/main:root-writable"' "on a Kubernetes pod"
lacks "$out" '"rule": "SL006"' "the model example does not fail"
rm .sandlint.ini
finish
