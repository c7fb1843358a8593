/*
 * allowlist.h - allowlist entries applied to findings, and stale entries
 * (SPEC §8, §14).
 *
 * An entry accepts a finding when its group is the finding's rule's group
 * (by name or group code), its key is the finding's key, and its scope
 * covers the finding's file: '*' every file, a package name the files of
 * that package, a directory path the files below it, a file path that
 * file.  Matching is a hash lookup per (scope, group, key), so a run costs
 * O(entries + findings), never their product: the entries are indexed
 * once (allowlist_index_build), and each finding looks up only the scopes
 * that can cover its file (its file, its package, '*', and its directories
 * at the depths that directory entries have).
 */
#ifndef SANDLINT_ALLOWLIST_H
#define SANDLINT_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config_file.h"
#include "file_result.h"
#include "hash.h"
#include "registry.h"
#include "string_set.h"

/* The entries of a configuration, indexed for matching. */
struct allowlist_index {
    struct hash_index table;    /* entry numbers by hash of scope, group, key */
    const char **groups;        /* per entry: the group's name (borrowed from
                                   the registry); NULL when no rule has it */
    size_t *directory_depths;   /* components of the directory scopes that
                                   entries have ("" 0, "a/" 1, ...); owned */
    size_t directory_depth_count;
    size_t entry_count;
    size_t compared;            /* candidate entries compared with findings
                                   so far: what a lookup cost (tests and the
                                   benchmark read it) */
};

/* Indexes the entries of config (borrowed, with registry, for the index's
 * life).  Release with allowlist_index_release. */
void allowlist_index_build(struct allowlist_index *index, const struct config *config,
                           const struct registry *registry);
void allowlist_index_release(struct allowlist_index *index);

/*
 * Calls visit for every entry that accepts finding (a finding of result),
 * in no particular order.  Findings of the core and findings without a key
 * match nothing.
 */
void allowlist_each_match(struct allowlist_index *index, const struct config *config,
                          const struct registry *registry, const struct file_result *result,
                          const struct finding *finding,
                          void (*visit)(void *data, size_t entry), void *data);

/*
 * Marks every finding of result that an entry accepts as allowlisted by
 * the first such entry in the file (status warn, unless a comment
 * suppressed it), and marks every entry that accepts one as used.  Only
 * state changes: the text a report shows for it is derived when it is
 * written.
 */
void allowlist_apply(struct file_result *result, struct config *config,
                     struct allowlist_index *index, const struct registry *registry);

/* The forms of a finding's key that entries are looked up by: the key
 * itself, and for a Kubernetes object with a namespace the key without it
 * (0.2's form, which matches in any namespace).  Returns how many forms
 * were stored (at most ALLOWLIST_KEY_FORMS). */
#define ALLOWLIST_KEY_FORMS 2
size_t allowlist_key_forms(const struct finding *finding,
                           const char *forms[ALLOWLIST_KEY_FORMS],
                           size_t lengths[ALLOWLIST_KEY_FORMS]);

/* The length of "NAMESPACE/" at the start of key when it is a Kubernetes
 * object's key with a namespace (NAMESPACE/Kind/name...:field), else 0. */
size_t allowlist_namespace_length(const char *key, size_t key_length);

/* What the run checked, for judging entries stale (SPEC §3 "fully
 * checked", §14): whether the operands cover every file of a package
 * (PACKAGE_ANY: the root), and whether they cover a path relative to the
 * root (a file, or a directory ending in '/'; "" is the root). */
struct allowlist_coverage {
    bool (*package_checked)(void *data, const char *package);
    bool (*path_checked)(void *data, const char *path);
    void *data;
};

/* What the run could not check completely: entries whose scope holds such
 * a file cannot be judged. */
struct allowlist_incomplete {
    struct string_set packages;     /* packages with such a file */
    struct string_set paths;        /* such files, and every directory above
                                       them ("a/", "a/b/", and "" the root) */
};

#define ALLOWLIST_INCOMPLETE_INIT { STRING_SET_INIT, STRING_SET_INIT }

/* Notes result when it was not completely checked. */
void allowlist_incomplete_add(struct allowlist_incomplete *incomplete,
                              const struct file_result *result);
void allowlist_incomplete_release(struct allowlist_incomplete *incomplete);

/* Whether an allowlist entry is stale: it matched nothing, the run checked
 * all of its scope (coverage; NULL: nothing is judged) and no file of it
 * was left incomplete, and every rule of its group ran. */
bool allowlist_entry_stale(const struct allowlist_entry *entry,
                           const struct registry *registry,
                           const struct allowlist_coverage *coverage,
                           const struct allowlist_incomplete *incomplete);

/*
 * The configuration file's results: an SL005 warning at the entry's line
 * and column for every stale entry, in the order they are written: one
 * result per run of entries of the same package (naming it), one per run
 * of path entries (naming none, and holding at most a file's worth of
 * findings: FINDING_SET_MAX_COUNT).  Returns how many results
 * *results holds (a malloc'd array; release each, then free it).
 */
size_t allowlist_report_stale(const struct config *config,
                              const struct registry *registry,
                              const char *config_display,
                              const struct allowlist_coverage *coverage,
                              const struct allowlist_incomplete *incomplete,
                              struct file_result **results);

/* The group name (not code) a group or group code written in the
 * configuration names, or NULL when no loaded rule has it. */
const char *allowlist_group_name(const struct registry *registry,
                                 const char *group);

#endif
