/*
 * rule_options.h - the configuration's per-rule options, checked against
 * what the loaded rules declare (SPEC §10, plugin ABI 1.1).
 *
 * The configuration stores `name = value` of [rule CODE] (INI) and
 * [tool.sandlint.rules.CODE] (TOML) as written (config_file.h); only once
 * the plugins are loaded is it known which rules exist and which options
 * of which type they declare.  rule_options_apply() makes that check and
 * gives each declared option its configured value (struct rule_option in
 * registry.h), which the typed getters of the host table then return.
 */
#ifndef SANDLINT_RULE_OPTIONS_H
#define SANDLINT_RULE_OPTIONS_H

#include "config_file.h"
#include "registry.h"

/*
 * Checks every option config sets: its rule must be loaded (by code), must
 * declare an option of that name, and the value must have the declared
 * type.  Stores each value in the registry.  Returns 0, or -1 with *error
 * set at the position of the first problem (its rule, name or value).
 *
 * Every rule also answers to `severity = error|warning`
 * (RESERVED_OPTION_SEVERITY, SPEC §16-17), stored in rule_entry.severity:
 * the findings a rule reports at its default severity take that one
 * (finding.h).  It cannot lower the diagnostics that say a file was not
 * checked (SL001, SL002, SL006, SL007, SL008, SL010).
 */
int rule_options_apply(struct registry *registry, const struct config *config,
                       struct config_error *error);

#endif
