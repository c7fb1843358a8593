/*
 * paths.h - lexical path helpers (no file system access unless stated).
 * Every returned string is malloc'd and owned by the caller.
 */
#ifndef SANDLINT_PATHS_H
#define SANDLINT_PATHS_H

#include <stdbool.h>

/* a + "/" + b, without doubling a trailing '/' of a. */
char *path_join(const char *a, const char *b);

/* The absolute, lexically normalised form of path ("." and ".." removed,
 * repeated '/' folded), relative paths taken from the current directory. */
char *path_absolute(const char *path);

/* The path of target (absolute, normalised) relative to directory base
 * (absolute, normalised), with "../" where needed; "." when equal. */
char *path_relative(const char *base, const char *target);

/* The last component ("/" for the root). */
char *path_basename(const char *path);

/* Everything before the last component ("/" for "/x", "." for "x"). */
char *path_dirname(const char *path);

/* Whether path equals directory or lies below it (both normalised). */
bool path_is_within(const char *directory, const char *path);

#endif
