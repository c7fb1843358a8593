/*
 * shell_front.h - the front-end of engine command lines in shell text
 * (SPEC §15 "Engine command lines"): shell scripts, Makefile recipes, and
 * the shell text of CI steps (GitHub Actions run:, GitLab CI script:).
 *
 * The text is split as the shell splits it (shell_words.h); every simple
 * command that runs docker, podman or nerdctl "run" or "create" (also
 * behind sudo, env, exec..., and inside sh -c TEXT and command
 * substitutions) is a container of the model (engine_command.h).  Its
 * service in keys is its --name value, else run<N> for the N-th engine
 * command of the file (counted across every block of shell text the file
 * holds); its line is in the location, never in the key.
 *
 * Text that cannot be split (an unterminated quote) and an engine command
 * whose subcommand is interpolated ($CMD) are SL011 command_line warnings;
 * unknown and interpolated flags are SL011 warnings at the flag; nesting
 * past the splitter's limit fails the file (not checked).
 */
#ifndef SANDLINT_SHELL_FRONT_H
#define SANDLINT_SHELL_FRONT_H

#include <stddef.h>

#include "comment_list.h"
#include "container_model.h"
#include "engine_flags.h"
#include "shell_words.h"

/*
 * Hands the steps of the engine commands in length bytes of shell text to
 * reading->sink.  origin says where the text sits in its file (NULL: the
 * whole file); kind is the SL_KIND_* of the file.  When comments is not
 * NULL, the comments the splitter read are appended to it (for
 * suppression comments).
 */
void shell_front_read(struct model_reading *reading, const char *text, size_t length,
                      enum shell_dialect dialect, const struct shell_origin *origin, int kind,
                      struct comment_list *comments);

/* Shell text written as a YAML scalar (a GitHub Actions run:, a GitLab CI
 * script: item): value is the scalar, key the key or item it is written
 * under (its column places a block scalar's lines).  Positions are exact
 * for a one-line scalar and for a literal block indented two columns past
 * its key; near otherwise. */
void shell_front_read_scalar(struct model_reading *reading, const struct sl_node *key,
                             const struct sl_node *value, int kind);

/* Words of engine flags written as one string (a GitHub Actions
 * container's options), and the flags a front-end adds (volumes: as -v),
 * with where each was written; texts owned by the list. */
struct shell_word_list {
    struct engine_word *words;
    struct sl_span *spans;
    size_t count, capacity;
};

/* Appends the words value (a YAML scalar) splits into, as the shell
 * splits them; text that cannot be split is an SL011 warning to
 * reading->sink. */
void shell_word_list_split(struct shell_word_list *list, struct model_reading *reading,
                           const struct sl_node *value);
/* Appends one word of length bytes written at span (flags: ENGINE_WORD_*). */
void shell_word_list_add(struct shell_word_list *list, const char *text, size_t length,
                         unsigned flags, const struct sl_span *span);
void shell_word_list_release(struct shell_word_list *list);

/* A shell script or a Makefile: a whole file, with a root node of its own
 * for the steps (rules see it as the document). */
void shell_front_read_file(struct model_reading *reading, const char *text, size_t length,
                           enum shell_dialect dialect, int kind,
                           struct comment_list *comments);

#endif
