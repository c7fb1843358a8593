# tests/lib.sh - shared helpers for the shell tests (sourced, POSIX sh).
# Environment from Makefile.am: SANDLINT, abs_top_srcdir, abs_top_builddir,
# TEST_PLUGIN_DIR, SHARED_DIR.  SANDLINT_WRAPPER (e.g. valgrind) prefixes
# every sandlint run when set.
set -eu
LC_ALL=C
export LC_ALL
unset NO_COLOR FORCE_COLOR SANDLINT_PLUGIN_PATH || true

: "${SANDLINT:?SANDLINT must name the sandlint binary}"
: "${abs_top_srcdir:?}"
srcdir_tests="$abs_top_srcdir/tests"

failures=0
test_name=${0##*/}

fail() {
    printf '%s: FAIL: %s\n' "$test_name" "$*" >&2
    failures=$((failures + 1))
}

pass() {
    printf '%s: ok: %s\n' "$test_name" "$*"
}

# sl ARGS... : runs sandlint (through SANDLINT_WRAPPER when set).
sl() {
    # shellcheck disable=SC2086
    ${SANDLINT_WRAPPER:-} "$SANDLINT" "$@"
}

# expect_status WANT DESCRIPTION -- ARGS... : runs sandlint, checks the exit
# status; stdout goes to $out, stderr to $err.
expect_status() {
    want=$1
    what=$2
    shift 3
    set +e
    sl "$@" >"$out" 2>"$err"
    got=$?
    set -e
    if [ "$got" -ne "$want" ]; then
        fail "$what: exit status $got, expected $want"
        sed 's/^/    stderr: /' "$err" >&2
        return 1
    fi
    return 0
}

# contains FILE TEXT DESCRIPTION : FILE holds TEXT (fixed string).
contains() {
    if grep -qF -- "$2" "$1"; then
        pass "$3"
    else
        fail "$3: '$2' not in $(basename "$1")"
        sed 's/^/    | /' "$1" | head -20 >&2
    fi
}

lacks() {
    if grep -qF -- "$2" "$1"; then
        fail "$3: '$2' unexpectedly in $(basename "$1")"
    else
        pass "$3"
    fi
}

make_scratch() {
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/sandlint-test.XXXXXX")
    out="$scratch/stdout"
    err="$scratch/stderr"
    trap 'chmod -R u+rwx "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
}

finish() {
    if [ "$failures" -ne 0 ]; then
        printf '%s: %d failure(s)\n' "$test_name" "$failures" >&2
        exit 1
    fi
    exit 0
}

# json_valid FILE : FILE is one valid JSON document.
json_valid() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"
    elif command -v jq >/dev/null 2>&1; then
        jq -e . "$1" >/dev/null
    else
        return 0
    fi
}
