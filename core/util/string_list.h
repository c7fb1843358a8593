/*
 * string_list.h - a growable list of owned, NUL-terminated strings.
 */
#ifndef SANDLINT_STRING_LIST_H
#define SANDLINT_STRING_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct string_list {
    char **items;               /* owned strings */
    size_t count, capacity;
};

#define STRING_LIST_INIT { NULL, 0, 0 }

/* Appends a copy of text. */
void string_list_add(struct string_list *list, const char *text);
/* Appends a copy of text unless an equal string is listed already. */
void string_list_add_unique(struct string_list *list, const char *text);
/* Whether an item equals text. */
bool string_list_has(const struct string_list *list, const char *text);
/* Frees every item and the array; the list is empty afterwards. */
void string_list_release(struct string_list *list);

#endif
