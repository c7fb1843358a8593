/*
 * host_paths.h - where a host path of a mount lies: in a host system
 * directory, or outside the Compose file's directory (SPEC §7, SBX003 0.2).
 *
 * The host mounts service (host_mounts.c) sets SL_MOUNT_SYSTEM_PATH,
 * SL_MOUNT_SYSTEM_DIRECTORY and SL_MOUNT_OUTSIDE_PROJECT from these, so that
 * SBX003 and in-house rules judge a path the same way.  Both functions are
 * lexical (the file system is never asked: the host that runs Compose is not
 * the one that runs sandlint) and pure: they read their arguments only.
 */
#ifndef SANDLINT_HOST_PATHS_H
#define SANDLINT_HOST_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* What host_path_system_place() finds. */
enum host_path_place {
    HOST_PATH_ORDINARY = 0,
    HOST_PATH_SYSTEM_DIRECTORY = 1,     /* is a host system directory */
    HOST_PATH_IN_SYSTEM_DIRECTORY = 2   /* lies under one */
};

/*
 * Whether path (length bytes, as written in the file) is, or lies under, a
 * host system directory, after lexical normalisation (repeated and trailing
 * '/', '.' segments and '..' removed).  The directories are seed 003's
 * forbidden mounts and the places that hold credentials:
 *   /proc /sys /dev /etc /boot /run /var/run /root /var/lib/docker and
 *   everything under them;
 *   ~/.ssh ~/.aws ~/.kube ~/.docker ~/.config/gcloud and everything under
 *   them, and the same under /home/USER;
 *   /, ~, /home and /home/USER themselves (not what lies under them:
 *   /home/alice/project is an ordinary project directory).
 * "~", "$HOME" and "${HOME}" all name the home directory; a path that
 * climbs above it ("~/..") is counted as /home.  A segment holding an
 * interpolation (/etc/${APP}) is not resolved: it matches a USER position,
 * and a path still lies under a directory its literal start names; '..'
 * after an interpolation is not resolved either.
 */
enum host_path_place host_path_system_place(const char *path, size_t length);

/*
 * Whether path is relative ('.', '..', './x', 'data/sub', '.\x', not
 * starting with '/', '\', '~', a drive or an interpolation) and one of its
 * '..' segments climbs out of the directory it is relative to: the Compose
 * file's ('../x', './a/../../b').  '\' separates segments too.  Segments
 * after the first one holding an interpolation are not judged.
 */
bool host_path_climbs_out(const char *path, size_t length);

#endif
