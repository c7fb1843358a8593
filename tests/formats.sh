#!/bin/sh
# SARIF, GitHub and GitLab output (SPEC §9, §14): stable fingerprints,
# suppressions, severities, no path of the scanning machine, escaping, and
# no line a CI log reader would obey.  Validity against the schemas:
# tests/schemas.sh (and tests/corpus_schemas.sh for the corpus).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
golden="$srcdir_tests/golden"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

cd "$scratch"
mkdir repo
cat > repo/compose.yaml <<'YAML'
services:
  web:
    privileged: true
    cap_add:
      - SYS_ADMIN  # sandlint: ignore[SBX001] -- reviewed
      - NET_ADMIN
YAML
printf '[allowlist sandbox_privileges]\n* = web:cap_add:NET_ADMIN\n' > .sandlint.ini
sl --format sarif repo >first.sarif 2>/dev/null || true
# Insert lines above: the fingerprints must not change.
{ printf '# moved\n# down\n'; cat repo/compose.yaml; } > moved && mv moved repo/compose.yaml
sl --format sarif repo >second.sarif 2>/dev/null || true
fingerprints() { grep -o '"sandlintKey/v1": "[0-9a-f]*"' "$1"; }
if [ -n "$(fingerprints first.sarif)" ] && [ "$(fingerprints first.sarif)" = "$(fingerprints second.sarif)" ]; then
    pass "fingerprints survive line moves"
else
    fail "fingerprints changed when lines moved"
fi
contains second.sarif '"startLine": 5' "lines did move"
contains second.sarif '"kind": "inSource", "status": "accepted", "justification": "reviewed"' "comment suppression is inSource"
contains second.sarif '"kind": "external"' "allowlisted finding carries an external suppression"
contains second.sarif '"uri": "repo/compose.yaml", "uriBaseId": "%SRCROOT%"' "relative artifact URIs"

# Same-keyed findings at other positions are other findings (SPEC §17), and
# stay apart in code scanning: the second gets the occurrence index.
mkdir -p twice
printf 'services:\n  web:\n    image: x\n    cap_add: [SYS_ADMIN, SYS_ADMIN]\n    volumes: ["/etc:/a", "/etc:/b", "/etc:/c"]\n' \
    > twice/compose.yaml
sl --format sarif twice >twice.sarif 2>/dev/null || true
first=$(grep -o '"sandlintKey/v1": "[0-9a-f]*"' twice.sarif | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')
[ "$first" = "1 1 " ] && pass "each fingerprint once without its index" || fail "fingerprints without index: $first"
grep -o '"sandlintKey/v1": "[0-9a-f:]*"' twice.sarif | sed 's/.*"\([0-9a-f]*\)\(:[0-9]*\)\{0,1\}"$/\2/' | tr '\n' ' ' > indexes
contains indexes " :2  :2 :3 " "the 2nd and 3rd of a fingerprint carry :2 and :3"
all=$(grep -o '"sandlintKey/v1": "[0-9a-f:]*"' twice.sarif | sort -u | wc -l)
[ "$all" -eq 5 ] && pass "five findings, five distinct fingerprints" || fail "distinct fingerprints: $all"

# --- SARIF for GitHub code scanning: severities, no machine paths -------------
mkdir -p sev
cat > sev/compose.yaml <<'YAML'
services:
  web:
    privileged: true
    cap_add: [SYS_ADMIN, "${CAP}"]
    volumes: ["/var/run/docker.sock:/var/run/docker.sock"]
YAML
expect_status 1 "sarif severities" -- --format sarif sev
grep -q "$scratch" "$out" && fail "SARIF holds the scanning machine's path $scratch" \
    || pass "no absolute path of the scanning machine in SARIF"
"$python" - "$out" <<'PY' && pass "security-severity: critical for privileged mode and engine sockets, medium for warnings" || fail "SARIF security-severity"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
scores = {(r["ruleId"], " ".join(r["message"]["text"].split()[:2])):
          r["properties"]["security-severity"] for r in run["results"]}
rules = {r["id"]: r["properties"]["security-severity"] for r in run["tool"]["driver"]["rules"]}
assert scores[("SBX001", "privileged mode")] == "9.5", scores
assert scores[("SBX001", "cap_add grants")] == rules["SBX001"] == "8.0", scores
assert scores[("SBX006", "bind-mounts host")] == rules["SBX006"] == "9.8", scores
warning = [r for r in run["results"] if r["level"] == "warning"][0]
assert warning["properties"]["security-severity"] == "4.0", warning
# An error is level "error" (code scanning fails the check on it).
levels = {" ".join(r["message"]["text"].split()[:2]): r["level"] for r in run["results"]}
assert levels["privileged mode"] == "error", levels
assert levels["cap_add entry"] == "warning", levels
PY

# Nor through a relative path out of the root: a file operand outside it
# (reached through a relative link), a --config outside it (the
# pull-request recipe keeps the base branch's in $RUNNER_TEMP), its name in
# hints and justifications.
mkdir -p machine/checkout machine/temp/deeper
printf 'services:\n  web:\n    privileged: true\n' > machine/temp/deeper/compose.yaml
printf 'services:\n  web:\n    privileged: true\n    pid: host\n' > machine/checkout/compose.yaml
printf '[allowlist sandbox_privileges]\n./compose.yaml = web:privileged\n' > machine/temp/base.ini
ln -s ../temp machine/checkout/link
for format in sarif gitlab; do
    (cd machine/checkout && expect_status 1 "$format: outside the root" -- --format "$format" \
        --config ../temp/base.ini --root . . link/deeper ../temp/deeper) || true
    lacks "$out" "$scratch" "$format: no absolute path of the machine"
    lacks "$out" '"uri": "../' "$format: no URI out of the root"
    lacks "$out" '"path": "../' "$format: no path out of the root"
    lacks "$out" "in ../temp/base.ini" "$format: no hint names a path out of the root"
done
(cd machine/checkout && expect_status 1 "allowlisted" -- --format gitlab --show-accepted \
    --config ../temp/base.ini --root . .) || true
contains "$out" "in base.ini:2:" "gitlab: the configuration is named by its name"
contains "$out" '"path": "compose.yaml"' "gitlab: a file outside the root by its name"
(cd machine/checkout && sl --format sarif --config ../temp/base.ini --root . . ../temp/deeper) \
    > machine.sarif 2>/dev/null || true
contains machine.sarif '"uri": "compose.yaml", "uriBaseId": "OUTSIDE_SRCROOT"' \
    "sarif: a file outside the root is relative to a base of its own"

# --- GitLab Code Quality ------------------------------------------------------
expect_status 1 "gitlab" -- --format gitlab sev repo
"$python" - "$out" <<'PY' && pass "gitlab: unique fingerprints, severities, accepted findings left out" || fail "gitlab issues"
import json, sys
issues = json.load(open(sys.argv[1]))
fingerprints = [i["fingerprint"] for i in issues]
assert len(set(fingerprints)) == len(fingerprints), fingerprints
by = {(i["check_name"], " ".join(i["description"].split()[:2])): i for i in issues}
assert by[("SBX001", "privileged mode")]["severity"] == "critical"
assert by[("SBX001", "cap_add grants")]["severity"] == "major"
assert [i for i in issues if i["severity"] == "minor"], "a warning is minor"
assert not [i for i in issues if i["description"].startswith("Allowlisted")], "accepted shown"
assert all(i["location"]["lines"]["begin"] >= 1 for i in issues)
PY
cp "$out" gitlab-first.json
expect_status 1 "gitlab --show-accepted" -- --format gitlab --show-accepted sev repo
grep -q '"severity": "info"' "$out" && pass "gitlab --show-accepted: accepted findings are info" \
    || fail "gitlab --show-accepted: no info issue"
printf '\n\n' | cat - sev/compose.yaml > sev/moved.yaml && mv sev/moved.yaml sev/compose.yaml
expect_status 1 "gitlab after lines moved" -- --format gitlab sev repo
"$python" -c 'import json, sys; a, b = (sorted(i["fingerprint"] for i in json.load(open(p))) for p in sys.argv[1:]); sys.exit(a != b)' \
    gitlab-first.json "$out" && pass "gitlab fingerprints survive moved lines" \
    || fail "gitlab fingerprints changed when lines moved"

# --- GitHub workflow commands -----------------------------------------------
# (The allowlist above is for every package: not for this run.)
rm .sandlint.ini
mkdir 'we,ird:dir'
cat > 'we,ird:dir/compose.yaml' <<'YAML'
services:
  web:
    cap_add: ["100%", "line\nbreak", "car\rriage"]
    privileged: true  # sandlint: ignore[SBX001] -- not shown
YAML
expect_status 1 "github" -- --format github 'we,ird:dir'
contains "$out" "::error file=we%2Cird%3Adir/compose.yaml,line=3,col=15,endLine=3,endColumn=21,title=SBX001 privileges::cap_add grants the Linux capability '100%25' [SBX001]%0A" "file property and % escaped"
contains "$out" "capability 'line\\x0abreak'" "newline in a value shown, not obeyed"
contains "$out" "capability 'car\\x0driage'" "carriage return shown, not obeyed"
lacks "$out" "privileged mode" "suppressed findings are not annotated"
[ "$(wc -l < "$out")" -eq 3 ] && pass "one command per finding" || fail "expected 3 lines: $(cat "$out")"

# --- terminal injection: every byte from the input is shown, never obeyed ---
# ESC (a colour sequence), a C1 CSI (U+009B), bidi overrides (U+202E,
# U+2066), bytes that are not UTF-8 (in a file name).
mkdir inject
cat > inject/compose.yaml <<'YAML'
services:
  web:
    cap_add: ["\e[31mred\x9bx\u202Eevil\u2066"]
YAML
bad_name=$(printf 'inject/bad\377dir')
mkdir "$bad_name"
printf 'services:\n  web:\n    privileged: true\n' > "$bad_name/compose.yaml"
esc=$(printf '\033')
csi=$(printf '\302\233')
rlo=$(printf '\342\200\256')
lri=$(printf '\342\201\246')
for format in text github; do
    expect_status 1 "$format with control bytes" -- --format "$format" --color never inject
    for raw in "$esc" "$csi" "$rlo" "$lri"; do
        grep -q "$raw" "$out" && fail "$format: a raw control reached the output" || pass "$format: no raw control"
    done
    grep -q "$(printf '\377')" "$out" && fail "$format: a raw invalid byte reached the output" \
        || pass "$format: no invalid UTF-8"
    contains "$out" '\x1b[31mred\u009bx\u202eevil\u2066' "$format: each control shown escaped"
    contains "$out" 'inject/bad\xffdir/compose.yaml' "$format: a file name shown escaped"
done
# Diagnostics on standard error: a selector, an option value, a plugin name.
expect_status 2 "unknown selector with controls" -- --select "$(printf 'X\033]0;pwned\007')" inject
lacks "$err" "$esc" "stderr: no raw ESC from a selector"
contains "$err" "unknown rule selector 'X\x1b]0;pwned\x07'" "stderr: the selector shown escaped"
expect_status 2 "unknown format with controls" -- --format "$(printf 'x\033[2J')" inject
lacks "$err" "$esc" "stderr: no raw ESC from an option value"
expect_status 2 "plugin name with controls" -- --plugin "$(printf 'p\033[2J')" inject
lacks "$err" "$esc" "stderr: no raw ESC from a plugin name"
contains "$err" "plugin 'p\x1b[2J' not found" "stderr: the plugin name shown escaped"

# --- a log reader obeys no line (SPEC §14, §17) ------------------------------------
# The GitHub Actions runner takes a line that starts with "::" (after
# blanks) as a workflow command, and "##[" anywhere in a line as one of its
# older syntax.  Scanned text reaches the start of a line through file
# names, and every line through values, messages and hints.
mkdir -p log/'::error file=README.md::forged' log/' ::warning::indented' log/'##[error]dir'
forged='services:\n  web:\n    privileged: true\n    cap_add: ["##[error]value", "x::y"]\n'
for dir in log/*/; do printf "$forged" > "$dir/compose.yaml"; done
printf '[sandlint]\nselect = ##[error]selector\n' > log/'::error::config.ini'
# obeyed FILE FORMAT: the lines of FILE a runner would obey, other than the
# github format's own annotations.
obeyed() {
    python3 - "$1" "$2" <<'PY'
import re, sys
format = sys.argv[2]
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if "##[" in line:
        print(line.rstrip())
    elif re.match(r"[ \t]*::", line):
        ours = re.match(r"::(error|warning|notice) file=[^:]*::", line)
        if format != "github" or not ours:
            print(line.rstrip())
PY
}
for format in text github json sarif gitlab; do
    expect_status 1 "$format with forged commands" -- --format "$format" --root log log
    obeyed "$out" "$format" > "$scratch/obeyed"
    [ ! -s "$scratch/obeyed" ] && pass "$format: no line a runner would obey" \
        || fail "$format: $(head -3 "$scratch/obeyed")"
    obeyed "$err" stderr > "$scratch/obeyed"
    [ ! -s "$scratch/obeyed" ] && pass "$format: nor on stderr" || fail "$format stderr: $(head -3 "$scratch/obeyed")"
done
expect_status 1 "text" -- --root log log
contains "$out" "./::error file=README.md::forged/compose.yaml:3:5: error:" \
    "text: a path that would start a command starts with ./"
contains "$out" "./ ::warning::indented/compose.yaml:3:5:" "also after blanks"
contains "$out" "capability '\x23#[error]value'" "the '#' that starts '##[' is escaped"
expect_status 1 "json" -- --format json --root log log
contains "$out" '"file": "::error file=README.md::forged/compose.yaml"' "json: the name as it is"
contains "$out" '"value": "\u0023#[error]value"' "json: the same string, written without '##['"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert any(f["value"] == "##[error]value" for f in d["findings"])' "$out" \
    && pass "json: it reads back as written" || fail "json: the value changed"
(cd log && expect_status 2 "a configuration named like a command" -- --config '::error::config.ini' .) \
    || true
contains "$err" '\x3a:error::config.ini:2:10: unknown rule selector' "stderr: the line's first ':' is escaped"
contains "$err" "'\x23#[error]selector'" "stderr: '##[' is escaped"

# --- control bytes 0x01-0x1F and 0x7F: valid, escaped JSON, SARIF and GitLab ------------
controls=$(printf '\001\002\003\004\005\006\007\010\011\013\014\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177')
mkdir -p "ctl/dir$controls"
printf 'services:\n  "web\\x01\\x1f\\x7f":\n    privileged: true\n    cap_add: ["\\x01\\x02\\x1b\\x1f\\x7f\\t\\n\\r"]\n' \
    > "ctl/dir$controls/compose.yaml"
for format in json sarif gitlab; do
    expect_status 1 "$format with control bytes" -- --format "$format" --root ctl ctl
    json_valid "$out" && pass "$format: valid JSON" || fail "$format: invalid JSON"
    if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$out"; then
        fail "$format: a raw control byte in the output"
    else
        pass "$format: every control byte escaped"
    fi
done
python3 - "$scratch/stdout" <<'PY' && pass "gitlab: path and description read back with their bytes" || fail "gitlab: bytes lost"
import json, sys
issues = json.load(open(sys.argv[1]))
assert any("\x01\x02" in i["location"]["path"] and "\x7f" in i["location"]["path"] for i in issues), issues
PY
expect_status 1 "json keys with control bytes" -- --format json --root ctl ctl
python3 - "$out" <<'PY' && pass "json: key, value and file keep every byte" || fail "json: bytes lost"
import json, sys
findings = json.load(open(sys.argv[1]))["findings"]
assert any(f["key"] == "web\x01\x1f\x7f:privileged" for f in findings), [f["key"] for f in findings]
assert any(f["value"] == "\x01\x02\x1b\x1f\x7f\t\n\r" for f in findings)
assert all("\x01" in f["file"] and "\x7f" in f["file"] for f in findings)
PY
finish
