/* comment_list.c - where a reader found comments (see comment_list.h). */
#include "config.h"

#include "comment_list.h"

#include <stdlib.h>

#include "xalloc.h"

void comment_list_init(struct comment_list *list)
{
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

void comment_list_add(struct comment_list *list, const struct comment_span *span)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 16;
        list->items = xrealloc(list->items, list->capacity, sizeof(*list->items));
    }
    list->items[list->count++] = *span;
}

void comment_list_release(struct comment_list *list)
{
    free(list->items);
    comment_list_init(list);
}
