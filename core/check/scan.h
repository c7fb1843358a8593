/*
 * scan.h - check one discovered file from bytes to findings.
 *
 * read (never blocking, size-limited) -> encoding check -> YAML model ->
 * rules -> suppression comments.  A file that cannot be read, decoded or
 * parsed, or exceeds a limit, gets an error finding (an unchecked file
 * fails the run); nothing here stops the other files from being checked.
 */
#ifndef SANDLINT_SCAN_H
#define SANDLINT_SCAN_H

#include <stddef.h>

#include "check.h"
#include "discover.h"
#include "registry.h"
#include "yaml_model.h"

struct scan_settings {
    const struct registry *registry;
    size_t max_file_size;       /* bytes; 0 = no limit */
    size_t max_memory;          /* the worker's memory limit, for messages;
                                   0 = none */
    struct model_limits limits;
    bool untrusted;             /* suppression comments are reported, not
                                   honoured (--untrusted) */
};

/*
 * Checks file and leaves the results in *check (initialised here; release
 * with file_check_release()).
 */
void scan_file(const struct scan_settings *settings,
               const struct discovered_file *file, struct file_check *check);

/* Checks length bytes of text as if read from a file named display that
 * discovery picked for candidates (enum file_candidate; the kind is then
 * decided from the text as for a file), for fuzzing and tests.  display
 * and package are borrowed. */
void scan_text(const struct scan_settings *settings, const char *data,
               size_t length, const char *display, const char *package,
               unsigned candidates, struct file_check *check);

#endif
