/*
 * host_mounts.h - the host mounts of a service, enumerated once for every
 * rule (the host_mounts service of plugin ABI 1.1).
 *
 * SBX003 (mounts) and SBX006 (engine_sockets) must agree exactly on what a
 * host mount is: SBX006 reports the ones that expose a container engine
 * API and SBX003 every other one.  An in-house rule about mounts must agree
 * with both.  So the walk lives here, in the core, and every plugin reaches
 * it through sl_host.host_mounts().
 *
 * A host mount is one of (SPEC §7, SBX003):
 *   - a short-syntax item SOURCE:TARGET[:MODE] whose source is a host path;
 *   - a long-syntax mapping of type bind or npipe (or without a type, when
 *     its source is a host path);
 *   - a short- or long-syntax reference to a named volume whose top-level
 *     definition uses the local driver (or none) and lists bind or rbind
 *     in driver_opts.o; its host path is driver_opts.device.
 * A Kubernetes pod spec's (or an agent-env service's) hostPath volumes are
 * host mounts too, built here by the same constructors, so that a path is
 * judged alike whatever syntax names it.
 * Besides host mounts the walk reports volumes_from container:NAME entries,
 * the host paths that a named volume's own (not local) driver may
 * bind-mount (SL_MOUNT_DRIVER_PATH), and the entries that cannot be checked
 * (interpolated, or of a shape that cannot hold a mount), in the order
 * written: volumes, then volumes_from.  Where a host path lies (a host
 * system directory, outside the project) is judged by host_paths.c.
 */
#ifndef SANDLINT_HOST_MOUNTS_H
#define SANDLINT_HOST_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>

#include "sandlint/plugin.h"

/* The smallest struct sl_mount a caller may declare: ABI 1.1's. */
#define HOST_MOUNT_SIZE_1_1 \
    (offsetof(struct sl_mount, interpolated_length) + sizeof(size_t))

/*
 * The host_mounts() host service (see plugin.h) for a Compose service.
 * root is the service's document (its top-level volumes define named
 * volumes), service the service's mapping, mount_size the caller's
 * sizeof(struct sl_mount); ctx is only handed to visit.  The struct given
 * to visit, and every text it points to, is valid only during that call.
 * Returns SL_OK, or SL_ERROR when visit did not return SL_OK, or, with
 * *problem set to a static message for the caller to record, when
 * mount_size is too small or visit is NULL.
 */
int host_mounts_each(struct sl_context *ctx, const struct sl_node *root,
                     const struct sl_node *service, size_t mount_size,
                     sl_mount_fn visit, void *data, const char **problem);

/*
 * What a Compose file's interpolation resolves to (SPEC §13): resolve
 * returns true with the text Compose uses (valid until the walk's caller
 * is done) when text resolves with the project's variables.  A short
 * volume item whose source is only an interpolation ("${DATA}:/data") and
 * that resolves to a host path is delivered as that host mount, keyed by
 * the resolved source; one that resolves to anything else stays an
 * interpolated entry (it cannot be checked).
 */
struct host_mount_resolver {
    bool (*resolve)(void *data, const char *text, size_t length, const char **resolved,
                    size_t *resolved_length);
    void *data;
};

/* host_mounts_each() with a resolver (NULL: none, as host_mounts_each). */
int host_mounts_each_resolved(struct sl_context *ctx, const struct sl_node *root,
                              const struct sl_node *service, size_t mount_size,
                              sl_mount_fn visit, void *data,
                              const struct host_mount_resolver *resolver,
                              const char **problem);

/*
 * The host_mounts() host service for an agent-env service or a pod spec
 * (pod, a mapping): the hostPath volumes of its volumes[] (syntax
 * SL_MOUNT_HOST_PATH_VOLUME), keyed by the path as a Compose bind mount of
 * it is; a path of Helm template text cannot be checked.  Returns as
 * host_mounts_each() does.
 */
int host_mounts_path_volumes(struct sl_context *ctx, const struct sl_node *pod,
                             size_t mount_size, sl_mount_fn visit, void *data,
                             const char **problem);

/*
 * The host paths a Kubernetes object holds outside any pod spec's volumes
 * (SPEC §13: hostPath anywhere, a PersistentVolume's, KubeVirt's hostDisk):
 * holders[i] is a mapping whose key holder_keys[i] ("hostPath",
 * "hostDisk") holds {path: ...}, read as a hostPath volume is.  Returns as
 * host_mounts_each() does.
 */
int host_mounts_path_holders(struct sl_context *ctx, const struct sl_node *const *holders,
                             const char *const *holder_keys, size_t count,
                             size_t mount_size, sl_mount_fn visit, void *data,
                             const char **problem);

/* The SL_MOUNT_* flags that say where a host path lies (host_paths.h):
 * SL_MOUNT_SYSTEM_PATH, SL_MOUNT_SYSTEM_DIRECTORY, SL_MOUNT_OUTSIDE_PROJECT,
 * or 0 (and 0 for a NULL source).  For every service that reports mounts,
 * Compose or Kubernetes hostPath alike. */
unsigned host_mounts_place_flags(const char *source, size_t source_length);

#endif
