/*
 * output.h - the report: formats, what a finding shows, counting, and the
 * writers (text, json, sarif, github).
 *
 * Writers stream: begin(), then finding() for each finding in report order
 * (file, line, column, rule), then end().  What a finding shows - its
 * severity after the allowlist, its message and hint, why it is accepted -
 * is derived once per write from its facts and state (finding_view), so no
 * stage before the report ever rewrites a finding's text.
 */
#ifndef SANDLINT_OUTPUT_H
#define SANDLINT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config_file.h"
#include "file_result.h"
#include "registry.h"

enum output_format {
    FORMAT_TEXT = 0,
    FORMAT_JSON,
    FORMAT_SARIF,
    FORMAT_GITHUB,
    FORMAT_GITLAB
};

struct report {
    const struct registry *registry;
    const struct config *config;    /* allowlist entries named in hints */
    const char *config_display;     /* config path relative to the root */
    size_t files, services;         /* known before end() */
    size_t excluded;                /* Compose files skipped on purpose */
    size_t helm_templates;          /* chart templates counted, not read */
    size_t errors, warnings;        /* failing, and warning (not accepted) */
    size_t allowlisted, suppressed; /* accepted by an entry, by a comment */
    size_t written;                 /* findings handed to finding() so far */
    const char *root;               /* absolute root directory */
    bool color;                     /* text only */
    bool show_accepted;             /* text and github print accepted ones */
};

/* Whether a finding was accepted: allowlisted or suppressed.  text and
 * github leave accepted findings out unless --show-accepted. */
bool finding_accepted(const struct finding *finding);

enum acceptance {
    ACCEPTED_NOT = 0,
    ACCEPTED_IN_SOURCE,             /* a suppression comment */
    ACCEPTED_EXTERNALLY             /* an allowlist entry */
};

/* What the report shows of one finding. */
struct finding_view {
    const struct finding *finding;
    const struct file_result *file;     /* display path, package */
    const struct rule_entry *rule;
    const char *plugin;                 /* name of the rule's plugin */
    int severity;                       /* after the allowlist */
    const char *status;                 /* "fail", "warn", "suppressed" */
    bool accepted;                      /* allowlisted or suppressed */
    char *message;                      /* owned */
    char *hint;                         /* owned; NULL when none */
    size_t hint_length;                 /* bytes (a key may hold any byte) */
    int acceptance;                     /* enum acceptance */
    char *justification;                /* owned; NULL when not accepted */
};

void finding_view_init(struct finding_view *view, const struct report *report,
                       const struct file_result *file,
                       const struct finding *finding);
void finding_view_release(struct finding_view *view);

struct output_writer {
    void (*begin)(FILE *out, const struct report *report);
    void (*finding)(FILE *out, const struct report *report,
                    const struct finding_view *view);
    void (*end)(FILE *out, const struct report *report);
    bool quiet_accepted;        /* leaves accepted findings out unless
                                   --show-accepted (text, github, gitlab) */
};

/* The security severity (GitHub's 0.1-10.0 scale, in tenths) of a rule's
 * findings: its own, or 7.0 for a rule whose findings are errors and 4.0
 * for one that warns. */
unsigned rule_score(const struct sl_rule *rule);

/* The security severity (in tenths) of a finding: its own when its rule
 * gave it one; medium (4.0) when it is a warning (an allowlisted finding
 * or a value that cannot be checked) of a rule that reports errors; else
 * its rule's. */
unsigned finding_score(const struct finding_view *view);

/* Parses "text", "json", "sarif", "github", "gitlab"; -1 when unknown. */
int output_parse_format(const char *name);

/* The name of a format (static). */
const char *output_format_name(int format);

/* The writer of a format (static). */
const struct output_writer *output_writer(int format);

/* Counts the findings of file into the report and hands each, in order,
 * to writer (accepted ones only when the writer shows them). */
void output_write_file(FILE *out, const struct output_writer *writer,
                       struct report *report, const struct file_result *file);

extern const struct output_writer output_text_writer;
extern const struct output_writer output_json_writer;
extern const struct output_writer output_sarif_writer;
extern const struct output_writer output_github_writer;
extern const struct output_writer output_gitlab_writer;

/*
 * A path of the report (relative to the root) as SARIF and GitLab write it:
 * itself, or, when it climbs out of the root ("../..."; a file operand or a
 * --config outside the root), its last component only - a relative path
 * out of the checkout spells out where the scanning machine keeps things,
 * which a report uploaded to code scanning must not hold (SPEC §9, §14).
 * Malloc'd.
 */
char *output_portable_path(const char *display);

/* The one-line summary ("2 errors, 1 warning in 3 files (4 services)"),
 * for stderr.  Returns a malloc'd string. */
char *report_summary(const struct report *report);

#endif
