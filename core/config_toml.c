/*
 * config_toml.c - settings from pyproject.toml: [tool.sandlint] and, for
 * drop-in use, the sandbox_privileges allowlists of
 * [tool.inspect-evals-lint].
 */
#include "config.h"

#include "config_file.h"

#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "toml.h"
#include "xalloc.h"

static struct config_pos pos_of(struct toml_pos pos)
{
    struct config_pos out = { pos.line, pos.column };
    return out;
}

/* A string, or an array of strings, into list (strings are split at
 * commas like the INI form).  Returns 0, or -1 with the error set. */
static int read_strings(struct config_list *list, const char *table,
                        const char *name, const struct toml_value *value,
                        struct config_error *error, bool split)
{
    if (toml_kind(value) == TOML_STRING) {
        size_t length;
        const char *text = toml_string(value, &length);
        if (split)
            config_split_list(list, text, pos_of(toml_value_pos(value)));
        else
            config_list_add(list, text, length, pos_of(toml_value_pos(value)));
        return 0;
    }
    if (toml_kind(value) != TOML_ARRAY) {
        config_fail(error, pos_of(toml_value_pos(value)), "%s.%s must be a "
                    "string or an array of strings, not %s", table, name,
                    toml_kind_name(toml_kind(value)));
        return -1;
    }
    for (size_t i = 0; i < toml_array_size(value); i++) {
        const struct toml_value *item = toml_array_get(value, i);
        if (toml_kind(item) != TOML_STRING) {
            config_fail(error, pos_of(toml_value_pos(item)), "%s.%s must hold "
                        "strings, not %s", table, name,
                        toml_kind_name(toml_kind(item)));
            return -1;
        }
        size_t length;
        const char *text = toml_string(item, &length);
        config_list_add(list, text, length, pos_of(toml_value_pos(item)));
    }
    return 0;
}

/* allowlists.GROUP = { package = ["key", ...] } */
static int read_allowlist_group(struct config *config, const char *table,
                                const char *group, size_t group_length,
                                struct toml_pos group_pos,
                                const struct toml_value *packages,
                                struct config_error *error)
{
    if (toml_kind(packages) != TOML_TABLE) {
        config_fail(error, pos_of(toml_value_pos(packages)), "%s.allowlists.%.*s "
                    "must be a table of package = [keys], not %s", table,
                    (int)group_length, group, toml_kind_name(toml_kind(packages)));
        return -1;
    }
    struct config_item group_item = { (char *)group, group_length, pos_of(group_pos) };
    config_list_add(&config->groups, group, group_length, pos_of(group_pos));
    for (size_t i = 0; i < toml_table_size(packages); i++) {
        const char *package;
        size_t package_length;
        struct toml_pos package_pos;
        const struct toml_value *keys =
            toml_table_entry(packages, i, &package, &package_length, &package_pos);
        struct config_item package_item = { (char *)package, package_length,
                                            pos_of(package_pos) };
        struct config_list list = { NULL, 0, 0 };
        char *where = xasprintf("allowlists.%.*s", (int)group_length, group);
        int result = read_strings(&list, table, where, keys, error, false);
        free(where);
        if (result != 0) {
            config_list_release(&list);
            return -1;
        }
        for (size_t k = 0; k < list.count; k++) {
            if (list.items[k].length == 0) {
                config_fail(error, list.items[k].pos, "empty allowlist entry "
                            "for package '%.*s'", (int)package_length, package);
                config_list_release(&list);
                return -1;
            }
            config_add_entry(config, &group_item, &package_item, &list.items[k]);
        }
        config_list_release(&list);
    }
    return 0;
}

static int read_allowlists(struct config *config, const char *table,
                           const struct toml_value *allowlists,
                           bool only_sandbox_group, struct config_error *error)
{
    if (toml_kind(allowlists) != TOML_TABLE) {
        config_fail(error, pos_of(toml_value_pos(allowlists)), "%s.allowlists "
                    "must be a table, not %s", table,
                    toml_kind_name(toml_kind(allowlists)));
        return -1;
    }
    for (size_t i = 0; i < toml_table_size(allowlists); i++) {
        const char *group;
        size_t group_length;
        struct toml_pos group_pos;
        const struct toml_value *packages =
            toml_table_entry(allowlists, i, &group, &group_length, &group_pos);
        /* inspect-evals-lint allowlists of its other rules are not ours. */
        if (only_sandbox_group &&
            !(group_length == 18 && memcmp(group, "sandbox_privileges", 18) == 0) &&
            !(group_length == 7 && memcmp(group, "IESC001", 7) == 0))
            continue;
        if (read_allowlist_group(config, table, group, group_length, group_pos,
                                 packages, error) != 0)
            return -1;
    }
    return 0;
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
        int result;
        if (strcmp(key, "packages") == 0) {
            config->has_packages = true;
            result = read_strings(&config->packages, name, key, value, error, false);
        } else if (strcmp(key, "select") == 0) {
            result = read_strings(&config->select, name, key, value, error, true);
        } else if (strcmp(key, "ignore") == 0) {
            result = read_strings(&config->ignore, name, key, value, error, true);
        } else if (strcmp(key, "plugins") == 0) {
            result = read_strings(&config->plugins, name, key, value, error, false);
        } else if (strcmp(key, "plugin-dir") == 0) {
            result = read_strings(&config->plugin_dirs, name, key, value, error, false);
        } else if (strcmp(key, "allowlists") == 0) {
            result = read_allowlists(config, name, value, false, error);
        } else {
            config_fail(error, pos_of(key_pos), "unknown setting '%.*s' in [%s] "
                        "(packages, select, ignore, plugins, plugin-dir, "
                        "allowlists)", (int)key_length, key, name);
            result = -1;
        }
        if (result != 0)
            return -1;
    }
    return 0;
}

int config_read_toml(struct config *config, const char *path,
                     struct config_error *error)
{
    struct source_text text;
    if (config_read_text(path, &text, error) != 0)
        return -1;
    struct toml_error parse_error;
    struct toml_doc *doc = toml_parse(text.data, text.length, &parse_error);
    source_release(&text);
    if (doc == NULL) {
        config_fail(error, pos_of(parse_error.pos), "%s", parse_error.message);
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
