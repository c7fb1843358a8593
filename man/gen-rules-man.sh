#!/bin/sh
# gen-rules-man.sh - write sandlint-rules(7) from the rules' own documentation.
#
# Usage: man/gen-rules-man.sh SANDLINT_BINARY > man/sandlint-rules.7
#
# Every rule the binary loads by default is documented from what
# `sandlint --explain CODE` prints, so the page cannot drift from the rules.
# The prose around the rules (NAME, DESCRIPTION, SEE ALSO) lives here.
# tests/man_rules.sh fails when the committed page differs from the output.
set -eu
LC_ALL=C
export LC_ALL

# The date of the page: change it when the prose below changes.
page_date='November 30, 2026'

if [ "$#" -ne 1 ]; then
    echo "usage: $0 SANDLINT_BINARY > sandlint-rules.7" >&2
    exit 2
fi
sandlint=$1

# An empty directory as the root: no configuration file can change which
# rules are loaded or selected.
work=$(mktemp -d "${TMPDIR:-/tmp}/gen-rules-man.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
empty="$work/root"
mkdir "$empty"

# COLUMNS: --explain unwrapped, one paragraph per line, as the rules wrote
# it (mdoc fills the text itself).
run() {
    COLUMNS=1000000 "$sandlint" --root "$empty" --color never "$@"
}

run --list-rules >"$work/rules"
# Columns: CODE NAME GROUP PLUGIN SUMMARY; the core's plugin is "sandlint".
awk 'NR > 1 && $4 != "sandlint" { print $1 }' "$work/rules" | sort -u >"$work/plugin-codes"
awk 'NR > 1 && $4 == "sandlint" { print $1 }' "$work/rules" | sort -u >"$work/core-codes"
if [ ! -s "$work/plugin-codes" ] || [ ! -s "$work/core-codes" ]; then
    echo "$0: $sandlint --list-rules listed no rules" >&2
    exit 1
fi

# explain2mdoc: turns one `sandlint --explain` text into an mdoc .Ss.
#  - header: ".Ss CODE name", the summary, group, plugin and severity;
#  - each section ("What it reports", ...) is an item of a tag list;
#  - prose: every line is a paragraph; "- " lines are bullet items (deeper
#    indentation nests a list or continues an item); other indented lines
#    are a literal display;
#  - "Allowlist key" and "Example" are literal displays; a key format line
#    too long for a terminal is split into the key and its indented note.
# Text is escaped for roff: backslashes, a leading "." or "'", words that
# mdoc would read as macros, trailing blanks, blank lines in fill mode.
explain2mdoc() {
    awk '
# Replaces every "from" (one character) in s; no regex, no gsub escapes.
function replace(s, from, to,    out, i) {
    out = ""
    while ((i = index(s, from)) > 0) {
        out = out substr(s, 1, i - 1) to
        s = substr(s, i + 1)
    }
    return out s
}
function esc(s) { return replace(s, "\\", "\\e") }
function rtrim(s) { sub(/[ \t]+$/, "", s); return s }
function ltrim(s) { sub(/^[ \t]+/, "", s); return s }
# One roff input line; a leading control character becomes text.
function put(s) {
    if (s ~ /^[.'\'']/)
        s = "\\&" s
    print s
}
# A macro argument: escaped, and protected when mdoc would parse it.
function arg(w) {
    w = replace(esc(w), "\"", "\\(dq")
    if (w ~ /^[%A-Z][A-Za-z][a-z]?$/ || w ~ /^[][().,:;?!|]$/)
        w = "\\&" w
    return w
}
function args(s,    n, i, parts, out) {
    n = split(s, parts, " ")
    out = ""
    for (i = 1; i <= n; i++)
        out = out (i > 1 ? " " : "") arg(parts[i])
    return out
}
# Whether the word before a full stop is an abbreviation, not a sentence end.
function abbreviation(head,    w) {
    w = head
    sub(/.*[ (]/, "", w)
    return w ~ /^(e\.g|i\.e|[A-Za-z])$/
}
# Prints a sentence as lines of at most 78 bytes where it can, never
# breaking after an abbreviation (roff would take it for a sentence end).
function wrap(s,    n, i, words, out) {
    n = split(s, words, " ")
    out = ""
    for (i = 1; i <= n; i++) {
        if (out != "" && length(out) + 1 + length(words[i]) > 78 &&
            out !~ /(^| |\()(e\.g|i\.e|[A-Za-z])\.$/) {
            put(out)
            out = ""
        }
        out = out (out == "" ? "" : " ") words[i]
    }
    if (out != "")
        put(out)
}
# Filled text: one sentence per input line, as mdoc wants.
function text(s,    rest, at, cut) {
    s = esc(rtrim(ltrim(s)))
    if (s == "")
        return
    rest = s
    cut = ""
    while (match(rest, /[]A-Za-z0-9)'\''"][.?!] +[A-Za-z]/)) {
        at = RSTART + 1
        if (substr(rest, at, 1) == "." && abbreviation(cut substr(rest, 1, at - 1))) {
            cut = cut substr(rest, 1, RSTART + RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH - 1)
            continue
        }
        wrap(cut substr(rest, 1, at))
        cut = ""
        rest = ltrim(substr(rest, at + 1))
    }
    wrap(cut rest)
}
function literal(s) {
    s = rtrim(esc(s))
    if (s == "")
        print ""
    else
        put(s)
}
# A literal display; compact when it opens a section, right under its title.
function open_display() {
    print ".Bd -literal -offset indent" (written ? "" : " -compact")
    in_display = 1
    blanks = 0
}
function close_display() {
    if (in_display)
        print ".Ed"
    in_display = 0
}
function close_lists() {
    while (depth > 0) {
        print ".El"
        depth--
    }
}
function end_section() {
    close_display()
    close_lists()
    blanks = 0
}
function capitalise(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }

# A line of "What it reports", "Why it matters", "How to fix" and others.
function prose(line,    indent, body) {
    match(line, /^ */)
    indent = RLENGTH
    body = substr(line, indent + 1)
    if (body ~ /^- /) {
        close_display()
        while (depth > 0 && indent < list_indent[depth]) {
            print ".El"
            depth--
        }
        if (depth == 0 || indent > list_indent[depth]) {
            print ".Bl -bullet"
            list_indent[++depth] = indent
        }
        print ".It"
        text(substr(body, 3))
    } else if (depth > 0 && indent > list_indent[depth]) {
        if (blanks > 0)
            print ".Pp"
        text(body)
    } else if (indent >= 2 && depth == 0) {
        if (!in_display) {
            open_display()
            display_indent = indent
        }
        for (; blanks > 0; blanks--)
            print ""
        literal(indent >= display_indent ? substr(line, display_indent + 1) : body)
        written = 1
        blanks = 0
        return
    } else {
        close_display()
        close_lists()
        if (written)
            print ".Pp"
        text(body)
    }
    written = 1
    blanks = 0
}
# A line of "Options": where they are set, then an item per option,
# "name (type, default VALUE)", with its summary indented below it.
function option_line(line,    name) {
    close_display()
    if (line ~ /^[a-z0-9_-]+ \(/) {
        if (depth == 0) {
            print ".Bl -tag -width Ds"
            list_indent[++depth] = 0
        }
        name = line
        sub(/ .*/, "", name)
        print ".It Cm " arg(name)
        text(substr(line, length(name) + 2))
    } else if (line ~ /^ /) {
        text(line)
    } else {
        close_lists()
        if (written)
            print ".Pp"
        text(line)
    }
    written = 1
    blanks = 0
}
# A line of "Example": the text as it is.
function example(line) {
    if (!in_display)
        open_display()
    for (; blanks > 0; blanks--)
        print ""
    literal(line)
    written = 1
    blanks = 0
}
# A line of "Allowlist key": one key format, maybe with a note.
function key_format(line,    key, note, width, word, n, i, words, out) {
    if (!in_display)
        open_display()
    for (; blanks > 0; blanks--)
        print ""
    blanks = 0
    written = 1
    line = rtrim(line)
    width = 60
    if (length(line) <= width || line !~ /^[^ ]+ /) {
        literal(line)
        return
    }
    key = line
    sub(/ .*/, "", key)
    note = ltrim(substr(line, length(key) + 1))
    sub(/,$/, "", key)
    literal(key)
    n = split(note, words, " ")
    out = ""
    for (i = 1; i <= n; i++) {
        if (out != "" && length(out) + 1 + length(words[i]) > width - 4) {
            literal("    " out)
            out = ""
        }
        out = out (out == "" ? "" : " ") words[i]
    }
    if (out != "")
        literal("    " out)
}

NR == 1 {
    code = $1
    rest = substr($0, length(code) + 2)
    at = index(rest, ": ")
    name = at ? substr(rest, 1, at - 1) : rest
    summary = at ? substr(rest, at + 2) : ""
    print ".Ss " args(code " " name)
    if (summary != "")
        text(capitalise(summary) ".")
    next
}
NR == 2 && /^  group / {
    info = substr($0, 9)
    group = info
    sub(/[ ,].*/, "", group)
    group_code = ""
    if (match(info, /^[^ ,]+ \([^)]*\)/)) {
        group_code = substr(info, length(group) + 3, RLENGTH - length(group) - 3)
    }
    plugin = ""
    if (match(info, /, plugin [^,]+/))
        plugin = substr(info, RSTART + 9, RLENGTH - 9)
    severity = ""
    if (match(info, /, default severity [a-z]+/))
        severity = substr(info, RSTART + 19, RLENGTH - 19)
    opt_in = info ~ /, opt-in$/
    print "Group"
    if (group_code != "") {
        print ".Sy " arg(group)
        print ".Pq selector Sy " arg(group_code) " ,"
    } else {
        print ".Sy " arg(group) " ,"
    }
    if (plugin != "") {
        print "plugin"
        print ".Sy " arg(plugin) " ,"
    }
    if (severity != "") {
        print "default severity"
        print ".Sy " arg(severity) " ."
    }
    if (opt_in) {
        print "Off by default: it runs only when a selector such as"
        print ".Fl \\-select"
        print "names it."
    }
    next
}
/^  documentation: / && !in_list {
    next    # the page is the documentation: no link to itself
}
/^  kinds: / && !in_list {
    n = split(substr($0, 10), kinds, ", ")
    print "Kinds of file checked:"
    for (i = 1; i <= n; i++)
        print ".Sy " arg(kinds[i]) (i < n ? " ," : " .")
    next
}
/^[^ ]/ {
    end_section()
    if (!in_list) {
        print ".Bl -tag -width Ds"
        in_list = 1
    }
    title = rtrim($0)
    print ".It Sy " args(title)
    mode = title == "Example" ? "example" : title == "Allowlist key" ? "keys" : \
        title == "Options" ? "options" : "prose"
    written = 0
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
        example(line)
    else if (mode == "keys")
        key_format(line)
    else if (mode == "options")
        option_line(line)
    else
        prose(line)
}
END {
    end_section()
    if (in_list)
        print ".El"
}
'
}

document() {
    while IFS= read -r code; do
        run --explain "$code" >"$work/explain" </dev/null
        explain2mdoc <"$work/explain"
    done <"$1"
}

cat <<EOF
.\\" Generated by man/gen-rules-man.sh from the rules' own documentation.
.\\" Do not edit: change the rule's texts (or the prose in the script), then
.\\"     man/gen-rules-man.sh ./sandlint > man/sandlint-rules.7
.Dd $page_date
.Dt SANDLINT-RULES 7
.Os
.Sh NAME
.Nm sandlint-rules
.Nd what each sandlint rule reports and how to fix it
.Sh DESCRIPTION
This page describes every rule
.Xr sandlint 1
loads by default, and the diagnostics of its core.
It is made from the documentation each rule carries, the same text that
.Fl \\-explain Ar rule
prints.
.Ss Findings and keys
A finding points at the line and column of the setting, or of the list
item for list settings such as
.Ic cap_add
or
.Ic volumes .
A setting that a service merges from a YAML anchor
.Pq Ic <<: *anchor
points where it is written, inside the anchored block.
Its
.Em key
names it in allowlists:
.Ql service:field
for a setting without a value, such as
.Ql default:privileged ,
and
.Ql service:field:value
otherwise, such as
.Ql web:cap_add:SYS_ADMIN .
The value is the one written in the file, byte for byte: it is not
resolved, normalised or changed in case, so
.Ql seccomp=unconfined
and
.Ql seccomp:unconfined
are different keys.
Within a file, a rule reports a key once, at its first occurrence.
The key format of each rule is given below under
.Sy Allowlist key ;
the hint of every finding names its key.
.Ss Severities
A rule reports an
.Sy error
or a
.Sy warning .
Errors have status
.Qq fail
and make
.Nm sandlint
exit with status 1; warnings have status
.Qq warn
and never fail a run.
An allowlisted finding
.Pq see Xr sandlint.conf 5
becomes a warning whose message starts with
.Ql "Allowlisted: " .
A finding covered by a suppression comment keeps its severity, gets the
status
.Qq suppressed
and does not fail the run either.
.Ss Values that cannot be checked
A boolean setting is enabled when its value is YAML true or a string that
Compose accepts as true:
.Ql true ,
.Ql y ,
.Ql yes
or
.Ql on ,
in any case, quoted or not.
A value holding a Compose interpolation,
.Ql \${...}
or
.Ql \$NAME
(but not a
.Ql \$\$
escape), is never resolved: environment and
.Pa .env
files are not read.
Where the rule would report it, such a value is a warning whose message
says it cannot be checked and whose key holds the value as written, such
as
.Ql web:privileged:\${PRIV} .
Allowlist it only after checking every value it can take.
.Ss Selecting rules
The options
.Fl \\-select
and
.Fl \\-ignore ,
the
.Cm select
and
.Cm ignore
settings and suppression comments name rules by code
.Pq Sy SBX003 ,
code prefix
.Pq Sy SBX ,
name
.Pq Sy mounts ,
group
.Pq Sy sandbox_privileges
or group selector
.Pq Sy IESC001 .
.Sh RULES
The rules of the plugins that come with
.Nm sandlint .
They read each Compose file on its own: override files are not merged
and
.Ic include
and
.Ic extends
are not followed.
EOF
document "$work/plugin-codes"
cat <<'EOF'
.Sh CORE DIAGNOSTICS
The core reports problems that stop a file, a comment or a configuration
entry from being checked as written.
They are always warnings, have no key and cannot be allowlisted;
.Fl \-select
does not turn them off, but
.Fl \-ignore
and the
.Cm ignore
setting can.
A diagnostic that points at a line of a Compose file can be suppressed by
a comment on that line, except
.Sy SL004 ,
a problem with a suppression comment.
.Sy SL006
also makes
.Nm sandlint
exit with status 2.
EOF
document "$work/core-codes"
cat <<'EOF'
.Sh SEE ALSO
.Xr sandlint 1 ,
.Xr sandlint-plugin 3 ,
.Xr sandlint.conf 5
EOF
