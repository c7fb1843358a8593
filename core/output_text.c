/* output_text.c - compiler-style text report (see output.h). */
#include "config.h"

#include "output.h"

#include <string.h>


#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define MAGENTA "\033[1;35m"
#define CYAN "\033[36m"
#define DIM "\033[2m"
#define RESET "\033[0m"

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
                         const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    const bool color = report->color;
    if (finding->status == STATUS_SUPPRESSED)
        return;
    bool error = finding->status == STATUS_FAIL;
    if (color)
        fputs(BOLD, out);
    write_safe_cstring(out, view->file->display);
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
    write_safe_cstring(out, view->message);
    fputs(" ", out);
    if (color)
        fputs(DIM, out);
    fprintf(out, "[%s]", view->rule->rule.code);
    if (color)
        fputs(RESET, out);
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
    text_begin, text_finding, text_end,
};
