/*
 * suppress.h - suppression comments (SPEC §8).
 *
 *   # sandlint: ignore[SELECTORS] -- reason
 *   # inspect-evals-lint: ignore[SELECTORS] -- reason
 *   # sandlint: ignore-file[SELECTORS] -- reason      (first 10 lines)
 *
 * Only real YAML comments count: the comment positions come from libyaml's
 * token marks (a '#' inside a quoted, plain or block scalar is not a
 * comment), never from a text search alone.
 */
#ifndef SANDLINT_SUPPRESS_H
#define SANDLINT_SUPPRESS_H

#include <stddef.h>

#include "check.h"
#include "comment_list.h"

/* The last line on which ignore-file[...] is honoured. */
#define SUPPRESS_FILE_LINES 10

/*
 * Finds the suppression comments of text (UTF-8, already validated), marks
 * the findings of check they cover as suppressed, and adds an SL004 warning
 * to check for every problem (unknown directive or selector, empty list,
 * missing reason, ignore-file after line 10).
 */
void suppress_apply(const char *text, size_t length, struct file_check *check);

/*
 * --untrusted (SPEC §14): the suppression comments of text are the tree's
 * author's, so none is honoured; each (valid or not) gets an SL004 warning
 * at the comment, "suppression comment not honoured: --untrusted", and the
 * findings it would have covered keep failing.
 */
void suppress_refuse(const char *text, size_t length, struct file_check *check);

/*
 * The same for a file whose reader found its comments (a shell script, a
 * Makefile: comment_list.h), "# sandlint: ignore[...]" in the format's
 * own comment syntax.  An own-line comment covers the next line with
 * something besides comments; a shell line continued with '\\' counts as
 * one line with those it continues to, so a comment above a multi-line
 * docker run covers every flag of it.
 */
void suppress_apply_comments(const char *text, size_t length,
                             const struct comment_list *comments, struct file_check *check);
void suppress_refuse_comments(const char *text, size_t length,
                              const struct comment_list *comments, struct file_check *check);

/*
 * The same for the comments of shell text inside a YAML file's scalars (a
 * GitHub Actions run: block, a GitLab CI script: item), which the YAML
 * reader sees as text: comments holds their positions in the file (its
 * offsets are the scalars'), and a comment above a docker run continued
 * over several lines covers all of them.
 */
void suppress_apply_step_comments(const char *text, size_t length,
                                  const struct comment_list *comments, struct file_check *check);
void suppress_refuse_step_comments(const char *text, size_t length,
                                   const struct comment_list *comments, struct file_check *check);

#endif
