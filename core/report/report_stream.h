/*
 * report_stream.h - turn each file's results, in file order, into the
 * report: sort the file's findings, apply the allowlist, count, write.
 *
 * Results stream straight to the writer, so memory does not grow with the
 * number of files - except when the configuration has allowlist entries:
 * then the configuration file's stale-entry warnings (known only at the
 * end) must be written in their place among the files, and the files'
 * results are held until the end.
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
#include "string_list.h"

struct report_stream {
    FILE *out;
    const struct output_writer *writer;
    struct report report;
    struct config *config;          /* borrowed; entries marked used */
    bool hold;                      /* collect and write at the end */
    struct file_result *held;       /* owned, in file order */
    size_t held_count, held_capacity;
    struct allowlist_update *update;        /* --update-allowlist, or NULL */
    allowlist_coverage_fn fully_checked;    /* NULL: no package is */
    void *coverage_data;
    struct string_list incomplete;  /* packages with an unread file */
    bool plugin_failed;
};

/* Starts the report (the writer's begin() unless holding).  registry,
 * config, config_display and root are borrowed for the stream's life. */
void report_stream_begin(struct report_stream *stream, FILE *out, int format,
                         const struct registry *registry,
                         struct config *config, const char *config_display,
                         const char *root, bool color, bool show_accepted);

/* Says which packages the run checks fully (before the first file). */
void report_stream_set_coverage(struct report_stream *stream,
                                allowlist_coverage_fn fully_checked, void *data);

/* Takes the results of the next file in order (moved out of *result). */
void report_stream_file(struct report_stream *stream, struct file_result *result);

/* Adds the stale entries, writes what was held, ends the report, whose
 * summary counts files (the number the search yielded). */
void report_stream_end(struct report_stream *stream, size_t files);

void report_stream_release(struct report_stream *stream);

#endif
