/*
 * gitlab_runner_front.h - the GitLab Runner front-end of the container
 * model (SPEC §15 "CI job containers"): a config.toml with [[runners]].
 *
 * Each runner's [runners.docker] table says how the runner starts every
 * job's containers, so it is two containers of the model: the build
 * container (service NAME/build, NAME the runner's name, else runner<N>
 * for the N-th [[runners]]) and the service containers (NAME/services).
 * Its keys are what docker run's flags are, read through the same
 * engine-flag reading (engine_command.h) and named in keys, messages and
 * hints by their TOML names: privileged, volumes, volumes_from, cap_add,
 * cap_drop, security_opt, devices, device_cgroup_rules, gpus,
 * network_mode, ipcmode, userns_mode, runtime, sysctls, memory, cpus for
 * the build container; services_privileged (privileged when unset),
 * services_security_opt, services_devices, service_memory and
 * service_cpus for the service containers; cap_add and cap_drop for both.
 *
 * The file is read with the TOML reader (core/read/toml/), with its
 * positions.  A config.toml without [[runners]] is another program's:
 * skipped; one that is not valid TOML but holds "[runners." cannot be
 * checked (an error).
 */
#ifndef SANDLINT_GITLAB_RUNNER_FRONT_H
#define SANDLINT_GITLAB_RUNNER_FRONT_H

#include <stdbool.h>
#include <stddef.h>

#include "container_model.h"

/* Hands the steps of the runners of config.toml text to reading->sink.
 * Returns false when the file is no GitLab Runner configuration. */
bool gitlab_runner_front_read(struct model_reading *reading, const char *text, size_t length);

#endif
