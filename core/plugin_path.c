/* plugin_path.c - find and load plugins (see plugin_path.h). */
#include "config.h"

#include "plugin_path.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "paths.h"
#include "xalloc.h"

/* Whether directory is a configured build tree holding built plugins:
 * the binary there uses them, so `make && ./sandlint` works without
 * installing.  (Detected at run time rather than by compiling the build
 * path in, which would make the installed binary depend on where it was
 * built.) */
static bool is_build_tree(const char *directory)
{
    char *status = path_join(directory, "config.status");
    char *libs = path_join(directory, "plugins/.libs");
    struct stat info;
    bool result = stat(status, &info) == 0 && S_ISREG(info.st_mode) &&
                  stat(libs, &info) == 0 && S_ISDIR(info.st_mode);
    free(status);
    free(libs);
    return result;
}

const char *plugin_default_directory(void)
{
    static char *build_tree_plugins;
    static bool checked;
    if (!checked) {
        checked = true;
        char self[PATH_MAX];
        ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (length > 0) {
            self[length] = '\0';
            char *directory = path_dirname(self);
            if (is_build_tree(directory))
                build_tree_plugins = path_join(directory, "plugins/.libs");
            free(directory);
        }
    }
    return build_tree_plugins != NULL ? build_tree_plugins : PLUGINDIR;
}

static bool ends_with(const char *text, const char *suffix)
{
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length &&
           strcmp(text + length - suffix_length, suffix) == 0;
}

static bool is_regular_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/* The search path for --plugin names: --plugin-dir, config plugin-dir,
 * SANDLINT_PLUGIN_PATH, then the default directory. */
static void search_path(struct string_list *path, const struct options *options,
                        const struct string_list *extra_dirs)
{
    for (size_t i = 0; i < options->plugin_dirs.count; i++)
        string_list_add(path, options->plugin_dirs.items[i]);
    if (extra_dirs != NULL)
        for (size_t i = 0; i < extra_dirs->count; i++)
            string_list_add(path, extra_dirs->items[i]);
    const char *env = getenv("SANDLINT_PLUGIN_PATH");
    if (env != NULL) {
        char *copy = xstrdup(env);
        char *save = NULL;
        for (char *dir = strtok_r(copy, ":", &save); dir != NULL;
             dir = strtok_r(NULL, ":", &save))
            string_list_add(path, dir);
        free(copy);
    }
    string_list_add(path, plugin_default_directory());
}

/* Resolves a --plugin argument to a file; NULL when not found. */
static char *resolve_plugin(const char *name, const struct string_list *path)
{
    if (strchr(name, '/') != NULL)
        return xstrdup(name);
    for (size_t i = 0; i < path->count; i++) {
        char *candidate = ends_with(name, ".so")
                              ? path_join(path->items[i], name)
                              : xasprintf("%s/%s.so", path->items[i], name);
        if (is_regular_file(candidate))
            return candidate;
        free(candidate);
    }
    return NULL;
}

static int load_one(struct registry *registry, const char *file)
{
    /* The same file named twice (default and --plugin) loads once. */
    char *real = realpath(file, NULL);
    for (size_t i = 1; real != NULL && i < registry->plugin_count; i++) {
        char *other = realpath(registry->plugins[i].path, NULL);
        bool same = other != NULL && strcmp(other, real) == 0;
        free(other);
        if (same) {
            free(real);
            return 0;
        }
    }
    free(real);
    char *error = NULL;
    if (registry_load_plugin(registry, file, host_services(), &error) != 0) {
        fprintf(stderr, "sandlint: %s\n", error);
        free(error);
        return -1;
    }
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Base name of a plugin argument without directory and ".so". */
static char *plugin_stem(const char *name)
{
    char *base = path_basename(name);
    if (ends_with(base, ".so"))
        base[strlen(base) - 3] = '\0';
    return base;
}

static int load_defaults(struct registry *registry,
                         const struct string_list *requested)
{
    const char *directory = plugin_default_directory();
    DIR *handle = opendir(directory);
    if (handle == NULL) {
        fprintf(stderr, "sandlint: cannot read the plugin directory %s: %s\n",
                directory, strerror(errno));
        return -1;
    }
    struct string_list files = { NULL, 0, 0 };
    struct dirent *entry;
    while ((entry = readdir(handle)) != NULL) {
        /* Only *.so: libtool installs name.la beside name.so. */
        if (entry->d_name[0] != '.' && ends_with(entry->d_name, ".so"))
            string_list_add(&files, entry->d_name);
    }
    closedir(handle);
    if (files.count > 1)
        qsort(files.items, files.count, sizeof(*files.items), compare_names);
    int status = 0;
    for (size_t i = 0; i < files.count && status == 0; i++) {
        /* An explicitly named plugin of the same name replaces this one. */
        char *stem = plugin_stem(files.items[i]);
        bool replaced = false;
        for (size_t j = 0; j < requested->count && !replaced; j++) {
            char *other = plugin_stem(requested->items[j]);
            replaced = strcmp(stem, other) == 0;
            free(other);
        }
        free(stem);
        if (replaced)
            continue;
        char *file = path_join(directory, files.items[i]);
        status = load_one(registry, file);
        free(file);
    }
    string_list_release(&files);
    return status;
}

int plugin_load_all(struct registry *registry, const struct options *options,
                    const struct string_list *extra_plugins,
                    const struct string_list *extra_dirs)
{
    struct string_list requested = { NULL, 0, 0 };
    for (size_t i = 0; i < options->plugins.count; i++)
        string_list_add(&requested, options->plugins.items[i]);
    if (extra_plugins != NULL)
        for (size_t i = 0; i < extra_plugins->count; i++)
            string_list_add(&requested, extra_plugins->items[i]);

    struct string_list path = { NULL, 0, 0 };
    search_path(&path, options, extra_dirs);
    int status = 0;
    if (!options->no_default_plugins)
        status = load_defaults(registry, &requested);
    for (size_t i = 0; i < requested.count && status == 0; i++) {
        char *file = resolve_plugin(requested.items[i], &path);
        if (file == NULL) {
            fprintf(stderr, "sandlint: plugin '%s' not found in:",
                    requested.items[i]);
            for (size_t j = 0; j < path.count; j++)
                fprintf(stderr, " %s", path.items[j]);
            fputs("\n", stderr);
            status = -1;
            break;
        }
        status = load_one(registry, file);
        free(file);
    }
    string_list_release(&path);
    string_list_release(&requested);
    return status;
}
