/*
 * path_glob.h - the one matcher for the path globs of the configuration
 * (`packages`, `exclude`, and later `kubernetes`).
 *
 * A glob names paths relative to the root, '/'-separated, as .gitignore
 * patterns do, except that every glob is anchored at the root (a glob with
 * no '/' does not match at every depth: write "**" + "/name" for that):
 *  - `*` matches any run of characters within one path component, `?` one
 *    character (a UTF-8 code point), `[...]` one character of a set
 *    (`[abc]`, ranges `[a-z]`, negation `[!...]` or `[^...]`; a `]` right
 *    after the `[` or the `!` belongs to the set).  None matches '/'.
 *  - A component that is exactly `**` matches any number of components:
 *    `**` + `/x` matches x at any depth, `a/` + `**` + `/b` matches a/b,
 *    a/x/b, a/x/y/b; a trailing `/` + `**` matches everything inside
 *    (at least one component), never the directory itself.  Elsewhere `**`
 *    is `*`.
 *  - `\` takes the next character literally.
 *  - A trailing '/' makes the glob match directories only; a leading "./"
 *    and repeated '/' are ignored.  Names that start with '.' get no
 *    special treatment.
 * Matching is lexical: no file system access.  (Not "glob.h": with -I core
 * that name would hide the C library's <glob.h> from every file.)
 */
#ifndef SANDLINT_PATH_GLOB_H
#define SANDLINT_PATH_GLOB_H

#include <stdbool.h>

#include "string_list.h"

/*
 * Whether path matches pattern.  path is relative, '/'-separated, without
 * "." or ".." components or a leading '/' (a path relative to the root as
 * discovery computes it); is_directory says whether it names a directory.
 */
bool glob_match(const char *pattern, const char *path, bool is_directory);

/*
 * Whether pattern could match a path strictly below directory (relative,
 * as for glob_match; "" for the root), so that a search for matches must
 * enter it.  GLOB_BELOW_ANY when a `**` may be spanning it (the search may
 * have to go arbitrarily deep).
 */
enum glob_below {
    GLOB_BELOW_NONE = 0,
    GLOB_BELOW_BOUNDED,         /* only through components written out */
    GLOB_BELOW_ANY              /* through a `**` */
};
enum glob_below glob_match_below(const char *pattern, const char *directory);

/*
 * Whether a file or directory matches one of the patterns (a list of globs
 * relative to the root; may be NULL).  relative is its path relative to the
 * root, or NULL when it lies outside the root; absolute its absolute,
 * normalised path.  A pattern that starts with '/' is an absolute path and
 * is matched against absolute; every other pattern against relative.
 */
bool glob_list_match(const struct string_list *patterns, const char *relative,
                     const char *absolute, bool is_directory);

#endif
