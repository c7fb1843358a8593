/* allowlist.c - allowlists and stale entries (see allowlist.h). */
#include "config.h"

#include "allowlist.h"

#include <stdlib.h>
#include <string.h>

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

static bool entry_matches(const struct allowlist_entry *entry,
                          const struct sl_rule *rule, const char *package,
                          const struct finding *finding)
{
    if (finding->key == NULL)
        return false;
    /* Entries of the package "*" apply in every package. */
    bool any_package = strcmp(entry->package.text, "*") == 0;
    if (package == NULL && !any_package)
        return false;
    if (strcmp(entry->group.text, rule->group) != 0 &&
        (rule->group_code == NULL || strcmp(entry->group.text, rule->group_code) != 0))
        return false;
    return (any_package || strcmp(entry->package.text, package) == 0) &&
           entry->key.length == finding->key_length &&
           memcmp(entry->key.text, finding->key, finding->key_length) == 0;
}

void allowlist_apply(struct file_result *result, struct config *config,
                     const struct registry *registry)
{
    if (config->entry_count == 0)
        return;
    for (size_t i = 0; i < result->findings.count; i++) {
        struct finding *finding = &result->findings.items[i];
        if (finding->rule < CORE_RULE_COUNT)
            continue;
        const struct sl_rule *rule = &registry->rules[finding->rule].rule;
        for (size_t e = 0; e < config->entry_count; e++) {
            struct allowlist_entry *entry = &config->entries[e];
            if (!entry_matches(entry, rule, result->package, finding))
                continue;
            entry->used = true;
            if (finding_allowlisted(finding))
                continue;   /* the first entry that lists it names it */
            finding->allowlist_entry = e;
            if (finding->status != STATUS_SUPPRESSED)
                finding->status = STATUS_WARN;
        }
    }
}

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

bool allowlist_entry_stale(const struct allowlist_entry *entry,
                           const struct registry *registry,
                           allowlist_coverage_fn fully_checked, void *coverage_data,
                           const struct string_list *incomplete)
{
    bool any_package = strcmp(entry->package.text, "*") == 0;
    /* An entry for every package cannot be judged while any file could
     * not be read. */
    return !entry->used && fully_checked != NULL &&
           fully_checked(coverage_data, entry->package.text) &&
           !(any_package ? incomplete->count > 0
                         : string_list_has(incomplete, entry->package.text)) &&
           group_fully_enabled(registry, entry->group.text);
}

/* Whether entry left is written after entry right. */
static bool written_after(const struct config *config, size_t left, size_t right)
{
    const struct config_pos *a = &config->entries[left].key.pos;
    const struct config_pos *b = &config->entries[right].key.pos;
    return a->line != b->line ? a->line > b->line : a->column > b->column;
}

size_t allowlist_report_stale(const struct config *config,
                              const struct registry *registry,
                              const char *config_display,
                              allowlist_coverage_fn fully_checked,
                              void *coverage_data,
                              const struct string_list *incomplete,
                              struct file_result **results)
{
    *results = NULL;
    if (!registry->rules[CORE_RULE_STALE].enabled || fully_checked == NULL)
        return 0;
    size_t *stale = xcalloc(config->entry_count + 1, sizeof(*stale));
    size_t stale_count = 0;
    for (size_t e = 0; e < config->entry_count; e++) {
        const struct allowlist_entry *entry = &config->entries[e];
        if (!allowlist_entry_stale(entry, registry, fully_checked, coverage_data,
                                   incomplete))
            continue;
        /* Insertion keeps the entries in the order they are written (the
         * readers add them in that order already, so this rarely moves). */
        size_t at = stale_count++;
        stale[at] = e;
        while (at > 0 && written_after(config, stale[at - 1], stale[at])) {
            size_t swap = stale[at - 1];
            stale[at - 1] = stale[at];
            stale[at--] = swap;
        }
    }
    size_t count = 0;
    for (size_t i = 0; i < stale_count; i++) {
        const struct allowlist_entry *entry = &config->entries[stale[i]];
        /* A result names its package once: a new one for each run of
         * entries of another package. */
        if (count == 0 || strcmp((*results)[count - 1].package, entry->package.text) != 0) {
            *results = xrealloc(*results, count + 1, sizeof(**results));
            file_result_init(&(*results)[count++], config_display, entry->package.text);
        }
        char *message = xasprintf("allowlist entry '%s' for %s on '%s' is no "
                                  "longer needed", entry->key.text,
                                  entry->group.text, entry->package.text);
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
