/* json_writer.c - JSON text for any bytes (see json_writer.h). */
#include "config.h"

#include "json_writer.h"

#include <string.h>

#include "utf8.h"

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
        /* A run of printable ASCII that needs no escape goes out in one
         * call: most of every message and hint. */
        size_t run = i;
        while (run < length && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' &&
               p[run] != '\\' && p[run] != '#')
            run++;
        if (run > i) {
            fwrite(p + i, 1, run - i, out);
            i = run;
            continue;
        }
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
        } else if (c == 0x7F) {
            fputs("\\u007f", out);
            i++;
        } else if (c == '#' && i + 2 < length && p[i + 1] == '#' && p[i + 2] == '[') {
            /* The same string, but no "##[" that the GitHub Actions runner
             * would obey when the report is printed to its log. */
            fputs("\\u0023", out);
            i++;
        } else if (c < 0x80) {
            putc(c, out);
            i++;
        } else {
            size_t step = utf8_decode(p + i, length - i, NULL);
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
