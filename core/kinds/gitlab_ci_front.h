/*
 * gitlab_ci_front.h - the GitLab CI front-end of the container model (SPEC
 * §15 "CI job containers", "Engine command lines"): a .gitlab-ci.yml.
 *
 * A job's own container (image:) and its services: items carry no
 * privilege keys (the runner's config.toml decides those:
 * gitlab_runner_front.h), so what a file can ask for is in its shell
 * text: every docker, podman or nerdctl run or create in script:,
 * before_script: and after_script: of each job, of hidden jobs (.name:
 * templates that jobs extend) and of default:, and the old top-level
 * before_script:/after_script:, is a container (shell_front.h).  A
 * script: item is a string or a list of strings (nested lists too, as
 * !reference results are).
 */
#ifndef SANDLINT_GITLAB_CI_FRONT_H
#define SANDLINT_GITLAB_CI_FRONT_H

#include "container_model.h"

/* Hands the steps of the .gitlab-ci.yml document root to reading->sink. */
void gitlab_ci_front_read(struct model_reading *reading, const struct sl_node *root);

#endif
