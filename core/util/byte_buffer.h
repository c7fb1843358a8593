/*
 * byte_buffer.h - a growable array of bytes: the one buffer the worker
 * protocol uses for tasks, results and the bytes read from pipes.
 */
#ifndef SANDLINT_BYTE_BUFFER_H
#define SANDLINT_BYTE_BUFFER_H

#include <stddef.h>

struct byte_buffer {
    unsigned char *data;        /* malloc-owned; NULL while empty */
    size_t length, capacity;
};

#define BYTE_BUFFER_INIT { NULL, 0, 0 }

void byte_buffer_release(struct byte_buffer *buffer);
/* Makes room for at least extra more bytes after length. */
void byte_buffer_reserve(struct byte_buffer *buffer, size_t extra);
void byte_buffer_append(struct byte_buffer *buffer, const void *data,
                        size_t length);
/* Drops the first count bytes (count <= length). */
void byte_buffer_consume(struct byte_buffer *buffer, size_t count);

#endif
