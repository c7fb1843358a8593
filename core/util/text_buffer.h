/*
 * text_buffer.h - a growing, NUL-terminated string that may hold any byte:
 * the one builder of text in the core (messages, hints, edited files).
 */
#ifndef SANDLINT_TEXT_BUFFER_H
#define SANDLINT_TEXT_BUFFER_H

#include <stddef.h>

struct text_buffer {
    char *bytes;                /* malloc-owned, NUL-terminated once used;
                                   NULL while empty */
    size_t length, capacity;
};

#define TEXT_BUFFER_INIT { NULL, 0, 0 }

/* Appends length bytes (any bytes). */
void text_buffer_add(struct text_buffer *buffer, const char *bytes, size_t length);
/* Appends a NUL-terminated string. */
void text_buffer_add_string(struct text_buffer *buffer, const char *text);
/* The text, which the caller then owns ("" when nothing was added); the
 * buffer is empty afterwards. */
char *text_buffer_take(struct text_buffer *buffer, size_t *length);
void text_buffer_release(struct text_buffer *buffer);

#endif
