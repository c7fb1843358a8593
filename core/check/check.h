/*
 * check.h - run the enabled rules over the model of one file.
 *
 * The front-end of the file's kind (front_ends.h) reads each document and
 * hands over its steps: structure warnings (SPEC §7), the document (every
 * enabled rule's check_document), each service or pod spec (check_service,
 * for rules of ABI 1.0-1.2), each scope of the container model
 * (check_scope and check_container, ABI 1.3).  What plugins report becomes
 * findings through the one constructor, finding_set_add() (one finding per
 * rule and key).
 */
#ifndef SANDLINT_CHECK_H
#define SANDLINT_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "comment_list.h"

#include "container_model.h"
#include "file_result.h"
#include "registry.h"
#include "resolved_use.h"
#include "string_list.h"
#include "yaml_model.h"

/* One file being checked: the rules to run and what they found. */
struct file_check {
    const struct registry *registry;
    struct file_result result;  /* owned; display and package copied */
    unsigned candidates;        /* enum file_candidate: the kinds discovery
                                   allows (file_kind.h); 0: Compose */
    int kind;                   /* SL_KIND_* decided by file_check_run; 0
                                   before, or when the file was skipped */
    struct model_file_state front; /* what the front-ends remember across
                                   the file's documents */
    struct model_sink sink;     /* takes the front-ends' steps */
    /* The values resolved from a project's variables (SL_VALUE_RESOLVED)
     * that the rules of the scope being checked read (resolved_use.h):
     * a finding about one says what it was written as; one no rule
     * reports stays the "cannot be checked" warning (SPEC §17). */
    struct resolved_uses resolved;
    const struct sl_value *only_about; /* a rule runs again for this value
                                   alone: other findings are dropped */
};

/* The plugin-visible context of one callback (opaque in plugin.h). */
struct sl_context {
    struct file_check *check;
    size_t rule;                /* registry index of the running rule */
    const struct sl_node *root;
    const char *service;        /* NULL in check_document */
    size_t service_length;
    char *error;                /* set_error() message; owned */
    int kind;                   /* SL_KIND_* of the document or service */
    struct string_list owned;   /* texts the host handed the callback
                                   (object_service()); freed after it */
};

void file_check_init(struct file_check *check, const struct registry *registry,
                     const char *display, const char *package);
/* Frees the result still owned. */
void file_check_release(struct file_check *check);

/*
 * Decides the file's kind from check->candidates and the model
 * (file_kind_decide), then runs every enabled rule that checks that kind
 * over every document of model.  A file of no kind is skipped: the result
 * is marked skipped and nothing runs.  The comments of shell text in the
 * file's scalars (CI steps) are appended to step_comments (NULL: none
 * wanted).
 */
void file_check_run(struct file_check *check, const struct yaml_model *model,
                    struct comment_list *step_comments);

/*
 * The files that are not YAML (shell scripts, Makefiles, a GitLab Runner
 * config.toml: file_kind_of_text): when check->candidates and text make
 * the file one, runs the rules over it, appends the comments its reader
 * found to comments (for suppression comments) and returns true; a
 * config.toml that is no runner's is marked skipped.  Returns false for a
 * file to read as YAML.
 */
bool file_check_run_text(struct file_check *check, const char *text, size_t length,
                         struct comment_list *comments);

/* Adds a core diagnostic without key (line/column 0 = none).  Diagnostics
 * of rules that are switched off are dropped. */
void file_check_core(struct file_check *check, enum core_rule rule,
                     int severity, unsigned line, unsigned column,
                     const char *message);

/* Adds the error saying the file could not be checked (SL001 when it could
 * not be read, SL002 when it could not be parsed or exceeds a limit) and
 * marks the result incomplete: an unchecked file fails the run. */
void file_check_unchecked(struct file_check *check, enum core_rule rule,
                          unsigned line, unsigned column, const char *message);

/*
 * Adds the SL006 error saying a plugin failed on the file (rule: the rule
 * whose callback was running, or an index past the plugins' rules when
 * none was) and marks the result incomplete.  what says how it failed:
 * "failed (reason)", "crashed (signal 11, Segmentation fault)", "timed out
 * after 5 seconds".  The one constructor of this diagnostic, in process
 * and in the worker pool alike.
 */
void file_result_add_failure(struct file_result *result,
                             const struct registry *registry, size_t rule,
                             const char *what);

/* In a worker process: where to publish the index of the rule whose
 * callback is running (UINT32_MAX between callbacks), so the coordinator
 * can name the plugin that crashed or hung.  NULL (the default) publishes
 * nothing. */
void check_set_rule_slot(volatile uint32_t *slot);

/* Records (a copy of) why a callback or host service fails: the
 * set_error() host service; a later call replaces the message. */
void check_set_error(struct sl_context *ctx, const char *message);

/* The report() host service. */
int check_report(struct sl_context *ctx, const struct sl_finding *finding);

#endif
