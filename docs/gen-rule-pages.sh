#!/bin/sh
# gen-rule-pages.sh - write docs/rules/CODE.md, one page per rule, and the
# index docs/rules/README.md, from the rules' own documentation.
#
# Usage: docs/gen-rule-pages.sh SANDLINT_BINARY OUTPUT_DIRECTORY
#
# Every rule the binary loads by default (the core's diagnostics too) gets
# the page that `sandlint --explain CODE` prints, in Markdown: the same text
# as --explain and sandlint-rules(7), so the three cannot drift.  These pages
# are what each rule's URL (sl_rule.url: SARIF helpUri, --explain,
# --list-rules --format json) points at in the published repository.
# Markdown files in OUTPUT_DIRECTORY that are no rule's page any more are
# removed.  `make rule-docs` runs this; tests/rule_docs.sh fails when the
# committed pages differ from what it writes.
set -eu
LC_ALL=C
export LC_ALL

if [ "$#" -ne 2 ]; then
    echo "usage: $0 SANDLINT_BINARY OUTPUT_DIRECTORY" >&2
    exit 2
fi
sandlint=$1
out=$2
[ -d "$out" ] || { echo "$0: $out is not a directory" >&2; exit 2; }

# An empty directory as the root: no configuration file can change which
# rules are loaded, selected or how severe they are.
work=$(mktemp -d "${TMPDIR:-/tmp}/gen-rule-pages.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$work/root"

# COLUMNS: --explain unwrapped, one paragraph per line, as the rules wrote it.
run() {
    COLUMNS=1000000 "$sandlint" --root "$work/root" --color never "$@"
}

run --list-rules >"$work/rules"
awk 'NR > 1 { print $1 }' "$work/rules" | sort -u >"$work/codes"
[ -s "$work/codes" ] || { echo "$0: $sandlint --list-rules listed no rules" >&2; exit 1; }

# explain2md: one `sandlint --explain` text as a Markdown page.
#  - header: "# CODE `name`", the summary, then group, plugin, severity,
#    kinds as a list (the documentation line is the page itself: left out);
#  - prose sections: a line is a paragraph, "- " lines are bullet items
#    (deeper indentation nests a list or continues an item), other indented
#    lines a code block;
#  - "Allowlist key" a text block, "Example" a YAML block, "Options" a list.
# Prose is escaped for Markdown: \ ` * _ [ ] < > and a line start that
# would read as a heading or a numbered item.
explain2md() {
    awk '
function replace(s, from, to,    out, i) {
    out = ""
    while ((i = index(s, from)) > 0) {
        out = out substr(s, 1, i - 1) to
        s = substr(s, i + 1)
    }
    return out s
}
function esc(s,    n, i, c, out) {
    out = ""
    n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (index("\\`*_[]<>", c) > 0)
            out = out "\\" c
        else
            out = out c
    }
    if (out ~ /^#/ || out ~ /^[0-9]+[.)]( |$)/ || out ~ /^[+=-]( |$)/)
        out = "\\" out
    return out
}
function ltrim(s) { sub(/^[ \t]+/, "", s); return s }
function rtrim(s) { sub(/[ \t]+$/, "", s); return s }
function capitalise(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }
# A blank line before a new block, unless the section just started.
function separate() {
    if (written)
        print ""
}
function close_fence() {
    if (in_fence)
        print "```"
    in_fence = 0
}
function open_fence(language) {
    if (!in_fence) {
        separate()
        print "```" language
        in_fence = 1
        blanks = 0
        written = 1
    }
}
function close_lists() { depth = 0 }
function end_section() {
    flush_option()
    close_fence()
    close_lists()
    blanks = 0
}
function spaces(n,    s) { s = ""; while (n-- > 0) s = s " "; return s }

function prose(line,    indent, body) {
    match(line, /^ */)
    indent = RLENGTH
    body = substr(line, indent + 1)
    if (body ~ /^- /) {
        close_fence()
        while (depth > 0 && indent < list_indent[depth])
            depth--
        if (depth == 0 || indent > list_indent[depth]) {
            if (depth == 0)
                separate()
            list_indent[++depth] = indent
        }
        print spaces(2 * (depth - 1)) "- " esc(substr(body, 3))
    } else if (depth > 0 && indent > list_indent[depth]) {
        close_fence()
        print ""
        print spaces(2 * depth) esc(body)
    } else if (indent >= 2 && depth == 0) {
        if (!in_fence) {
            open_fence("")
            fence_indent = indent
        }
        for (; blanks > 0; blanks--)
            print ""
        print rtrim(indent >= fence_indent ? substr(line, fence_indent + 1) : body)
    } else {
        close_fence()
        close_lists()
        separate()
        print esc(rtrim(ltrim(body)))
    }
    written = 1
    blanks = 0
}
# "Options": where they are set, then "name (type, default)" with its
# summary indented on the next line: one list item per option.
function flush_option() {
    if (option_name != "")
        print "- `" option_name "` " esc(option_rest)
    option_name = ""
}
function option_line(line,    name) {
    if (line ~ /^[a-z0-9_-]+ \(/) {
        flush_option()
        if (!in_options_list) {
            separate()
            in_options_list = 1
        }
        name = line
        sub(/ .*/, "", name)
        option_name = name
        option_rest = substr(line, length(name) + 2)
    } else if (line ~ /^ / && option_name != "") {
        print "- `" option_name "` " esc(option_rest) ": " esc(ltrim(line))
        option_name = ""
    } else {
        flush_option()
        separate()
        print esc(line)
    }
    written = 1
}
function literal(line, language) {
    open_fence(language)
    for (; blanks > 0; blanks--)
        print ""
    print rtrim(line)
}

NR == 1 {
    code = $1
    rest = substr($0, length(code) + 2)
    at = index(rest, ": ")
    name = at ? substr(rest, 1, at - 1) : rest
    summary = at ? substr(rest, at + 2) : ""
    print "<!-- Generated by docs/gen-rule-pages.sh from `sandlint --explain " code "`."
    print "     Do not edit: change the rule, then run `make rule-docs`. -->"
    print "# " code " `" name "`"
    if (summary != "") {
        print ""
        print esc(capitalise(summary)) "."
    }
    print ""
    next
}
NR == 2 && /^  group / {
    info = substr($0, 9)
    group = info
    sub(/[ ,].*/, "", group)
    group_code = ""
    if (match(info, /^[^ ,]+ \([^)]*\)/))
        group_code = substr(info, length(group) + 3, RLENGTH - length(group) - 3)
    plugin = ""
    if (match(info, /, plugin [^,]+/))
        plugin = substr(info, RSTART + 9, RLENGTH - 9)
    severity = ""
    if (match(info, /, default severity [a-z]+/))
        severity = substr(info, RSTART + 19, RLENGTH - 19)
    print "- Group: `" group "`" (group_code != "" ? " (selector `" group_code "`)" : "")
    if (plugin != "")
        print "- Plugin: `" plugin "`"
    if (severity != "")
        print "- Default severity: **" severity "**" \
            (info ~ /, opt-in$/ ? " (opt-in: runs only when a selector names it)" : "")
    next
}
/^  kinds: / && !started {
    print "- Kinds of file: " esc(substr($0, 10))
    next
}
/^  documentation: / && !started {
    next
}
/^[^ ]/ {
    end_section()
    started = 1
    title = rtrim($0)
    print ""
    print "## " esc(title)
    print ""
    mode = title == "Example" ? "example" : title == "Allowlist key" ? "keys" : \
        title == "Options" ? "options" : "prose"
    written = 0
    in_options_list = 0
    next
}
/^[ \t]*$/ {
    blanks++
    next
}
{
    line = $0
    sub(/^  /, "", line)
    if (mode == "example")
        literal(line, "yaml")
    else if (mode == "keys")
        literal(line, "text")
    else if (mode == "options")
        option_line(line)
    else
        prose(line)
}
END {
    end_section()
}
'
}

# The pages, and the index rows: code, name, group, severity, summary.
: >"$work/index"
while IFS= read -r code; do
    run --explain "$code" >"$work/explain" </dev/null
    explain2md <"$work/explain" >"$work/$code.md"
    awk -v code="$code" '
        NR == 1 { rest = substr($0, length(code) + 2); at = index(rest, ": ")
                  name = substr(rest, 1, at - 1); summary = substr(rest, at + 2) }
        NR == 2 { group = substr($0, 9); sub(/[ ,].*/, "", group)
                  severity = "error"; if ($0 ~ /default severity warning/) severity = "warning"
                  if ($0 ~ /, opt-in$/) severity = severity ", opt-in" }
        END { out = ""
              for (i = 1; i <= length(summary); i++) {
                  c = substr(summary, i, 1)
                  out = out (index("\\`*_[]<>|", c) > 0 ? "\\" : "") c
              }
              summary = out
              printf "| [%s](%s.md) | `%s` | `%s` | %s | %s |\n", code, code, name, group,
                     severity, summary }' "$work/explain" >>"$work/index"
done <"$work/codes"

{
    echo "<!-- Generated by docs/gen-rule-pages.sh from \`sandlint --list-rules\` and"
    echo "     \`sandlint --explain\`.  Do not edit: run \`make rule-docs\`. -->"
    echo "# sandlint rules"
    echo ""
    echo "Every rule sandlint loads by default, and the diagnostics of its core"
    echo "(\`SL\` codes).  Each page holds what \`sandlint --explain CODE\` prints and"
    echo "what \`man 7 sandlint-rules\` says: what the rule reports, why it matters, how"
    echo "to fix it, its allowlist key and an example.  A finding's SARIF \`helpUri\`"
    echo "and \`sandlint --list-rules --format json\` link here."
    echo ""
    echo "| code | name | group | default severity | summary |"
    echo "|---|---|---|---|---|"
    cat "$work/index"
} >"$work/README.md"

# Replace the pages: new ones written, ones of rules that are gone removed.
for page in "$out"/*.md; do
    [ -e "$page" ] || continue
    name=${page##*/}
    [ -e "$work/$name" ] || rm -f "$page"
done
for page in "$work"/*.md; do
    name=${page##*/}
    if ! cmp -s "$page" "$out/$name"; then
        cp "$page" "$out/$name"
    fi
done
