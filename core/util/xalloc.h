/*
 * xalloc.h - allocation that cannot fail, for the executable's core only.
 *
 * Out of memory in the driver is not recoverable in a useful way, so these
 * print a message and exit(2).  Plugins never use them (a plugin reports
 * errors through return codes).
 */
#ifndef SANDLINT_XALLOC_H
#define SANDLINT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *memory, size_t count, size_t size);
char *xstrdup(const char *text);
char *xstrndup(const char *text, size_t length);
/* The exit status used when memory runs out (default 2); a worker
 * process sets its own so the coordinator can tell why it ended. */
void xalloc_set_exit_status(int status);

/* Ends the process as a failed allocation does: for memory that came from
 * another allocator (an arena) and ran out. */
_Noreturn void xalloc_out_of_memory(void);

/* printf into a fresh string. */
char *xasprintf(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
/* Copies length bytes and a terminating NUL. */
char *xmemdup(const void *memory, size_t length);

#endif
