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
                         const char *root, bool color, bool show_accepted,
                         struct allowlist_update *update)
{
    memset(stream, 0, sizeof(*stream));
    stream->out = out;
    stream->writer = output_writer(format);
    stream->report.registry = registry;
    stream->report.config = config;
    stream->report.config_display = config_display;
    if (format == FORMAT_SARIF || format == FORMAT_GITLAB) {
        /* Hints and justifications name the configuration: not by a path
         * out of the root (output_portable_path). */
        stream->portable_config = output_portable_path(config_display);
        stream->report.config_display = stream->portable_config;
    }
    stream->report.root = root;
    stream->report.color = color;
    stream->report.show_accepted = show_accepted;
    stream->config = config;
    stream->update = update;
    allowlist_index_build(&stream->index, config, registry);
    stream->hold = config->entry_count > 0 || update != NULL;
    if (!stream->hold) {
        stream->writer->begin(out, &stream->report);
        stream->begun = true;
    }
}

void report_stream_set_coverage(struct report_stream *stream,
                                const struct allowlist_coverage *coverage)
{
    stream->coverage = coverage;
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
    allowlist_incomplete_add(&stream->incomplete, result);
    finding_set_sort(&result->findings, stream->report.registry);
    allowlist_apply(result, stream->config, &stream->index, stream->report.registry);
    if (stream->hold)
        hold(stream, result);
    else
        output_write_file(stream->out, stream->writer, &stream->report, result);
}

/* The held results as the edited configuration accepts them: every
 * finding back to the state its comments gave it, then the new entries
 * applied. */
static void apply_again(struct report_stream *stream)
{
    allowlist_index_release(&stream->index);
    allowlist_index_build(&stream->index, stream->config, stream->report.registry);
    for (size_t i = 0; i < stream->held_count; i++) {
        struct file_result *result = &stream->held[i];
        for (size_t f = 0; f < result->findings.count; f++) {
            struct finding *finding = &result->findings.items[f];
            if (!finding_allowlisted(finding))
                continue;
            finding->allowlist_entry = FINDING_NONE;
            if (finding->status != STATUS_SUPPRESSED)
                finding->status = finding->severity == SL_SEVERITY_ERROR ? STATUS_FAIL
                                                                        : STATUS_WARN;
        }
        allowlist_apply(result, stream->config, &stream->index, stream->report.registry);
    }
}

void report_stream_end(struct report_stream *stream, size_t files)
{
    stream->report.files = files;
    if (stream->hold) {
        if (stream->update != NULL) {
            if (allowlist_update_edit(stream->update, stream->config,
                                      stream->report.registry, &stream->index,
                                      stream->held, stream->held_count, stream->coverage,
                                      &stream->incomplete) == 0) {
                if (stream->update->changed) {
                    apply_again(stream);
                    stream->report.config_display = stream->update->root_display;
                }
            } else {
                stream->update_failed = true;
            }
        }
        struct file_result *stale = NULL;
        size_t stale_count = allowlist_report_stale(
            stream->config, stream->report.registry, stream->report.config_display,
            stream->coverage, &stream->incomplete, &stale);
        /* The configuration file's results go where its path sorts among
         * the files (all files are held in that order already). */
        size_t at = 0;
        while (stale_count > 0 && at < stream->held_count &&
               discover_compare(stream->held[at].display,
                                stream->report.config_display) < 0)
            at++;
        stream->writer->begin(stream->out, &stream->report);
        stream->begun = true;
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
    allowlist_index_release(&stream->index);
    allowlist_incomplete_release(&stream->incomplete);
    free(stream->portable_config);
    memset(stream, 0, sizeof(*stream));
}
