# roff.awk - text for mdoc pages, shared by the generators of the manual
# (man/gen-rules-man.sh, man/gen-manual-lists.sh): given with their own
# program (awk -f man/roff.awk -f PROGRAM).  Every byte of rule text is
# escaped: backslashes, a leading "." or "'", words mdoc would read as
# macros; filled text is one sentence per line, as mdoc wants.

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
# One roff input line of escaped text; a leading control character
# becomes text.
function put(s) {
    if (s ~ /^[.']/)
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
# Filled text: one sentence per input line.
function text(s,    rest, at, cut) {
    sub(/^[ \t]+/, "", s)
    sub(/[ \t]+$/, "", s)
    s = esc(s)
    if (s == "")
        return
    rest = s
    cut = ""
    while (match(rest, /[]A-Za-z0-9)'"][.?!] +[A-Za-z]/)) {
        at = RSTART + 1
        if (substr(rest, at, 1) == "." && abbreviation(cut substr(rest, 1, at - 1))) {
            cut = cut substr(rest, 1, RSTART + RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH - 1)
            continue
        }
        wrap(cut substr(rest, 1, at))
        cut = ""
        rest = substr(rest, at + 1)
        sub(/^[ \t]+/, "", rest)
    }
    wrap(cut rest)
}
# A line of a literal display, as written.
function literal(s) {
    s = esc(s)
    sub(/[ \t]+$/, "", s)
    if (s == "")
        print ""
    else
        put(s)
}
