/*
 * rcds_front.h - the rCDS challenge front-end of the container model
 * (SPEC §15 "kCTF and rCDS", §18).
 *
 * An rCDS challenge.yaml (or challenge.json) without apiVersion lists its
 * containers under containers.NAME (image, build, ports, resources).
 * Upstream rCDS renders no security context and mounts no
 * service-account token, but deployers built on it pass a container's
 * securityContext through to the pod, and real challenge archives set
 * privileged: true there: what the file asks for is checked as written,
 * each container read as a Kubernetes container (kubernetes_front.h) with
 * no pod above it.  The service of a container's findings is its NAME.
 * A kCTF Challenge has apiVersion and kind: it is a Kubernetes object.
 */
#ifndef SANDLINT_RCDS_FRONT_H
#define SANDLINT_RCDS_FRONT_H

#include "container_model.h"

/* Hands the steps of an rCDS challenge document to reading->sink: the
 * document, then per container its service step and container scope. */
void rcds_front_read(struct model_reading *reading, const struct sl_node *root);

#endif
