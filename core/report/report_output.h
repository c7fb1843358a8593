/*
 * report_output.h - where the report goes (--output), so that a run that
 * fails, is interrupted or would overwrite one of its own inputs leaves
 * the destination untouched.
 *
 * A regular file (or a path that does not exist yet) is written as a
 * temporary file beside it, created before the process confines itself,
 * and renamed over the destination only when the run completes.  A
 * confined process may neither rename nor remove files, so a small helper
 * process, forked before confinement, does that one thing on request: it
 * renames the temporary file when told to commit, and removes it
 * otherwise - also when sandlint dies, since it then reads end of file.
 * Standard output, destinations that are not regular files (a terminal,
 * a pipe, /dev/null) and a symbolic link as the last component (such as
 * /dev/stdout, which renaming would replace) are written directly - but
 * only when the path lies outside the scanned trees: inside them, where the
 * repository's author could have planted it, such a destination is
 * refused, as is a symbolic link in any component of the path
 * (scanned_trees.h).  The
 * temporary file is created and renamed relative to the destination's
 * directory, opened once, so nothing swapped in later redirects it.
 */
#ifndef SANDLINT_REPORT_OUTPUT_H
#define SANDLINT_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct report_output {
    FILE *stream;               /* where the report is written */
    const char *path;           /* the destination as given; NULL: stdout */
    int dir_fd;                 /* the destination's directory (O_PATH),
                                   or -1; owned */
    char *name;                 /* the destination's name in it; owned */
    char *temporary;            /* name of the temporary file in dir_fd;
                                   owned; NULL when written directly */
    pid_t finisher;             /* the helper process, or -1 */
    int command_fd, reply_fd;   /* pipes to and from it, or -1 */
    bool exists;                /* the destination exists: its identity */
    dev_t device;
    ino_t inode;
};

struct scanned_trees;

/* Sets up an output that is not open (for releasing safely). */
void report_output_init(struct report_output *output);

/*
 * Opens the destination (path NULL or "-": standard output), refusing
 * symbolic links and destinations that are not regular files inside the
 * trees (borrowed for the call; NULL: none).  Call before the process
 * confines itself.  Returns 0, or -1 after printing why.
 */
int report_output_open(struct report_output *output, const char *path,
                       const struct scanned_trees *trees);

/* report_output_open() for a configuration that is edited: the new file
 * keeps the old one's permissions (when it exists), and a symbolic link is
 * refused wherever it lies (renaming over it would replace the link, not
 * edit the file it leads to), and so is a file nobody may write.  When it
 * exists, its text is read through the same directory (*text, *length:
 * malloc'd; NULL when the file does not exist), at most max_size bytes.
 * Messages name the file as shown. */
int report_output_open_replacing(struct report_output *output, const char *path,
                                 const char *shown, const struct scanned_trees *trees,
                                 size_t max_size, char **text, size_t *length);

/* Whether the destination is the file with this identity (an input the
 * report must not replace). */
bool report_output_is(const struct report_output *output, dev_t device,
                      ino_t inode);

/* Finishes the report: flushes it and puts it in place.  Returns 0, or -1
 * after printing why (the destination is then untouched). */
int report_output_commit(struct report_output *output);

/* Drops the report: the destination stays as it was.  Safe to call after
 * commit (it then does nothing). */
void report_output_abort(struct report_output *output);

#endif
