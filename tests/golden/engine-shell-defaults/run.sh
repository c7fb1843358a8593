#!/bin/sh
# A value whose only expansions are shell defaults is read as the shell
# reads it with the variables unset (0.3): a dangerous default is an error
# keyed by what it gives, a harmless one stays a warning.  A --mount of
# type bind is a bind whatever its source.
docker run --pid=${PIDNS:-host} alpine
docker run --privileged=${PRIV-true} --cap-add "${CAP:-SYS_ADMIN}" alpine
docker run --security-opt "seccomp=${SECCOMP:-unconfined}" alpine
docker run --mount "type=bind,src=$HOME,dst=/h" --mount type=bind,source="$(pwd)",target=/app alpine
# Warnings: harmless defaults, other expansions, an interpolated type or volume.
docker run --pid=${PIDNS:-private} --network "${NET:+host}" --ipc=$IPC alpine
docker run --mount "type=$T,src=/etc,dst=/e" --mount "src=$VOL,dst=/v" alpine
