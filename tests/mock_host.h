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
 * The node API, the Compose helpers and the host mounts service are the
 * real ones (the core's), so a rule sees exactly what it sees in
 * sandlint.  report() records each finding as the rule gave it, with no
 * key, dedupe or hint derivation; the options getters answer with values
 * set by mock_host_set_option(), else the option's declared default.
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
 * Parses yaml and runs the rules of plugin (all, or only the rule whose
 * code is code) over every document: check_document, then check_service
 * for each service that is a mapping, as the core does.  Findings add to
 * those already recorded.  Returns SL_OK, or SL_ERROR when the YAML does
 * not parse or a callback failed (mock_host_error() says why).
 */
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
