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
 * Checks that text is UTF-8 without NUL bytes (a UTF-16 byte order mark
 * leaves the check to libyaml).  Returns 0, or -1 with the 1-based line and
 * column (in code points) of the first problem and a static description.
 */
int source_check_encoding(const char *data, size_t length, unsigned *line,
                          unsigned *column, const char **problem);

#endif
