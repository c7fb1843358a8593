#!/bin/sh
# Golden fixtures: Compose input -> expected JSON report, byte for byte
# (the version string is masked).
#   tests/golden/NAME.yaml   checked as `sandlint --format json --root . NAME.yaml`
#                            from tests/golden (also NAME.yml, and NAME.sh:
#                            a shell script of engine command lines)
#   tests/golden/NAME/       checked as `sandlint --format json --root .` from
#                            inside the directory (its own config files apply)
#   NAME.json                the expected report
#   NAME.args                optional extra arguments (one line, word-split)
#   NAME.exit                optional expected exit status (default: 1 when
#                            the summary counts errors, else 0)
# GOLDEN_UPDATE=1 rewrites the expected files from the current output.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
golden="$srcdir_tests/golden"
count=0

mask_version() {
    sed 's/^{"tool": "sandlint", "version": "[^"]*"/{"tool": "sandlint", "version": "VERSION"/'
}

check_case() {
    name=$1
    directory=$2
    operand=$3
    expected="$golden/$name.json"
    args=""
    [ -f "$golden/$name.args" ] && args=$(cat "$golden/$name.args")
    set +e
    # shellcheck disable=SC2086
    (cd "$directory" && sl --format json --root . $args $operand) \
        >"$scratch/raw" 2>"$scratch/err"
    status=$?
    set -e
    mask_version <"$scratch/raw" >"$scratch/actual"
    if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
        cp "$scratch/actual" "$expected"
    fi
    if [ -f "$golden/$name.exit" ]; then
        want=$(cat "$golden/$name.exit")
    elif grep -q '"errors": [1-9]' "$scratch/actual"; then
        want=1
    else
        want=0
    fi
    count=$((count + 1))
    if [ ! -f "$expected" ]; then
        fail "$name: no expected file $name.json"
    elif ! cmp -s "$expected" "$scratch/actual"; then
        fail "$name: report differs from $name.json"
        diff -u "$expected" "$scratch/actual" | head -40 >&2 || true
    elif [ "$status" -ne "$want" ]; then
        fail "$name: exit status $status, expected $want"
        sed 's/^/    stderr: /' "$scratch/err" >&2
    elif ! json_valid "$scratch/raw"; then
        fail "$name: output is not valid JSON"
    else
        pass "$name"
    fi
}

for input in "$golden"/*.yaml "$golden"/*.yml "$golden"/*.sh; do
    [ -e "$input" ] || continue
    file=${input##*/}
    check_case "${file%.*}" "$golden" "$file"
done
for directory in "$golden"/*/; do
    [ -d "$directory" ] || continue
    name=$(basename "$directory")
    check_case "$name" "$directory" ""
done
[ "$count" -gt 0 ] || fail "no golden cases found"
finish
