/*
 * confine.h - self-confinement before reading untrusted files.
 *
 * sandlint prepares (options, config, plugins loaded, libc warmed, output
 * opened), then confines itself - Landlock: read-only access to the
 * operands' trees and nothing else; seccomp: no sockets, exec, ptrace,
 * namespaces, mounts, permission changes, writing opens, ... - and checks
 * that the confinement holds before it reads any Compose file.
 */
#ifndef SANDLINT_CONFINE_H
#define SANDLINT_CONFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "string_list.h"

enum confine_mode {
    CONFINE_AUTO = 0,       /* confine where possible, say once when not */
    CONFINE_REQUIRE,        /* refuse to run unconfined (exit 2) */
    CONFINE_OFF
};

/* Parses "auto", "require", "off"; -1 when unknown. */
int confine_parse_mode(const char *text);

/* Closes every inherited descriptor above stderr and turns core dumps off.
 * Call first thing, before anything is opened. */
void confine_prepare(void);

/* Loads what libc loads lazily (messages of strerror and strsignal) while
 * files can still be opened. */
void confine_warm_libc(void);

/*
 * Confines this process to reading paths (files or directory trees: the
 * scanned trees, which the self-test probes) and also_readable (files and
 * trees the process needs besides them, such as plugins; may be NULL).
 * single_process: no workers will be forked (--no-isolation), so the
 * strict signal rules apply here already.  In auto mode, when confinement
 * is impossible, a note is printed once to stderr and 0 is returned.
 * Returns 0 when the process may go on, -1 after printing why it must not
 * (exit 2): confinement required but impossible, or a probe succeeded.
 */
int confine_apply(enum confine_mode mode, const char *const *paths,
                  size_t count, const struct string_list *also_readable,
                  bool single_process);

/* In a new worker: adds the worker's seccomp layer, under which it may
 * write to result_fd only.  Returns 0 or -1. */
int confine_worker(void *unused, int result_fd);

/* Whether confine_apply confined this process. */
bool confine_active(void);

/* --sandbox-check: prints the kernel's Landlock ABI, seccomp availability
 * and each probe's result in a confined child.  Returns the exit status
 * (0 only when every probe was refused). */
int confine_sandbox_check(FILE *out, const char *tree);

#endif
