/* discover.c - find the Compose files of the operands (see discover.h). */
#include "config.h"

#include "discover.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "xalloc.h"

bool discover_is_compose_name(const char *name)
{
    if (strncmp(name, "docker-", 7) == 0)
        name += 7;
    if (strncmp(name, "compose", 7) != 0)
        return false;
    size_t length = strlen(name);
    return (length >= 11 && strcmp(name + length - 4, ".yml") == 0) ||
           (length >= 12 && strcmp(name + length - 5, ".yaml") == 0);
}

struct walk {
    struct discovery *out;
    const char *root;           /* for display paths */
    char *operand_real;         /* realpath of the directory operand */
    char *package;              /* package of the operand */
    char *package_directory;
};

static struct discovered_file *add_file(struct walk *walk, const char *path,
                                        const char *problem)
{
    struct discovery *out = walk->out;
    if (out->count == out->capacity) {
        out->capacity = out->capacity ? out->capacity * 2 : 64;
        out->files = xrealloc(out->files, out->capacity, sizeof(*out->files));
    }
    struct discovered_file *file = &out->files[out->count++];
    memset(file, 0, sizeof(*file));
    file->path = xstrdup(path);
    file->absolute = path_absolute(path);
    file->display = path_relative(walk->root, file->absolute);
    file->package = walk->package ? xstrdup(walk->package) : NULL;
    file->package_directory =
        walk->package_directory ? xstrdup(walk->package_directory) : NULL;
    file->problem = problem ? xstrdup(problem) : NULL;
    return file;
}

static void add_problem(struct walk *walk, const char *path, const char *format,
                        const char *detail)
{
    char *problem = xasprintf(format, detail);
    add_file(walk, path, problem);
    free(problem);
}

/* A symlink named like a Compose file: read it only when it resolves to a
 * non-directory inside the operand's tree. */
static void consider_symlink(struct walk *walk, const char *path)
{
    struct stat info;
    if (stat(path, &info) != 0) {
        add_problem(walk, path, "cannot open file: %s", strerror(errno));
        return;
    }
    if (S_ISDIR(info.st_mode))
        return;     /* symlinked directories are never entered */
    char *real = realpath(path, NULL);
    if (real == NULL) {
        add_problem(walk, path, "cannot open file: %s", strerror(errno));
        return;
    }
    if (walk->operand_real != NULL && !path_is_within(walk->operand_real, real))
        add_problem(walk, path, "symbolic link to '%s' leaves the scanned "
                    "tree; not read", real);
    else
        add_file(walk, path, NULL);
    free(real);
}

struct directory_stack {
    char **paths;
    size_t count, capacity;
};

static void push_directory(struct directory_stack *stack, char *path)
{
    if (stack->count == stack->capacity) {
        stack->capacity = stack->capacity ? stack->capacity * 2 : 32;
        stack->paths = xrealloc(stack->paths, stack->capacity,
                                sizeof(*stack->paths));
    }
    stack->paths[stack->count++] = path;
}

static void walk_directory(struct walk *walk, const char *top)
{
    struct directory_stack stack = { NULL, 0, 0 };
    push_directory(&stack, xstrdup(top));
    while (stack.count > 0) {
        char *directory = stack.paths[--stack.count];
        /* O_NOFOLLOW: a directory replaced by a symlink is not entered. */
        int fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                     O_CLOEXEC | O_NONBLOCK);
        DIR *handle = fd >= 0 ? fdopendir(fd) : NULL;
        if (handle == NULL) {
            if (fd >= 0)
                close(fd);
            add_problem(walk, directory, "cannot read directory: %s",
                        strerror(errno));
            free(directory);
            continue;
        }
        struct dirent *entry;
        while ((errno = 0, entry = readdir(handle)) != NULL) {
            const char *name = entry->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
                continue;
            unsigned char type = entry->d_type;
            if (type == DT_UNKNOWN) {
                struct stat info;
                if (fstatat(dirfd(handle), name, &info, AT_SYMLINK_NOFOLLOW) != 0)
                    continue;   /* vanished while we looked */
                type = S_ISDIR(info.st_mode) ? DT_DIR
                       : S_ISLNK(info.st_mode) ? DT_LNK
                       : S_ISREG(info.st_mode) ? DT_REG : DT_FIFO;
            }
            if (type == DT_DIR) {
                if (strcmp(name, ".git") != 0)
                    push_directory(&stack, path_join(directory, name));
                continue;
            }
            if (!discover_is_compose_name(name))
                continue;
            char *path = path_join(directory, name);
            if (type == DT_LNK)
                consider_symlink(walk, path);
            else
                add_file(walk, path, NULL);   /* FIFOs too: the reader warns */
            free(path);
        }
        if (errno != 0)
            add_problem(walk, directory, "cannot read directory: %s",
                        strerror(errno));
        closedir(handle);
        free(directory);
    }
    free(stack.paths);
}

static int compare_display(const void *left, const void *right)
{
    const struct discovered_file *a = left, *b = right;
    return strcmp(a->display, b->display);
}

static void discovered_release(struct discovered_file *file)
{
    free(file->path);
    free(file->absolute);
    free(file->display);
    free(file->package);
    free(file->package_directory);
    free(file->problem);
}

int discover_files(const char *const *operands, size_t count, const char *root,
                   struct discovery *out, char **error)
{
    memset(out, 0, sizeof(*out));
    *error = NULL;
    for (size_t i = 0; i < count; i++) {
        const char *operand = operands[i];
        struct stat info;
        if (stat(operand, &info) != 0) {
            *error = xasprintf("%s: %s", operand, strerror(errno));
            discovery_release(out);
            return -1;
        }
        struct walk walk = { out, root, NULL, NULL, NULL };
        if (S_ISDIR(info.st_mode)) {
            walk.operand_real = realpath(operand, NULL);
            walk.package_directory = path_absolute(operand);
            walk.package = path_basename(walk.package_directory);
            walk_directory(&walk, operand);
        } else {
            /* A file operand belongs to its parent directory. */
            char *absolute = path_absolute(operand);
            walk.package_directory = path_dirname(absolute);
            walk.package = path_basename(walk.package_directory);
            free(absolute);
            add_file(&walk, operand, NULL);
        }
        free(walk.operand_real);
        free(walk.package);
        free(walk.package_directory);
    }
    if (out->count > 1)
        qsort(out->files, out->count, sizeof(*out->files), compare_display);
    /* Overlapping operands name some files twice: keep one. */
    size_t kept = 0;
    for (size_t i = 0; i < out->count; i++) {
        if (kept > 0 && strcmp(out->files[kept - 1].display, out->files[i].display) == 0) {
            discovered_release(&out->files[i]);
            continue;
        }
        out->files[kept++] = out->files[i];
    }
    out->count = kept;
    return 0;
}

void discovery_release(struct discovery *discovery)
{
    for (size_t i = 0; i < discovery->count; i++)
        discovered_release(&discovery->files[i]);
    free(discovery->files);
    memset(discovery, 0, sizeof(*discovery));
}
