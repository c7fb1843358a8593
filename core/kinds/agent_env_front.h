/*
 * agent_env_front.h - the agent-env front-end of the container model
 * (SPEC §12, §18): values for the agent-env Helm chart of
 * inspect_k8s_sandbox.
 *
 * The chart deploys one pod per service (services.S): the service is the
 * pod's main container, with its initContainers beside it; runtimeClassName
 * and volumes are the pod's; the top-level automountServiceAccountToken
 * and serviceAccountName are every pod's (a project scope, whose findings
 * have no service).  What the chart sets when a value is not given is
 * part of the model: the gvisor runtime class, and resource limits for a
 * container without resources.  additionalResources items are Kubernetes
 * objects, read by the Kubernetes front-end; a string item without
 * template text is parsed as the YAML stream the chart's tpl renders it
 * to, each object read the same way, its positions moved into the file
 * (a block scalar line for line).
 *
 * The chart modelled is agent-env 0.14 (inspect_k8s_sandbox; older charts
 * lack some keys and mounted a token by default).  Its CoreDNS sidecar is
 * a container of every sandbox pod: one container scope, service
 * "coredns", whose securityContext is the chart's default with
 * corednsSecurityContext merged over it as Helm merges values (mappings key
 * by key, lists replaced, null removing a default); findings about a
 * default point at the file's value that changed it.  A null
 * automountServiceAccountToken removes the chart's false: Kubernetes'
 * default, a token (SPEC §13).
 */
#ifndef SANDLINT_AGENT_ENV_FRONT_H
#define SANDLINT_AGENT_ENV_FRONT_H

#include "container_model.h"

/* Hands the steps of the agent-env values document root to reading->sink. */
void agent_env_front_read(struct model_reading *reading, const struct sl_node *root);

#endif
