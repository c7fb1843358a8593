/*
 * references.h - what Compose follows, sandlint follows (SPEC §4, 0.2).
 *
 * A Compose file names other files: the items of a top-level include (a
 * string, or the path of a long-syntax item, itself a string or a list) and
 * a service's extends.file.  Docker Compose reads them, so sandlint checks
 * them as Compose files, whatever their names, once however many files
 * name them, each finding at its own file and line.
 *
 * A worker collects the references of the file it checks
 * (references_collect); the coordinator, which knows the whole search,
 * resolves them (references_resolve):
 *   - interpolated or remote (a URL, oci:, a git address): a warning that
 *     the file cannot be checked;
 *   - missing: a warning at the reference;
 *   - a file the search yields anyway (a Compose name under a directory
 *     operand) or excludes on purpose: nothing;
 *   - a file under a directory operand that the search would not pick by
 *     name: checked too, in a following round (transitively, each file
 *     once, at most REFERENCE_MAX_DEPTH rounds and REFERENCE_MAX_FILES
 *     files);
 *   - a file outside what the run may read (no directory operand holds it),
 *     or not a regular file: an error at the reference - its settings would
 *     reach the sandbox unchecked.
 * Findings are SL007 (compose-reference).  Files checked this way come
 * after the searched files in the report, round by round, each round in
 * path order.
 */
#ifndef SANDLINT_REFERENCES_H
#define SANDLINT_REFERENCES_H

#include <stddef.h>

#include "discover.h"
#include "file_result.h"
#include "registry.h"
#include "string_list.h"
#include "yaml_model.h"

#define REFERENCE_MAX_DEPTH 32
#define REFERENCE_MAX_FILES 10000
/* The most bytes the coordinator keeps for the contexts of queued files
 * in one run (their keys in seen and the copies handed to workers): each
 * context is bounded (COMPOSE_CONTEXT_MAX_BYTES), but 10000 of them are
 * not; past it a reference is an SL007 error. */
#define REFERENCE_MAX_CONTEXT_BYTES ((size_t)32 << 20)

struct compose_project;
/* Adds to result every reference of the model's documents, each path that
 * holds '$' resolved with project's variables (NULL: none) where it can
 * be (SPEC §13). */
void references_collect(const struct yaml_model *model, struct compose_project *project,
                        struct file_result *result);

/* Adds to result the files COMPOSE_FILE of project's .env names (the
 * files docker compose reads by default in that directory); for a file
 * checked in its own project only. */
void references_collect_compose_file_variable(struct compose_project *project,
                                              struct file_result *result);

/* Adds to result the Compose files a dev container names in
 * dockerComposeFile (a path or a list of paths, relative to its own
 * directory as the devcontainer CLI reads them): checked as Compose files,
 * like include. */
void references_collect_devcontainer(const struct yaml_model *model,
                                     struct file_result *result);

/* Adds to result the files a GitLab CI file includes (SPEC §15): include
 * and a child pipeline's trigger:include, a local path (a string item, or
 * local:) checked as GitLab CI, like include, relative to the repository's
 * top (the nearest directory above holding .gitlab-ci.yml); what GitLab
 * fetches (remote:, template:, project:, component:, artifact:) a warning
 * that it cannot be checked. */
void references_collect_gitlab_ci(const struct yaml_model *model, struct file_result *result);

/* The coordinator's state: the files to check in the next round. */
struct reference_resolver {
    const struct discovery_walk *walk;  /* borrowed; NULL (standard input):
                                           nothing is under an operand */
    const struct registry *registry;    /* borrowed */
    unsigned round;                     /* 0 for the searched files */
    struct string_list seen;            /* realpaths of files queued */
    size_t context_bytes;               /* kept for contexts, at most
                                           REFERENCE_MAX_CONTEXT_BYTES */
    struct discovered_file **next;      /* owned: the next round's files */
    size_t next_count, next_capacity;
};

void reference_resolver_init(struct reference_resolver *resolver,
                             const struct discovery_walk *walk,
                             const struct registry *registry);
void reference_resolver_release(struct reference_resolver *resolver);

/*
 * Resolves the references of result, the results of file: adds SL007
 * findings to result, and queues files to check in the next round.
 */
void references_resolve(struct reference_resolver *resolver,
                        const struct discovered_file *file,
                        struct file_result *result);

/*
 * Starts the next round: moves the queued files, in path order, into
 * *files (a malloc'd array the caller frees, with each file it still
 * owns) and returns how many (0: no more rounds).
 */
size_t references_next_round(struct reference_resolver *resolver,
                             struct discovered_file ***files);

#endif
