/*
 * github_actions_front.h - the GitHub Actions front-end of the container
 * model (SPEC §15 "CI job containers", "Engine command lines"): a workflow
 * in .github/workflows.
 *
 * Containers: each job's container (jobs.JOB.container, a mapping or an
 * image string), service JOB/container, and each of its service
 * containers (jobs.JOB.services.NAME), service JOB/services/NAME.  Their
 * options are engine flags (engine_command.h), volumes are -v and ports
 * -p, as the runner passes them to docker create.  On Linux runners the
 * runner itself mounts /var/run/docker.sock into every job container: the
 * job container's use of the engine's API socket is the platform's
 * default (an SBX006 warning at container:).
 *
 * Steps: every run: of a step in the default shell (bash or sh) is shell
 * text whose engine commands are containers (shell_front.h).  Expressions
 * ${{ ... }} are filled in before the shell runs: a word holding one is
 * interpolated.
 */
#ifndef SANDLINT_GITHUB_ACTIONS_FRONT_H
#define SANDLINT_GITHUB_ACTIONS_FRONT_H

#include "container_model.h"

/* Hands the steps of the workflow document root to reading->sink. */
void github_actions_front_read(struct model_reading *reading, const struct sl_node *root);

#endif
