/*
 * discover.h - find the Compose files named by the command-line operands.
 *
 * Directories are searched recursively for (docker-)?compose*.y{a,}ml;
 * symlinked directories are never entered, a symlinked Compose file is read
 * only when it resolves inside the operand's tree, and ".git" is skipped.
 * A file named directly as an operand is checked whatever its name.
 *
 * The search streams: files come out one at a time, in the report's order
 * (display paths compared component by component, see discover_compare),
 * holding only the sorted entries of the directories on the current path -
 * so memory does not grow with the number of files.
 */
#ifndef SANDLINT_DISCOVER_H
#define SANDLINT_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

struct discovered_file {
    char *path;                 /* path to open (operand-based); owned */
    char *absolute;             /* lexically normalised absolute path; owned */
    char *display;              /* relative to the root, '/'-separated; owned */
    char *package;              /* package name; owned, may be NULL */
    char *problem;              /* set when the file must not be read; owned */
    char *content;              /* the text itself, already read (standard
                                   input); owned; NULL: read from path */
    size_t content_length;
};

/* Frees what a file owns and clears it; the struct itself stays. */
void discovered_file_release(struct discovered_file *file);
/* Frees what a file owns and the file itself (accepts NULL). */
void discovered_file_free(struct discovered_file *file);

/* Whether name matches (docker-)?compose*.y{a,}ml. */
bool discover_is_compose_name(const char *name);

/* The report's order of paths: component by component, '/' before any
 * other byte ("a/b/c" < "a/b.c" < "a/bc").  strcmp-like result. */
int discover_compare(const char *a, const char *b);

struct discovery_walk;

/*
 * Starts a search of operands (count of them).  root is the absolute,
 * normalised root directory for display paths.  Returns the walk, or NULL
 * with *error set (a missing operand: a usage error).
 */
struct discovery_walk *discovery_open(const char *const *operands, size_t count,
                                      const char *root, char **error);

/* The next file, owned by the caller (discovered_file_free), or NULL when
 * the search is over. */
struct discovered_file *discovery_next(struct discovery_walk *walk);

/* Files returned so far. */
size_t discovery_count(const struct discovery_walk *walk);

void discovery_close(struct discovery_walk *walk);

#endif
