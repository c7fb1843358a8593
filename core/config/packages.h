/*
 * packages.h - which package each Compose file belongs to, and which
 * packages a run checks fully (SPEC §3).
 *
 * Every package rule lives here; discovery knows nothing of packages.
 *  - With a `packages` setting, its globs (path_glob.h: relative to the
 *    root unless absolute, `**` as in .gitignore) name the package
 *    directories, and a file belongs to the deepest one that contains it.
 *  - Without it, but with an inspect-evals-lint table: the directories
 *    directly under src/inspect_evals/ (when that directory exists) or src/.
 *  - A file outside every package directory, and every file when neither
 *    applies, belongs to the package PACKAGE_ANY ("*").
 * A package is named by its directory's basename (two directories with the
 * same basename are one package).  The name is computed from the file's
 * path relative to the root, lexically: it never depends on the order of
 * the operands or on where the repository is checked out.
 *
 * Whether a file is in a package directory is decided by matching the
 * globs against the file's ancestor directories (no file system access).
 * The package directories themselves are also found on disk, before the
 * process is confined (the globs may reach outside the scanned trees):
 * that list says which directories a package has, which is what "fully
 * checked" needs.  The search follows symbolic links to directories only
 * where the glob spells out every component (so it cannot loop), never
 * through a `**`, and skips .git.
 */
#ifndef SANDLINT_PACKAGES_H
#define SANDLINT_PACKAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "config_file.h"
#include "discover.h"
#include "string_list.h"

/* The package of files in no package directory. */
#define PACKAGE_ANY "*"

/* The package rules of a run. */
struct package_directories {
    bool configured;            /* globs apply (packages or inspect-evals) */
    char *root;                 /* absolute, normalised; owned */
    struct string_list globs;   /* the globs in effect */
    struct string_list list;    /* the package directories found on disk:
                                   absolute, normalised */
};

/* Sets up *out from the configuration (borrowed) and finds the package
 * directories under root (absolute, normalised).  Call before confinement.
 * Release with packages_release. */
void packages_find(const struct config *config, const char *root,
                   struct package_directories *out);
void packages_release(struct package_directories *directories);

/*
 * Refuses a package directory whose name would read as a wildcard in an
 * allowlist scope (a '*' in it: SPEC §14): its entries
 * would apply in every package.  Returns 0, or -1 with *error set to a
 * malloc'd message naming the directory (relative to the root).
 */
int packages_check_names(const struct package_directories *directories, char **error);

/* Whether a package name is one no allowlist may name (see above). */
bool packages_name_refused(const char *name);

/* Whether the file at absolute (normalised) lies in a package directory
 * named like a wildcard (one the search did not find, such as one that
 * appeared since): such a file is not checked. */
bool packages_in_refused_directory(const struct package_directories *directories,
                                   const char *absolute);

/* The package of a file given by its absolute, normalised path (a newly
 * allocated name; PACKAGE_ANY outside every package directory). */
char *packages_name(const struct package_directories *directories,
                    const char *absolute);

/* Sets file->package (replacing what was there) from file->absolute. */
void packages_assign(struct discovered_file *file,
                     const struct package_directories *directories);

/*
 * Whether the operands (count of them, absolute and normalised paths) cover
 * the whole of directory (absolute, normalised): some operand is that
 * directory or one above it.  A file operand never covers a directory.
 */
bool packages_covered(const char *const *operands, size_t count,
                      const char *directory);

/*
 * Whether the operands fully check the package named name: they cover every
 * directory of the package found on disk.  PACKAGE_ANY, and a package with
 * no directory at all (an allowlist entry for a package that is gone), are
 * fully checked only when the operands cover the root.
 */
bool packages_fully_checked(const struct package_directories *directories,
                            const char *name, const char *const *operands,
                            size_t count);

#endif
