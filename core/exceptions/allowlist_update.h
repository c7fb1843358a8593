/*
 * allowlist_update.h - --update-allowlist (SPEC §8, §14): after a run, edit
 * the configuration in use so that the same run would pass.
 *
 * Every failing finding of a rule (not of the core) gets an entry for its
 * group and key, scoped to its file ("evals/a/compose.yaml", "./compose.yaml"
 * at the root) or, with --allowlist-scope package, to its package; never
 * '*'.  With --strict, keyed warnings get entries too; with
 * --allowlist-suppressed, so do the findings that suppression comments
 * accept (so that the exceptions survive --untrusted, which does not honour
 * comments).  Every stale entry goes.  With --narrow, every '*' and package
 * entry of sandlint's own tables whose scope the run checked completely is
 * replaced by one file entry per finding it accepted (inspect-evals-lint's
 * tables are left alone: that tool reads them by package).
 *
 * The configuration is read, and a temporary file beside it created,
 * before the process confines itself, without following a link planted in
 * the scanned trees; the new text is written there and renamed over the old
 * file at the end (report_output.h), with the old file's permissions, or
 * nothing is written at all when nothing changes or anything goes wrong.
 * The editing itself, which keeps every other byte, is config_edit.h's.
 * Without a configuration, .sandlint.ini is created at the root - or, when
 * a scope or key is one that INI cannot hold and the root has a
 * pyproject.toml, the entries go to its [tool.sandlint.allowlists.GROUP]
 * tables.  An existing .sandlint.ini that cannot hold an entry is an error
 * (nothing is written).
 *
 * The report then shows the run after the edit: the edited text is read
 * back as the configuration, and the findings it accepts are quiet.
 */
#ifndef SANDLINT_ALLOWLIST_UPDATE_H
#define SANDLINT_ALLOWLIST_UPDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "allowlist.h"
#include "config_edit.h"
#include "config_file.h"
#include "file_result.h"
#include "registry.h"
#include "report_output.h"
#include "scanned_trees.h"
#include "string_set.h"

/* Which scope new entries get. */
enum update_scope { UPDATE_SCOPE_FILE = 0, UPDATE_SCOPE_PACKAGE };

struct allowlist_update_settings {
    int scope;                  /* enum update_scope */
    bool strict;                /* keyed warnings get entries too */
    bool suppressed;            /* findings comments accept get entries too */
    bool narrow;                /* '*' and package entries become file entries */
};

/* A file the update may write. */
struct update_target {
    char *path;                 /* absolute; owned; NULL: none */
    char *display;              /* as the user sees it (relative to the
                                   current directory); owned */
    char *root_display;         /* relative to the root, as the report names
                                   files; owned */
    enum config_format format;
    char *text;                 /* its content before the run; owned; NULL
                                   when it is to be created */
    size_t length;
    struct report_output output;    /* the temporary file and its finisher */
};

struct allowlist_update {
    struct allowlist_update_settings settings;
    struct update_target target;    /* the configuration in use, or the
                                       .sandlint.ini to create */
    struct update_target fallback;  /* without a configuration: the root's
                                       pyproject.toml, when it exists */
    struct update_target *chosen;   /* what allowlist_update_edit wrote */
    const char *root_display;       /* chosen->root_display, for the report */
    char *edited;                   /* the new text; owned */
    size_t edited_length;
    size_t requested;               /* entries the findings asked for, each
                                       once (the editor then leaves out those
                                       already present) */
    size_t added, removed, narrowed;
    bool changed;                   /* the edit changes the configuration
                                       (allowlist_update_edit replaced it) */
};

/* An update that writes nothing (safe to release). */
void allowlist_update_init(struct allowlist_update *update);

/*
 * Reads the configuration in use (config->path; none: root/.sandlint.ini
 * is to be created) and opens its replacement, refusing links inside the
 * trees (borrowed for the call).  Call before confinement.  A file that is
 * not writable is refused.  Returns 0, or -1 after printing why (exit 2).
 */
int allowlist_update_prepare(struct allowlist_update *update,
                             const struct allowlist_update_settings *settings,
                             const struct config *config, const char *root,
                             const struct scanned_trees *trees);

/*
 * Decides the entries to add (from the results, all of the run's files in
 * order, as config accepted them through index) and to remove (stale,
 * narrowed), edits the text, and replaces *config with the edited text as
 * read back when it changed (update->changed: the caller then applies it
 * again and reports the run after the change).  Writes nothing yet.
 * Returns 0, or -1 after printing why (a configuration error at
 * file:line:col, an entry the file cannot hold; *config is then unchanged,
 * and nothing will be written).
 */
int allowlist_update_edit(struct allowlist_update *update, struct config *config,
                          const struct registry *registry, struct allowlist_index *index,
                          const struct file_result *results, size_t count,
                          const struct allowlist_coverage *coverage,
                          const struct allowlist_incomplete *incomplete);

/* Writes the edited configuration in place and prints "added N, removed
 * M entries in FILE" to standard error.  Returns 0, or -1 after printing
 * why (the file is then untouched). */
int allowlist_update_commit(struct allowlist_update *update);

/* Frees everything; an uncommitted update writes nothing. */
void allowlist_update_release(struct allowlist_update *update);

#endif
