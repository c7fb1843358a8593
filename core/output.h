/*
 * output.h - report writers: text, json, sarif, github.
 */
#ifndef SANDLINT_OUTPUT_H
#define SANDLINT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "finding.h"
#include "registry.h"

enum output_format {
    FORMAT_TEXT = 0,
    FORMAT_JSON,
    FORMAT_SARIF,
    FORMAT_GITHUB
};

struct report {
    const struct registry *registry;
    const struct finding_list *findings;  /* sorted */
    size_t files, services;
    size_t errors, warnings, suppressed;
    const char *root;           /* absolute root directory */
    bool color;                 /* text only */
};

/* Parses "text", "json", "sarif", "github"; -1 when unknown. */
int output_parse_format(const char *name);

/* Counts errors/warnings/suppressed of report->findings into report. */
void report_count(struct report *report);

void output_text(FILE *out, const struct report *report);
void output_json(FILE *out, const struct report *report);
void output_sarif(FILE *out, const struct report *report);
void output_github(FILE *out, const struct report *report);

/* The one-line summary ("2 errors, 1 warning in 3 files (4 services)"),
 * for stderr.  Returns a malloc'd string. */
char *report_summary(const struct report *report);

#endif
