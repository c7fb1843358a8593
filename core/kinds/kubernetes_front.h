/*
 * kubernetes_front.h - the Kubernetes front-end of the container model
 * (SPEC §12, §18).
 *
 * Reads one document of Kubernetes objects: a List's items (bounded in
 * depth and in objects per file), each object's pod specs (kubernetes.h's
 * shapes) as pod scopes and their containers, init and ephemeral
 * containers as container scopes, and a ServiceAccount as an account
 * scope.  Settings are read in Kubernetes' terms: the securityContext of
 * the container over the pod's (the effective view), resources.limits,
 * hostNetwork and the other pod switches, automountServiceAccountToken,
 * hostPath volumes; Helm template text ("{{") cannot be checked.  Every
 * scope's platform is SL_PLATFORM_KUBERNETES.
 *
 * The agent-env front-end reads its services' containers with the same
 * container reader (an agent-env service is a container of the pod the
 * chart makes), and its additionalResources as objects.
 */
#ifndef SANDLINT_KUBERNETES_FRONT_H
#define SANDLINT_KUBERNETES_FRONT_H

#include "container_model.h"
#include "kubernetes.h"

/* Hands the steps of a Kubernetes document to reading->sink: an object,
 * or a List of them; anything else is a structure warning. */
void kubernetes_front_read(struct model_reading *reading, const struct sl_node *root);

/* Hands the steps of one object (depth: how many Lists hold it) to
 * reading->sink: an agent-env file's additionalResources items. */
void kubernetes_front_read_object(struct model_reading *reading,
                                  const struct sl_node *object, unsigned depth);

/* A container scope in group for container of a pod or agent-env service
 * (kind SL_KIND_*: agent-env's chart gives a container without resources
 * its own limits), named after prefix, under parent (its pod: the
 * container inherits what the pod sets).  Findings about the container as
 * a whole point at key (an agent-env service's key), or when NULL at its
 * list item. */
/* Reports (SL008) the security settings of found's container that have a
 * type Kubernetes does not take (kubernetes_shapes.h), named after prefix. */
void kubernetes_front_check_shapes(struct model_reading *reading, const char *prefix,
                                   const struct kubernetes_container *found);

struct model_scope *kubernetes_front_container(struct model_group *group,
                                               struct model_scope *parent, int kind,
                                               const char *prefix, const struct sl_node *key,
                                               const struct kubernetes_container *container);

/* Fills fill with the hostPath volumes of pod (a pod spec, or an
 * agent-env service): SL_SETTING_MOUNTS. */
void kubernetes_front_fill_mounts(struct model_fill *fill, const struct sl_node *pod);

/* model_reader.mounts of a pod scope (its mapping is a pod spec or an
 * agent-env service): its hostPath volumes. */
int kubernetes_front_pod_mounts(const struct model_scope *scope, struct sl_context *ctx,
                                size_t mount_size, sl_mount_fn visit, void *data,
                                const char **problem);

/* Fills fill with a service-account setting (SL_SETTING_SERVICE_ACCOUNT_
 * TOKEN or _NAME) written in mapping: a pod spec, a ServiceAccount, the
 * top level of agent-env values. */
void kubernetes_front_fill_account(struct model_fill *fill, const struct sl_node *mapping,
                                   int id);

/* Adds to fill (SL_SETTING_SERVICE_ACCOUNT_TOKEN) one value per
 * serviceAccountToken source of a projected volume of pod (a pod spec, or
 * an agent-env service): each mounts an API token wherever
 * automountServiceAccountToken says.  An entry, on (meaning 1), its text
 * the volume's name. */
void kubernetes_front_fill_projected_tokens(struct model_fill *fill,
                                            const struct sl_node *pod);

/* Fills fill with a setting written in mapping under name as Kubernetes
 * reads a switch or a name: a flag (form SL_FORM_FLAG: on when true), or
 * a scalar (SL_FORM_SCALAR).  Template text cannot be checked. */
void kubernetes_front_fill_field(struct model_fill *fill, const struct sl_node *mapping,
                                 const char *name, int form);

#endif
