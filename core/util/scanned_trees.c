/* scanned_trees.c - the scanned trees and safe places to write (see
 * scanned_trees.h). */
#include "config.h"

#include "scanned_trees.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "xalloc.h"

static void add_tree(struct scanned_trees *trees, const char *path)
{
    char *real = realpath(path, NULL);
    if (real == NULL)
        return;
    struct stat info;
    if (stat(real, &info) == 0 && !S_ISDIR(info.st_mode)) {
        /* A file operand: its directory is the author's too. */
        char *directory = path_dirname(real);
        free(real);
        real = directory;
    }
    string_list_add_unique(&trees->real, real);
    free(real);
}

void scanned_trees_init(struct scanned_trees *trees, const char *root,
                        const char *const *operands, size_t count)
{
    memset(trees, 0, sizeof(*trees));
    if (root != NULL)
        add_tree(trees, root);
    for (size_t i = 0; i < count; i++)
        if (strcmp(operands[i], "-") != 0)
            add_tree(trees, operands[i]);
}

void scanned_trees_release(struct scanned_trees *trees)
{
    string_list_release(&trees->real);
}

bool scanned_trees_contain(const struct scanned_trees *trees, const char *real_path)
{
    for (size_t i = 0; trees != NULL && i < trees->real.count; i++)
        if (path_is_within(trees->real.items[i], real_path))
            return true;
    return false;
}

static void place_init(struct write_place *place)
{
    memset(place, 0, sizeof(*place));
    place->dir_fd = -1;
}

void write_place_release(struct write_place *place)
{
    if (place->dir_fd >= 0)
        close(place->dir_fd);
    free(place->name);
    free(place->real_directory);
    place_init(place);
}

static int fail(struct write_place *place, char **error, char *message)
{
    write_place_release(place);
    *error = message;
    return -1;
}

/* Steps from the directory open at place->dir_fd into component; returns
 * 0, or -1 with *error set. */
static int step_into(struct write_place *place, const struct scanned_trees *trees,
                     const char *component, char **error)
{
    int next;
    char *real;
    if (strcmp(component, "..") == 0) {
        next = openat(place->dir_fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        real = path_dirname(place->real_directory);
    } else {
        char *here = path_join(place->real_directory, component);
        struct stat info;
        if (fstatat(place->dir_fd, component, &info, AT_SYMLINK_NOFOLLOW) != 0) {
            free(here);
            return fail(place, error, xasprintf("a directory on the way: %s",
                                                strerror(errno)));
        }
        if (S_ISLNK(info.st_mode)) {
            if (scanned_trees_contain(trees, here)) {
                free(here);
                return fail(place, error, xstrdup("a directory on the way is a symbolic "
                                                  "link inside the scanned tree, which "
                                                  "sandlint does not follow to write"));
            }
            /* The user's own link, outside every tree. */
            next = openat(place->dir_fd, component, O_PATH | O_DIRECTORY | O_CLOEXEC);
            real = realpath(here, NULL);
            free(here);
        } else {
            next = openat(place->dir_fd, component,
                          O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            real = here;
        }
    }
    if (next < 0 || real == NULL) {
        int saved = errno;
        if (next >= 0)
            close(next);
        free(real);
        return fail(place, error, xasprintf("a directory on the way: %s", strerror(saved)));
    }
    close(place->dir_fd);
    place->dir_fd = next;
    free(place->real_directory);
    place->real_directory = real;
    return 0;
}

int write_place_open(struct write_place *place, const struct scanned_trees *trees,
                     const char *path, char **error)
{
    place_init(place);
    size_t length = strlen(path);
    const char *slash = strrchr(path, '/');
    const char *last = slash != NULL ? slash + 1 : path;
    if (length == 0 || last[0] == '\0' || strcmp(last, ".") == 0 ||
        strcmp(last, "..") == 0)
        return fail(place, error, xstrdup("it does not name a file"));
    bool absolute = path[0] == '/';
    place->dir_fd = open(absolute ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    place->real_directory = absolute ? xstrdup("/") : realpath(".", NULL);
    if (place->dir_fd < 0 || place->real_directory == NULL)
        return fail(place, error, xasprintf("the current directory: %s", strerror(errno)));
    size_t start = 0;
    size_t end_of_directories = (size_t)(last - path);
    while (start < end_of_directories) {
        const char *next_slash = memchr(path + start, '/', end_of_directories - start);
        size_t end = next_slash != NULL ? (size_t)(next_slash - path) : end_of_directories;
        size_t part = end - start;
        if (part > 0 && !(part == 1 && path[start] == '.')) {
            char *component = xstrndup(path + start, part);
            int status = step_into(place, trees, component, error);
            free(component);
            if (status != 0)
                return -1;
        }
        start = end + 1;
    }
    place->name = xstrdup(last);
    char *here = path_join(place->real_directory, last);
    place->inside = scanned_trees_contain(trees, here);
    free(here);
    return 0;
}
