/*
 * devcontainer_front.h - the dev container front-end of the container
 * model (SPEC §15 "Dev containers", §18).
 *
 * A devcontainer.json (read by core/read/jsonc.c into the YAML model's
 * node tree, with the JSON's own positions) describes one container that
 * the devcontainer CLI, VS Code or Codespaces start with the engine.  Its
 * scope is a container on SL_PLATFORM_ENGINE whose service is always
 * "devcontainer": the name setting is display text that people change
 * freely (and often holds spaces or emoji), while keys must stay stable
 * for allowlists; the file's path already says which dev container it is.
 *
 * What is read, each with its own field in keys:
 *  - privileged, capAdd, securityOpt, containerUser (the user the
 *    container runs as), appPort (a number is published on 127.0.0.1, a
 *    string as -p reads it), mounts (objects, and strings in --mount syntax),
 *    workspaceMount (--mount syntax), hostRequirements.gpu (the CLI then
 *    passes --gpus all), build.options (--allow ENTITLEMENT of the
 *    engine's build);
 *  - runArgs, the engine's run flags, read by the engine-command
 *    front-end (core/kinds/engine_command.c), the one reader of every
 *    engine command line: the same findings, keys and SL011 warnings as a
 *    shell script's flags; only the hints of missing settings are in the
 *    file's own JSON;
 *  - features that grant the host, matched by id with or without
 *    ghcr.io/devcontainers/features/ and a version: docker-outside-of-docker
 *    and its old id docker-from-docker bind-mount the engine socket and
 *    set label=disable; docker-in-docker runs privileged.  Fields are
 *    "features.ID".
 * initializeCommand is left to SBX005 (it runs on the host); init and the
 * commands that run inside the container need no check.  ${localEnv:X},
 * ${localWorkspaceFolder} and the other ${...} variables make a value
 * interpolated: it cannot be checked.
 */
#ifndef SANDLINT_DEVCONTAINER_FRONT_H
#define SANDLINT_DEVCONTAINER_FRONT_H

#include "container_model.h"

/* The service of a dev container's findings. */
#define DEVCONTAINER_SERVICE "devcontainer"

/* Hands the steps of a dev container document to reading->sink: the
 * document, its service (for rules of ABI 1.0-1.2 that declare the kind,
 * and SBX005's initializeCommand) and its container scope; anything but
 * an object is an error (not checked). */
void devcontainer_front_read(struct model_reading *reading, const struct sl_node *root);

#endif
