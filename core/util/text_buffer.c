/* text_buffer.c - a growing string (see text_buffer.h). */
#include "config.h"

#include "text_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void text_buffer_add(struct text_buffer *buffer, const char *bytes, size_t length)
{
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 128;
        while (capacity < buffer->length + length + 1)
            capacity *= 2;
        buffer->bytes = xrealloc(buffer->bytes, capacity, 1);
        buffer->capacity = capacity;
    }
    if (length != 0)
        memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = '\0';
}

void text_buffer_add_string(struct text_buffer *buffer, const char *text)
{
    text_buffer_add(buffer, text, strlen(text));
}

char *text_buffer_take(struct text_buffer *buffer, size_t *length)
{
    char *bytes = buffer->bytes != NULL ? buffer->bytes : xstrdup("");
    if (length != NULL)
        *length = buffer->length;
    memset(buffer, 0, sizeof(*buffer));
    return bytes;
}

void text_buffer_release(struct text_buffer *buffer)
{
    free(buffer->bytes);
    memset(buffer, 0, sizeof(*buffer));
}
