/*
 * file_result.h - what checking one file produced.
 *
 * The file's name and package are held here once, not in every finding.
 * A worker process builds a file result, the result codec carries it to
 * the coordinator without the name and package (the coordinator knows
 * which file it asked for), and the report takes it from there.
 */
#ifndef SANDLINT_FILE_RESULT_H
#define SANDLINT_FILE_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "finding.h"

/* A suppression comment of the file (SPEC §8); findings it covers point
 * at it (finding.comment). */
struct suppression_comment {
    unsigned line, column;      /* where the comment starts */
    char *reason;               /* owned; "" when the comment gives none */
};

/* A file the checked file names (SPEC §4): an include item or a service's
 * extends.file, as written, resolved by the coordinator. */
enum reference_kind {
    REFERENCE_INCLUDE = 1,
    REFERENCE_EXTENDS = 2,
    REFERENCE_COMPOSE_FILE = 3,     /* a dev container's dockerComposeFile */
    REFERENCE_GITLAB_INCLUDE = 4,   /* a GitLab CI local include (or a
                                       child pipeline's), relative to the
                                       repository's top */
    REFERENCE_GITLAB_REMOTE = 5,    /* a GitLab CI include GitLab fetches
                                       (remote, template, project,
                                       component, artifact): text says
                                       which */
    REFERENCE_COMPOSE_FILE_ENV = 6  /* a file COMPOSE_FILE of the project's
                                       .env names: Compose reads it by
                                       default, merged with the others */
};

struct file_reference {
    int kind;                   /* enum reference_kind */
    unsigned line, column;      /* where the path is written */
    char *text;                 /* owned; the path as written */
    char *path;                 /* owned; the path Compose uses when the
                                   text is interpolated and resolved with
                                   the project's .env, defaults and $$
                                   escapes; NULL: the text as written */
    char *from;                 /* owned; where path came from ("the
                                   default of BASE, which is unset"), or
                                   NULL */
    char *context;              /* owned; the variables handed on to the
                                   file (compose_context.h), NULL: none */
    size_t context_length;
};

struct file_result {
    char *display;              /* path relative to the root; owned */
    char *package;              /* owned; NULL: no package */
    struct finding_set findings;
    struct suppression_comment *comments;   /* owned */
    size_t comment_count, comment_capacity;
    struct file_reference *references;  /* owned */
    size_t reference_count, reference_capacity;
    size_t services;            /* services checked (mappings) */
    bool plugin_failed;         /* a plugin failed, crashed or hung */
    bool incomplete;            /* the file was not (completely) checked */
    bool skipped;               /* a candidate of no kind (file_kind.h):
                                   neither counted nor reported */
};

/* An empty result for display and package (copied; package may be NULL). */
void file_result_init(struct file_result *result, const char *display,
                      const char *package);
/* Frees everything the result owns; it is empty afterwards. */
void file_result_release(struct file_result *result);
/* Moves everything of from into to (released first); from is left empty. */
void file_result_move(struct file_result *to, struct file_result *from);

/* Adds a suppression comment (reason copied; NULL means none) and returns
 * its index. */
size_t file_result_add_comment(struct file_result *result, unsigned line,
                               unsigned column, const char *reason);

/* Adds a reference (text copied) and returns it: path and from NULL, for
 * the caller to set (owned by the result). */
struct file_reference *file_result_add_reference(struct file_result *result, int kind,
                                                 unsigned line, unsigned column,
                                                 const char *text);

#endif
