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
page_date='December 2, 2026'

if [ "$#" -ne 1 ]; then
    echo "usage: $0 SANDLINT_BINARY > sandlint-rules.7" >&2
    exit 2
fi
sandlint=$1
here=$(cd "$(dirname "$0")" && pwd)

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

# The mdoc renderer of man/explain.awk (which reads the --explain text):
#  - header: ".Ss CODE name", the summary, group, plugin, severity, kinds;
#  - each section ("What it reports", ...) is an item of a tag list;
#  - prose: paragraphs, bullet lists (nested), literal displays;
#  - "Allowlist key" and "Example" are literal displays; a key format line
#    too long for a terminal is split into the key and its indented note;
#  - "Options": a tag list of the options, their summaries below them.
# Text goes through man/roff.awk: escaped for roff, one sentence per line.
cat >"$work/mdoc.awk" <<'RENDERER'
function render_header(code, name, summary, group, selector, plugin, severity, opt_in) {
    print ".Ss " args(code " " name)
    if (summary != "")
        text(capitalise(summary) ".")
    if (group == "")
        return
    print "Group"
    if (selector != "") {
        print ".Sy " arg(group)
        print ".Pq selector Sy " arg(selector) " ,"
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
}
function render_kinds(list,    n, i, kinds) {
    n = split(list, kinds, ", ")
    print "Kinds of file checked:"
    for (i = 1; i <= n; i++)
        print ".Sy " arg(kinds[i]) (i < n ? " ," : " .")
}
function render_section(title, mode) {
    if (!in_tag_list) {
        print ".Bl -tag -width Ds"
        in_tag_list = 1
    }
    print ".It Sy " args(title)
    written = 0
}
function render_section_end() {
    close_display()
    if (in_options) {
        print ".El"
        in_options = 0
    }
}
function render_end() {
    if (in_tag_list)
        print ".El"
}
# A literal display; compact when it opens a section, right under its title.
function open_display() {
    if (in_display)
        return 0
    print ".Bd -literal -offset indent" (written ? "" : " -compact")
    in_display = 1
    return 1
}
function close_display() {
    if (in_display)
        print ".Ed"
    in_display = 0
}
function blank_lines(n) {
    for (; n > 0; n--)
        print ""
}
function render_paragraph(s) {
    if (written)
        print ".Pp"
    text(s)
    written = 1
}
function render_list_open(depth) { print ".Bl -bullet" }
function render_list_close(depth) { print ".El" }
function render_item(depth, s) {
    print ".It"
    text(s)
    written = 1
}
function render_item_paragraph(depth, s, blanks) {
    if (blanks > 0)
        print ".Pp"
    text(s)
    written = 1
}
function render_display_line(s, blanks) {
    if (!open_display())
        blank_lines(blanks)
    literal(s)
    written = 1
}
function render_display_close() { close_display() }
function render_example(s, blanks) { render_display_line(s, blanks) }
# A key format, split when too long for a terminal: the key, then its note
# indented below it.
function render_key(line, blanks,    key, note, width, n, i, words, out) {
    if (!open_display())
        blank_lines(blanks)
    written = 1
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
# "Options": where they are set, then a tag item per option,
# "name (type, default VALUE)", with its summary below it.
function render_options_text(s) {
    if (in_options) {
        print ".El"
        in_options = 0
    }
    if (written)
        print ".Pp"
    text(s)
    written = 1
}
function render_option(name, rest) {
    if (!in_options) {
        print ".Bl -tag -width Ds"
        in_options = 1
    }
    print ".It Cm " arg(name)
    text(rest)
    written = 1
}
function render_option_summary(s) {
    text(s)
    written = 1
}
RENDERER

explain2mdoc() {
    awk -f "$here/explain.awk" -f "$here/roff.awk" -f "$work/mdoc.awk"
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
and fail a run only with
.Fl \\-strict .
The configuration can raise or lower a rule's severity
.Pq Ic severity No under Ic [rule CODE] , see Xr sandlint.conf 5 :
it changes the findings the rule reports at its default severity, not a
warning that a value cannot be checked, and it cannot lower the
diagnostics that say a file was not checked.
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
They read each file on its own: Compose override files are not merged.
Each rule's page, with the same text, is
.Pa docs/rules/ Ns Ar CODE Ns Pa .md
in the project's repository: the URL that
.Fl \\-explain
prints.
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
