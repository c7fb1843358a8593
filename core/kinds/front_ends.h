/*
 * front_ends.h - which front-end reads a document of each kind.
 *
 * The one place that maps a file kind (SL_KIND_*) to its front-end, for
 * the checker and for the unit tests' mock host alike.  Adding a format is
 * a front-end file and a line here.
 */
#ifndef SANDLINT_FRONT_ENDS_H
#define SANDLINT_FRONT_ENDS_H

#include <stdbool.h>
#include <stddef.h>

#include "comment_list.h"
#include "container_model.h"

/* Hands the steps of document root of a file of kind to reading->sink
 * (reading->root must be root).  A kind without a front-end reads
 * nothing. */
void front_ends_read(struct model_reading *reading, int kind, const struct sl_node *root);

/* Hands the steps of a file that is not YAML (kind SL_KIND_SHELL,
 * SL_KIND_MAKEFILE, SL_KIND_GITLAB_RUNNER) to reading->sink, appending the
 * comments its reader found to comments.  Returns false when the file
 * turns out to be none of its kind (a config.toml without [[runners]]):
 * skipped. */
bool front_ends_read_text(struct model_reading *reading, int kind, const char *text,
                          size_t length, struct comment_list *comments);

#endif
