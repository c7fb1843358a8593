/* loader.c - find plugin files and load them (see loader.h). */
#include "config.h"

#include "loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "paths.h"
#include "terminal.h"
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

const char *loader_default_directory(void)
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

void plugin_request_release(struct plugin_request *request)
{
    string_list_release(&request->named);
    string_list_release(&request->search);
}

/* The search path for names: the request's directories, then
 * SANDLINT_PLUGIN_PATH, then the default directory. */
static void search_path(struct string_list *path, const struct plugin_request *request)
{
    for (size_t i = 0; i < request->search.count; i++)
        string_list_add(path, request->search.items[i]);
    const char *env = getenv("SANDLINT_PLUGIN_PATH");
    if (env != NULL) {
        char *copy = xstrdup(env);
        char *save = NULL;
        for (char *dir = strtok_r(copy, ":", &save); dir != NULL;
             dir = strtok_r(NULL, ":", &save))
            string_list_add(path, dir);
        free(copy);
    }
    string_list_add(path, loader_default_directory());
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

/* Adds file to files unless the same file (after symbolic links) is there
 * already: a plugin named twice (default and --plugin) loads once. */
static void add_file(struct string_list *files, struct string_list *real_paths,
                     const char *file)
{
    char *real = realpath(file, NULL);
    if (real != NULL && string_list_has(real_paths, real)) {
        free(real);
        return;
    }
    string_list_add(files, file);
    string_list_add(real_paths, real != NULL ? real : file);
    free(real);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the *.so files of the default directory, sorted. */
static int add_defaults(struct string_list *files, struct string_list *real_paths)
{
    const char *directory = loader_default_directory();
    DIR *handle = opendir(directory);
    if (handle == NULL) {
        terminal_error("sandlint: cannot read the plugin directory %s: %s\n",
                directory, strerror(errno));
        return -1;
    }
    struct string_list names = STRING_LIST_INIT;
    struct dirent *entry;
    while ((entry = readdir(handle)) != NULL) {
        /* Only *.so: libtool installs name.la beside name.so. */
        if (entry->d_name[0] != '.' && ends_with(entry->d_name, ".so"))
            string_list_add(&names, entry->d_name);
    }
    closedir(handle);
    if (names.count > 1)
        qsort(names.items, names.count, sizeof(*names.items), compare_names);
    for (size_t i = 0; i < names.count; i++) {
        char *file = path_join(directory, names.items[i]);
        add_file(files, real_paths, file);
        free(file);
    }
    string_list_release(&names);
    return 0;
}

int loader_resolve(const struct plugin_request *request, struct string_list *files)
{
    struct string_list path = STRING_LIST_INIT, real_paths = STRING_LIST_INIT;
    search_path(&path, request);
    int status = 0;
    if (request->default_plugins)
        status = add_defaults(files, &real_paths);
    for (size_t i = 0; i < request->named.count && status == 0; i++) {
        char *file = resolve_plugin(request->named.items[i], &path);
        if (file == NULL) {
            terminal_error("sandlint: plugin '%s' not found in:",
                    request->named.items[i]);
            for (size_t j = 0; j < path.count; j++)
                terminal_error(" %s", path.items[j]);
            fputs("\n", stderr);
            status = -1;
            break;
        }
        add_file(files, &real_paths, file);
        free(file);
    }
    string_list_release(&path);
    string_list_release(&real_paths);
    return status;
}

int loader_load_files(struct registry *registry, const struct string_list *files)
{
    for (size_t i = 0; i < files->count; i++) {
        char *error = NULL;
        if (loader_load_file(registry, files->items[i], &error) != 0) {
            terminal_error("sandlint: %s\n", error);
            free(error);
            return -1;
        }
    }
    return 0;
}

int loader_load_file(struct registry *registry, const char *path, char **error)
{
    *error = NULL;
    /* RTLD_LOCAL: plugins cannot see each other's symbols; RTLD_NOW:
     * unresolved symbols fail here, not in the middle of a check. */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        *error = xasprintf("%s: cannot load plugin: %s", path,
                           why ? why : "unknown error");
        return -1;
    }
    dlerror();
    void *symbol = dlsym(handle, SL_ENTRY_SYMBOL);
    if (symbol == NULL) {
        *error = xasprintf("%s: plugin refused: no " SL_ENTRY_SYMBOL " symbol "
                           "(not a sandlint plugin, or not built with "
                           "SANDLINT_PLUGIN())", path);
        dlclose(handle);
        return -1;
    }
    sl_entry_fn entry;
    /* ISO C has no function/object pointer conversion; POSIX guarantees
     * that dlsym results can be used this way. */
    memcpy(&entry, &symbol, sizeof(entry));
    const struct sl_plugin *descriptor = entry(host_services());
    if (registry_add_descriptor(registry, path, descriptor, error) != 0) {
        /* Nothing of the plugin is referenced yet, so unloading is safe. */
        dlclose(handle);
        return -1;
    }
    registry->plugins[registry->plugin_count - 1].handle = handle;
    return 0;
}
