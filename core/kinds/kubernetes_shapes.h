/*
 * kubernetes_shapes.h - security settings of the wrong YAML type.
 *
 * A Kubernetes pod spec or container (also an agent-env service or an
 * rCDS container, read as one) whose security setting has a type the API
 * server does not take (securityContext: "privileged", capabilities as a
 * list, privileged: "maybe", hostNetwork: [true], a hostPath that is a
 * string) cannot be placed in the container model: each is SL008
 * not_understood, an error (SPEC §13), so that the run fails instead of
 * passing a setting nothing read.  Helm template text is left to SL009.
 */
#ifndef SANDLINT_KUBERNETES_SHAPES_H
#define SANDLINT_KUBERNETES_SHAPES_H

#include "container_model.h"
#include "yaml_model.h"

/* Reports the wrong-typed security settings of container (a mapping),
 * named name in messages. */
void kubernetes_shapes_container(struct model_reading *reading, const char *name,
                                 const struct sl_node *container);

/* The same for the fields of a container's securityContext (a mapping,
 * or NULL: nothing to report). */
void kubernetes_shapes_security(struct model_reading *reading, const char *name,
                                const struct sl_node *security);

/* Reports the wrong-typed security settings of a pod spec (a mapping):
 * its host switches, securityContext and volumes, named name. */
void kubernetes_shapes_pod(struct model_reading *reading, const char *name,
                           const struct sl_node *spec);

#endif
