/*
 * compose_front.h - the Compose front-end of the container model (SPEC §7,
 * §7b, §18).
 *
 * Reads one Compose document: its structure (services, the legacy format
 * without services, a file that is Kubernetes rather than Compose), and
 * for each service a container scope whose settings it fills on demand in
 * Compose's own terms: the written view is what the service writes, as
 * written; the effective view is the service as Compose merges it
 * (compose_extends.h: extends in the same file, !reset, !override), with
 * Compose's value syntaxes (compose_syntax.h) and its mount rules
 * (host_mounts.h).  Every scope's platform is SL_PLATFORM_ENGINE.
 */
#ifndef SANDLINT_COMPOSE_FRONT_H
#define SANDLINT_COMPOSE_FRONT_H

#include "container_model.h"

/* Hands the steps of the Compose document root to reading->sink. */
void compose_front_read(struct model_reading *reading, const struct sl_node *root);

#endif
