/*
 * comma_list.h - walk a comma-separated list ("SBX001, SBX003,mounts"):
 * the one splitting rule for --select/--ignore, config lists and
 * suppression-comment selectors.  Items are trimmed of blanks (space, tab);
 * empty items are skipped.
 */
#ifndef SANDLINT_COMMA_LIST_H
#define SANDLINT_COMMA_LIST_H

#include <stddef.h>

/* Receives one item: item_length bytes at item (not NUL-terminated), which
 * starts offset bytes into the list.  A non-zero return stops the walk. */
typedef int (*comma_list_visit)(void *data, const char *item,
                                size_t item_length, size_t offset);

/* Walks length bytes of text; returns the first non-zero visit result,
 * or 0. */
int comma_list_each(const char *text, size_t length, comma_list_visit visit,
                    void *data);

#endif
