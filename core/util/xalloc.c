/* xalloc.c - allocation that cannot fail (see xalloc.h). */
#include "config.h"

#include "xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int exit_status = 2;

void xalloc_set_exit_status(int status)
{
    exit_status = status;
}

static _Noreturn void out_of_memory(void)
{
    fputs("sandlint: out of memory\n", stderr);
    exit(exit_status);
}

_Noreturn void xalloc_out_of_memory(void)
{
    out_of_memory();
}

void *xmalloc(size_t size)
{
    void *memory = malloc(size ? size : 1);
    if (memory == NULL)
        out_of_memory();
    return memory;
}

void *xcalloc(size_t count, size_t size)
{
    void *memory = calloc(count ? count : 1, size ? size : 1);
    if (memory == NULL)
        out_of_memory();
    return memory;
}

void *xrealloc(void *memory, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        out_of_memory();
    size_t total = count * size;
    void *fresh = realloc(memory, total != 0 ? total : 1);
    if (fresh == NULL)
        out_of_memory();
    return fresh;
}

char *xstrdup(const char *text)
{
    return xmemdup(text, strlen(text));
}

char *xstrndup(const char *text, size_t length)
{
    size_t actual = 0;
    while (actual < length && text[actual] != '\0')
        actual++;
    return xmemdup(text, actual);
}

char *xmemdup(const void *memory, size_t length)
{
    if (length == SIZE_MAX)
        out_of_memory();
    char *copy = xmalloc(length + 1);
    if (length != 0)
        memcpy(copy, memory, length);
    copy[length] = '\0';
    return copy;
}

char *xasprintf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (length < 0)
        out_of_memory();
    char *text = xmalloc((size_t)length + 1);
    va_start(args, format);
    vsnprintf(text, (size_t)length + 1, format, args);
    va_end(args);
    return text;
}
