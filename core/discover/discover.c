/* discover.c - find the Compose files of the operands (see discover.h). */
#include "config.h"

#include "discover.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "file_kind.h"
#include "path_glob.h"
#include "paths.h"
#include "source.h"
#include "xalloc.h"

/* A directory operand's descriptor only leads to others. */
#ifdef O_PATH
#define BASE_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)
#else
#define BASE_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
#endif
/* O_NOFOLLOW: a directory replaced by a symlink is not entered. */
#define WALK_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

/* Directory descriptors kept open per operand, and for the whole walk:
 * the others are reopened when the walk comes back to them - through ".."
 * on the way up, else by name from the nearest open ancestor - and checked
 * by device and inode to be the directories they were.  (Operands wait
 * for each other in the merged order; a thousand of them must not hold
 * four thousand descriptors.) */
#define OPEN_FRAMES 4
#define OPEN_FRAMES_IN_WALK 64
/* File operands get their parent directory as base up to this many
 * directories; the rest share the file system's root as base (with the
 * real path as relative path, opened as carefully). */
#define MAX_FILE_BASES 128
/* Deeper directories are reported, not searched: no repository nests this
 * deep, and the cost of a path grows with its depth. */
#define MAX_DIRECTORY_DEPTH 1000
/* Symbolic links followed to resolve one link (the kernel's own limit). */
#define MAX_LINKS 40

bool discover_is_compose_name(const char *name)
{
    return (file_name_candidates(name) & CANDIDATE_COMPOSE) != 0;
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
    free(file->relative);
    free(file->context);
    memset(file, 0, sizeof(*file));
    file->base_fd = -1;
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
    int fd;                     /* the open directory, or -1 (OPEN_FRAMES) */
    dev_t device;               /* set when fd is closed, to check the */
    ino_t inode;                /* directory reopened through ".." */
    size_t relative_length;     /* its path in operand->relative */
    struct entry *entries;      /* sorted by name */
    size_t count, next;
    bool kubernetes;            /* a kubernetes glob matches the directory
                                   or one it lies in */
    bool workflows;             /* .github/workflows: its YAML files are
                                   GitHub Actions workflows */
    bool holds_chart;           /* it holds a Chart.yaml (a Helm chart) */
    bool holds_env;             /* it holds a .env (a Compose project's) */
    bool helm_templates;        /* it is a chart's templates/ or lies in one */
};

/* What the look-ahead of an operand holds. */
enum item_kind {
    ITEM_FILE,                  /* a file to check (or a problem) */
    ITEM_EXCLUDED_FILE,         /* a Compose file an exclude glob skips */
    ITEM_EXCLUDED_DIRECTORY     /* a directory an exclude glob skips */
};

struct operand {
    char *path;                 /* as given */
    char *absolute;             /* lexically normalised */
    char *real;                 /* realpath of a directory operand; NULL
                                   when it could not be resolved */
    int base_fd;                /* borrowed from the walk's bases, or -1 */
    bool is_directory;
    bool excluded;              /* an exclude glob matches it */
    char *name;                 /* a file operand: its name from base_fd */
    struct stat info;           /* a file operand's (stat, links followed) */
    char *problem;              /* why the operand cannot be searched */
    bool started, finished;
    struct frame *frames;       /* the directories on the current path */
    size_t depth, capacity;
    char *relative;             /* the current directory from base_fd */
    size_t relative_length, relative_capacity;
    struct discovered_file *head;   /* the next item, looked ahead */
    enum item_kind head_kind;
};

/* A directory descriptor that operands share (by device and inode). */
struct base {
    int fd;
    dev_t device;
    ino_t inode;
};

struct discovery_walk {
    const char *root;
    const struct string_list *exclude;
    const struct string_list *kubernetes;   /* globs of Kubernetes objects */
    enum kubernetes_search {
        KUBERNETES_BY_CONTENT,  /* no kubernetes setting: every YAML file */
        KUBERNETES_UNDER_GLOBS, /* the setting narrows it to its globs */
        KUBERNETES_OFF          /* kubernetes = none */
    } kubernetes_search;
    struct operand *operands;
    size_t count;
    struct base *bases;
    size_t base_count, file_bases;
    size_t max_bases;           /* what the limit on open files allows */
    int root_fd;                /* "/" as a base, or -1 until needed */
    size_t open_frames;         /* frame descriptors open, all operands */
    size_t yielded, excluded, excluded_directories;
    size_t helm_templates;      /* files under a chart's templates/, not read */
    char *last;                 /* display of the last item (for overlaps) */
    bool want_identity;         /* stat every regular file found */
    bool named_as_found;        /* a file operand is checked only when a
                                   search would check it (--allow-no-files) */
};

size_t discovery_descriptors(const struct discovery_walk *walk, int **fds)
{
    *fds = xcalloc(walk->base_count + 1, sizeof(**fds));
    for (size_t i = 0; i < walk->base_count; i++)
        (*fds)[i] = walk->bases[i].fd;
    return walk->base_count;
}

/* The root-relative path of absolute for globs: NULL outside the root. */
static char *glob_relative(const struct discovery_walk *walk, const char *absolute)
{
    char *relative = path_relative(walk->root, absolute);
    if (strcmp(relative, "..") == 0 || strncmp(relative, "../", 3) == 0) {
        free(relative);
        return NULL;
    }
    return relative;
}

static bool globs_match(const struct discovery_walk *walk,
                        const struct string_list *globs, const char *absolute,
                        bool is_directory)
{
    if (globs == NULL || globs->count == 0)
        return false;
    char *relative = glob_relative(walk, absolute);
    bool matched = glob_list_match(globs, relative, absolute, is_directory);
    free(relative);
    return matched;
}

static bool is_excluded(const struct discovery_walk *walk, const char *absolute,
                        bool is_directory)
{
    return globs_match(walk, walk->exclude, absolute, is_directory);
}

/* Whether one of globs matches absolute or a directory it lies in. */
static bool globs_match_within(const struct discovery_walk *walk,
                               const struct string_list *globs, const char *absolute,
                               bool is_directory)
{
    if (globs == NULL || globs->count == 0)
        return false;
    for (size_t i = 1; absolute[i] != '\0'; i++) {
        if (absolute[i] != '/')
            continue;
        char *ancestor = xstrndup(absolute, i);
        bool matched = globs_match(walk, globs, ancestor, true);
        free(ancestor);
        if (matched)
            return true;
    }
    return globs_match(walk, globs, absolute, is_directory);
}

/* Whether an operand, or a directory it lies in, is excluded. */
static bool operand_excluded(const struct discovery_walk *walk, const char *absolute,
                             bool is_directory)
{
    return globs_match_within(walk, walk->exclude, absolute, is_directory);
}

/* A file found at from_operand (a path below the operand, "" for the
 * operand itself), to be opened as relative from the operand's base. */
static struct discovered_file *make_file(const struct discovery_walk *walk,
                                         const struct operand *operand,
                                         const char *from_operand,
                                         const char *relative,
                                         const struct stat *info,
                                         char *problem)
{
    struct discovered_file *file = xcalloc(1, sizeof(*file));
    if (from_operand[0] == '\0') {
        file->path = xstrdup(operand->path);
        file->absolute = xstrdup(operand->absolute);
    } else {
        file->path = path_join(operand->path, from_operand);
        file->absolute = path_join(operand->absolute, from_operand);
    }
    file->display = path_relative(walk->root, file->absolute);
    file->problem = problem;
    file->base_fd = -1;
    if (relative != NULL && operand->base_fd >= 0) {
        file->base_fd = operand->base_fd;
        file->relative = xstrdup(relative);
    }
    if (info != NULL) {
        file->device = info->st_dev;
        file->inode = info->st_ino;
    }
    return file;
}

/* The current directory's path from the base, with name appended (the
 * buffer is the operand's; the result is valid until the next call). */
static const char *child_path(struct operand *operand, const char *name)
{
    size_t base = operand->relative_length;
    size_t needed = base + 1 + strlen(name) + 1;
    if (needed > operand->relative_capacity) {
        operand->relative_capacity = needed * 2;
        operand->relative = xrealloc(operand->relative, operand->relative_capacity, 1);
    }
    char *cursor = operand->relative + base;
    if (base > 0)
        *cursor++ = '/';
    memcpy(cursor, name, strlen(name) + 1);
    return operand->relative;
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* Closes a frame's descriptor, remembering what to recognise the
 * directory by when it is reopened (0 and 0: it will not be). */
static void frame_close(struct discovery_walk *walk, struct frame *frame)
{
    if (frame->fd < 0)
        return;
    struct stat info;
    bool known = fstat(frame->fd, &info) == 0;
    frame->device = known ? info.st_dev : 0;
    frame->inode = known ? info.st_ino : 0;
    close(frame->fd);
    frame->fd = -1;
    walk->open_frames--;
}

static void frame_release(struct discovery_walk *walk, struct frame *frame)
{
    for (size_t i = 0; i < frame->count; i++)
        free(frame->entries[i].name);
    free(frame->entries);
    if (frame->fd >= 0) {
        close(frame->fd);
        walk->open_frames--;
    }
    frame->fd = -1;
    frame->entries = NULL;
    frame->count = frame->next = 0;
}

/* Whether fd is the directory a closed frame was. */
static bool same_directory(int fd, const struct frame *frame)
{
    struct stat info;
    return fstat(fd, &info) == 0 && frame->inode != 0 &&
           info.st_dev == frame->device && info.st_ino == frame->inode;
}

/* Opens the descriptor of the operand's frame index again, from the nearest
 * ancestor still open (or the base), by name, following no link.  Returns
 * 0, or -1 when a directory on the way is not the one it was. */
static int frame_reopen(struct discovery_walk *walk, struct operand *operand,
                        size_t index)
{
    size_t first = index;
    while (first > 0 && operand->frames[first - 1].fd < 0)
        first--;
    for (size_t k = first; k <= index; k++) {
        struct frame *frame = &operand->frames[k];
        int fd;
        if (k == 0) {
            fd = openat(operand->base_fd, ".", WALK_FLAGS);
        } else {
            size_t start = operand->frames[k - 1].relative_length;
            start += start > 0;     /* the '/' */
            char *name = xstrndup(operand->relative + start,
                                  frame->relative_length - start);
            fd = openat(operand->frames[k - 1].fd, name, WALK_FLAGS);
            free(name);
        }
        if (fd < 0 || !same_directory(fd, frame)) {
            if (fd >= 0)
                close(fd);
            return -1;
        }
        frame->fd = fd;
        walk->open_frames++;
    }
    return 0;
}

/* Keeps the descriptors within bounds after operand opened one: its own
 * oldest beyond OPEN_FRAMES, then, over the walk's budget, those of the
 * operands that wait. */
static void limit_descriptors(struct discovery_walk *walk, struct operand *operand)
{
    if (operand->depth > OPEN_FRAMES)
        frame_close(walk, &operand->frames[operand->depth - 1 - OPEN_FRAMES]);
    for (size_t i = 0; i < walk->count && walk->open_frames > OPEN_FRAMES_IN_WALK; i++) {
        struct operand *other = &walk->operands[i];
        if (other == operand)
            continue;
        for (size_t d = 0; d < other->depth; d++)
            frame_close(walk, &other->frames[d]);
    }
}

/* One record of getdents64(2), as the kernel lays it out. */
struct kernel_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Reads and sorts what can lead to a file to check in the directory fd:
 * directories, and files named like a candidate (any YAML file when
 * any_yaml: kubernetes globs may pick it).  The entries come straight from
 * getdents64(2) on fd: opendir() would dup the descriptor, stat it and
 * set its flags again - five system calls per directory, a tenth of a
 * whole run on a tree with one Compose file per directory. */
static int read_entries(int fd, struct frame *frame, bool any_yaml)
{
    union {
        struct kernel_dirent64 first;   /* for its alignment */
        char bytes[32768];
    } buffer;
    size_t capacity = 0;
    for (;;) {
        long got = syscall(SYS_getdents64, fd, buffer.bytes, sizeof(buffer.bytes));
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            break;
        for (long at = 0; at < got;) {
            const struct kernel_dirent64 *entry =
                (const struct kernel_dirent64 *)(buffer.bytes + at);
            at += entry->d_reclen;
            const char *name = entry->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
                continue;
            unsigned char type = entry->d_type;
            if (strcmp(name, "Chart.yaml") == 0)
                frame->holds_chart = true;
            else if (strcmp(name, ".env") == 0)
                frame->holds_env = true;
            if (type == DT_UNKNOWN) {
                struct stat info;
                if (fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0)
                    continue;   /* vanished while we looked */
                type = S_ISDIR(info.st_mode) ? DT_DIR
                       : S_ISLNK(info.st_mode) ? DT_LNK
                       : S_ISREG(info.st_mode) ? DT_REG : DT_FIFO;
            }
            /* Only what can lead to a file to check is kept. */
            if (type == DT_DIR ? strcmp(name, ".git") == 0
                               : file_name_candidates(name) == 0 &&
                                     !(any_yaml && file_name_is_yaml(name)))
                continue;
            if (frame->count == capacity) {
                capacity = capacity ? capacity * 2 : 16;
                frame->entries = xrealloc(frame->entries, capacity,
                                          sizeof(*frame->entries));
            }
            frame->entries[frame->count].name = xstrdup(name);
            frame->entries[frame->count].type = type;
            frame->count++;
        }
    }
    if (frame->count > 1)
        qsort(frame->entries, frame->count, sizeof(*frame->entries), compare_entries);
    return 0;
}

/* Opens name in the directory parent_fd (or the operand's own directory
 * when name is NULL) and pushes it, read and sorted, onto the operand's
 * stack; relative_length is its path's length in operand->relative.
 * Returns 0, or -1 with errno set. */
static int push_directory(struct discovery_walk *walk, struct operand *operand,
                          int parent_fd, const char *name, size_t relative_length)
{
    int fd = name ? openat(parent_fd, name, WALK_FLAGS)
                  : openat(operand->base_fd, ".", WALK_FLAGS);
    if (fd < 0)
        return -1;
    walk->open_frames++;
    struct frame frame;
    memset(&frame, 0, sizeof(frame));
    frame.fd = fd;
    frame.workflows = name != NULL ? file_dir_is_workflows(operand->relative, relative_length)
                                   : file_dir_is_workflows(operand->absolute,
                                                           strlen(operand->absolute));
    if (read_entries(fd, &frame, frame.workflows ||
                                     walk->kubernetes_search != KUBERNETES_OFF)
        != 0) {
        int saved = errno;
        frame_release(walk, &frame);
        errno = saved;
        return -1;
    }
    frame.relative_length = relative_length;
    if (operand->depth == operand->capacity) {
        operand->capacity = operand->capacity ? operand->capacity * 2 : 16;
        operand->frames = xrealloc(operand->frames, operand->capacity,
                                   sizeof(*operand->frames));
    }
    operand->frames[operand->depth++] = frame;
    operand->relative_length = relative_length;
    limit_descriptors(walk, operand);
    return 0;
}

/* Leaves the top directory; reopens its parent when its descriptor was
 * closed (through "..", which costs one call however deep).  Returns 0, or
 * -1 when the parent is not the directory it was (moved away meanwhile). */
static int pop_directory(struct discovery_walk *walk, struct operand *operand)
{
    struct frame *top = &operand->frames[operand->depth - 1];
    int child_fd = top->fd;
    if (child_fd >= 0) {
        top->fd = -1;
        walk->open_frames--;
    }
    frame_release(walk, top);
    operand->depth--;
    int status = 0;
    if (operand->depth > 0) {
        struct frame *parent = &operand->frames[operand->depth - 1];
        operand->relative_length = parent->relative_length;
        if (parent->fd < 0) {
            int fd = child_fd >= 0 ? openat(child_fd, "..", WALK_FLAGS) : -1;
            if (fd >= 0 && same_directory(fd, parent)) {
                parent->fd = fd;
                walk->open_frames++;
            } else {
                if (fd >= 0)
                    close(fd);
                status = frame_reopen(walk, operand, operand->depth - 1);
            }
        }
    }
    if (child_fd >= 0)
        close(child_fd);
    return status;
}

static char *read_link(int dir_fd, const char *path)
{
    size_t size = 256;
    for (;;) {
        char *buffer = xmalloc(size);
        ssize_t got = readlinkat(dir_fd, path, buffer, size);
        if (got < 0) {
            free(buffer);
            return NULL;
        }
        if ((size_t)got < size) {
            buffer[got] = '\0';
            return buffer;
        }
        free(buffer);
        size *= 2;
    }
}

/* Whether path (absolute, trusted only for this answer) is a directory. */
static bool is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

/* The message for a link that leads out of the operand's tree, naming
 * where it leads. */
static char *leaves_tree(const char *absolute, const char *target)
{
    char *real = realpath(absolute, NULL);
    char *problem = xasprintf("symbolic link to '%s' leaves the scanned tree; "
                              "not read", real ? real : target);
    free(real);
    return problem;
}

enum resolution {
    RESOLVED,                   /* *done names it, free of links */
    CLIMBS_OUT,                 /* the path climbs out of the operand */
    UNRESOLVED                  /* errno says why */
};

/* Takes the first component off *rest (owned) into a new string. */
static char *take_component(char **rest)
{
    char *end = strchr(*rest, '/');
    char *component = end ? xstrndup(*rest, (size_t)(end - *rest)) : xstrdup(*rest);
    char *after = xstrdup(end ? end + 1 : "");
    free(*rest);
    *rest = after;
    return component;
}

/*
 * Resolves rest (owned; a link's target) from the directory *done (owned;
 * a path from the operand's base without links, "" for the base) the way
 * the kernel would, one component at a time, below the base only.  On
 * RESOLVED, *done is the result and *info its lstat (S_IFDIR alone when
 * the result is a directory passed through).
 */
static enum resolution resolve_below(const struct operand *operand, char **done,
                                     char *rest, struct stat *info)
{
    memset(info, 0, sizeof(*info));
    info->st_mode = S_IFDIR;
    enum resolution result = RESOLVED;
    int links = 1;
    for (;;) {
        if (rest[0] == '/') {
            /* An absolute target is inside only when it names the
             * operand's real path. */
            if (operand->real == NULL || !path_is_within(operand->real, rest)) {
                result = CLIMBS_OUT;
                break;
            }
            size_t skip = strlen(operand->real);
            char *inside = xstrdup(rest + skip + (rest[skip] == '/'));
            free(rest);
            rest = inside;
            (*done)[0] = '\0';
            info->st_mode = S_IFDIR;
        }
        if (rest[0] == '\0')
            break;
        char *component = take_component(&rest);
        if (component[0] == '\0' || strcmp(component, ".") == 0) {
            free(component);
            continue;
        }
        if (!S_ISDIR(info->st_mode)) {
            free(component);
            errno = ENOTDIR;
            result = UNRESOLVED;
            break;
        }
        if (strcmp(component, "..") == 0) {
            free(component);
            if ((*done)[0] == '\0') {
                result = CLIMBS_OUT;
                break;
            }
            char *up = strrchr(*done, '/');
            *(up ? up : *done) = '\0';
            continue;
        }
        char *candidate = (*done)[0] ? path_join(*done, component) : xstrdup(component);
        free(component);
        struct stat found;
        if (fstatat(operand->base_fd, candidate, &found, AT_SYMLINK_NOFOLLOW) != 0) {
            free(candidate);
            result = UNRESOLVED;
            break;
        }
        if (!S_ISLNK(found.st_mode)) {
            free(*done);
            *done = candidate;
            *info = found;
            continue;
        }
        char *target = ++links > MAX_LINKS ? NULL : read_link(operand->base_fd, candidate);
        free(candidate);
        if (target == NULL) {
            if (links > MAX_LINKS)
                errno = ELOOP;
            result = UNRESOLVED;
            break;
        }
        char *joined = rest[0] ? xasprintf("%s/%s", target, rest) : xstrdup(target);
        free(target);
        free(rest);
        rest = joined;
    }
    free(rest);
    return result;
}

/*
 * A symbolic link named like a Compose file, at link (its path from the
 * base): read only when it resolves to a regular file inside the operand's
 * tree, through the resolved path (free of links, so the reader follows
 * none).  Returns the file, a problem, or NULL for a link to a directory
 * (never entered).
 */
static struct discovered_file *consider_symlink(const struct discovery_walk *walk,
                                                const struct operand *operand,
                                                const char *link)
{
    char *target = read_link(operand->base_fd, link);
    if (target != NULL && target[0] == '\0') {
        free(target);           /* the kernel resolves nothing through it */
        target = NULL;
        errno = ENOENT;
    }
    if (target == NULL)
        return make_file(walk, operand, link, NULL, NULL,
                         xasprintf("cannot open file: %s", strerror(errno)));
    const char *slash = strrchr(link, '/');
    char *done = slash ? xstrndup(link, (size_t)(slash - link)) : xstrdup("");
    struct stat info;
    enum resolution result = resolve_below(operand, &done, target, &info);
    struct discovered_file *file = NULL;
    if (result == UNRESOLVED) {
        file = make_file(walk, operand, link, NULL, NULL,
                         xasprintf("cannot open file: %s", strerror(errno)));
    } else if (result == CLIMBS_OUT) {
        /* Written as a way out; the kernel's resolution may still end
         * inside (../tree/x, an absolute path through another link):
         * realpath says where it ends, and inside it is read through the
         * base like any file. */
        char *absolute = path_join(operand->absolute, link);
        char *real = realpath(absolute, NULL);
        if (real != NULL && operand->real != NULL && path_is_within(operand->real, real) &&
            strcmp(real, operand->real) != 0) {
            free(done);
            done = path_relative(operand->real, real);
            if (fstatat(operand->base_fd, done, &info, AT_SYMLINK_NOFOLLOW) != 0)
                file = make_file(walk, operand, link, NULL, NULL,
                                 xasprintf("cannot open file: %s", strerror(errno)));
            else
                result = RESOLVED;
        } else if (real == NULL || operand->real == NULL ||
                   (strcmp(real, operand->real) != 0 && !is_directory(real))) {
            char *raw = read_link(operand->base_fd, link);
            file = make_file(walk, operand, link, NULL, NULL,
                             leaves_tree(absolute, raw ? raw : "?"));
            free(raw);
        }
        free(real);
        free(absolute);
    }
    if (result == RESOLVED) {
        if (S_ISREG(info.st_mode))
            file = make_file(walk, operand, link, done, &info, NULL);
        else if (!S_ISDIR(info.st_mode))
            file = make_file(walk, operand, link, NULL, &info,
                             source_kind_problem(info.st_mode));
        /* a directory: symbolic links to directories are never entered */
    }
    free(done);
    return file;
}

/* A directory's (from_operand) problem, as a file of its own. */
static struct discovered_file *directory_problem(const struct discovery_walk *walk,
                                                 const struct operand *operand,
                                                 const char *from_operand,
                                                 const char *what, int error)
{
    return make_file(walk, operand, from_operand, NULL, NULL,
                     xasprintf("%s: %s", what, strerror(error)));
}

/* Whether a kubernetes glob matches path (below the operand) itself. */
static bool under_kubernetes(const struct discovery_walk *walk,
                             const struct operand *operand, const char *path,
                             bool is_directory)
{
    if (walk->kubernetes_search != KUBERNETES_UNDER_GLOBS)
        return false;
    char *absolute = path_join(operand->absolute, path);
    bool matched = globs_match(walk, walk->kubernetes, absolute, is_directory);
    free(absolute);
    return matched;
}

/* Whether a file's absolute path lies directly in .github/workflows. */
static bool named_in_workflows(const char *absolute)
{
    const char *slash = strrchr(absolute, '/');
    return slash != NULL && file_dir_is_workflows(absolute, (size_t)(slash - absolute));
}

/* Whether a devcontainer.json found at path (in operand) lies where the
 * devcontainer CLI looks for one (file_devcontainer_place): the
 * directories above it may be above the operand too. */
static bool devcontainer_in_place(const struct operand *operand, const char *path)
{
    char *absolute = path_join(operand->absolute, path);
    bool in_place = file_devcontainer_place(absolute);
    free(absolute);
    return in_place;
}

/* What a YAML file at path (below the operand, in frame) is a candidate
 * for besides its name: any YAML file by content, unless the kubernetes
 * setting narrows that to its globs or turns it off. */
static unsigned yaml_candidate(const struct discovery_walk *walk,
                               const struct operand *operand, const struct frame *frame,
                               const char *path)
{
    switch (walk->kubernetes_search) {
    case KUBERNETES_BY_CONTENT:
        return CANDIDATE_CONTENT;
    case KUBERNETES_UNDER_GLOBS:
        return frame->kubernetes || under_kubernetes(walk, operand, path, false)
                   ? CANDIDATE_KUBERNETES : 0;
    case KUBERNETES_OFF:
    default:
        return 0;
    }
}

/* The next entry of the top directory as an item, or NULL when the entry
 * leads to nothing to report. */
static struct discovered_file *visit_entry(struct discovery_walk *walk,
                                           struct operand *operand,
                                           enum item_kind *kind)
{
    struct frame *frame = &operand->frames[operand->depth - 1];
    const struct entry *entry = &frame->entries[frame->next++];
    size_t parent_length = frame->relative_length;
    int parent_fd = frame->fd;
    const char *path = child_path(operand, entry->name);
    *kind = ITEM_FILE;
    bool is_directory = entry->type == DT_DIR;
    unsigned candidates = 0;
    if (!is_directory) {
        candidates = file_name_candidates(entry->name);
        if (frame->workflows && file_name_is_yaml(entry->name))
            candidates |= CANDIDATE_GITHUB_ACTIONS;
        if ((candidates & CANDIDATE_DEVCONTAINER) != 0 &&
            !devcontainer_in_place(operand, path))
            candidates &= ~(unsigned)(CANDIDATE_DEVCONTAINER | CANDIDATE_JSON);
        if (file_name_is_yaml(entry->name))
            candidates |= yaml_candidate(walk, operand, frame, path);
        if (candidates == 0)
            return NULL;
        if ((candidates & CANDIDATE_COMPOSE) != 0 && frame->holds_env)
            candidates |= CANDIDATE_PROJECT_ENV;
        if (frame->helm_templates &&
            (candidates & ~(unsigned)(CANDIDATE_CONTENT | CANDIDATE_KUBERNETES)) == 0) {
            /* Template text, not YAML until Helm renders it (SPEC §17):
             * counted, never read. */
            walk->helm_templates++;
            return NULL;
        }
    }
    bool excluded = false;
    if (walk->exclude != NULL && walk->exclude->count > 0) {
        char *absolute = path_join(operand->absolute, path);
        excluded = is_excluded(walk, absolute, is_directory);
        free(absolute);
    }
    if (excluded && !is_directory && candidates == CANDIDATE_CONTENT)
        return NULL;    /* any YAML file: not counted as an excluded sandbox */
    if (excluded) {
        *kind = is_directory ? ITEM_EXCLUDED_DIRECTORY : ITEM_EXCLUDED_FILE;
        return make_file(walk, operand, path, NULL, NULL, NULL);
    }
    if (is_directory) {
        if (operand->depth >= MAX_DIRECTORY_DEPTH)
            return make_file(walk, operand, path, NULL, NULL,
                             xasprintf("directories nested deeper than %d levels; "
                                       "not searched", MAX_DIRECTORY_DEPTH));
        bool kubernetes = frame->kubernetes || under_kubernetes(walk, operand, path, true);
        bool helm_templates = frame->helm_templates ||
                              (frame->holds_chart && strcmp(entry->name, "templates") == 0);
        size_t length = strlen(path);
        if (push_directory(walk, operand, parent_fd, entry->name, length) != 0) {
            int error = errno;
            operand->relative_length = parent_length;
            return directory_problem(walk, operand, path, "cannot read directory",
                                     error);
        }
        operand->frames[operand->depth - 1].kubernetes = kubernetes;
        operand->frames[operand->depth - 1].helm_templates = helm_templates;
        return NULL;
    }
    struct discovered_file *file;
    struct stat info;
    if (entry->type == DT_REG && !walk->want_identity)
        /* The directory entry says what it is; source_read_at() checks it
         * again on the descriptor it reads. */
        file = make_file(walk, operand, path, path, NULL, NULL);
    else if (fstatat(parent_fd, entry->name, &info, AT_SYMLINK_NOFOLLOW) != 0)
        file = make_file(walk, operand, path, NULL, NULL,
                         xasprintf("cannot open file: %s", strerror(errno)));
    else if (S_ISREG(info.st_mode))
        file = make_file(walk, operand, path, path, &info, NULL);
    else if (S_ISLNK(info.st_mode))
        file = consider_symlink(walk, operand, path);
    else if (S_ISDIR(info.st_mode))
        file = NULL;            /* became a directory meanwhile: next time */
    else                        /* a FIFO, device or socket is never opened */
        file = make_file(walk, operand, path, NULL, &info,
                         source_kind_problem(info.st_mode));
    if (file != NULL)
        file->candidates = candidates;
    return file;
}

/* Gives up the rest of an operand whose directory frame index moved while
 * it was searched: what is left can no longer be reached safely. */
static struct discovered_file *operand_abandon(struct discovery_walk *walk,
                                               struct operand *operand, size_t index)
{
    char *path = xstrndup(operand->relative, operand->frames[index].relative_length);
    struct discovered_file *file = make_file(
        walk, operand, path, NULL, NULL,
        xstrdup("directory moved while it was being searched; the rest of this "
                "operand was not searched"));
    free(path);
    while (operand->depth > 0)
        frame_release(walk, &operand->frames[--operand->depth]);
    operand->finished = true;
    return file;
}

/* Whether a directory operand is a Helm chart's templates/ (its parent
 * holds Chart.yaml), whose files the walk counts and does not read. */
static bool is_chart_templates(const char *absolute)
{
    char *name = path_basename(absolute);
    bool templates = strcmp(name, "templates") == 0;
    free(name);
    if (!templates)
        return false;
    char *chart = path_join(absolute, "../Chart.yaml");
    struct stat info;
    bool found = stat(chart, &info) == 0 && S_ISREG(info.st_mode);
    free(chart);
    return found;
}

/* The operand's next item in its own order, or NULL when it has no more. */
static struct discovered_file *operand_next(struct discovery_walk *walk,
                                            struct operand *operand,
                                            enum item_kind *kind)
{
    *kind = ITEM_FILE;
    if (operand->finished)
        return NULL;
    if (!operand->started) {
        operand->started = true;
        unsigned as_found = 0;
        if (walk->named_as_found && !operand->is_directory) {
            /* What a search would make of the file (visit_entry), a named
             * YAML file being under a kubernetes glob by being named. */
            char *name = path_basename(operand->absolute);
            as_found = file_name_candidates(name);
            if (file_name_is_yaml(name) && walk->kubernetes_search == KUBERNETES_BY_CONTENT)
                as_found |= CANDIDATE_CONTENT;
            else if (file_name_is_yaml(name) && walk->kubernetes_search != KUBERNETES_OFF)
                as_found |= CANDIDATE_KUBERNETES;
            if ((as_found & CANDIDATE_DEVCONTAINER) != 0 &&
                !file_devcontainer_place(operand->absolute))
                as_found &= ~(unsigned)(CANDIDATE_DEVCONTAINER | CANDIDATE_JSON);
            free(name);
            if (as_found == 0) {
                /* No kind a search knows: skipped silently, not counted. */
                operand->finished = true;
                return NULL;
            }
        }
        if (operand->excluded) {
            operand->finished = true;
            *kind = operand->is_directory ? ITEM_EXCLUDED_DIRECTORY : ITEM_EXCLUDED_FILE;
            return make_file(walk, operand, "", NULL, NULL, NULL);
        }
        if (operand->problem != NULL) {
            operand->finished = true;
            struct discovered_file *file =
                make_file(walk, operand, "", NULL, &operand->info, operand->problem);
            operand->problem = NULL;
            return file;
        }
        if (!operand->is_directory) {
            operand->finished = true;
            struct discovered_file *file =
                make_file(walk, operand, "", operand->name, &operand->info, NULL);
            char *name = path_basename(operand->absolute);
            file->candidates = as_found != 0 ? as_found
                                             : CANDIDATE_NAMED | file_name_candidates(name);
            if (file_name_is_yaml(name) && named_in_workflows(operand->absolute))
                file->candidates |= CANDIDATE_GITHUB_ACTIONS;
            free(name);
            return file;
        }
        if (push_directory(walk, operand, -1, NULL, 0) != 0) {
            operand->finished = true;
            return directory_problem(walk, operand, "", "cannot read directory", errno);
        }
        operand->frames[0].kubernetes =
            walk->kubernetes_search == KUBERNETES_UNDER_GLOBS &&
            globs_match_within(walk, walk->kubernetes, operand->absolute, true);
        operand->frames[0].helm_templates = is_chart_templates(operand->absolute);
    }
    while (operand->depth > 0) {
        size_t top = operand->depth - 1;
        struct frame *frame = &operand->frames[top];
        if (frame->next == frame->count) {
            if (pop_directory(walk, operand) != 0)
                return operand_abandon(walk, operand, operand->depth - 1);
            continue;
        }
        /* Its descriptor went to the operands that ran meanwhile. */
        if (frame->fd < 0 && frame_reopen(walk, operand, top) != 0)
            return operand_abandon(walk, operand, top);
        struct discovered_file *file = visit_entry(walk, operand, kind);
        if (file != NULL)
            return file;
    }
    operand->finished = true;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* all operands, merged                                                */
/* ------------------------------------------------------------------ */

/* Descriptors left for everything but the bases: the walk's directories,
 * the report, workers' pipes, plugins. */
#define SPARE_DESCRIPTORS (OPEN_FRAMES_IN_WALK + 128)

/* Raises the soft limit on descriptors when many operands need theirs, and
 * returns how many bases fit under it. */
static size_t reserve_descriptors(size_t count)
{
    struct rlimit limit;
    rlim_t wanted = (rlim_t)count + SPARE_DESCRIPTORS;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return count;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        limit.rlim_cur = limit.rlim_max == RLIM_INFINITY || limit.rlim_max > wanted
                             ? wanted : limit.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &limit);
        (void)getrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= wanted)
        return count;
    return limit.rlim_cur > SPARE_DESCRIPTORS ? (size_t)(limit.rlim_cur - SPARE_DESCRIPTORS)
                                              : 1;
}

/* The base already open for the directory info describes, or -1. */
static int known_base(const struct discovery_walk *walk, const struct stat *info)
{
    for (size_t i = 0; i < walk->base_count; i++)
        if (walk->bases[i].device == info->st_dev && walk->bases[i].inode == info->st_ino)
            return walk->bases[i].fd;
    return -1;
}

/* Opens path as a base directory, sharing one descriptor among operands
 * with the same directory.  Returns the descriptor or -1 (errno set). */
static int open_base(struct discovery_walk *walk, const char *path)
{
    int fd = open(path, BASE_FLAGS);
    struct stat info;
    if (fd < 0)
        return -1;
    if (fstat(fd, &info) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    int known = known_base(walk, &info);
    if (known >= 0) {
        close(fd);
        return known;
    }
    walk->bases[walk->base_count].fd = fd;
    walk->bases[walk->base_count].device = info.st_dev;
    walk->bases[walk->base_count].inode = info.st_ino;
    walk->base_count++;
    return fd;
}

/* A file operand's base and name: its real parent directory and name, or,
 * past MAX_FILE_BASES directories, the root and its real path. */
static void file_operand_base(struct discovery_walk *walk, struct operand *operand,
                              const char *real)
{
    char *parent = path_dirname(real);
    struct stat info;
    int fd = stat(parent, &info) == 0 ? known_base(walk, &info) : -1;
    if (fd < 0 && walk->file_bases < MAX_FILE_BASES && walk->base_count < walk->max_bases) {
        fd = open_base(walk, parent);
        walk->file_bases += fd >= 0;
    }
    if (fd >= 0) {
        operand->base_fd = fd;
        operand->name = path_basename(real);
    } else if (strcmp(real, "/") != 0) {
        if (walk->root_fd < 0)
            walk->root_fd = open_base(walk, "/");
        operand->base_fd = walk->root_fd;
        operand->name = xstrdup(real + 1);
    }
    if (operand->base_fd < 0)
        operand->problem = xasprintf("cannot open file: %s", strerror(errno));
    free(parent);
}

/* Opens one operand (already known to exist, with info from stat). */
static void operand_open(struct discovery_walk *walk, struct operand *operand,
                         const char *given, const struct stat *info)
{
    operand->path = xstrdup(given);
    operand->absolute = path_absolute(given);
    operand->base_fd = -1;
    operand->info = *info;
    operand->is_directory = S_ISDIR(info->st_mode);
    if (operand_excluded(walk, operand->absolute, operand->is_directory)) {
        operand->excluded = true;
        return;
    }
    if (operand->is_directory) {
        /* Named by the user: followed even when it is a symbolic link. */
        operand->base_fd = walk->base_count < walk->max_bases ? open_base(walk, given) : -1;
        if (operand->base_fd < 0 && walk->base_count >= walk->max_bases)
            operand->problem = xasprintf("cannot read directory: more directory "
                                         "operands than the limit on open files "
                                         "allows (%zu; see ulimit -n)", walk->max_bases);
        else if (operand->base_fd < 0)
            operand->problem = xasprintf("cannot read directory: %s", strerror(errno));
        operand->real = realpath(given, NULL);
        return;
    }
    if (!S_ISREG(info->st_mode)) {
        /* A FIFO or device named directly: reported, never opened. */
        operand->problem = source_kind_problem(info->st_mode);
        return;
    }
    /* A file operand is read from its (real) parent directory. */
    char *real = realpath(given, NULL);
    if (real == NULL) {
        operand->problem = xasprintf("cannot open file: %s", strerror(errno));
        return;
    }
    file_operand_base(walk, operand, real);
    free(real);
}

struct discovery_walk *discovery_open(const char *const *operands, size_t count,
                                      const char *root,
                                      const struct string_list *exclude,
                                      char **error)
{
    *error = NULL;
    struct discovery_walk *walk = xcalloc(1, sizeof(*walk));
    walk->root = root;
    walk->exclude = exclude;
    walk->operands = xcalloc(count ? count : 1, sizeof(*walk->operands));
    walk->bases = xcalloc(count + 1, sizeof(*walk->bases));
    walk->root_fd = -1;
    walk->max_bases = reserve_descriptors(count);
    for (size_t i = 0; i < count; i++) {
        struct stat info;
        if (stat(operands[i], &info) != 0) {
            *error = xasprintf("%s: %s", operands[i], strerror(errno));
            discovery_close(walk);
            return NULL;
        }
        operand_open(walk, &walk->operands[i], operands[i], &info);
        walk->count = i + 1;
    }
    return walk;
}

/* Of two operands that reach the same file, which one's view to keep, so
 * that the order of the operands never matters: a file that one operand's
 * tree lets us read (a link that resolves inside it) beats a problem
 * (the same link leaving a narrower operand's tree); then the outermost
 * operand. */
static bool preferred(const struct operand *candidate, const struct operand *best)
{
    bool candidate_readable = candidate->head_kind != ITEM_FILE ||
                              candidate->head->problem == NULL;
    bool best_readable = best->head_kind != ITEM_FILE || best->head->problem == NULL;
    if (candidate_readable != best_readable)
        return candidate_readable;
    return strlen(candidate->absolute) < strlen(best->absolute);
}

struct discovered_file *discovery_next(struct discovery_walk *walk)
{
    for (;;) {
        /* Each operand yields in order: take the smallest head. */
        struct operand *best = NULL;
        for (size_t i = 0; i < walk->count; i++) {
            struct operand *operand = &walk->operands[i];
            if (operand->head == NULL)
                operand->head = operand_next(walk, operand, &operand->head_kind);
            if (operand->head == NULL)
                continue;
            int order = best == NULL ? -1
                        : discover_compare(operand->head->display, best->head->display);
            if (order < 0 || (order == 0 && preferred(operand, best)))
                best = operand;
        }
        if (best == NULL)
            return NULL;
        struct discovered_file *file = best->head;
        enum item_kind kind = best->head_kind;
        best->head = NULL;
        /* Overlapping operands name some files twice: keep one. */
        if (walk->last != NULL && strcmp(walk->last, file->display) == 0) {
            discovered_file_free(file);
            continue;
        }
        free(walk->last);
        walk->last = xstrdup(file->display);
        if (kind != ITEM_FILE) {
            if (kind == ITEM_EXCLUDED_FILE)
                walk->excluded++;
            else
                walk->excluded_directories++;
            discovered_file_free(file);
            continue;
        }
        walk->yielded++;
        return file;
    }
}

void discovery_set_kubernetes(struct discovery_walk *walk,
                              const struct string_list *globs)
{
    walk->kubernetes = globs;
    if (globs == NULL || globs->count == 0)
        walk->kubernetes_search = KUBERNETES_BY_CONTENT;
    else if (globs->count == 1 && strcmp(globs->items[0], "none") == 0)
        walk->kubernetes_search = KUBERNETES_OFF;
    else
        walk->kubernetes_search = KUBERNETES_UNDER_GLOBS;
}

void discovery_want_identity(struct discovery_walk *walk)
{
    walk->want_identity = true;
}

void discovery_name_files_as_found(struct discovery_walk *walk)
{
    walk->named_as_found = true;
}

size_t discovery_count(const struct discovery_walk *walk)
{
    return walk->yielded;
}

size_t discovery_helm_templates(const struct discovery_walk *walk)
{
    return walk->helm_templates;
}

size_t discovery_excluded(const struct discovery_walk *walk)
{
    return walk->excluded;
}

size_t discovery_excluded_directories(const struct discovery_walk *walk)
{
    return walk->excluded_directories;
}

/* Whether a path below a directory operand (relative to it) crosses a
 * directory the walk never enters. */
static bool crosses_skipped_directory(const char *relative)
{
    for (const char *at = relative; *at != '\0';) {
        const char *end = strchr(at, '/');
        if (end == NULL)
            return false;   /* the last component is the file */
        if ((size_t)(end - at) == 4 && memcmp(at, ".git", 4) == 0)
            return true;
        at = end + 1;
    }
    return false;
}

enum walk_place discovery_place(const struct discovery_walk *walk, const char *real,
                                struct discovered_file **file)
{
    *file = NULL;
    for (size_t i = 0; i < walk->count; i++) {
        const struct operand *operand = &walk->operands[i];
        if (!operand->is_directory || operand->real == NULL || operand->base_fd < 0 ||
            !path_is_within(operand->real, real) || strcmp(operand->real, real) == 0)
            continue;
        const char *relative = real + strlen(operand->real);
        while (*relative == '/')
            relative++;
        /* Globs see the path as the operand spells it, as the walk does. */
        char *lexical = path_join(operand->absolute, relative);
        bool excluded = operand_excluded(walk, lexical, false);
        char *name = path_basename(real);
        bool found = discover_is_compose_name(name) && !crosses_skipped_directory(relative);
        free(name);
        if (excluded) {
            free(lexical);
            return WALK_EXCLUDED;
        }
        struct discovered_file *extra = xcalloc(1, sizeof(*extra));
        extra->path = xstrdup(real);
        extra->absolute = lexical;
        extra->display = path_relative(walk->root, lexical);
        extra->base_fd = operand->base_fd;
        extra->relative = xstrdup(relative);
        extra->candidates = CANDIDATE_COMPOSE;
        struct stat info;
        if (stat(real, &info) == 0) {
            extra->device = info.st_dev;
            extra->inode = info.st_ino;
        }
        *file = extra;
        return found ? WALK_FOUND : WALK_EXTRA;
    }
    return WALK_OUTSIDE;
}

bool discovery_locate_directory(const struct discovery_walk *walk, const char *real,
                                int base_fd, char **relative, char **display)
{
    for (size_t i = 0; i < walk->count; i++) {
        const struct operand *operand = &walk->operands[i];
        if (!operand->is_directory || operand->real == NULL || operand->base_fd < 0 ||
            operand->base_fd != base_fd || !path_is_within(operand->real, real))
            continue;
        const char *below = real + strlen(operand->real);
        while (*below == '/')
            below++;
        char *lexical = below[0] == '\0' ? xstrdup(operand->absolute)
                                          : path_join(operand->absolute, below);
        *relative = xstrdup(below);
        *display = path_relative(walk->root, lexical);
        free(lexical);
        return true;
    }
    return false;
}

void discovery_close(struct discovery_walk *walk)
{
    if (walk == NULL)
        return;
    for (size_t i = 0; i < walk->count; i++) {
        struct operand *operand = &walk->operands[i];
        for (size_t d = 0; d < operand->depth; d++)
            frame_release(walk, &operand->frames[d]);
        free(operand->frames);
        discovered_file_free(operand->head);
        free(operand->path);
        free(operand->absolute);
        free(operand->real);
        free(operand->name);
        free(operand->problem);
        free(operand->relative);
    }
    for (size_t i = 0; i < walk->base_count; i++)
        close(walk->bases[i].fd);
    source_forget_directories();    /* it may hold directories below them */
    free(walk->bases);
    free(walk->operands);
    free(walk->last);
    free(walk);
}
