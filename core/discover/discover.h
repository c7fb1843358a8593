/*
 * discover.h - find the files to check named by the command-line operands.
 *
 * Directories are searched recursively for (docker-)?compose*.y{a,}ml,
 * for Helm values files (values.y{a,}ml, helm-values*.y{a,}ml,
 * *-values.y{a,}ml) that may be agent-env values, and, under the
 * configuration's kubernetes globs, for *.y{a,}ml files that may hold
 * Kubernetes objects (file_kind.h: the worker decides from the content);
 * ".git" is skipped.  A file named directly as an operand is checked
 * whatever its name.  An operand the user named is followed when it is a
 * symbolic link (to a directory or a file); inside the trees, symbolic links
 * to directories are never entered, and a symbolic link named like a
 * Compose file is read only when it resolves inside the operand's tree.
 * What is not a regular file (a FIFO, a device, a socket) is reported,
 * never opened.
 *
 * Nothing is opened by an absolute or operand-based path once the walk has
 * started: each operand (a directory, or a file's parent directory) is
 * opened once as a directory descriptor, the walk goes down with openat()
 * and O_NOFOLLOW, and each file is handed on as that descriptor plus a
 * plain relative path, which source_read_at() (source.h) opens component by
 * component, following no symbolic link.  So a file swapped for a link
 * after discovery is refused, a plugin that changes the current directory
 * changes nothing, and paths longer than PATH_MAX are searched and read.
 * Descriptors stay bounded: file operands in more than 128 directories
 * share "/" as their base (their real path as relative path), the walk
 * keeps 64 directories open in all and reopens the others (checked by
 * device and inode), and directory operands beyond what the limit on open
 * files allows are reported.  Directories deeper than 1000 levels are
 * reported, not searched.
 *
 * The configuration's `exclude` globs (path_glob.h, relative to the root) skip
 * files and whole directories on purpose; skipped Compose files and
 * directories are counted.  An operand that an exclude glob matches (or
 * lies in a directory one matches) is skipped too, even when named
 * explicitly: a pre-commit hook that passes file names must check exactly
 * what a run over the whole tree checks, and an `exclude` that a file name
 * on the command line could override would let a caller pick which files
 * escape review.
 *
 * Package names are not discovery's business: packages_assign (packages.h)
 * sets them.
 *
 * The search streams: files come out one at a time, in the report's order
 * (display paths compared component by component, see discover_compare),
 * holding only the sorted entries of the directories on the current path -
 * so memory does not grow with the number of files.
 */
#ifndef SANDLINT_DISCOVER_H
#define SANDLINT_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "string_list.h"

struct discovered_file {
    char *path;                 /* operand-based path, for messages only
                                   (never opened); owned */
    char *absolute;             /* lexically normalised absolute path; owned */
    char *display;              /* relative to the root, '/'-separated; owned */
    char *package;              /* set by packages_assign; owned, may be NULL */
    char *problem;              /* set when the file must not be read; owned */
    int base_fd;                /* directory descriptor owned by the walk,
                                   valid until discovery_close; -1 when
                                   there is none (then problem is set) */
    char *relative;             /* the file from base_fd: '/'-separated, no
                                   "..", no leading '/' (source_read_at);
                                   owned; NULL when base_fd is -1 */
    dev_t device;               /* the file as discovered (0 and 0 when it */
    ino_t inode;                /* could not be looked at) */
    char *content;              /* the text itself, already read (standard
                                   input); owned; NULL: read from path */
    size_t content_length;
    unsigned candidates;        /* enum file_candidate (file_kind.h): the
                                   kinds the file may be; 0: Compose */
    char *context;              /* owned; the variables an including or
                                   extending file hands on
                                   (compose_context.h); NULL: its own */
    size_t context_length;
};

/* Frees what a file owns and clears it (base_fd becomes -1; the walk owns
 * the descriptor); the struct itself stays. */
void discovered_file_release(struct discovered_file *file);
/* Frees what a file owns and the file itself (accepts NULL). */
void discovered_file_free(struct discovered_file *file);

/* Whether name matches (docker-)?compose*.y{a,}ml. */
bool discover_is_compose_name(const char *name);

/* The report's order of paths: component by component, '/' before any
 * other byte ("a/b/c" < "a/b.c" < "a/bc").  strcmp-like result. */
int discover_compare(const char *a, const char *b);

struct discovery_walk;

/*
 * Starts a search of operands (count of them).  root is the absolute,
 * normalised root directory for display paths and exclude globs; it and
 * exclude (a list of globs, may be NULL) are borrowed for the walk's
 * lifetime.  Every operand's directory descriptor is opened here, so that
 * processes forked afterwards share them.  Returns the walk, or NULL with
 * *error set (a missing operand: a usage error).
 */
struct discovery_walk *discovery_open(const char *const *operands, size_t count,
                                      const char *root,
                                      const struct string_list *exclude,
                                      char **error);

/*
 * Sets the kubernetes setting's globs (relative to the root, path_glob.h;
 * borrowed for the walk's lifetime).  Without globs (NULL or none), every
 * *.yaml and *.yml file is a candidate found by content (CANDIDATE_CONTENT,
 * SPEC §15 "Kubernetes by content"); with globs, only those under them are
 * candidate Kubernetes files (CANDIDATE_KUBERNETES, SPEC §12); the one glob
 * "none" turns content discovery off.  Either way besides the files named
 * like Compose files and like Helm values files (file_kind.h).  A glob that
 * matches a directory covers everything below it.  Files under the
 * templates/ directory of a Helm chart (a directory holding Chart.yaml)
 * are counted (discovery_helm_templates), never yielded, unless named like
 * a Compose or values file.  Call before the first discovery_next().
 */
void discovery_set_kubernetes(struct discovery_walk *walk,
                              const struct string_list *globs);

/*
 * Asks for every file's device and inode (discovered_file.device and
 * .inode), so that a caller can recognise a file it must not check (the
 * report's own).  Without it, a file that its directory entry shows to be
 * a regular file is not looked at (one stat(2) less per file) and its
 * device and inode stay 0.  Call before the first discovery_next().
 */
void discovery_want_identity(struct discovery_walk *walk);

/*
 * Makes file operands count as what a search would find them to be
 * (--allow-no-files, SPEC §17: a hook passes every changed file): a file
 * operand is a candidate only by its name (file_kind.h), and a named YAML
 * file also a candidate Kubernetes file; one that is no candidate is
 * skipped silently, neither yielded nor counted, and one that turns out to
 * be of no kind is skipped as a searched file is.  Without it a file
 * operand is CANDIDATE_NAMED: checked whatever its name.  Call before the
 * first discovery_next().
 */
void discovery_name_files_as_found(struct discovery_walk *walk);

/* The next file, owned by the caller (discovered_file_free), or NULL when
 * the search is over.  Its candidates say which kinds it may be: a file
 * operand is CANDIDATE_NAMED. */
struct discovered_file *discovery_next(struct discovery_walk *walk);

/* Files returned so far. */
size_t discovery_count(const struct discovery_walk *walk);

/* Files under a Helm chart's templates/ directory found so far: template
 * text, not read (SPEC §17). */
size_t discovery_helm_templates(const struct discovery_walk *walk);

/* Compose files skipped so far because an exclude glob matched them (or an
 * excluded operand named them). */
size_t discovery_excluded(const struct discovery_walk *walk);

/* Directories skipped so far, unsearched, because an exclude glob matched
 * them (their Compose files are not counted above: excluding a directory
 * means not looking into it). */
size_t discovery_excluded_directories(const struct discovery_walk *walk);

/* The directory descriptors files are opened under (every base_fd a file
 * can have), all opened by discovery_open: processes forked afterwards
 * keep these.  Returns how many; *fds is malloc'd (the caller frees it). */
size_t discovery_descriptors(const struct discovery_walk *walk, int **fds);

/* Where a file named by a Compose file (include, extends.file) stands in
 * this search. */
enum walk_place {
    WALK_FOUND,                 /* a directory operand holds it under a
                                   Compose name: the walk yields it */
    WALK_EXCLUDED,              /* an exclude glob skips it */
    WALK_EXTRA,                 /* a directory operand holds it, but the
                                   walk would not pick it by name */
    WALK_OUTSIDE                /* no directory operand holds it: the run
                                   may not read it */
};

/*
 * Places the file at real (a realpath) in the search.  For WALK_EXTRA and
 * WALK_FOUND (checked again in another file's context), *file receives a
 * new discovered file (opened from the operand's descriptor; the caller
 * owns it, discovered_file_free) with device and inode; else *file is
 * NULL.  No file is opened.
 */
enum walk_place discovery_place(const struct discovery_walk *walk, const char *real,
                                struct discovered_file **file);

/*
 * Where the directory at real (a realpath) lies below base_fd, the base
 * descriptor of a file of the search: its path below the directory operand
 * that has that descriptor ("" for the operand itself; malloc'd,
 * *relative) and its name in messages (malloc'd, *display).  false, with
 * nothing filled, when no such operand holds it.
 */
bool discovery_locate_directory(const struct discovery_walk *walk, const char *real,
                                int base_fd, char **relative, char **display);

/* Closes every descriptor of the walk (files' base_fd included) and frees
 * it (accepts NULL). */
void discovery_close(struct discovery_walk *walk);

#endif
