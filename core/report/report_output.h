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
 * Standard output and destinations that are not regular files (a
 * terminal, a pipe, /dev/null) are written directly.
 */
#ifndef SANDLINT_REPORT_OUTPUT_H
#define SANDLINT_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct report_output {
    FILE *stream;               /* where the report is written */
    const char *path;           /* the destination as given; NULL: stdout */
    char *temporary;            /* owned; NULL when written directly */
    pid_t finisher;             /* the helper process, or -1 */
    int command_fd, reply_fd;   /* pipes to and from it, or -1 */
    bool exists;                /* the destination exists: its identity */
    dev_t device;
    ino_t inode;
};

/*
 * Opens the destination (path NULL or "-": standard output).  Call before
 * the process confines itself.  Returns 0, or -1 after printing why.
 */
int report_output_open(struct report_output *output, const char *path);

/* report_output_open() for a file that is replaced, not created: the new
 * file keeps the old one's permissions (when it exists). */
int report_output_open_replacing(struct report_output *output, const char *path);

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
