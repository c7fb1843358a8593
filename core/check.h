/*
 * check.h - run the enabled rules over the model of one file.
 *
 * Walks each document: structure warnings (SPEC §7), then every enabled
 * rule's check_document, then check_service for each service that is a
 * mapping.  Findings reported by plugins get their key, position, severity
 * and hint here; one finding per rule and key is kept (the first).
 */
#ifndef SANDLINT_CHECK_H
#define SANDLINT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "finding.h"
#include "registry.h"
#include "yaml_model.h"

struct dedupe_set {
    size_t *slots;              /* finding index + 1; 0 = empty */
    size_t capacity, used;
};

/* What one file's check produces and the state the host services need. */
struct file_check {
    const struct registry *registry;
    const struct sl_host *host;
    const char *path;           /* display path; borrowed */
    const char *package;        /* borrowed; may be NULL */
    struct finding_list findings;  /* owned */
    struct dedupe_set seen;
    size_t services;            /* services checked (mappings) */
    bool plugin_failed;         /* a plugin returned an error */
    bool incomplete;            /* the file could not be read or parsed */
};

/* The plugin-visible context of one callback (opaque in plugin.h). */
struct sl_context {
    struct file_check *check;
    size_t rule;                /* registry index of the running rule */
    const struct sl_node *root;
    const char *service;        /* NULL in check_document */
    size_t service_length;
    char *error;                /* set_error() message; owned */
};

void file_check_init(struct file_check *check, const struct registry *registry,
                     const struct sl_host *host, const char *path,
                     const char *package);
/* Frees the findings still owned and the dedupe set. */
void file_check_release(struct file_check *check);

/* Runs every enabled rule over every document of model. */
void file_check_run(struct file_check *check, const struct yaml_model *model);

/* Adds a core diagnostic without key (line/column 0 = none). */
void file_check_core(struct file_check *check, enum core_rule rule,
                     unsigned line, unsigned column, const char *message);

/* In a worker process: where to publish the index of the rule whose
 * callback is running (UINT32_MAX between callbacks), so the coordinator
 * can name the plugin that crashed or hung.  NULL (the default) publishes
 * nothing. */
void check_set_rule_slot(volatile uint32_t *slot);

/* The report() host service. */
int check_report(struct sl_context *ctx, const struct sl_finding *finding);

#endif
