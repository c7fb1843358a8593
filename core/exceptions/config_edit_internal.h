/*
 * config_edit_internal.h - what the allowlist editor's parts share
 * (config_edit.c, config_edit_ini.c, config_edit_toml.c).  Not for use
 * elsewhere: the interface is config_edit.h.
 *
 * An edit runs in two phases, each on freshly parsed text: additions on
 * the original, then removals on the result.  Each phase only describes
 * changes as text_edits against the text it was given; config_edit.c
 * applies them, parses again, and checks the outcome.
 */
#ifndef SANDLINT_CONFIG_EDIT_INTERNAL_H
#define SANDLINT_CONFIG_EDIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "config_edit.h"
#include "config_file.h"
#include "text_buffer.h"

/* One change: bytes [start, end) of the text replaced by insert. */
struct text_edit {
    size_t start, end;
    char *insert;               /* owned; may be empty */
    size_t insert_length;
    size_t sequence;            /* creation order: insertions at one offset
                                   appear in the order they were made */
};

struct text_edits {
    struct text_edit *items;    /* owned */
    size_t count, capacity;
};

void text_edits_replace(struct text_edits *edits, size_t start, size_t end,
                        const char *insert, size_t insert_length);
void text_edits_insert(struct text_edits *edits, size_t at, const char *insert,
                       size_t insert_length);
void text_edits_delete(struct text_edits *edits, size_t start, size_t end);
void text_edits_release(struct text_edits *edits);


/* Offset of the start of the line holding offset at. */
size_t line_start_of(const char *text, size_t at);
/* Offset just past the newline that ends the line holding offset at (the
 * text's length on a last line without one). */
size_t line_end_of(const char *text, size_t length, size_t at);

/* Whether bytes are equal to the item's. */
bool item_is(const struct config_item *item, const char *bytes, size_t length);

/* Whether two additions name the same group, or the same scope of it. */
bool same_group(const struct config_edit_entry *a, const struct config_edit_entry *b);
bool same_scope(const struct config_edit_entry *a, const struct config_edit_entry *b);

/*
 * The additions of one phase, sorted by group, then scope, then key, none
 * already in the file, and what the file's lines end with.
 */
struct edit_additions {
    const struct config_edit_entry *const *entries;
    size_t count;
    const char *newline;        /* "\n" or "\r\n" */
};

/* Entries of a parsed text to remove: remove[i] for config->entries[i],
 * and where each was in the original file (for messages). */
struct edit_removals {
    const bool *remove;
    const struct config_pos *original_pos;
};

/*
 * The format's placement and removal rules.  Each adds text_edits for the
 * text it is given (parsed already into config) and returns 0, or -1 with
 * *error set.
 */
int ini_plan_additions(const char *text, size_t length, const struct config *config,
                       const struct edit_additions *additions, struct text_edits *edits,
                       struct config_error *error);
int ini_plan_removals(const char *text, size_t length, const struct config *config,
                      const struct edit_removals *removals, struct text_edits *edits,
                      struct config_error *error);
int toml_plan_additions(const char *text, size_t length, const struct config *config,
                        const struct edit_additions *additions, struct text_edits *edits,
                        struct config_error *error);
int toml_plan_removals(const char *text, size_t length, const struct config *config,
                       const struct edit_removals *removals, struct text_edits *edits,
                       struct config_error *error);

#endif
