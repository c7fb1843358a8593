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
    return utf8_is_hidden_control(code);
}

/* Whether the bytes at p start "##[", the GitHub Actions runner's older
 * command syntax, which it obeys anywhere in a line of the log. */
static bool starts_old_command(const unsigned char *p, size_t available)
{
    return available >= 3 && p[0] == '#' && p[1] == '#' && p[2] == '[';
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
        if (step != 0 && !is_control(code) && !starts_old_command(bytes + at, length - at)) {
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

/* Whether a line that starts with text would start with "::" after its
 * leading blanks: the runner's workflow command syntax. */
static size_t command_start(const char *text, size_t length)
{
    size_t at = 0;
    while (at < length && (text[at] == ' ' || text[at] == '\t'))
        at++;
    return at + 1 < length && text[at] == ':' && text[at + 1] == ':' ? at : length;
}

void terminal_write_line_start(FILE *out, const char *text, size_t length, const char *guard)
{
    char *escaped = terminal_escape(text, length);
    size_t escaped_length = strlen(escaped);
    if (command_start(escaped, escaped_length) < escaped_length)
        fputs(guard, out);
    fwrite(escaped, 1, escaped_length, out);
    free(escaped);
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
    /* Escaped, the text is one line: the first ':' of a line that would
     * read as a workflow command is shown escaped. */
    char *escaped = terminal_escape(text, newline ? body - 1 : body);
    size_t escaped_length = strlen(escaped);
    size_t colon = command_start(escaped, escaped_length);
    fwrite(escaped, 1, colon < escaped_length ? colon : escaped_length, stderr);
    if (colon < escaped_length) {
        fputs("\\x3a", stderr);
        fwrite(escaped + colon + 1, 1, escaped_length - colon - 1, stderr);
    }
    if (newline)
        fputc('\n', stderr);
    free(escaped);
    free(text);
}
