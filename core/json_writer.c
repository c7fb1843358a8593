/* json_writer.c - JSON text for any bytes (see json_writer.h). */
#include "config.h"

#include "json_writer.h"

#include <stdint.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p, or 0. */
static size_t utf8_length(const unsigned char *p, size_t available)
{
    unsigned char c = p[0];
    size_t length;
    uint32_t code;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
        code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        code = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        code = c & 0x07;
    } else {
        return 0;
    }
    if (available < length)
        return 0;
    for (size_t i = 1; i < length; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (p[i] & 0x3F);
    }
    if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000) ||
        (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
        return 0;
    return length;
}

void json_write_string(FILE *out, const char *text, size_t length)
{
    if (text == NULL) {
        fputs("null", out);
        return;
    }
    const unsigned char *p = (const unsigned char *)text;
    putc('"', out);
    size_t i = 0;
    while (i < length) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
            i++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", out); break;
            case '\r': fputs("\\r", out); break;
            case '\t': fputs("\\t", out); break;
            case '\b': fputs("\\b", out); break;
            case '\f': fputs("\\f", out); break;
            default: fprintf(out, "\\u%04x", c); break;
            }
            i++;
        } else if (c < 0x80) {
            putc(c, out);
            i++;
        } else {
            size_t step = utf8_length(p + i, length - i);
            if (step == 0) {
                fputs("\\ufffd", out);
                i++;
            } else {
                fwrite(p + i, 1, step, out);
                i += step;
            }
        }
    }
    putc('"', out);
}

void json_write_cstring(FILE *out, const char *text)
{
    json_write_string(out, text, text ? strlen(text) : 0);
}

void json_write_unsigned(FILE *out, unsigned long long value, int zero_is_null)
{
    if (value == 0 && zero_is_null)
        fputs("null", out);
    else
        fprintf(out, "%llu", value);
}
