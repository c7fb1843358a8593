/*
 * output.h - report writers: text, json, sarif, github.
 *
 * Writers stream: begin(), then finding() for each finding in report order
 * (file, line, column, rule), then end().  The caller counts each finding
 * into the report (report_count_finding) before handing it over, so end()
 * can print the totals.
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
    size_t files, services;     /* known before end() */
    size_t errors, warnings, suppressed;
    size_t written;             /* findings handed to finding() so far */
    const char *root;           /* absolute root directory */
    bool color;                 /* text only */
};

struct output_writer {
    void (*begin)(FILE *out, const struct report *report);
    void (*finding)(FILE *out, const struct report *report,
                    const struct finding *finding);
    void (*end)(FILE *out, const struct report *report);
};

/* Parses "text", "json", "sarif", "github"; -1 when unknown. */
int output_parse_format(const char *name);

/* The writer of a format (static). */
const struct output_writer *output_writer(int format);

/* Adds one finding to the report's error/warning/suppressed counts. */
void report_count_finding(struct report *report, const struct finding *finding);

extern const struct output_writer output_text_writer;
extern const struct output_writer output_json_writer;
extern const struct output_writer output_sarif_writer;
extern const struct output_writer output_github_writer;

/* The one-line summary ("2 errors, 1 warning in 3 files (4 services)"),
 * for stderr.  Returns a malloc'd string. */
char *report_summary(const struct report *report);

#endif
