/*
 * scan.h - check one discovered file from bytes to findings.
 *
 * read (never blocking, size-limited) -> encoding check -> YAML model ->
 * rules -> suppression comments.  Every problem becomes a warning finding
 * of the file; nothing here stops the run.
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
    const struct sl_host *host;
    size_t max_file_size;       /* bytes; 0 = no limit */
    struct model_limits limits;
};

/*
 * Checks file and leaves the results in *check (initialised here; release
 * with file_check_release()).  check->path and check->package borrow from
 * file, which must outlive *check.
 */
void scan_file(const struct scan_settings *settings,
               const struct discovered_file *file, struct file_check *check);

#endif
