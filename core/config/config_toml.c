/*
 * config_toml.c - settings from pyproject.toml: [tool.sandlint] and, for
 * drop-in use, the sandbox_privileges allowlists of
 * [tool.inspect-evals-lint].
 *
 * TOML strings may hold any code point, NUL included (\u0000).  Names
 * (settings, selectors, globs, plugins, groups, packages, rule codes and
 * option names) are compared as C strings later, where a NUL would cut
 * them to something else ("SBX\u0000x" would select SBX): a NUL in a name
 * is an error here.  Allowlist keys and option values keep every byte.
 */
#include "config.h"

#include "config_file.h"

#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "terminal.h"
#include "toml/toml.h"
#include "xalloc.h"

static struct config_pos pos_of(struct toml_pos pos)
{
    struct config_pos out = { pos.line, pos.column };
    return out;
}

/* Whether a key of length bytes is word (keys may hold NUL). */
static bool key_is(const char *key, size_t length, const char *word)
{
    return length == strlen(word) && memcmp(key, word, length) == 0;
}

/* Refuses a name holding a NUL byte; what names what the name is for. */
static int check_name(const char *name, size_t length, struct toml_pos pos,
                      const char *what, struct config_error *error)
{
    if (memchr(name, '\0', length) == NULL)
        return 0;
    char *shown = config_quote(error, name, length);
    config_fail(error, pos_of(pos), "%s '%s' holds a NUL byte", what, shown);
    free(shown);
    return -1;
}

/* A string, or an array of strings, into list; with split, strings are
 * split at commas like the INI form.  what says what an item names, for
 * the NUL check (NULL: items are keys, which may hold any byte).  Returns
 * 0, or -1 with the error set. */
static int read_strings(struct config_list *list, const char *table,
                        const char *name, const struct toml_value *value,
                        struct config_error *error, bool split, const char *what)
{
    if (toml_kind(value) == TOML_STRING) {
        size_t length;
        const char *text = toml_string(value, &length);
        if (what != NULL &&
            check_name(text, length, toml_value_pos(value), what, error) != 0)
            return -1;
        if (split)
            config_split_list(list, text, length, pos_of(toml_value_pos(value)));
        else
            config_list_add(list, text, length, pos_of(toml_value_pos(value)));
        return 0;
    }
    if (toml_kind(value) != TOML_ARRAY) {
        const char *kind = toml_kind_name(toml_kind(value));
        config_fail(error, pos_of(toml_value_pos(value)), "%s.%s must be a "
                    "string or an array of strings, not %s", table, name, kind);
        return -1;
    }
    for (size_t i = 0; i < toml_array_size(value); i++) {
        const struct toml_value *item = toml_array_get(value, i);
        if (toml_kind(item) != TOML_STRING) {
            const char *kind = toml_kind_name(toml_kind(item));
            config_fail(error, pos_of(toml_value_pos(item)), "%s.%s must hold "
                        "strings, not %s", table, name, kind);
            return -1;
        }
        size_t length;
        const char *text = toml_string(item, &length);
        if (what != NULL &&
            check_name(text, length, toml_value_pos(item), what, error) != 0)
            return -1;
        config_list_add(list, text, length, pos_of(toml_value_pos(item)));
    }
    return 0;
}

/* allowlists.GROUP = { package = ["key", ...] } */
static int read_allowlist_group(struct config *config, const char *table,
                                const char *group, size_t group_length,
                                struct toml_pos group_pos,
                                const struct toml_value *packages,
                                bool inspect_table, struct config_error *error)
{
    char *shown_group = config_quote(error, group, group_length);
    char *where = xasprintf("allowlists.%s", shown_group);
    free(shown_group);
    int result = -1;
    if (toml_kind(packages) != TOML_TABLE) {
        const char *kind = toml_kind_name(toml_kind(packages));
        config_fail(error, pos_of(toml_value_pos(packages)), "%s.%s must be a "
                    "table of package = [keys], not %s", table, where, kind);
        goto done;
    }
    struct config_item group_item = { (char *)group, group_length, pos_of(group_pos) };
    config_list_add(&config->groups, group, group_length, pos_of(group_pos));
    if (!inspect_table)
        config_list_add(&config->own_groups, group, group_length, pos_of(group_pos));
    for (size_t i = 0; i < toml_table_size(packages); i++) {
        const char *scope;
        size_t scope_length;
        struct toml_pos scope_pos;
        const struct toml_value *keys =
            toml_table_entry(packages, i, &scope, &scope_length, &scope_pos);
        if (check_name(scope, scope_length, scope_pos, "allowlist scope", error) != 0)
            goto done;
        struct config_item scope_item = { (char *)scope, scope_length, pos_of(scope_pos) };
        struct config_list list = { NULL, 0, 0 };
        if (read_strings(&list, table, where, keys, error, false, NULL) != 0) {
            config_list_release(&list);
            goto done;
        }
        for (size_t k = 0; k < list.count; k++) {
            if (list.items[k].length == 0) {
                char *shown = config_quote(error, scope, scope_length);
                config_fail(error, list.items[k].pos, "empty allowlist entry "
                            "for '%s'", shown);
                free(shown);
                config_list_release(&list);
                goto done;
            }
            if (config_add_entry(config, &group_item, &scope_item, &list.items[k],
                                 inspect_table, error) != 0) {
                config_list_release(&list);
                goto done;
            }
        }
        config_list_release(&list);
    }
    result = 0;
done:
    free(where);
    return result;
}

static int read_allowlists(struct config *config, const char *table,
                           const struct toml_value *allowlists,
                           bool only_sandbox_group, struct config_error *error)
{
    if (toml_kind(allowlists) != TOML_TABLE) {
        const char *kind = toml_kind_name(toml_kind(allowlists));
        config_fail(error, pos_of(toml_value_pos(allowlists)), "%s.allowlists "
                    "must be a table, not %s", table, kind);
        return -1;
    }
    for (size_t i = 0; i < toml_table_size(allowlists); i++) {
        const char *group;
        size_t group_length;
        struct toml_pos group_pos;
        const struct toml_value *packages =
            toml_table_entry(allowlists, i, &group, &group_length, &group_pos);
        /* inspect-evals-lint allowlists of its other rules are not ours. */
        if (only_sandbox_group && !key_is(group, group_length, "sandbox_privileges") &&
            !key_is(group, group_length, "IESC001"))
            continue;
        if (check_name(group, group_length, group_pos, "allowlist group", error) != 0 ||
            read_allowlist_group(config, table, group, group_length, group_pos,
                                 packages, only_sandbox_group, error) != 0)
            return -1;
    }
    return 0;
}

/* One option of [tool.sandlint.rules.CODE], stored with its TOML type. */
static int read_rule_option(struct config *config, const struct config_item *rule,
                            const char *name, size_t name_length,
                            struct toml_pos name_pos, const struct toml_value *value,
                            struct config_error *error)
{
    if (check_name(name, name_length, name_pos, "option name", error) != 0)
        return -1;
    struct config_rule_option option;
    memset(&option, 0, sizeof(option));
    option.rule = *rule;
    option.name.text = (char *)name;
    option.name.length = name_length;
    option.name.pos = pos_of(name_pos);
    option.value_pos = pos_of(toml_value_pos(value));
    option.type = CONFIG_VALUE_OTHER;
    switch (toml_kind(value)) {
    case TOML_STRING:
        option.type = CONFIG_VALUE_STRING;
        option.text.text = (char *)toml_string(value, &option.text.length);
        option.text.pos = option.value_pos;
        break;
    case TOML_INTEGER:
        option.type = CONFIG_VALUE_INTEGER;
        option.integer = toml_integer(value);
        break;
    case TOML_BOOLEAN:
        option.type = CONFIG_VALUE_BOOLEAN;
        option.boolean = toml_boolean(value) != 0;
        break;
    case TOML_ARRAY:
        option.type = CONFIG_VALUE_STRING_LIST;
        for (size_t i = 0; i < toml_array_size(value); i++) {
            const struct toml_value *item = toml_array_get(value, i);
            if (toml_kind(item) != TOML_STRING) {
                config_list_release(&option.list);
                option.type = CONFIG_VALUE_OTHER;
                break;
            }
            size_t length;
            const char *text = toml_string(item, &length);
            config_list_add(&option.list, text, length, pos_of(toml_value_pos(item)));
        }
        break;
    default:
        break;
    }
    if (option.type == CONFIG_VALUE_OTHER) {
        /* Kept so that the getter can say what the value is. */
        const char *kind = toml_kind(value) == TOML_ARRAY
                               ? "array that does not hold only strings"
                               : toml_kind_name(toml_kind(value));
        option.text.text = (char *)kind;
        option.text.length = strlen(kind);
        option.text.pos = option.value_pos;
    }
    int result = config_add_rule_option(config, &option, error);
    config_list_release(&option.list);
    return result;
}

/* rules = { CODE = { option = value, ... }, ... } */
static int read_rules(struct config *config, const char *table,
                      const struct toml_value *rules, struct config_error *error)
{
    if (toml_kind(rules) != TOML_TABLE) {
        const char *kind = toml_kind_name(toml_kind(rules));
        config_fail(error, pos_of(toml_value_pos(rules)), "%s.rules must be a table "
                    "of rule tables, not %s", table, kind);
        return -1;
    }
    for (size_t i = 0; i < toml_table_size(rules); i++) {
        const char *code;
        size_t code_length;
        struct toml_pos code_pos;
        const struct toml_value *options =
            toml_table_entry(rules, i, &code, &code_length, &code_pos);
        if (check_name(code, code_length, code_pos, "rule code", error) != 0)
            return -1;
        if (toml_kind(options) != TOML_TABLE) {
            const char *kind = toml_kind_name(toml_kind(options));
            char *shown = config_quote(error, code, code_length);
            config_fail(error, pos_of(toml_value_pos(options)), "%s.rules.%s must "
                        "be a table of options, not %s", table, shown, kind);
            free(shown);
            return -1;
        }
        struct config_item rule = { (char *)code, code_length, pos_of(code_pos) };
        for (size_t k = 0; k < toml_table_size(options); k++) {
            const char *name;
            size_t name_length;
            struct toml_pos name_pos;
            const struct toml_value *value =
                toml_table_entry(options, k, &name, &name_length, &name_pos);
            if (read_rule_option(config, &rule, name, name_length, name_pos, value,
                                 error) != 0)
                return -1;
        }
    }
    return 0;
}

/* A setting of [tool.sandlint] that is a list of names. */
struct list_setting {
    const char *key;
    bool split;                 /* a string is split at commas */
    const char *what;           /* what each item names, for messages */
};

static const struct list_setting list_settings[] = {
    { "packages", false, "package glob" },
    { "select", true, "rule selector" },
    { "extend-select", true, "rule selector" },
    { "ignore", true, "rule selector" },
    { "exclude", false, "exclude glob" },
    { "kubernetes", false, "kubernetes glob" },
    { "plugins", false, "plugin" },
    { "plugin-dir", false, "plugin directory" },
};

static struct config_list *setting_list(struct config *config, const char *key)
{
    if (strcmp(key, "packages") == 0)
        return &config->packages;
    if (strcmp(key, "select") == 0)
        return &config->select;
    if (strcmp(key, "extend-select") == 0)
        return &config->extend_select;
    if (strcmp(key, "ignore") == 0)
        return &config->ignore;
    if (strcmp(key, "exclude") == 0)
        return &config->exclude;
    if (strcmp(key, "kubernetes") == 0)
        return &config->kubernetes;
    if (strcmp(key, "plugins") == 0)
        return &config->plugins;
    return &config->plugin_dirs;
}

static int read_sandlint_table(struct config *config,
                               const struct toml_value *table,
                               struct config_error *error)
{
    static const char *const name = "tool.sandlint";
    if (toml_kind(table) != TOML_TABLE) {
        config_fail(error, pos_of(toml_value_pos(table)), "%s must be a table",
                    name);
        return -1;
    }
    for (size_t i = 0; i < toml_table_size(table); i++) {
        const char *key;
        size_t key_length;
        struct toml_pos key_pos;
        const struct toml_value *value =
            toml_table_entry(table, i, &key, &key_length, &key_pos);
        const struct list_setting *setting = NULL;
        for (size_t s = 0; s < sizeof(list_settings) / sizeof(list_settings[0]); s++)
            if (key_is(key, key_length, list_settings[s].key))
                setting = &list_settings[s];
        int result;
        if (setting != NULL) {
            if (strcmp(setting->key, "packages") == 0)
                config->has_packages = true;
            result = read_strings(setting_list(config, setting->key), name, key, value,
                                  error, setting->split, setting->what);
        } else if (key_is(key, key_length, "allowlists")) {
            result = read_allowlists(config, name, value, false, error);
        } else if (key_is(key, key_length, "rules")) {
            result = read_rules(config, name, value, error);
        } else {
            char *shown = config_quote(error, key, key_length);
            config_fail(error, pos_of(key_pos), "unknown setting '%s' in [%s] "
                        "(packages, select, extend-select, ignore, exclude, kubernetes, "
                        "plugins, "
                        "plugin-dir, allowlists, rules)", shown, name);
            free(shown);
            result = -1;
        }
        if (result != 0)
            return -1;
    }
    return 0;
}

int config_parse_toml(struct config *config, const char *text, size_t length,
                      struct config_error *error)
{
    struct toml_error parse_error;
    struct toml_doc *doc = toml_parse(text, length, &parse_error);
    if (doc == NULL) {
        /* The reader's messages may quote a character or a key. */
        config_fail(error, pos_of(parse_error.pos), "%s",
                    error->redact ? "not valid TOML here" : parse_error.message);
        return -1;
    }
    const struct toml_value *tool = toml_table_get(toml_doc_root(doc), "tool");
    int result = 0;
    if (tool != NULL && toml_kind(tool) == TOML_TABLE) {
        const struct toml_value *ours = toml_table_get(tool, "sandlint");
        const struct toml_value *theirs = toml_table_get(tool, "inspect-evals-lint");
        if (ours != NULL) {
            config->sandlint_table = true;
            result = read_sandlint_table(config, ours, error);
        }
        if (result == 0 && theirs != NULL && toml_kind(theirs) == TOML_TABLE) {
            config->inspect_evals = true;
            const struct toml_value *allowlists = toml_table_get(theirs, "allowlists");
            if (allowlists != NULL)
                result = read_allowlists(config, "tool.inspect-evals-lint",
                                         allowlists, true, error);
        }
        if (ours != NULL || (theirs != NULL && toml_kind(theirs) == TOML_TABLE))
            config->format = CONFIG_TOML;
    }
    toml_doc_free(doc);
    return result;
}

int config_read_toml(struct config *config, const char *path,
                     struct config_error *error)
{
    struct source_text text;
    if (config_read_text(path, &text, error) != 0)
        return -1;
    int result = config_parse_toml(config, text.data, text.length, error);
    source_release(&text);
    return result;
}
