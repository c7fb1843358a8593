/* output_json.c - the JSON report, schema 1 (see SPEC §9). */
#include "config.h"

#include "output.h"

#include "json_writer.h"
#include "sandlint/plugin.h"

static const char *severity_name(int severity)
{
    return severity == SL_SEVERITY_ERROR ? "error" : "warning";
}

static void write_finding(FILE *out, const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    const struct rule_entry *entry = view->rule;
    fputs("{\"rule\": ", out);
    json_write_cstring(out, entry->rule.code);
    fputs(", \"name\": ", out);
    json_write_cstring(out, entry->rule.name);
    fputs(", \"group\": ", out);
    json_write_cstring(out, entry->rule.group);
    fputs(", \"plugin\": ", out);
    json_write_cstring(out, view->plugin);
    fprintf(out, ", \"severity\": \"%s\", \"status\": \"%s\", \"allowlisted\": %s",
            severity_name(view->severity), view->status,
            finding_allowlisted(finding) ? "true" : "false");
    fputs(", \"package\": ", out);
    json_write_cstring(out, view->file->package);
    fputs(", \"file\": ", out);
    json_write_cstring(out, view->file->display);
    fputs(", \"line\": ", out);
    json_write_unsigned(out, finding->line, 1);
    fputs(", \"column\": ", out);
    json_write_unsigned(out, finding->column, 1);
    fputs(", \"end_line\": ", out);
    json_write_unsigned(out, finding->end_line, 1);
    fputs(", \"end_column\": ", out);
    json_write_unsigned(out, finding->end_column, 1);
    fputs(", \"service\": ", out);
    json_write_cstring(out, finding->service);
    fputs(", \"field\": ", out);
    json_write_cstring(out, finding->field);
    fputs(", \"value\": ", out);
    json_write_string(out, finding->value, finding->value_length);
    fputs(", \"key\": ", out);
    json_write_string(out, finding->key, finding->key_length);
    fputs(", \"message\": ", out);
    json_write_cstring(out, view->message);
    fputs(", \"hint\": ", out);
    json_write_string(out, view->hint, view->hint_length);
    fputs("}", out);
}

static void json_begin(FILE *out, const struct report *report)
{
    (void)report;
    fputs("{\"tool\": \"sandlint\", \"version\": ", out);
    json_write_cstring(out, PACKAGE_VERSION);
    fputs(", \"schema\": 1,\n \"findings\": [", out);
}

static void json_finding(FILE *out, const struct report *report,
                         const struct finding_view *view)
{
    fputs(report->written == 0 ? "\n  " : ",\n  ", out);
    write_finding(out, view);
}

static void json_end(FILE *out, const struct report *report)
{
    fprintf(out, "%s],\n \"summary\": {\"files\": %zu, \"services\": %zu, "
            "\"errors\": %zu, \"warnings\": %zu, \"suppressed\": %zu",
            report->written ? "\n " : "", report->files, report->services,
            report->errors, report->warnings + report->allowlisted,
            report->suppressed);
    /* Only when exclude skipped files, so other reports keep their form. */
    if (report->excluded != 0)
        fprintf(out, ", \"excluded\": %zu", report->excluded);
    if (report->helm_templates != 0)
        fprintf(out, ", \"helm_templates\": %zu", report->helm_templates);
    fputs("}}\n", out);
}

const struct output_writer output_json_writer = {
    json_begin, json_finding, json_end, false,
};
