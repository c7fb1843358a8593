/* rule_options.c - per-rule options from the configuration (see rule_options.h). */
#include "config.h"

#include "rule_options.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "terminal.h"
#include "xalloc.h"

/* "a, b" or "none": the options a rule declares, for a message. */
static char *declared_names(const struct rule_entry *entry)
{
    if (entry->option_count == 0)
        return xstrdup("it declares none");
    size_t size = 32;
    for (size_t i = 0; i < entry->option_count; i++)
        size += strlen(entry->options[i].declared.name) + 2;
    char *names = xmalloc(size);
    size_t used = (size_t)snprintf(names, size, "its options: ");
    for (size_t i = 0; i < entry->option_count; i++)
        used += (size_t)snprintf(names + used, size - used, "%s%s", i ? ", " : "",
                                 entry->options[i].declared.name);
    return names;
}

/* The rule a configured option belongs to, or NULL after config_fail(). */
static struct rule_entry *configured_rule(struct registry *registry,
                                          const struct config_rule_option *option,
                                          struct config_error *error)
{
    const struct config_item *rule = &option->rule;
    size_t index = strlen(rule->text) == rule->length
                       ? registry_find_code(registry, rule->text) : (size_t)-1;
    if (index != (size_t)-1)
        return &registry->rules[index];
    char *shown = config_quote(error, rule->text, rule->length);
    config_fail(error, rule->pos, "options for rule '%s', but no loaded rule has "
                "that code (see --list-rules)", shown);
    free(shown);
    return NULL;
}

/* The declared option a configured one sets, or NULL after config_fail(). */
static struct rule_option *declared_option(const struct rule_entry *entry,
                                           const struct config_rule_option *option,
                                           struct config_error *error)
{
    const struct config_item *name = &option->name;
    struct rule_option *declared = strlen(name->text) == name->length
                                       ? rule_entry_option(entry, name->text) : NULL;
    if (declared != NULL)
        return declared;
    char *shown = config_quote(error, name->text, name->length);
    char *names = declared_names(entry);
    config_fail(error, name->pos, "rule %s has no option '%s' (%s)",
                entry->rule.code, shown, names);
    free(names);
    free(shown);
    return NULL;
}

/* Reads the configured value with the declared type into declared. */
static int store_value(struct rule_option *declared,
                       const struct config_rule_option *option,
                       struct config_error *error)
{
    rule_option_clear(declared);
    switch (declared->declared.type) {
    case SL_OPTION_STRING: {
        const char *text;
        size_t length;
        if (config_rule_option_string(option, &text, &length, error) != 0)
            return -1;
        declared->string = xmemdup(text, length);
        declared->string_length = length;
        break;
    }
    case SL_OPTION_INTEGER: {
        int64_t value;
        if (config_rule_option_integer(option, &value, error) != 0)
            return -1;
        declared->integer = (long long)value;
        break;
    }
    case SL_OPTION_BOOLEAN:
        if (config_rule_option_boolean(option, &declared->boolean, error) != 0)
            return -1;
        break;
    case SL_OPTION_LIST: {
        struct config_list items = { NULL, 0, 0 };
        if (config_rule_option_list(option, &items, error) != 0) {
            config_list_release(&items);
            return -1;
        }
        declared->item_count = items.count;
        declared->items = xcalloc(items.count ? items.count : 1, sizeof(char *));
        declared->item_lengths = xcalloc(items.count ? items.count : 1, sizeof(size_t));
        for (size_t i = 0; i < items.count; i++) {
            declared->items[i] = xmemdup(items.items[i].text, items.items[i].length);
            declared->item_lengths[i] = items.items[i].length;
        }
        config_list_release(&items);
        break;
    }
    default:
        return -1;  /* the registry accepts only the four types */
    }
    declared->configured = true;
    return 0;
}

/* The core's diagnostics that say a file, or part of one, was not
 * checked (SPEC §17): their errors must fail the run, so their severity
 * cannot be lowered ("exclude" skips a file on purpose). */
static const char *const unchecked_codes[] = {
    "SL001", "SL002", "SL006", "SL007", "SL008", "SL010",
};

static bool says_unchecked(const char *code)
{
    for (size_t i = 0; i < sizeof(unchecked_codes) / sizeof(*unchecked_codes); i++)
        if (strcmp(code, unchecked_codes[i]) == 0)
            return true;
    return false;
}

/* `severity = error|warning` under [rule CODE]: stored in the rule's
 * entry, which findings.c reads when a finding is made. */
static int store_severity(struct rule_entry *entry,
                          const struct config_rule_option *option,
                          struct config_error *error)
{
    const char *text;
    size_t length;
    if (config_rule_option_string(option, &text, &length, error) != 0)
        return -1;
    int severity = length == strlen(text) && strcmp(text, "error") == 0 ? SL_SEVERITY_ERROR
                   : length == strlen(text) && strcmp(text, "warning") == 0
                       ? SL_SEVERITY_WARNING : SL_SEVERITY_DEFAULT;
    if (severity == SL_SEVERITY_DEFAULT) {
        char *shown = terminal_escape(text, length);
        config_fail(error, option->value_pos, "severity of rule %s must be "
                    "\"error\" or \"warning\", not '%s'", entry->rule.code, shown);
        free(shown);
        return -1;
    }
    if (severity == SL_SEVERITY_WARNING && says_unchecked(entry->rule.code)) {
        config_fail(error, option->value_pos, "severity of rule %s cannot be "
                    "lowered: its errors say that a file was not (completely) "
                    "checked, which fails the run; the exclude setting skips a "
                    "file on purpose", entry->rule.code);
        return -1;
    }
    entry->severity = severity;
    return 0;
}

int rule_options_apply(struct registry *registry, const struct config *config,
                       struct config_error *error)
{
    for (size_t i = 0; i < config->rule_option_count; i++) {
        const struct config_rule_option *option = &config->rule_options[i];
        struct rule_entry *entry = configured_rule(registry, option, error);
        if (entry != NULL && option->name.length == strlen(RESERVED_OPTION_SEVERITY) &&
            strcmp(option->name.text, RESERVED_OPTION_SEVERITY) == 0) {
            if (store_severity(entry, option, error) != 0)
                return -1;
            continue;
        }
        struct rule_option *declared =
            entry != NULL ? declared_option(entry, option, error) : NULL;
        if (declared == NULL || store_value(declared, option, error) != 0)
            return -1;
    }
    return 0;
}
