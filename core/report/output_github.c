/* output_github.c - GitHub Actions workflow commands (SPEC §9). */
#include "config.h"

#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "terminal.h"

/* Escapes text for a workflow command: first as for a terminal (the log
 * shows it: no escape sequences, controls or bidi overrides get through),
 * then %, CR and LF always, and ':' and ',' inside properties (file=...,
 * title=...). */
static void write_escaped(FILE *out, const char *raw, size_t raw_length,
                          int property)
{
    char *text = terminal_escape(raw, raw_length);
    size_t length = strlen(text);
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        switch (c) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':':
            if (property) fputs("%3A", out); else putc(c, out);
            break;
        case ',':
            if (property) fputs("%2C", out); else putc(c, out);
            break;
        default:
            putc(c, out);
        }
    }
    free(text);
}

static void property(FILE *out, const char *text)
{
    write_escaped(out, text, strlen(text), 1);
}

static void github_begin(FILE *out, const struct report *report)
{
    (void)out;
    (void)report;
}

static void github_end(FILE *out, const struct report *report)
{
    (void)out;
    (void)report;
}

static void github_finding(FILE *out, const struct report *report,
                           const struct finding_view *view)
{
    (void)report;
    const struct finding *finding = view->finding;
    const struct sl_rule *rule = &view->rule->rule;
    /* Accepted findings (--show-accepted) are notices: they fail nothing. */
    fputs(view->accepted ? "::notice file="
          : finding->status == STATUS_FAIL ? "::error file=" : "::warning file=", out);
    property(out, view->file->display);
    if (finding->line != 0) {
        fprintf(out, ",line=%u", finding->line);
        if (finding->column != 0)
            fprintf(out, ",col=%u", finding->column);
        if (finding->end_line != 0 && finding->end_column != 0) {
            fprintf(out, ",endLine=%u", finding->end_line);
            /* GitHub takes endColumn only on single-line ranges. */
            if (finding->end_line == finding->line)
                fprintf(out, ",endColumn=%u", finding->end_column);
        }
    }
    fputs(",title=", out);
    property(out, rule->code);
    fputs(" ", out);
    property(out, rule->name);
    fputs("::", out);
    write_escaped(out, view->message, strlen(view->message), 0);
    fprintf(out, " [%s]", rule->code);
    if (view->hint != NULL) {
        fputs("%0A", out);
        write_escaped(out, view->hint, view->hint_length, 0);
    }
    fputs("\n", out);
}

const struct output_writer output_github_writer = {
    github_begin, github_finding, github_end, true,
};
