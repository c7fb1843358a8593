/* arena.c - bump allocation for per-file data (see arena.h). */
#include "config.h"

#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
    struct arena_chunk *next;
    size_t size;                /* usable bytes in data */
    size_t used;
    alignas(max_align_t) unsigned char data[];
};

/* Chunks grow geometrically so big files need few mallocs while small files
 * stay small. */
enum { ARENA_FIRST_CHUNK = 16 * 1024, ARENA_MAX_CHUNK = 8 * 1024 * 1024 };

void arena_init(struct arena *arena)
{
    arena->head = NULL;
    arena->used_bytes = 0;
}

void arena_release(struct arena *arena)
{
    struct arena_chunk *chunk = arena->head;
    while (chunk != NULL) {
        struct arena_chunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    arena_init(arena);
}

void *arena_alloc(struct arena *arena, size_t size)
{
    const size_t align = alignof(max_align_t);
    if (size > SIZE_MAX - align)
        return NULL;
    size = (size + align - 1) & ~(align - 1);
    struct arena_chunk *chunk = arena->head;
    if (chunk == NULL || chunk->size - chunk->used < size) {
        size_t want = chunk == NULL ? ARENA_FIRST_CHUNK : chunk->size * 2;
        if (want > ARENA_MAX_CHUNK)
            want = ARENA_MAX_CHUNK;
        if (want < size)
            want = size;
        if (want > SIZE_MAX - sizeof(struct arena_chunk))
            return NULL;
        struct arena_chunk *fresh = malloc(sizeof(*fresh) + want);
        if (fresh == NULL)
            return NULL;
        fresh->next = chunk;
        fresh->size = want;
        fresh->used = 0;
        arena->head = fresh;
        chunk = fresh;
    }
    void *memory = chunk->data + chunk->used;
    chunk->used += size;
    arena->used_bytes += size;
    return memory;
}

char *arena_strndup(struct arena *arena, const char *text, size_t length)
{
    if (length == SIZE_MAX)
        return NULL;
    char *copy = arena_alloc(arena, length + 1);
    if (copy == NULL)
        return NULL;
    if (length > 0)
        memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
}
