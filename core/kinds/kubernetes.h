/*
 * kubernetes.h - pod specs, containers and hostPath volumes of Kubernetes
 * objects and agent-env services (SPEC §12; the pod_specs, containers and,
 * for these kinds, host_mounts services of plugin ABI 1.2).
 *
 * One walk for the core (which calls check_service once per pod spec) and
 * every plugin, so that an in-house rule sees exactly the pod specs and
 * containers the built-in rules see.  Every walk is bounded by the tree it
 * is given: no recursion, a fixed number of shapes.
 */
#ifndef SANDLINT_KUBERNETES_H
#define SANDLINT_KUBERNETES_H

#include <stddef.h>

#include "sandlint/plugin.h"

/* The pod-spec shapes an object may hold (kubernetes_pod_spec). */
#define KUBERNETES_POD_SHAPES 5

/*
 * The index-th possible pod spec of object: kind Pod's spec, template.spec
 * (PodTemplate), spec.template.spec, spec.jobTemplate.spec.template.spec,
 * spec.podTemplate.spec.  Returns the spec when it is a mapping (and sets
 * *key to the key of the spec), else NULL.
 */
const struct sl_node *kubernetes_pod_spec(const struct sl_node *object, size_t index,
                                          const struct sl_node **key);

/* "<kind>/<name>" of an object (name: metadata.name, else
 * metadata.generateName, else "<unnamed>"); malloc'd. */
char *kubernetes_object_service(const struct sl_node *object);

/*
 * The walks behind host services of plugin.h.  ctx is only handed to
 * visit.  Each returns SL_OK, or SL_ERROR when visit stopped the walk, or,
 * with *problem set to a static message for the caller to record (the
 * checker's set_error), when an argument is wrong (no callback, a struct
 * size that is not the ABI's).
 */

/* pod_specs() (plugin.h). */
int kubernetes_pod_specs(struct sl_context *ctx, const struct sl_node *object,
                         size_t pod_size, sl_pod_fn visit, void *data,
                         const char **problem);

/* containers() (plugin.h); kind is the kind the service is read as
 * (SL_KIND_*). */
int kubernetes_containers(struct sl_context *ctx, int kind, const char *service_name,
                          const struct sl_node *service, size_t container_size,
                          sl_container_fn visit, void *data, const char **problem);

/* host_mounts() for an agent-env service or a pod spec: its hostPath
 * volumes. */
int kubernetes_host_mounts(struct sl_context *ctx, const struct sl_node *service,
                           size_t mount_size, sl_mount_fn visit, void *data,
                           const char **problem);

/* 1 when text holds Helm template text ("{{"), else 0. */
int kubernetes_is_templated(const char *text, size_t length);

#endif
