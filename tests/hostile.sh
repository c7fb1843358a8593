#!/bin/sh
# Hostile input (SPEC §11): every case ends in bounded time with a clear
# warning, the other files still checked and the right exit status.  The
# big inputs are generated here, never committed.  Fuzzer-found inputs in
# tests/fuzz-regressions/ are replayed too.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
: "${TEST_PLUGIN_DIR:?}"
priv='services:\n  web:\n    privileged: true\n'

# one_case NAME WANT_STATUS WANT_TEXT : runs sandlint on directory NAME
# (which also holds a normal file with one finding) with a 60 s bound.
one_case() {
    name=$1 want=$2 text=$3
    printf "$priv" > "$name/docker-compose.yml"
    set +e
    timeout 120 ${SANDLINT_WRAPPER:-} "$SANDLINT" --jobs 1 "$name" >"$out" 2>"$err"
    status=$?
    set -e
    if [ "$status" -ne "$want" ]; then
        fail "$name: exit status $status, expected $want"
        tail -3 "$err" >&2
        return
    fi
    contains "$out" "$text" "$name: $text"
    contains "$out" "$name/docker-compose.yml:3:5: error: privileged" "$name: the other file is still checked"
}

# Alias bomb: 9 levels x 9 aliases.
mkdir bomb
{
    printf 'x-a0: &a0 [lol]\n'
    for level in 1 2 3 4 5 6 7 8 9; do
        prev=$((level - 1))
        printf 'x-a%s: &a%s [' "$level" "$level"
        for i in 1 2 3 4 5 6 7 8; do printf '*a%s, ' "$prev"; done
        printf '*a%s]\n' "$prev"
    done
    printf 'services:\n  web:\n    cap_add: *a9\n'
} > bomb/compose.yaml
one_case bomb 1 "bomb/compose.yaml:9:7: warning: cap_add entry is a sequence and cannot be checked"

# Self-referential merge.
mkdir selfmerge
printf 'services:\n  web: &web\n    <<: *web\n    privileged: true\n' > selfmerge/compose.yaml
one_case selfmerge 1 "refers to a node that contains it"

# 100,000-deep nesting, flow and block.
mkdir deep
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "["; print "a: " s }' > deep/compose.yaml
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "- "; print s "x" }' > deep/compose.yml
one_case deep 1 "YAML nesting deeper than 10000 levels (the nesting limit, as in Docker Compose); not checked"

# Docker Compose accepts 10,000 levels of nesting: a file 9,999 deep is
# checked, one 10,001 deep refused at the position of the 10,001st level -
# on a 1 MiB stack, where any recursion over the tree would crash (the
# sanitizer build makes frames bigger still).
mkdir nest
deep_file() {   # deep_file LEVELS: a service whose x- value nests LEVELS deep
    awk -v n="$1" 'BEGIN { s = ""; for (i = 0; i < n - 3; i++) s = s "[";
        t = ""; for (i = 0; i < n - 3; i++) t = t "]";
        printf "services:\n  web:\n    privileged: true\n    x-deep: %sx%s\n", s, t }'
}
deep_file 9999 > nest/compose.yaml
deep_file 10001 > nest/compose.yml
awk 'BEGIN { s = ""; for (i = 0; i < 9997; i++) s = s "- ";
    printf "services:\n  web:\n    privileged: true\n    x-deep:\n      %sx\n", s }' \
    > nest/compose.override.yml
set +e
(ulimit -s 1024 2>/dev/null; exec timeout 120 ${SANDLINT_WRAPPER:-} "$SANDLINT" --jobs 1 nest) \
    >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "nest: exit 1" || { fail "nest: exit $status"; tail -3 "$err" >&2; }
contains "$out" "nest/compose.yaml:3:5: error: privileged" "a file nested 9,999 deep is checked"
contains "$out" "nest/compose.override.yml:3:5: error: privileged" "block nesting 9,999 deep is checked"
contains "$out" "nest/compose.yml:4:10010: error: YAML nesting deeper than 10000 levels" \
    "a file nested 10,001 deep is refused where the limit is crossed"
set +e
(ulimit -s 1024 2>/dev/null; exec ${SANDLINT_WRAPPER:-} "$SANDLINT" --jobs 1 --no-isolation nest) \
    >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "nest in one process: exit 1" || fail "nest in one process: exit $status"
contains "$out" "nest/compose.yaml:3:5: error: privileged" "9,999 deep checked in one process"

# Thousands of nodes deep inside flow collections: libyaml's time grows with
# depth x nodes, so its own budget refuses them, quickly.
mkdir flowwork
awk 'BEGIN { s = ""; for (i = 0; i < 9000; i++) s = s "["; printf "a: %s", s;
    for (i = 0; i < 200000; i++) printf "x, "; s = ""; for (i = 0; i < 9000; i++) s = s "]";
    print "x" s }' > flowwork/compose.yaml
one_case flowwork 1 "nested 9000 deep hold too many nodes to parse in bounded time (the parse budget, 20 x --max-nodes); not checked"

# A 50 MB file (over the default limit with a small one, and read fully
# with the default), and a 10 MB scalar.
mkdir big
awk 'BEGIN { print "services:"; for (i = 0; i < 700000; i++) printf "  s%d:\n    image: img%d\n", i, i }' > big/compose.yaml
size=$(wc -c < big/compose.yaml)
[ "$size" -gt 20000000 ] && pass "big file is $size bytes" || fail "big file only $size bytes"
one_case big 1 "docker-compose.yml:3:5"
set +e
"$SANDLINT" --jobs 1 --max-file-size 1M big >"$out" 2>"$err"
set -e
contains "$out" "big/compose.yaml: error: file is larger than the size limit of 1048576 bytes (--max-file-size); not checked [SL001]" "size limit warning"
set +e
"$SANDLINT" --jobs 1 --max-nodes 1000 big >"$out" 2>"$err"
set -e
contains "$out" "has more than 1000 YAML nodes (the node limit, --max-nodes); not checked" "node limit warning"
mkdir scalar
{ printf 'services:\n  web:\n    image: "'; head -c 10485760 /dev/zero | tr '\0' a; printf '"\n    cap_add: [SYS_ADMIN]\n'; } > scalar/compose.yaml
one_case scalar 1 "scalar/compose.yaml:4:15: error: cap_add grants"

# NUL bytes, invalid UTF-8, BOM, CRLF.
mkdir bytes
printf 'services:\n  web:\n\000  x: 1\n' > bytes/compose.yaml
printf 'services:\n  \377web:\n' > bytes/compose.yml
one_case bytes 1 "bytes/compose.yaml:3:1: error: file contains a NUL byte; not checked [SL001]"
contains "$out" "bytes/compose.yml:2:3: error: file is not valid UTF-8; not checked [SL001]" "invalid UTF-8 with position"
mkdir bom
printf '\357\273\277services:\r\n  web:\r\n    image: x\r\n    privileged: true\r\n' > bom/compose.yaml
one_case bom 1 "bom/compose.yaml:4:5: error: privileged"

# A FIFO, a symlink loop, a symlink to /dev/zero.
mkdir special
mkfifo special/compose.yaml
ln -s compose.yml.loop special/compose.yml
ln -s compose.yml special/compose.yml.loop
ln -s /dev/zero special/compose-zero.yml
one_case special 1 "special/compose.yaml: error: a FIFO, not a regular file; not read [SL001]"
contains "$out" "special/compose.yml: error: cannot open file: Too many levels of symbolic links [SL001]" "symlink loop"
contains "$out" "special/compose-zero.yml: error: symbolic link to '/dev/zero' leaves the scanned tree; not read [SL001]" "symlink to /dev/zero"

# A file deleted between discovery and reading (a test plugin deletes the
# second file while the first is checked).
mkdir vanish
printf 'services:\n  delete_next:\n    image: x\n' > vanish/compose.yaml
printf "$priv" > vanish/compose.yml
printf "$priv" > vanish/docker-compose.yml
set +e
SANDLINT_TEST_UNLINK="$scratch/vanish/compose.yml" "$SANDLINT" --jobs 1 --confine=off \
    --plugin "$TEST_PLUGIN_DIR/unlinker.so" vanish >"$out" 2>"$err"
status=$?
set -e
[ ! -e vanish/compose.yml ] && pass "the file was deleted after discovery" || fail "the test plugin did not delete the file"
contains "$out" "vanish/compose.yml: error: cannot open file: No such file or directory [SL001]" "vanished file warned"
contains "$out" "vanish/docker-compose.yml:3:5: error: privileged" "vanish: the other file is still checked"
[ "$status" -eq 1 ] && pass "vanish: exit 1" || fail "vanish: exit $status"

# A file swapped for a symbolic link after discovery (the test plugin does
# it while the first file is checked) is refused, not followed: the link's
# target would add a finding.
mkdir swap
printf 'services:\n  delete_next:\n    image: x\n' > swap/compose.yaml
printf 'services:\n  web:\n    image: x\n' > swap/compose.yml
printf "$priv" > swap/docker-compose.yml
printf 'services:\n  planted:\n    privileged: true\n' > planted.yaml
set +e
SANDLINT_TEST_UNLINK="$scratch/swap/compose.yml" SANDLINT_TEST_LINK_TO="$scratch/planted.yaml" \
    "$SANDLINT" --jobs 1 --confine=off --plugin "$TEST_PLUGIN_DIR/unlinker.so" swap >"$out" 2>"$err"
status=$?
set -e
[ -L swap/compose.yml ] && pass "the file was swapped for a link after discovery" \
    || fail "the test plugin did not swap the file"
contains "$out" "swap/compose.yml: error: cannot open file: it is a symbolic link now (not followed) [SL001]" \
    "swapped file refused"
lacks "$out" "planted" "the link's target was not read"
contains "$out" "swap/docker-compose.yml:3:5: error: privileged" "swap: the other file is still checked"
[ "$status" -eq 1 ] && pass "swap: exit 1" || fail "swap: exit $status"

# Findings that multiply: V volumes under one anchor merged into S
# services give V x S findings (a 46 KB file made 1.1 GB in 0.1 and lost
# every finding).  At most 10,000 per file, then one error; the same report
# with and without workers.
mkdir multiply
python3 - <<'PY' > multiply/compose.yaml
volumes = "\n".join("    - /host/path%d:/c%d" % (i, i) for i in range(400))
print("x-mounts: &mounts\n  volumes:\n" + volumes)
print("services:")
for s in range(400):
    print("  s%d:\n    <<: *mounts" % s)
PY
printf "$priv" > multiply/docker-compose.yml
[ "$(wc -c < multiply/compose.yaml)" -lt 60000 ] && pass "the multiplying file is small" \
    || fail "multiplying file: $(wc -c < multiply/compose.yaml) bytes"
for how in "--jobs 1" "--jobs 3" "--no-isolation"; do
    set +e
    # shellcheck disable=SC2086
    timeout 300 ${SANDLINT_WRAPPER:-} "$SANDLINT" $how --format json multiply >"multiply $how.json" 2>"$err"
    status=$?
    set -e
    [ "$status" -eq 1 ] && pass "multiply $how: exit 1" || fail "multiply $how: exit $status"
done
cmp -s "multiply --jobs 1.json" "multiply --jobs 3.json" && cmp -s "multiply --jobs 1.json" "multiply --no-isolation.json" \
    && pass "multiply: the same report with and without workers" || fail "multiply: reports differ"
python3 - "multiply --jobs 1.json" <<'PY' && pass "multiply: 10,000 findings, then one error; the other file checked" || fail "multiply: findings"
import json, sys
findings = json.load(open(sys.argv[1]))["findings"]
big = [f for f in findings if f["file"] == "multiply/compose.yaml"]
assert len(big) == 10001, len(big)
last = [f for f in big if f["rule"] == "SL002"]
assert len(last) == 1 and last[0]["severity"] == "error", last
assert "the rest were not reported" in last[0]["message"]
assert any(f["file"] == "multiply/docker-compose.yml" for f in findings)
PY

# Inputs the fuzzers once crashed on: each must now be an ordinary run.
regressions="$srcdir_tests/fuzz-regressions"
for input in "$regressions"/compose/*; do
    [ -f "$input" ] || continue
    mkdir -p replay
    cp "$input" replay/compose.yaml
    set +e
    timeout 60 ${SANDLINT_WRAPPER:-} "$SANDLINT" --jobs 1 replay >"$out" 2>"$err"
    status=$?
    set -e
    [ "$status" -le 1 ] && pass "fuzz regression $(basename "$input")" || fail "fuzz regression $(basename "$input"): exit $status"
done
for input in "$regressions"/toml/*; do
    [ -f "$input" ] || continue
    set +e
    timeout 60 ${SANDLINT_WRAPPER:-} "$abs_top_builddir/tests/toml_decode" "$input" >"$out" 2>"$err"
    status=$?
    set -e
    [ "$status" -le 1 ] && pass "toml regression $(basename "$input")" || fail "toml regression $(basename "$input"): exit $status"
done
# An agent-env additionalResources string is parsed as YAML (SPEC §13): a
# string nested 100,000 deep and an alias bomb inside one end in bounded
# time, as a finding at the string.
mkdir -p strings
python3 - >strings/values.yaml <<'PY' 2>/dev/null || awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "["; t = ""; for (i = 0; i < 100000; i++) t = t "]"; printf "allowDomains: [x]\nadditionalResources:\n  - \"%s%s\"\n", s, t }' >strings/values.yaml
print('allowDomains: [x]\nadditionalResources:\n  - "' + '[' * 100000 + ']' * 100000 + '"')
PY
printf '  - |\n    a: &a [x, x, x, x, x, x, x, x, x]\n    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n    d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n' >>strings/values.yaml
set +e
timeout 60 ${SANDLINT_WRAPPER:-} "$SANDLINT" --jobs 1 strings >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && grep -q 'values.yaml:3:.*nesting deeper than 10000 levels' "$out" \
    && pass "a deeply nested additionalResources string is an error at the string, in bounded time" \
    || fail "nested additionalResources string: exit $status"
grep -q 'values.yaml:5:5: warning: additionalResources item holds a document that is not a Kubernetes object' "$out" \
    && pass "an alias bomb in a string is read once, linear" || fail "alias bomb in a string: $(head -3 "$out")"
for input in "$regressions"/ini/*; do
    [ -f "$input" ] || continue
    set +e
    timeout 60 ${SANDLINT_WRAPPER:-} "$SANDLINT" --config "$input" bom >"$out" 2>"$err"
    status=$?
    set -e
    [ "$status" -le 2 ] && [ "$status" -ge 0 ] && ! grep -q 'Sanitizer\|ERROR SUMMARY: [1-9]' "$err" \
        && pass "ini regression $(basename "$input")" || fail "ini regression $(basename "$input"): exit $status"
done
finish
