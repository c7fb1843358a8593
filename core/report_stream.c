/* report_stream.c - results to report, in file order (see report_stream.h). */
#include "config.h"

#include "report_stream.h"

#include <string.h>

#include "allowlist.h"

static const struct registry *sort_registry;

static const char *sort_rule_code(size_t rule)
{
    return registry_rule_code(sort_registry, rule);
}

static void write_all(struct report_stream *stream, struct finding_list *findings)
{
    for (size_t i = 0; i < findings->count; i++) {
        const struct finding *finding = &findings->items[i];
        report_count_finding(&stream->report, finding);
        stream->writer->finding(stream->out, &stream->report, finding);
        stream->report.written++;
    }
}

void report_stream_begin(struct report_stream *stream, FILE *out, int format,
                         const struct registry *registry,
                         struct config *config, const char *config_display,
                         const char *root, bool color)
{
    memset(stream, 0, sizeof(*stream));
    stream->out = out;
    stream->writer = output_writer(format);
    stream->report.registry = registry;
    stream->report.root = root;
    stream->report.color = color;
    stream->config = config;
    stream->config_display = config_display;
    stream->hold = config->entry_count > 0;
    finding_list_init(&stream->held);
    sort_registry = registry;
    if (!stream->hold)
        stream->writer->begin(out, &stream->report);
}

void report_stream_file(struct report_stream *stream,
                        const struct discovered_file *file,
                        struct file_result *result)
{
    stream->report.services += result->services;
    stream->plugin_failed |= result->plugin_failed;
    if (file->package != NULL) {
        string_list_add_unique(&stream->checked, file->package);
        if (result->incomplete)
            string_list_add_unique(&stream->incomplete, file->package);
    }
    finding_list_sort(&result->findings, sort_rule_code);
    allowlist_apply(&result->findings, stream->config, stream->report.registry,
                    stream->config_display);
    if (stream->hold)
        finding_list_take(&stream->held, &result->findings);
    else
        write_all(stream, &result->findings);
}

void report_stream_end(struct report_stream *stream, size_t files)
{
    stream->report.files = files;
    if (stream->hold) {
        allowlist_report_stale(&stream->held, stream->config,
                               stream->report.registry, stream->config_display,
                               &stream->checked, &stream->incomplete);
        finding_list_sort(&stream->held, sort_rule_code);
        stream->writer->begin(stream->out, &stream->report);
        write_all(stream, &stream->held);
    }
    stream->writer->end(stream->out, &stream->report);
}

void report_stream_release(struct report_stream *stream)
{
    finding_list_release(&stream->held);
    string_list_release(&stream->checked);
    string_list_release(&stream->incomplete);
}
