/* finding.c - making findings and the set of one file (see finding.h). */
#include "config.h"

#include "finding.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "sandlint/plugin.h"
#include "xalloc.h"

static const struct registry *configured_severities;

void finding_use_configured_severities(const struct registry *registry)
{
    configured_severities = registry;
}

/* The severity a finding made from spec has: the configured one of its
 * rule where the configuration may change it, else the reported one. */
static int made_severity(const struct finding_spec *spec)
{
    const struct registry *registry = configured_severities;
    if (registry == NULL || spec->rule >= registry->rule_count)
        return spec->severity;
    int configured = registry->rules[spec->rule].severity;
    if (configured == SL_SEVERITY_DEFAULT ||
        (spec->rule >= CORE_RULE_COUNT && !spec->at_rule_default))
        return spec->severity;
    return configured;
}

int finding_effective_severity(const struct finding *finding)
{
    return finding_allowlisted(finding) ? SL_SEVERITY_WARNING : finding->severity;
}

void finding_set_init(struct finding_set *set)
{
    memset(set, 0, sizeof(*set));
    set->truncation_rule = CORE_RULE_YAML;
}

void finding_release(struct finding *finding)
{
    free(finding->service);
    free(finding->field);
    free(finding->value);
    free(finding->key);
    free(finding->message);
    free(finding->hint);
    memset(finding, 0, sizeof(*finding));
}

void finding_set_release(struct finding_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        finding_release(&set->items[i]);
    free(set->items);
    free(set->slots);
    size_t rule = set->truncation_rule;
    finding_set_init(set);
    set->truncation_rule = rule;
}

struct finding *finding_set_append(struct finding_set *set)
{
    if (set->count == set->capacity) {
        set->capacity = set->capacity ? set->capacity * 2 : 16;
        set->items = xrealloc(set->items, set->capacity, sizeof(*set->items));
    }
    struct finding *finding = &set->items[set->count++];
    memset(finding, 0, sizeof(*finding));
    finding->comment = FINDING_NONE;
    finding->allowlist_entry = FINDING_NONE;
    return finding;
}

/* ------------------------------------------------------------------ */
/* one finding per rule, key and position                              */
/* ------------------------------------------------------------------ */

/* SPEC §17: two findings of a file are one only when rule, key, line and
 * column are all the same (an alias seen twice, a setting a front-end
 * hands over twice); the same key at another position (SYS_ADMIN listed
 * twice, two objects of one name in two namespaces) is another finding. */
static uint64_t identity_hash(size_t rule, const char *key, size_t length,
                              unsigned line, unsigned column)
{
    uint64_t hash = 1469598103934665603ULL ^ rule;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)key[i];
        hash *= 1099511628211ULL;
    }
    hash ^= ((uint64_t)line << 32) | column;
    hash *= 1099511628211ULL;
    return hash;
}

static void dedupe_grow(struct finding_set *set)
{
    size_t capacity = set->slot_capacity ? set->slot_capacity * 2 : 64;
    size_t *slots = xcalloc(capacity, sizeof(*slots));
    for (size_t i = 0; i < set->slot_capacity; i++) {
        if (set->slots[i] == 0)
            continue;
        const struct finding *finding = &set->items[set->slots[i] - 1];
        size_t slot = (size_t)identity_hash(finding->rule, finding->key,
                                            finding->key_length, finding->line,
                                            finding->column) & (capacity - 1);
        while (slots[slot] != 0)
            slot = (slot + 1) & (capacity - 1);
        slots[slot] = set->slots[i];
    }
    free(set->slots);
    set->slots = slots;
    set->slot_capacity = capacity;
}

/* The dedupe slot for a finding of spec with key: one holding an earlier
 * finding of the same identity, or the empty slot where a new one goes. */
static size_t *dedupe_slot(struct finding_set *set, const struct finding_spec *spec,
                           const char *key, size_t length)
{
    if ((set->slot_used + 1) * 2 > set->slot_capacity)
        dedupe_grow(set);
    size_t slot = (size_t)identity_hash(spec->rule, key, length, spec->line,
                                        spec->column) & (set->slot_capacity - 1);
    while (set->slots[slot] != 0) {
        const struct finding *earlier = &set->items[set->slots[slot] - 1];
        if (earlier->rule == spec->rule && earlier->key_length == length &&
            earlier->line == spec->line && earlier->column == spec->column &&
            memcmp(earlier->key, key, length) == 0)
            break;
        slot = (slot + 1) & (set->slot_capacity - 1);
    }
    return &set->slots[slot];
}

/* ------------------------------------------------------------------ */
/* making a finding                                                    */
/* ------------------------------------------------------------------ */

/* "service:field" or "service:field:value". */
static char *build_key(const struct finding_spec *spec, size_t *key_length)
{
    size_t field_length = strlen(spec->field);
    size_t length = spec->service_length + 1 + field_length;
    if (spec->value != NULL)
        length += 1 + spec->value_length;
    char *key = xmalloc(length + 1);
    char *cursor = key;
    memcpy(cursor, spec->service, spec->service_length);
    cursor += spec->service_length;
    *cursor++ = ':';
    memcpy(cursor, spec->field, field_length);
    cursor += field_length;
    if (spec->value != NULL) {
        *cursor++ = ':';
        if (spec->value_length != 0)
            memcpy(cursor, spec->value, spec->value_length);
        cursor += spec->value_length;
    }
    *cursor = '\0';
    *key_length = length;
    return key;
}

static size_t text_bytes(const char *text)
{
    return text != NULL ? strlen(text) : 0;
}

/* What a finding made from spec holds, in bytes (for the set's limit). */
static size_t spec_bytes(const struct finding_spec *spec, size_t key_length)
{
    return spec->service_length + text_bytes(spec->field) + spec->value_length +
           key_length + text_bytes(spec->message) + text_bytes(spec->hint);
}

static void fill(struct finding *finding, const struct finding_spec *spec,
                 char *key, size_t key_length)
{
    finding->rule = spec->rule;
    finding->severity = spec->severity;
    finding->reported_severity = spec->severity;
    finding->status = spec->severity == SL_SEVERITY_ERROR ? STATUS_FAIL : STATUS_WARN;
    finding->line = spec->line;
    finding->column = spec->column;
    finding->end_line = spec->end_line;
    finding->end_column = spec->end_column;
    if (spec->service != NULL)
        finding->service = xmemdup(spec->service, spec->service_length);
    if (spec->field != NULL)
        finding->field = xstrdup(spec->field);
    if (spec->value != NULL) {
        finding->value = xmemdup(spec->value, spec->value_length);
        finding->value_length = spec->value_length;
    }
    finding->key = key;
    finding->key_length = key_length;
    finding->message = xstrdup(spec->message);
    finding->hint = spec->hint != NULL ? xstrdup(spec->hint) : NULL;
    finding->score = spec->score;
    finding->comment = FINDING_NONE;
    finding->allowlist_entry = FINDING_NONE;
}

/* Adds, once, the error that says the rest of the file's findings were
 * not reported. */
static void truncate_set(struct finding_set *set)
{
    if (set->truncated)
        return;
    set->truncated = true;
    char *message = xasprintf("more than %u findings or %u MiB of finding text "
                              "in one file; the rest were not reported",
                              FINDING_SET_MAX_COUNT,
                              FINDING_SET_MAX_BYTES / (1024 * 1024));
    struct finding *finding = finding_set_append(set);
    struct finding_spec spec = {
        .rule = set->truncation_rule,
        .severity = SL_SEVERITY_ERROR,
        .message = message,
    };
    fill(finding, &spec, NULL, 0);
    free(message);
}

static struct finding *add_made(struct finding_set *set,
                                const struct finding_spec *spec);

struct finding *finding_set_add(struct finding_set *set,
                                const struct finding_spec *reported)
{
    if (set->truncated)
        return NULL;
    struct finding_spec made = *reported;
    made.severity = made_severity(reported);
    const struct finding_spec *spec = &made;
    struct finding *added = add_made(set, spec);
    if (added != NULL)
        added->reported_severity = reported->severity;
    return added;
}

/* finding_set_add() once the severity is the one the finding is made
 * with. */
static struct finding *add_made(struct finding_set *set,
                                const struct finding_spec *spec)
{
    size_t key_length = 0;
    char *key = NULL;
    if (spec->service != NULL)
        key = build_key(spec, &key_length);
    else if (spec->key != NULL) {
        key = xmemdup(spec->key, spec->key_length);
        key_length = spec->key_length;
    }
    size_t bytes = spec_bytes(spec, key_length);
    if (set->count >= FINDING_SET_MAX_COUNT ||
        bytes > FINDING_SET_MAX_BYTES - set->bytes) {
        free(key);
        truncate_set(set);
        return NULL;
    }

    size_t *slot = NULL;
    if (spec->field != NULL && key != NULL) {
        slot = dedupe_slot(set, spec, key, key_length);
        if (*slot != 0) {
            /* One finding per identity: keep the first, unless it was
             * only a warning and this one is an error. */
            struct finding *kept = &set->items[*slot - 1];
            if (!(kept->severity == SL_SEVERITY_WARNING &&
                  spec->severity == SL_SEVERITY_ERROR)) {
                free(key);
                return NULL;
            }
            finding_release(kept);
            fill(kept, spec, key, key_length);
            set->bytes += bytes;
            return kept;
        }
    }
    struct finding *finding = finding_set_append(set);
    fill(finding, spec, key, key_length);
    set->bytes += bytes;
    if (slot != NULL) {
        *slot = set->count;
        set->slot_used++;
    }
    return finding;
}

/* ------------------------------------------------------------------ */
/* the report's order                                                  */
/* ------------------------------------------------------------------ */

static int compare_bytes(const char *a, size_t a_length, const char *b,
                         size_t b_length)
{
    if (a == NULL || b == NULL)
        return (a != NULL) - (b != NULL);
    size_t common = a_length < b_length ? a_length : b_length;
    int order = common ? memcmp(a, b, common) : 0;
    if (order != 0)
        return order;
    return (a_length > b_length) - (a_length < b_length);
}

static int compare_findings(const struct finding *a, const struct finding *b,
                            const struct registry *registry)
{
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->column != b->column)
        return a->column < b->column ? -1 : 1;
    int order = strcmp(registry_rule_code(registry, a->rule),
                       registry_rule_code(registry, b->rule));
    if (order != 0)
        return order;
    order = compare_bytes(a->key, a->key_length, b->key, b->key_length);
    if (order != 0)
        return order;
    return strcmp(a->message ? a->message : "", b->message ? b->message : "");
}

/* A stable merge sort that takes the registry as context (qsort has no
 * context argument in C11, and a static would tie the sort to one run). */
static void merge_sort(struct finding *items, struct finding *scratch,
                       size_t count, const struct registry *registry)
{
    if (count < 2)
        return;
    size_t half = count / 2;
    merge_sort(items, scratch, half, registry);
    merge_sort(items + half, scratch, count - half, registry);
    if (compare_findings(&items[half - 1], &items[half], registry) <= 0)
        return;     /* already in order: the common case */
    size_t left = 0, right = half, out = 0;
    while (left < half && right < count)
        scratch[out++] = compare_findings(&items[right], &items[left], registry) < 0
                             ? items[right++] : items[left++];
    while (left < half)
        scratch[out++] = items[left++];
    while (right < count)
        scratch[out++] = items[right++];
    memcpy(items, scratch, count * sizeof(*items));
}

void finding_set_sort(struct finding_set *set, const struct registry *registry)
{
    if (set->count < 2)
        return;
    struct finding *scratch = xcalloc(set->count, sizeof(*scratch));
    merge_sort(set->items, scratch, set->count, registry);
    free(scratch);
    /* The dedupe index points at positions that moved: a sorted set takes
     * no more findings through finding_set_add(). */
    free(set->slots);
    set->slots = NULL;
    set->slot_capacity = set->slot_used = 0;
}
