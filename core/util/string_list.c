/* string_list.c - a growable list of owned strings (see string_list.h). */
#include "config.h"

#include "string_list.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void string_list_add(struct string_list *list, const char *text)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 8;
        list->items = xrealloc(list->items, list->capacity, sizeof(*list->items));
    }
    list->items[list->count++] = xstrdup(text);
}

bool string_list_has(const struct string_list *list, const char *text)
{
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->items[i], text) == 0)
            return true;
    return false;
}

void string_list_add_unique(struct string_list *list, const char *text)
{
    if (!string_list_has(list, text))
        string_list_add(list, text);
}

void string_list_release(struct string_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i]);
    free(list->items);
    memset(list, 0, sizeof(*list));
}
