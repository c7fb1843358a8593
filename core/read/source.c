/* source.c - read a Compose file safely and check its encoding. */
#include "config.h"

#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "utf8.h"
#include "xalloc.h"

static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

char *source_kind_problem(mode_t mode)
{
    return xasprintf("%s, not a regular file; not read", file_kind(mode));
}

static char *size_error(size_t max_size)
{
    return xasprintf("file is larger than the size limit of %zu bytes "
                     "(--max-file-size); not checked", max_size);
}

/* Reads what fd (opened O_NONBLOCK) holds when it is a regular file, and
 * closes it. */
static int read_descriptor(int fd, size_t max_size, struct source_text *out,
                           char **error)
{
    struct stat info;
    if (fstat(fd, &info) != 0) {
        *error = xasprintf("cannot stat file: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(info.st_mode)) {
        *error = source_kind_problem(info.st_mode);
        close(fd);
        return -1;
    }
    if (max_size != 0 && (uintmax_t)info.st_size > max_size) {
        *error = size_error(max_size);
        close(fd);
        return -1;
    }
    /* Reads a regular file until a read returns less than asked once all
     * fstat() counted is in (a file that grew is read on to its end), or
     * until a read returns nothing.  O_NONBLOCK stays set: Linux ignores it
     * for regular files, and on a file system that does not (EAGAIN) it is
     * cleared and the read tried again - two calls saved per file. */
    size_t expected = (size_t)info.st_size;
    size_t capacity = (size_t)info.st_size + 1;
    char *data = xmalloc(capacity + 1);
    size_t length = 0;
    for (;;) {
        if (length == capacity) {
            /* The file grew after fstat. */
            if (max_size != 0 && length > max_size) {
                free(data);
                close(fd);
                *error = size_error(max_size);
                return -1;
            }
            capacity *= 2;
            data = xrealloc(data, capacity + 1, 1);
        }
        size_t asked = capacity - length;
        ssize_t got = read(fd, data + length, asked);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {     /* EWOULDBLOCK on Linux */
                int flags = fcntl(fd, F_GETFL);
                if (flags >= 0 && (flags & O_NONBLOCK) &&
                    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
                    continue;
                errno = EAGAIN;
            }
            *error = xasprintf("cannot read file: %s", strerror(errno));
            free(data);
            close(fd);
            return -1;
        }
        if (got == 0)
            break;
        length += (size_t)got;
        if ((size_t)got < asked && length >= expected)
            break;
    }
    close(fd);
    if (max_size != 0 && length > max_size) {
        free(data);
        *error = size_error(max_size);
        return -1;
    }
    data[length] = '\0';
    out->data = data;
    out->length = length;
    return 0;
}

/* O_NONBLOCK: opening a FIFO for reading must not wait for a writer;
 * O_NOCTTY: a terminal must not become ours. */
#define FILE_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* Directories on the way are only passed through: O_PATH needs no read
 * permission (nor Landlock's READ_DIR right). */
#ifdef O_PATH
#define PASS_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define PASS_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

int source_read(const char *path, size_t max_size, struct source_text *out,
                char **error)
{
    out->data = NULL;
    out->length = 0;
    *error = NULL;
    int fd = open(path, FILE_FLAGS);
    if (fd < 0) {
        *error = xasprintf("cannot open file: %s", strerror(errno));
        return -1;
    }
    return read_descriptor(fd, max_size, out, error);
}

/* Whether relative is a plain relative path: components separated by one
 * '/', none empty, "." or "..". */
static bool plain_relative(const char *relative)
{
    const char *name = relative;
    for (;;) {
        const char *slash = strchr(name, '/');
        size_t length = slash ? (size_t)(slash - name) : strlen(name);
        if (length == 0 || (length == 1 && name[0] == '.') ||
            (length == 2 && name[0] == '.' && name[1] == '.'))
            return false;
        if (slash == NULL)
            return true;
        name = slash + 1;
    }
}

/*
 * The directories of the last path read, kept open: files come in sorted
 * order, so the next file usually lies in the same directories, and
 * opening every component again would cost several system calls per file.
 * Each was opened below the base with O_NOFOLLOW, like any other.  The
 * base is known by its device and inode too, because a descriptor number
 * can be reused for another directory.
 */
#define CACHED_LEVELS 16

static struct {
    int base_fd;
    dev_t device;
    ino_t inode;
    size_t depth;
    char *names[CACHED_LEVELS];
    int fds[CACHED_LEVELS];
} cache = { .base_fd = -1 };

/* Forgets the cached directories from depth on. */
static void cache_trim(size_t depth)
{
    while (cache.depth > depth) {
        cache.depth--;
        close(cache.fds[cache.depth]);
        free(cache.names[cache.depth]);
    }
}

void source_forget_directories(void)
{
    cache_trim(0);
    cache.base_fd = -1;
}

/* The error of a failed openat of a directory on the way or of the file. */
static int open_failed(int error_number, bool directory, char **error)
{
    /* O_NOFOLLOW fails with ELOOP on a symbolic link, O_DIRECTORY with
     * ENOTDIR on anything but a directory (links included). */
    if (error_number == ELOOP && !directory)
        *error = xstrdup("cannot open file: it is a symbolic link now (not followed)");
    else if ((error_number == ENOTDIR || error_number == ELOOP) && directory)
        *error = xstrdup("cannot open file: a directory on its path is not a "
                         "directory now (symbolic links are not followed)");
    else
        *error = xasprintf("cannot open file: %s", strerror(error_number));
    return -1;
}

int source_read_at(int dir_fd, const char *relative, size_t max_size,
                   struct source_text *out, char **error)
{
    out->data = NULL;
    out->length = 0;
    *error = NULL;
    if (!plain_relative(relative)) {
        *error = xasprintf("cannot open file: its path '%s' is not a plain "
                           "relative path", relative);
        return -1;
    }
    struct stat base;
    if (fstat(dir_fd, &base) != 0)
        return open_failed(errno, true, error);
    if (cache.base_fd != dir_fd || cache.device != base.st_dev ||
        cache.inode != base.st_ino) {
        source_forget_directories();
        cache.base_fd = dir_fd;
        cache.device = base.st_dev;
        cache.inode = base.st_ino;
    }
    int at = dir_fd;            /* the directory reached so far */
    bool owned = false;         /* at is this call's to close (not cached) */
    size_t level = 0;           /* directories passed */
    const char *name = relative;
    const char *slash;
    while ((slash = strchr(name, '/')) != NULL) {
        size_t length = (size_t)(slash - name);
        if (!owned && level < cache.depth && strlen(cache.names[level]) == length &&
            memcmp(cache.names[level], name, length) == 0) {
            at = cache.fds[level++];
            name = slash + 1;
            continue;
        }
        char *component = xstrndup(name, length);
        int fd = openat(at, component, PASS_FLAGS);
        int saved = errno;
        if (owned)
            close(at);
        if (fd < 0) {
            free(component);
            return open_failed(saved, true, error);
        }
        if (!owned && level < CACHED_LEVELS) {
            cache_trim(level);  /* the old path parts from here on */
            cache.names[level] = component;
            cache.fds[level] = fd;
            cache.depth = ++level;
        } else {
            free(component);
            owned = true;
        }
        at = fd;
        name = slash + 1;
    }
    int fd = openat(at, name, FILE_FLAGS | O_NOFOLLOW);
    int saved = errno;
    if (owned)
        close(at);
    if (fd < 0)
        return open_failed(saved, false, error);
    return read_descriptor(fd, max_size, out, error);
}

void source_release(struct source_text *text)
{
    free(text->data);
    text->data = NULL;
    text->length = 0;
}

size_t source_step(const char *data, size_t length, size_t at,
                   unsigned *line, unsigned *column)
{
    const unsigned char *p = (const unsigned char *)data;
    unsigned char c = p[at];
    if (c == '\r' && at + 1 < length && p[at + 1] == '\n') {
        (*line)++;
        *column = 1;
        return at + 2;
    }
    if (c == '\r' || c == '\n') {
        (*line)++;
        *column = 1;
        return at + 1;
    }
    size_t step = utf8_decode(p + at, length - at, NULL);
    if (step == 0)
        step = 1;
    /* YAML 1.1 breaks, as libyaml counts them: NEL, LS, PS. */
    if ((step == 2 && c == 0xC2 && p[at + 1] == 0x85) ||
        (step == 3 && c == 0xE2 && p[at + 1] == 0x80 &&
         (p[at + 2] == 0xA8 || p[at + 2] == 0xA9))) {
        (*line)++;
        *column = 1;
        return at + step;
    }
    (*column)++;
    return at + step;
}

/* Whether data is free of NUL bytes and valid UTF-8, without counting
 * lines: the common answer, found at memory speed. */
static bool encoding_is_valid(const unsigned char *p, size_t length)
{
    if (memchr(p, 0, length) != NULL)
        return false;
    size_t i = 0;
    while (i < length) {
        /* Eight ASCII bytes at a time. */
        if (length - i >= 8) {
            uint64_t word;
            memcpy(&word, p + i, sizeof(word));
            if ((word & UINT64_C(0x8080808080808080)) == 0) {
                i += 8;
                continue;
            }
        }
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t step = utf8_decode(p + i, length - i, NULL);
        if (step == 0)
            return false;
        i += step;
    }
    return true;
}

int source_check_encoding(const char *data, size_t length, unsigned *line,
                          unsigned *column, const char **problem)
{
    const unsigned char *p = (const unsigned char *)data;
    if (encoding_is_valid(p, length))
        return 0;
    /* Find where, counting lines as the YAML parser does. */
    unsigned current_line = 1, current_column = 1;
    size_t i = 0;
    while (i < length) {
        if (p[i] == 0) {
            *line = current_line;
            *column = current_column;
            *problem = "file contains a NUL byte";
            return -1;
        }
        if (p[i] >= 0x80 && utf8_decode(p + i, length - i, NULL) == 0) {
            *line = current_line;
            *column = current_column;
            *problem = "file is not valid UTF-8";
            return -1;
        }
        i = source_step(data, length, i, &current_line, &current_column);
    }
    return 0;
}

int source_utf16_to_utf8(struct source_text *text, unsigned *line,
                         unsigned *column, const char **problem)
{
    const unsigned char *p = (const unsigned char *)text->data;
    size_t length = text->length;
    if (length < 2 || !((p[0] == 0xFF && p[1] == 0xFE) ||
                        (p[0] == 0xFE && p[1] == 0xFF)))
        return 0;
    int little = p[0] == 0xFF;
    /* Every UTF-16 unit becomes at most 3 UTF-8 bytes (a surrogate pair, 2
     * units, becomes 4). */
    char *out = xmalloc((length / 2) * 3 + 1);
    size_t used = 0;
    unsigned current_line = 1, current_column = 1;
    uint32_t previous = 0;
    const char *failure = NULL;
    size_t i = 2;
    for (; i + 1 < length; i += 2) {
        uint32_t unit = little ? (uint32_t)(p[i] | p[i + 1] << 8)
                               : (uint32_t)(p[i] << 8 | p[i + 1]);
        uint32_t code = unit;
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            if (i + 3 >= length) {
                failure = "file is not valid UTF-16";
                break;
            }
            uint32_t low = little ? (uint32_t)(p[i + 2] | p[i + 3] << 8)
                                  : (uint32_t)(p[i + 2] << 8 | p[i + 3]);
            if (low < 0xDC00 || low > 0xDFFF) {
                failure = "file is not valid UTF-16";
                break;
            }
            code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            i += 2;
        } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
            failure = "file is not valid UTF-16";
            break;
        } else if (unit == 0) {
            failure = "file contains a NUL character";
            break;
        }
        used += utf8_encode(code, (unsigned char *)out + used);
        /* Track the position of the next character for error messages. */
        if (code == '\n' && previous == '\r') {
            /* CR LF is one break */
        } else if (code == '\n' || code == '\r' || code == 0x85 ||
                   code == 0x2028 || code == 0x2029) {
            current_line++;
            current_column = 1;
        } else {
            current_column++;
        }
        previous = code;
    }
    if (failure == NULL && i < length)
        failure = "file is not valid UTF-16 (odd number of bytes)";
    if (failure != NULL) {
        free(out);
        *line = current_line;
        *column = current_column;
        *problem = failure;
        return -1;
    }
    out[used] = '\0';
    free(text->data);
    text->data = out;
    text->length = used;
    return 0;
}
