/*
 * string_set.h - a set of owned byte strings with lookups in constant
 * expected time (hash.h), where a list would make a run's cost the
 * product of two inputs (packages or paths seen, times entries judged).
 */
#ifndef SANDLINT_STRING_SET_H
#define SANDLINT_STRING_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "hash.h"

struct string_set {
    char **items;               /* owned, NUL-terminated (may hold NUL
                                   bytes before the end: lengths below) */
    size_t *lengths;            /* owned */
    size_t count, capacity;
    struct hash_index index;
};

#define STRING_SET_INIT { NULL, NULL, 0, 0, HASH_INDEX_INIT }

/* Adds a copy of length bytes unless the set holds them already; returns
 * whether they were added. */
bool string_set_add(struct string_set *set, const char *bytes, size_t length);

/* Whether the set holds exactly these bytes. */
bool string_set_has(const struct string_set *set, const char *bytes, size_t length);

/* Frees everything; the set is empty afterwards. */
void string_set_release(struct string_set *set);

#endif
