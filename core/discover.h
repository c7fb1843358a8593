/*
 * discover.h - find the Compose files named by the command-line operands.
 *
 * Directories are searched recursively for (docker-)?compose*.y{a,}ml;
 * symlinked directories are never entered, a symlinked Compose file is read
 * only when it resolves inside the operand's tree, and ".git" is skipped.
 * A file named directly as an operand is checked whatever its name.
 */
#ifndef SANDLINT_DISCOVER_H
#define SANDLINT_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

struct discovered_file {
    char *path;                 /* path to open (operand-based); owned */
    char *absolute;             /* lexically normalised absolute path; owned */
    char *display;              /* relative to the root, '/'-separated; owned */
    char *package;              /* default package name; owned, may be NULL */
    char *package_directory;    /* absolute; owned, may be NULL */
    char *problem;              /* set when the file must not be read; owned */
};

struct discovery {
    struct discovered_file *files;  /* owned, sorted by display path */
    size_t count, capacity;
};

/* Whether name matches (docker-)?compose*.y{a,}ml. */
bool discover_is_compose_name(const char *name);

/*
 * Discovers files for operands (count of them).  root is the absolute,
 * normalised root directory for display paths.  Returns 0, or -1 with
 * *error set (a missing operand: a usage error).
 */
int discover_files(const char *const *operands, size_t count, const char *root,
                   struct discovery *out, char **error);

void discovery_release(struct discovery *discovery);

#endif
