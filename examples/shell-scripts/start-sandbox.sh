#!/bin/sh
# An evaluation harness that starts its sandbox with docker run: the
# flags are checked as Compose's keys are (SBX001 --privileged, SBX006
# the engine socket), keyed by the --name value (sandbox:--privileged).
set -eu
docker run --rm -d --name sandbox \
    --privileged \
    -v /var/run/docker.sock:/var/run/docker.sock \
    example/sandbox:1.0 sleep infinity

# The same sandbox, hardened: nothing of the privileges group, and every
# flag of the hardening group (sandlint --extend-select sandbox_hardening).
docker run --rm -d --name sandbox-hardened \
    --cap-drop ALL --security-opt no-new-privileges \
    --read-only --tmpfs /tmp \
    --pids-limit 512 --memory 2g --cpus 2 --user 1000:1000 \
    --network none \
    example/sandbox:1.0 sleep infinity
