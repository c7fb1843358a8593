/* output_json.c - the JSON report, schema 1 (see SPEC §9). */
#include "config.h"

#include "output.h"

#include "json_writer.h"
#include "sandlint/plugin.h"

static const char *severity_name(int severity)
{
    return severity == SL_SEVERITY_ERROR ? "error" : "warning";
}

static const char *status_name(int status)
{
    switch (status) {
    case STATUS_FAIL: return "fail";
    case STATUS_SUPPRESSED: return "suppressed";
    default: return "warn";
    }
}

static void write_finding(FILE *out, const struct report *report,
                          const struct finding *finding)
{
    const struct rule_entry *entry = &report->registry->rules[finding->rule];
    const struct loaded_plugin *plugin = &report->registry->plugins[entry->plugin];
    fputs("{\"rule\": ", out);
    json_write_cstring(out, entry->rule.code);
    fputs(", \"name\": ", out);
    json_write_cstring(out, entry->rule.name);
    fputs(", \"group\": ", out);
    json_write_cstring(out, entry->rule.group);
    fputs(", \"plugin\": ", out);
    json_write_cstring(out, plugin->descriptor.name);
    fprintf(out, ", \"severity\": \"%s\", \"status\": \"%s\", \"allowlisted\": %s",
            severity_name(finding->severity), status_name(finding->status),
            finding->allowlisted ? "true" : "false");
    fputs(", \"package\": ", out);
    json_write_cstring(out, finding->package);
    fputs(", \"file\": ", out);
    json_write_cstring(out, finding->file);
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
    json_write_cstring(out, finding->message);
    fputs(", \"hint\": ", out);
    json_write_cstring(out, finding->hint);
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
                         const struct finding *finding)
{
    fputs(report->written == 0 ? "\n  " : ",\n  ", out);
    write_finding(out, report, finding);
}

static void json_end(FILE *out, const struct report *report)
{
    fprintf(out, "%s],\n \"summary\": {\"files\": %zu, \"services\": %zu, "
            "\"errors\": %zu, \"warnings\": %zu, \"suppressed\": %zu}}\n",
            report->written ? "\n " : "", report->files, report->services,
            report->errors, report->warnings, report->suppressed);
}

const struct output_writer output_json_writer = {
    json_begin, json_finding, json_end,
};
