/* packages.c - package of each Compose file (see packages.h). */
#include "config.h"

#include "packages.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "string_list.h"
#include "paths.h"
#include "xalloc.h"

static bool is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

static void add_matches(struct string_list *directories, const char *pattern)
{
    glob_t matches;
    memset(&matches, 0, sizeof(matches));
    if (glob(pattern, GLOB_ONLYDIR | GLOB_NOSORT, NULL, &matches) == 0) {
        for (size_t i = 0; i < matches.gl_pathc; i++) {
            if (!is_directory(matches.gl_pathv[i]))
                continue;
            char *absolute = path_absolute(matches.gl_pathv[i]);
            string_list_add(directories, absolute);
            free(absolute);
        }
    }
    globfree(&matches);
}

/* The package directories the configuration names; false when it names
 * none (the discovery defaults then apply). */
static bool configured_directories(const struct config *config, const char *root,
                                   struct string_list *directories)
{
    if (config->has_packages) {
        for (size_t i = 0; i < config->packages.count; i++) {
            const char *pattern = config->packages.items[i].text;
            char *full = pattern[0] == '/' ? xstrdup(pattern)
                                           : path_join(root, pattern);
            add_matches(directories, full);
            free(full);
        }
        return true;
    }
    if (config->inspect_evals) {
        char *base = path_join(root, "src/inspect_evals");
        if (!is_directory(base)) {
            free(base);
            base = path_join(root, "src");
        }
        char *pattern = path_join(base, "*");
        add_matches(directories, pattern);
        free(pattern);
        free(base);
        return true;
    }
    return false;
}

void packages_find(const struct config *config, const char *root,
                   struct package_directories *out)
{
    memset(out, 0, sizeof(*out));
    out->configured = configured_directories(config, root, &out->list);
}

void packages_release(struct package_directories *directories)
{
    string_list_release(&directories->list);
}

void packages_assign(struct discovered_file *file,
                     const struct package_directories *configured)
{
    if (!configured->configured)
        return;
    const struct string_list *list = &configured->list;
    const char *best = NULL;
    for (size_t d = 0; d < list->count; d++) {
        const char *directory = list->items[d];
        if (path_is_within(directory, file->absolute) &&
            strcmp(directory, file->absolute) != 0 &&
            (best == NULL || strlen(directory) > strlen(best)))
            best = directory;
    }
    free(file->package);
    file->package = best ? path_basename(best) : NULL;
}
