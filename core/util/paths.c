/* paths.c - lexical path helpers (see paths.h). */
#include "config.h"

#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

char *path_join(const char *a, const char *b)
{
    size_t length = strlen(a);
    if (length == 0)
        return xstrdup(b);
    if (a[length - 1] == '/')
        return xasprintf("%s%s", a, b);
    return xasprintf("%s/%s", a, b);
}

static char *current_directory(void)
{
    size_t size = 256;
    for (;;) {
        char *buffer = xmalloc(size);
        if (getcwd(buffer, size) != NULL)
            return buffer;
        free(buffer);
        if (errno != ERANGE)
            return xstrdup("/");
        size *= 2;
    }
}

char *path_absolute(const char *path)
{
    char *joined;
    if (path[0] == '/') {
        joined = xstrdup(path);
    } else {
        char *cwd = current_directory();
        joined = path_join(cwd, path);
        free(cwd);
    }
    /* Normalise in place: components are copied down over the buffer. */
    size_t length = strlen(joined);
    char *out = xmalloc(length + 2);
    size_t used = 0;
    const char *cursor = joined;
    while (*cursor != '\0') {
        while (*cursor == '/')
            cursor++;
        const char *end = strchr(cursor, '/');
        if (end == NULL)
            end = cursor + strlen(cursor);
        size_t component = (size_t)(end - cursor);
        if (component == 0 || (component == 1 && cursor[0] == '.')) {
            /* skip */
        } else if (component == 2 && cursor[0] == '.' && cursor[1] == '.') {
            while (used > 0 && out[used - 1] != '/')
                used--;
            if (used > 0)
                used--;     /* the '/' before the removed component */
        } else {
            out[used++] = '/';
            memcpy(out + used, cursor, component);
            used += component;
        }
        cursor = end;
    }
    if (used == 0)
        out[used++] = '/';
    out[used] = '\0';
    free(joined);
    return out;
}

bool path_is_within(const char *directory, const char *path)
{
    size_t length = strlen(directory);
    if (strcmp(directory, "/") == 0)
        return path[0] == '/';
    return strncmp(directory, path, length) == 0 &&
           (path[length] == '\0' || path[length] == '/');
}

/* Number of components of a normalised absolute path ("/" has none). */
static size_t component_count(const char *path)
{
    size_t count = 0;
    for (size_t i = 0; path[i] != '\0'; i++)
        if (path[i] == '/' && path[i + 1] != '\0')
            count++;
    return count;
}

char *path_relative(const char *base, const char *target)
{
    if (strcmp(base, target) == 0)
        return xstrdup(".");
    if (path_is_within(base, target)) {
        size_t skip = strcmp(base, "/") == 0 ? 1 : strlen(base) + 1;
        return xstrdup(target + skip);
    }
    /* Length of the longest common prefix made of whole components. */
    size_t common = 0;
    for (size_t i = 1;; i++) {
        bool base_end = base[i] == '\0' || base[i] == '/';
        bool target_end = target[i] == '\0' || target[i] == '/';
        if (base_end && target_end && strncmp(base, target, i) == 0)
            common = i;
        if (base[i] == '\0' || target[i] == '\0' || base[i] != target[i])
            break;
    }
    char *shared = xstrndup(base, common ? common : 1);
    size_t ups = component_count(base) - component_count(shared);
    free(shared);
    const char *rest = target + common;
    while (*rest == '/')
        rest++;
    char *out = xmalloc(ups * 3 + strlen(rest) + 1);
    char *cursor = out;
    for (size_t i = 0; i < ups; i++, cursor += 3)
        memcpy(cursor, "../", 3);
    memcpy(cursor, rest, strlen(rest) + 1);
    size_t out_length = strlen(out);
    if (out_length > 0 && out[out_length - 1] == '/')
        out[out_length - 1] = '\0';
    return out;
}

char *path_basename(const char *path)
{
    size_t length = strlen(path);
    while (length > 1 && path[length - 1] == '/')
        length--;
    size_t start = length;
    while (start > 0 && path[start - 1] != '/')
        start--;
    if (start == length)
        return xstrdup(length ? "/" : ".");
    return xstrndup(path + start, length - start);
}

char *path_dirname(const char *path)
{
    size_t length = strlen(path);
    while (length > 1 && path[length - 1] == '/')
        length--;
    while (length > 0 && path[length - 1] != '/')
        length--;
    while (length > 1 && path[length - 1] == '/')
        length--;
    if (length == 0)
        return xstrdup(".");
    return xstrndup(path, length);
}
