/*
 * stdin_file.h - the Compose file given on standard input ("-").
 *
 * The coordinator reads it whole before it confines itself, and it goes
 * through the pipeline like any discovered file, checked in a worker; its
 * name (--stdin-filename, default compose.yaml in the current directory)
 * gives it a place for packages, allowlists, suppressions and output.
 */
#ifndef SANDLINT_STDIN_FILE_H
#define SANDLINT_STDIN_FILE_H

#include <stddef.h>

#include "discover.h"

/*
 * Reads standard input (at most max_size bytes; more is a problem of the
 * file, not an error of the run) into a new discovered file named name
 * (NULL: "compose.yaml"), shown relative to root (absolute, normalised).
 * The caller owns the result (discovered_file_free).
 */
struct discovered_file *stdin_file_read(const char *name, const char *root,
                                        size_t max_size);

#endif
