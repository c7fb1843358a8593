/*
 * arena.h - bump allocation for per-file data.
 *
 * Everything built while checking one file (YAML nodes, scalar text, merged
 * pair arrays) lives in one arena and is released at once, so freeing never
 * walks the node graph (a shared-alias graph can be exponentially large
 * when walked as a tree).
 */
#ifndef SANDLINT_ARENA_H
#define SANDLINT_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
    struct arena_chunk *head;   /* most recent chunk; owned */
    size_t used_bytes;          /* total bytes handed out, for limits */
};

/* Initialises an empty arena (no allocation happens until first use). */
void arena_init(struct arena *arena);

/* Releases every chunk; the arena is empty and reusable afterwards. */
void arena_release(struct arena *arena);

/* size bytes aligned for any object, or NULL when out of memory.  The
 * memory is owned by the arena and lives until arena_release(). */
void *arena_alloc(struct arena *arena, size_t size);

/* A NUL-terminated copy of length bytes of text, owned by the arena. */
char *arena_strndup(struct arena *arena, const char *text, size_t length);

#endif
