/*
 * allowlist.h - allowlist entries applied to findings, and stale entries
 * (SPEC §8).
 */
#ifndef SANDLINT_ALLOWLIST_H
#define SANDLINT_ALLOWLIST_H

#include "config_file.h"
#include "finding.h"
#include "string_list.h"
#include "registry.h"

/*
 * Turns every finding whose package, group and key match an entry into an
 * allowlisted warning ("Allowlisted: " message, hint to remove the entry
 * once the setting is gone) and marks the entry used.  A finding already
 * suppressed by a comment stays suppressed but still uses the entry.
 */
void allowlist_apply(struct finding_list *findings, struct config *config,
                     const struct registry *registry,
                     const char *config_display);

/*
 * Reports every unused entry of a package the run checked (checked: names
 * of packages with at least one file checked; incomplete: packages with a
 * file that could not be read or parsed, whose entries cannot be judged),
 * when every rule of the entry's group ran.  Stale entries are SL005
 * warnings at the entry's line and column in the config file.
 */
void allowlist_report_stale(struct finding_list *findings,
                            const struct config *config,
                            const struct registry *registry,
                            const char *config_display,
                            const struct string_list *checked,
                            const struct string_list *incomplete);

/* Whether group names a group (or group code) of a loaded rule. */
const char *allowlist_group_name(const struct registry *registry,
                                 const char *group);

#endif
