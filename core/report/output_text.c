/* output_text.c - compiler-style text report (see output.h). */
#include "config.h"

#include "output.h"

#include "terminal.h"

#include <string.h>


#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define MAGENTA "\033[1;35m"
#define CYAN "\033[36m"
#define DIM "\033[2m"
#define RESET "\033[0m"

static void write_safe(FILE *out, const char *text, size_t length)
{
    terminal_write(out, text, length);
}

static void write_safe_cstring(FILE *out, const char *text)
{
    terminal_write(out, text, strlen(text));
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
                         const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    const bool color = report->color;
    bool error = finding->status == STATUS_FAIL;
    /* Accepted findings (--show-accepted) are notes: they fail nothing. */
    const char *label = view->accepted ? "note" : error ? "error" : "warning";
    if (color)
        fputs(BOLD, out);
    /* A path is the one thing from the input that starts a line: "./"
     * keeps a name such as "::error file=x::y" from reading as a workflow
     * command in a CI log. */
    terminal_write_line_start(out, view->file->display, strlen(view->file->display), "./");
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
        fputs(view->accepted ? CYAN : error ? RED : MAGENTA, out);
    fputs(label, out);
    if (color)
        fputs(RESET, out);
    fputs(": ", out);
    write_safe_cstring(out, view->message);
    fputs(" ", out);
    if (color)
        fputs(DIM, out);
    fprintf(out, "[%s]", view->rule->rule.code);
    if (color)
        fputs(RESET, out);
    if (view->acceptance == ACCEPTED_IN_SOURCE) {
        fputs(" (suppressed: ", out);
        write_safe_cstring(out, view->justification);
        fputs(")", out);
    }
    fputs("\n", out);
    if (view->hint != NULL) {
        fputs("    ", out);
        if (color)
            fputs(CYAN, out);
        fputs("hint:", out);
        if (color)
            fputs(RESET, out);
        fputs(" ", out);
        write_safe(out, view->hint, view->hint_length);
        fputs("\n", out);
    }
}

const struct output_writer output_text_writer = {
    text_begin, text_finding, text_end, true,
};
