/*
 * allowlist.h - allowlist entries applied to findings, and stale entries
 * (SPEC §8).
 */
#ifndef SANDLINT_ALLOWLIST_H
#define SANDLINT_ALLOWLIST_H

#include "config_file.h"
#include "file_result.h"
#include "registry.h"
#include "string_list.h"

/*
 * Marks every finding of result whose package, group and key match an
 * entry as allowlisted by that entry (status warn, unless a comment
 * suppressed it) and marks the entry used.  Only state changes: the text a
 * report shows for it is derived when it is written.
 */
void allowlist_apply(struct file_result *result, struct config *config,
                     const struct registry *registry);

/* Whether the run read every Compose file of a package (its whole
 * directory; for "*", the root): only then can an allowlist entry of it be
 * judged stale (SPEC §3, "fully checked"). */
typedef bool (*allowlist_coverage_fn)(void *data, const char *package);

/* Whether an allowlist entry is stale: it matched nothing, its package is
 * fully checked and has no unread file, and every rule of its group ran. */
bool allowlist_entry_stale(const struct allowlist_entry *entry,
                           const struct registry *registry,
                           allowlist_coverage_fn fully_checked, void *coverage_data,
                           const struct string_list *incomplete);

/*
 * The configuration file's results: an SL005 warning at the entry's line
 * and column for every unused entry of a package the run checked fully
 * (fully_checked; NULL: none is), unless the package has a file that could
 * not be read or parsed (incomplete: its entries cannot be judged), when
 * every rule of the entry's group ran.  Entries come in the order they
 * are written, one result per run of entries of the same package (a
 * result names one package).  Returns how many results *results holds (a
 * malloc'd array; release each, then free it).
 */
size_t allowlist_report_stale(const struct config *config,
                              const struct registry *registry,
                              const char *config_display,
                              allowlist_coverage_fn fully_checked,
                              void *coverage_data,
                              const struct string_list *incomplete,
                              struct file_result **results);

/* The group name (not code) a group or group code written in the
 * configuration names, or NULL when no loaded rule has it. */
const char *allowlist_group_name(const struct registry *registry,
                                 const char *group);

#endif
