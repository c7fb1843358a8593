/* suppress.c - suppression comments (see suppress.h). */
#include "config.h"

#include "suppress.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "comma_list.h"
#include "string_list.h"
#include "source.h"
#include "xalloc.h"

/* A span of the text that holds characters of a token (scalar, anchor,
 * alias, tag, directive): a '#' inside one is not a comment. */
struct token_span {
    unsigned line, column, end_line, end_column;
};

struct span_list {
    struct token_span *items;
    size_t count, capacity;
};

static bool before(unsigned line_a, unsigned column_a, unsigned line_b,
                   unsigned column_b)
{
    return line_a < line_b || (line_a == line_b && column_a < column_b);
}

/* Collects the spans of the tokens that carry text.  Returns false when
 * the text does not scan (the file is then reported as a YAML error). */
static bool scan_tokens(const char *text, size_t length, struct span_list *spans)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return false;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
    bool ok = true;
    for (;;) {
        yaml_token_t token;
        if (!yaml_parser_scan(&parser, &token)) {
            ok = false;
            break;
        }
        yaml_token_type_t type = token.type;
        if (type == YAML_SCALAR_TOKEN || type == YAML_ANCHOR_TOKEN ||
            type == YAML_ALIAS_TOKEN || type == YAML_TAG_TOKEN ||
            type == YAML_TAG_DIRECTIVE_TOKEN || type == YAML_VERSION_DIRECTIVE_TOKEN) {
            if (spans->count == spans->capacity) {
                spans->capacity = spans->capacity ? spans->capacity * 2 : 256;
                spans->items = xrealloc(spans->items, spans->capacity,
                                        sizeof(*spans->items));
            }
            struct token_span *span = &spans->items[spans->count++];
            span->line = (unsigned)token.start_mark.line + 1;
            span->column = (unsigned)token.start_mark.column + 1;
            span->end_line = (unsigned)token.end_mark.line + 1;
            span->end_column = (unsigned)token.end_mark.column + 1;
        }
        yaml_token_delete(&token);
        if (type == YAML_STREAM_END_TOKEN)
            break;
    }
    yaml_parser_delete(&parser);
    return ok;
}

struct comment_directive {
    unsigned line, column;          /* where the comment is */
    unsigned target;                /* the line it covers, */
    unsigned target_end;            /* through this one (a shell command
                                       continued with '\\' is one line) */
    bool own_line;                  /* nothing but blanks before it */
    bool file_wide;
    struct string_list selectors;   /* known selectors only */
    char *reason;                   /* NULL when missing */
};

struct directive_list {
    struct comment_directive *items;
    size_t count, capacity;
};

/* The lines that hold YAML (anything but blanks and a comment), in order. */
struct line_list {
    unsigned *items;
    size_t count, capacity;
};

static void line_list_add(struct line_list *lines, unsigned line)
{
    if (lines->count == lines->capacity) {
        lines->capacity = lines->capacity ? lines->capacity * 2 : 64;
        lines->items = xrealloc(lines->items, lines->capacity, sizeof(*lines->items));
    }
    lines->items[lines->count++] = line;
}

/* The first line after line that holds YAML, or 0 when none does. */
static unsigned next_yaml_line(const struct line_list *lines, unsigned line)
{
    size_t low = 0, high = lines->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (lines->items[middle] <= line)
            low = middle + 1;
        else
            high = middle;
    }
    return low < lines->count ? lines->items[low] : 0;
}

static void problem(struct file_check *check, unsigned line, unsigned column,
                    const char *format, const char *detail)
{
    char *message = xasprintf(format, detail);
    file_check_core(check, CORE_RULE_SUPPRESSION, SL_SEVERITY_WARNING, line,
                    column, message);
    free(message);
}

static void problem_text(struct file_check *check, unsigned line,
                         unsigned column, const char *message)
{
    file_check_core(check, CORE_RULE_SUPPRESSION, SL_SEVERITY_WARNING, line,
                    column, message);
}

static const char *skip_blanks(const char *cursor, const char *end)
{
    while (cursor < end && (*cursor == ' ' || *cursor == '\t'))
        cursor++;
    return cursor;
}

static bool take(const char **cursor, const char *end, const char *word)
{
    size_t length = strlen(word);
    if ((size_t)(end - *cursor) < length || memcmp(*cursor, word, length) != 0)
        return false;
    *cursor += length;
    return true;
}

/* Whether [start, end) is exactly word. */
static bool is_word(const char *start, const char *end, const char *word)
{
    size_t length = strlen(word);
    return (size_t)(end - start) == length && memcmp(start, word, length) == 0;
}

struct selector_walk {
    struct file_check *check;
    struct comment_directive *directive;
    unsigned line, column;
    size_t written;
};

/* Keeps a selector that names a rule; reports one that does not. */
static int take_selector(void *data, const char *item, size_t length, size_t offset)
{
    (void)offset;
    struct selector_walk *walk = data;
    walk->written++;
    char *selector = xstrndup(item, length);
    if (registry_selector_known(walk->check->registry, selector))
        string_list_add(&walk->directive->selectors, selector);
    else
        problem(walk->check, walk->line, walk->column, "suppression selector "
                "'%s' names no rule (see --list-rules)", selector);
    free(selector);
    return 0;
}

/*
 * Parses the comment text [start, end) (start at '#').  Returns false for
 * an ordinary comment; true for a sandlint directive, valid or not, whose
 * problems are reported to check.
 */
static bool parse_directive(const char *start, const char *end, unsigned line,
                            unsigned column, struct file_check *check,
                            struct comment_directive *out)
{
    const char *cursor = skip_blanks(start + 1, end);
    if (!take(&cursor, end, "sandlint:") && !take(&cursor, end, "inspect-evals-lint:"))
        return false;
    memset(out, 0, sizeof(*out));
    out->line = line;
    out->column = column;
    cursor = skip_blanks(cursor, end);
    /* The directive is the word up to '[' or a blank ("ignored" is not
     * "ignore"). */
    const char *word_end = cursor;
    while (word_end < end && *word_end != ' ' && *word_end != '\t' && *word_end != '[')
        word_end++;
    if (is_word(cursor, word_end, "ignore-file"))
        out->file_wide = true;
    else if (!is_word(cursor, word_end, "ignore")) {
        char *word = xstrndup(cursor, (size_t)(word_end - cursor));
        problem(check, line, column, "unknown suppression directive '%s' "
                "(expected ignore[...] or ignore-file[...]); nothing suppressed",
                word);
        free(word);
        return true;
    }
    cursor = skip_blanks(word_end, end);
    const char *close = NULL;
    if (cursor < end && *cursor == '[')
        close = memchr(cursor, ']', (size_t)(end - cursor));
    if (close == NULL) {
        problem(check, line, column, "suppression comment needs a selector list "
                "in brackets, as in %s[SBX001]; nothing suppressed",
                out->file_wide ? "ignore-file" : "ignore");
        return true;
    }
    struct selector_walk walk = { check, out, line, column, 0 };
    comma_list_each(cursor + 1, (size_t)(close - cursor - 1), take_selector, &walk);
    size_t written = walk.written;
    if (written == 0)
        problem_text(check, line, column, "empty selector list in suppression "
                     "comment; nothing suppressed");
    cursor = skip_blanks(close + 1, end);
    if (take(&cursor, end, "--")) {
        const char *reason = skip_blanks(cursor, end);
        const char *reason_end = end;
        while (reason_end > reason && (reason_end[-1] == ' ' || reason_end[-1] == '\t'))
            reason_end--;
        if (reason_end > reason)
            out->reason = xstrndup(reason, (size_t)(reason_end - reason));
    }
    if (out->reason == NULL)
        problem_text(check, line, column, "suppression comment gives no reason "
                     "(write '-- reason' after the selectors)");
    if (out->file_wide && line > SUPPRESS_FILE_LINES) {
        problem_text(check, line, column, "ignore-file must be within the first "
                     "10 lines; this one is ignored");
        string_list_release(&out->selectors);
    }
    return true;
}

static bool covers(const struct comment_directive *directive,
                   const struct registry *registry, const struct finding *finding)
{
    if (finding->rule == CORE_RULE_SUPPRESSION)
        return false;   /* a problem with a comment is never hidden by one */
    if (!directive->file_wide &&
        (finding->line < directive->target || finding->line > directive->target_end))
        return false;
    for (size_t i = 0; i < directive->selectors.count; i++)
        if (registry_selector_matches(&registry->rules[finding->rule],
                                      directive->selectors.items[i]))
            return true;
    return false;
}

/* Suppresses the findings the directive covers; returns how many. */
static size_t apply(const struct comment_directive *directive,
                    struct file_check *check, size_t finding_count)
{
    struct file_result *result = &check->result;
    size_t comment = FINDING_NONE, suppressed = 0;
    for (size_t i = 0; i < finding_count; i++) {
        struct finding *finding = &result->findings.items[i];
        if (finding->status == STATUS_SUPPRESSED ||
            !covers(directive, check->registry, finding))
            continue;
        if (comment == FINDING_NONE)
            comment = file_result_add_comment(result, directive->line,
                                              directive->column, directive->reason);
        finding->status = STATUS_SUPPRESSED;
        finding->comment = comment;
        suppressed++;
    }
    return suppressed;
}

/* Whether one of the directive's selectors names a rule that ran: a
 * comment for a rule switched off cannot be judged unused. */
static bool names_enabled_rule(const struct comment_directive *directive,
                               const struct registry *registry)
{
    for (size_t i = 0; i < directive->selectors.count; i++)
        for (size_t r = 0; r < registry->rule_count; r++)
            if (registry->rules[r].enabled &&
                registry_selector_matches(&registry->rules[r],
                                          directive->selectors.items[i]))
                return true;
    return false;
}

/* The last line of the logical line that starts at line: lines[i] is
 * continued_to[i] when given (shell text, where a line ending in '\\'
 * goes on), else the line itself. */
static unsigned logical_end(const struct line_list *continued_to, unsigned line)
{
    if (continued_to == NULL || line == 0 || line > continued_to->count)
        return line;
    return continued_to->items[line - 1];
}

/* Applies every directive (an own-line comment covers the next line that
 * holds YAML) and reports the ones that suppressed nothing. */
static void apply_all(struct directive_list *directives, const struct line_list *lines,
                      const struct line_list *continued_to, struct file_check *check,
                      size_t finding_count)
{
    for (size_t i = 0; i < directives->count; i++) {
        struct comment_directive *directive = &directives->items[i];
        if (directive->target == 0)     /* else placed when it was read */
            directive->target = directive->own_line
                                    ? next_yaml_line(lines, directive->line)
                                    : directive->line;
        directive->target_end = logical_end(continued_to, directive->target);
        if (directive->selectors.count == 0)
            continue;   /* its problem was reported when it was read */
        if (apply(directive, check, finding_count) == 0 &&
            names_enabled_rule(directive, check->registry))
            problem_text(check, directive->line, directive->column,
                         "suppression comment matches no finding");
    }
}

static void directive_list_release(struct directive_list *directives)
{
    for (size_t i = 0; i < directives->count; i++) {
        string_list_release(&directives->items[i].selectors);
        free(directives->items[i].reason);
    }
    free(directives->items);
}

static bool has_marker(const char *text, size_t length)
{
    static const char *const markers[] = { "sandlint:", "inspect-evals-lint:" };
    for (size_t m = 0; m < 2; m++) {
        size_t marker_length = strlen(markers[m]);
        for (const char *at = text; at != NULL && (size_t)(at - text) < length;) {
            at = memchr(at, markers[m][0], length - (size_t)(at - text));
            if (at == NULL)
                break;
            if ((size_t)(text + length - at) >= marker_length &&
                memcmp(at, markers[m], marker_length) == 0)
                return true;
            at++;
        }
    }
    return false;
}

/* Whether the comment [start, end) (start at '#') is a sandlint or
 * inspect-evals-lint directive, valid or not. */
static bool is_directive(const char *start, const char *end)
{
    const char *cursor = skip_blanks(start + 1, end);
    return take(&cursor, end, "sandlint:") || take(&cursor, end, "inspect-evals-lint:");
}

/* Finds the directives of text: honoured, they suppress (suppress_apply);
 * not honoured, each is reported and nothing is suppressed
 * (suppress_refuse). */
static void read_directives(const char *text, size_t length, struct file_check *check,
                            bool honour);

void suppress_apply(const char *text, size_t length, struct file_check *check)
{
    read_directives(text, length, check, true);
}

void suppress_refuse(const char *text, size_t length, struct file_check *check)
{
    read_directives(text, length, check, false);
}

static void read_directives(const char *text, size_t length, struct file_check *check,
                            bool honour)
{
    /* Most files have no directive at all: skip the token scan. */
    if (!has_marker(text, length))
        return;
    struct span_list spans = { NULL, 0, 0 };
    if (!scan_tokens(text, length, &spans)) {
        free(spans.items);
        return;
    }
    size_t finding_count = check->result.findings.count;
    struct directive_list directives = { NULL, 0, 0 };
    struct line_list yaml_lines = { NULL, 0, 0 };
    size_t span = 0;
    unsigned line = 1, column = 1;
    bool after_blank = true;    /* a comment needs whitespace before '#' */
    bool line_has_yaml = false;
    size_t at = 0;
    while (at < length) {
        char c = text[at];
        if (c == '#' && after_blank) {
            /* Skip spans that end before this position. */
            while (span < spans.count &&
                   !before(line, column, spans.items[span].end_line,
                           spans.items[span].end_column))
                span++;
            bool inside = span < spans.count &&
                          !before(line, column, spans.items[span].line,
                                  spans.items[span].column);
            if (!inside) {
                const char *end = text + at;
                while (end < text + length && *end != '\n' && *end != '\r')
                    end++;
                struct comment_directive directive;
                if (!honour) {
                    /* The tree's author wrote it: shown, never obeyed. */
                    if (is_directive(text + at, end))
                        problem_text(check, line, column, "suppression comment not "
                                     "honoured: --untrusted");
                } else if (parse_directive(text + at, end, line, column, check,
                                           &directive)) {
                    directive.own_line = !line_has_yaml;
                    if (directives.count == directives.capacity) {
                        directives.capacity = directives.capacity ? directives.capacity * 2 : 8;
                        directives.items = xrealloc(directives.items, directives.capacity,
                                                    sizeof(*directives.items));
                    }
                    directives.items[directives.count++] = directive;
                }
                /* The rest of the line is the comment. */
                while (at < length && text[at] != '\n' && text[at] != '\r')
                    at = source_step(text, length, at, &line, &column);
                after_blank = true;
                continue;
            }
        }
        bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (!blank && !line_has_yaml) {
            line_has_yaml = true;
            line_list_add(&yaml_lines, line);
        }
        after_blank = blank;
        unsigned before_line = line;
        at = source_step(text, length, at, &line, &column);
        if (line != before_line) {
            after_blank = true;
            line_has_yaml = false;
        }
    }
    apply_all(&directives, &yaml_lines, NULL, check, finding_count);
    directive_list_release(&directives);
    free(yaml_lines.items);
    free(spans.items);
}

/* ------------------------------------------------------------------ */
/* comments a reader found (shell text, Makefiles)                     */
/* ------------------------------------------------------------------ */

/* Whether [start, end) of a line holds a byte that is neither blank nor
 * in a comment; *comment is the first comment that may reach start (the
 * comments are in text order, so each line goes on from the last). */
static bool holds_content(const char *text, size_t start, size_t end,
                          const struct comment_list *comments, size_t *comment)
{
    size_t at = start;
    for (;;) {
        while (at < end && (text[at] == ' ' || text[at] == '\t'))
            at++;
        if (at >= end)
            return false;
        while (*comment < comments->count &&
               comments->items[*comment].offset + comments->items[*comment].length <= at)
            (*comment)++;
        if (*comment >= comments->count || comments->items[*comment].offset > at)
            return true;
        /* In a comment: a block comment's middle and closing lines are
         * comment too, not the line an own-line comment speaks about. */
        at = comments->items[*comment].offset + comments->items[*comment].length;
    }
}

/* The lines that hold something besides blanks and comments, and one
 * entry per line in continued_to (continuation_ends fills them). */
static void content_lines(const char *text, size_t length, const struct comment_list *comments,
                          struct line_list *lines, struct line_list *continued_to)
{
    size_t comment = 0;
    unsigned line = 1;
    size_t at = 0;
    while (at <= length) {
        size_t start = at;
        while (at < length && text[at] != '\n')
            at++;
        size_t end = at;
        if (end > start && text[end - 1] == '\r')
            end--;
        if (holds_content(text, start, end, comments, &comment))
            line_list_add(lines, line);
        line_list_add(continued_to, line);     /* filled by continuation_ends */
        if (at >= length)
            break;
        at++;
        line++;
    }
}

/* Whether the line starting at byte start (to end) ends with '\\'. */
static bool line_continues(const char *text, size_t start, size_t end)
{
    if (end > start && text[end - 1] == '\r')
        end--;
    return end > start && text[end - 1] == '\\';
}

/* continued_to[i]: the last line of the run of continued lines that line
 * i + 1 is in. */
static void continuation_ends(const char *text, size_t length, struct line_list *continued_to)
{
    size_t count = continued_to->count;
    bool *continues = xcalloc(count ? count : 1, sizeof(*continues));
    size_t line = 0, start = 0;
    for (size_t at = 0; at <= length && line < count; at++) {
        if (at == length || text[at] == '\n') {
            continues[line++] = line_continues(text, start, at);
            start = at + 1;
        }
    }
    unsigned end = (unsigned)count;
    for (size_t i = count; i-- > 0;) {
        if (!continues[i])
            end = (unsigned)i + 1;
        continued_to->items[i] = end;
    }
    free(continues);
}

/* Whether the line comment index closes on holds content after it. */
static bool followed_by_content(const char *text, size_t length,
                                const struct comment_list *comments, size_t index)
{
    size_t start = comments->items[index].offset + comments->items[index].length;
    size_t end = start;
    while (end < length && text[end] != '\n')
        end++;
    if (end > start && text[end - 1] == '\r')
        end--;
    size_t comment = index + 1;
    return start <= length && holds_content(text, start, end, comments, &comment);
}

static void read_comment_directives(const char *text, size_t length,
                                    const struct comment_list *comments,
                                    struct file_check *check, bool honour)
{
    if (comments->count == 0 || !has_marker(text, length))
        return;
    size_t finding_count = check->result.findings.count;
    struct directive_list directives = { NULL, 0, 0 };
    for (size_t i = 0; i < comments->count; i++) {
        const struct comment_span *span = &comments->items[i];
        if (span->text_offset == 0 || span->text_offset > length)
            continue;
        /* parse_directive reads from the delimiter's last character. */
        const char *start = text + span->text_offset - 1;
        const char *end = text + span->text_offset + span->text_length;
        struct comment_directive directive;
        if (!honour) {
            if (is_directive(start, end))
                problem_text(check, span->line, span->column,
                             "suppression comment not honoured: --untrusted");
        } else if (parse_directive(start, end, span->line, span->column, check, &directive)) {
            directive.own_line = span->own_line;
            if (span->block && followed_by_content(text, length, comments, i)) {
                /* A value after its close: the comment is on the value's
                 * line, which it covers as a comment after a value does. */
                directive.own_line = false;
                directive.target = span->end_line;
            }
            if (directives.count == directives.capacity) {
                directives.capacity = directives.capacity ? directives.capacity * 2 : 8;
                directives.items = xrealloc(directives.items, directives.capacity,
                                            sizeof(*directives.items));
            }
            directives.items[directives.count++] = directive;
        }
    }
    if (directives.count != 0) {
        struct line_list lines = { NULL, 0, 0 }, continued_to = { NULL, 0, 0 };
        content_lines(text, length, comments, &lines, &continued_to);
        continuation_ends(text, length, &continued_to);
        apply_all(&directives, &lines, &continued_to, check, finding_count);
        free(lines.items);
        free(continued_to.items);
    }
    directive_list_release(&directives);
}

void suppress_apply_comments(const char *text, size_t length,
                             const struct comment_list *comments, struct file_check *check)
{
    read_comment_directives(text, length, comments, check, true);
}

void suppress_refuse_comments(const char *text, size_t length,
                              const struct comment_list *comments, struct file_check *check)
{
    read_comment_directives(text, length, comments, check, false);
}

/* ------------------------------------------------------------------ */
/* comments of shell text inside YAML scalars (CI steps)               */
/* ------------------------------------------------------------------ */

/* The comments' offsets are the scalars' own: placed again in the file
 * by their line and column (a block scalar's text is the file's, less
 * its indentation), each to the end of its line.  A comment that is not
 * where its position says (an escape in a quoted scalar moved it) is
 * dropped. */
static void place_in_file(const char *text, size_t length, const struct comment_list *in,
                          struct comment_list *out)
{
    unsigned line = 1, column = 1;
    size_t at = 0;
    for (size_t i = 0; i < in->count; i++) {
        const struct comment_span *span = &in->items[i];
        if (span->line < line || (span->line == line && span->column < column)) {
            line = 1;   /* out of order (a step read later): from the start */
            column = 1;
            at = 0;
        }
        while (at < length && (line < span->line || (line == span->line && column < span->column)))
            at = source_step(text, length, at, &line, &column);
        if (at >= length || line != span->line || column != span->column || text[at] != '#')
            continue;
        struct comment_span placed = *span;
        placed.offset = at;
        placed.text_offset = at + 1;
        size_t end = at;
        while (end < length && text[end] != '\n' && text[end] != '\r')
            end++;
        placed.length = end - at;
        placed.text_length = end - at - 1;
        comment_list_add(out, &placed);
    }
}

static void read_step_directives(const char *text, size_t length,
                                 const struct comment_list *comments, struct file_check *check,
                                 bool honour)
{
    if (comments->count == 0)
        return;
    struct comment_list placed;
    comment_list_init(&placed);
    place_in_file(text, length, comments, &placed);
    read_comment_directives(text, length, &placed, check, honour);
    comment_list_release(&placed);
}

void suppress_apply_step_comments(const char *text, size_t length,
                                  const struct comment_list *comments, struct file_check *check)
{
    read_step_directives(text, length, comments, check, true);
}

void suppress_refuse_step_comments(const char *text, size_t length,
                                   const struct comment_list *comments, struct file_check *check)
{
    read_step_directives(text, length, comments, check, false);
}
