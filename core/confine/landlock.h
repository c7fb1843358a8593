/*
 * landlock.h - read-only filesystem confinement with Landlock.
 *
 * Best effort across Landlock ABI versions: the running kernel's ABI is
 * queried and every access right up to the newest that ABI knows is
 * handled (denied unless a rule grants it).  The distribution's
 * <linux/landlock.h> is older than the kernels sandlint runs on, so the
 * constants live in landlock.c.
 */
#ifndef SANDLINT_LANDLOCK_H
#define SANDLINT_LANDLOCK_H

#include <stddef.h>

/* The kernel's Landlock ABI version; 0 when Landlock is unavailable
 * (*why then says why, a static string). */
int landlock_abi(const char **why);

/*
 * Restricts this process (and every process it forks later) to reading the
 * given files and directory trees: no writes, no execution, no other reads
 * anywhere; no TCP bind or connect (ABI 4+); no signals or abstract Unix
 * sockets outside the domain (ABI 6+).  Needs no_new_privs set.  Returns
 * the ABI used (> 0), or -1 with *why describing the failure (malloc'd).
 */
int landlock_restrict(const char *const *paths, size_t count, char **why);

#endif
