/* comma_list.c - walk a comma-separated list (see comma_list.h). */
#include "config.h"

#include "comma_list.h"

#include <string.h>

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

int comma_list_each(const char *text, size_t length, comma_list_visit visit,
                    void *data)
{
    size_t cursor = 0;
    while (cursor < length) {
        const char *comma = memchr(text + cursor, ',', length - cursor);
        size_t end = comma ? (size_t)(comma - text) : length;
        size_t start = cursor, stop = end;
        while (start < stop && blank(text[start]))
            start++;
        while (stop > start && blank(text[stop - 1]))
            stop--;
        if (stop > start) {
            int result = visit(data, text + start, stop - start, start);
            if (result != 0)
                return result;
        }
        cursor = end + 1;
    }
    return 0;
}
