/*
 * toml.c - sandlint's TOML 1.0 reader: the document (see toml.h).
 *
 * One recursive-descent parser over the whole input.  Recursion happens
 * only for nested arrays and inline tables and is bounded by
 * TOML_MAX_DEPTH; tables nested by headers and dotted keys are walked in
 * loops.  Errors unwind with longjmp() (toml_parser.h).
 *
 * Which keys may be added to a table (TOML 1.0, "Table" and "Keys") follows
 * from its origin, kept on every table:
 *   HEADER     defined by a [header] (or an element of a [[header]] array):
 *              may not be defined again, nor extended by dotted keys from
 *              another section.
 *   INLINE     an inline table or a table created inside one: complete once
 *              the inline table is closed.
 *   DOTTED     created by dotted keys in some section: only that section may
 *              add keys to it through dotted keys, and no [header] may define
 *              it.
 *   IMPLICIT   created as a parent by a header path such as [a.b]: may later
 *              be defined once by [a], or claimed by the dotted keys of one
 *              section (it then becomes DOTTED).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_file.h"
#include "terminal.h"
#include "toml_parser.h"
#include "utf8.h"
#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* errors                                                              */

void parser_fail_at(struct parser *parser, struct toml_pos pos, const char *format, ...)
{
    va_list args;
    parser->error->pos = pos;
    va_start(args, format);
    vsnprintf(parser->error->message, sizeof(parser->error->message), format, args);
    va_end(args);
    longjmp(parser->on_error, 1);
}

const char *parser_describe(const struct parser *parser, size_t at, char *buffer,
                            size_t size)
{
    if (at >= parser->length)
        return "end of file";
    unsigned char c = parser->input[at];
    switch (c) {
    case '\n':
        return "newline";
    case '\t':
        return "tab";
    case ' ':
        return "space";
    case '\r':
        if (at + 1 < parser->length && parser->input[at + 1] == '\n')
            return "newline";
        return "carriage return (U+000D)";
    default:
        break;
    }
    if (c < 0x20 || c == 0x7F) {
        snprintf(buffer, size, "control character U+%04X", c);
        return buffer;
    }
    if (c < 0x80) {
        snprintf(buffer, size, "'%c'", c);
        return buffer;
    }
    /* The input is valid UTF-8 by now. */
    uint32_t code = 0;
    size_t length = utf8_decode(parser->input + at, parser->length - at, &code);
    char *shown = terminal_escape((const char *)parser->input + at, length ? length : 1);
    snprintf(buffer, size, "'%s' (U+%04X)", shown, (unsigned)code);
    free(shown);
    return buffer;
}

void parser_fail_found(struct parser *parser, const char *what)
{
    char found[48];
    parser_fail_at(parser, parser_here(parser), "%s, found %s", what,
                   parser_describe(parser, parser->offset, found, sizeof(found)));
}

void parser_show_key(const char *key, size_t key_length, char *buffer, size_t size)
{
    /* At most about 60 bytes of the key, cut at a character boundary, and
     * shorter still when escapes would not fit in the buffer. */
    size_t shown_length = 0;
    while (shown_length < key_length) {
        size_t step = utf8_decode((const unsigned char *)key + shown_length,
                                  key_length - shown_length, NULL);
        if (step == 0)
            step = 1;
        if (shown_length + step > 60)
            break;
        shown_length += step;
    }
    for (;;) {
        char *shown = terminal_escape(key, shown_length);
        const char *cut = shown_length < key_length ? "..." : "";
        bool fits = strlen(shown) + strlen(cut) < size;
        if (fits || shown_length == 0)
            snprintf(buffer, size, "%s%s", shown, cut);
        free(shown);
        if (fits || shown_length == 0)
            return;
        do
            shown_length--;
        while (shown_length > 0 && ((unsigned char)key[shown_length] & 0xC0) == 0x80);
    }
}

static const char *key_part_text(const struct parser *parser, size_t k);

/* Dotted display of the components up to last of the current key, for
 * messages: a.b."c d". */
static const char *show_key_path(const struct parser *parser, size_t last, char *buffer,
                                 size_t size)
{
    size_t used = 0;
    const size_t limit = size - 8;
    for (size_t k = 0; k <= last && k < parser->key_part_count; k++) {
        const struct key_part *part = &parser->key_parts[k];
        const char *text = key_part_text(parser, k);
        bool bare = part->length > 0;
        for (size_t i = 0; i < part->length && bare; i++)
            bare = is_bare_key_character((unsigned char)text[i]);
        char one[80];
        parser_show_key(text, part->length, one, sizeof(one));
        if (used + strlen(one) + 3 > limit) {
            memcpy(buffer + used, "...", 3);
            used += 3;
            break;
        }
        used += (size_t)snprintf(buffer + used, size - used, bare ? "%s%s" : "%s\"%s\"",
                                 k > 0 ? "." : "", one);
    }
    buffer[used] = '\0';
    return buffer;
}

/* ------------------------------------------------------------------ */
/* reading the input                                                   */

struct toml_pos parser_here(const struct parser *parser)
{
    struct toml_pos pos = { parser->line, parser->column };
    return pos;
}

struct toml_pos pos_plus_columns(struct toml_pos pos, size_t columns)
{
    pos.column += (unsigned)columns;
    return pos;
}

int parser_peek(const struct parser *parser, size_t ahead)
{
    size_t at = parser->offset + ahead;
    return at < parser->length ? parser->input[at] : -1;
}

void parser_advance(struct parser *parser, size_t count)
{
    parser->offset += count;
    parser->column += (unsigned)count;
}

void parser_advance_character(struct parser *parser)
{
    size_t step = utf8_decode(parser->input + parser->offset,
                              parser->length - parser->offset, NULL);
    parser->offset += step ? step : 1;
    parser->column++;
}

void parser_advance_newline(struct parser *parser, size_t length)
{
    parser->offset += length;
    parser->line++;
    parser->column = 1;
}

size_t parser_newline_length(const struct parser *parser)
{
    int c = parser_peek(parser, 0);
    if (c == '\n')
        return 1;
    if (c == '\r' && parser_peek(parser, 1) == '\n')
        return 2;
    return 0;
}

bool is_control_character(int c)
{
    return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7F;
}

bool is_bare_key_character(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

bool is_decimal_digit(int c)
{
    return c >= '0' && c <= '9';
}

int hex_digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Why bytes at offset at are not UTF-8, for the message. */
static void fail_invalid_utf8(struct parser *parser, size_t at, struct toml_pos pos)
{
    const unsigned char *bytes = parser->input + at;
    size_t available = parser->length - at;
    unsigned char lead = bytes[0];
    size_t expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (lead < 0xC2 || lead > 0xF4)
        parser_fail_at(parser, pos, "invalid UTF-8: unexpected byte 0x%02X", lead);
    size_t continuation = 1;
    while (continuation < expected && continuation < available &&
           (bytes[continuation] & 0xC0) == 0x80)
        continuation++;
    if (continuation == available && continuation < expected)
        parser_fail_at(parser, pos, "invalid UTF-8: sequence starting with byte 0x%02X is "
                       "truncated by the end of the file", lead);
    if (lead == 0xED && available > 1 && bytes[1] >= 0xA0 && bytes[1] <= 0xBF)
        parser_fail_at(parser, pos, "invalid UTF-8: encoded surrogate (U+D800..U+DFFF)");
    parser_fail_at(parser, pos, "invalid UTF-8: byte sequence starting with 0x%02X is an "
                   "overlong form, lies above U+10FFFF or lacks a continuation byte", lead);
}

/* The whole input must be UTF-8 (core/util/utf8.h's rules) before anything else
 * reads it, so that later stages may step over characters blindly. */
static void check_utf8(struct parser *parser)
{
    struct toml_pos pos = { 1, 1 };
    for (size_t at = parser->offset; at < parser->length;) {
        size_t step = utf8_decode(parser->input + at, parser->length - at, NULL);
        if (step == 0)
            fail_invalid_utf8(parser, at, pos);
        if (parser->input[at] == '\n') {
            pos.line++;
            pos.column = 1;
        } else {
            pos.column++;
        }
        at += step;
    }
}

/* ------------------------------------------------------------------ */
/* blanks, comments, newlines                                          */

void parser_skip_blanks(struct parser *parser)
{
    int c;
    while ((c = parser_peek(parser, 0)) == ' ' || c == '\t')
        parser_advance(parser, 1);
}

/* At '#': skips the comment up to, not including, the newline. */
static void skip_comment(struct parser *parser)
{
    char found[48];
    parser_advance(parser, 1);
    for (;;) {
        int c = parser_peek(parser, 0);
        if (c < 0 || c == '\n')
            return;
        if (c == '\r') {
            if (parser_peek(parser, 1) == '\n')
                return;
            parser_fail_at(parser, parser_here(parser), "carriage return (U+000D) not "
                           "followed by a line feed in comment");
        }
        if (is_control_character(c))
            parser_fail_at(parser, parser_here(parser), "%s is not allowed in a comment",
                           parser_describe(parser, parser->offset, found, sizeof(found)));
        parser_advance_character(parser);
    }
}

/* Skips blanks, comments and newlines (inside arrays). */
static void skip_blanks_comments_newlines(struct parser *parser)
{
    for (;;) {
        parser_skip_blanks(parser);
        if (parser_peek(parser, 0) == '#')
            skip_comment(parser);
        size_t newline = parser_newline_length(parser);
        if (newline == 0)
            return;
        parser_advance_newline(parser, newline);
    }
}

/* After a header or a key/value pair: blanks, an optional comment, then a
 * newline or the end of the input. */
static void expect_end_of_line(struct parser *parser, const char *after)
{
    char found[48];
    parser_skip_blanks(parser);
    if (parser_peek(parser, 0) == '#')
        skip_comment(parser);
    if (parser_peek(parser, 0) < 0)
        return;
    size_t newline = parser_newline_length(parser);
    if (newline > 0) {
        parser_advance_newline(parser, newline);
        return;
    }
    if (parser_peek(parser, 0) == '\r')
        parser_fail_at(parser, parser_here(parser), "carriage return (U+000D) not "
                       "followed by a line feed");
    parser_fail_at(parser, parser_here(parser), "expected a newline after %s, found %s",
                   after, parser_describe(parser, parser->offset, found, sizeof(found)));
}

/* ------------------------------------------------------------------ */
/* keys                                                                */

static bool is_key_start(int c)
{
    return is_bare_key_character(c) || c == '"' || c == '\'';
}

/* Text of component k of the current key (not NUL-terminated). */
static const char *key_part_text(const struct parser *parser, size_t k)
{
    /* An empty quoted first key leaves the buffer unallocated. */
    return parser->key_text.bytes != NULL
               ? parser->key_text.bytes + parser->key_parts[k].offset : "";
}

/* One simple key (bare or quoted), appended to the current key. */
static void parse_simple_key(struct parser *parser, const char *context)
{
    struct toml_pos pos = parser_here(parser);
    size_t start = parser->offset;
    size_t text_offset = parser->key_text.length;
    char found[48];
    int c = parser_peek(parser, 0);
    if (is_bare_key_character(c)) {
        while (is_bare_key_character(parser_peek(parser, 0)))
            parser_advance(parser, 1);
        byte_buffer_add(&parser->key_text, parser->input + start, parser->offset - start);
    } else if (c == '"' || c == '\'') {
        if (parser_peek(parser, 1) == c && parser_peek(parser, 2) == c)
            parser_fail_at(parser, pos, "multi-line strings cannot be used as keys");
        if (c == '"')
            parse_basic_string(parser, &parser->key_text);
        else
            parse_literal_string(parser, &parser->key_text);
    } else {
        parser_fail_at(parser, pos, "expected a key%s, found %s", context,
                       parser_describe(parser, parser->offset, found, sizeof(found)));
    }
    if (parser->key_part_count >= TOML_MAX_KEY_PARTS)
        parser_fail_at(parser, pos, "a dotted key or table header of more than %d parts "
                       "(each part is a table nested in the last)", TOML_MAX_KEY_PARTS);
    if (parser->key_part_count == parser->key_part_capacity) {
        parser->key_part_capacity = parser->key_part_capacity ? parser->key_part_capacity * 2
                                                              : 8;
        parser->key_parts = xrealloc(parser->key_parts, parser->key_part_capacity,
                                     sizeof(*parser->key_parts));
    }
    struct key_part *part = &parser->key_parts[parser->key_part_count++];
    part->offset = text_offset;
    part->length = parser->key_text.length - text_offset;
    part->pos = pos;
    part->span.start = start;
    part->span.end = parser->offset;
}

/* A possibly dotted key; the blanks after it are consumed too. */
static void parse_key(struct parser *parser, const char *context)
{
    parser->key_text.length = 0;
    parser->key_part_count = 0;
    parse_simple_key(parser, context);
    for (;;) {
        parser_skip_blanks(parser);
        if (parser_peek(parser, 0) != '.')
            return;
        parser_advance(parser, 1);
        parser_skip_blanks(parser);
        parse_simple_key(parser, " after '.'");
    }
}

/* ------------------------------------------------------------------ */
/* values                                                              */

static struct toml_value *parse_value(struct parser *parser);
static void parse_key_value(struct parser *parser, struct toml_value *table,
                            size_t section, bool in_inline_table);

static void enter_nesting(struct parser *parser, struct toml_pos pos)
{
    if (parser->depth >= TOML_MAX_DEPTH)
        parser_fail_at(parser, pos, "arrays and inline tables nested too deeply (limit %d)",
                       TOML_MAX_DEPTH);
    parser->depth++;
}

/* At '[': an array value. */
static struct toml_value *parse_array(struct parser *parser)
{
    struct toml_pos pos = parser_here(parser);
    enter_nesting(parser, pos);
    struct toml_value *array = value_new(parser, TOML_ARRAY, pos, parser->offset);
    parser_advance(parser, 1);
    for (;;) {
        skip_blanks_comments_newlines(parser);
        int c = parser_peek(parser, 0);
        if (c == ']')
            break;
        if (c == ',')
            parser_fail_at(parser, parser_here(parser), "expected a value or ']' in array, "
                           "found ','");
        if (c < 0)
            parser_fail_at(parser, parser_here(parser), "unterminated array (opened at "
                           "%u:%u)", pos.line, pos.column);
        array_append(array, parse_value(parser));
        skip_blanks_comments_newlines(parser);
        c = parser_peek(parser, 0);
        if (c == ',') {
            parser_advance(parser, 1);
            continue;
        }
        if (c == ']')
            break;
        if (c < 0)
            parser_fail_at(parser, parser_here(parser), "unterminated array (opened at "
                           "%u:%u)", pos.line, pos.column);
        if (c == '\r')
            parser_fail_at(parser, parser_here(parser), "carriage return (U+000D) not "
                           "followed by a line feed");
        parser_fail_found(parser, "expected ',' or ']' after an array element");
    }
    parser_advance(parser, 1);
    array->span.end = parser->offset;
    parser->depth--;
    return array;
}

static bool at_newline(const struct parser *parser)
{
    return parser_newline_length(parser) > 0 || parser_peek(parser, 0) == '\r';
}

/* At '{': an inline table, which is a section of its own. */
static struct toml_value *parse_inline_table(struct parser *parser)
{
    struct toml_pos pos = parser_here(parser);
    enter_nesting(parser, pos);
    struct toml_value *table = value_new(parser, TOML_TABLE, pos, parser->offset);
    table->as.table.origin = TOML_TABLE_INLINE;
    size_t section = ++parser->last_section;
    table->as.table.section = section;
    parser_advance(parser, 1);
    parser_skip_blanks(parser);
    if (parser_peek(parser, 0) != '}') {
        for (;;) {
            parser_skip_blanks(parser);
            int c = parser_peek(parser, 0);
            if (at_newline(parser))
                parser_fail_at(parser, parser_here(parser), "newline not allowed inside "
                               "an inline table (TOML 1.0)");
            if (c < 0)
                parser_fail_at(parser, parser_here(parser), "unterminated inline table "
                               "(opened at %u:%u)", pos.line, pos.column);
            if (!is_key_start(c))
                parser_fail_found(parser, "expected a key in inline table");
            parse_key_value(parser, table, section, true);
            parser_skip_blanks(parser);
            c = parser_peek(parser, 0);
            if (c == ',') {
                parser_advance(parser, 1);
                parser_skip_blanks(parser);
                if (parser_peek(parser, 0) == '}')
                    parser_fail_at(parser, parser_here(parser), "trailing comma not "
                                   "allowed in an inline table");
                continue;
            }
            if (c == '}')
                break;
            if (c < 0)
                parser_fail_at(parser, parser_here(parser), "unterminated inline table "
                               "(opened at %u:%u)", pos.line, pos.column);
            if (at_newline(parser))
                parser_fail_at(parser, parser_here(parser), "newline not allowed inside "
                               "an inline table (TOML 1.0)");
            if (c == '#')
                parser_fail_at(parser, parser_here(parser), "comment not allowed inside "
                               "an inline table");
            parser_fail_found(parser, "expected ',' or '}' after a key/value pair in "
                              "inline table");
        }
    }
    parser_advance(parser, 1);
    table->span.end = parser->offset;
    parser->depth--;
    return table;
}

/* A string value, or a bare one. */
static struct toml_value *parse_leaf_value(struct parser *parser)
{
    struct toml_pos pos = parser_here(parser);
    size_t start = parser->offset;
    int quote = parser_peek(parser, 0);
    if (quote != '"' && quote != '\'')
        return parse_bare_value(parser);
    parser->scratch.length = 0;
    if (parser_peek(parser, 1) == quote && parser_peek(parser, 2) == quote)
        parse_multiline_string(parser, &parser->scratch, (char)quote);
    else if (quote == '"')
        parse_basic_string(parser, &parser->scratch);
    else
        parse_literal_string(parser, &parser->scratch);
    struct toml_value *value = value_new(parser, TOML_STRING, pos, start);
    value->as.string.text = xmemdup(parser->scratch.bytes != NULL ? parser->scratch.bytes
                                                                  : "",
                                    parser->scratch.length);
    value->as.string.length = parser->scratch.length;
    value->span.end = parser->offset;
    return value;
}

/* The only recursion of the reader: parse_value -> parse_array or
 * parse_inline_table (-> parse_key_value) -> parse_value, bounded by
 * TOML_MAX_DEPTH. */
static struct toml_value *parse_value(struct parser *parser)
{
    switch (parser_peek(parser, 0)) {
    case '[':
        return parse_array(parser);
    case '{':
        return parse_inline_table(parser);
    default:
        return parse_leaf_value(parser);
    }
}

/* ------------------------------------------------------------------ */
/* key/value pairs and table headers                                   */

static const char *with_article(enum toml_kind kind)
{
    switch (kind) {
    case TOML_INTEGER:
    case TOML_OFFSET_DATETIME:
    case TOML_ARRAY:
        return "an";
    default:
        return "a";
    }
}

/* Fails because key component k names an existing value that is not a
 * table that could be extended. */
static _Noreturn void fail_not_a_table(struct parser *parser, size_t k,
                                       const struct table_entry *entry)
{
    char path[160];
    const struct toml_value *value = entry->value;
    show_key_path(parser, k, path, sizeof(path));
    parser_fail_at(parser, parser->key_parts[k].pos, "cannot use '%s' as a table: it is "
                   "already defined as %s %s at %u:%u", path, with_article(value->kind),
                   toml_kind_name(value->kind), entry->key_pos.line,
                   entry->key_pos.column);
}

/* Dotted keys in section may add keys to table (component k of the key)?
 * Claims an implicit table for the section; fails otherwise. */
static void check_dotted_table(struct parser *parser, struct toml_value *table, size_t k,
                               size_t section)
{
    char path[160];
    const struct key_part *part = &parser->key_parts[k];
    if (table->as.table.section == section)
        return;
    switch (table->as.table.origin) {
    case TOML_TABLE_INLINE:
        parser_fail_at(parser, part->pos, "cannot add keys to inline table '%s' (defined at "
                       "%u:%u): inline tables are complete once closed",
                       show_key_path(parser, k, path, sizeof(path)), table->pos.line,
                       table->pos.column);
    case TOML_TABLE_HEADER:
        parser_fail_at(parser, part->pos, "cannot add keys to table '%s' with dotted keys: "
                       "it was defined by a table header at %u:%u",
                       show_key_path(parser, k, path, sizeof(path)), table->pos.line,
                       table->pos.column);
    case TOML_TABLE_DOTTED:
        parser_fail_at(parser, part->pos, "cannot add keys to table '%s' with dotted keys: "
                       "it was created by dotted keys under another table header at "
                       "%u:%u", show_key_path(parser, k, path, sizeof(path)),
                       table->pos.line, table->pos.column);
    case TOML_TABLE_ROOT:
    case TOML_TABLE_IMPLICIT:
        break;
    }
    table->as.table.origin = TOML_TABLE_DOTTED;
    table->as.table.section = section;
}

/*
 * "key =" of a key/value pair for table, in section (the [header] block or
 * inline table the pair is written in): walks or creates the tables that a
 * dotted key names and adds an entry, without a value yet, for the last
 * component.  Returns the entry's index in the table stored in *owner.
 */
static size_t parse_key_and_equals(struct parser *parser, struct toml_value *table,
                                   size_t section, bool in_inline_table,
                                   struct toml_value **owner)
{
    char found[48], path[160];
    parse_key(parser, "");
    if (parser_peek(parser, 0) != '=') {
        if (parser_peek(parser, 0) < 0 || parser_newline_length(parser) > 0 ||
            parser_peek(parser, 0) == '#')
            parser_fail_at(parser, parser_here(parser), "expected '=' after key, found %s "
                           "(a key needs a value)",
                           parser_describe(parser, parser->offset, found, sizeof(found)));
        parser_fail_at(parser, parser_here(parser), "expected '=' after key, found %s",
                       parser_describe(parser, parser->offset, found, sizeof(found)));
    }
    parser_advance(parser, 1);
    parser_skip_blanks(parser);

    size_t last = parser->key_part_count - 1;
    for (size_t k = 0; k < last; k++) {
        const struct key_part *part = &parser->key_parts[k];
        struct table_entry *entry = table_find(table, key_part_text(parser, k),
                                               part->length);
        if (entry == NULL) {
            struct toml_value *created = value_new(parser, TOML_TABLE, part->pos,
                                                   part->span.start);
            created->span = part->span;
            created->as.table.origin = in_inline_table ? TOML_TABLE_INLINE
                                                       : TOML_TABLE_DOTTED;
            created->as.table.section = section;
            table_add(table, part, key_part_text(parser, k), created);
            table = created;
            continue;
        }
        if (entry->value == NULL || entry->value->kind != TOML_TABLE)
            fail_not_a_table(parser, k, entry);
        check_dotted_table(parser, entry->value, k, section);
        table = entry->value;
    }
    const struct key_part *part = &parser->key_parts[last];
    const struct table_entry *existing = table_find(table, key_part_text(parser, last),
                                                    part->length);
    if (existing != NULL)
        parser_fail_at(parser, part->pos, "duplicate key '%s' (first defined at %u:%u)",
                       show_key_path(parser, last, path, sizeof(path)),
                       existing->key_pos.line, existing->key_pos.column);
    if (parser_peek(parser, 0) < 0 || parser_newline_length(parser) > 0 ||
        parser_peek(parser, 0) == '#')
        parser_fail_at(parser, parser_here(parser), "expected a value after '=', found %s",
                       parser_describe(parser, parser->offset, found, sizeof(found)));
    *owner = table;
    return table_add(table, part, key_part_text(parser, last), NULL);
}

static void parse_key_value(struct parser *parser, struct toml_value *table,
                            size_t section, bool in_inline_table)
{
    struct toml_value *owner;
    size_t index = parse_key_and_equals(parser, table, section, in_inline_table, &owner);
    struct toml_value *value = parse_value(parser);
    /* Nothing in the value can add keys to owner: index still holds. */
    owner->as.table.entries[index].value = value;
}

/* The tables that the components before the last of a header path name:
 * walked or created (as IMPLICIT); an array of tables stands for its last
 * element. */
static struct toml_value *walk_header_path(struct parser *parser)
{
    char path[160];
    struct toml_value *table = parser->doc->root;
    for (size_t k = 0; k + 1 < parser->key_part_count; k++) {
        const struct key_part *part = &parser->key_parts[k];
        struct table_entry *entry = table_find(table, key_part_text(parser, k),
                                               part->length);
        if (entry == NULL) {
            struct toml_value *created = value_new(parser, TOML_TABLE, part->pos,
                                                   part->span.start);
            created->span = part->span;
            created->as.table.origin = TOML_TABLE_IMPLICIT;
            table_add(table, part, key_part_text(parser, k), created);
            table = created;
            continue;
        }
        struct toml_value *value = entry->value;
        if (value->kind == TOML_ARRAY && value->as.array.of_tables) {
            table = value->as.array.items[value->as.array.count - 1];
            continue;
        }
        if (value->kind == TOML_ARRAY)
            parser_fail_at(parser, part->pos, "cannot extend '%s': it is a static array "
                           "(defined at %u:%u), not an array of tables",
                           show_key_path(parser, k, path, sizeof(path)), value->pos.line,
                           value->pos.column);
        if (value->kind != TOML_TABLE)
            fail_not_a_table(parser, k, entry);
        if (value->as.table.origin == TOML_TABLE_INLINE)
            parser_fail_at(parser, part->pos, "cannot extend inline table '%s' (defined at "
                           "%u:%u): inline tables are complete once closed",
                           show_key_path(parser, k, path, sizeof(path)), value->pos.line,
                           value->pos.column);
        table = value;
    }
    return table;
}

static const char *last_key_text(const struct parser *parser)
{
    return key_part_text(parser, parser->key_part_count - 1);
}

/* The last component of a header path: looked up in parent (NULL when
 * new), its key part, and the whole path written for messages. */
static struct table_entry *find_header_entry(struct parser *parser,
                                             struct toml_value *parent,
                                             const struct key_part **part, char *path,
                                             size_t path_size)
{
    size_t last = parser->key_part_count - 1;
    *part = &parser->key_parts[last];
    show_key_path(parser, last, path, path_size);
    return table_find(parent, last_key_text(parser), (*part)->length);
}

/* [[path]]: a new table appended to the array of tables at path. */
static struct toml_value *define_table_array_element(struct parser *parser,
                                                     struct toml_value *parent,
                                                     struct toml_pos header_pos,
                                                     struct toml_span header_span)
{
    char path[160];
    const struct key_part *part;
    struct table_entry *entry = find_header_entry(parser, parent, &part, path, sizeof(path));
    struct toml_value *array;
    if (entry == NULL) {
        array = value_new(parser, TOML_ARRAY, header_pos, header_span.start);
        array->span = header_span;
        array->as.array.of_tables = true;
        table_add(parent, part, last_key_text(parser), array);
    } else {
        array = entry->value;
        if (array->kind == TOML_ARRAY && !array->as.array.of_tables)
            parser_fail_at(parser, header_pos, "cannot append to '%s' with [[%s]]: it is a "
                           "static array (defined at %u:%u)", path, path, array->pos.line,
                           array->pos.column);
        if (array->kind != TOML_ARRAY)
            parser_fail_at(parser, header_pos, "cannot define array of tables [[%s]]: '%s' "
                           "is already defined as %s %s at %u:%u", path, path,
                           with_article(array->kind), toml_kind_name(array->kind),
                           entry->key_pos.line, entry->key_pos.column);
    }
    struct toml_value *element = value_new(parser, TOML_TABLE, header_pos, header_span.start);
    element->span = header_span;
    element->as.table.origin = TOML_TABLE_HEADER;
    array_append(array, element);
    return element;
}

/* [path]: defines the table at path, which may exist only as IMPLICIT. */
static struct toml_value *define_table(struct parser *parser, struct toml_value *parent,
                                       struct toml_pos header_pos,
                                       struct toml_span header_span)
{
    char path[160];
    const struct key_part *part;
    struct table_entry *entry = find_header_entry(parser, parent, &part, path, sizeof(path));
    struct toml_value *table;
    if (entry == NULL) {
        table = value_new(parser, TOML_TABLE, header_pos, header_span.start);
        table_add(parent, part, last_key_text(parser), table);
    } else {
        table = entry->value;
        if (table->kind == TOML_ARRAY && table->as.array.of_tables)
            parser_fail_at(parser, header_pos, "cannot define table [%s]: '%s' is an array "
                           "of tables (defined at %u:%u)", path, path, table->pos.line,
                           table->pos.column);
        if (table->kind != TOML_TABLE)
            parser_fail_at(parser, header_pos, "cannot define table [%s]: '%s' is already "
                           "defined as %s %s at %u:%u", path, path,
                           with_article(table->kind), toml_kind_name(table->kind),
                           entry->key_pos.line, entry->key_pos.column);
        switch (table->as.table.origin) {
        case TOML_TABLE_HEADER:
            parser_fail_at(parser, header_pos, "duplicate table [%s] (first defined at "
                           "%u:%u)", path, table->pos.line, table->pos.column);
        case TOML_TABLE_INLINE:
            parser_fail_at(parser, header_pos, "cannot define table [%s]: it is an inline "
                           "table (defined at %u:%u)", path, table->pos.line,
                           table->pos.column);
        case TOML_TABLE_DOTTED:
            parser_fail_at(parser, header_pos, "cannot define table [%s]: it was already "
                           "created by dotted keys at %u:%u", path, table->pos.line,
                           table->pos.column);
        case TOML_TABLE_ROOT:
        case TOML_TABLE_IMPLICIT:
            break;
        }
        table->pos = header_pos;
    }
    table->span = header_span;
    table->as.table.origin = TOML_TABLE_HEADER;
    return table;
}

/* At '[': a [table] or [[array of tables]] header, which starts a section. */
static void parse_header(struct parser *parser)
{
    struct toml_pos header_pos = parser_here(parser);
    struct toml_span header_span = { parser->offset, parser->offset };
    char found[48];
    bool table_array = false;
    parser_advance(parser, 1);
    if (parser_peek(parser, 0) == '[') {
        table_array = true;
        parser_advance(parser, 1);
    }
    parser_skip_blanks(parser);
    parse_key(parser, table_array ? " in array-of-tables header" : " in table header");
    if (parser_peek(parser, 0) != ']')
        parser_fail_at(parser, parser_here(parser), "expected '.' or ']' in table header, "
                       "found %s", parser_describe(parser, parser->offset, found,
                                                   sizeof(found)));
    parser_advance(parser, 1);
    if (table_array) {
        if (parser_peek(parser, 0) != ']')
            parser_fail_at(parser, parser_here(parser), "expected ']]' to close the "
                           "array-of-tables header, found %s",
                           parser_describe(parser, parser->offset, found, sizeof(found)));
        parser_advance(parser, 1);
    }
    header_span.end = parser->offset;
    struct toml_value *parent = walk_header_path(parser);
    parser->table = table_array
                        ? define_table_array_element(parser, parent, header_pos, header_span)
                        : define_table(parser, parent, header_pos, header_span);
    parser->section = ++parser->last_section;
}

static void parse_document(struct parser *parser)
{
    char found[48];
    for (;;) {
        parser_skip_blanks(parser);
        int c = parser_peek(parser, 0);
        if (c < 0)
            return;
        if (c == '#') {
            skip_comment(parser);
            continue;
        }
        size_t newline = parser_newline_length(parser);
        if (newline > 0) {
            parser_advance_newline(parser, newline);
            continue;
        }
        if (c == '[') {
            parse_header(parser);
            expect_end_of_line(parser, "a table header");
        } else if (is_key_start(c)) {
            parse_key_value(parser, parser->table, parser->section, false);
            expect_end_of_line(parser, "a key/value pair");
        } else if (c == '\r') {
            parser_fail_at(parser, parser_here(parser), "carriage return (U+000D) not "
                           "followed by a line feed");
        } else if (c == '=') {
            parser_fail_at(parser, parser_here(parser), "expected a key before '='");
        } else {
            parser_fail_at(parser, parser_here(parser), "expected a key, a [table] header "
                           "or a comment, found %s",
                           parser_describe(parser, parser->offset, found, sizeof(found)));
        }
    }
}

/* Runs the parser; 0 on success, -1 after an error.  Apart from
 * toml_parse() so that no local of the function that calls setjmp()
 * changes after it. */
static int run_parser(struct parser *parser)
{
    static const struct toml_pos origin = { 1, 1 };
    if (setjmp(parser->on_error))
        return -1;
    if (parser->length >= 3 && memcmp(parser->input, "\xEF\xBB\xBF", 3) == 0)
        parser->offset = 3;     /* byte order mark */
    check_utf8(parser);
    parser->doc->root = value_new(parser, TOML_TABLE, origin, 0);
    parser->doc->root->as.table.origin = TOML_TABLE_ROOT;
    parser->table = parser->doc->root;
    parser->section = parser->last_section = 1;
    parse_document(parser);
    return 0;
}

struct toml_doc *toml_parse(const char *text, size_t len, struct toml_error *err)
{
    struct toml_error unused;
    if (err == NULL)
        err = &unused;
    memset(err, 0, sizeof(*err));
    err->pos.line = err->pos.column = 1;
    if (text == NULL && len > 0) {
        snprintf(err->message, sizeof(err->message), "no input text");
        return NULL;
    }
    struct parser *parser = xcalloc(1, sizeof(*parser));
    struct toml_doc *doc = xcalloc(1, sizeof(*doc));
    parser->input = (const unsigned char *)text;
    parser->length = len;
    parser->line = 1;
    parser->column = 1;
    parser->doc = doc;
    parser->error = err;
    int result = run_parser(parser);
    free(parser->scratch.bytes);
    free(parser->key_text.bytes);
    free(parser->key_parts);
    free(parser);
    if (result != 0) {
        toml_doc_free(doc);
        return NULL;
    }
    memset(err, 0, sizeof(*err));
    return doc;
}
