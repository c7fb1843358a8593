/*
 * seccomp_filter.h - system-call filters for the confined process.
 *
 * Default allow; the calls a Compose linter never needs fail with EPERM
 * (clone3 and openat2 with ENOSYS, so libc falls back to clone and openat,
 * which are filtered).  Filters stack: the coordinator installs the base
 * filter; each worker adds a stricter layer after fork().
 */
#ifndef SANDLINT_SECCOMP_FILTER_H
#define SANDLINT_SECCOMP_FILTER_H

#include <stdbool.h>

enum seccomp_layer {
    /* The coordinator: may still signal its own workers (kill of the
     * parent process and of process groups is denied). */
    SECCOMP_COORDINATOR,
    /* A worker, or the only process with --no-isolation: may signal
     * nothing but itself. */
    SECCOMP_WORKER
};

/* Whether seccomp filtering is compiled in and the kernel has it. */
bool seccomp_filter_available(const char **why);

/* Installs the layer's filter on this process.  Needs no_new_privs set.
 * For SECCOMP_WORKER, writable_fd >= 0 is the only descriptor the process
 * may write to (its result pipe): every other write, truncation and
 * allocation of file space fails; -1 (the only process of --no-isolation,
 * which writes the report itself) leaves writes alone.  Returns 0, or -1
 * with *why set (malloc'd). */
int seccomp_filter_install(enum seccomp_layer layer, int writable_fd, char **why);

#endif
