/* rule_docs.c - --list-rules, --list-plugins, --explain (see rule_docs.h). */
#include "config.h"

#include "rule_docs.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static int width(int current, const char *text)
{
    int length = (int)strlen(text);
    return length > current ? length : current;
}

static const struct registry *sort_registry;

static int compare_codes(const void *a, const void *b)
{
    size_t left = *(const size_t *)a, right = *(const size_t *)b;
    return strcmp(sort_registry->rules[left].rule.code,
                  sort_registry->rules[right].rule.code);
}

void rule_docs_list_rules(FILE *out, const struct registry *registry)
{
    int code = 4, name = 4, group = 5, plugin = 6;
    for (size_t i = 0; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        code = width(code, entry->rule.code);
        name = width(name, entry->rule.name);
        group = width(group, entry->rule.group);
        plugin = width(plugin, registry->plugins[entry->plugin].descriptor.name);
    }
    fprintf(out, "%-*s  %-*s  %-*s  %-*s  %s\n", code, "CODE", name, "NAME",
            group, "GROUP", plugin, "PLUGIN", "SUMMARY");
    /* Sorted by code, whatever order the plugins loaded in. */
    size_t *order = xcalloc(registry->rule_count, sizeof(*order));
    for (size_t i = 0; i < registry->rule_count; i++)
        order[i] = i;
    sort_registry = registry;
    qsort(order, registry->rule_count, sizeof(*order), compare_codes);
    for (size_t n = 0; n < registry->rule_count; n++) {
        const struct rule_entry *entry = &registry->rules[order[n]];
        bool opt_in = (entry->rule.flags & SL_RULE_OPT_IN) != 0;
        const char *state = opt_in ? (entry->enabled ? " (opt-in)"
                                                     : " (opt-in, not selected)")
                                   : (entry->enabled ? "" : " (not selected)");
        fprintf(out, "%-*s  %-*s  %-*s  %-*s  %s%s\n", code, entry->rule.code,
                name, entry->rule.name, group, entry->rule.group, plugin,
                registry->plugins[entry->plugin].descriptor.name,
                entry->rule.summary, state);
    }
    free(order);
}

void rule_docs_list_plugins(FILE *out, const struct registry *registry)
{
    int name = 4, version = 7;
    for (size_t i = 0; i < registry->plugin_count; i++) {
        name = width(name, registry->plugins[i].descriptor.name);
        version = width(version, registry->plugins[i].descriptor.version);
    }
    fprintf(out, "%-*s  %-*s  %-5s  %-5s  %s\n", name, "NAME", version,
            "VERSION", "ABI", "RULES", "PATH");
    for (size_t i = 0; i < registry->plugin_count; i++) {
        const struct loaded_plugin *plugin = &registry->plugins[i];
        size_t rules = 0;
        for (size_t j = 0; j < registry->rule_count; j++)
            rules += registry->rules[j].plugin == i;
        char abi[32];
        snprintf(abi, sizeof(abi), "%u.%u", plugin->descriptor.abi_major,
                 plugin->declared_minor);
        fprintf(out, "%-*s  %-*s  %-5s  %-5zu  %s\n", name,
                plugin->descriptor.name, version, plugin->descriptor.version,
                abi, rules, plugin->path ? plugin->path : "(built in)");
    }
}

/* Prints a documentation paragraph indented by two spaces per line. */
static void section(FILE *out, const char *title, const char *text)
{
    if (text == NULL || text[0] == '\0')
        return;
    fprintf(out, "\n%s\n", title);
    const char *line = text;
    while (*line != '\0') {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (length == 0)
            fputs("\n", out);
        else
            fprintf(out, "  %.*s\n", (int)length, line);
        line += length + (end != NULL);
    }
}

/* Appends text to a growing string. */
static void append(char **text, size_t *length, const char *more, size_t more_length)
{
    *text = xrealloc(*text, *length + more_length + 1, 1);
    memcpy(*text + *length, more, more_length);
    *length += more_length;
    (*text)[*length] = '\0';
}

static void append_cstring(char **text, size_t *length, const char *more)
{
    append(text, length, more, strlen(more));
}

/* A default as --explain shows it: "\"text\"", "10", "true", "empty". */
static void append_default(char **text, size_t *length, const struct sl_option *option)
{
    char number[32];
    switch (option->type) {
    case SL_OPTION_STRING:
        append_cstring(text, length, "\"");
        append_cstring(text, length, option->default_string ? option->default_string : "");
        append_cstring(text, length, "\"");
        break;
    case SL_OPTION_INTEGER:
        snprintf(number, sizeof(number), "%lld", option->default_integer);
        append_cstring(text, length, number);
        break;
    case SL_OPTION_BOOLEAN:
        append_cstring(text, length, option->default_boolean ? "true" : "false");
        break;
    default:
        if (option->default_list == NULL || option->default_list[0] == NULL)
            append_cstring(text, length, "empty");
        for (size_t i = 0; option->default_list != NULL &&
                           option->default_list[i] != NULL; i++) {
            append_cstring(text, length, i ? ", \"" : "\"");
            append_cstring(text, length, option->default_list[i]);
            append_cstring(text, length, "\"");
        }
        break;
    }
}

/* The "Options" section: where to set them, then one entry per option. */
static char *options_text(const struct rule_entry *entry)
{
    static const char *const types[] = { "", "string", "integer", "boolean", "list" };
    char *text = NULL;
    size_t length = 0;
    char *where = xasprintf("Set under [rule %s] in .sandlint.ini or "
                            "[tool.sandlint.rules.%s] in pyproject.toml.\n",
                            entry->rule.code, entry->rule.code);
    append_cstring(&text, &length, where);
    free(where);
    for (size_t i = 0; i < entry->option_count; i++) {
        const struct sl_option *option = &entry->options[i].declared;
        append_cstring(&text, &length, option->name);
        append_cstring(&text, &length, " (");
        append_cstring(&text, &length, types[option->type]);
        append_cstring(&text, &length, ", default ");
        append_default(&text, &length, option);
        append_cstring(&text, &length, ")\n  ");
        append_cstring(&text, &length, option->summary);
        append_cstring(&text, &length, "\n");
    }
    return text;
}

int rule_docs_explain(FILE *out, const struct registry *registry,
                      const char *name)
{
    for (size_t i = 0; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        const struct sl_rule *rule = &entry->rule;
        if (strcmp(rule->code, name) != 0 && strcmp(rule->name, name) != 0)
            continue;
        fprintf(out, "%s %s: %s\n", rule->code, rule->name, rule->summary);
        fprintf(out, "  group %s%s%s%s, plugin %s, default severity %s%s\n",
                rule->group, rule->group_code ? " (" : "",
                rule->group_code ? rule->group_code : "",
                rule->group_code ? ")" : "",
                registry->plugins[entry->plugin].descriptor.name,
                rule->default_severity == SL_SEVERITY_WARNING ? "warning"
                                                              : "error",
                rule->flags & SL_RULE_OPT_IN ? ", opt-in" : "");
        section(out, "What it reports", rule->description);
        section(out, "Why it matters", rule->rationale);
        section(out, "How to fix", rule->fix);
        section(out, "Allowlist key", rule->key_format);
        if (entry->option_count > 0) {
            char *options = options_text(entry);
            section(out, "Options", options);
            free(options);
        }
        section(out, "Example", rule->example);
        return 0;
    }
    return -1;
}
