#!/bin/sh
# gen-manual-lists.sh - the generated parts of sandlint(1): the kinds of file
# a directory search finds and every rule, by group.
#
# Usage: man/gen-manual-lists.sh SANDLINT_BINARY PAGE > NEW_PAGE
#
# Prints PAGE with what lies between each pair of lines
#     .\" BEGIN GENERATED: kinds      .\" END GENERATED: kinds
#     .\" BEGIN GENERATED: rules      .\" END GENERATED: rules
# made again from the binary: the kinds from `sandlint --help` (which prints
# them from the core's own table), the rules from `sandlint --list-rules
# --format json`.  Everything else of the page is copied as it is.  `make
# rule-docs` runs this; tests/rule_docs.sh fails when the committed page
# differs from what it prints.
set -eu
LC_ALL=C
export LC_ALL

if [ "$#" -ne 2 ]; then
    echo "usage: $0 SANDLINT_BINARY PAGE > NEW_PAGE" >&2
    exit 2
fi
sandlint=$1
page=$2

work=$(mktemp -d "${TMPDIR:-/tmp}/gen-manual-lists.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$work/root"

"$sandlint" --help >"$work/help"
"$sandlint" --root "$work/root" --list-rules --format json >"$work/rules.json"

# Both lists are written with man/roff.awk: escaped, one sentence per line.
here=$(cd "$(dirname "$0")" && pwd)

# The kinds, one tag item each, from the entries --help prints after
# "for these kinds of file:" ("  NAME  text", continuation lines indented).
cat >"$work/kinds.awk" <<'KINDS'
/for these kinds of file:$/ { inside = 1; next }
inside && /^  [a-z]/ {
    flush()
    name = $1
    description = substr($0, length(name) + 3)
    sub(/^ +/, "", description)
    next
}
inside && /^                [^ ]/ {
    line = $0
    sub(/^ +/, "", line)
    description = description (description == "" ? "" : " ") line
    next
}
inside { flush(); inside = 0 }
function flush() {
    if (name == "")
        return
    print ".It Sy " arg(name)
    text(description)
    count++
    name = ""
}
END {
    flush()
    if (count == 0) {
        print "gen-manual-lists.sh: no kinds of file in --help" > "/dev/stderr"
        exit 1
    }
}
KINDS
awk -f "$here/roff.awk" -f "$work/kinds.awk" "$work/help" >"$work/kinds.items"
{
    echo ".Bl -tag -width kubernetes"
    cat "$work/kinds.items"
    echo ".El"
} >"$work/kinds"

# The rules: one list per group, groups in the order of their first code,
# the core's last.  --list-rules --format json prints one rule per line.
cat >"$work/rules.awk" <<'RULES'
# The JSON string value of field in line (escapes \" \\ \/ \n undone).
function field(line, name,    at, rest, out, c) {
    at = index(line, "\"" name "\": ")
    if (at == 0)
        return ""
    rest = substr(line, at + length(name) + 4)
    if (substr(rest, 1, 1) != "\"")
        return ""
    out = ""
    for (rest = substr(rest, 2); rest != ""; rest = substr(rest, 2)) {
        c = substr(rest, 1, 1)
        if (c == "\"")
            break
        if (c == "\\") {
            rest = substr(rest, 2)
            c = substr(rest, 1, 1)
            if (c == "n")
                c = " "
        }
        out = out c
    }
    return out
}
/^  \{"code": / {
    code = field($0, "code")
    group = field($0, "group")
    if (!(group in seen)) {
        seen[group] = ++groups
        order[groups] = group
        core[group] = field($0, "plugin") == "sandlint"
        group_code[group] = field($0, "group_code")
        opt_in[group] = 1
    }
    if ($0 !~ /"opt_in": true/)
        opt_in[group] = 0
    n = ++rules[group]
    item[group, n] = code
    # A core diagnostic is an error or a warning case by case: only the
    # rules of plugins have one default worth saying.
    summary[group, n] = field($0, "name") ": " field($0, "summary") \
        (field($0, "default_severity") == "warning" && !core[group] ? " (warning)" : "")
}
function list(group,    i) {
    if (core[group]) {
        print "The diagnostics of the core, group"
        print ".Sy " arg(group) " :"
    } else {
        print "Group"
        if (group_code[group] != "") {
            print ".Sy " arg(group)
            print ".Pq selector Sy " arg(group_code[group]) " ,"
        } else {
            print ".Sy " arg(group) " ,"
        }
        print (opt_in[group] ? "opt-in:" : "on by default:")
    }
    print ".Bl -tag -width SBX000 -compact"
    for (i = 1; i <= rules[group]; i++) {
        print ".It Sy " arg(item[group, i])
        text(summary[group, i])
    }
    print ".El"
}
END {
    if (groups == 0) {
        print "gen-manual-lists.sh: --list-rules listed no rules" > "/dev/stderr"
        exit 1
    }
    for (g = 1; g <= groups; g++)
        if (!core[order[g]]) {
            print ".Pp"
            list(order[g])
        }
    for (g = 1; g <= groups; g++)
        if (core[order[g]]) {
            print ".Pp"
            list(order[g])
        }
}
RULES
awk -f "$here/roff.awk" -f "$work/rules.awk" "$work/rules.json" >"$work/rules"

# The page, each generated block replaced.
awk -v kinds="$work/kinds" -v rules="$work/rules" '
function copy(file,    line) {
    while ((getline line < file) > 0)
        print line
    close(file)
}
/^\.\\" BEGIN GENERATED: / {
    print
    block = $4
    if (block == "kinds")
        copy(kinds)
    else if (block == "rules")
        copy(rules)
    else {
        print "gen-manual-lists.sh: unknown block " block > "/dev/stderr"
        exit 1
    }
    skipping = 1
    found[block] = 1
    next
}
/^\.\\" END GENERATED: / { skipping = 0 }
!skipping { print }
END {
    if (skipping || !found["kinds"] || !found["rules"]) {
        print "gen-manual-lists.sh: the page lacks a BEGIN/END GENERATED pair" \
            " for kinds and rules" > "/dev/stderr"
        exit 1
    }
}
' "$page"
