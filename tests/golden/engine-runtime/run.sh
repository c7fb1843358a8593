#!/bin/sh
# --runtime on engine command lines (SPEC 15: the rule of Compose runtime, SBX007)
docker run --runtime runc img
docker run --runtime=runsc img
podman run --runtime gvisor img
docker run --runtime "$RT" img
nerdctl run --runtime kata img
