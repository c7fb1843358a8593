#!/bin/sh
# Bounded coordinator work (SPEC §14, issue 20): the configuration is read
# before the process confines itself, so its size, the parts of a TOML
# dotted key and the values and items it holds are bounded, each with an
# error at file:line:col; a hostile configuration takes bounded memory (run
# under an address-space limit it would have blown).  And --max-file-size N
# reads a file of N bytes and refuses N + 1.  (Matching cost is counted, not
# timed: tests/test_allowlist.c; times are bench/allowlist's.)
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"
asan=no
grep -q __asan_init "$SANDLINT" 2>/dev/null && asan=yes

mkdir repo
printf 'services:\n  web:\n    image: x\n' > repo/compose.yaml

# generate NAME PYTHON : writes repo/NAME from a Python expression.
generate() { python3 -c "open('repo/$1', 'w').write($2)"; }

# --- TOML: parts of a dotted key, values ------------------------------------------
generate pyproject.toml '"[tool.sandlint]\nselect = [\"SBX001\"]\n" + "x" + ".a" * 2000000 + " = 1\n"'
expect_status 2 "a dotted key of two million parts" -- --root repo repo
contains "$err" "pyproject.toml:3:257: a dotted key or table header of more than 128 parts" \
    "refused at the 129th part"
generate pyproject.toml '"[tool.sandlint" + ".a" * 200 + "]\n"'
expect_status 2 "a table header of 201 parts" -- --root repo repo
contains "$err" "pyproject.toml:1:268: a dotted key or table header of more than 128 parts" \
    "refused at the 129th part of the header"
generate pyproject.toml '"[tool.sandlint]\nx = [" + "1," * 2000000 + "]\n"'
expect_status 2 "two million array items" -- --root repo repo
contains "$err" "pyproject.toml:2:1999998: more than 1000000 values" "refused at the value over the limit"
rm repo/pyproject.toml

# --- INI: items ------------------------------------------------------------------------
generate .sandlint.ini '"[allowlist sandbox_privileges]\n" + "a = b\n" * 1000001'
expect_status 2 "a million and one entries" -- --root repo repo
contains "$err" ".sandlint.ini:1000001:5: more than 1000000 items" "refused at the item over the limit (the section is one)"
generate .sandlint.ini '"[sandlint]\nselect = SBX001\n" + "  SBX001\n" * 1000000'
expect_status 2 "a million continuation lines" -- --root repo repo
contains "$err" ".sandlint.ini:1000002:3: more than 1000000 items" "continuation lines count too"
rm repo/.sandlint.ini

# --- bounded memory -------------------------------------------------------------------
# 0.2 took 1.26 GB for the dotted key and 0.9 GB for 8 million array items;
# under 400 MB of address space both must end with their error, not with
# "out of memory".  (Not under AddressSanitizer, which needs a huge
# address space.)
# in_400mb WHAT MESSAGE : sandlint on repo/pyproject.toml under a 400 MB
# address space ends with exit 2 and MESSAGE.
in_400mb() {
    set +e
    (ulimit -v 400000 && "$SANDLINT" --root repo repo) >"$out" 2>"$err"
    status=$?
    set -e
    [ "$status" -eq 2 ] && grep -q "$2" "$err" && pass "$1 in 400 MB: its error" \
        || fail "$1 in 400 MB: exit $status: $(cat "$err")"
}
if [ "$asan" = no ]; then
    generate pyproject.toml '"[tool.sandlint]\n" + "x" + ".a" * 2000000 + " = 1\n"'
    in_400mb "the dotted key" "more than 128 parts"
    generate pyproject.toml '"[tool.sandlint]\nx = [" + "1," * 8000000 + "]\n"'
    in_400mb "eight million items" "more than 1000000 values"
    rm repo/pyproject.toml
else
    echo "limits.sh: SKIP (partly): the memory bounds under AddressSanitizer"
fi

# --- --max-file-size N: N bytes are read, N + 1 are not ----------------------------------
mkdir size
printf 'services:\n  web:\n    image: x\n' > size/compose.yaml
bytes=$(wc -c < size/compose.yaml)
expect_status 0 "a file of exactly --max-file-size bytes" -- --max-file-size "$bytes" size
lacks "$out" "SL001" "it is read"
expect_status 1 "a file one byte over" -- --max-file-size "$((bytes - 1))" size
contains "$out" "file is larger than the size limit of $((bytes - 1)) bytes (--max-file-size); not checked [SL001]" \
    "it is refused"
expect_status 0 "exactly --max-file-size bytes from standard input" -- --max-file-size "$bytes" - \
    < size/compose.yaml
expect_status 1 "one byte over from standard input" -- --max-file-size "$((bytes - 1))" - \
    < size/compose.yaml
contains "$out" "larger than the size limit" "standard input is held to it too"
finish
