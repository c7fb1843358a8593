/*
 * source.h - read a Compose file safely and check its encoding.
 *
 * Compose files come from trees an attacker may write, and may change
 * between discovery and reading: source_read_at opens them relative to a
 * directory descriptor of the walk, one component at a time, following no
 * symbolic link and opening no FIFO, device or socket.  Paths of any length
 * (beyond PATH_MAX) are fine.
 */
#ifndef SANDLINT_SOURCE_H
#define SANDLINT_SOURCE_H

#include <stddef.h>
#include <sys/types.h>

struct source_text {
    char *data;                 /* malloc-owned, NUL-terminated */
    size_t length;              /* bytes, excluding the terminator */
};

/*
 * Reads the file at relative below the directory dir_fd (borrowed; an
 * O_PATH descriptor is fine).  relative is '/'-separated, with no leading
 * '/', no "." or ".." component and no empty one.  Every directory on the
 * way is opened with O_NOFOLLOW|O_DIRECTORY and the file itself with
 * O_NOFOLLOW|O_NONBLOCK|O_NOCTTY: a symbolic link anywhere on the path is
 * refused, never followed, so the file read is the one below dir_fd
 * whatever was swapped since discovery.  The file must be regular (fstat
 * after opening: a FIFO is never waited on, a device or socket never read)
 * and at most max_size bytes (0 = no limit).  Returns 0, or -1 with *error
 * set to a malloc'd sentence (no path in it).
 */
int source_read_at(int dir_fd, const char *relative, size_t max_size,
                   struct source_text *out, char **error);

/*
 * source_read_at keeps the directories of the last path it read open (at
 * most 16 levels, owned by this module), since the next file usually lies
 * in the same ones.  This closes them (discovery_close calls it).
 */
void source_forget_directories(void);

/*
 * Reads a trusted path (a configuration file the user named or that was
 * found upward from the current directory): symbolic links are followed,
 * the other checks are those of source_read_at.
 */
int source_read(const char *path, size_t max_size, struct source_text *out,
                char **error);

/* "a FIFO, not a regular file; not read" and the like: why a file of this
 * mode is not read.  Malloc'd. */
char *source_kind_problem(mode_t mode);

void source_release(struct source_text *text);

/*
 * Checks that text is UTF-8 without NUL bytes.  Returns 0, or -1 with the
 * 1-based line and column (in code points) of the first problem and a
 * static description.
 */
int source_check_encoding(const char *data, size_t length, unsigned *line,
                          unsigned *column, const char **problem);

/*
 * Advances over the character (or CR LF pair) at byte offset at and returns
 * the next offset, counting lines and columns the way libyaml does: CR, LF,
 * CR LF, NEL, LS and PS end a line; columns count code points.
 */
size_t source_step(const char *data, size_t length, size_t at,
                   unsigned *line, unsigned *column);

/*
 * Converts a text that starts with a UTF-16 byte order mark to UTF-8 in
 * place (BOM dropped), so every later stage works on UTF-8.  Texts without
 * one are left alone.  Returns 0, or -1 with the position and description
 * of the first invalid unit.
 */
int source_utf16_to_utf8(struct source_text *text, unsigned *line,
                         unsigned *column, const char **problem);

#endif
