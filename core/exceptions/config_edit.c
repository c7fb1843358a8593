/*
 * config_edit.c - the allowlist editor (see config_edit.h): the requests,
 * the two phases, and the check that the result reads back as intended.
 * Where entries go in each format is config_edit_ini.c and
 * config_edit_toml.c.
 */
#include "config.h"

#include "config_edit.h"

#include <stdlib.h>
#include <string.h>

#include "config_edit_internal.h"
#include "terminal.h"
#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* text edits                                                          */

static void text_edits_add(struct text_edits *edits, size_t start, size_t end,
                           const char *insert, size_t insert_length)
{
    if (edits->count == edits->capacity) {
        edits->capacity = edits->capacity ? edits->capacity * 2 : 16;
        edits->items = xrealloc(edits->items, edits->capacity, sizeof(*edits->items));
    }
    struct text_edit *edit = &edits->items[edits->count];
    edit->start = start;
    edit->end = end;
    edit->insert = xmemdup(insert != NULL ? insert : "", insert_length);
    edit->insert_length = insert_length;
    edit->sequence = edits->count++;
}

void text_edits_replace(struct text_edits *edits, size_t start, size_t end,
                        const char *insert, size_t insert_length)
{
    text_edits_add(edits, start, end, insert, insert_length);
}

void text_edits_insert(struct text_edits *edits, size_t at, const char *insert,
                       size_t insert_length)
{
    text_edits_add(edits, at, at, insert, insert_length);
}

void text_edits_delete(struct text_edits *edits, size_t start, size_t end)
{
    text_edits_add(edits, start, end, "", 0);
}

void text_edits_release(struct text_edits *edits)
{
    for (size_t i = 0; i < edits->count; i++)
        free(edits->items[i].insert);
    free(edits->items);
    memset(edits, 0, sizeof(*edits));
}

static int compare_edits(const void *left, const void *right)
{
    const struct text_edit *a = left, *b = right;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    /* At one offset, insertions before the deletion that starts there. */
    if ((a->start == a->end) != (b->start == b->end))
        return a->start == a->end ? -1 : 1;
    return a->sequence < b->sequence ? -1 : a->sequence > b->sequence;
}

/*
 * Applies the edits to text.  Deletions that overlap merge; an insertion
 * inside a deleted range, or a replacement that overlaps another change,
 * would lose text, so it fails (returns NULL).
 */
static char *text_edits_apply(struct text_edits *edits, const char *text, size_t length,
                              size_t *new_length)
{
    qsort(edits->items, edits->count, sizeof(*edits->items), compare_edits);
    struct text_buffer out = { NULL, 0, 0 };
    size_t copied = 0;          /* text before this offset is done */
    for (size_t i = 0; i < edits->count; i++) {
        const struct text_edit *edit = &edits->items[i];
        if (edit->end > length || edit->start < copied) {
            bool merges = edit->insert_length == 0 && edit->start <= copied &&
                          edit->end <= length;
            if (!merges) {
                free(out.bytes);
                return NULL;
            }
            if (edit->end > copied)
                copied = edit->end;
            continue;
        }
        text_buffer_add(&out, text + copied, edit->start - copied);
        text_buffer_add(&out, edit->insert, edit->insert_length);
        copied = edit->end;
    }
    text_buffer_add(&out, text + copied, length - copied);
    *new_length = out.length;
    if (out.bytes == NULL)
        out.bytes = xstrdup("");
    return out.bytes;
}

/* ------------------------------------------------------------------ */
/* shared helpers                                                      */

size_t line_start_of(const char *text, size_t at)
{
    while (at > 0 && text[at - 1] != '\n')
        at--;
    return at;
}

size_t line_end_of(const char *text, size_t length, size_t at)
{
    const char *newline = memchr(text + at, '\n', length - at);
    return newline != NULL ? (size_t)(newline - text) + 1 : length;
}

bool item_is(const struct config_item *item, const char *bytes, size_t length)
{
    return item->length == length && memcmp(item->text, bytes, length) == 0;
}

bool same_group(const struct config_edit_entry *a, const struct config_edit_entry *b)
{
    return a->group_length == b->group_length &&
           memcmp(a->group, b->group, a->group_length) == 0;
}

bool same_scope(const struct config_edit_entry *a, const struct config_edit_entry *b)
{
    return same_group(a, b) && a->scope_length == b->scope_length &&
           memcmp(a->scope, b->scope, a->scope_length) == 0;
}

static int compare_bytes(const char *a, size_t a_length, const char *b, size_t b_length)
{
    int order = memcmp(a, b, a_length < b_length ? a_length : b_length);
    if (order != 0)
        return order;
    return a_length < b_length ? -1 : a_length > b_length;
}

/* ------------------------------------------------------------------ */
/* entries as (group, scope, key) triples                              */

struct triple {
    const char *group, *scope, *key;
    size_t group_length, scope_length, key_length;
};

static int compare_triples(const void *left, const void *right)
{
    const struct triple *a = left, *b = right;
    int order = compare_bytes(a->group, a->group_length, b->group, b->group_length);
    if (order == 0)
        order = compare_bytes(a->scope, a->scope_length, b->scope, b->scope_length);
    if (order == 0)
        order = compare_bytes(a->key, a->key_length, b->key, b->key_length);
    return order;
}

static struct triple entry_triple(const struct allowlist_entry *entry)
{
    struct triple triple = { entry->group.text, entry->scope.text, entry->key.text,
                             entry->group.length, entry->scope.length,
                             entry->key.length };
    return triple;
}

static struct triple addition_triple(const struct config_edit_entry *entry)
{
    struct triple triple = { entry->group, entry->scope, entry->key,
                             entry->group_length, entry->scope_length,
                             entry->key_length };
    return triple;
}

static bool same_triple(struct triple a, struct triple b)
{
    return compare_triples(&a, &b) == 0;
}

static int compare_addition_pointers(const void *left, const void *right)
{
    struct triple a = addition_triple(*(const struct config_edit_entry *const *)left);
    struct triple b = addition_triple(*(const struct config_edit_entry *const *)right);
    return compare_triples(&a, &b);
}

/* The entries of a parsed file in (triple, index) order: equal entries
 * stay in file order, so the rank of an entry among its equals is its
 * occurrence.  Lookups are binary searches, so an edit costs
 * O((entries + changes) log entries) however many entries are equal. */
struct sorted_entries {
    const struct config *config;
    size_t *order;              /* entry indices; owned */
};

static int compare_entry_indices(const void *left, const void *right, void *data)
{
    const struct config *config = data;
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    struct triple x = entry_triple(&config->entries[a]);
    struct triple y = entry_triple(&config->entries[b]);
    int order = compare_triples(&x, &y);
    if (order != 0)
        return order;
    return a < b ? -1 : a > b;
}

static void sorted_entries_init(struct sorted_entries *sorted, const struct config *config)
{
    sorted->config = config;
    sorted->order = xcalloc(config->entry_count + 1, sizeof(*sorted->order));
    for (size_t i = 0; i < config->entry_count; i++)
        sorted->order[i] = i;
    qsort_r(sorted->order, config->entry_count, sizeof(*sorted->order),
            compare_entry_indices, (void *)config);
}

/* The first place in the order whose entry is not below triple. */
static size_t lower_bound(const struct sorted_entries *sorted, struct triple triple)
{
    size_t low = 0, high = sorted->config->entry_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        struct triple at = entry_triple(&sorted->config->entries[sorted->order[middle]]);
        if (compare_triples(&at, &triple) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* Whether the place-th entry of the order equals triple. */
static bool equal_at(const struct sorted_entries *sorted, size_t place, struct triple triple)
{
    return place < sorted->config->entry_count &&
           same_triple(entry_triple(&sorted->config->entries[sorted->order[place]]), triple);
}

/* Index of the occurrence-th entry equal to triple, or -1. */
static long find_occurrence(const struct sorted_entries *sorted, struct triple triple,
                            size_t occurrence)
{
    size_t place = lower_bound(sorted, triple) + occurrence;
    return equal_at(sorted, place, triple) ? (long)sorted->order[place] : -1;
}

static void sorted_entries_release(struct sorted_entries *sorted)
{
    free(sorted->order);
}

/* ------------------------------------------------------------------ */
/* the request                                                         */

struct request {
    const struct config_edit_entry **additions;     /* sorted, new only */
    size_t addition_count;
    struct triple *removed;     /* what each removal removes */
    size_t *occurrence;         /* which of the equal entries it is */
    struct config_pos *removed_pos;
    size_t removal_count;
};

static void request_release(struct request *request)
{
    free(request->additions);
    free(request->removed);
    free(request->occurrence);
    free(request->removed_pos);
}

static int fail_entry(struct config_error *error, struct config_pos pos, const char *format,
                      const struct allowlist_entry *entry)
{
    char *key = terminal_escape(entry->key.text, entry->key.length);
    char *scope = terminal_escape(entry->scope.text, entry->scope.length);
    config_fail(error, pos, format, key, scope);
    free(key);
    free(scope);
    return -1;
}

/*
 * Resolves the removals against the parsed file and drops the additions
 * that change nothing: already present (and not removed), or repeated.  An
 * entry both removed and added stays: neither change is made.
 */
static int request_build(struct request *request, const struct config *before,
                         const struct config_edit_entry *add, size_t add_count,
                         const struct allowlist_entry *remove, size_t remove_count,
                         struct config_error *error)
{
    memset(request, 0, sizeof(*request));
    struct sorted_entries sorted;
    sorted_entries_init(&sorted, before);
    /* rank[i]: how many equal entries come before entry i in the file. */
    size_t *rank = xcalloc(before->entry_count + 1, sizeof(*rank));
    for (size_t place = 0; place < before->entry_count; place++) {
        bool same_as_previous =
            place > 0 && equal_at(&sorted, place - 1,
                                  entry_triple(&before->entries[sorted.order[place]]));
        rank[sorted.order[place]] = same_as_previous ? rank[sorted.order[place - 1]] + 1 : 0;
    }
    bool *removed = xcalloc(before->entry_count + 1, sizeof(*removed));
    for (size_t r = 0; r < remove_count; r++) {
        const struct allowlist_entry *wanted = &remove[r];
        struct triple triple = entry_triple(wanted);
        long found = -1;
        /* Equal entries differ by position; they are few but for a
         * hostile file, so a position map would not pay. */
        for (size_t place = lower_bound(&sorted, triple);
             found < 0 && equal_at(&sorted, place, triple); place++) {
            const struct allowlist_entry *entry = &before->entries[sorted.order[place]];
            if (entry->key.pos.line == wanted->key.pos.line &&
                entry->key.pos.column == wanted->key.pos.column)
                found = (long)sorted.order[place];
        }
        if (found < 0) {
            free(removed);
            free(rank);
            sorted_entries_release(&sorted);
            return fail_entry(error, wanted->key.pos, "allowlist entry '%s' for '%s' is "
                              "not in the file at this position (was the file changed "
                              "since it was read?)", wanted);
        }
        removed[found] = true;
    }

    const struct config_edit_entry **additions = xcalloc(add_count + 1, sizeof(*additions));
    for (size_t a = 0; a < add_count; a++)
        additions[a] = &add[a];
    qsort(additions, add_count, sizeof(*additions), compare_addition_pointers);
    request->additions = xcalloc(add_count + 1, sizeof(*request->additions));
    for (size_t a = 0; a < add_count; a++) {
        struct triple wanted = addition_triple(additions[a]);
        if (a > 0 && same_triple(addition_triple(additions[a - 1]), wanted))
            continue;
        size_t place = lower_bound(&sorted, wanted);
        if (equal_at(&sorted, place, wanted)) {
            /* Already there; removed and added: it stays. */
            removed[sorted.order[place]] = false;
            continue;
        }
        request->additions[request->addition_count++] = additions[a];
    }
    free(additions);

    request->removed = xcalloc(before->entry_count + 1, sizeof(*request->removed));
    request->occurrence = xcalloc(before->entry_count + 1, sizeof(*request->occurrence));
    request->removed_pos = xcalloc(before->entry_count + 1, sizeof(*request->removed_pos));
    for (size_t i = 0; i < before->entry_count; i++) {
        if (!removed[i])
            continue;
        request->removed[request->removal_count] = entry_triple(&before->entries[i]);
        request->occurrence[request->removal_count] = rank[i];
        request->removed_pos[request->removal_count] = before->entries[i].key.pos;
        request->removal_count++;
    }
    free(removed);
    free(rank);
    sorted_entries_release(&sorted);
    return 0;
}

/* ------------------------------------------------------------------ */
/* phases                                                              */

static int parse_text(enum config_format format, const char *text, size_t length,
                      struct config *config, struct config_error *error)
{
    config_init(config);
    return format == CONFIG_INI ? config_parse_ini(config, text, length, error)
                                : config_parse_toml(config, text, length, error);
}

/* The lines of a file end as its first line does. */
static const char *newline_of(const char *text, size_t length)
{
    const char *newline = text != NULL ? memchr(text, '\n', length) : NULL;
    return newline != NULL && newline > text && newline[-1] == '\r' ? "\r\n" : "\n";
}

static int internal_error(struct config_error *error, const char *what)
{
    struct config_pos none = { 0, 0 };
    config_fail(error, none, "cannot update the allowlist safely: %s; the file was not "
                "changed", what);
    return -1;
}

/* Applies the edits of one phase: *text becomes the new text (owned). */
static int apply_phase(struct text_edits *edits, char **text, size_t *length,
                       struct config_error *error)
{
    if (edits->count == 0)
        return 0;
    size_t new_length;
    char *edited = text_edits_apply(edits, *text, *length, &new_length);
    if (edited == NULL)
        return internal_error(error, "two changes overlap");
    free(*text);
    *text = edited;
    *length = new_length;
    return 0;
}

static int add_phase(enum config_format format, char **text, size_t *length,
                     const struct config *before, const struct request *request,
                     struct config_error *error)
{
    if (request->addition_count == 0)
        return 0;
    struct edit_additions additions = {
        request->additions, request->addition_count, newline_of(*text, *length)
    };
    struct text_edits edits = { NULL, 0, 0 };
    int result = format == CONFIG_INI
                     ? ini_plan_additions(*text, *length, before, &additions, &edits, error)
                     : toml_plan_additions(*text, *length, before, &additions, &edits,
                                           error);
    if (result == 0)
        result = apply_phase(&edits, text, length, error);
    text_edits_release(&edits);
    return result;
}

static int remove_phase(enum config_format format, char **text, size_t *length,
                        const struct request *request, struct config_error *error)
{
    if (request->removal_count == 0)
        return 0;
    struct config middle;
    struct config_error parse_error = { NULL, { 0, 0 }, false };
    if (parse_text(format, *text, *length, &middle, &parse_error) != 0) {
        config_error_release(&parse_error);
        config_release(&middle);
        return internal_error(error, "the entries added would not read back");
    }
    bool *remove = xcalloc(middle.entry_count + 1, sizeof(*remove));
    struct config_pos *original_pos = xcalloc(middle.entry_count + 1, sizeof(*original_pos));
    struct sorted_entries sorted;
    sorted_entries_init(&sorted, &middle);
    int result = 0;
    for (size_t r = 0; r < request->removal_count && result == 0; r++) {
        long index = find_occurrence(&sorted, request->removed[r], request->occurrence[r]);
        if (index < 0) {
            result = internal_error(error, "an entry to remove was lost");
            break;
        }
        remove[index] = true;
        original_pos[index] = request->removed_pos[r];
    }
    struct edit_removals removals = { remove, original_pos };
    struct text_edits edits = { NULL, 0, 0 };
    if (result == 0)
        result = format == CONFIG_INI
                     ? ini_plan_removals(*text, *length, &middle, &removals, &edits, error)
                     : toml_plan_removals(*text, *length, &middle, &removals, &edits,
                                          error);
    if (result == 0)
        result = apply_phase(&edits, text, length, error);
    text_edits_release(&edits);
    free(remove);
    free(original_pos);
    sorted_entries_release(&sorted);
    config_release(&middle);
    return result;
}

/* ------------------------------------------------------------------ */
/* the check: the result reads back as intended                        */

static bool same_list(const struct config_list *a, const struct config_list *b)
{
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++)
        if (!item_is(&a->items[i], b->items[i].text, b->items[i].length))
            return false;
    return true;
}

static bool same_settings(const struct config *a, const struct config *b)
{
    if (a->has_packages != b->has_packages || a->inspect_evals != b->inspect_evals ||
        !same_list(&a->packages, &b->packages) || !same_list(&a->select, &b->select) ||
        !same_list(&a->ignore, &b->ignore) ||
        !same_list(&a->extend_select, &b->extend_select) ||
        !same_list(&a->exclude, &b->exclude) || !same_list(&a->plugins, &b->plugins) ||
        !same_list(&a->plugin_dirs, &b->plugin_dirs) ||
        a->rule_option_count != b->rule_option_count)
        return false;
    for (size_t i = 0; i < a->rule_option_count; i++) {
        const struct config_rule_option *x = &a->rule_options[i], *y = &b->rule_options[i];
        if (!item_is(&x->rule, y->rule.text, y->rule.length) ||
            !item_is(&x->name, y->name.text, y->name.length) || x->type != y->type)
            return false;
    }
    return true;
}

/* Whether after holds exactly before's entries minus the removed plus the
 * added. */
static bool entries_as_intended(const struct config *before, const struct config *after,
                                const struct request *request)
{
    size_t expected_count = before->entry_count + request->addition_count;
    if (expected_count < request->removal_count ||
        after->entry_count != expected_count - request->removal_count)
        return false;
    struct triple *expected = xcalloc(expected_count + 1, sizeof(*expected));
    struct triple *removed = xcalloc(request->removal_count + 1, sizeof(*removed));
    struct triple *got = xcalloc(after->entry_count + 1, sizeof(*got));
    size_t count = 0;
    for (size_t i = 0; i < before->entry_count; i++)
        expected[count++] = entry_triple(&before->entries[i]);
    for (size_t a = 0; a < request->addition_count; a++)
        expected[count++] = addition_triple(request->additions[a]);
    qsort(expected, count, sizeof(*expected), compare_triples);
    memcpy(removed, request->removed, request->removal_count * sizeof(*removed));
    qsort(removed, request->removal_count, sizeof(*removed), compare_triples);
    /* Take each removed triple out of the sorted expected list once. */
    size_t kept = 0, next_removed = 0;
    for (size_t i = 0; i < count; i++) {
        if (next_removed < request->removal_count &&
            same_triple(expected[i], removed[next_removed])) {
            next_removed++;
            continue;
        }
        expected[kept++] = expected[i];
    }
    bool same = next_removed == request->removal_count && kept == after->entry_count;
    for (size_t i = 0; i < after->entry_count; i++)
        got[i] = entry_triple(&after->entries[i]);
    qsort(got, after->entry_count, sizeof(*got), compare_triples);
    for (size_t i = 0; same && i < kept; i++)
        same = same_triple(expected[i], got[i]);
    free(expected);
    free(removed);
    free(got);
    return same;
}

static int check_result(enum config_format format, const char *text, size_t length,
                        const struct config *before, const struct request *request,
                        struct config_error *error)
{
    struct config after;
    struct config_error parse_error = { NULL, { 0, 0 }, false };
    int result = 0;
    if (parse_text(format, text, length, &after, &parse_error) != 0)
        result = internal_error(error, "the edited file would not read back");
    else if (!same_settings(before, &after))
        result = internal_error(error, "the edited file would read back with other "
                                "settings");
    else if (!entries_as_intended(before, &after, request))
        result = internal_error(error, "the edited file would read back with other "
                                "entries than intended");
    config_error_release(&parse_error);
    config_release(&after);
    return result;
}

/* ------------------------------------------------------------------ */
/* the editor                                                          */

int config_edit_allowlist(enum config_format format, const char *text, size_t length,
                          const struct config_edit_entry *add, size_t add_count,
                          const struct allowlist_entry *remove, size_t remove_count,
                          struct config_edit_result *result,
                          struct config_error *error)
{
    memset(result, 0, sizeof(*result));
    if (text == NULL) {
        /* No configuration yet: a new .sandlint.ini. */
        text = "";
        length = 0;
        format = CONFIG_INI;
    }
    if (format != CONFIG_INI && format != CONFIG_TOML)
        return internal_error(error, "unknown configuration format");
    if (add_count == 0 && remove_count == 0) {
        /* Nothing asked: the text as it is (read already by the caller). */
        result->text = xmemdup(text, length);
        result->length = length;
        return 0;
    }
    struct config before;
    if (parse_text(format, text, length, &before, error) != 0) {
        config_release(&before);
        return -1;
    }
    struct request request;
    if (request_build(&request, &before, add, add_count, remove, remove_count, error) != 0) {
        config_release(&before);
        return -1;
    }
    char *edited = xmemdup(text, length);
    size_t edited_length = length;
    int status = add_phase(format, &edited, &edited_length, &before, &request, error);
    if (status == 0)
        status = remove_phase(format, &edited, &edited_length, &request, error);
    /* An unchanged text needs no reading back. */
    if (status == 0 && (request.addition_count > 0 || request.removal_count > 0))
        status = check_result(format, edited, edited_length, &before, &request, error);
    if (status == 0) {
        result->text = edited;
        result->length = edited_length;
        result->added = request.addition_count;
        result->removed = request.removal_count;
    } else {
        free(edited);
    }
    request_release(&request);
    config_release(&before);
    return status;
}

void config_edit_result_release(struct config_edit_result *result)
{
    free(result->text);
    memset(result, 0, sizeof(*result));
}
