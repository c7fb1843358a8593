/* config_file.c - configuration data, errors and discovery (see
 * config_file.h). */
#include "config.h"

#include "config_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "comma_list.h"
#include "paths.h"
#include "source.h"
#include "xalloc.h"

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

void config_add_entry(struct config *config, const struct config_item *group,
                      const struct config_item *package,
                      const struct config_item *key)
{
    if (config->entry_count == config->entry_capacity) {
        config->entry_capacity = config->entry_capacity ? config->entry_capacity * 2 : 16;
        config->entries = xrealloc(config->entries, config->entry_capacity,
                                   sizeof(*config->entries));
    }
    struct allowlist_entry *entry = &config->entries[config->entry_count++];
    copy_item(&entry->group, group);
    copy_item(&entry->package, package);
    copy_item(&entry->key, key);
    entry->used = false;
}

void config_release(struct config *config)
{
    free(config->path);
    config_list_release(&config->packages);
    config_list_release(&config->select);
    config_list_release(&config->ignore);
    config_list_release(&config->plugins);
    config_list_release(&config->plugin_dirs);
    config_list_release(&config->groups);
    for (size_t i = 0; i < config->entry_count; i++) {
        free(config->entries[i].group.text);
        free(config->entries[i].package.text);
        free(config->entries[i].key.text);
    }
    free(config->entries);
    config_init(config);
}

void config_fail(struct config_error *error, struct config_pos pos,
                 const char *format, ...)
{
    if (error->message != NULL)
        return;
    char buffer[512];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof(buffer), format, args);
    va_end(args);
    error->message = xstrdup(buffer);
    error->pos = pos;
}

void config_error_release(struct config_error *error)
{
    free(error->message);
    error->message = NULL;
}

struct split {
    struct config_list *list;
    struct config_pos pos;
};

static int add_item(void *data, const char *item, size_t length, size_t offset)
{
    struct split *split = data;
    struct config_pos at = { split->pos.line, split->pos.column + (unsigned)offset };
    config_list_add(split->list, item, length, at);
    return 0;
}

void config_split_list(struct config_list *list, const char *text,
                       struct config_pos pos)
{
    struct split split = { list, pos };
    comma_list_each(text, strlen(text), add_item, &split);
}

int config_read_text(const char *path, struct source_text *text,
                     struct config_error *error)
{
    char *problem = NULL;
    if (source_read(path, CONFIG_MAX_SIZE, text, &problem) != 0) {
        struct config_pos none = { 0, 0 };
        config_fail(error, none, "%s", problem);
        free(problem);
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

/* Looks in directory for .sandlint.ini, then a pyproject.toml with our
 * tables.  Returns 1 when found (config filled), 0 when not, -1 on error. */
static int try_directory(const char *directory, struct config *config,
                         struct config_error *error, char **error_path)
{
    char *ini = path_join(directory, ".sandlint.ini");
    if (is_file(ini)) {
        int result = read_file(config, ini, error);
        if (result != 0)
            *error_path = ini;
        else
            free(ini);
        return result == 0 ? 1 : -1;
    }
    free(ini);
    char *pyproject = path_join(directory, "pyproject.toml");
    if (is_file(pyproject)) {
        int result = read_file(config, pyproject, error);
        if (result != 0) {
            *error_path = pyproject;
            return -1;
        }
        free(pyproject);
        if (config->format != CONFIG_NONE)
            return 1;
        config_release(config);   /* a pyproject.toml that is not ours */
        return 0;
    }
    free(pyproject);
    return 0;
}

int config_discover(const char *root_option, const char *config_file,
                    char **root, struct config *config,
                    struct config_error *error, char **error_path)
{
    config_init(config);
    *error_path = NULL;
    *root = NULL;
    if (config_file != NULL) {
        struct stat info;
        errno = 0;
        if (stat(config_file, &info) != 0 || !S_ISREG(info.st_mode)) {
            struct config_pos none = { 0, 0 };
            config_fail(error, none, "cannot read configuration file: %s",
                        errno != 0 && !S_ISREG(info.st_mode) ? strerror(errno)
                                                             : "not a regular file");
            *error_path = xstrdup(config_file);
            return -1;
        }
        if (read_file(config, config_file, error) != 0) {
            *error_path = xstrdup(config_file);
            return -1;
        }
        if (config->format == CONFIG_NONE) {
            /* An explicitly named pyproject.toml without our tables is
             * still the configuration: an empty one. */
            config->format = CONFIG_TOML;
            config->path = path_absolute(config_file);
        }
        if (root_option != NULL) {
            *root = path_absolute(root_option);
        } else {
            char *absolute = path_absolute(config_file);
            *root = path_dirname(absolute);
            free(absolute);
        }
        return 0;
    }
    if (root_option != NULL) {
        *root = path_absolute(root_option);
        return try_directory(*root, config, error, error_path) < 0 ? -1 : 0;
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
