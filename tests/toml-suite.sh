#!/bin/sh
# toml-suite.sh - run the toml-test 1.0 cases against toml_decode.
#
# Usage: toml-suite.sh [DECODER [TOML_TEST_ROOT]]
#
# Environment (all optional):
#   TOML_DECODE          the decoder; else $abs_top_builddir/tests/toml_decode,
#                        else ./tests/toml_decode (automake runs the tests from
#                        the top build directory)
#   TOML_TEST_DIR        a toml-test checkout; else the copy in the source
#                        tree, $abs_top_srcdir/tests/data/toml-test (else
#                        this script's directory/data/toml-test)
#   TOML_DECODE_WRAPPER  command prefixed to every decoder run, e.g.
#                        "valgrind -q --error-exitcode=3 --leak-check=full"
#   PYTHON               python3 interpreter for the JSON comparison
# Command-line arguments override TOML_DECODE and TOML_TEST_DIR.  The cases
# ship with the sources (tests/data/toml-test), so a missing list is a
# harness error (exit 99), not a skip; only a missing python3 skips (77).
#
# Every valid/*.toml listed in tests/files-toml-1.0.0 must decode (exit 0,
# nothing on stderr) to JSON equal to the listed .json file.  The comparison
# is semantic, as toml-test's own: JSON structure and key order-insensitive,
# floats by numeric value ("nan", "inf", "+inf", "-inf" as such), date/times
# by value (separator case, 'z'/'Z', trailing zeros of fractional seconds).
# Every invalid/*.toml must be rejected with exit status 1 and exactly one
# line "FILE:LINE:COL: message" on stderr.
#
# Prints "toml-test 1.0: valid N/N, invalid M/M" and the failing files;
# exits 0 when everything passes, 1 otherwise, 99 on a harness error.
set -eu
LC_ALL=C
export LC_ALL

if [ -n "${abs_top_builddir:-}" ]; then
	default_decoder=$abs_top_builddir/tests/toml_decode
else
	default_decoder=./tests/toml_decode
fi
default_root=${abs_top_srcdir:-$(dirname "$0")/..}/tests/data/toml-test
decoder=${1:-${TOML_DECODE:-$default_decoder}}
root=${2:-${TOML_TEST_DIR:-$default_root}}
wrapper=${TOML_DECODE_WRAPPER:-}
list=$root/tests/files-toml-1.0.0

if [ ! -f "$list" ]; then
	echo "toml-suite: $list not found (the sources ship tests/data/toml-test)" >&2
	exit 99
fi
if [ ! -x "$decoder" ]; then
	echo "toml-suite: decoder '$decoder' is not executable (set TOML_DECODE)" >&2
	exit 99
fi
python=${PYTHON:-/usr/bin/python3}
if [ ! -x "$python" ]; then
	python=$(command -v python3 || true)
fi
if [ -z "$python" ]; then
	echo "toml-suite: python3 is needed to compare JSON; skipping"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/toml-suite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

valid_total=0
invalid_total=0
invalid_pass=0
: >"$tmp/manifest"
: >"$tmp/failures"

while IFS= read -r f; do
	case $f in
	valid/*.toml)
		valid_total=$((valid_total + 1))
		out=$tmp/v$valid_total.json
		rc=0
		# shellcheck disable=SC2086
		$wrapper "$decoder" "$root/tests/$f" >"$out" 2>"$tmp/err" || rc=$?
		if [ "$rc" -ne 0 ]; then
			printf 'FAIL %s: rejected (exit %s): %s\n' "$f" "$rc" \
			    "$(head -n 3 "$tmp/err")" >>"$tmp/failures"
		elif [ -s "$tmp/err" ]; then
			printf 'FAIL %s: unexpected stderr: %s\n' "$f" \
			    "$(head -n 3 "$tmp/err")" >>"$tmp/failures"
		else
			printf '%s\t%s\t%s\n' "$f" "$root/tests/${f%.toml}.json" "$out" \
			    >>"$tmp/manifest"
		fi
		;;
	invalid/*.toml)
		invalid_total=$((invalid_total + 1))
		path=$root/tests/$f
		rc=0
		# shellcheck disable=SC2086
		$wrapper "$decoder" "$path" >/dev/null 2>"$tmp/err" || rc=$?
		lines=$(wc -l <"$tmp/err")
		if [ "$rc" -eq 0 ]; then
			printf 'FAIL %s: accepted\n' "$f" >>"$tmp/failures"
		elif [ "$rc" -ne 1 ]; then
			printf 'FAIL %s: exit status %s: %s\n' "$f" "$rc" \
			    "$(head -n 3 "$tmp/err")" >>"$tmp/failures"
		elif [ "$lines" -ne 1 ] ||
		    ! grep -q "^$(printf '%s' "$path" | sed 's/[].[^$*\\/]/\\&/g'):[1-9][0-9]*:[1-9][0-9]*: ." "$tmp/err"; then
			printf 'FAIL %s: bad error message: %s\n' "$f" \
			    "$(head -n 3 "$tmp/err")" >>"$tmp/failures"
		else
			invalid_pass=$((invalid_pass + 1))
		fi
		;;
	esac
done <"$list"

# Compare every successfully decoded valid case in one interpreter run;
# prints the number of matches and appends failures.
valid_pass=$("$python" - "$tmp/manifest" 2>>"$tmp/failures" <<'EOF'
import json, math, re, sys

DATETIMES = {"datetime", "datetime-local", "date-local", "time-local"}

def num(s):
    t = s.strip().lower()
    if t in ("nan", "+nan", "-nan"):
        return "nan"
    if t in ("inf", "+inf"):
        return math.inf
    if t == "-inf":
        return -math.inf
    return float(t)

def dt(s):
    s = s.upper().replace(" ", "T")
    m = re.match(r"^(.*\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$", s)
    if m:
        frac = (m.group(2) or "").rstrip("0")
        off = m.group(3)
        if off in ("+00:00", "-00:00"):
            off = "Z"
        s = m.group(1) + ("." + frac if frac else "") + off
    return s

def tagged(x):
    return (isinstance(x, dict) and set(x) == {"type", "value"}
            and isinstance(x["type"], str) and isinstance(x["value"], str))

def same(a, b):
    if tagged(a) or tagged(b):
        if not (tagged(a) and tagged(b)) or a["type"] != b["type"]:
            return False
        if a["type"] == "float":
            x, y = num(a["value"]), num(b["value"])
            if x == "nan" or y == "nan":
                return x == y
            return x == y and math.copysign(1, x) == math.copysign(1, y)
        if a["type"] in DATETIMES:
            return dt(a["value"]) == dt(b["value"])
        return a["value"] == b["value"]
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a) == set(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return False

ok = 0
with open(sys.argv[1]) as manifest:
    for line in manifest:
        name, want_path, got_path = line.rstrip("\n").split("\t")
        try:
            with open(want_path, encoding="utf-8") as f:
                want = json.load(f)
            with open(got_path, encoding="utf-8") as f:
                got = json.load(f)
        except (OSError, ValueError) as e:
            print("FAIL %s: %s" % (name, e), file=sys.stderr)
            continue
        if same(want, got):
            ok += 1
        else:
            print("FAIL %s: output differs\n  want: %s\n  got:  %s"
                  % (name, json.dumps(want, sort_keys=True)[:400],
                     json.dumps(got, sort_keys=True)[:400]), file=sys.stderr)
print(ok)
EOF
) || { echo "toml-suite: comparison script failed" >&2; cat "$tmp/failures" >&2; exit 99; }

echo "toml-test 1.0: valid $valid_pass/$valid_total, invalid $invalid_pass/$invalid_total"
if [ -s "$tmp/failures" ]; then
	cat "$tmp/failures"
	exit 1
fi
if [ "$valid_pass" -ne "$valid_total" ] || [ "$invalid_pass" -ne "$invalid_total" ] ||
    [ "$valid_total" -eq 0 ]; then
	echo "toml-suite: counts do not add up" >&2
	exit 1
fi
exit 0
