#!/bin/sh
# Which files are read, in which order, and how hostile files end (SPEC §4).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
priv='services:\n  s:\n    privileged: true\n'

mkdir -p tree/a/b/c tree/.git tree/z tree/outside_target
for f in compose.yaml compose.yml compose.override.yml docker-compose.yml \
         docker-compose.prod.yaml compose-dev.yml a/b/c/compose.yaml \
         z/docker-compose.yml; do
    printf "$priv" > "tree/$f"
done
for f in my-compose.yml compose.yaml.bak Compose.yaml compose.json a/notes.yml \
         .git/compose.yaml; do
    printf "$priv" > "tree/$f"
done
mkdir -p elsewhere
printf "$priv" > elsewhere/compose.yaml
ln -s ../elsewhere tree/linked_dir                 # symlinked directory: not entered
ln -s a/b tree/inner_link                          # even inside the tree
ln -s ../../elsewhere/compose.yaml tree/z/compose.yml   # file link leaving the tree
ln -s compose.yaml tree/a/compose.yml              # file link inside the tree: read
ln -s loop.yml tree/a/compose-loop.yml
ln -s compose-loop.yml tree/a/loop.yml             # a symlink loop
mkfifo tree/a/b/compose.yaml 2>/dev/null || mkfifo tree/a/b/docker-compose.yaml
ln -s /dev/zero tree/a/b/c/compose.yml             # a symlink to a device

expect_status 1 "tree" -- --format json tree
json_valid "$out" && pass "valid JSON" || fail "invalid JSON"
files=$(grep -o '"file": "[^"]*"' "$out" | uniq | sed 's/"file": //; s/"//g' | tr '\n' ' ')
# tree/a/loop.yml: any YAML file is searched for Kubernetes objects (SPEC
# §15), and one that cannot be read is a warning; my-compose.yml is named
# like a Compose file since 0.3 (*-compose.yml).
want="tree/a/b/c/compose.yaml tree/a/b/c/compose.yml tree/a/b/compose.yaml tree/a/compose-loop.yml tree/a/compose.yml tree/a/loop.yml tree/compose-dev.yml tree/compose.override.yml tree/compose.yaml tree/compose.yml tree/docker-compose.prod.yaml tree/docker-compose.yml tree/my-compose.yml tree/z/compose.yml tree/z/docker-compose.yml "
[ "$files" = "$want" ] && pass "exactly the Compose files, sorted" || fail "files: got '$files' want '$want'"
contains "$out" '"file": "tree/my-compose.yml", "line": 3' "my-compose.yml is read"
lacks "$out" "notes.yml" "a YAML file with no object in it is not"
grep '"file": "tree/a/loop.yml"' "$out" > loop_line || true
contains loop_line '"severity": "warning"' "a YAML file found only by content that cannot be read warns"
lacks "$out" ".git/" ".git is skipped"
lacks "$out" "linked_dir" "symlinked directory not entered"
lacks "$out" "inner_link" "symlinked directory inside the tree not entered"
contains "$out" '"summary": {"files": 15,' "15 files counted (notes.yml is not: no object)"
contains "$out" "symbolic link to '$scratch/elsewhere/compose.yaml' leaves the scanned tree; not read" "escaping file link warned"
contains "$out" "Too many levels of symbolic links" "symlink loop warned"
contains "$out" "a FIFO, not a regular file; not read" "FIFO warned, not read"
contains "$out" "leaves the scanned tree" "link to /dev/zero not followed"

# Found by content: a manifest after a UTF-8 byte order mark, and one
# written as an indented top-level mapping, are read; a YAML file with
# apiVersion nested under a key is not an object file.
mkdir -p sniff
printf '\357\273\277apiVersion: v1\nkind: Pod\nmetadata: {name: bom}\nspec:\n  hostPID: true\n  containers: [{name: c, image: x}]\n' > sniff/bom.yaml
printf '  apiVersion: v1\n  kind: Pod\n  metadata: {name: indented}\n  spec:\n    hostNetwork: true\n    containers: [{name: c, image: x}]\n' > sniff/indented.yaml
printf 'patch:\n  apiVersion: v1\n  kind: Pod\n' > sniff/nested.yaml
expect_status 1 "sniff" -- --format json --select SBX002 sniff
contains "$out" '"file": "sniff/bom.yaml", "line": 5' "a manifest after a byte order mark is read"
contains "$out" '"file": "sniff/indented.yaml", "line": 5' "an indented top-level manifest is read"
contains "$out" '"summary": {"files": 2,' "a file with apiVersion nested under a key is not"

# The order is component by component: a directory's files stay together
# ("x/b/compose.yml" before "x/b.c/compose.yml" before "x/bc/compose.yml"),
# whatever order the directories list them in.
mkdir -p order/b order/b.c order/bc order/b-c
for d in bc b.c b-c b; do printf "$priv" > "order/$d/compose.yml"; done
printf "$priv" > order/compose.yml
expect_status 1 "order" -- --format json order
files=$(grep -o '"file": "[^"]*"' "$out" | uniq | sed 's/"file": //; s/"//g' | tr '\n' ' ')
[ "$files" = "order/b/compose.yml order/b-c/compose.yml order/b.c/compose.yml order/bc/compose.yml order/compose.yml " ] \
    && pass "files in component order" || fail "order: $files"
expect_status 1 "order with overlapping operands" -- --format json order/b.c order order/b
files2=$(grep -o '"file": "[^"]*"' "$out" | uniq | sed 's/"file": //; s/"//g' | tr '\n' ' ')
[ "$files2" = "$files" ] && pass "overlapping operands: same files, once, same order" || fail "overlap: $files2"

# A file operand is checked whatever its name, and devices never block.
printf "$priv" > any-name.txt
expect_status 1 "explicit file" -- any-name.txt && contains "$out" "any-name.txt:3:5: error" "file operand read"
expect_status 1 "device operand fails the run" -- /dev/zero && contains "$out" "error: a character device, not a regular file" "device operand is an error"
expect_status 1 "fifo operand fails the run" -- tree/a/b/compose.yaml && contains "$out" "error: a FIFO" "FIFO operand is an error, without blocking"

# A symbolic link the user names as an operand is followed, to a directory
# as to a file; links inside the tree keep the rules above.
ln -s tree linked_operand
expect_status 1 "symlinked directory operand" -- --format json linked_operand || true
contains "$out" '"file": "linked_operand/a/b/c/compose.yaml"' "symlinked directory operand searched"
contains "$out" '"summary": {"files": 15,' "the same 15 files through the link"
lacks "$out" "linked_operand/linked_dir" "links inside a linked operand still not entered"
contains "$out" "symbolic link to '$scratch/elsewhere/compose.yaml' leaves the scanned tree" \
    "a link out of a linked operand's tree still not read"
ln -s tree/compose.yaml linked_file.yml
expect_status 1 "symlinked file operand" -- linked_file.yml || true
contains "$out" "linked_file.yml:3:5: error: privileged" "symlinked file operand read"

# A device node named like a Compose file is reported, never opened: this
# one (/dev/tty's numbers) fails to open without a controlling terminal,
# so a run that opened it would say "No such device or address".
if [ "$(id -u)" = 0 ] && mkdir devtree && mknod devtree/compose.yaml c 5 0 2>/dev/null; then
    printf "$priv" > devtree/compose.yml
    set +e
    setsid ${SANDLINT_WRAPPER:-} "$SANDLINT" devtree >"$out" 2>"$err" </dev/null
    status=$?
    set -e
    [ "$status" -eq 1 ] && pass "device tree: exit 1" || fail "device tree: exit $status"
    contains "$out" "devtree/compose.yaml: error: a character device, not a regular file; not read" \
        "device named compose.yaml not opened"
    contains "$out" "devtree/compose.yml:3:5: error" "device tree: the other file still checked"
    set +e
    setsid ${SANDLINT_WRAPPER:-} "$SANDLINT" devtree/compose.yaml >"$out" 2>"$err" </dev/null
    set -e
    contains "$out" "a character device, not a regular file; not read" "device operand not opened"
else
    echo "discovery.sh: skip: device node named compose.yaml (mknod needs root)"
fi

# Paths longer than PATH_MAX (4096) are searched and read: nothing is
# opened by its whole path.
long=$(printf 'd%.0s' $(seq 1 200))
(
    mkdir longtree && cd longtree
    # (cd -P: a logical cd would build the long path, which dash refuses)
    for i in $(seq 1 25); do mkdir "$long" && cd -P "$long"; done
    printf "$priv" > compose.yaml
)
for options in "--jobs 1" "--no-isolation"; do
    # shellcheck disable=SC2086
    expect_status 1 "path beyond PATH_MAX ($options)" -- --format json $options longtree || true
    file=$(grep -o '"file": "[^"]*"' "$out" | head -1)
    [ "${#file}" -gt 5000 ] && pass "a ${#file}-byte path reported ($options)" \
        || fail "long path not reported ($options): $(head -c 300 "$out")"
    contains "$out" '"key": "s:privileged"' "the deep file was read ($options)"
done

# A plugin that changes the current directory changes nothing: every file
# is still found and read (relative operands included), in workers and in
# one process.
mkdir -p wander/a wander/b wander/c/d
for f in a/compose.yaml b/compose.yaml c/d/compose.yaml compose.yaml; do
    printf "$priv" > "wander/$f"
done
for options in "--jobs 1" "--jobs 2" "--no-isolation"; do
    # shellcheck disable=SC2086
    expect_status 1 "chdir plugin ($options)" -- --format json $options \
        --plugin "$TEST_PLUGIN_DIR/chdirer.so" wander || true
    [ "$(grep -c '"key": "s:privileged"' "$out")" -eq 4 ] \
        && pass "every file checked despite chdir ($options)" \
        || fail "files lost after chdir ($options): $(grep -o '"message": "[^"]*"' "$out" | sort -u)"
    lacks "$out" "cannot" "no file unreadable after chdir ($options)"
done

# Packages never depend on the order of the operands or on where the
# repository is checked out.
mkdir -p pk/a/b
printf "$priv" > pk/a/compose.yaml
printf "$priv" > pk/a/b/compose.yaml
(cd pk && sl --format json a a/b) > order1.json 2>/dev/null || true
(cd pk && sl --format json a/b a) > order2.json 2>/dev/null || true
cmp -s order1.json order2.json && pass "same packages whatever the operand order" \
    || fail "operand order changed the report: $(diff order1.json order2.json | head -5)"
contains order1.json '"package": "*", "file": "a/b/compose.yaml"' "no packages setting: package '*'"
printf '[sandlint]\npackages = a/*\n' > pk/.sandlint.ini
(cd pk && sl --format json a a/b) > order1.json 2>/dev/null || true
(cd pk && sl --format json a/b a) > order2.json 2>/dev/null || true
cmp -s order1.json order2.json && pass "same configured packages whatever the operand order" \
    || fail "operand order changed configured packages"
contains order1.json '"package": "b", "file": "a/b/compose.yaml"' "configured package by basename"
contains order1.json '"package": "*", "file": "a/compose.yaml"' "outside every package directory: '*'"
cp -R pk elsewhere-checkout
for config in with without; do
    (cd pk && sl --format json .) > here.json 2>/dev/null || true
    (cd elsewhere-checkout && sl --format json .) > there.json 2>/dev/null || true
    cmp -s here.json there.json && pass "same report wherever the repository is checked out ($config packages)" \
        || fail "checkout location changed the report ($config packages): $(diff here.json there.json | head -5)"
    rm pk/.sandlint.ini elsewhere-checkout/.sandlint.ini
    printf '[sandlint]\n' > pk/.sandlint.ini
    printf '[sandlint]\n' > elsewhere-checkout/.sandlint.ini
done
rm pk/.sandlint.ini
(cd pk/a && sl --format json .) > here.json 2>/dev/null || true
contains here.json '"package": "*"' "a directory operand is no package of its own"

# Encoding problems: one warning with the position, other files still checked.
mkdir enc
printf 'services:\n  web:\n    image: "a\000b"\n' > enc/compose.yaml
printf 'services:\n  web:\n    image: caf\351\n' > enc/compose.yml
printf '\357\273\277services:\n  web:\n    privileged: true\n' > enc/docker-compose.yml
printf 'services:\r\n  web:\r\n    image: x\r\n    cap_add:\r\n      - SYS_ADMIN\r\n' > enc/docker-compose.yaml
expect_status 1 "encodings" -- enc
contains "$out" "enc/compose.yaml:3:14: error: file contains a NUL byte; not checked [SL001]" "NUL byte with position"
contains "$out" "enc/compose.yml:3:15: error: file is not valid UTF-8; not checked [SL001]" "invalid UTF-8 with position"
contains "$out" "enc/docker-compose.yml:3:5: error: privileged" "BOM file checked"
contains "$out" "enc/docker-compose.yaml:5:9: error: cap_add" "CRLF lines stay right"

# A YAML error is one warning; the next file is still checked.
mkdir yerr
printf 'services:\n  web: [\n' > yerr/compose.yaml
printf "$priv" > yerr/compose.yml
expect_status 1 "yaml error" -- yerr
contains "$out" "yerr/compose.yaml:3:1: error: YAML syntax error" "syntax error with position"
contains "$out" "yerr/compose.yml:3:5: error" "next file still checked"

# Unreadable files (root reads everything, so drop privileges when root).
mkdir unread
printf "$priv" > unread/compose.yaml
printf "$priv" > unread/compose.yml
chmod 000 unread/compose.yaml
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ]; then
    chmod 755 "$scratch" unread
    chmod 644 unread/compose.yml
    if ! command -v setpriv >/dev/null 2>&1; then
        echo "discovery.sh: skip: unreadable files (running as root, no setpriv)"
    elif ! nobody "$SANDLINT" --list-rules >/dev/null 2>&1; then
        # The build tree sits under a directory other users cannot enter
        # (mktemp -d makes them 0700).
        echo "discovery.sh: skip: unreadable files (user 65534 cannot run $SANDLINT with its plugins)"
    else
        set +e
        nobody "$SANDLINT" unread >"$out" 2>"$err"
        status=$?
        set -e
        [ "$status" -eq 1 ] && pass "unreadable: exit 1 for the readable file" || fail "unreadable: exit $status"
        contains "$out" "unread/compose.yaml: error: cannot open file: Permission denied [SL001]" "unreadable file warned"
        contains "$out" "unread/compose.yml:3:5: error" "other file still checked"
    fi
else
    expect_status 1 "unreadable" -- unread
    contains "$out" "cannot open file: Permission denied" "unreadable file warned"
fi
finish
