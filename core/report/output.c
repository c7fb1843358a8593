/* output.c - formats, what a finding shows, counting (see output.h). */
#include "config.h"

#include "output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "text_buffer.h"
#include "toml/toml_write.h"
#include "xalloc.h"

static const char *const format_names[] = { "text", "json", "sarif", "github",
                                            "gitlab" };

int output_parse_format(const char *name)
{
    for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
        if (strcmp(name, format_names[i]) == 0)
            return (int)i;
    return -1;
}

const char *output_format_name(int format)
{
    return format >= 0 && (size_t)format < sizeof(format_names) / sizeof(format_names[0])
               ? format_names[format] : "text";
}

const struct output_writer *output_writer(int format)
{
    switch (format) {
    case FORMAT_JSON: return &output_json_writer;
    case FORMAT_SARIF: return &output_sarif_writer;
    case FORMAT_GITHUB: return &output_github_writer;
    case FORMAT_GITLAB: return &output_gitlab_writer;
    default: return &output_text_writer;
    }
}

/* ------------------------------------------------------------------ */
/* what a finding shows                                                */
/* ------------------------------------------------------------------ */

static const char *status_name(int status)
{
    switch (status) {
    case STATUS_FAIL: return "fail";
    case STATUS_SUPPRESSED: return "suppressed";
    default: return "warn";
    }
}

static void add_entry_advice(struct text_buffer *out, const struct report *report,
                             const struct finding_view *view);

/* A rule's hint with its placeholders filled: '%k' the key, '%e' the
 * allowlist entry that would accept the finding, '%%' '%'. */
static void expand_hint(struct text_buffer *text, const char *hint,
                        const struct report *report, const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    for (const char *at = hint; *at != '\0'; at++) {
        if (at[0] == '%' && at[1] == 'k') {
            if (finding->key != NULL)
                text_buffer_add(text, finding->key, finding->key_length);
            at++;
        } else if (at[0] == '%' && at[1] == 'e') {
            if (finding->key != NULL)
                add_entry_advice(text, report, view);
            at++;
        } else if (at[0] == '%' && at[1] == '%') {
            text_buffer_add(text, "%", 1);
            at++;
        } else {
            text_buffer_add(text, at, 1);
        }
    }
}

/* The allowlist entry that would accept a finding, ready to paste into the
 * configuration in use: the one --update-allowlist would write, scoped to
 * the finding's file ("add './compose.yaml = web:privileged' under
 * [allowlist sandbox_privileges]"), or the TOML form for pyproject.toml.  A
 * file no scope can name (outside the root) gets its package's entry, and
 * without a package none: never one for '*'. */
static void add_entry_advice(struct text_buffer *out, const struct report *report,
                             const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    char *file_scope = allowlist_scope_of_file(view->file->display);
    const char *package = view->file->package;
    bool has_package = package != NULL && strcmp(package, "*") != 0;
    if (file_scope == NULL && !has_package) {
        /* Never an entry for every package. */
        text_buffer_add_string(out, "run with a --root that holds the file to allowlist it");
        return;
    }
    const char *scope = file_scope != NULL ? file_scope : package;
    const char *group = view->rule->rule.group;
    const struct config *config = report->config;
    text_buffer_add_string(out, "add '");
    if (config != NULL && config->format == CONFIG_TOML) {
        toml_write_key(out, scope, strlen(scope));
        text_buffer_add_string(out, " = [");
        toml_write_string(out, finding->key, finding->key_length);
        /* Repositories that keep inspect-evals-lint's table go on using it
         * for package entries; paths never go there. */
        bool inspect_table = file_scope == NULL && config->inspect_evals &&
                             !config->sandlint_table &&
                             view->rule->rule.group_code != NULL &&
                             strcmp(view->rule->rule.group_code, "IESC001") == 0;
        text_buffer_add_string(out, inspect_table ? "]' under [tool.inspect-evals-lint.allowlists."
                                            : "]' under [tool.sandlint.allowlists.");
        text_buffer_add_string(out, group);
        text_buffer_add_string(out, "]");
    } else {
        text_buffer_add_string(out, scope);
        text_buffer_add_string(out, " = ");
        text_buffer_add(out, finding->key, finding->key_length);
        text_buffer_add_string(out, "' under [allowlist ");
        text_buffer_add_string(out, group);
        text_buffer_add_string(out, "]");
    }
    free(file_scope);
}

/* The hint a report shows: for an allowlisted finding, where its entry
 * is; else the rule's own; else, for a finding with a key, how to fix or
 * allowlist it. */
static void derive_hint(struct finding_view *view, const struct report *report)
{
    const struct finding *finding = view->finding;
    struct text_buffer text = TEXT_BUFFER_INIT;
    if (finding_allowlisted(finding)) {
        const struct allowlist_entry *entry =
            &report->config->entries[finding->allowlist_entry];
        char *hint = xasprintf("allowlisted as '%s' for %s in %s:%u:%u; remove "
                               "the entry once the setting is gone",
                               entry->key.text, entry->scope.text,
                               report->config_display, entry->key.pos.line,
                               entry->key.pos.column);
        text_buffer_add_string(&text, hint);
        free(hint);
    } else if (finding->hint != NULL) {
        expand_hint(&text, finding->hint, report, view);
    } else if (finding->key != NULL) {
        /* As the rule reported it: a configured severity changes how much
         * the finding counts, not what it is. */
        text_buffer_add_string(&text, finding->reported_severity == SL_SEVERITY_ERROR
                             ? "remove the setting, or review the required "
                               "access and "
                             : "use a literal value so it can be checked, or "
                               "review every value it can take and ");
        add_entry_advice(&text, report, view);
    }
    view->hint = text.bytes;
    view->hint_length = text.length;
}

void finding_view_init(struct finding_view *view, const struct report *report,
                       const struct file_result *file,
                       const struct finding *finding)
{
    const struct registry *registry = report->registry;
    memset(view, 0, sizeof(*view));
    view->finding = finding;
    view->file = file;
    view->rule = &registry->rules[finding->rule];
    view->plugin = registry->plugins[view->rule->plugin].descriptor.name;
    view->severity = finding_effective_severity(finding);
    view->status = status_name(finding->status);
    view->accepted = finding_accepted(finding);
    view->message = finding_allowlisted(finding)
                        ? xasprintf("Allowlisted: %s", finding->message)
                        : xstrdup(finding->message);
    derive_hint(view, report);
    if (finding->comment != FINDING_NONE) {
        view->acceptance = ACCEPTED_IN_SOURCE;
        view->justification = xstrdup(file->comments[finding->comment].reason);
    } else if (finding_allowlisted(finding)) {
        const struct allowlist_entry *entry =
            &report->config->entries[finding->allowlist_entry];
        view->acceptance = ACCEPTED_EXTERNALLY;
        view->justification = xasprintf("allowlisted in %s:%u",
                                        report->config_display,
                                        entry->key.pos.line);
    }
}

void finding_view_release(struct finding_view *view)
{
    free(view->message);
    free(view->hint);
    free(view->justification);
    memset(view, 0, sizeof(*view));
}

unsigned rule_score(const struct sl_rule *rule)
{
    if (rule->security_severity > 0.0 && rule->security_severity <= 10.0)
        return (unsigned)(rule->security_severity * 10.0 + 0.5);
    return rule->default_severity == SL_SEVERITY_WARNING ? 40 : 70;
}

unsigned finding_score(const struct finding_view *view)
{
    if (view->finding->score != 0)
        return view->finding->score;
    unsigned rule = rule_score(&view->rule->rule);
    if (view->severity == SL_SEVERITY_WARNING && rule > 40)
        return 40;      /* warnings are medium */
    return rule;
}

/* ------------------------------------------------------------------ */
/* counting and writing                                                */
/* ------------------------------------------------------------------ */

bool finding_accepted(const struct finding *finding)
{
    return finding->status == STATUS_SUPPRESSED || finding_allowlisted(finding);
}

static void count_finding(struct report *report, const struct finding *finding)
{
    if (finding->status == STATUS_SUPPRESSED)
        report->suppressed++;
    else if (finding_allowlisted(finding))
        report->allowlisted++;
    else if (finding->status == STATUS_FAIL)
        report->errors++;
    else
        report->warnings++;
}

void output_write_file(FILE *out, const struct output_writer *writer,
                       struct report *report, const struct file_result *file)
{
    for (size_t i = 0; i < file->findings.count; i++) {
        const struct finding *finding = &file->findings.items[i];
        count_finding(report, finding);
        if (writer->quiet_accepted && !report->show_accepted && finding_accepted(finding))
            continue;
        struct finding_view view;
        finding_view_init(&view, report, file, finding);
        writer->finding(out, report, &view);
        finding_view_release(&view);
        report->written++;
    }
}

char *output_portable_path(const char *display)
{
    if (display == NULL)
        return NULL;
    bool climbs = display[0] == '/' || strcmp(display, "..") == 0 ||
                  strncmp(display, "../", 3) == 0;
    if (!climbs)
        return xstrdup(display);
    const char *slash = strrchr(display, '/');
    return xstrdup(slash != NULL && slash[1] != '\0' ? slash + 1 : "..");
}

static const char *plural(size_t count, const char *one, const char *many)
{
    return count == 1 ? one : many;
}

char *report_summary(const struct report *report)
{
    char *summary = xasprintf(
        "%zu %s, %zu %s in %zu %s (%zu %s)", report->errors,
        plural(report->errors, "error", "errors"), report->warnings,
        plural(report->warnings, "warning", "warnings"), report->files,
        plural(report->files, "file", "files"), report->services,
        plural(report->services, "service", "services"));
    if (report->excluded != 0) {
        char *longer = xasprintf("%s, %zu excluded", summary, report->excluded);
        free(summary);
        summary = longer;
    }
    if (report->helm_templates != 0) {
        /* Template text is YAML only once Helm renders it (SPEC §17). */
        char *longer = xasprintf("%s, %zu Helm chart %s not checked: render them with "
                                 "`helm template ... | sandlint -`", summary,
                                 report->helm_templates,
                                 plural(report->helm_templates, "template", "templates"));
        free(summary);
        summary = longer;
    }
    if (report->allowlisted != 0) {
        char *longer = xasprintf("%s, %zu allowlisted", summary, report->allowlisted);
        free(summary);
        summary = longer;
    }
    if (report->suppressed != 0) {
        char *longer = xasprintf("%s, %zu suppressed", summary,
                                 report->suppressed);
        free(summary);
        summary = longer;
    }
    return summary;
}
