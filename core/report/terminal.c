/* terminal.c - printing input bytes safely (see terminal.h). */
#include "config.h"

#include "terminal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text_buffer.h"
#include "utf8.h"
#include "xalloc.h"

/* Whether a code point changes what a terminal does or how it orders
 * text, rather than being shown. */
static bool is_control(uint32_t code)
{
    return code < 0x20 || code == 0x7f || (code >= 0x80 && code <= 0x9f) ||
           code == 0x061c || code == 0x200e || code == 0x200f ||
           (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/* Calls emit for each piece of the escaped form of text. */
static void escape(const char *text, size_t length,
                   void (*emit)(void *data, const char *piece, size_t length),
                   void *data)
{
    const unsigned char *bytes = (const unsigned char *)text;
    size_t at = 0, plain = 0;
    while (at < length) {
        uint32_t code;
        size_t step = utf8_decode(bytes + at, length - at, &code);
        if (step != 0 && !is_control(code)) {
            at += step;
            continue;
        }
        emit(data, text + plain, at - plain);
        char piece[16];
        if (step == 0)
            snprintf(piece, sizeof(piece), "\\x%02x", bytes[at]);
        else if (code < 0x80)
            snprintf(piece, sizeof(piece), "\\x%02x", (unsigned)code);
        else
            snprintf(piece, sizeof(piece), "\\u%04x", (unsigned)code);
        emit(data, piece, strlen(piece));
        at += step != 0 ? step : 1;
        plain = at;
    }
    emit(data, text + plain, at - plain);
}

static void emit_to_file(void *data, const char *piece, size_t length)
{
    if (length != 0)
        fwrite(piece, 1, length, data);
}

void terminal_write(FILE *out, const char *text, size_t length)
{
    escape(text, length, emit_to_file, out);
}

static void emit_to_string(void *data, const char *piece, size_t length)
{
    text_buffer_add(data, piece, length);
}

char *terminal_escape(const char *text, size_t length)
{
    struct text_buffer string = TEXT_BUFFER_INIT;
    escape(text, length, emit_to_string, &string);
    return text_buffer_take(&string, NULL);
}

void terminal_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (length < 0)
        return;
    char *text = xmalloc((size_t)length + 1);
    va_start(args, format);
    vsnprintf(text, (size_t)length + 1, format, args);
    va_end(args);
    size_t body = (size_t)length;
    bool newline = body > 0 && text[body - 1] == '\n';
    terminal_write(stderr, text, newline ? body - 1 : body);
    if (newline)
        fputc('\n', stderr);
    free(text);
}
