/* word_wrap.c - prose as lines that fit a width (see word_wrap.h). */
#include "config.h"

#include "word_wrap.h"

#include <string.h>

#include "utf8.h"

size_t word_wrap_columns(const char *text, size_t length)
{
    size_t columns = 0;
    for (size_t at = 0; at < length; columns++) {
        size_t step = utf8_decode((const unsigned char *)text + at, length - at, NULL);
        at += step ? step : 1;
    }
    return columns;
}

void word_wrap(FILE *out, const char *text, size_t length, const char *first_prefix,
               const char *prefix, size_t width)
{
    const char *line_prefix = first_prefix;
    size_t used = word_wrap_columns(first_prefix, strlen(first_prefix));
    size_t words_on_line = 0;
    fputs(first_prefix, out);
    size_t at = 0;
    while (at < length) {
        while (at < length && text[at] == ' ')
            at++;
        size_t end = at;
        while (end < length && text[end] != ' ')
            end++;
        if (end == at)
            break;
        size_t columns = word_wrap_columns(text + at, end - at);
        if (words_on_line > 0 && used + 1 + columns > width) {
            line_prefix = prefix;
            fputc('\n', out);
            fputs(line_prefix, out);
            used = word_wrap_columns(line_prefix, strlen(line_prefix));
            words_on_line = 0;
        }
        if (words_on_line > 0) {
            fputc(' ', out);
            used++;
        }
        fwrite(text + at, 1, end - at, out);
        used += columns;
        words_on_line++;
        at = end;
    }
    fputc('\n', out);
}
