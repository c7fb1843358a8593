/*
 * kind_docs.h - which files a directory search finds, per kind of file, for
 * --help and sandlint(1) (man/gen-manual-lists.sh reads it from --help).
 *
 * One line of prose per kind (file_kind_name() gives the names).  A kind a
 * rule declares but this table lacks is a documentation bug that
 * tests/rule_docs.sh reports: add the kind here when discovery learns it.
 */
#ifndef SANDLINT_KIND_DOCS_H
#define SANDLINT_KIND_DOCS_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes one entry per kind: two spaces, the kind's name padded to a
 * column, and what a directory search finds as that kind, wrapped to width
 * columns with the text's column as hanging indent.
 */
void kind_docs_print(FILE *out, size_t width);

#endif
