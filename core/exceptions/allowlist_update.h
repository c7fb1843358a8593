/*
 * allowlist_update.h - --update-allowlist (SPEC §8): after a run, edit the
 * configuration in use so that the same run would pass.
 *
 * Every failing finding of a rule (not of the core, not a warning) gets an
 * entry under its package and group; every stale entry of a fully checked
 * package goes.  The configuration is read, and a temporary file beside it
 * created, before the process confines itself; the new text is written
 * there and renamed over the old file at the end (report_output.h), with
 * the old file's permissions, or nothing is written at all when nothing
 * changes or anything goes wrong.  The editing itself, which keeps every
 * other byte, is config_edit.h's.  Without a configuration, .sandlint.ini
 * is created at the root.
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

struct allowlist_update {
    char *path;                 /* the file to write (absolute); owned */
    char *display;              /* it, as the report names files; owned */
    enum config_format format;
    char *text;                 /* its content before the run; owned; NULL
                                   when it is to be created */
    size_t length;
    struct report_output output;    /* the temporary file and its finisher */
    struct config_edit_entry *add;  /* owned, with owned strings */
    size_t add_count, add_capacity;
    size_t unaccepted;          /* failing findings no entry can accept
                                   (the core's: unchecked files) */
};

/*
 * Reads the configuration in use (config->path; none: root/.sandlint.ini
 * is to be created) and opens its replacement.  Call before confinement.
 * A file that is not writable is refused.  Returns 0, or -1 after printing
 * why (exit 2).
 */
int allowlist_update_prepare(struct allowlist_update *update,
                             const struct config *config, const char *root);

/* Notes the entries that the failing findings of result need (call after
 * the allowlist is applied, for every file). */
void allowlist_update_collect(struct allowlist_update *update,
                              const struct file_result *result,
                              const struct registry *registry,
                              const struct config *config);

/*
 * Edits and writes the configuration: adds what was collected, removes the
 * stale entries (allowlist_entry_stale), prints "added N, removed M
 * entries in FILE" to standard error.  Returns 0, or -1 after printing why
 * (a configuration error at file:line:col; the file is then untouched).
 */
int allowlist_update_finish(struct allowlist_update *update,
                            const struct config *config,
                            const struct registry *registry,
                            allowlist_coverage_fn fully_checked, void *coverage_data,
                            const struct string_list *incomplete);

/* Frees everything; an unfinished update writes nothing. */
void allowlist_update_release(struct allowlist_update *update);

#endif
