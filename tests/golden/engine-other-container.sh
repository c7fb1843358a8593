#!/bin/sh
# SBX002/SBX003 on a command line: joining or importing from another
# container names one of the engine's, not one "outside this Compose
# file" (there is no Compose file).
docker run --network=container:foo alpine
docker run --volumes-from other alpine
podman run --ipc container:bar alpine
# Negative: a network of its own.
docker run --network none alpine
