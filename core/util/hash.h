/*
 * hash.h - keyed hashing of bytes, and a table from hashes to item numbers,
 * for lookups whose cost must stay linear in the input whatever the input
 * holds (allowlist entries against findings, sets of paths).
 *
 * The hash is SipHash-1-3 keyed with 16 random bytes drawn once per
 * process: someone who writes the scanned files or the configuration
 * cannot choose keys that collide, so the table's probes stay short.  A
 * hash is never written anywhere and never decides an outcome: callers
 * compare the items a lookup yields, so results do not depend on the key.
 */
#ifndef SANDLINT_HASH_H
#define SANDLINT_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A hash being computed: bytes added in pieces hash as the same bytes
 * added at once.  A plain value: copy it to hash several continuations of
 * one prefix. */
struct hasher {
    uint64_t v0, v1, v2, v3;
    uint64_t tail;              /* bytes not yet in a full 8-byte word */
    size_t length;              /* bytes added */
};

/* Starts a hash with the process's key. */
void hasher_init(struct hasher *hasher);

/* Adds length bytes. */
void hasher_add(struct hasher *hasher, const void *bytes, size_t length);

/* Adds a length as 8 bytes: written before each variable-length part, so
 * that ("ab", "c") and ("a", "bc") hash apart. */
void hasher_add_length(struct hasher *hasher, size_t length);

/* The hash of everything added so far (the hasher is not changed, and
 * more may be added). */
uint64_t hasher_finish(const struct hasher *hasher);

/* The hash of two hashes, for keys made of parts hashed separately. */
uint64_t hash_pair(uint64_t first, uint64_t second);

/*
 * A multimap from 64-bit hashes to item numbers (indices into the
 * caller's array): the caller stores each item under the hash of its key
 * and, looking up, compares the items yielded for the hash of what it
 * seeks.  Open addressing with linear probing, at most half full.
 */
struct hash_slot {
    uint64_t hash;
    size_t item;                /* HASH_INDEX_EMPTY where unused */
};

struct hash_index {
    struct hash_slot *slots;    /* owned; hash and item side by side, so
                                   that a probe touches one cache line */
    size_t capacity;            /* a power of two, or 0 */
    size_t count;
};

#define HASH_INDEX_INIT { NULL, 0, 0 }
#define HASH_INDEX_EMPTY ((size_t)-1)

/* Makes room for count items in all, so that adding them rehashes
 * nothing (a table of hundreds of thousands is otherwise copied three
 * times over, a cache miss per item each time). */
void hash_index_reserve(struct hash_index *index, size_t count);

/* Stores item (not HASH_INDEX_EMPTY) under hash; items stored under one
 * hash are all kept. */
void hash_index_add(struct hash_index *index, uint64_t hash, size_t item);

/*
 * Walks the items stored under hash: *cursor starts at 0; each call
 * returns true with the next item in *item, or false when there is none.
 * Items of other hashes are skipped, so the caller sees only candidates
 * (which it still compares: two keys may share a hash).
 */
bool hash_index_next(const struct hash_index *index, uint64_t hash, size_t *cursor,
                     size_t *item);

/* Frees the table; it is empty afterwards. */
void hash_index_release(struct hash_index *index);

#endif
