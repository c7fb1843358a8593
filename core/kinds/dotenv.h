/*
 * dotenv.h - a Compose project's .env file, read the way compose-go's
 * dotenv package reads it (SPEC §13, §17 SL010).
 *
 * Compose reads the project directory's .env by default, and an included
 * project's .env (or the include item's env_file list), and interpolates
 * the Compose files with what they define.  The syntax, compose-go's:
 *   - statements are separated by white space and newlines; a line whose
 *     first non-blank character is '#' is a comment;
 *   - "KEY=value", "KEY: value", with an optional leading "export ";
 *     a key is letters, digits, '_', '.', '-', '[' and ']' (white space
 *     inside a key other than ' ' is kept, a ' ' is an error); compose-go
 *     accepts Unicode letters and digits, sandlint every non-ASCII
 *     character but the Unicode spaces (a key Compose refuses makes Compose
 *     refuse the project: reading it cannot pass anything);
 *   - unquoted values run to the end of the line, lose a " #" comment and
 *     trailing white space, and are interpolated (compose_interpolation.h)
 *     with the variables defined so far;
 *   - single-quoted values are literal ("\'" is a quote) and may span
 *     lines; double-quoted ones may span lines, understand \a \b \f \n \r
 *     \t \v \" \\ \$ and \0NNN (octal), and are interpolated; after the
 *     closing quote the next statement may start on the same line;
 *   - "KEY" alone on its line takes KEY from the environment Compose runs
 *     in: kept as a definition without a value (unset, see has_value);
 *   - a key with a ' ' in it, a character a key cannot hold, an
 *     unterminated quote, a value whose interpolation fails: an error with
 *     its line and column (Compose refuses the project).
 * sandlint is stricter than Compose in one way: the file must be UTF-8
 * without NUL bytes (a byte order mark is skipped, as Compose does).
 *
 * Which variables a file sees: those of the outer project first (the
 * including project's, for a file of an included project; Compose's own
 * environment, which sandlint never reads, for the top project), then the
 * keys defined earlier in the file, the latest definition of a key winning.
 * Lookups through a struct dotenv answer the same way.
 *
 * Bounded: at most DOTENV_MAX_BYTES bytes per file, DOTENV_MAX_VARIABLES
 * statements per struct dotenv, INTERPOLATION_FILE_WORK units of work for
 * the values of each file, and the limits of compose_interpolation.h per
 * value; a file past any of them is an error at the place it was reached.
 *
 * Which .env a Compose file is interpolated with (compose-go's cli and
 * loader/include.go; SPEC §13):
 *   - a Compose file checked on its own: the .env in its directory (the
 *     project directory), when that is a regular file; outer NULL;
 *   - the include items of a file (their path, project_directory and
 *     env_file strings) are values of that file: interpolated with its
 *     variables first;
 *   - an included file: a struct dotenv whose outer is the including
 *     file's, filled from the item's env_file list (each relative entry
 *     against the including project's directory, "/dev/null" skipped, a
 *     missing one an error) or, without one, from the .env of the item's
 *     project_directory (relative: against the including project's
 *     directory; default: the included file's directory) when it exists;
 *     its own includes nest the same way, one struct per level;
 *   - an extends.file target: the extending file's variables, unchanged
 *     (no .env of its own).
 */
#ifndef SANDLINT_DOTENV_H
#define SANDLINT_DOTENV_H

#include <stddef.h>

#include "compose_interpolation.h"

#define DOTENV_MAX_BYTES ((size_t)1 << 20)
#define DOTENV_MAX_VARIABLES 10000

struct dotenv {
    const struct dotenv *outer;     /* borrowed: consulted first; NULL for
                                       the top project */
    struct interpolation_definition **definitions;  /* every statement read,
                                       in file order (later ones win);
                                       owned */
    size_t count, capacity;
    struct interpolation_definition **table;        /* the latest definition
                                       of each name: open addressing */
    size_t table_size, table_used;
    char **files;                   /* display names of the files read */
    size_t file_count;
};

struct dotenv_error {
    unsigned line, column;          /* 1-based; column in characters */
    char *message;                  /* malloc'd; quotes bytes of the file:
                                       escape it before printing */
};

/* An empty set of variables whose lookups consult outer first (borrowed:
 * outer must outlive env; NULL for the top project). */
void dotenv_init(struct dotenv *env, const struct dotenv *outer);

/*
 * Reads one .env file's bytes (data: length bytes, borrowed for the call)
 * into env, after the files read before (an include item's env_file list
 * is read in order into one struct dotenv).  file is the name messages use
 * ("app/.env"), copied.  Returns 0, or -1 with *error filled (the caller
 * releases it): the file cannot be read as Compose would, and Compose
 * refuses the project.  Definitions read before the error stay in env; a
 * caller that reports SL010 should resolve the project's values without
 * variables (every value that uses one cannot be checked).
 */
int dotenv_parse(struct dotenv *env, const char *file, const char *data, size_t length,
                 struct dotenv_error *error);

/*
 * The definition of name (length bytes) the project sees: the outer
 * project's if it has one with a value, else the latest of env's own, else
 * one listed without a value (has_value 0) by either, else NULL.  Borrowed:
 * lives until env (or outer, for the outer project's) is released.
 */
const struct interpolation_definition *dotenv_lookup(const struct dotenv *env,
                                                     const char *name, size_t length);

/* The lookup above as compose_interpolate() takes it (env borrowed). */
struct interpolation_variables dotenv_variables(const struct dotenv *env);

/* Frees what env owns; a released env is empty and may be initialised
 * again. */
void dotenv_release(struct dotenv *env);

void dotenv_error_release(struct dotenv_error *error);

/* Adds a copy of definition (its strings copied) as if read last: the
 * variables an including project hands on (compose_context.h). */
void dotenv_define(struct dotenv *env, const struct interpolation_definition *definition);

#endif
