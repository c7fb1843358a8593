/* hash.c - keyed hashing and the hash-to-item table (see hash.h). */
#include "config.h"

#include "hash.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* SipHash-1-3 (Aumasson and Bernstein): one compression round per word,
 * three finalisation rounds. */

static uint64_t rotate_left(uint64_t value, unsigned bits)
{
    return (value << bits) | (value >> (64 - bits));
}

static void sip_round(struct hasher *h)
{
    h->v0 += h->v1;
    h->v1 = rotate_left(h->v1, 13);
    h->v1 ^= h->v0;
    h->v0 = rotate_left(h->v0, 32);
    h->v2 += h->v3;
    h->v3 = rotate_left(h->v3, 16);
    h->v3 ^= h->v2;
    h->v0 += h->v3;
    h->v3 = rotate_left(h->v3, 21);
    h->v3 ^= h->v0;
    h->v2 += h->v1;
    h->v1 = rotate_left(h->v1, 17);
    h->v1 ^= h->v2;
    h->v2 = rotate_left(h->v2, 32);
}

static void compress(struct hasher *h, uint64_t word)
{
    h->v3 ^= word;
    sip_round(h);
    h->v0 ^= word;
}

/* The process's key: random, drawn on first use.  Without getrandom()
 * the key is still unpredictable enough from outside (time and pid):
 * nothing but probe lengths depends on it. */
static uint64_t process_key[2];
static bool key_ready;

static void ensure_key(void)
{
    if (key_ready)
        return;
    if (getrandom(process_key, sizeof(process_key), GRND_NONBLOCK) !=
        (ssize_t)sizeof(process_key)) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        process_key[0] = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid();
        process_key[1] = (uint64_t)now.tv_sec * 0xC2B2AE3D27D4EB4FULL ^ (uint64_t)time(NULL);
    }
    key_ready = true;
}

void hasher_init(struct hasher *hasher)
{
    ensure_key();
    hasher->v0 = process_key[0] ^ 0x736f6d6570736575ULL;
    hasher->v1 = process_key[1] ^ 0x646f72616e646f6dULL;
    hasher->v2 = process_key[0] ^ 0x6c7967656e657261ULL;
    hasher->v3 = process_key[1] ^ 0x7465646279746573ULL;
    hasher->tail = 0;
    hasher->length = 0;
}

/* Eight bytes as a little-endian word, whatever the machine. */
static uint64_t load_word(const unsigned char *p)
{
    uint64_t word = 0;
    for (int i = 7; i >= 0; i--)
        word = word << 8 | p[i];
    return word;
}

void hasher_add(struct hasher *hasher, const void *bytes, size_t length)
{
    const unsigned char *p = bytes;
    size_t i = 0;
    /* Byte by byte up to a word boundary, then whole words. */
    for (; i < length && hasher->length % 8 != 0; i++) {
        hasher->tail |= (uint64_t)p[i] << (8 * (hasher->length % 8));
        if (++hasher->length % 8 == 0) {
            compress(hasher, hasher->tail);
            hasher->tail = 0;
        }
    }
    for (; i + 8 <= length; i += 8) {
        compress(hasher, load_word(p + i));
        hasher->length += 8;
    }
    for (; i < length; i++) {
        hasher->tail |= (uint64_t)p[i] << (8 * (hasher->length % 8));
        hasher->length++;
    }
}

void hasher_add_length(struct hasher *hasher, size_t length)
{
    unsigned char bytes[8];
    uint64_t value = length;
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    hasher_add(hasher, bytes, sizeof(bytes));
}

uint64_t hasher_finish(const struct hasher *hasher)
{
    struct hasher h = *hasher;
    compress(&h, h.tail | ((uint64_t)(h.length & 0xFF) << 56));
    h.v2 ^= 0xFF;
    sip_round(&h);
    sip_round(&h);
    sip_round(&h);
    return h.v0 ^ h.v1 ^ h.v2 ^ h.v3;
}

uint64_t hash_pair(uint64_t first, uint64_t second)
{
    /* Both are keyed hashes already, unknown to whoever chose the input:
     * a good mixer of the two (splitmix64's finaliser) keeps them so. */
    uint64_t x = first ^ (second * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL +
                          (first << 6) + (first >> 2));
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

/* ------------------------------------------------------------------ */
/* the table                                                           */

static void place(struct hash_slot *slots, size_t capacity, uint64_t hash, size_t item)
{
    size_t at = (size_t)hash & (capacity - 1);
    while (slots[at].item != HASH_INDEX_EMPTY)
        at = (at + 1) & (capacity - 1);
    slots[at].hash = hash;
    slots[at].item = item;
}

static void resize(struct hash_index *index, size_t capacity)
{
    struct hash_slot *slots = xcalloc(capacity, sizeof(*slots));
    for (size_t i = 0; i < capacity; i++)
        slots[i].item = HASH_INDEX_EMPTY;
    for (size_t i = 0; i < index->capacity; i++)
        if (index->slots[i].item != HASH_INDEX_EMPTY)
            place(slots, capacity, index->slots[i].hash, index->slots[i].item);
    free(index->slots);
    index->slots = slots;
    index->capacity = capacity;
}

void hash_index_reserve(struct hash_index *index, size_t count)
{
    size_t capacity = index->capacity ? index->capacity : 64;
    while (count * 2 > capacity)
        capacity *= 2;
    if (capacity > index->capacity)
        resize(index, capacity);
}

void hash_index_add(struct hash_index *index, uint64_t hash, size_t item)
{
    if ((index->count + 1) * 2 > index->capacity)
        resize(index, index->capacity ? index->capacity * 2 : 64);
    place(index->slots, index->capacity, hash, item);
    index->count++;
}

bool hash_index_next(const struct hash_index *index, uint64_t hash, size_t *cursor,
                     size_t *item)
{
    if (index->capacity == 0)
        return false;
    /* The cursor counts probes from the hash's home slot. */
    size_t mask = index->capacity - 1;
    for (size_t probe = *cursor; probe < index->capacity; probe++) {
        const struct hash_slot *slot = &index->slots[((size_t)hash + probe) & mask];
        if (slot->item == HASH_INDEX_EMPTY) {
            *cursor = index->capacity;
            return false;
        }
        if (slot->hash == hash) {
            *cursor = probe + 1;
            *item = slot->item;
            return true;
        }
    }
    *cursor = index->capacity;
    return false;
}

void hash_index_release(struct hash_index *index)
{
    free(index->slots);
    memset(index, 0, sizeof(*index));
}
