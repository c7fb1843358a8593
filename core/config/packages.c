/* packages.c - package of each Compose file (see packages.h). */
#include "config.h"

#include "packages.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "path_glob.h"
#include "paths.h"
#include "string_list.h"
#include "terminal.h"
#include "xalloc.h"

static bool is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

/* The root-relative form of absolute for globs: NULL outside the root. */
static char *root_relative(const char *root, const char *absolute)
{
    char *relative = path_relative(root, absolute);
    if (strcmp(relative, "..") == 0 || strncmp(relative, "../", 3) == 0) {
        free(relative);
        return NULL;
    }
    return relative;
}

/* How far a search below relative (from the walk's start) must go. */
static enum glob_below search_below(const struct string_list *globs,
                                    const char *relative)
{
    enum glob_below deepest = GLOB_BELOW_NONE;
    for (size_t i = 0; i < globs->count; i++) {
        enum glob_below below = glob_match_below(globs->items[i], relative);
        if (below > deepest)
            deepest = below;
    }
    return deepest;
}

/*
 * Finds the directories below start (absolute) that globs (relative to
 * start) match, into found.  Depth-first with an explicit stack; symbolic
 * links to directories are matched, and entered only where no glob spans
 * them with `**` (so a link loop cannot keep the search going).
 */
static void find_matches(const char *start, const struct string_list *globs,
                         struct string_list *found)
{
    struct string_list pending = STRING_LIST_INIT;     /* relative paths */
    if (search_below(globs, "") != GLOB_BELOW_NONE)
        string_list_add(&pending, "");
    while (pending.count > 0) {
        char *directory = pending.items[--pending.count];
        char *absolute = directory[0] ? path_join(start, directory) : xstrdup(start);
        DIR *handle = opendir(absolute);
        struct dirent *entry;
        while (handle != NULL && (entry = readdir(handle)) != NULL) {
            const char *name = entry->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
                strcmp(name, ".git") == 0)
                continue;
            if (entry->d_type != DT_DIR && entry->d_type != DT_LNK &&
                entry->d_type != DT_UNKNOWN)
                continue;
            char *child = path_join(absolute, name);
            struct stat info;
            bool link = entry->d_type == DT_LNK ||
                        (lstat(child, &info) == 0 && S_ISLNK(info.st_mode));
            if (!is_directory(child)) {
                free(child);
                continue;
            }
            char *relative = directory[0] ? path_join(directory, name) : xstrdup(name);
            for (size_t i = 0; i < globs->count; i++) {
                if (glob_match(globs->items[i], relative, true)) {
                    string_list_add(found, child);
                    break;
                }
            }
            enum glob_below below = search_below(globs, relative);
            if (below == GLOB_BELOW_BOUNDED || (below == GLOB_BELOW_ANY && !link))
                string_list_add(&pending, relative);
            free(relative);
            free(child);
        }
        if (handle != NULL)
            closedir(handle);
        free(absolute);
        free(directory);
    }
    string_list_release(&pending);
}

void packages_find(const struct config *config, const char *root,
                   struct package_directories *out)
{
    memset(out, 0, sizeof(*out));
    out->root = xstrdup(root);
    if (config->has_packages) {
        for (size_t i = 0; i < config->packages.count; i++)
            string_list_add(&out->globs, config->packages.items[i].text);
        out->configured = true;
    } else if (config->inspect_evals) {
        char *base = path_join(root, "src/inspect_evals");
        string_list_add(&out->globs, is_directory(base) ? "src/inspect_evals/*" : "src/*");
        free(base);
        out->configured = true;
    }
    /* Relative globs are searched from the root, absolute ones from "/". */
    struct string_list relative = STRING_LIST_INIT, absolute = STRING_LIST_INIT;
    for (size_t i = 0; i < out->globs.count; i++)
        string_list_add(out->globs.items[i][0] == '/' ? &absolute : &relative,
                        out->globs.items[i]);
    find_matches(root, &relative, &out->list);
    find_matches("/", &absolute, &out->list);
    string_list_release(&relative);
    string_list_release(&absolute);
}

void packages_release(struct package_directories *directories)
{
    free(directories->root);
    string_list_release(&directories->globs);
    string_list_release(&directories->list);
    memset(directories, 0, sizeof(*directories));
}

bool packages_name_refused(const char *name)
{
    return allowlist_name_is_wildcard(name, strlen(name));
}

int packages_check_names(const struct package_directories *directories, char **error)
{
    for (size_t i = 0; i < directories->list.count; i++) {
        const char *directory = directories->list.items[i];
        char *base = path_basename(directory);
        bool refused = packages_name_refused(base);
        free(base);
        if (!refused)
            continue;
        char *relative = path_relative(directories->root, directory);
        char *shown = terminal_escape(relative, strlen(relative));
        *error = xasprintf("package directory '%s' is named like a wildcard (it holds a '*'): "
                           "allowlist entries of it would read as entries for every "
                           "package; rename it, or leave it out of packages", shown);
        free(shown);
        free(relative);
        return -1;
    }
    return 0;
}

/* The deepest ancestor directory of absolute that a package glob matches
 * (malloc'd), or NULL: both forms of the path are cut back one component
 * at a time. */
static char *package_directory(const struct package_directories *directories,
                               const char *absolute)
{
    if (!directories->configured)
        return NULL;
    char *ancestor = xstrdup(absolute);
    char *relative = root_relative(directories->root, absolute);
    char *found = NULL;
    for (;;) {
        char *slash = strrchr(ancestor, '/');
        if (slash == NULL || slash == ancestor)
            break;              /* "/" is no package directory */
        *slash = '\0';
        if (relative != NULL) {
            char *cut = strrchr(relative, '/');
            if (cut != NULL) {
                *cut = '\0';
            } else {
                free(relative);     /* now the root, or above it */
                relative = NULL;
            }
        }
        if (glob_list_match(&directories->globs, relative, ancestor, true)) {
            found = xstrdup(ancestor);
            break;
        }
    }
    free(ancestor);
    free(relative);
    return found;
}

char *packages_name(const struct package_directories *directories,
                    const char *absolute)
{
    char *directory = package_directory(directories, absolute);
    if (directory == NULL)
        return xstrdup(PACKAGE_ANY);
    char *name = path_basename(directory);
    free(directory);
    return name;
}

bool packages_in_refused_directory(const struct package_directories *directories,
                                   const char *absolute)
{
    char *directory = package_directory(directories, absolute);
    if (directory == NULL)
        return false;
    char *name = path_basename(directory);
    bool refused = packages_name_refused(name);
    free(name);
    free(directory);
    return refused;
}

void packages_assign(struct discovered_file *file,
                     const struct package_directories *directories)
{
    free(file->package);
    file->package = packages_name(directories, file->absolute);
}

bool packages_covered(const char *const *operands, size_t count,
                      const char *directory)
{
    for (size_t i = 0; i < count; i++)
        if (path_is_within(operands[i], directory))
            return true;
    return false;
}

bool packages_fully_checked(const struct package_directories *directories,
                            const char *name, const char *const *operands,
                            size_t count)
{
    bool any = false;
    if (strcmp(name, PACKAGE_ANY) != 0) {
        for (size_t i = 0; i < directories->list.count; i++) {
            const char *directory = directories->list.items[i];
            char *base = path_basename(directory);
            bool same = strcmp(base, name) == 0;
            free(base);
            if (!same)
                continue;
            any = true;
            if (!packages_covered(operands, count, directory))
                return false;
        }
    }
    return any || packages_covered(operands, count, directories->root);
}
