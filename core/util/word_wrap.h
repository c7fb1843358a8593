/*
 * word_wrap.h - prose as lines that fit a width, for --explain.
 *
 * Width is counted in code points (a UTF-8 sequence is one column; bytes
 * that are not UTF-8 count one each), which is what a terminal shows for
 * the Latin text of rule documentation.
 */
#ifndef SANDLINT_WORD_WRAP_H
#define SANDLINT_WORD_WRAP_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes the words of length bytes of text (separated by spaces) as lines
 * of at most width columns, each ending in '\n': first_prefix starts the
 * first line, prefix every other.  A word wider than a line stands alone
 * on its own line, unbroken (a URL or a key must stay whole).  Empty text
 * writes first_prefix and a newline.  The prefixes are NUL-terminated and
 * count towards the width.
 */
void word_wrap(FILE *out, const char *text, size_t length, const char *first_prefix,
               const char *prefix, size_t width);

/* The columns length bytes of text take (see above). */
size_t word_wrap_columns(const char *text, size_t length);

#endif
