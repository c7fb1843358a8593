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
                          const struct sl_rule *rule,
                          const struct finding *finding)
{
    if (finding->package == NULL || finding->key == NULL)
        return false;
    if (strcmp(entry->group.text, rule->group) != 0 &&
        (rule->group_code == NULL || strcmp(entry->group.text, rule->group_code) != 0))
        return false;
    return strcmp(entry->package.text, finding->package) == 0 &&
           entry->key.length == finding->key_length &&
           memcmp(entry->key.text, finding->key, finding->key_length) == 0;
}

void allowlist_apply(struct finding_list *findings, struct config *config,
                     const struct registry *registry, const char *config_display)
{
    if (config->entry_count == 0)
        return;
    for (size_t i = 0; i < findings->count; i++) {
        struct finding *finding = &findings->items[i];
        if (finding->rule < CORE_RULE_COUNT)
            continue;
        const struct sl_rule *rule = &registry->rules[finding->rule].rule;
        for (size_t e = 0; e < config->entry_count; e++) {
            struct allowlist_entry *entry = &config->entries[e];
            if (!entry_matches(entry, rule, finding))
                continue;
            entry->used = true;
            if (finding->allowlisted)
                continue;
            finding->allowlisted = true;
            finding->severity = SL_SEVERITY_WARNING;
            if (finding->status != STATUS_SUPPRESSED) {
                finding->status = STATUS_WARN;
                finding->suppression = SUPPRESSION_ALLOWLIST;
                free(finding->suppression_reason);
                finding->suppression_reason = xasprintf(
                    "allowlisted in %s:%u", config_display, entry->key.pos.line);
            }
            char *message = xasprintf("Allowlisted: %s", finding->message);
            free(finding->message);
            finding->message = message;
            free(finding->hint);
            finding->hint = xasprintf(
                "allowlisted as '%s' for %s in %s:%u:%u; remove the entry "
                "once the setting is gone", entry->key.text, entry->package.text,
                config_display, entry->key.pos.line, entry->key.pos.column);
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

void allowlist_report_stale(struct finding_list *findings,
                            const struct config *config,
                            const struct registry *registry,
                            const char *config_display,
                            const struct string_list *checked,
                            const struct string_list *incomplete)
{
    if (!registry->rules[CORE_RULE_STALE].enabled)
        return;
    for (size_t e = 0; e < config->entry_count; e++) {
        const struct allowlist_entry *entry = &config->entries[e];
        if (entry->used || !string_list_has(checked, entry->package.text) ||
            string_list_has(incomplete, entry->package.text) ||
            !group_fully_enabled(registry, entry->group.text))
            continue;
        struct finding *finding = finding_list_add(findings);
        finding->rule = CORE_RULE_STALE;
        finding->severity = SL_SEVERITY_WARNING;
        finding->status = STATUS_WARN;
        finding->package = xstrdup(entry->package.text);
        finding->file = xstrdup(config_display);
        finding->line = entry->key.pos.line;
        finding->column = entry->key.pos.column;
        finding->key = xmemdup(entry->key.text, entry->key.length);
        finding->key_length = entry->key.length;
        finding->message = xasprintf("allowlist entry '%s' for %s on '%s' is "
                                     "no longer needed", entry->key.text,
                                     entry->group.text, entry->package.text);
        finding->hint = xstrdup("remove the entry: no finding of this run "
                                "matches it");
    }
}
