/* byte_buffer.c - a growable array of bytes (see byte_buffer.h). */
#include "config.h"

#include "byte_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void byte_buffer_release(struct byte_buffer *buffer)
{
    free(buffer->data);
    memset(buffer, 0, sizeof(*buffer));
}

void byte_buffer_reserve(struct byte_buffer *buffer, size_t extra)
{
    if (buffer->capacity - buffer->length >= extra)
        return;
    size_t capacity = buffer->capacity ? buffer->capacity : 256;
    while (capacity - buffer->length < extra)
        capacity *= 2;
    buffer->data = xrealloc(buffer->data, capacity, 1);
    buffer->capacity = capacity;
}

void byte_buffer_append(struct byte_buffer *buffer, const void *data,
                        size_t length)
{
    if (length == 0)
        return;
    byte_buffer_reserve(buffer, length);
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
}

void byte_buffer_consume(struct byte_buffer *buffer, size_t count)
{
    if (count == 0)
        return;
    if (count < buffer->length)
        memmove(buffer->data, buffer->data + count, buffer->length - count);
    buffer->length -= count;
}
