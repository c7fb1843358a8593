/* sized_out.c - structs handed to plugins at their declared size (see
 * sized_out.h). */
#include "config.h"

#include "sized_out.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

int sized_out_begin(struct sized_out *sized, void *own, size_t own_size,
                    size_t caller_size, size_t minimum)
{
    if (caller_size < minimum || caller_size > SIZED_OUT_MAX)
        return -1;
    sized->own = own;
    sized->out = own;
    sized->size = own_size;
    if (caller_size > own_size) {
        sized->out = xcalloc(1, caller_size);
        sized->size = caller_size;
    }
    return 0;
}

void *sized_out_fill(struct sized_out *sized, const void *filled, size_t size)
{
    memset(sized->out, 0, sized->size);
    memcpy(sized->out, filled, size);
    return sized->out;
}

void sized_out_end(struct sized_out *sized)
{
    if (sized->out != sized->own)
        free(sized->out);
    sized->out = sized->own;
}
