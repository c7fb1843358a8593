#!/bin/sh
# Rules as data (SPEC §16-17): the pages docs/rules/CODE.md and the lists of
# sandlint(1) are what the generators make of the built rules (make
# rule-docs), every rule code is in sandlint(1) and has a page, every kind of
# file a rule checks is described in --help and sandlint(1); --list-rules and
# --list-plugins speak JSON (and refuse formats they cannot honour); each
# rule's URL is absolute and its own, in --explain, the JSON listing and
# SARIF's helpUri, also for a plugin's rule; --explain wraps to the width.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
: "${TEST_PLUGIN_DIR:?}"
cd "$scratch"
mkdir root
docs="$abs_top_srcdir/docs/rules"
page="$abs_top_srcdir/man/sandlint.1"

# --- the committed documentation is what the generators make -------------------
mkdir pages
if sh "$abs_top_srcdir/docs/gen-rule-pages.sh" "$SANDLINT" pages 2>"$err"; then
    if diff -r "$docs" pages >"$out" 2>&1; then
        pass "docs/rules/ is what docs/gen-rule-pages.sh makes of the rules"
    else
        fail "docs/rules/ is out of date: run make rule-docs"
        head -40 "$out" >&2
    fi
else
    fail "docs/gen-rule-pages.sh failed: $(cat "$err")"
fi
if sh "$abs_top_srcdir/man/gen-manual-lists.sh" "$SANDLINT" "$page" >manual.1 2>"$err"; then
    if cmp -s "$page" manual.1; then
        pass "sandlint(1)'s lists of kinds and rules are up to date"
    else
        fail "man/sandlint.1's generated lists are out of date: run make rule-docs"
        diff -u "$page" manual.1 | head -40 >&2 || true
    fi
else
    fail "man/gen-manual-lists.sh failed: $(cat "$err")"
fi
if command -v mandoc >/dev/null 2>&1; then
    report=$(mandoc -Tlint -Wwarning manual.1 2>&1) && pass "generated sandlint(1) is mandoc-clean" ||
        fail "generated sandlint(1): $report"
fi

# --- every rule code in sandlint(1), with a page -----------------------------------
sl --root root --list-rules >rules.txt
codes=$(awk 'NR > 1 { print $1 }' rules.txt)
[ "$(echo "$codes" | wc -l)" -ge 20 ] || fail "--list-rules lists too few rules: $codes"
missing=""
for code in $codes; do
    grep -q "^\.It Sy $code$" "$page" || missing="$missing $code(sandlint.1)"
    [ -f "$docs/$code.md" ] || missing="$missing $code(docs/rules)"
    grep -q "^| \[$code\]($code\.md) " "$docs/README.md" || missing="$missing $code(index)"
    grep -q "^# $code \`" "$docs/$code.md" 2>/dev/null || missing="$missing $code(title)"
done
[ -z "$missing" ] && pass "every rule code is in sandlint(1), docs/rules/CODE.md and the index" ||
    fail "missing:$missing"
for file in "$docs"/*.md; do
    name=${file##*/}
    [ "$name" = README.md ] && continue
    echo "$codes" | grep -qx "${name%.md}" || fail "docs/rules/$name documents no loaded rule"
done

# --- every kind a rule checks is described ----------------------------------------
sl --root root --list-rules --format json >rules.json
json_valid rules.json && pass "--list-rules --format json is valid JSON" ||
    fail "--list-rules --format json is not JSON"
kinds=$(grep -o '"kinds": \[[^]]*\]' rules.json | grep -o '"[a-z-]*"' | tr -d '"' | grep -v kinds |
        sort -u)
[ -n "$kinds" ] || fail "no kinds in --list-rules --format json"
sl --help >help.txt
for kind in $kinds; do
    awk '/for these kinds of file:$/ { inside = 1; next } inside && !/^  / { exit }
         inside' help.txt | grep -qE "^  $kind( |\$)" || fail "--help does not say what the kind $kind is"
    grep -q "^\.It Sy $kind$" "$page" || fail "sandlint(1) does not list the kind $kind"
done
pass "the kinds $(echo $kinds) are described in --help and sandlint(1)"

# --- the JSON listings -------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
    # good.so has a URL of its own; abi12.so (built for ABI 1.2) none.
    sl --root root --plugin "$TEST_PLUGIN_DIR/good.so" --plugin "$TEST_PLUGIN_DIR/abi12.so" \
        --list-rules --format json >with-plugins.json
    sl --root root --list-plugins --format json >plugins.json
    status=0
    python3 - rules.json with-plugins.json plugins.json <<'PY' >check.out 2>&1 || status=$?
import json, re, sys
problems = []
rules = json.load(open(sys.argv[1]))
if rules.get("tool") != "sandlint" or rules.get("schema") != 1:
    problems.append("tool/schema: %r %r" % (rules.get("tool"), rules.get("schema")))
want = ["code", "name", "group", "group_code", "plugin", "kinds", "default_severity",
        "severity", "opt_in", "enabled", "summary", "url"]
urls = {}
for rule in rules["rules"]:
    if list(rule) != want:
        problems.append("%s: fields %s" % (rule.get("code"), list(rule)))
        continue
    code = rule["code"]
    if rule["default_severity"] not in ("error", "warning"):
        problems.append("%s: default_severity %r" % (code, rule["default_severity"]))
    if not rule["kinds"] or any(k not in ("compose", "agent-env", "kubernetes") and
                                not re.match(r"^[a-z][a-z0-9-]*$", k) for k in rule["kinds"]):
        problems.append("%s: kinds %r" % (code, rule["kinds"]))
    url = rule["url"]
    if not url or not re.match(r"^https://github\.com/sandlint/sandlint/blob/[^/]+/docs/rules/%s\.md$"
                               % code, url):
        problems.append("%s: url %r is not its page in the published repository" % (code, url))
    urls.setdefault(url, []).append(code)
problems += ["%s share the URL %s" % (codes, url) for url, codes in urls.items() if len(codes) > 1]
codes = [r["code"] for r in rules["rules"]]
if codes != sorted(codes):
    problems.append("rules not sorted by code")
extended = {r["code"]: r for r in json.load(open(sys.argv[2]))["rules"]}
if extended.get("TST001", {}).get("url") != "https://example.com/sandlint-rules/TST001":
    problems.append("a plugin's own URL: %r" % extended.get("TST001"))
abi12 = [r for r in extended.values() if r["plugin"] == "abi12"]
if not abi12 or any(r["url"] is not None for r in abi12):
    problems.append("a rule without url (ABI 1.2) must have url null: %r" % abi12)
plugins = json.load(open(sys.argv[3]))
names = [p["name"] for p in plugins["plugins"]]
if plugins.get("schema") != 1 or "sandlint" not in names or "privileges" not in names:
    problems.append("--list-plugins: %r" % names)
for plugin in plugins["plugins"]:
    if list(plugin) != ["name", "version", "summary", "abi", "path", "rules"]:
        problems.append("plugin fields %s" % list(plugin))
    elif (plugin["path"] is None) != (plugin["name"] == "sandlint") or not plugin["rules"]:
        problems.append("plugin %r" % plugin)
print("\n".join(problems) if problems else "%d rules with distinct URLs" % len(codes))
sys.exit(1 if problems else 0)
PY
    [ "$status" -eq 0 ] && pass "JSON listings: $(cat check.out)" ||
        { fail "JSON listings:"; sed 's/^/    /' check.out >&2; }
else
    echo "rule_docs.sh: SKIP (partly): python3 is needed to check the JSON listings"
fi
for url in $(grep -o '"url": "[^"]*"' rules.json | cut -d'"' -f4 | head -3); do
    code=${url##*/}
    code=${code%.md}
    sl --root root --explain "$code" >explain.txt
    contains explain.txt "  documentation: $url" "--explain $code gives its URL"
done

# SARIF: every rule's helpUri is the listing's URL; a rule without one has none.
mkdir repo
printf 'services:\n  web:\n    image: x\n    privileged: true\n' >repo/compose.yaml
set +e
sl --root repo --format sarif --plugin "$TEST_PLUGIN_DIR/abi12.so" repo >sarif.json 2>"$err"
set -e
for url in $(grep -o '"url": "[^"]*"' rules.json | cut -d'"' -f4); do
    grep -qF "\"helpUri\": \"$url\"" sarif.json || fail "SARIF lacks helpUri $url"
done
[ "$(grep -o '"helpUri"' sarif.json | wc -l)" -eq "$(grep -c '"url": "http' rules.json)" ] &&
    pass "SARIF: each rule's own helpUri, none for a rule without a URL" ||
    fail "SARIF helpUri count: $(grep -o '"helpUri": "[^"]*"' sarif.json | sort | uniq -c | head)"

# --- formats a listing cannot honour are refused -----------------------------------
for format in sarif github gitlab; do
    expect_status 2 "--list-rules --format $format" -- --root root --list-rules --format "$format"
    contains "$err" "print text or json, not $format" "--list-rules refuses --format $format"
    [ ! -s "$out" ] || fail "--list-rules --format $format printed something"
done
expect_status 2 "--list-plugins --format sarif" -- --root root --list-plugins --format sarif
expect_status 2 "--explain --format json" -- --root root --explain SBX001 --format json
contains "$err" "--explain prints text only, not json" "--explain refuses --format json"
expect_status 2 "two JSON listings" -- --root root --list-rules --list-plugins --format json
expect_status 0 "--list-plugins --format text" -- --root root --list-plugins --format text

# --- --explain wraps its prose to the width ----------------------------------------
# prose_lines FILE : the lines of the prose sections (not keys or examples).
prose_lines() {
    awk '/^[A-Z]/ { prose = ($0 !~ /^(Allowlist key|Example)$/) && NR > 1; next }
         prose' "$1"
}
# words FILE : the words of the prose sections, one per line.
words() { prose_lines "$1" | tr -s ' ' '\n' | grep -v '^$'; }
for code in SBX003 SL007 SBX001; do
    sl --root root --explain "$code" >wrapped.txt
    COLUMNS=100000
    export COLUMNS
    sl --root root --explain "$code" >unwrapped.txt
    COLUMNS=40
    sl --root root --explain "$code" >narrow.txt
    unset COLUMNS
    long=$(prose_lines wrapped.txt | awk 'length($0) > 80' | grep -c ' [^ ]' || true)
    [ "$long" -eq 0 ] && pass "--explain $code: prose within 80 columns when not a terminal" ||
        fail "--explain $code: $long prose lines over 80 columns"
    long=$(prose_lines narrow.txt | awk 'length($0) > 40 && $0 ~ /[^ -] [^ ]/' | wc -l)
    [ "$long" -eq 0 ] && pass "--explain $code: COLUMNS=40" || fail "--explain $code: $long lines over 40"
    [ "$(prose_lines unwrapped.txt | awk 'length($0) > 80' | wc -l)" -gt 0 ] ||
        fail "--explain $code: COLUMNS=100000 did not unwrap"
    if [ "$(words wrapped.txt)" = "$(words unwrapped.txt)" ] &&
       [ "$(words narrow.txt)" = "$(words unwrapped.txt)" ]; then
        pass "--explain $code: wrapping keeps every word, in order"
    else
        fail "--explain $code: wrapping changed the words"
    fi
    # Examples and keys stay as written.
    awk '/^Example$/ { e = 1; next } e' narrow.txt >narrow.example
    awk '/^Example$/ { e = 1; next } e' unwrapped.txt >unwrapped.example
    cmp -s narrow.example unwrapped.example && pass "--explain $code: the example is not rewrapped" ||
        fail "--explain $code: the example changed with the width"
done
finish
