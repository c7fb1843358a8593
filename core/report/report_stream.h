/*
 * report_stream.h - turn each file's results, in file order, into the
 * report: sort the file's findings, apply the allowlist, count, write.
 *
 * Results stream straight to the writer, so memory does not grow with the
 * number of files - except when the configuration has allowlist entries
 * or --update-allowlist edits it: then the configuration file's
 * stale-entry warnings (known only at the end) must be written in their
 * place among the files, and the report must show the run after the edit,
 * so the files' results are held until the end.
 */
#ifndef SANDLINT_REPORT_STREAM_H
#define SANDLINT_REPORT_STREAM_H

#include <stdbool.h>
#include <stdio.h>

#include "allowlist.h"
#include "allowlist_update.h"
#include "config_file.h"
#include "discover.h"
#include "file_result.h"
#include "output.h"

struct report_stream {
    FILE *out;
    const struct output_writer *writer;
    struct report report;
    struct config *config;          /* borrowed; entries marked used; an
                                       update replaces its content */
    struct allowlist_index index;   /* config's entries */
    bool hold;                      /* collect and write at the end */
    bool begun;                     /* the writer's begin() was called */
    struct file_result *held;       /* owned, in file order */
    size_t held_count, held_capacity;
    struct allowlist_update *update;        /* --update-allowlist, or NULL */
    bool update_failed;             /* the edit was refused: the report
                                       shows the run as it was */
    const struct allowlist_coverage *coverage;  /* NULL: no entry is judged
                                                   stale (standard input,
                                                   --untrusted) */
    struct allowlist_incomplete incomplete;     /* what the run could not
                                                   check */
    bool plugin_failed;
    char *portable_config;          /* SARIF and GitLab: the configuration's
                                       name as they may write it; owned */
};

/* Starts the report (the writer's begin() unless holding).  registry,
 * config, config_display, root and update (NULL without
 * --update-allowlist) are borrowed for the stream's life. */
void report_stream_begin(struct report_stream *stream, FILE *out, int format,
                         const struct registry *registry,
                         struct config *config, const char *config_display,
                         const char *root, bool color, bool show_accepted,
                         struct allowlist_update *update);

/* Says what the run checks fully (before the first file; NULL: nothing,
 * the default).  Borrowed for the stream's life. */
void report_stream_set_coverage(struct report_stream *stream,
                                const struct allowlist_coverage *coverage);

/* Takes the results of the next file in order (moved out of *result). */
void report_stream_file(struct report_stream *stream, struct file_result *result);

/* Makes the update's edit (if any) and shows its outcome, adds the stale
 * entries, writes what was held, ends the report, whose summary counts
 * files (the number the search yielded). */
void report_stream_end(struct report_stream *stream, size_t files);

void report_stream_release(struct report_stream *stream);

#endif
