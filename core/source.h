/*
 * source.h - read a Compose file safely and check its encoding.
 */
#ifndef SANDLINT_SOURCE_H
#define SANDLINT_SOURCE_H

#include <stddef.h>

struct source_text {
    char *data;                 /* malloc-owned, NUL-terminated */
    size_t length;              /* bytes, excluding the terminator */
};

/*
 * Reads path without blocking: opened with O_NONBLOCK and refused unless
 * fstat says it is a regular file (FIFOs, devices and sockets are never
 * read), refused when larger than max_size bytes (0 = no limit).  Returns 0,
 * or -1 with *error set to a malloc'd sentence (no path in it).
 */
int source_read(const char *path, size_t max_size, struct source_text *out,
                char **error);

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
