/*
 * engine_command.h - one docker/podman/nerdctl "run" or "create" command
 * line as a container of the model (SPEC §15 "Engine command lines", §18).
 *
 * The words after the subcommand are read with engine_flags.h's table,
 * and every flag that matters fills the setting of the model that the
 * Compose key of the same meaning fills (--privileged is privileged,
 * --cap-add is cap_add, -v/--volume/--mount are volumes...), so the same
 * rules judge them; settings a command line cannot express (runAsNonRoot,
 * service accounts, build settings) are SL_SETTING_UNSUPPORTED.  Keys,
 * labels and hints are written in the command line's own words
 * ("--cap-drop", "add '--cap-drop ALL'...").
 *
 * Whoever has the words calls this: the shell front-end (shell scripts,
 * Makefiles, CI steps), the GitHub Actions front-end (a job container's
 * options), the dev container front-end (runArgs).  Each word comes with
 * where it was written, so findings point at the flag itself.
 *
 * A word the engine reads and sandlint cannot judge is never a silent
 * pass: a flag outside the table, and an interpolated word where a flag
 * may stand ($OPTS), are problems (engine_command_problem) the caller
 * reports as warnings; an interpolated value is a TEMPLATED value, which
 * the rules report as "interpolated, cannot be checked".
 */
#ifndef SANDLINT_ENGINE_COMMAND_H
#define SANDLINT_ENGINE_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "container_model.h"
#include "engine_flags.h"

struct engine_command;

/*
 * Reads count words (those after "run" or "create", or a dev container's
 * runArgs) into a command owned by group: the words' texts are copied, so
 * words and spans need only live during the call.  spans[i] is where
 * words[i] was written (1-based, end exclusive); a value attached to its
 * flag in one word (-v/x:/y, --cap-add=ALL) gets a span computed from the
 * flag's offset, exact for words written without quotes.  Never fails.
 */
struct engine_command *engine_command_new(struct model_group *group,
                                          const struct engine_word *words,
                                          const struct sl_span *spans, size_t count);

/* The same for the words after "docker compose run" (engine_compose_run_parse):
 * a one-off container of a service, whose settings are the service's but
 * for the capabilities, mounts and ports its flags add; the others are
 * SL_SETTING_UNSUPPORTED. */
struct engine_command *engine_command_new_compose_run(struct model_group *group,
                                                      const struct engine_word *words,
                                                      const struct sl_span *spans,
                                                      size_t count);

/* The words were split from shell text, which the shell expands: a value
 * whose only expansions are defaults (${X:-host}) is read as what it gives
 * with the variables unset.  make: a Makefile recipe's, where "$$" is the
 * shell's "$" and "${X}" or "$(X)" make's own reference. */
void engine_command_set_shell_words(struct engine_command *command, bool make);

/* The options reach the engine's API as written, without the docker CLI's
 * checks (GitLab Runner's config.toml): its security options are read as
 * the daemon reads them, where a bare "disable" is label=disable (moby's
 * parseSecurityOpt; the CLI refuses it). */
void engine_command_set_daemon_options(struct engine_command *command);

/* The literal --name value (the last one), or NULL when none is written or
 * it is interpolated. */
const char *engine_command_name(const struct engine_command *command, size_t *length);

/* Fills setting id in view, as a model_reader.fill does, for a scope whose
 * settings are the command's (engine_command_scope does this; a front-end
 * with settings of its own beside the flags, such as a dev container,
 * calls it for the ids its own keys do not set). */
void engine_command_fill(struct model_fill *fill, const struct engine_command *command,
                         int view, int id);

/* The command's mounts (-v, --volume, --mount, --volumes-from), as
 * model_reader.mounts delivers them: fields "--volume", "--mount",
 * "--volumes-from". */
int engine_command_mounts(const struct engine_command *command, struct sl_context *ctx,
                          size_t mount_size, sl_mount_fn visit, void *data,
                          const char **problem);

/* A container scope in group for the command: service (copied) names it
 * in keys, node is where findings about the container as a whole point
 * (the program word), kind the SL_KIND_* of the file that holds it. */
struct model_scope *engine_command_scope(struct model_group *group,
                                         const struct engine_command *command,
                                         const char *service, size_t service_length,
                                         const struct sl_node *node, int kind);

/* The index of the word the engine takes as the image (the first word
 * that is not a flag or a flag's value), or ENGINE_NO_WORD: a dev
 * container's runArgs come before the image the CLI adds, so a word
 * there is a mistake the front-end reports. */
size_t engine_command_image(const struct engine_command *command);

/* The problems of the command (unknown flags, interpolated flag words), in
 * command-line order: count, then each one's node and message (a static
 * text, or one owned by the group). */
size_t engine_command_problem_count(const struct engine_command *command);
const char *engine_command_problem(const struct engine_command *command, size_t index,
                                   const struct sl_node **node);
/* Whether problem index is a GitHub Actions expression (${{ ... }}) where
 * flags may stand: the runner substitutes it before any shell or engine
 * reads the words, so it is a CI expression that cannot be checked (SL009,
 * SPEC §17) in a workflow, not a command line that cannot be split. */
bool engine_command_problem_expression(const struct engine_command *command, size_t index);

/* Whether a word (or a whole value) is written as a GitHub Actions
 * expression: it starts with "${{". */
bool engine_ci_expression(const char *text, size_t length);

#endif
