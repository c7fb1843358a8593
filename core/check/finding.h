/*
 * finding.h - a finding, the one way to make one, and the set of one file.
 *
 * A finding is made once, by finding_set_add(), whether a plugin reported
 * it or the core did, and its facts never change afterwards: rule,
 * severity, position, service, field, value, key, message and the hint the
 * plugin wrote.  Later stages change only its state: a suppression comment
 * or an allowlist entry sets status and says which comment or entry
 * accepted it.  The text a report shows (an "Allowlisted: " message, the
 * standard hint naming the key) is derived from facts and state when the
 * finding is written (output.h), never stored.
 *
 * Which file a finding belongs to is not part of it: findings live in the
 * file result (file_result.h) that names the file and package once.
 *
 * A finding owns its strings (malloc).  value and key may hold any byte, so
 * they carry lengths; the other strings are NUL-terminated.
 */
#ifndef SANDLINT_FINDING_H
#define SANDLINT_FINDING_H

#include <stdbool.h>
#include <stddef.h>

struct registry;

enum finding_status {
    STATUS_FAIL = 0,
    STATUS_WARN = 1,
    STATUS_SUPPRESSED = 2
};

/* No allowlist entry or suppression comment (finding.allowlist_entry,
 * finding.comment). */
#define FINDING_NONE ((size_t)-1)

struct finding {
    /* facts, fixed when the finding is made */
    size_t rule;                /* index into the rule registry */
    int severity;               /* SL_SEVERITY_ERROR or _WARNING: as
                                   reported, or as configured for the rule */
    int reported_severity;      /* as the rule reported it; differs from
                                   severity only where the configuration
                                   changed it.  The standard hint follows
                                   this one (an error lowered to a warning
                                   still asks to remove the setting) */
    unsigned line, column;      /* 1-based; 0 = none */
    unsigned end_line, end_column;
    char *service;              /* NULL for file- and document-level findings */
    char *field;                /* NULL for file-level findings */
    char *value;                /* NULL when the setting has no value */
    size_t value_length;
    char *key;                  /* NULL when the finding has no key */
    size_t key_length;
    char *message;
    char *hint;                 /* as written by the rule, '%k' standing for
                                   the key and '%%' for '%'; NULL: the
                                   standard hint is derived when written */
    unsigned score;             /* security severity in tenths (0-100);
                                   0: the rule's */
    /* state, changed by suppression comments and the allowlist */
    int status;                 /* enum finding_status */
    size_t comment;             /* index of the suppression comment of the
                                   file that covers it, or FINDING_NONE */
    size_t allowlist_entry;     /* index of the configuration's allowlist
                                   entry that lists it, or FINDING_NONE */
};

/* Whether an allowlist entry lists the finding. */
static inline bool finding_allowlisted(const struct finding *finding)
{
    return finding->allowlist_entry != FINDING_NONE;
}

/* The severity a report shows: an allowlisted finding is a warning. */
int finding_effective_severity(const struct finding *finding);

/*
 * What a finding is made of.  Every string is borrowed and copied by
 * finding_set_add().  With service set, the key is built from service,
 * field and value ("service:field" or "service:field:value"); without
 * service, key (when not NULL) is taken as given: a finding about a whole
 * document (ABI 1.1) has a field and the key "field[:value]".
 */
struct finding_spec {
    size_t rule;
    int severity;               /* SL_SEVERITY_ERROR or SL_SEVERITY_WARNING */
    unsigned line, column, end_line, end_column;
    const char *service;        /* NULL: a file-level finding */
    size_t service_length;
    const char *field;          /* required with service; NULL for
                                   file-level findings */
    const char *value;          /* NULL: the setting has no value */
    size_t value_length;
    const char *key;            /* only without service; may be NULL */
    size_t key_length;
    const char *message;        /* required */
    const char *hint;           /* NULL: derived when written */
    unsigned score;             /* security severity in tenths; 0: the rule's */
    bool at_rule_default;       /* a plugin's finding at its rule's default
                                   severity (it asked for the default, or
                                   named the default error itself): a
                                   configured severity replaces it.  A
                                   plugin's explicit warning ("cannot be
                                   checked") keeps its severity.  Findings
                                   of the core's own codes take their
                                   configured severity whatever this says */
};

/* Most findings a file keeps, and most bytes of finding text: past either,
 * one error says the rest were not reported (a few lines of merged
 * anchors can otherwise multiply into gigabytes). */
#define FINDING_SET_MAX_COUNT 10000
#define FINDING_SET_MAX_BYTES (64u * 1024 * 1024)

/*
 * The findings of one file, with one finding per rule, key and position
 * (SPEC §17: findings are one only when rule, key, file, line and column
 * are the same - an alias or a setting seen twice; the same key at another
 * position is another finding): a second finding of the identity of an
 * earlier one is dropped, except that an error replaces an earlier warning
 * (a warning never hides an error).  Findings without a field (file-level
 * diagnostics, stale allowlist entries) are all kept.
 */
struct finding_set {
    struct finding *items;      /* owned */
    size_t count, capacity;
    size_t *slots;              /* dedupe index: item index + 1; 0 = empty */
    size_t slot_capacity, slot_used;
    size_t bytes;               /* string bytes held */
    bool truncated;             /* the limit was reached */
    size_t truncation_rule;     /* rule of the "not reported" error */
};

/*
 * Severities configured per rule (`severity = error|warning` under
 * [rule CODE]: rule_entry.severity, rule_options.h).  After this call,
 * finding_set_add() makes each finding with the severity configured for its
 * rule when the finding is at its rule's default (at_rule_default) or
 * belongs to a core code; its status follows.  The severity is a fact of
 * the finding from then on, in the worker that made it as in the report.
 * registry is borrowed for the rest of the process (the driver's, set once
 * before any file is checked, so that forked workers inherit it); NULL, the
 * state before any call, configures nothing.
 */
void finding_use_configured_severities(const struct registry *registry);

void finding_set_init(struct finding_set *set);
/* Frees every finding and the set's memory; the set is empty afterwards. */
void finding_set_release(struct finding_set *set);

/*
 * Makes a finding from spec (status fail for an error, warn for a warning)
 * and adds it, unless an earlier finding of a setting has its rule and
 * key.  Past the
 * set's limits it adds instead, once, an error of rule
 * set->truncation_rule saying the rest were not reported.  Returns the
 * finding added or kept, or NULL when it was dropped.
 */
struct finding *finding_set_add(struct finding_set *set,
                                const struct finding_spec *spec);

/* Appends an already made finding, taking its strings (used by the result
 * codec; no dedupe, no limits beyond the caller's). */
struct finding *finding_set_append(struct finding_set *set);

/* Frees the strings of one finding. */
void finding_release(struct finding *finding);

/* Sorts by line, column, rule code, key and message: the report's order
 * within a file. */
void finding_set_sort(struct finding_set *set, const struct registry *registry);

#endif
