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

int discover_compare(const char *a, const char *b)
{
    for (size_t i = 0;; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x == y) {
            if (x == '\0')
                return 0;
            continue;
        }
        /* The end of a path, then the end of a component, come first. */
        if (x == '\0' || y == '\0')
            return x == '\0' ? -1 : 1;
        if (x == '/' || y == '/')
            return x == '/' ? -1 : 1;
        return x < y ? -1 : 1;
    }
}

void discovered_file_release(struct discovered_file *file)
{
    free(file->path);
    free(file->absolute);
    free(file->display);
    free(file->package);
    free(file->problem);
    free(file->content);
    memset(file, 0, sizeof(*file));
}

void discovered_file_free(struct discovered_file *file)
{
    if (file == NULL)
        return;
    discovered_file_release(file);
    free(file);
}

/* ------------------------------------------------------------------ */
/* one operand: a sorted depth-first walk                              */
/* ------------------------------------------------------------------ */

struct entry {
    char *name;
    unsigned char type;         /* DT_DIR, DT_REG, DT_LNK, other */
};

struct frame {
    char *path;                 /* the directory, operand-based */
    char *absolute;
    struct entry *entries;      /* sorted by name */
    size_t count, next;
};

struct operand {
    char *path;                 /* as given */
    char *absolute;
    char *real;                 /* realpath of a directory operand */
    char *package;              /* default package: the operand's basename
                                   (a file's: its directory's) */
    bool is_directory;
    bool started, finished;
    struct frame *frames;       /* the directories on the current path */
    size_t depth, capacity;
    struct discovered_file *head;   /* the next file, looked ahead */
};

struct discovery_walk {
    const char *root;
    struct operand *operands;
    size_t count;
    size_t yielded;
    char *last;                 /* display of the last file (for overlaps) */
};

static struct discovered_file *make_file(const struct discovery_walk *walk,
                                         const struct operand *operand,
                                         const char *path, const char *absolute,
                                         const char *problem)
{
    struct discovered_file *file = xcalloc(1, sizeof(*file));
    file->path = xstrdup(path);
    file->absolute = xstrdup(absolute);
    file->display = path_relative(walk->root, absolute);
    file->package = operand->package ? xstrdup(operand->package) : NULL;
    file->problem = problem ? xstrdup(problem) : NULL;
    return file;
}

static struct discovered_file *problem_file(const struct discovery_walk *walk,
                                            const struct operand *operand,
                                            const char *path, const char *absolute,
                                            const char *format, const char *detail)
{
    char *problem = xasprintf(format, detail);
    struct discovered_file *file = make_file(walk, operand, path, absolute, problem);
    free(problem);
    return file;
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void frame_release(struct frame *frame)
{
    for (size_t i = 0; i < frame->count; i++)
        free(frame->entries[i].name);
    free(frame->entries);
    free(frame->path);
    free(frame->absolute);
}

/* Reads and sorts a directory onto the operand's stack.  Returns 0, or -1
 * with errno set. */
static int push_directory(struct operand *operand, const char *path,
                          const char *absolute)
{
    /* O_NOFOLLOW: a directory replaced by a symlink is not entered. */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    DIR *handle = fd >= 0 ? fdopendir(fd) : NULL;
    if (handle == NULL) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        errno = saved;
        return -1;
    }
    struct frame frame;
    memset(&frame, 0, sizeof(frame));
    size_t capacity = 0;
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
        /* Only what can lead to a Compose file is kept. */
        if (type == DT_DIR ? strcmp(name, ".git") == 0 : !discover_is_compose_name(name))
            continue;
        if (frame.count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            frame.entries = xrealloc(frame.entries, capacity, sizeof(*frame.entries));
        }
        frame.entries[frame.count].name = xstrdup(name);
        frame.entries[frame.count].type = type;
        frame.count++;
    }
    int saved = errno;
    closedir(handle);
    if (saved != 0) {
        frame_release(&frame);
        errno = saved;
        return -1;
    }
    if (frame.count > 1)
        qsort(frame.entries, frame.count, sizeof(*frame.entries), compare_entries);
    frame.path = xstrdup(path);
    frame.absolute = xstrdup(absolute);
    if (operand->depth == operand->capacity) {
        operand->capacity = operand->capacity ? operand->capacity * 2 : 16;
        operand->frames = xrealloc(operand->frames, operand->capacity,
                                   sizeof(*operand->frames));
    }
    operand->frames[operand->depth++] = frame;
    return 0;
}

/* A symlink named like a Compose file: read it only when it resolves to a
 * non-directory inside the operand's tree. */
static struct discovered_file *consider_symlink(const struct discovery_walk *walk,
                                                const struct operand *operand,
                                                const char *path,
                                                const char *absolute)
{
    struct stat info;
    if (stat(path, &info) != 0)
        return problem_file(walk, operand, path, absolute, "cannot open file: %s",
                            strerror(errno));
    if (S_ISDIR(info.st_mode))
        return NULL;    /* symlinked directories are never entered */
    char *real = realpath(path, NULL);
    if (real == NULL)
        return problem_file(walk, operand, path, absolute, "cannot open file: %s",
                            strerror(errno));
    struct discovered_file *file;
    if (operand->real != NULL && !path_is_within(operand->real, real))
        file = problem_file(walk, operand, path, absolute, "symbolic link to '%s' "
                            "leaves the scanned tree; not read", real);
    else
        file = make_file(walk, operand, path, absolute, NULL);
    free(real);
    return file;
}

/* The operand's next file in its own order, or NULL when it has no more. */
static struct discovered_file *operand_next(const struct discovery_walk *walk,
                                            struct operand *operand)
{
    if (operand->finished)
        return NULL;
    if (!operand->started) {
        operand->started = true;
        if (!operand->is_directory) {
            operand->finished = true;
            return make_file(walk, operand, operand->path, operand->absolute, NULL);
        }
        if (push_directory(operand, operand->path, operand->absolute) != 0) {
            operand->finished = true;
            return problem_file(walk, operand, operand->path, operand->absolute,
                                "cannot read directory: %s", strerror(errno));
        }
    }
    while (operand->depth > 0) {
        struct frame *frame = &operand->frames[operand->depth - 1];
        if (frame->next == frame->count) {
            frame_release(frame);
            operand->depth--;
            continue;
        }
        const struct entry *entry = &frame->entries[frame->next++];
        char *path = path_join(frame->path, entry->name);
        char *absolute = path_join(frame->absolute, entry->name);
        struct discovered_file *file = NULL;
        if (entry->type == DT_DIR) {
            if (push_directory(operand, path, absolute) != 0)
                file = problem_file(walk, operand, path, absolute,
                                    "cannot read directory: %s", strerror(errno));
        } else if (entry->type == DT_LNK) {
            file = consider_symlink(walk, operand, path, absolute);
        } else {
            file = make_file(walk, operand, path, absolute, NULL);   /* FIFOs
                                                too: the reader warns */
        }
        free(path);
        free(absolute);
        if (file != NULL)
            return file;
    }
    operand->finished = true;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* all operands, merged                                                */
/* ------------------------------------------------------------------ */

struct discovery_walk *discovery_open(const char *const *operands, size_t count,
                                      const char *root, char **error)
{
    *error = NULL;
    struct discovery_walk *walk = xcalloc(1, sizeof(*walk));
    walk->root = root;
    walk->operands = xcalloc(count ? count : 1, sizeof(*walk->operands));
    for (size_t i = 0; i < count; i++) {
        struct stat info;
        if (stat(operands[i], &info) != 0) {
            *error = xasprintf("%s: %s", operands[i], strerror(errno));
            walk->count = i;
            discovery_close(walk);
            return NULL;
        }
        struct operand *operand = &walk->operands[i];
        operand->path = xstrdup(operands[i]);
        operand->absolute = path_absolute(operands[i]);
        operand->is_directory = S_ISDIR(info.st_mode);
        if (operand->is_directory) {
            operand->real = realpath(operands[i], NULL);
            operand->package = path_basename(operand->absolute);
        } else {
            /* A file operand belongs to its parent directory. */
            char *parent = path_dirname(operand->absolute);
            operand->package = path_basename(parent);
            free(parent);
        }
    }
    walk->count = count;
    return walk;
}

struct discovered_file *discovery_next(struct discovery_walk *walk)
{
    for (;;) {
        /* Each operand yields in order: take the smallest head. */
        struct operand *best = NULL;
        for (size_t i = 0; i < walk->count; i++) {
            struct operand *operand = &walk->operands[i];
            if (operand->head == NULL)
                operand->head = operand_next(walk, operand);
            if (operand->head != NULL &&
                (best == NULL ||
                 discover_compare(operand->head->display, best->head->display) < 0))
                best = operand;
        }
        if (best == NULL)
            return NULL;
        struct discovered_file *file = best->head;
        best->head = NULL;
        /* Overlapping operands name some files twice: keep one. */
        if (walk->last != NULL && strcmp(walk->last, file->display) == 0) {
            discovered_file_free(file);
            continue;
        }
        free(walk->last);
        walk->last = xstrdup(file->display);
        walk->yielded++;
        return file;
    }
}

size_t discovery_count(const struct discovery_walk *walk)
{
    return walk->yielded;
}

void discovery_close(struct discovery_walk *walk)
{
    if (walk == NULL)
        return;
    for (size_t i = 0; i < walk->count; i++) {
        struct operand *operand = &walk->operands[i];
        for (size_t d = 0; d < operand->depth; d++)
            frame_release(&operand->frames[d]);
        free(operand->frames);
        discovered_file_free(operand->head);
        free(operand->path);
        free(operand->absolute);
        free(operand->real);
        free(operand->package);
    }
    free(walk->operands);
    free(walk->last);
    free(walk);
}
