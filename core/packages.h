/*
 * packages.h - which package each Compose file belongs to (SPEC §3).
 *
 * With a `packages` setting: the globs (relative to the root) name package
 * directories and a file belongs to the deepest one that contains it.
 * Without it, but with an inspect-evals-lint table: the directories directly
 * under src/inspect_evals/ (when it exists) or src/.  Otherwise the default
 * from discovery: a directory operand is a package named after its basename,
 * a file operand belongs to its parent directory.  A package's name is its
 * directory's basename.
 */
#ifndef SANDLINT_PACKAGES_H
#define SANDLINT_PACKAGES_H

#include <stdbool.h>

#include "config_file.h"
#include "discover.h"
#include "string_list.h"

/* The configured package directories (absolute), found before the process
 * is confined (the globs may reach outside the scanned trees). */
struct package_directories {
    bool configured;            /* false: the discovery defaults apply */
    struct string_list list;
};

void packages_find(const struct config *config, const char *root,
                   struct package_directories *out);
void packages_release(struct package_directories *directories);

/* Rewrites the package of a file as configured. */
void packages_assign(struct discovered_file *file,
                     const struct package_directories *directories);

#endif
