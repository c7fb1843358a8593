/* config_file.c - configuration data, errors and discovery (see
 * config_file.h). */
#include "config.h"

#include "config_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "comma_list.h"
#include "paths.h"
#include "source.h"
#include "terminal.h"
#include "utf8.h"
#include "xalloc.h"

int config_pos_compare(struct config_pos a, struct config_pos b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    return a.column < b.column ? -1 : a.column > b.column;
}

void config_init(struct config *config)
{
    memset(config, 0, sizeof(*config));
}

void config_list_add(struct config_list *list, const char *text,
                     size_t length, struct config_pos pos)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 8;
        list->items = xrealloc(list->items, list->capacity, sizeof(*list->items));
    }
    struct config_item *item = &list->items[list->count++];
    item->text = xmemdup(text, length);
    item->length = length;
    item->pos = pos;
}

void config_list_release(struct config_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i].text);
    free(list->items);
    memset(list, 0, sizeof(*list));
}

static void copy_item(struct config_item *to, const struct config_item *from)
{
    to->text = xmemdup(from->text, from->length);
    to->length = from->length;
    to->pos = from->pos;
}

/* ------------------------------------------------------------------ */
/* allowlist scopes                                                    */
/* ------------------------------------------------------------------ */

bool allowlist_name_is_wildcard(const char *name, size_t length)
{
    return memchr(name, '*', length) != NULL;
}

/* Why a '/'-separated relative path cannot be a scope (its last component
 * may be empty: a directory), or NULL. */
static const char *path_scope_problem(const char *path, size_t length)
{
    if (length > 0 && path[0] == '/')
        return "a path scope is relative to the root, not absolute";
    if (allowlist_name_is_wildcard(path, length))
        return "a scope is a literal path, not a glob: a '*' in it would read as a "
               "wildcard";
    for (size_t start = 0; start < length;) {
        const char *slash = memchr(path + start, '/', length - start);
        size_t end = slash != NULL ? (size_t)(slash - path) : length;
        size_t part = end - start;
        if (slash != NULL && part == 0)
            return "a path scope has no empty component ('//')";
        if ((part == 1 && path[start] == '.') ||
            (part == 2 && path[start] == '.' && path[start + 1] == '.'))
            return "a path scope has no '.' or '..' component (it is relative to the "
                   "root and names files below it; './' may only start it)";
        start = end + 1;
    }
    return NULL;
}

int allowlist_scope_parse(const char *text, size_t length, enum allowlist_scope *kind,
                          char **path, const char **problem)
{
    *path = NULL;
    *problem = NULL;
    if (length == 0) {
        *problem = "an allowlist scope is a package name, '*' or a path, not empty";
        return -1;
    }
    if (memchr(text, '\0', length) != NULL) {
        *problem = "an allowlist scope holds a NUL byte";
        return -1;
    }
    if (length == 1 && text[0] == '*') {
        *kind = SCOPE_ANY;
        return 0;
    }
    if (memchr(text, '/', length) == NULL) {
        if (allowlist_name_is_wildcard(text, length)) {
            *problem = "a package name with a '*' would read as a wildcard: scopes are "
                       "package names, '*' itself, or paths";
            return -1;
        }
        *kind = SCOPE_PACKAGE;
        return 0;
    }
    /* A path: "./" may start it (a file at the root is "./compose.yaml"). */
    const char *rest = text;
    size_t rest_length = length;
    if (rest_length >= 2 && rest[0] == '.' && rest[1] == '/') {
        rest += 2;
        rest_length -= 2;
    }
    if ((*problem = path_scope_problem(rest, rest_length)) != NULL)
        return -1;
    *kind = rest_length == 0 || rest[rest_length - 1] == '/' ? SCOPE_DIRECTORY : SCOPE_FILE;
    *path = xmemdup(rest, rest_length);
    return 0;
}

char *allowlist_scope_of_file(const char *display)
{
    size_t length = strlen(display);
    if (length == 0 || display[length - 1] == '/' ||
        path_scope_problem(display, length) != NULL)
        return NULL;
    if (strchr(display, '/') == NULL)
        return xasprintf("./%s", display);
    return xstrdup(display);
}

int config_add_entry(struct config *config, const struct config_item *group,
                     const struct config_item *scope, const struct config_item *key,
                     bool inspect_table, struct config_error *error)
{
    enum allowlist_scope kind;
    char *path;
    const char *problem;
    if (allowlist_scope_parse(scope->text, scope->length, &kind, &path, &problem) != 0) {
        char *shown = config_quote(error, scope->text, scope->length);
        config_fail(error, scope->pos, "allowlist scope '%s': %s", shown, problem);
        free(shown);
        return -1;
    }
    if (config->entry_count == config->entry_capacity) {
        config->entry_capacity = config->entry_capacity ? config->entry_capacity * 2 : 16;
        config->entries = xrealloc(config->entries, config->entry_capacity,
                                   sizeof(*config->entries));
    }
    struct allowlist_entry *entry = &config->entries[config->entry_count++];
    copy_item(&entry->group, group);
    copy_item(&entry->scope, scope);
    copy_item(&entry->key, key);
    entry->scope_kind = kind;
    entry->scope_path = path;
    entry->inspect_table = inspect_table;
    entry->used = false;
    return 0;
}

void config_release(struct config *config)
{
    free(config->path);
    config_list_release(&config->packages);
    config_list_release(&config->select);
    config_list_release(&config->ignore);
    config_list_release(&config->plugins);
    config_list_release(&config->plugin_dirs);
    config_list_release(&config->extend_select);
    config_list_release(&config->exclude);
    config_list_release(&config->kubernetes);
    config_list_release(&config->groups);
    config_list_release(&config->own_groups);
    for (size_t i = 0; i < config->entry_count; i++) {
        free(config->entries[i].group.text);
        free(config->entries[i].scope.text);
        free(config->entries[i].key.text);
        free(config->entries[i].scope_path);
    }
    free(config->entries);
    for (size_t i = 0; i < config->rule_option_count; i++) {
        struct config_rule_option *option = &config->rule_options[i];
        free(option->rule.text);
        free(option->name.text);
        free(option->text.text);
        config_list_release(&option->list);
    }
    free(config->rule_options);
    config_init(config);
}

size_t config_item_count(const struct config *config)
{
    const struct config_list *lists[] = {
        &config->packages, &config->select, &config->ignore, &config->plugins,
        &config->plugin_dirs, &config->extend_select, &config->exclude,
        &config->kubernetes, &config->groups,
    };
    size_t count = config->entry_count + config->rule_option_count;
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
        count += lists[i]->count;
    for (size_t i = 0; i < config->rule_option_count; i++)
        count += config->rule_options[i].list.count;
    return count;
}

void config_fail(struct config_error *error, struct config_pos pos,
                 const char *format, ...)
{
    if (error->message != NULL)
        return;
    va_list args;
    va_start(args, format);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (length < 0)
        length = 0;
    error->message = xmalloc((size_t)length + 1);
    error->message[0] = '\0';
    va_start(args, format);
    vsnprintf(error->message, (size_t)length + 1, format, args);
    va_end(args);
    error->pos = pos;
}


void config_error_release(struct config_error *error)
{
    free(error->message);
    error->message = NULL;
}

char *config_quote(const struct config_error *error, const char *text, size_t length)
{
    if (error != NULL && error->redact)
        return xstrdup("<not quoted>");
    return terminal_escape(text, length);
}

struct split {
    struct config_list *list;
    const char *text;
    struct config_pos pos;
};

/* Columns count code points, like every position in the file. */
static unsigned code_points(const char *text, size_t length)
{
    unsigned count = 0;
    for (size_t i = 0; i < length; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            count++;
    return count;
}

static int add_item(void *data, const char *item, size_t length, size_t offset)
{
    struct split *split = data;
    struct config_pos at = { split->pos.line,
                             split->pos.column + code_points(split->text, offset) };
    config_list_add(split->list, item, length, at);
    return 0;
}

void config_split_list(struct config_list *list, const char *text,
                       size_t length, struct config_pos pos)
{
    struct split split = { list, text, pos };
    comma_list_each(text, length, add_item, &split);
}

static bool larger_than_limit(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) &&
           (uintmax_t)info.st_size > CONFIG_MAX_SIZE;
}

int config_read_text(const char *path, struct source_text *text,
                     struct config_error *error)
{
    struct config_pos none = { 0, 0 };
    /* source_read's own size message names the option that limits Compose
     * files; this limit is fixed, so say so.  Checked before reading and
     * again after a failure, for a file that grew in between. */
    static const char too_large[] = "configuration file is larger than %u bytes "
                                    "(the fixed limit for configuration files)";
    if (larger_than_limit(path)) {
        config_fail(error, none, too_large, CONFIG_MAX_SIZE);
        return -1;
    }
    char *problem = NULL;
    if (source_read(path, CONFIG_MAX_SIZE, text, &problem) != 0) {
        if (larger_than_limit(path))
            config_fail(error, none, too_large, CONFIG_MAX_SIZE);
        else
            config_fail(error, none, "%s", problem);
        free(problem);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* rule options                                                        */
/* ------------------------------------------------------------------ */

static const struct config_rule_option *
find_option(const struct config *config, const struct config_item *rule,
            const struct config_item *name)
{
    for (size_t i = 0; i < config->rule_option_count; i++) {
        const struct config_rule_option *option = &config->rule_options[i];
        if (option->rule.length == rule->length && option->name.length == name->length &&
            memcmp(option->rule.text, rule->text, rule->length) == 0 &&
            memcmp(option->name.text, name->text, name->length) == 0)
            return option;
    }
    return NULL;
}

int config_add_rule_option(struct config *config,
                           struct config_rule_option *option,
                           struct config_error *error)
{
    const struct config_rule_option *earlier = find_option(config, &option->rule,
                                                           &option->name);
    if (earlier != NULL) {
        char *name = config_quote(error, option->name.text, option->name.length);
        char *rule = config_quote(error, option->rule.text, option->rule.length);
        config_fail(error, option->name.pos, "option '%s' of rule %s is set twice "
                    "(first at %u:%u)", name, rule, earlier->name.pos.line,
                    earlier->name.pos.column);
        free(name);
        free(rule);
        return -1;
    }
    if (config->rule_option_count == config->rule_option_capacity) {
        config->rule_option_capacity = config->rule_option_capacity
                                           ? config->rule_option_capacity * 2 : 8;
        config->rule_options = xrealloc(config->rule_options,
                                        config->rule_option_capacity,
                                        sizeof(*config->rule_options));
    }
    struct config_rule_option *stored = &config->rule_options[config->rule_option_count++];
    *stored = *option;
    copy_item(&stored->rule, &option->rule);
    copy_item(&stored->name, &option->name);
    if (option->text.text != NULL)
        copy_item(&stored->text, &option->text);
    memset(&option->list, 0, sizeof(option->list));
    return 0;
}

const struct config_rule_option *
config_rule_option_find(const struct config *config, const char *code,
                        const char *name)
{
    struct config_item rule = { (char *)code, strlen(code), { 0, 0 } };
    struct config_item option = { (char *)name, strlen(name), { 0, 0 } };
    return find_option(config, &rule, &option);
}

/* What the value is, for "must be X, not Y". */
static char *describe_value(const struct config_rule_option *option,
                            const struct config_error *error)
{
    switch (option->type) {
    case CONFIG_VALUE_TEXT: {
        char *shown = config_quote(error, option->text.text, option->text.length);
        char *described = xasprintf("'%s'", shown);
        free(shown);
        return described;
    }
    case CONFIG_VALUE_STRING:
        return xstrdup("a string");
    case CONFIG_VALUE_INTEGER:
        return xstrdup("an integer");
    case CONFIG_VALUE_BOOLEAN:
        return xstrdup("a boolean");
    case CONFIG_VALUE_STRING_LIST:
        return xstrdup("an array of strings");
    case CONFIG_VALUE_OTHER:
        break;
    }
    const char *kind = option->text.text != NULL ? option->text.text : "another value";
    return xasprintf("%s %s", strchr("aeiou", kind[0]) != NULL ? "an" : "a", kind);
}

static int wrong_type(const struct config_rule_option *option, const char *wanted,
                      struct config_error *error)
{
    char *name = config_quote(error, option->name.text, option->name.length);
    char *rule = config_quote(error, option->rule.text, option->rule.length);
    char *found = describe_value(option, error);
    config_fail(error, option->value_pos, "option '%s' of rule %s must be %s, not %s",
                name, rule, wanted, found);
    free(name);
    free(rule);
    free(found);
    return -1;
}

int config_rule_option_string(const struct config_rule_option *option,
                              const char **text, size_t *length,
                              struct config_error *error)
{
    if (option->type != CONFIG_VALUE_TEXT && option->type != CONFIG_VALUE_STRING)
        return wrong_type(option, "a string", error);
    *text = option->text.text;
    *length = option->text.length;
    return 0;
}

/* A decimal integer with an optional sign and nothing else, in range. */
static bool parse_integer(const char *text, size_t length, int64_t *value)
{
    size_t at = 0;
    bool negative = false;
    if (at < length && (text[at] == '+' || text[at] == '-'))
        negative = text[at++] == '-';
    if (at == length)
        return false;
    uint64_t magnitude = 0;
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; at < length; at++) {
        if (text[at] < '0' || text[at] > '9')
            return false;
        unsigned digit = (unsigned)(text[at] - '0');
        if (magnitude > (limit - digit) / 10)
            return false;
        magnitude = magnitude * 10 + digit;
    }
    if (negative)
        *value = magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)magnitude;
    else
        *value = (int64_t)magnitude;
    return true;
}

int config_rule_option_integer(const struct config_rule_option *option,
                               int64_t *value, struct config_error *error)
{
    if (option->type == CONFIG_VALUE_INTEGER) {
        *value = option->integer;
        return 0;
    }
    if (option->type == CONFIG_VALUE_TEXT &&
        parse_integer(option->text.text, option->text.length, value))
        return 0;
    return wrong_type(option, "a 64-bit integer", error);
}

static bool text_is(const struct config_item *item, const char *word)
{
    return item->length == strlen(word) && strncasecmp(item->text, word, item->length) == 0;
}

int config_rule_option_boolean(const struct config_rule_option *option,
                               bool *value, struct config_error *error)
{
    if (option->type == CONFIG_VALUE_BOOLEAN) {
        *value = option->boolean;
        return 0;
    }
    if (option->type == CONFIG_VALUE_TEXT) {
        static const char *const yes[] = { "true", "yes", "on", "1" };
        static const char *const no[] = { "false", "no", "off", "0" };
        for (size_t i = 0; i < 4; i++) {
            if (text_is(&option->text, yes[i]) || text_is(&option->text, no[i])) {
                *value = text_is(&option->text, yes[i]);
                return 0;
            }
        }
        return wrong_type(option, "a boolean (true/false, yes/no, on/off, 1/0)", error);
    }
    return wrong_type(option, "a boolean", error);
}

int config_rule_option_list(const struct config_rule_option *option,
                            struct config_list *items,
                            struct config_error *error)
{
    if (option->type == CONFIG_VALUE_TEXT) {
        config_split_list(items, option->text.text, option->text.length, option->value_pos);
        return 0;
    }
    if (option->type != CONFIG_VALUE_STRING_LIST)
        return wrong_type(option, "an array of strings", error);
    for (size_t i = 0; i < option->list.count; i++)
        config_list_add(items, option->list.items[i].text, option->list.items[i].length,
                        option->list.items[i].pos);
    return 0;
}

/* ------------------------------------------------------------------ */
/* trust                                                               */
/* ------------------------------------------------------------------ */

/* A plugin name that the loader looks up only in the plugin directories:
 * not a path, not a file name, not a directory. */
static bool is_plain_plugin_name(const struct config_item *item)
{
    size_t length = item->length;
    return length > 0 && memchr(item->text, '/', length) == NULL &&
           !(length >= 3 && memcmp(item->text + length - 3, ".so", 3) == 0) &&
           strcmp(item->text, ".") != 0 && strcmp(item->text, "..") != 0;
}

int config_check_trust(const struct config *config, struct config_error *error)
{
    if (config->named_explicitly)
        return 0;
    for (size_t i = 0; i < config->plugins.count; i++) {
        const struct config_item *plugin = &config->plugins.items[i];
        if (is_plain_plugin_name(plugin))
            continue;
        char *shown = config_quote(error, plugin->text, plugin->length);
        config_fail(error, plugin->pos, "plugin '%s' is a path: a configuration found "
                    "in the scanned tree may name plugins only by name (looked up in "
                    "--plugin-dir, SANDLINT_PLUGIN_PATH and the installed plugin "
                    "directory), so that the tree cannot run its own code; name this "
                    "file with --config FILE to trust it", shown);
        free(shown);
        return -1;
    }
    if (config->plugin_dirs.count > 0) {
        config_fail(error, config->plugin_dirs.items[0].pos, "plugin-dir is not allowed "
                    "in a configuration found in the scanned tree: plugins from it would "
                    "run the tree's own code; pass --plugin-dir, or name this file with "
                    "--config FILE to trust it");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* discovery                                                           */
/* ------------------------------------------------------------------ */

static bool is_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

static bool ends_with(const char *text, const char *suffix)
{
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length &&
           strcmp(text + length - suffix_length, suffix) == 0;
}

static int read_file(struct config *config, const char *path,
                     struct config_error *error)
{
    int result = ends_with(path, ".toml") ? config_read_toml(config, path, error)
                                          : config_read_ini(config, path, error);
    if (result == 0 && config->format != CONFIG_NONE && config->path == NULL)
        config->path = path_absolute(path);
    return result;
}

/*
 * Where the file at path really is, for a root: a path inside the root that
 * a symbolic link leads out of it is refused (the tree may plant
 * `.sandlint.ini -> ~/.ssh/id_rsa`, and messages quote what they read); a
 * file outside the root is read, but no message quotes its text
 * (error->redact).  Returns 0, or -1 with *error set.
 */
static int check_place(const char *path, const char *root, struct config_error *error)
{
    char *real = realpath(path, NULL);
    char *real_root = realpath(root, NULL);
    char *lexical = path_absolute(path);
    bool inside = real != NULL && real_root != NULL && path_is_within(real_root, real);
    bool named_inside = path_is_within(root, lexical);
    free(real);
    free(real_root);
    free(lexical);
    if (!inside && named_inside) {
        struct config_pos none = { 0, 0 };
        config_fail(error, none, "the configuration file is a symbolic link, or lies under "
                    "one, that leads out of the root; it is not read (a scanned tree "
                    "may plant such a link to a file of the machine): name the file it "
                    "leads to with --config to use it");
        return -1;
    }
    error->redact = !inside;
    return 0;
}

/* Reads a file found by discovery in directory (the root if it is read):
 * it may hold only what an untrusted file may say. */
static int read_discovered(struct config *config, const char *path,
                           const char *directory, struct config_error *error)
{
    if (check_place(path, directory, error) != 0 || read_file(config, path, error) != 0)
        return -1;
    return config_check_trust(config, error);
}

/* Looks in directory for .sandlint.ini, then a pyproject.toml with our
 * tables.  Returns 1 when found (config filled), 0 when not, -1 on error. */
static int try_directory(const char *directory, struct config *config,
                         struct config_error *error, char **error_path)
{
    char *ini = path_join(directory, ".sandlint.ini");
    if (is_file(ini)) {
        int result = read_discovered(config, ini, directory, error);
        if (result != 0)
            *error_path = ini;
        else
            free(ini);
        return result == 0 ? 1 : -1;
    }
    free(ini);
    char *pyproject = path_join(directory, "pyproject.toml");
    if (is_file(pyproject)) {
        int result = read_discovered(config, pyproject, directory, error);
        if (result != 0) {
            *error_path = pyproject;
            return -1;
        }
        free(pyproject);
        if (config->format != CONFIG_NONE)
            return 1;
        config_release(config);   /* a pyproject.toml that is not ours */
        error->redact = false;
        return 0;
    }
    free(pyproject);
    return 0;
}

/* --root must name a directory: a typo must not silently scan nothing or
 * fall back to another configuration. */
static int check_root_option(const char *root_option, struct config_error *error)
{
    struct stat info;
    struct config_pos none = { 0, 0 };
    char *shown = terminal_escape(root_option, strlen(root_option));
    int result = 0;
    if (stat(root_option, &info) != 0) {
        config_fail(error, none, "--root '%s': %s", shown, strerror(errno));
        result = -1;
    } else if (!S_ISDIR(info.st_mode)) {
        config_fail(error, none, "--root '%s' is not a directory", shown);
        result = -1;
    }
    free(shown);
    return result;
}

int config_discover(const char *root_option, const char *config_file, bool untrusted,
                    char **root, struct config *config,
                    struct config_error *error, char **error_path)
{
    config_init(config);
    *error_path = NULL;
    *root = NULL;
    if (root_option != NULL && check_root_option(root_option, error) != 0)
        return -1;
    if (config_file != NULL) {
        struct stat info;
        errno = 0;
        if (stat(config_file, &info) != 0 || !S_ISREG(info.st_mode)) {
            struct config_pos none = { 0, 0 };
            config_fail(error, none, "cannot read configuration file: %s",
                        errno != 0 ? strerror(errno) : "not a regular file");
            *error_path = xstrdup(config_file);
            return -1;
        }
        if (root_option != NULL) {
            *root = path_absolute(root_option);
        } else if (untrusted) {
            *root = path_absolute(".");
        } else {
            char *absolute = path_absolute(config_file);
            *root = path_dirname(absolute);
            free(absolute);
        }
        if (check_place(config_file, *root, error) != 0 ||
            read_file(config, config_file, error) != 0) {
            *error_path = xstrdup(config_file);
            return -1;
        }
        if (config->format == CONFIG_NONE) {
            /* An explicitly named pyproject.toml without our tables is
             * still the configuration: an empty one. */
            config->format = CONFIG_TOML;
            config->path = path_absolute(config_file);
        }
        config->named_explicitly = true;
        config->outside_root = error->redact;
        return 0;
    }
    if (root_option != NULL) {
        *root = path_absolute(root_option);
        /* Under --untrusted nothing in the tree configures the run. */
        if (untrusted)
            return 0;
        return try_directory(*root, config, error, error_path) < 0 ? -1 : 0;
    }
    if (untrusted) {
        *root = path_absolute(".");
        return 0;
    }
    char *directory = path_absolute(".");
    for (;;) {
        int found = try_directory(directory, config, error, error_path);
        if (found != 0) {
            if (found < 0) {
                free(directory);
                return -1;
            }
            *root = directory;
            return 0;
        }
        if (strcmp(directory, "/") == 0)
            break;
        char *parent = path_dirname(directory);
        free(directory);
        directory = parent;
    }
    free(directory);
    *root = path_absolute(".");
    return 0;
}
