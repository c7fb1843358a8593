/*
 * kubernetes.h - pod specs and containers of Kubernetes objects and
 * agent-env services (SPEC §12; the pod_specs and containers services of
 * plugin ABI 1.2; their hostPath volumes are host_mounts.h's).
 *
 * One walk for the core (which calls check_service once per pod spec) and
 * every plugin, so that an in-house rule sees exactly the pod specs and
 * containers the built-in rules see.  Every walk is bounded by the tree it
 * is given: no recursion, a fixed number of shapes.
 */
#ifndef SANDLINT_KUBERNETES_H
#define SANDLINT_KUBERNETES_H

#include <stdbool.h>
#include <stddef.h>

#include "sandlint/plugin.h"

/* The pod-spec shapes an object may hold (kubernetes_pod_spec). */
#define KUBERNETES_POD_SHAPES 5

/*
 * Whether object's apiVersion is of group: "GROUP/VERSION", or for the
 * core group ("") a version alone ("v1").
 */
bool kubernetes_api_group_is(const struct sl_node *object, const char *group);

/*
 * The index-th possible pod spec of object: a core (v1) Pod's spec, template.spec
 * (PodTemplate), spec.template.spec, spec.jobTemplate.spec.template.spec,
 * spec.podTemplate.spec.  Returns the spec when it is a mapping (and sets
 * *key to the key of the spec), else NULL.
 */
const struct sl_node *kubernetes_pod_spec(const struct sl_node *object, size_t index,
                                          const struct sl_node **key);

/* The metadata of the pod template whose spec kubernetes_pod_spec() gives
 * for index (a Pod's own metadata, template.metadata...), a mapping, or
 * NULL: where a template's annotations are. */
const struct sl_node *kubernetes_pod_template_metadata(const struct sl_node *object,
                                                       size_t index);

/* The value at a '.'-separated path of mapping keys below node
 * ("securityContext.capabilities.add"), with the last key's node in *key;
 * NULL when a step is missing or not a mapping. */
const struct sl_node *kubernetes_follow(const struct sl_node *node, const char *path,
                                        const struct sl_node **key);

/* "[<namespace>/]<kind>/<name>" of an object (namespace:
 * metadata.namespace when written; name: metadata.name, else
 * metadata.generateName, else "<unnamed>"); malloc'd. */
char *kubernetes_object_service(const struct sl_node *object);

/* One container of a pod spec or an agent-env service, as
 * kubernetes_each_container() finds it; pointers into the tree. */
struct kubernetes_container {
    int sort;                   /* enum sl_container_sort */
    const char *list;           /* "containers", "initContainers",
                                   "ephemeralContainers"; NULL for an
                                   agent-env or Compose service itself */
    size_t index;               /* its place in the list */
    const struct sl_node *mapping;
    const char *name;           /* its name as written, or NULL */
    size_t name_length;
};

typedef int (*kubernetes_container_fn)(const struct kubernetes_container *container,
                                       void *data);

/*
 * Calls visit for every container of service (a mapping) read as kind
 * (SL_KIND_*), in the order written: a pod spec's containers, then
 * initContainers, then ephemeralContainers; an agent-env service itself,
 * then its initContainers; any other service itself.  Items that are not
 * mappings are skipped.  Returns SL_OK, or the first status visit returned
 * that is not SL_OK.
 */
int kubernetes_each_container(int kind, const struct sl_node *service,
                              kubernetes_container_fn visit, void *data);

/* The service of findings about a container, malloc'd: prefix (the pod's
 * or agent-env service's) for a service itself, "prefix/NAME", or
 * "prefix/LIST[INDEX]" for a container without a name. */
char *kubernetes_container_service(const char *prefix,
                                   const struct kubernetes_container *container);

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


/* 1 when text holds Helm template text ("{{"), else 0. */
int kubernetes_is_templated(const char *text, size_t length);

#endif
