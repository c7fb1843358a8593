/*
 * compose_project.h - the variables a Compose file is interpolated with:
 * its project's .env, read on first use (SPEC §13, §17).
 *
 * Compose reads the .env of the project directory (the Compose file's
 * directory) and interpolates every value with it; sandlint does the same
 * for the settings it checks and the include and extends.file paths it
 * follows, and never with its own process environment.  The .env is read
 * below the walk's descriptor of the checked file, following no link,
 * inside the scanned trees (the process is confined to them) and bounded
 * (dotenv.h).  It is read only when a value of the file needs it, so a
 * file without interpolation costs nothing.  A .env that cannot be read
 * as Compose reads it is an SL010 error (compose_project_problem), and
 * then no value that uses a variable counts as resolved.
 */
#ifndef SANDLINT_COMPOSE_PROJECT_H
#define SANDLINT_COMPOSE_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "dotenv.h"

struct compose_project {
    int dir_fd;                 /* the checked file's base (borrowed); -1:
                                   no directory (standard input) */
    char *env_relative;         /* its .env from dir_fd; owned, NULL: none */
    char *env_display;          /* its .env for messages ("app/.env") */
    bool loaded;                /* the .env was looked for */
    bool skip_own_env;          /* an extends.file target: the extending
                                   project's variables only */
    struct dotenv *handed_on;   /* owned, NULL: none; the variables of the
                                   project that includes or extends the
                                   file (compose_context.h), consulted
                                   first */
    struct dotenv env;
    struct interpolation_budget budget;     /* per checked file */
    char *problem;              /* why the .env cannot be read (SL010);
                                   owned, NULL: none */
    unsigned problem_line, problem_column;  /* in the .env; 0: none */
};

/* The project of the file at relative below dir_fd (-1 and NULL for
 * standard input), shown as display; nothing is read yet. */
void compose_project_init(struct compose_project *project, int dir_fd,
                          const char *relative, const char *display);
void compose_project_release(struct compose_project *project);

/*
 * Checks the file in the context an including or extending file handed on
 * (compose_context.h): its variables first, then the file's own .env for
 * the ones still unset (include) or nothing else (extends).  Returns
 * false, leaving the project as it was, for a context that cannot be used
 * (malformed, or overflowed).
 */
bool compose_project_set_context(struct compose_project *project, const char *context,
                                 size_t length);

/* The project's variables, read now if they were not (own .env, with the
 * handed-on ones as its outer), or NULL when its .env could not be
 * read. */
const struct dotenv *compose_project_variables(struct compose_project *project);

/* A value as Compose reads it with the project's variables. */
struct compose_resolution {
    char *text;                 /* what Compose uses (malloc'd, may hold
                                   NUL bytes: use length) */
    size_t length;
    char *from;                 /* where it came from (malloc'd): "P from
                                   .env:3", "the default of P, which is
                                   unset" */
};

/*
 * Resolves text (length bytes, a value as written that holds an
 * interpolation).  Returns true and fills *out (released by the caller)
 * when the text Compose uses is known from the .env, defaults and escapes
 * alone; false when it depends on an unset variable, Compose refuses it
 * (${X:?message} with X unset, a syntax error), a limit was reached, or
 * the .env could not be read.
 */
bool compose_project_resolve(struct compose_project *project, const char *text,
                             size_t length, struct compose_resolution *out);

void compose_resolution_release(struct compose_resolution *resolution);

#endif
