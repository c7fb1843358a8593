/* report_stream.c - results to report, in file order (see report_stream.h). */
#include "config.h"

#include "report_stream.h"

#include <stdlib.h>
#include <string.h>

#include "allowlist.h"
#include "xalloc.h"

void report_stream_begin(struct report_stream *stream, FILE *out, int format,
                         const struct registry *registry,
                         struct config *config, const char *config_display,
                         const char *root, bool color, bool show_accepted)
{
    memset(stream, 0, sizeof(*stream));
    stream->out = out;
    stream->writer = output_writer(format);
    stream->report.registry = registry;
    stream->report.config = config;
    stream->report.config_display = config_display;
    stream->report.root = root;
    stream->report.color = color;
    stream->report.show_accepted = show_accepted;
    stream->config = config;
    stream->hold = config->entry_count > 0;
    if (!stream->hold)
        stream->writer->begin(out, &stream->report);
}

void report_stream_set_coverage(struct report_stream *stream,
                                allowlist_coverage_fn fully_checked, void *data)
{
    stream->fully_checked = fully_checked;
    stream->coverage_data = data;
}

static void hold(struct report_stream *stream, struct file_result *result)
{
    if (stream->held_count == stream->held_capacity) {
        stream->held_capacity = stream->held_capacity ? stream->held_capacity * 2 : 64;
        stream->held = xrealloc(stream->held, stream->held_capacity,
                                sizeof(*stream->held));
    }
    struct file_result *slot = &stream->held[stream->held_count++];
    file_result_init(slot, NULL, NULL);
    file_result_move(slot, result);
}

void report_stream_file(struct report_stream *stream, struct file_result *result)
{
    stream->report.services += result->services;
    stream->plugin_failed |= result->plugin_failed;
    if (result->package != NULL && result->incomplete)
        string_list_add_unique(&stream->incomplete, result->package);
    finding_set_sort(&result->findings, stream->report.registry);
    allowlist_apply(result, stream->config, stream->report.registry);
    if (stream->update != NULL)
        allowlist_update_collect(stream->update, result, stream->report.registry,
                                 stream->config);
    if (stream->hold)
        hold(stream, result);
    else
        output_write_file(stream->out, stream->writer, &stream->report, result);
}

void report_stream_end(struct report_stream *stream, size_t files)
{
    stream->report.files = files;
    if (stream->hold) {
        struct file_result *stale = NULL;
        size_t stale_count = allowlist_report_stale(
            stream->config, stream->report.registry,
            stream->report.config_display, stream->fully_checked,
            stream->coverage_data, &stream->incomplete, &stale);
        /* The configuration file's results go where its path sorts among
         * the files (all files are held in that order already). */
        size_t at = 0;
        while (stale_count > 0 && at < stream->held_count &&
               discover_compare(stream->held[at].display,
                                stream->report.config_display) < 0)
            at++;
        stream->writer->begin(stream->out, &stream->report);
        for (size_t i = 0; i <= stream->held_count; i++) {
            if (i == at)
                for (size_t s = 0; s < stale_count; s++)
                    output_write_file(stream->out, stream->writer,
                                      &stream->report, &stale[s]);
            if (i < stream->held_count)
                output_write_file(stream->out, stream->writer, &stream->report,
                                  &stream->held[i]);
        }
        for (size_t s = 0; s < stale_count; s++)
            file_result_release(&stale[s]);
        free(stale);
    }
    stream->writer->end(stream->out, &stream->report);
}

void report_stream_release(struct report_stream *stream)
{
    for (size_t i = 0; i < stream->held_count; i++)
        file_result_release(&stream->held[i]);
    free(stream->held);
    string_list_release(&stream->incomplete);
    memset(stream, 0, sizeof(*stream));
}
