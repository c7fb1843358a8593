/* allowlist.c - allowlists and stale entries (see allowlist.h). */
#include "config.h"

#include "allowlist.h"

#include <stdlib.h>
#include <string.h>

#include "packages.h"
#include "sandlint/plugin.h"
#include "xalloc.h"

const char *allowlist_group_name(const struct registry *registry,
                                 const char *group)
{
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct sl_rule *rule = &registry->rules[i].rule;
        if (strcmp(rule->group, group) == 0 ||
            (rule->group_code != NULL && strcmp(rule->group_code, group) == 0))
            return rule->group;
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* hashes: a key is (scope kind, scope text) and (group, key), hashed   */
/* apart so that a file's scopes are hashed once for all its findings   */

static uint64_t scope_hash(enum allowlist_scope kind, const char *text, size_t length)
{
    struct hasher hasher;
    unsigned char kind_byte = (unsigned char)kind;
    hasher_init(&hasher);
    hasher_add(&hasher, &kind_byte, 1);
    hasher_add_length(&hasher, length);
    hasher_add(&hasher, text, length);
    return hasher_finish(&hasher);
}

static uint64_t group_key_hash(const char *group, const char *key, size_t key_length)
{
    struct hasher hasher;
    size_t group_length = strlen(group);
    hasher_init(&hasher);
    hasher_add_length(&hasher, group_length);
    hasher_add(&hasher, group, group_length);
    hasher_add_length(&hasher, key_length);
    hasher_add(&hasher, key, key_length);
    return hasher_finish(&hasher);
}

/* The text an entry's scope is compared by: the package name as written,
 * the normalised path, or nothing for '*'. */
static const char *entry_scope_text(const struct allowlist_entry *entry, size_t *length)
{
    switch (entry->scope_kind) {
    case SCOPE_PACKAGE:
        *length = entry->scope.length;
        return entry->scope.text;
    case SCOPE_DIRECTORY:
    case SCOPE_FILE:
        *length = strlen(entry->scope_path);
        return entry->scope_path;
    default:
        *length = 0;
        return "";
    }
}

static size_t count_slashes(const char *text, size_t length)
{
    size_t count = 0;
    for (size_t i = 0; i < length; i++)
        count += text[i] == '/';
    return count;
}

static void note_depth(struct allowlist_index *index, size_t depth)
{
    size_t at = 0;
    while (at < index->directory_depth_count && index->directory_depths[at] < depth)
        at++;
    if (at < index->directory_depth_count && index->directory_depths[at] == depth)
        return;
    index->directory_depths = xrealloc(index->directory_depths,
                                       index->directory_depth_count + 1,
                                       sizeof(*index->directory_depths));
    memmove(index->directory_depths + at + 1, index->directory_depths + at,
            (index->directory_depth_count - at) * sizeof(*index->directory_depths));
    index->directory_depths[at] = depth;
    index->directory_depth_count++;
}

void allowlist_index_build(struct allowlist_index *index, const struct config *config,
                           const struct registry *registry)
{
    memset(index, 0, sizeof(*index));
    index->entry_count = config->entry_count;
    index->groups = xcalloc(config->entry_count + 1, sizeof(*index->groups));
    hash_index_reserve(&index->table, config->entry_count);
    const char *previous_text = NULL, *previous_group = NULL;
    for (size_t e = 0; e < config->entry_count; e++) {
        const struct allowlist_entry *entry = &config->entries[e];
        /* Entries come in runs of one group: look each name up once. */
        bool same = previous_text != NULL && strcmp(previous_text, entry->group.text) == 0;
        const char *group = same ? previous_group
                                 : allowlist_group_name(registry, entry->group.text);
        previous_text = entry->group.text;
        previous_group = group;
        index->groups[e] = group;
        if (group == NULL)
            continue;   /* no rule has the group: it accepts nothing */
        size_t length;
        const char *text = entry_scope_text(entry, &length);
        if (entry->scope_kind == SCOPE_DIRECTORY)
            note_depth(index, count_slashes(text, length));
        uint64_t hash = hash_pair(scope_hash(entry->scope_kind, text, length),
                                  group_key_hash(group, entry->key.text, entry->key.length));
        hash_index_add(&index->table, hash, e);
    }
}

void allowlist_index_release(struct allowlist_index *index)
{
    hash_index_release(&index->table);
    free(index->groups);
    free(index->directory_depths);
    memset(index, 0, sizeof(*index));
}

/* ------------------------------------------------------------------ */
/* matching                                                            */

/* Whether text (length bytes) is a Kubernetes namespace: a DNS label,
 * lower-case letters, digits and '-'. */
static bool namespace_label(const char *text, size_t length)
{
    if (length == 0 || length > 63)
        return false;
    for (size_t i = 0; i < length; i++)
        if (!((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= '0' && text[i] <= '9') ||
              text[i] == '-'))
            return false;
    return true;
}

size_t allowlist_namespace_length(const char *key, size_t key_length)
{
    /* The service ends at the first ':'; a namespaced object's is
     * NAMESPACE/Kind/name[/container], and kinds begin with a capital
     * (Compose and engine service names hold no '/'). */
    const char *colon = memchr(key, ':', key_length);
    size_t service = colon != NULL ? (size_t)(colon - key) : key_length;
    const char *slash = memchr(key, '/', service);
    if (slash == NULL)
        return 0;
    size_t label = (size_t)(slash - key);
    if (!namespace_label(key, label) || label + 1 >= service || slash[1] < 'A' ||
        slash[1] > 'Z' || memchr(slash + 1, '/', service - label - 1) == NULL)
        return 0;
    return label + 1;
}

size_t allowlist_key_forms(const struct finding *finding,
                           const char *forms[ALLOWLIST_KEY_FORMS],
                           size_t lengths[ALLOWLIST_KEY_FORMS])
{
    if (finding->key == NULL)
        return 0;
    forms[0] = finding->key;
    lengths[0] = finding->key_length;
    /* 0.2 keyed Kubernetes objects without their namespace (SPEC §17): an
     * entry written so still matches, in any namespace. */
    size_t prefix = allowlist_namespace_length(finding->key, finding->key_length);
    if (prefix == 0)
        return 1;
    forms[1] = finding->key + prefix;
    lengths[1] = finding->key_length - prefix;
    return 2;
}

/* A scope that may cover a file, hashed. */
struct scope_candidate {
    enum allowlist_scope kind;
    const char *text;           /* borrowed from the file result */
    size_t length;
    uint64_t hash;
};

/* The scopes that may cover one file. */
struct file_scopes {
    struct scope_candidate *items;  /* owned */
    size_t count;
};

static void add_candidate(struct file_scopes *scopes, enum allowlist_scope kind,
                          const char *text, size_t length)
{
    struct scope_candidate *candidate = &scopes->items[scopes->count++];
    candidate->kind = kind;
    candidate->text = text;
    candidate->length = length;
    candidate->hash = scope_hash(kind, text, length);
}

/* Whether a report path names a file below the root (path scopes can
 * cover only those). */
static bool below_root(const char *display)
{
    return display[0] != '\0' && display[0] != '/' && strcmp(display, "..") != 0 &&
           strncmp(display, "../", 3) != 0;
}

static void file_scopes_init(struct file_scopes *scopes, const struct allowlist_index *index,
                             const struct file_result *result)
{
    scopes->count = 0;
    scopes->items = xcalloc(index->directory_depth_count + 3, sizeof(*scopes->items));
    add_candidate(scopes, SCOPE_ANY, "", 0);
    if (result->package != NULL && strcmp(result->package, PACKAGE_ANY) != 0)
        add_candidate(scopes, SCOPE_PACKAGE, result->package, strlen(result->package));
    const char *display = result->display;
    if (display == NULL || !below_root(display))
        return;
    size_t length = strlen(display);
    add_candidate(scopes, SCOPE_FILE, display, length);
    /* The directories at the depths directory entries have: the prefix up
     * to and including the depth-th '/'. */
    size_t depth = 0, at = 0;
    for (size_t d = 0; d < index->directory_depth_count; d++) {
        size_t wanted = index->directory_depths[d];
        while (depth < wanted && at < length) {
            if (display[at] == '/')
                depth++;
            at++;
        }
        if (depth < wanted)
            break;
        add_candidate(scopes, SCOPE_DIRECTORY, display, at);
    }
}

static bool entry_is(const struct allowlist_index *index, const struct allowlist_entry *entry,
                     size_t number, const struct scope_candidate *scope, const char *group,
                     const char *key, size_t key_length)
{
    size_t length;
    const char *text = entry_scope_text(entry, &length);
    return entry->scope_kind == scope->kind && length == scope->length &&
           memcmp(text, scope->text, length) == 0 && index->groups[number] != NULL &&
           strcmp(index->groups[number], group) == 0 && entry->key.length == key_length &&
           memcmp(entry->key.text, key, key_length) == 0;
}

static void match_finding(struct allowlist_index *index, const struct config *config,
                          const struct registry *registry, const struct file_scopes *scopes,
                          const struct finding *finding,
                          void (*visit)(void *data, size_t entry), void *data)
{
    if (finding->rule < CORE_RULE_COUNT || index->table.count == 0)
        return;
    const char *group = registry->rules[finding->rule].rule.group;
    const char *forms[ALLOWLIST_KEY_FORMS];
    size_t lengths[ALLOWLIST_KEY_FORMS];
    size_t form_count = allowlist_key_forms(finding, forms, lengths);
    for (size_t f = 0; f < form_count; f++) {
        uint64_t group_key = group_key_hash(group, forms[f], lengths[f]);
        for (size_t s = 0; s < scopes->count; s++) {
            uint64_t hash = hash_pair(scopes->items[s].hash, group_key);
            size_t cursor = 0, number;
            while (hash_index_next(&index->table, hash, &cursor, &number)) {
                index->compared++;
                if (entry_is(index, &config->entries[number], number, &scopes->items[s],
                             group, forms[f], lengths[f]))
                    visit(data, number);
            }
        }
    }
}

void allowlist_each_match(struct allowlist_index *index, const struct config *config,
                          const struct registry *registry, const struct file_result *result,
                          const struct finding *finding,
                          void (*visit)(void *data, size_t entry), void *data)
{
    struct file_scopes scopes;
    file_scopes_init(&scopes, index, result);
    match_finding(index, config, registry, &scopes, finding, visit, data);
    free(scopes.items);
}

/* What allowlist_apply learns of one finding. */
struct apply_visit {
    struct config *config;
    size_t first;               /* the matching entry written first */
};

static void mark_used(void *data, size_t entry)
{
    struct apply_visit *visit = data;
    visit->config->entries[entry].used = true;
    if (visit->first == FINDING_NONE || entry < visit->first)
        visit->first = entry;
}

void allowlist_apply(struct file_result *result, struct config *config,
                     struct allowlist_index *index, const struct registry *registry)
{
    if (index->table.count == 0)
        return;
    struct file_scopes scopes;
    file_scopes_init(&scopes, index, result);
    for (size_t i = 0; i < result->findings.count; i++) {
        struct finding *finding = &result->findings.items[i];
        struct apply_visit visit = { config, FINDING_NONE };
        match_finding(index, config, registry, &scopes, finding, mark_used, &visit);
        if (visit.first == FINDING_NONE)
            continue;
        finding->allowlist_entry = visit.first;
        if (finding->status != STATUS_SUPPRESSED)
            finding->status = STATUS_WARN;
    }
    free(scopes.items);
}

/* ------------------------------------------------------------------ */
/* what the run could not check                                        */

void allowlist_incomplete_add(struct allowlist_incomplete *incomplete,
                              const struct file_result *result)
{
    if (!result->incomplete)
        return;
    string_set_add(&incomplete->packages,
                   result->package != NULL ? result->package : PACKAGE_ANY,
                   strlen(result->package != NULL ? result->package : PACKAGE_ANY));
    /* The root ("") holds every file, even one outside it: an entry for
     * the root directory cannot be judged while anything is unread. */
    string_set_add(&incomplete->paths, "", 0);
    const char *display = result->display;
    if (display == NULL || !below_root(display))
        return;
    size_t length = strlen(display);
    string_set_add(&incomplete->paths, display, length);
    for (size_t at = 0; at < length; at++)
        if (display[at] == '/')
            string_set_add(&incomplete->paths, display, at + 1);
}

void allowlist_incomplete_release(struct allowlist_incomplete *incomplete)
{
    string_set_release(&incomplete->packages);
    string_set_release(&incomplete->paths);
}

/* ------------------------------------------------------------------ */
/* stale entries                                                       */

/* Whether every rule of the entry's group ran (otherwise an entry could
 * look stale only because its rule was not selected). */
static bool group_fully_enabled(const struct registry *registry,
                                const char *group)
{
    bool any = false;
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        const struct sl_rule *rule = &entry->rule;
        if (strcmp(rule->group, group) != 0 &&
            (rule->group_code == NULL || strcmp(rule->group_code, group) != 0))
            continue;
        if (!entry->enabled)
            return false;
        any = true;
    }
    return any;
}

/* Whether the run checked every file the entry's scope covers. */
static bool scope_checked(const struct allowlist_entry *entry,
                          const struct allowlist_coverage *coverage,
                          const struct allowlist_incomplete *incomplete)
{
    switch (entry->scope_kind) {
    case SCOPE_ANY:
        /* An entry for every package cannot be judged while any file
         * could not be read. */
        return coverage->package_checked(coverage->data, PACKAGE_ANY) &&
               incomplete->packages.count == 0;
    case SCOPE_PACKAGE:
        return coverage->package_checked(coverage->data, entry->scope.text) &&
               !string_set_has(&incomplete->packages, entry->scope.text,
                               entry->scope.length);
    case SCOPE_DIRECTORY:
    case SCOPE_FILE:
        return coverage->path_checked(coverage->data, entry->scope_path) &&
               !string_set_has(&incomplete->paths, entry->scope_path,
                               strlen(entry->scope_path));
    }
    return false;
}

bool allowlist_entry_stale(const struct allowlist_entry *entry,
                           const struct registry *registry,
                           const struct allowlist_coverage *coverage,
                           const struct allowlist_incomplete *incomplete)
{
    return !entry->used && coverage != NULL && scope_checked(entry, coverage, incomplete) &&
           group_fully_enabled(registry, entry->group.text);
}

/* Entries in the order they are written. */
static int compare_written(const void *left, const void *right, void *data)
{
    const struct config *config = data;
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    int order = config_pos_compare(config->entries[a].key.pos, config->entries[b].key.pos);
    return order != 0 ? order : a < b ? -1 : a > b;
}

/* Whether two stale entries' warnings go in one result: results name the
 * package of package scopes, none for paths (so those share results, at
 * most a file's worth of findings each - a baseline of a large repository
 * may go stale by the hundred thousand). */
static bool same_result(const struct allowlist_entry *a, const struct allowlist_entry *b,
                        size_t findings)
{
    bool a_package = a->scope_kind == SCOPE_ANY || a->scope_kind == SCOPE_PACKAGE;
    bool b_package = b->scope_kind == SCOPE_ANY || b->scope_kind == SCOPE_PACKAGE;
    if (findings >= FINDING_SET_MAX_COUNT - 1 || a_package != b_package)
        return false;
    return !a_package || (a->scope.length == b->scope.length &&
                          memcmp(a->scope.text, b->scope.text, a->scope.length) == 0);
}

size_t allowlist_report_stale(const struct config *config,
                              const struct registry *registry,
                              const char *config_display,
                              const struct allowlist_coverage *coverage,
                              const struct allowlist_incomplete *incomplete,
                              struct file_result **results)
{
    *results = NULL;
    if (!registry->rules[CORE_RULE_STALE].enabled || coverage == NULL)
        return 0;
    size_t *stale = xcalloc(config->entry_count + 1, sizeof(*stale));
    size_t stale_count = 0;
    for (size_t e = 0; e < config->entry_count; e++)
        if (allowlist_entry_stale(&config->entries[e], registry, coverage, incomplete))
            stale[stale_count++] = e;
    qsort_r(stale, stale_count, sizeof(*stale), compare_written, (void *)config);
    size_t count = 0;
    const struct allowlist_entry *previous = NULL;
    for (size_t i = 0; i < stale_count; i++) {
        const struct allowlist_entry *entry = &config->entries[stale[i]];
        /* A result names its package once: a new one for each run of
         * entries of another package. */
        if (previous == NULL ||
            !same_result(previous, entry, (*results)[count - 1].findings.count)) {
            *results = xrealloc(*results, count + 1, sizeof(**results));
            bool package = entry->scope_kind == SCOPE_ANY ||
                           entry->scope_kind == SCOPE_PACKAGE;
            file_result_init(&(*results)[count++], config_display,
                             package ? entry->scope.text : NULL);
        }
        previous = entry;
        char *message = xasprintf("allowlist entry '%s' for %s on '%s' is no "
                                  "longer needed", entry->key.text,
                                  entry->group.text, entry->scope.text);
        struct finding_spec spec = {
            .rule = CORE_RULE_STALE,
            .severity = SL_SEVERITY_WARNING,
            .line = entry->key.pos.line,
            .column = entry->key.pos.column,
            .key = entry->key.text,
            .key_length = entry->key.length,
            .message = message,
            .hint = "remove the entry: no finding of this run matches it",
        };
        finding_set_add(&(*results)[count - 1].findings, &spec);
        free(message);
    }
    free(stale);
    return count;
}
