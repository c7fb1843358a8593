/*
 * compose_context.h - the variables a Compose file hands on to the files it
 * includes and extends (SPEC §13 "include items", §17 "Included files").
 *
 * Compose interpolates an included file with the including project's
 * variables first and its own project's .env for the ones still unset, and
 * an extends.file target with the extending project's variables only,
 * never its own .env.  The worker that checks the including file encodes
 * its project's variables into a context (a bounded byte string) on each
 * reference; the coordinator queues the named file once per distinct
 * context; the worker that checks it decodes the context into the outer
 * variables of its project (compose_project_set_context).
 */
#ifndef SANDLINT_COMPOSE_CONTEXT_H
#define SANDLINT_COMPOSE_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dotenv.h"

/* The most bytes a context takes; a project whose variables need more
 * hands on an overflowed context: the file it names is not checked with
 * them, an error. */
#define COMPOSE_CONTEXT_MAX_BYTES ((size_t)64 << 10)
/* The most contexts one file is checked in. */
#define COMPOSE_CONTEXT_MAX_PER_FILE 8

enum compose_context_kind {
    CONTEXT_INCLUDED = 'I',     /* then the file's own .env for unset ones */
    CONTEXT_EXTENDED = 'E',     /* the extending project's variables only */
    CONTEXT_INCLUDED_ENV_FILE = 'F', /* the including project's variables,
                                   then the include item's env_file for
                                   unset ones; never the file's own .env */
    CONTEXT_OVERFLOW = 'X'      /* too many variables, or unknown ones */
};

/* The context a project with variables own (compose_project_variables;
 * NULL: unknown, its .env could not be read) hands on to a file it names
 * (kind: enum above, include or extends), naming origin (the including
 * file's display path) in messages.  Returns a malloc'd byte string and
 * its *length. */
char *compose_context_encode(const struct dotenv *own, int kind, const char *origin,
                             size_t *length);

/* The kind of an encoded context (0: malformed). */
int compose_context_kind(const char *context, size_t length);

/* Whether the context hands on no variable. */
bool compose_context_is_empty(const char *context, size_t length);

/* The including file the context names (malloc'd), or NULL: malformed. */
char *compose_context_origin(const char *context, size_t length);

/* Adds the context's variables to env.  Returns false for a malformed
 * context (env then holds those read before). */
bool compose_context_decode(const char *context, size_t length, struct dotenv *env);

/* A fingerprint of what makes two contexts check a file differently (its
 * kind, variables and project directory; not the origin), as text for a
 * set of strings. */
char *compose_context_fingerprint(const char *context, size_t length);

/*
 * The project directory of an include item (SPEC §13 "include items"):
 * relative paths in the included file (its include, extends.file and
 * include items' env_file) resolve against it, and its .env is the one
 * Compose reads (unless the item names env_file).  A context may end with
 * one of two records, after its variables:
 *   - a request, added by the worker that checks the including file: the
 *     item's project_directory as Compose reads it (interpolated with the
 *     including file's variables; unresolved: as written, when it uses a
 *     variable without a value), relative to the including project's
 *     directory or absolute;
 *   - a directory, put in place of the request by the coordinator, which
 *     alone knows the scanned trees: where it is (below the included
 *     file's base descriptor, its real path, its name in messages).
 * The coordinator never accepts a directory record from a worker.
 */
enum compose_directory_record {
    CONTEXT_NO_DIRECTORY = 0,
    CONTEXT_DIRECTORY_REQUESTED = 'R',
    CONTEXT_DIRECTORY_RESOLVED = 'D',
    CONTEXT_DIRECTORY_MALFORMED = -1
};

struct compose_directory {
    char *relative;     /* from the included file's base descriptor: no
                           "..", no leading '/'; "" for the base itself */
    char *real;         /* its real path (the coordinator resolves the
                           file's references against it) */
    char *display;      /* in messages, as the walk names paths */
};

/* Which record the context ends with. */
int compose_context_directory_record(const char *context, size_t length);

/* The context (a copy, *out_length) with a request for directory appended
 * (resolved: false when it still holds an unset variable).  An overflowed
 * or malformed context is returned unchanged. */
char *compose_context_request_directory(const char *context, size_t length,
                                        const char *directory, bool resolved,
                                        size_t *out_length);

/* The requested directory (malloc'd) and whether it was resolved, or
 * NULL when the context holds no request. */
char *compose_context_requested_directory(const char *context, size_t length,
                                          bool *resolved);

/* The context (a copy) without its directory record; with directory
 * (NULL: none) as its record instead. */
char *compose_context_with_directory(const char *context, size_t length,
                                     const struct compose_directory *directory,
                                     size_t *out_length);

/* Fills *out (released by the caller) with the context's directory
 * record; false when it has none. */
bool compose_context_directory(const char *context, size_t length,
                               struct compose_directory *out);

void compose_directory_release(struct compose_directory *directory);

#endif
