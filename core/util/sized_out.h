/*
 * sized_out.h - handing a struct the host filled to a plugin that declared
 * it at its own size.
 *
 * A plugin built against another minor version passes the size of the
 * struct as it knows it (struct sl_mount, sl_pod, sl_container): an older
 * plugin's is smaller, and the host's struct is then passed whole (an
 * older plugin reads only its prefix); a newer plugin's is larger, and
 * the host copies its own into a zeroed buffer of that size, so the
 * fields it does not know are zero.
 */
#ifndef SANDLINT_SIZED_OUT_H
#define SANDLINT_SIZED_OUT_H

#include <stddef.h>

/* The largest struct a caller may declare (a later version's, far beyond
 * anything the ABI will grow to). */
#define SIZED_OUT_MAX 4096

struct sized_out {
    void *out;          /* what the visitor receives: own, or allocated */
    size_t size;        /* its size */
    void *own;          /* the caller's struct of the host's size */
};

/* Prepares *sized for a caller that declared caller_size bytes, given the
 * host's own struct (own_size bytes, borrowed until sized_out_end()).
 * Returns -1 (nothing to release) when caller_size is below minimum or
 * above SIZED_OUT_MAX, 0 otherwise. */
int sized_out_begin(struct sized_out *sized, void *own, size_t own_size,
                    size_t caller_size, size_t minimum);

/* Copies size bytes of filled into the caller-sized struct, zero past
 * them, and returns it (valid until the next call or sized_out_end()). */
void *sized_out_fill(struct sized_out *sized, const void *filled, size_t size);

/* Frees what sized_out_begin() allocated. */
void sized_out_end(struct sized_out *sized);

#endif
