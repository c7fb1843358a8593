/*
 * kubernetes_walk.h - what a Kubernetes object holds wherever it holds it
 * (SPEC §13 "Kubernetes: every pod template, whatever holds it").
 *
 * The known paths of kubernetes.h name where the common workloads keep
 * their pod spec; custom resources keep theirs anywhere.  This walk looks
 * at every node of an object once (per path: aliases can repeat a node)
 * and finds:
 *   - pod specs by shape: a mapping with a containers or initContainers
 *     list of mappings that hold image (it does not look inside them: the
 *     front-end reads them);
 *   - host paths: a mapping with a hostPath key (a pod volume, a
 *     PersistentVolume's spec), or with a hostDisk key when asked (KubeVirt);
 *   - security keys it cannot place: securityContext, hostNetwork, hostPID,
 *     hostIPC (the caller decides whether the object's kind explains them).
 * Nodes the caller already read (the pod specs of known paths, Argo
 * templates) are skipped with everything below them.  The walk is bounded
 * in depth and in nodes visited; past either bound it says so.
 */
#ifndef SANDLINT_KUBERNETES_WALK_H
#define SANDLINT_KUBERNETES_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "yaml_model.h"

enum kubernetes_found_kind {
    KUBERNETES_FOUND_POD_SPEC = 1,  /* node: the pod spec; key: its key */
    KUBERNETES_FOUND_HOST_PATH,     /* node: the mapping holding the key
                                       named by holder_key */
    KUBERNETES_FOUND_SECURITY_KEY   /* node: the value; key: the key */
};

struct kubernetes_found {
    enum kubernetes_found_kind kind;
    const struct sl_node *node;
    const struct sl_node *key;      /* NULL when the node is an item */
    const struct sl_node *parent;   /* the mapping that holds key, or NULL */
    const char *holder_key;         /* HOST_PATH: "hostPath" or "hostDisk" */
    char *path;                     /* malloc'd: where, as
                                       "spec.replicatedJobs[0].template" */
};

struct kubernetes_walk {
    struct kubernetes_found *items; /* malloc'd, in the order written */
    size_t count, capacity;
    bool over_limit;                /* a bound was reached: the rest of the
                                       object was not looked at */
};

/* Bounds of one object's walk. */
#define KUBERNETES_WALK_MAX_DEPTH 64
#define KUBERNETES_WALK_MAX_NODES 200000

/* Walks object (a mapping) into walk (initialised to zero), skipping the
 * skip_count nodes of skip; host_disk: KubeVirt's hostDisk is a host path
 * too. */
void kubernetes_walk_object(struct kubernetes_walk *walk, const struct sl_node *object,
                            const struct sl_node *const *skip, size_t skip_count,
                            bool host_disk);

/* Frees what the walk holds; it is empty afterwards. */
void kubernetes_walk_release(struct kubernetes_walk *walk);

/* Whether mapping is a pod spec by its shape (see above). */
bool kubernetes_is_pod_spec_shape(const struct sl_node *mapping);

#endif
