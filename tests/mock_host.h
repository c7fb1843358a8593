/*
 * mock_host.h - a host table for unit tests of a rule's check callbacks,
 * without the driver: no discovery, configuration, allowlist, suppression
 * comments or output.  A test compiles the plugin's source into itself,
 * hands mock_host_table() to its sandlint_plugin_entry(), and runs its
 * rules on a YAML snippet with mock_host_check():
 *
 *     const struct sl_plugin *plugin = sandlint_plugin_entry(mock_host_table());
 *     assert_int_equal(mock_host_check(plugin, "SBX001", yaml), SL_OK);
 *     assert_int_equal(mock_host_count(), 1);
 *     assert_string_equal(mock_host_finding(0)->message, "...");
 *
 * The node API, the Compose helpers, the host mounts service, the
 * front-ends and the container model are the real ones (the core's), so a
 * rule sees exactly what it sees in sandlint, for every kind of file
 * (mock_host_check_kind()).  report() records each finding as the rule
 * gave it, with no key, dedupe or hint derivation; the options getters
 * answer with values set by mock_host_set_option(), else the option's
 * declared default.
 *
 * State is global (a test runs one check at a time); everything it holds
 * is freed by mock_host_reset().
 */
#ifndef SANDLINT_MOCK_HOST_H
#define SANDLINT_MOCK_HOST_H

#include <stddef.h>

#include "sandlint/plugin.h"

/* One finding as a rule reported it.  Strings are copies owned by the
 * mock (NUL-terminated; value may hold NUL bytes: use value_length). */
struct mock_finding {
    char *rule;                 /* code of the rule that reported it */
    char *service;              /* NULL: about the document */
    char *field;
    char *value;                /* NULL: the setting has no value */
    size_t value_length;
    int severity;               /* as reported: 0 is the rule's default */
    char *message;
    char *hint;                 /* NULL: the standard hint */
    unsigned line, column;      /* where its node was written */
};

/* The mock host table (static, valid for the life of the process). */
const struct sl_host *mock_host_table(void);

/*
 * Parses yaml as a file of kind (SL_KIND_*), reads each document with the
 * core's front-end for that kind, and runs the rules of plugin that check
 * the kind (all, or only the rule whose code is code) on each step, as the
 * core does: check_document, check_service for each service or pod spec,
 * check_scope and check_container for each scope of the container model.
 * Findings add to those already recorded.  Returns SL_OK, or SL_ERROR when
 * the YAML does not parse or a callback failed (mock_host_error() says
 * why).
 */
int mock_host_check_kind(const struct sl_plugin *plugin, const char *code, int kind,
                         const char *yaml);

/* mock_host_check_kind() for a Compose file. */
int mock_host_check(const struct sl_plugin *plugin, const char *code,
                    const char *yaml);

size_t mock_host_count(void);
/* The index-th finding in the order reported, or NULL. */
const struct mock_finding *mock_host_finding(size_t index);
/* The last set_error() message, or NULL. */
const char *mock_host_error(void);

/* Gives the option name the value text, read with the option's declared
 * type: a string as it is, an integer in decimal, a boolean "true" or
 * "false", a list comma-separated. */
void mock_host_set_option(const char *name, const char *text);

/* Forgets findings, options and the error. */
void mock_host_reset(void);

#endif
