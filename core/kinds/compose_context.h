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
 * kind and variables; not the origin), as text for a set of strings. */
char *compose_context_fingerprint(const char *context, size_t length);

#endif
