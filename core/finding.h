/*
 * finding.h - the findings of a run and the list that holds them.
 *
 * A finding owns all of its strings (malloc).  value and key may hold any
 * byte, so they carry lengths; the other strings are NUL-terminated.
 */
#ifndef SANDLINT_FINDING_H
#define SANDLINT_FINDING_H

#include <stdbool.h>
#include <stddef.h>

enum finding_status {
    STATUS_FAIL = 0,
    STATUS_WARN = 1,
    STATUS_SUPPRESSED = 2
};

enum suppression_kind {
    SUPPRESSION_NONE = 0,
    SUPPRESSION_COMMENT = 1,    /* a "# sandlint: ignore[...]" comment */
    SUPPRESSION_ALLOWLIST = 2   /* an allowlist entry (status warn) */
};

struct finding {
    size_t rule;                /* index into the rule registry */
    int severity;               /* SL_SEVERITY_ERROR or SL_SEVERITY_WARNING */
    int status;                 /* enum finding_status */
    int suppression;            /* enum suppression_kind */
    bool allowlisted;
    char *package;              /* NULL when the file belongs to none */
    char *file;                 /* display path */
    unsigned line, column;      /* 1-based; 0 = none */
    unsigned end_line, end_column;
    char *service;              /* NULL for file-level findings */
    char *field;                /* NULL for file-level findings */
    char *value;                /* NULL when the setting has no value */
    size_t value_length;
    char *key;                  /* NULL for file-level findings */
    size_t key_length;
    char *message;
    char *hint;                 /* may be NULL */
    char *suppression_reason;   /* comment reason or allowlist source */
};

struct finding_list {
    struct finding *items;      /* owned */
    size_t count, capacity;
};

void finding_list_init(struct finding_list *list);
/* Frees every finding and the array. */
void finding_list_release(struct finding_list *list);
/* Appends a zeroed finding and returns it; aborts on out of memory. */
struct finding *finding_list_add(struct finding_list *list);
/* Moves every finding of from to the end of to; from is left empty. */
void finding_list_take(struct finding_list *to, struct finding_list *from);
/* Frees the strings of one finding. */
void finding_release(struct finding *finding);
/* Sorts by file (component by component, as discover_compare), line,
 * column, rule code, key (the report order). */
void finding_list_sort(struct finding_list *list,
                       const char *(*rule_code)(size_t rule));

#endif
