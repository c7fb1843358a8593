/*
 * scanned_trees.h - the directories whose contents the author of the
 * scanned repository wrote, and opening a place to write to without
 * following a symbolic link planted there (SPEC §14).
 *
 * The trees are the root and the operands (a file operand: its directory),
 * each by its real path.  A path sandlint writes to (--output, the
 * configuration that --update-allowlist edits) is walked one component at a
 * time from the current directory (or "/"): a symbolic link whose place
 * lies inside a tree is refused, never followed, while links outside every
 * tree (the user's own, such as /tmp on some systems, or /dev/stdout) are
 * followed as before.  `..` goes to the real parent of the directory
 * reached so far, as the kernel would.
 */
#ifndef SANDLINT_SCANNED_TREES_H
#define SANDLINT_SCANNED_TREES_H

#include <stdbool.h>
#include <stddef.h>

#include "string_list.h"

struct scanned_trees {
    struct string_list real;    /* the trees' real paths */
};

#define SCANNED_TREES_INIT { STRING_LIST_INIT }

/* The trees of a run: root (absolute) and the operands as given (those
 * that do not exist are left out).  Release with scanned_trees_release. */
void scanned_trees_init(struct scanned_trees *trees, const char *root,
                        const char *const *operands, size_t count);
void scanned_trees_release(struct scanned_trees *trees);

/* Whether a real (absolute, link-free) path is a tree or lies below one. */
bool scanned_trees_contain(const struct scanned_trees *trees, const char *real_path);

/* Where a path leads, for writing: the directory that holds its last
 * component (an O_PATH descriptor) and that component. */
struct write_place {
    int dir_fd;                 /* owned; -1 when not open */
    char *name;                 /* the last component; owned */
    char *real_directory;       /* the directory's real path; owned */
    bool inside;                /* the last component's place lies inside a
                                   tree (so it must not be a link there) */
};

/*
 * Opens the directory that holds path's last component, refusing a
 * symbolic link in any component inside a tree.  trees may be NULL (no
 * tree: links are followed).  path must name a file ("dir/" and a last
 * component "." or ".." are refused).  Returns 0, or -1 with *error set to
 * a malloc'd sentence (without the path).
 */
int write_place_open(struct write_place *place, const struct scanned_trees *trees,
                     const char *path, char **error);
void write_place_release(struct write_place *place);

#endif
