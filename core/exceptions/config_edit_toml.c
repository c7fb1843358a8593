/*
 * config_edit_toml.c - where allowlist entries go in pyproject.toml (see
 * config_edit.h).
 *
 * The TOML reader records the bytes every key and value spans and how each
 * table came to be, so an entry is placed by inserting text at a known
 * offset: an array item after the last item, a `PACKAGE = [...]` line after
 * the last line of a [header] table, a new table at the end of the file.
 * Tables written inline or with dotted keys get no new lines: where those
 * would go cannot be known without rewriting what the user wrote.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_edit_internal.h"
#include "hash.h"
#include "terminal.h"
#include "toml/toml.h"
#include "toml/toml_write.h"
#include "utf8.h"
#include "xalloc.h"

#define MULTI_LINE_INDENT "    "

/* The group tables an allowlist may be written in (config_toml.c reads
 * the inspect-evals-lint one only for these groups). */
static bool inspect_evals_group(const char *group, size_t length)
{
    return (length == 18 && memcmp(group, "sandbox_privileges", 18) == 0) ||
           (length == 7 && memcmp(group, "IESC001", 7) == 0);
}

static const struct toml_value *child(const struct toml_value *table, const char *key,
                                      size_t length)
{
    return toml_kind(table) == TOML_TABLE ? toml_table_getn(table, key, length, NULL) : NULL;
}

/* The tables of group, in document order: [tool.sandlint.allowlists.GROUP]
 * and, for the inspect-evals-lint groups, its table (not for path scopes:
 * own_only). */
struct group_tables {
    const struct toml_value *tables[2];
    size_t count;
};

static void find_group_tables(const struct toml_value *root, const char *group,
                              size_t group_length, bool own_only, struct group_tables *found)
{
    found->count = 0;
    const struct toml_value *tool = child(root, "tool", 4);
    if (tool == NULL)
        return;
    static const char *const owners[] = { "sandlint", "inspect-evals-lint" };
    for (size_t o = 0; o < 2; o++) {
        if (o == 1 && (own_only || !inspect_evals_group(group, group_length)))
            continue;
        const struct toml_value *owner = child(tool, owners[o], strlen(owners[o]));
        const struct toml_value *allowlists = owner ? child(owner, "allowlists", 10) : NULL;
        const struct toml_value *table = allowlists ? child(allowlists, group, group_length)
                                                    : NULL;
        if (table != NULL && toml_kind(table) == TOML_TABLE)
            found->tables[found->count++] = table;
    }
    if (found->count == 2 && toml_value_span(found->tables[1]).start <
                                 toml_value_span(found->tables[0]).start) {
        const struct toml_value *first = found->tables[1];
        found->tables[1] = found->tables[0];
        found->tables[0] = first;
    }
}

/* Index of key in table, or -1. */
static long entry_index(const struct toml_value *table, const char *key, size_t length)
{
    size_t index = toml_table_index(table, key, length);
    return index == TOML_NO_INDEX ? -1 : (long)index;
}

/* Whether a scope is a path (config_file.h): those never go to an
 * inspect-evals-lint table. */
static bool is_path_scope(const struct config_edit_entry *entry)
{
    return memchr(entry->scope, '/', entry->scope_length) != NULL;
}

static const char *origin_described(enum toml_table_origin origin)
{
    switch (origin) {
    case TOML_TABLE_INLINE:
        return "it is an inline table";
    case TOML_TABLE_DOTTED:
        return "it is made by dotted keys";
    case TOML_TABLE_IMPLICIT:
        return "it has no header of its own";
    default:
        return "it is not a [header] table";
    }
}

static struct config_pos pos_of(const struct toml_value *value)
{
    struct toml_pos pos = toml_value_pos(value);
    struct config_pos out = { pos.line, pos.column };
    return out;
}

/* The text's TOML document, or NULL with *error at the syntax error. */
static struct toml_doc *parse_document(const char *text, size_t length,
                                       struct config_error *error)
{
    struct toml_error parse_error;
    struct toml_doc *doc = toml_parse(text, length, &parse_error);
    if (doc == NULL) {
        struct config_pos pos = { parse_error.pos.line, parse_error.pos.column };
        config_fail(error, pos, "%s", parse_error.message);
    }
    return doc;
}

/* ------------------------------------------------------------------ */
/* writing TOML                                                        */

static int refuse_not_utf8(const struct config_edit_entry *entry,
                           struct config_error *error)
{
    struct config_pos none = { 0, 0 };
    char *key = terminal_escape(entry->key, entry->key_length);
    char *scope = terminal_escape(entry->scope, entry->scope_length);
    config_fail(error, none, "cannot write allowlist entry '%s' for '%s' in "
                "pyproject.toml: TOML text must be UTF-8", key, scope);
    free(key);
    free(scope);
    return -1;
}

static int check_writable(const struct config_edit_entry *entry, struct config_error *error)
{
    struct text_buffer scratch = { NULL, 0, 0 };
    bool writable = toml_write_string(&scratch, entry->group, entry->group_length) &&
                    toml_write_string(&scratch, entry->scope, entry->scope_length) &&
                    toml_write_string(&scratch, entry->key, entry->key_length);
    free(scratch.bytes);
    return writable ? 0 : refuse_not_utf8(entry, error);
}

/* SCOPE = ["KEY"], or a multi-line array for several keys. */
static void append_scope_lines(struct text_buffer *out,
                                 const struct config_edit_entry *const *entries,
                                 size_t count, const char *newline)
{
    toml_write_key(out, entries[0]->scope, entries[0]->scope_length);
    text_buffer_add_string(out, " = [");
    if (count == 1) {
        toml_write_string(out, entries[0]->key, entries[0]->key_length);
        text_buffer_add_string(out, "]");
        text_buffer_add_string(out, newline);
        return;
    }
    text_buffer_add_string(out, newline);
    for (size_t i = 0; i < count; i++) {
        text_buffer_add_string(out, MULTI_LINE_INDENT);
        toml_write_string(out, entries[i]->key, entries[i]->key_length);
        text_buffer_add_string(out, ",");
        text_buffer_add_string(out, newline);
    }
    text_buffer_add_string(out, "]");
    text_buffer_add_string(out, newline);
}

/* Inserts block (whole lines) at offset at, the start of a line or the end
 * of the text; a text without a final newline keeps having none. */
static void insert_lines(struct text_edits *edits, const char *text, size_t length,
                         size_t at, const struct text_buffer *block, const char *newline)
{
    if (at < length || (length > 0 && text[length - 1] == '\n') || length == 0) {
        text_edits_insert(edits, at, block->bytes, block->length);
        return;
    }
    struct text_buffer moved = { NULL, 0, 0 };
    text_buffer_add_string(&moved, newline);
    text_buffer_add(&moved, block->bytes, block->length - strlen(newline));
    text_edits_insert(edits, at, moved.bytes, moved.length);
    free(moved.bytes);
}

/* ------------------------------------------------------------------ */
/* arrays                                                              */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static size_t skip_blanks(const char *text, size_t length, size_t at)
{
    while (at < length && is_blank(text[at]))
        at++;
    return at;
}

/* Skips blanks, newlines and comments, as between array items. */
static size_t skip_filler(const char *text, size_t length, size_t at)
{
    for (;;) {
        at = skip_blanks(text, length, at);
        if (at < length && text[at] == '#') {
            while (at < length && text[at] != '\n')
                at++;
        }
        if (at < length && (text[at] == '\n' || text[at] == '\r')) {
            at++;
            continue;
        }
        return at;
    }
}

static bool spans_lines(const char *text, struct toml_span span)
{
    return memchr(text + span.start, '\n', span.end - span.start) != NULL;
}

/* Offset of the comma after an item, or 0 when there is none. */
static size_t comma_after(const char *text, size_t length, size_t end)
{
    size_t at = skip_filler(text, length, end);
    return at < length && text[at] == ',' ? at : 0;
}

/* Whether only blanks precede the item on its line and only its comma, a
 * comment and blanks follow it: deleting the line then deletes the item
 * and its comma.  An item whose comma starts a later line is not alone (the
 * last item needs no comma). */
static bool alone_on_line(const char *text, size_t length, struct toml_span item)
{
    for (size_t at = line_start_of(text, item.start); at < item.start; at++)
        if (!is_blank(text[at]))
            return false;
    size_t at = skip_blanks(text, length, item.end);
    if (at < length && text[at] == ',') {
        at = skip_blanks(text, length, at + 1);
    } else {
        size_t next = skip_filler(text, length, at);
        if (next >= length || text[next] != ']')
            return false;
    }
    if (at < length && text[at] == '#')
        while (at < length && text[at] != '\n')
            at++;
    return at == length || text[at] == '\n' || (text[at] == '\r' && at + 1 < length &&
                                                 text[at + 1] == '\n');
}

/* The indentation for a new item line below item: the blanks that start
 * item's line, or, when the item follows the '[' on its line, blanks up to
 * the item's column. */
static void item_indent(const char *text, struct toml_span item,
                        struct text_buffer *indent)
{
    size_t start = line_start_of(text, item.start);
    size_t at = start;
    while (at < item.start && is_blank(text[at]))
        at++;
    if (at == item.start) {
        text_buffer_add(indent, text + start, at - start);
        return;
    }
    for (at = start; at < item.start; at++) {
        if (text[at] == '\t')
            text_buffer_add_string(indent, "\t");
        else if (((unsigned char)text[at] & 0xC0) != 0x80)
            text_buffer_add_string(indent, " ");
    }
}

/* Appends keys to an array of strings, in its style. */
static void append_to_array(struct text_edits *edits, const char *text, size_t length,
                            const struct toml_value *array,
                            const struct config_edit_entry *const *entries, size_t count,
                            const char *newline)
{
    struct toml_span span = toml_value_span(array);
    size_t items = toml_array_size(array);
    struct text_buffer out = { NULL, 0, 0 };
    if (items == 0) {
        size_t close = span.end - 1;
        if (!spans_lines(text, span)) {
            /* [] becomes ["a", "b"]: the inside is only blanks. */
            for (size_t i = 0; i < count; i++) {
                if (i > 0)
                    text_buffer_add_string(&out, ", ");
                toml_write_string(&out, entries[i]->key, entries[i]->key_length);
            }
            text_edits_replace(edits, span.start + 1, close, out.bytes, out.length);
        } else {
            /* One line each, above the line of the ']'. */
            size_t close_line = line_start_of(text, close);
            struct text_buffer indent = { NULL, 0, 0 };
            size_t at = close_line;
            while (at < close && is_blank(text[at]))
                at++;
            text_buffer_add(&indent, text + close_line, at - close_line);
            text_buffer_add_string(&indent, MULTI_LINE_INDENT);
            for (size_t i = 0; i < count; i++) {
                text_buffer_add(&out, indent.bytes, indent.length);
                toml_write_string(&out, entries[i]->key, entries[i]->key_length);
                text_buffer_add_string(&out, ",");
                text_buffer_add_string(&out, newline);
            }
            text_edits_insert(edits, close_line, out.bytes, out.length);
            free(indent.bytes);
        }
        free(out.bytes);
        return;
    }
    struct toml_span last = toml_value_span(toml_array_get(array, items - 1));
    size_t comma = comma_after(text, length, last.end);
    bool trailing_comma = comma != 0;
    if (!spans_lines(text, span)) {
        /* Inline: ", "new"" after the last item (a trailing comma stays
         * last); the separator is the one the array uses. */
        const char *separator = ", ";
        if (items > 1) {
            struct toml_span first = toml_value_span(toml_array_get(array, 0));
            size_t between = comma_after(text, length, first.end);
            if (between != 0 && between + 1 < length && !is_blank(text[between + 1]))
                separator = ",";
        }
        for (size_t i = 0; i < count; i++) {
            text_buffer_add_string(&out, separator);
            toml_write_string(&out, entries[i]->key, entries[i]->key_length);
        }
        text_edits_insert(edits, last.end, out.bytes, out.length);
        free(out.bytes);
        return;
    }
    struct text_buffer indent = { NULL, 0, 0 };
    item_indent(text, last, &indent);
    size_t after = trailing_comma ? comma + 1 : last.end;
    size_t next = skip_blanks(text, length, after);
    if (next < length && text[next] == ']') {
        /* The ']' closes the last item's line: new lines before it. */
        for (size_t i = 0; i < count; i++) {
            if (!trailing_comma || i > 0)
                text_buffer_add_string(&out, ",");
            text_buffer_add_string(&out, newline);
            text_buffer_add(&out, indent.bytes, indent.length);
            toml_write_string(&out, entries[i]->key, entries[i]->key_length);
        }
        if (trailing_comma)
            text_buffer_add_string(&out, ",");
        text_edits_insert(edits, after, out.bytes, out.length);
    } else {
        /* Whole lines after the last item's line, comma style kept. */
        if (!trailing_comma)
            text_edits_insert(edits, last.end, ",", 1);
        for (size_t i = 0; i < count; i++) {
            text_buffer_add(&out, indent.bytes, indent.length);
            toml_write_string(&out, entries[i]->key, entries[i]->key_length);
            if (trailing_comma || i + 1 < count)
                text_buffer_add_string(&out, ",");
            text_buffer_add_string(&out, newline);
        }
        size_t line_end = line_end_of(text, length, after);
        insert_lines(edits, text, length, line_end, &out, newline);
    }
    free(indent.bytes);
    free(out.bytes);
}

/* ------------------------------------------------------------------ */
/* additions                                                           */

/* Where new `PACKAGE = ...` lines go in a [header] table: after the line
 * of its last entry, or after the header's line. */
static size_t end_of_table(const char *text, size_t length, const struct toml_value *table)
{
    size_t last = toml_value_span(table).end;
    for (size_t i = 0; i < toml_table_size(table); i++) {
        const struct toml_value *value = toml_table_entry(table, i, NULL, NULL, NULL);
        if (toml_value_span(value).end > last)
            last = toml_value_span(value).end;
    }
    return line_end_of(text, length, last);
}

static int fail_at_value(struct config_error *error, const struct toml_value *value,
                         const char *format, const struct config_edit_entry *entry,
                         const char *detail)
{
    char *scope = terminal_escape(entry->scope, entry->scope_length);
    char *group = terminal_escape(entry->group, entry->group_length);
    config_fail(error, pos_of(value), format, scope, group, detail);
    free(scope);
    free(group);
    return -1;
}

/* Adds the keys of one scope that has entries already: to its array
 * (the later one when both tables list it). */
static int add_to_scope(struct text_edits *edits, const char *text, size_t length,
                          const struct group_tables *tables,
                          const struct config_edit_entry *const *entries, size_t count,
                          const char *newline, bool *placed, struct config_error *error)
{
    const struct toml_value *value = NULL;
    size_t value_start = 0;
    for (size_t t = 0; t < tables->count; t++) {
        long index = entry_index(tables->tables[t], entries[0]->scope,
                                 entries[0]->scope_length);
        if (index < 0)
            continue;
        struct toml_span key = toml_table_key_span(tables->tables[t], (size_t)index);
        if (value == NULL || key.start >= value_start) {
            value = toml_table_entry(tables->tables[t], (size_t)index, NULL, NULL, NULL);
            value_start = key.start;
        }
    }
    *placed = value != NULL;
    if (value == NULL)
        return 0;
    if (toml_kind(value) != TOML_ARRAY)
        return fail_at_value(error, value, "cannot add to the allowlist of '%s' "
                             "for %s: its entry is one string%s; write it as an array "
                             "(SCOPE = [\"KEY\"]) first", entries[0], "");
    append_to_array(edits, text, length, value, entries, count, newline);
    return 0;
}

/* A new [tool.sandlint.allowlists.GROUP] table needs tool, tool.sandlint
 * and tool.sandlint.allowlists to be tables a header can extend. */
static int check_new_table(const struct toml_value *root,
                           const struct config_edit_entry *entry, struct config_error *error)
{
    static const char *const path[] = { "tool", "sandlint", "allowlists" };
    static const char *const shown[] = { "tool", "tool.sandlint", "tool.sandlint.allowlists" };
    const struct toml_value *table = root;
    for (size_t i = 0; i < 3 && table != NULL; i++) {
        table = child(table, path[i], strlen(path[i]));
        if (table == NULL)
            return 0;
        if (toml_kind(table) == TOML_TABLE && toml_table_origin(table) != TOML_TABLE_INLINE)
            continue;
        char *group = terminal_escape(entry->group, entry->group_length);
        config_fail(error, pos_of(table), "cannot add a [tool.sandlint.allowlists.%s] "
                    "table: %s is %s here; write it as a [%s] table", group, shown[i],
                    toml_kind(table) == TOML_TABLE ? "an inline table" : "not a table",
                    shown[i]);
        free(group);
        return -1;
    }
    return 0;
}

int toml_plan_additions(const char *text, size_t length, const struct config *config,
                        const struct edit_additions *additions, struct text_edits *edits,
                        struct config_error *error)
{
    (void)config;
    for (size_t a = 0; a < additions->count; a++)
        if (check_writable(additions->entries[a], error) != 0)
            return -1;
    struct toml_doc *doc = parse_document(text, length, error);
    if (doc == NULL)
        return -1;
    const struct toml_value *root = toml_doc_root(doc);
    const char *newline = additions->newline;
    struct text_buffer new_tables = { NULL, 0, 0 };
    int result = 0;
    for (size_t first = 0, end; first < additions->count && result == 0; first = end) {
        const struct config_edit_entry *group = additions->entries[first];
        for (end = first; end < additions->count && same_group(additions->entries[end], group);)
            end++;
        /* Package scopes may go to either table of the group; path scopes
         * only to sandlint's own. */
        struct group_tables all_tables, own_tables;
        find_group_tables(root, group->group, group->group_length, false, &all_tables);
        find_group_tables(root, group->group, group->group_length, true, &own_tables);
        const struct toml_value *targets[2] = {
            all_tables.count > 0 ? all_tables.tables[all_tables.count - 1] : NULL,
            own_tables.count > 0 ? own_tables.tables[own_tables.count - 1] : NULL,
        };
        /* New scope lines for each target (one buffer when both are one
         * table), and for a new table when a target is missing. */
        struct text_buffer new_scopes[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
        struct text_buffer new_table_lines = { NULL, 0, 0 };
        for (size_t a = first, scope_end; a < end && result == 0; a = scope_end) {
            for (scope_end = a; scope_end < end &&
                                same_scope(additions->entries[scope_end],
                                           additions->entries[a]);)
                scope_end++;
            const struct config_edit_entry *const *entries = additions->entries + a;
            size_t count = scope_end - a;
            size_t kind = is_path_scope(entries[0]) ? 1 : 0;
            bool placed;
            result = add_to_scope(edits, text, length, kind ? &own_tables : &all_tables,
                                  entries, count, newline, &placed, error);
            if (result != 0 || placed)
                continue;
            const struct toml_value *target = targets[kind];
            if (target != NULL && toml_table_origin(target) != TOML_TABLE_HEADER) {
                char detail[64];
                snprintf(detail, sizeof(detail), " (%s)",
                         origin_described(toml_table_origin(target)));
                result = fail_at_value(error, target, "cannot add '%s' to the "
                                       "allowlist table of %s here%s; write the group as "
                                       "a [tool.sandlint.allowlists.GROUP] table",
                                       entries[0], detail);
                continue;
            }
            if (target == NULL)
                append_scope_lines(&new_table_lines, entries, count, newline);
            else
                append_scope_lines(&new_scopes[kind == 1 && targets[1] == targets[0] ? 0 : kind],
                                   entries, count, newline);
        }
        for (size_t t = 0; t < 2 && result == 0; t++)
            if (new_scopes[t].length > 0)
                insert_lines(edits, text, length, end_of_table(text, length, targets[t]),
                             &new_scopes[t], newline);
        if (result == 0 && new_table_lines.length > 0 &&
            (result = check_new_table(root, group, error)) == 0) {
            text_buffer_add_string(&new_tables, newline);
            text_buffer_add_string(&new_tables, "[tool.sandlint.allowlists.");
            toml_write_key(&new_tables, group->group, group->group_length);
            text_buffer_add_string(&new_tables, "]");
            text_buffer_add_string(&new_tables, newline);
            text_buffer_add(&new_tables, new_table_lines.bytes, new_table_lines.length);
        }
        free(new_scopes[0].bytes);
        free(new_scopes[1].bytes);
        free(new_table_lines.bytes);
    }
    if (result == 0 && new_tables.length > 0) {
        /* At the end of the file, after a blank line (the first newline
         * of new_tables), and after a newline if the file lacks its last. */
        struct text_buffer block = { NULL, 0, 0 };
        if (length > 0 && text[length - 1] != '\n')
            text_buffer_add_string(&block, newline);
        bool ends_blank = length > 0 && line_start_of(text, length - 1) == length - 1 -
                          (length >= 2 && text[length - 2] == '\r');
        size_t from = length == 0 || ends_blank ? strlen(newline) : 0;
        text_buffer_add(&block, new_tables.bytes + from, new_tables.length - from);
        text_edits_insert(edits, length, block.bytes, block.length);
        free(block.bytes);
    }
    free(new_tables.bytes);
    toml_doc_free(doc);
    return result;
}

/* ------------------------------------------------------------------ */
/* removals                                                            */

/* One scope's value and which of its items go. */
struct value_removal {
    const struct toml_value *table;
    size_t entry;               /* in table */
    const struct toml_value *value;
    bool *items;                /* per array item; NULL for a string */
};

struct removal_list {
    struct value_removal *items;    /* owned */
    size_t count, capacity;
    struct hash_index by_value;     /* items by their value's address */
};

static bool same_pos(struct toml_pos pos, struct config_pos wanted)
{
    return pos.line == wanted.line && pos.column == wanted.column;
}

static bool pos_before(struct toml_pos pos, struct config_pos wanted)
{
    return pos.line != wanted.line ? pos.line < wanted.line : pos.column < wanted.column;
}

/* The item of an array at a position, or -1: items are in document order,
 * so a binary search finds it (arrays of many thousand keys are common). */
static long item_at(const struct toml_value *array, struct config_pos wanted)
{
    size_t low = 0, high = toml_array_size(array);
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (pos_before(toml_value_pos(toml_array_get(array, middle)), wanted))
            low = middle + 1;
        else
            high = middle;
    }
    return low < toml_array_size(array) &&
           same_pos(toml_value_pos(toml_array_get(array, low)), wanted) ? (long)low : -1;
}

static uint64_t value_hash(const struct toml_value *value)
{
    struct hasher hasher;
    hasher_init(&hasher);
    hasher_add(&hasher, &value, sizeof(value));
    return hasher_finish(&hasher);
}

/* The removal of value, made when it is first needed. */
static struct value_removal *removal_of(struct removal_list *list,
                                        const struct toml_value *table, size_t entry,
                                        const struct toml_value *value)
{
    uint64_t hash = value_hash(value);
    size_t cursor = 0, found;
    while (hash_index_next(&list->by_value, hash, &cursor, &found))
        if (list->items[found].value == value)
            return &list->items[found];
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 16;
        list->items = xrealloc(list->items, list->capacity, sizeof(*list->items));
    }
    struct value_removal *removal = &list->items[list->count];
    removal->table = table;
    removal->entry = entry;
    removal->value = value;
    removal->items = xcalloc(toml_array_size(value) + 1, sizeof(bool));
    hash_index_add(&list->by_value, hash, list->count++);
    return removal;
}

/* Records that the entry at its key position goes; false when no value of
 * the file holds it there. */
static bool mark_removal(struct removal_list *list, const struct toml_value *root,
                         const struct allowlist_entry *entry)
{
    struct group_tables tables;
    find_group_tables(root, entry->group.text, entry->group.length, false, &tables);
    for (size_t t = 0; t < tables.count; t++) {
        const struct toml_value *table = tables.tables[t];
        long index = entry_index(table, entry->scope.text, entry->scope.length);
        if (index < 0)
            continue;
        const struct toml_value *value = toml_table_entry(table, (size_t)index, NULL, NULL,
                                                          NULL);
        long item = -1;
        if (toml_kind(value) == TOML_STRING && same_pos(toml_value_pos(value), entry->key.pos))
            item = 0;
        else if (toml_kind(value) == TOML_ARRAY)
            item = item_at(value, entry->key.pos);
        if (item < 0)
            continue;
        removal_of(list, table, (size_t)index, value)->items[item] = true;
        return true;
    }
    return false;
}

/* The whole `SCOPE = ...` of a [header] table, or its value made `[]`
 * where lines cannot go (inline and dotted tables). */
static void remove_whole_value(struct text_edits *edits, const char *text, size_t length,
                               const struct value_removal *removal)
{
    struct toml_span value = toml_value_span(removal->value);
    if (toml_table_origin(removal->table) == TOML_TABLE_HEADER) {
        struct toml_span key = toml_table_key_span(removal->table, removal->entry);
        text_edits_delete(edits, line_start_of(text, key.start),
                          line_end_of(text, length, value.end));
    } else if (toml_kind(removal->value) == TOML_ARRAY) {
        text_edits_delete(edits, value.start + 1, value.end - 1);
    } else {
        text_edits_replace(edits, value.start, value.end, "[]", 2);
    }
}

/* Removes runs of items of an array that keeps at least one. */
static void remove_items(struct text_edits *edits, const char *text, size_t length,
                         const struct value_removal *removal)
{
    const struct toml_value *array = removal->value;
    size_t count = toml_array_size(array);
    bool multi_line = spans_lines(text, toml_value_span(array));
    struct toml_span last = toml_value_span(toml_array_get(array, count - 1));
    bool trailing_comma = comma_after(text, length, last.end) != 0;
    for (size_t first = 0; first < count;) {
        if (!removal->items[first]) {
            first++;
            continue;
        }
        size_t end = first;
        bool alone = multi_line;
        while (end < count && removal->items[end]) {
            alone = alone && alone_on_line(text, length,
                                           toml_value_span(toml_array_get(array, end)));
            end++;
        }
        struct toml_span run_first = toml_value_span(toml_array_get(array, first));
        struct toml_span run_last = toml_value_span(toml_array_get(array, end - 1));
        if (alone) {
            /* Lines of their own go whole. */
            text_edits_delete(edits, line_start_of(text, run_first.start),
                              line_end_of(text, length, run_last.end));
            if (end == count && !trailing_comma) {
                /* The new last item must not end with a comma it did not have. */
                struct toml_span kept = toml_value_span(toml_array_get(array, first - 1));
                size_t comma = comma_after(text, length, kept.end);
                if (comma != 0)
                    text_edits_delete(edits, comma, comma + 1);
            }
        } else if (end < count) {
            /* Up to the next kept item: the items, their commas, what is
             * between. */
            text_edits_delete(edits, run_first.start,
                              toml_value_span(toml_array_get(array, end)).start);
        } else {
            /* The last items: from the end of the last kept one. */
            text_edits_delete(edits, toml_value_span(toml_array_get(array, first - 1)).end,
                              run_last.end);
        }
        first = end;
    }
}

int toml_plan_removals(const char *text, size_t length, const struct config *config,
                       const struct edit_removals *removals, struct text_edits *edits,
                       struct config_error *error)
{
    struct toml_doc *doc = parse_document(text, length, error);
    if (doc == NULL)
        return -1;
    struct removal_list list = { NULL, 0, 0, HASH_INDEX_INIT };
    int result = 0;
    for (size_t i = 0; i < config->entry_count && result == 0; i++) {
        if (!removals->remove[i])
            continue;
        if (!mark_removal(&list, toml_doc_root(doc), &config->entries[i])) {
            config_fail(error, removals->original_pos[i], "cannot update the allowlist "
                        "safely: this entry was not found where it was read; the file "
                        "was not changed");
            result = -1;
        }
    }
    for (size_t r = 0; r < list.count && result == 0; r++) {
        const struct value_removal *removal = &list.items[r];
        size_t count = toml_kind(removal->value) == TOML_ARRAY
                           ? toml_array_size(removal->value) : 1;
        size_t removed = 0;
        for (size_t i = 0; i < count; i++)
            removed += removal->items[i];
        if (removed == count)
            remove_whole_value(edits, text, length, removal);
        else
            remove_items(edits, text, length, removal);
    }
    for (size_t r = 0; r < list.count; r++)
        free(list.items[r].items);
    free(list.items);
    hash_index_release(&list.by_value);
    toml_doc_free(doc);
    return result;
}
