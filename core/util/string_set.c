/* string_set.c - a hashed set of strings (see string_set.h). */
#include "config.h"

#include "string_set.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static uint64_t hash_of(const char *bytes, size_t length)
{
    struct hasher hasher;
    hasher_init(&hasher);
    hasher_add(&hasher, bytes, length);
    return hasher_finish(&hasher);
}

static bool has_hashed(const struct string_set *set, uint64_t hash, const char *bytes,
                       size_t length)
{
    size_t cursor = 0, item;
    while (hash_index_next(&set->index, hash, &cursor, &item))
        if (set->lengths[item] == length && memcmp(set->items[item], bytes, length) == 0)
            return true;
    return false;
}

bool string_set_has(const struct string_set *set, const char *bytes, size_t length)
{
    return set->count > 0 && has_hashed(set, hash_of(bytes, length), bytes, length);
}

bool string_set_add(struct string_set *set, const char *bytes, size_t length)
{
    uint64_t hash = hash_of(bytes, length);
    if (has_hashed(set, hash, bytes, length))
        return false;
    if (set->count == set->capacity) {
        set->capacity = set->capacity ? set->capacity * 2 : 16;
        set->items = xrealloc(set->items, set->capacity, sizeof(*set->items));
        set->lengths = xrealloc(set->lengths, set->capacity, sizeof(*set->lengths));
    }
    set->items[set->count] = xmemdup(bytes, length);
    set->lengths[set->count] = length;
    hash_index_add(&set->index, hash, set->count);
    set->count++;
    return true;
}

void string_set_release(struct string_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->items[i]);
    free(set->items);
    free(set->lengths);
    hash_index_release(&set->index);
    memset(set, 0, sizeof(*set));
}
