/* rule_docs.c - --list-rules, --list-plugins, --explain (see rule_docs.h). */
#include "config.h"

#include "rule_docs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "file_kind.h"
#include "json_writer.h"
#include "word_wrap.h"
#include "xalloc.h"

static int width(int current, const char *text)
{
    int length = (int)strlen(text);
    return length > current ? length : current;
}

static const char *severity_name(int severity)
{
    return severity == SL_SEVERITY_WARNING ? "warning" : "error";
}

static const struct registry *sort_registry;

static int compare_codes(const void *a, const void *b)
{
    size_t left = *(const size_t *)a, right = *(const size_t *)b;
    return strcmp(sort_registry->rules[left].rule.code,
                  sort_registry->rules[right].rule.code);
}

/* The registry's rules sorted by code, whatever order the plugins loaded
 * in; the caller frees the array. */
static size_t *rules_by_code(const struct registry *registry)
{
    size_t *order = xcalloc(registry->rule_count ? registry->rule_count : 1,
                            sizeof(*order));
    for (size_t i = 0; i < registry->rule_count; i++)
        order[i] = i;
    sort_registry = registry;
    qsort(order, registry->rule_count, sizeof(*order), compare_codes);
    return order;
}

/* ------------------------------------------------------------------ */
/* --list-rules                                                        */
/* ------------------------------------------------------------------ */

static void list_rules_text(FILE *out, const struct registry *registry)
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
    size_t *order = rules_by_code(registry);
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

/* The name of the n-th kind of file a rule checks (SL_KIND_*), or NULL
 * past the last.  A rule built for ABI 1.0 or 1.1 declares none: Compose.
 * A kind this sandlint does not know never runs and is not named. */
static const char *nth_kind(unsigned kinds, size_t n)
{
    if (kinds == 0)
        kinds = SL_KIND_COMPOSE;
    for (unsigned bit = 1; bit != 0; bit <<= 1) {
        const char *name = (kinds & bit) != 0 ? file_kind_name((int)bit) : NULL;
        if (name != NULL && strcmp(name, "unknown") != 0 && n-- == 0)
            return name;
    }
    return NULL;
}

/* The kinds as a JSON array of their names. */
static void write_kinds(FILE *out, unsigned kinds)
{
    fputc('[', out);
    const char *name;
    for (size_t n = 0; (name = nth_kind(kinds, n)) != NULL; n++) {
        fputs(n == 0 ? "" : ", ", out);
        json_write_cstring(out, name);
    }
    fputc(']', out);
}

/* The kinds as "compose, agent-env, kubernetes"; the caller frees it. */
static char *kind_names(unsigned kinds)
{
    char *names = xstrdup("");
    const char *name;
    for (size_t n = 0; (name = nth_kind(kinds, n)) != NULL; n++) {
        char *longer = xasprintf("%s%s%s", names, n == 0 ? "" : ", ", name);
        free(names);
        names = longer;
    }
    return names;
}

static void json_header(FILE *out)
{
    fputs("{\"tool\": \"sandlint\", \"version\": ", out);
    json_write_cstring(out, PACKAGE_VERSION);
    fprintf(out, ", \"schema\": %d", RULE_DOCS_JSON_SCHEMA);
}

static void list_rules_json(FILE *out, const struct registry *registry)
{
    json_header(out);
    fputs(", \"rules\": [", out);
    size_t *order = rules_by_code(registry);
    for (size_t n = 0; n < registry->rule_count; n++) {
        const struct rule_entry *entry = &registry->rules[order[n]];
        const struct sl_rule *rule = &entry->rule;
        fputs(n == 0 ? "\n  {\"code\": " : ",\n  {\"code\": ", out);
        json_write_cstring(out, rule->code);
        fputs(", \"name\": ", out);
        json_write_cstring(out, rule->name);
        fputs(", \"group\": ", out);
        json_write_cstring(out, rule->group);
        fputs(", \"group_code\": ", out);
        json_write_cstring(out, rule->group_code);
        fputs(", \"plugin\": ", out);
        json_write_cstring(out, registry->plugins[entry->plugin].descriptor.name);
        fputs(", \"kinds\": ", out);
        write_kinds(out, rule->kinds);
        fprintf(out, ", \"default_severity\": \"%s\", \"severity\": \"%s\", "
                "\"opt_in\": %s, \"enabled\": %s, \"summary\": ",
                severity_name(rule->default_severity),
                severity_name(rule_entry_severity(entry)),
                (rule->flags & SL_RULE_OPT_IN) != 0 ? "true" : "false",
                entry->enabled ? "true" : "false");
        json_write_cstring(out, rule->summary);
        fputs(", \"url\": ", out);
        json_write_cstring(out, rule->url);
        fputc('}', out);
    }
    free(order);
    fputs(registry->rule_count ? "\n]}\n" : "]}\n", out);
}

void rule_docs_list_rules(FILE *out, const struct registry *registry, bool json)
{
    if (json)
        list_rules_json(out, registry);
    else
        list_rules_text(out, registry);
}

/* ------------------------------------------------------------------ */
/* --list-plugins                                                      */
/* ------------------------------------------------------------------ */

static void list_plugins_text(FILE *out, const struct registry *registry)
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

static void list_plugins_json(FILE *out, const struct registry *registry)
{
    json_header(out);
    fputs(", \"plugins\": [", out);
    size_t *order = rules_by_code(registry);
    for (size_t i = 0; i < registry->plugin_count; i++) {
        const struct loaded_plugin *plugin = &registry->plugins[i];
        fputs(i == 0 ? "\n  {\"name\": " : ",\n  {\"name\": ", out);
        json_write_cstring(out, plugin->descriptor.name);
        fputs(", \"version\": ", out);
        json_write_cstring(out, plugin->descriptor.version);
        fputs(", \"summary\": ", out);
        json_write_cstring(out, plugin->descriptor.summary);
        fprintf(out, ", \"abi\": \"%u.%u\", \"path\": ",
                plugin->descriptor.abi_major, plugin->declared_minor);
        json_write_cstring(out, plugin->path);
        fputs(", \"rules\": [", out);
        bool first = true;
        for (size_t n = 0; n < registry->rule_count; n++) {
            const struct rule_entry *entry = &registry->rules[order[n]];
            if (entry->plugin != i)
                continue;
            fputs(first ? "" : ", ", out);
            json_write_cstring(out, entry->rule.code);
            first = false;
        }
        fputs("]}", out);
    }
    free(order);
    fputs("\n]}\n", out);
}

void rule_docs_list_plugins(FILE *out, const struct registry *registry, bool json)
{
    if (json)
        list_plugins_json(out, registry);
    else
        list_plugins_text(out, registry);
}

/* ------------------------------------------------------------------ */
/* --explain                                                           */
/* ------------------------------------------------------------------ */

/* How a section's lines are laid out. */
enum section_layout {
    LAYOUT_PROSE,       /* a line is a paragraph, "- " a bullet, an indented
                           line outside a list a literal display */
    LAYOUT_KEYS,        /* a key format per line, maybe with a note */
    LAYOUT_OPTIONS,     /* "name (type, default)" and an indented summary */
    LAYOUT_LITERAL      /* as written (examples) */
};

static size_t leading_spaces(const char *line, size_t length)
{
    size_t indent = 0;
    while (indent < length && line[indent] == ' ')
        indent++;
    return indent;
}

/* "  " and indent more spaces: the prefix of a line of a section. */
static char *indentation(size_t indent)
{
    char *prefix = xmalloc(indent + 3);
    memset(prefix, ' ', indent + 2);
    prefix[indent + 2] = '\0';
    return prefix;
}

/* One line of a prose section; *in_list and *bullet_indent carry the
 * list a bullet opened to the lines after it. */
static void prose_line(FILE *out, const char *line, size_t length, size_t width,
                       bool *in_list, size_t *bullet_indent)
{
    size_t indent = leading_spaces(line, length);
    const char *body = line + indent;
    size_t body_length = length - indent;
    if (body_length >= 2 && body[0] == '-' && body[1] == ' ') {
        *in_list = true;
        *bullet_indent = indent;
        char *first = indentation(indent);
        char *rest = indentation(indent + 2);
        char *bullet = xasprintf("%s- ", first);
        word_wrap(out, body + 2, body_length - 2, bullet, rest, width);
        free(bullet);
        free(first);
        free(rest);
    } else if (*in_list && indent > *bullet_indent) {
        char *prefix = indentation(indent);
        word_wrap(out, body, body_length, prefix, prefix, width);
        free(prefix);
    } else if (indent >= 2) {
        /* A literal display: never rewrapped. */
        *in_list = false;
        fprintf(out, "  %.*s\n", (int)length, line);
    } else {
        *in_list = false;
        word_wrap(out, body, body_length, "  ", "  ", width);
    }
}

/* One line of "Allowlist key": the key format whole, its note (if the
 * line does not fit) wrapped below it. */
static void key_line(FILE *out, const char *line, size_t length, size_t width)
{
    const char *space = memchr(line, ' ', length);
    if (2 + word_wrap_columns(line, length) <= width || space == NULL) {
        fprintf(out, "  %.*s\n", (int)length, line);
        return;
    }
    size_t key_length = (size_t)(space - line);
    fprintf(out, "  %.*s\n", (int)key_length, line);
    word_wrap(out, space + 1, length - key_length - 1, "      ", "      ", width);
}

/* One line of "Options": an option's title, or its indented summary. */
static void option_line(FILE *out, const char *line, size_t length, size_t width)
{
    size_t indent = leading_spaces(line, length);
    char *prefix = indentation(indent);
    char *rest = indentation(indent + 2);
    word_wrap(out, line + indent, length - indent, prefix, indent ? prefix : rest, width);
    free(prefix);
    free(rest);
}

/* A titled section of --explain, its lines indented by two spaces. */
static void section(FILE *out, const char *title, const char *text,
                    enum section_layout layout, size_t width)
{
    if (text == NULL || text[0] == '\0')
        return;
    fprintf(out, "\n%s\n", title);
    bool in_list = false;
    size_t bullet_indent = 0;
    const char *line = text;
    while (*line != '\0') {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (length == 0)
            fputs("\n", out);
        else if (layout == LAYOUT_PROSE)
            prose_line(out, line, length, width, &in_list, &bullet_indent);
        else if (layout == LAYOUT_KEYS)
            key_line(out, line, length, width);
        else if (layout == LAYOUT_OPTIONS)
            option_line(out, line, length, width);
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
                      const char *name, size_t columns)
{
    size_t width = columns < 20 ? 20 : columns;
    for (size_t i = 0; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        const struct sl_rule *rule = &entry->rule;
        if (strcmp(rule->code, name) != 0 && strcmp(rule->name, name) != 0)
            continue;
        char *title = xasprintf("%s %s: %s", rule->code, rule->name, rule->summary);
        word_wrap(out, title, strlen(title), "", "    ", width);
        free(title);
        /* A configured severity (rule_options.h) is shown beside the
         * default: it is what this run's findings get. */
        char *configured = entry->severity != SL_SEVERITY_DEFAULT
                               ? xasprintf(" (configured: %s)",
                                           severity_name(entry->severity))
                               : xstrdup("");
        char *about = xasprintf("group %s%s%s%s, plugin %s, default severity %s%s%s",
                                rule->group, rule->group_code ? " (" : "",
                                rule->group_code ? rule->group_code : "",
                                rule->group_code ? ")" : "",
                                registry->plugins[entry->plugin].descriptor.name,
                                severity_name(rule->default_severity), configured,
                                rule->flags & SL_RULE_OPT_IN ? ", opt-in" : "");
        word_wrap(out, about, strlen(about), "  ", "    ", width);
        free(about);
        free(configured);
        char *kinds = kind_names(rule->kinds);
        word_wrap(out, kinds, strlen(kinds), "  kinds: ", "    ", width);
        free(kinds);
        if (rule->url != NULL)
            fprintf(out, "  documentation: %s\n", rule->url);
        section(out, "What it reports", rule->description, LAYOUT_PROSE, width);
        section(out, "Why it matters", rule->rationale, LAYOUT_PROSE, width);
        section(out, "How to fix", rule->fix, LAYOUT_PROSE, width);
        section(out, "Allowlist key", rule->key_format, LAYOUT_KEYS, width);
        if (entry->option_count > 0) {
            char *options = options_text(entry);
            section(out, "Options", options, LAYOUT_OPTIONS, width);
            free(options);
        }
        section(out, "Example", rule->example, LAYOUT_LITERAL, width);
        return 0;
    }
    return -1;
}

size_t rule_docs_width(FILE *out)
{
    const char *columns = getenv("COLUMNS");
    if (columns != NULL && columns[0] >= '1' && columns[0] <= '9') {
        char *end = NULL;
        errno = 0;
        unsigned long long value = strtoull(columns, &end, 10);
        if (errno == 0 && *end == '\0')
            return value > (size_t)-1 ? (size_t)-1 : (size_t)value;
    }
    struct winsize size;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &size) == 0 &&
        size.ws_col > 0)
        return size.ws_col;
    return 80;
}
