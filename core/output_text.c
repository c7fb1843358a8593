/* output_text.c - compiler-style text report (see output.h). */
#include "config.h"

#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "xalloc.h"

#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define MAGENTA "\033[1;35m"
#define CYAN "\033[36m"
#define DIM "\033[2m"
#define RESET "\033[0m"

int output_parse_format(const char *name)
{
    static const char *const names[] = { "text", "json", "sarif", "github" };
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const struct output_writer *output_writer(int format)
{
    switch (format) {
    case FORMAT_JSON: return &output_json_writer;
    case FORMAT_SARIF: return &output_sarif_writer;
    case FORMAT_GITHUB: return &output_github_writer;
    default: return &output_text_writer;
    }
}

void report_count_finding(struct report *report, const struct finding *finding)
{
    if (finding->status == STATUS_SUPPRESSED)
        report->suppressed++;
    else if (finding->status == STATUS_FAIL)
        report->errors++;
    else
        report->warnings++;
}

/* Writes bytes that may hold control characters or NUL so that a terminal
 * shows them harmlessly (a hostile value must not move the cursor). */
static void write_safe(FILE *out, const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            putc(c, out);
    }
}

static void write_safe_cstring(FILE *out, const char *text)
{
    write_safe(out, text, strlen(text));
}

static void text_begin(FILE *out, const struct report *report)
{
    (void)out;
    (void)report;
}

static void text_end(FILE *out, const struct report *report)
{
    (void)out;
    (void)report;
}

static void text_finding(FILE *out, const struct report *report,
                         const struct finding *finding)
{
    const bool color = report->color;
    if (finding->status == STATUS_SUPPRESSED)
        return;
    const struct rule_entry *rule = &report->registry->rules[finding->rule];
    bool error = finding->status == STATUS_FAIL;
    if (color)
        fputs(BOLD, out);
    write_safe_cstring(out, finding->file);
    if (finding->line != 0) {
        fprintf(out, ":%u", finding->line);
        if (finding->column != 0)
            fprintf(out, ":%u", finding->column);
    }
    fputs(":", out);
    if (color)
        fputs(RESET, out);
    fputs(" ", out);
    if (color)
        fputs(error ? RED : MAGENTA, out);
    fputs(error ? "error" : "warning", out);
    if (color)
        fputs(RESET, out);
    fputs(": ", out);
    write_safe_cstring(out, finding->message);
    fputs(" ", out);
    if (color)
        fputs(DIM, out);
    fprintf(out, "[%s]", rule->rule.code);
    if (color)
        fputs(RESET, out);
    fputs("\n", out);
    if (finding->hint != NULL) {
        fputs("    ", out);
        if (color)
            fputs(CYAN, out);
        fputs("hint:", out);
        if (color)
            fputs(RESET, out);
        fputs(" ", out);
        write_safe_cstring(out, finding->hint);
        fputs("\n", out);
    }
}

const struct output_writer output_text_writer = {
    text_begin, text_finding, text_end,
};

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
    if (report->suppressed != 0) {
        char *longer = xasprintf("%s, %zu suppressed", summary,
                                 report->suppressed);
        free(summary);
        summary = longer;
    }
    return summary;
}
