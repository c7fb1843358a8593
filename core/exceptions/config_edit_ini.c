/*
 * config_edit_ini.c - where allowlist entries go in .sandlint.ini, and
 * what INI cannot hold (see config_edit.h).
 *
 * Every entry is one line, `SCOPE = KEY`, so placing and removing are
 * line operations.  inih trims blanks around names and values, ends a name
 * at '=' or ':', treats ';' after a blank as a comment, and takes lines of
 * at most 198 bytes: a value that would read back differently is refused
 * rather than written.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config_edit_internal.h"
#include "terminal.h"
#include "utf8.h"
#include "xalloc.h"

/* The longest line inih takes whole (see config_ini.c). */
#define INI_LINE_LIMIT 198

struct line {
    size_t start, text_end, end;    /* text [start, text_end), then its
                                       newline up to end (none on a last
                                       line without one) */
};

struct lines {
    struct line *items;         /* items[0] is line 1 */
    size_t count;
};

static void lines_split(struct lines *lines, const char *text, size_t length)
{
    /* Counted first: a line is 24 bytes here, a byte of text is one. */
    size_t count = 1;
    for (const char *at = text; at != NULL && (size_t)(at - text) < length;) {
        at = memchr(at, '\n', length - (size_t)(at - text));
        if (at != NULL) {
            count++;
            at++;
        }
    }
    lines->items = xcalloc(count + 1, sizeof(*lines->items));
    lines->count = 0;
    size_t at = 0;
    while (at < length) {
        struct line *line = &lines->items[lines->count++];
        line->start = at;
        line->end = line_end_of(text, length, at);
        line->text_end = line->end;
        if (line->text_end > at && text[line->text_end - 1] == '\n') {
            line->text_end--;
            if (line->text_end > at && text[line->text_end - 1] == '\r')
                line->text_end--;
        }
        at = line->end;
    }
}

/* ------------------------------------------------------------------ */
/* what INI can hold                                                   */

static bool is_space(char c)
{
    return isspace((unsigned char)c) != 0;
}

/* Why bytes cannot be written as an INI name or value, or NULL. */
static const char *ini_problem(const char *bytes, size_t length, bool is_name)
{
    if (length == 0)
        return "it is empty";
    if (is_space(bytes[0]) || is_space(bytes[length - 1]))
        return "inih would drop its leading or trailing blanks";
    for (size_t at = 0; at < length;) {
        uint32_t code;
        size_t step = utf8_decode((const unsigned char *)bytes + at, length - at, &code);
        if (step == 0)
            return "it is not UTF-8";
        /* What the TOML writer escapes, INI, which has no escapes, cannot
         * hold: a reviewer would not see it. */
        if (utf8_is_hidden_control(code))
            return "it holds a control character or an invisible formatting character "
                   "(a bidirectional control, line or paragraph separator or byte order "
                   "mark), which INI cannot escape";
        at += step;
    }
    for (size_t at = 1; at < length; at++)
        if (bytes[at] == ';' && is_space(bytes[at - 1]))
            return "inih would read the ';' after a blank as the start of a comment";
    if (is_name && (memchr(bytes, '=', length) != NULL || memchr(bytes, ':', length) != NULL))
        return "a name ends at the first '=' or ':'";
    if (is_name && (bytes[0] == '[' || bytes[0] == ';' || bytes[0] == '#'))
        return "a line that starts with '[', ';' or '#' is a header or a comment";
    return NULL;
}

int config_edit_ini_writable(const struct config_edit_entry *entry, const char **what,
                             const char **problem)
{
    if ((*problem = ini_problem(entry->group, entry->group_length, false)) != NULL ||
        (*problem = memchr(entry->group, ']', entry->group_length) != NULL
                        ? "a section name ends at the first ']'" : NULL) != NULL) {
        *what = "the group:";
        return -1;
    }
    if ((*problem = ini_problem(entry->scope, entry->scope_length, true)) != NULL) {
        *what = "the scope:";
        return -1;
    }
    if ((*problem = ini_problem(entry->key, entry->key_length, false)) != NULL) {
        *what = "the key:";
        return -1;
    }
    *what = NULL;
    if (entry->scope_length + 3 + entry->key_length > INI_LINE_LIMIT) {
        *what = "the line";
        *problem = "would be longer than the 198 bytes inih reads";
        return -1;
    }
    if (strlen("[allowlist ]") + entry->group_length > INI_LINE_LIMIT) {
        *what = "the section header";
        *problem = "would be longer than the 198 bytes inih reads";
        return -1;
    }
    return 0;
}

static int check_writable(const struct config_edit_entry *entry, struct config_error *error)
{
    const char *what, *problem;
    if (config_edit_ini_writable(entry, &what, &problem) == 0)
        return 0;
    struct config_pos none = { 0, 0 };
    char *key = terminal_escape(entry->key, entry->key_length);
    char *scope = terminal_escape(entry->scope, entry->scope_length);
    char *group = terminal_escape(entry->group, entry->group_length);
    config_fail(error, none, "cannot write allowlist entry '%s' for '%s' under "
                "[allowlist %s] in .sandlint.ini: %s %s; write it in pyproject.toml "
                "instead", key, scope, group, what, problem);
    free(key);
    free(scope);
    free(group);
    return -1;
}

/* ------------------------------------------------------------------ */
/* additions                                                           */

/* Inserts the lines of block (each ended by newline) after line number
 * line_number, or at the top when it is 0.  A last line without a newline
 * keeps having none: the block then starts with one instead. */
static void insert_after_line(struct text_edits *edits, const struct lines *lines,
                              size_t line_number, const struct text_buffer *block,
                              const char *newline)
{
    if (line_number == 0) {
        text_edits_insert(edits, 0, block->bytes, block->length);
        return;
    }
    const struct line *line = &lines->items[line_number - 1];
    if (line->end > line->text_end) {
        text_edits_insert(edits, line->end, block->bytes, block->length);
        return;
    }
    struct text_buffer moved = { NULL, 0, 0 };
    text_buffer_add_string(&moved, newline);
    text_buffer_add(&moved, block->bytes, block->length - strlen(newline));
    text_edits_insert(edits, line->text_end, moved.bytes, moved.length);
    free(moved.bytes);
}

static void append_entry_line(struct text_buffer *block,
                              const struct config_edit_entry *entry, const char *newline)
{
    text_buffer_add(block, entry->scope, entry->scope_length);
    text_buffer_add_string(block, " = ");
    text_buffer_add(block, entry->key, entry->key_length);
    text_buffer_add_string(block, newline);
}

/* The last line of each scope's entries in each group, and of each
 * section's: found by binary search in entries sorted by group and scope,
 * so that placing thousands of new scopes does not read every entry for
 * each. */
struct placement {
    const struct config *config;
    size_t *order;              /* entry indices by (group, scope); owned */
};

static int compare_group_scope(const struct allowlist_entry *a, const char *group,
                               size_t group_length, const char *scope, size_t scope_length)
{
    size_t shorter = a->group.length < group_length ? a->group.length : group_length;
    int order = memcmp(a->group.text, group, shorter);
    if (order == 0 && a->group.length != group_length)
        order = a->group.length < group_length ? -1 : 1;
    if (order != 0)
        return order;
    shorter = a->scope.length < scope_length ? a->scope.length : scope_length;
    order = memcmp(a->scope.text, scope, shorter);
    if (order == 0 && a->scope.length != scope_length)
        order = a->scope.length < scope_length ? -1 : 1;
    return order;
}

static int compare_placement(const void *left, const void *right, void *data)
{
    const struct config *config = data;
    const struct allowlist_entry *a = &config->entries[*(const size_t *)left];
    const struct allowlist_entry *b = &config->entries[*(const size_t *)right];
    return compare_group_scope(a, b->group.text, b->group.length, b->scope.text,
                               b->scope.length);
}

static void placement_init(struct placement *placement, const struct config *config)
{
    placement->config = config;
    placement->order = xcalloc(config->entry_count + 1, sizeof(*placement->order));
    for (size_t i = 0; i < config->entry_count; i++)
        placement->order[i] = i;
    qsort_r(placement->order, config->entry_count, sizeof(*placement->order),
            compare_placement, (void *)config);
}

/* The last line holding an entry of the scope in the group, or 0. */
static unsigned last_line_of_scope(const struct placement *placement,
                                   const struct config_edit_entry *entry)
{
    const struct config *config = placement->config;
    size_t low = 0, high = config->entry_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (compare_group_scope(&config->entries[placement->order[middle]], entry->group,
                                entry->group_length, entry->scope, entry->scope_length) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    unsigned last = 0;
    for (size_t at = low; at < config->entry_count; at++) {
        const struct allowlist_entry *existing = &config->entries[placement->order[at]];
        if (compare_group_scope(existing, entry->group, entry->group_length, entry->scope,
                                entry->scope_length) != 0)
            break;
        if (existing->key.pos.line > last)
            last = existing->key.pos.line;
    }
    return last;
}

/* The group's last [allowlist GROUP] header, or NULL. */
static const struct config_item *last_section(const struct config *config,
                                              const struct config_edit_entry *entry)
{
    const struct config_item *last = NULL;
    for (size_t i = 0; i < config->groups.count; i++)
        if (item_is(&config->groups.items[i], entry->group, entry->group_length))
            last = &config->groups.items[i];
    return last;
}

/* The last line of a section's entries, or its header's line. */
static unsigned last_line_of_section(const struct config *config,
                                     const struct config_item *section)
{
    unsigned last = section->pos.line;
    for (size_t i = 0; i < config->entry_count; i++) {
        const struct allowlist_entry *entry = &config->entries[i];
        if (entry->group.pos.line == section->pos.line &&
            entry->group.pos.column == section->pos.column && entry->key.pos.line > last)
            last = entry->key.pos.line;
    }
    return last;
}

int ini_plan_additions(const char *text, size_t length, const struct config *config,
                       const struct edit_additions *additions, struct text_edits *edits,
                       struct config_error *error)
{
    for (size_t a = 0; a < additions->count; a++)
        if (check_writable(additions->entries[a], error) != 0)
            return -1;
    struct lines lines;
    lines_split(&lines, text, length);
    struct placement placement;
    placement_init(&placement, config);
    struct text_buffer new_sections = { NULL, 0, 0 };
    const char *newline = additions->newline;
    for (size_t first = 0, end; first < additions->count; first = end) {
        const struct config_edit_entry *group = additions->entries[first];
        for (end = first; end < additions->count && same_group(additions->entries[end], group);)
            end++;
        const struct config_item *section = last_section(config, group);
        if (section == NULL) {
            if (new_sections.length > 0)
                text_buffer_add_string(&new_sections, newline);
            text_buffer_add_string(&new_sections, "[allowlist ");
            text_buffer_add(&new_sections, group->group, group->group_length);
            text_buffer_add_string(&new_sections, "]");
            text_buffer_add_string(&new_sections, newline);
            for (size_t a = first; a < end; a++)
                append_entry_line(&new_sections, additions->entries[a], newline);
            continue;
        }
        /* Scopes with entries first, so that their new lines come before
         * new scopes' when both go after the same line. */
        unsigned section_end = last_line_of_section(config, section);
        for (int pass = 0; pass < 2; pass++) {
            for (size_t a = first, scope_end; a < end; a = scope_end) {
                const struct config_edit_entry *scope = additions->entries[a];
                for (scope_end = a; scope_end < end &&
                                    same_scope(additions->entries[scope_end], scope);)
                    scope_end++;
                unsigned after = last_line_of_scope(&placement, scope);
                if ((after != 0) != (pass == 0))
                    continue;
                if (after == 0)
                    after = section_end;
                struct text_buffer block = { NULL, 0, 0 };
                for (size_t k = a; k < scope_end; k++)
                    append_entry_line(&block, additions->entries[k], newline);
                insert_after_line(edits, &lines, after, &block, newline);
                free(block.bytes);
            }
        }
    }
    if (new_sections.length > 0) {
        /* At the end of the file, after a blank line. */
        struct text_buffer block = { NULL, 0, 0 };
        if (length > 0 && text[length - 1] != '\n')
            text_buffer_add_string(&block, newline);
        const struct line *last = lines.count > 0 ? &lines.items[lines.count - 1] : NULL;
        if (last != NULL && last->text_end > last->start)
            text_buffer_add_string(&block, newline);
        text_buffer_add(&block, new_sections.bytes, new_sections.length);
        text_edits_insert(edits, length, block.bytes, block.length);
        free(block.bytes);
    }
    free(new_sections.bytes);
    free(lines.items);
    free(placement.order);
    return 0;
}

/* ------------------------------------------------------------------ */
/* removals                                                            */

static void delete_line(struct text_edits *edits, const struct lines *lines,
                        unsigned line_number)
{
    const struct line *line = &lines->items[line_number - 1];
    if (line->end > line->text_end || line_number == 1)
        text_edits_delete(edits, line->start, line->end);
    else    /* a last line without a newline: take the one before it */
        text_edits_delete(edits, lines->items[line_number - 2].text_end, line->end);
}

/* Entries ordered by the position of the name they are written under
 * (a continued value's lines share their first line's name). */
static int compare_name_pos(const void *left, const void *right, void *data)
{
    const struct config *config = data;
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    int order = config_pos_compare(config->entries[a].scope.pos,
                                   config->entries[b].scope.pos);
    return order != 0 ? order : a < b ? -1 : a > b;
}

int ini_plan_removals(const char *text, size_t length, const struct config *config,
                      const struct edit_removals *removals, struct text_edits *edits,
                      struct config_error *error)
{
    struct lines lines;
    lines_split(&lines, text, length);
    size_t *by_name = xcalloc(config->entry_count + 1, sizeof(*by_name));
    size_t *place_of = xcalloc(config->entry_count + 1, sizeof(*place_of));
    for (size_t i = 0; i < config->entry_count; i++)
        by_name[i] = i;
    qsort_r(by_name, config->entry_count, sizeof(*by_name), compare_name_pos,
            (void *)config);
    for (size_t place = 0; place < config->entry_count; place++)
        place_of[by_name[place]] = place;
    int result = 0;
    for (size_t i = 0; i < config->entry_count && result == 0; i++) {
        if (!removals->remove[i])
            continue;
        const struct allowlist_entry *entry = &config->entries[i];
        unsigned line = entry->key.pos.line;
        if (line == 0 || line > lines.count) {
            struct config_pos none = { 0, 0 };
            config_fail(error, none, "cannot update the allowlist safely: an entry lies "
                        "outside the file; the file was not changed");
            result = -1;
            break;
        }
        /* The first line of a continued value carries the name that the
         * indented lines below continue: the entries under the same name
         * are its neighbours in by_name. */
        for (size_t place = place_of[i] + 1;
             entry->scope.pos.line == line && place < config->entry_count; place++) {
            const struct allowlist_entry *other = &config->entries[by_name[place]];
            if (other->scope.pos.line != entry->scope.pos.line ||
                other->scope.pos.column != entry->scope.pos.column)
                break;
            if (removals->remove[by_name[place]] || other->key.pos.line == line)
                continue;
            /* Lines were added only after a scope's last line, so the
             * original line numbers are shifted alike. */
            struct config_pos original = removals->original_pos[i];
            unsigned continued = other->key.pos.line - (line - original.line);
            char *key = terminal_escape(entry->key.text, entry->key.length);
            char *scope = terminal_escape(entry->scope.text, entry->scope.length);
            config_fail(error, original, "cannot remove allowlist entry '%s': the "
                        "indented line %u continues '%s' from this line; write "
                        "each entry as a 'SCOPE = KEY' line of its own", key, continued,
                        scope);
            free(key);
            free(scope);
            result = -1;
            break;
        }
        if (result == 0)
            delete_line(edits, &lines, line);
    }
    free(by_name);
    free(place_of);
    free(lines.items);
    return result;
}
