# explain.awk - reads one rule's documentation as `sandlint --explain CODE`
# prints it (unwrapped: COLUMNS=1000000) and hands each part to a renderer,
# a second awk program given with this one (awk -f man/explain.awk -f
# RENDERER): man/gen-rules-man.sh renders mdoc for sandlint-rules(7),
# docs/gen-rule-pages.sh Markdown for docs/rules/CODE.md.  One reading of
# the text, so the two cannot understand it differently.
#
# The text: "CODE name: summary"; "  group G[ (SELECTOR)], plugin P, default
# severity S[ (configured: S)][, opt-in]"; optional "  kinds: K, K" and
# "  documentation: URL" (the pages are the documentation: not passed on);
# then sections, a title at column 0 and lines indented by two spaces.
#
# The renderer defines:
#   render_header(code, name, summary, group, selector, plugin, severity, opt_in)
#   render_kinds(list)                  "compose, agent-env"
#   render_section(title, mode)         mode: prose, keys, options, example
#   render_section_end(), render_end()
# for prose ("What it reports", "Why it matters", "How to fix"), where a
# line is a paragraph, "- " a bullet item (deeper indentation nests a list
# or continues an item) and an indented line outside a list a literal
# display:
#   render_paragraph(text)              after lists and displays are closed
#   render_list_open(depth), render_list_close(depth)
#   render_item(depth, text), render_item_paragraph(depth, text, blanks)
#   render_display_line(text, blanks)   a display opens at its first line
#   render_display_close()
# and per line of the other modes (blanks: empty lines before it):
#   render_key(line, blanks), render_example(line, blanks)
#   render_option(name, rest), render_option_summary(text),
#   render_options_text(line)           "Set under [rule CODE] ..."
# Helpers for renderers: ltrim(), rtrim(), capitalise().
function ltrim(s) { sub(/^[ \t]+/, "", s); return s }
function rtrim(s) { sub(/[ \t]+$/, "", s); return s }
function capitalise(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }

function explain_close_display() {
    if (explain_in_display)
        render_display_close()
    explain_in_display = 0
}
function explain_close_lists(to) {
    while (explain_depth > to)
        render_list_close(explain_depth--)
}
function explain_end_section() {
    explain_close_display()
    explain_close_lists(0)
    if (explain_in_section)
        render_section_end()
    explain_in_section = 0
    explain_blanks = 0
}
function explain_prose(line,    indent, body) {
    match(line, /^ */)
    indent = RLENGTH
    body = substr(line, indent + 1)
    if (body ~ /^- /) {
        explain_close_display()
        while (explain_depth > 0 && indent < explain_list_indent[explain_depth])
            render_list_close(explain_depth--)
        if (explain_depth == 0 || indent > explain_list_indent[explain_depth]) {
            explain_list_indent[++explain_depth] = indent
            render_list_open(explain_depth)
        }
        render_item(explain_depth, substr(body, 3))
    } else if (explain_depth > 0 && indent > explain_list_indent[explain_depth]) {
        explain_close_display()
        render_item_paragraph(explain_depth, body, explain_blanks)
    } else if (indent >= 2 && explain_depth == 0) {
        if (!explain_in_display) {
            explain_in_display = 1
            explain_display_indent = indent
            explain_blanks = 0
        }
        if (indent >= explain_display_indent)
            body = substr(line, explain_display_indent + 1)
        render_display_line(body, explain_blanks)
    } else {
        explain_close_display()
        explain_close_lists(0)
        render_paragraph(body)
    }
    explain_blanks = 0
}

NR == 1 {
    explain_code = $1
    rest = substr($0, length(explain_code) + 2)
    at = index(rest, ": ")
    explain_name = at ? substr(rest, 1, at - 1) : rest
    explain_summary = at ? substr(rest, at + 2) : ""
    next
}
NR == 2 && /^  group / {
    info = substr($0, 9)
    group = info
    sub(/[ ,].*/, "", group)
    selector = ""
    if (match(info, /^[^ ,]+ \([^)]*\)/))
        selector = substr(info, length(group) + 3, RLENGTH - length(group) - 3)
    plugin = ""
    if (match(info, /, plugin [^,]+/))
        plugin = substr(info, RSTART + 9, RLENGTH - 9)
    severity = ""
    if (match(info, /, default severity [a-z]+/))
        severity = substr(info, RSTART + 19, RLENGTH - 19)
    render_header(explain_code, explain_name, explain_summary, group, selector, plugin,
                  severity, info ~ /, opt-in$/)
    explain_header_done = 1
    next
}
!explain_header_done && NR == 2 {
    render_header(explain_code, explain_name, explain_summary, "", "", "", "", 0)
    explain_header_done = 1
}
/^  kinds: / && !explain_sections {
    render_kinds(substr($0, 10))
    next
}
/^  documentation: / && !explain_sections {
    next
}
/^[^ ]/ {
    explain_end_section()
    explain_sections = 1
    explain_in_section = 1
    explain_title = rtrim($0)
    explain_mode = "prose"
    if (explain_title == "Example")
        explain_mode = "example"
    else if (explain_title == "Allowlist key")
        explain_mode = "keys"
    else if (explain_title == "Options")
        explain_mode = "options"
    render_section(explain_title, explain_mode)
    next
}
/^[ \t]*$/ {
    explain_blanks++
    next
}
{
    line = $0
    sub(/^  /, "", line)
    if (explain_mode == "example")
        render_example(line, explain_blanks)
    else if (explain_mode == "keys")
        render_key(rtrim(line), explain_blanks)
    else if (explain_mode == "options") {
        if (line ~ /^[a-z0-9_-]+ \(/) {
            name = line
            sub(/ .*/, "", name)
            render_option(name, substr(line, length(name) + 2))
        } else if (line ~ /^ /)
            render_option_summary(ltrim(line))
        else
            render_options_text(line)
    } else
        explain_prose(line)
    explain_blanks = 0
}
END {
    if (NR == 1)
        render_header(explain_code, explain_name, explain_summary, "", "", "", "", 0)
    explain_end_section()
    render_end()
}
