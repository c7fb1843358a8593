/*
 * comment_list.h - where a reader found comments, for suppression comments.
 *
 * YAML comments are found from libyaml's token marks (core/exceptions/
 * suppress.c); the readers of other formats (JSON with comments, shell
 * words) know their comments while they read, and hand them over as this
 * list, so that whatever honours "sandlint: ignore[...]" can do it without
 * reading the format again and without taking a '#' or a "//" inside a
 * string for a comment.
 */
#ifndef SANDLINT_COMMENT_LIST_H
#define SANDLINT_COMMENT_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct comment_span {
    /* Bytes of the text the reader was given: the whole comment with its
     * delimiters ("//", "/" "*" ... "*" "/", "#"), and its text without
     * them (a block comment's text stops before its closing delimiter). */
    size_t offset, length;
    size_t text_offset, text_length;
    /* 1-based positions in the file (after any origin the reader was
     * given), end exclusive, lines and columns counted as source_step()
     * counts them. */
    unsigned line, column, end_line, end_column;
    bool block;         /* a block comment, which may span lines */
    bool own_line;      /* nothing but blanks and comments before it on its
                           line: it speaks about the next line with content */
};

struct comment_list {
    struct comment_span *items;     /* malloc-owned, in text order */
    size_t count, capacity;
};

/* An empty list (no allocation until the first comment). */
void comment_list_init(struct comment_list *list);

/* Appends a copy of span (memory from xalloc: never fails). */
void comment_list_add(struct comment_list *list, const struct comment_span *span);

/* Frees the items; the list is empty and reusable. */
void comment_list_release(struct comment_list *list);

#endif
