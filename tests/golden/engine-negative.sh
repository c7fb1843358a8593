#!/bin/bash
# A hardened sandbox: every hardening flag, nothing of the privileges group.
docker run --rm --name sandbox \
  --cap-drop ALL --security-opt no-new-privileges \
  --read-only --tmpfs /tmp \
  --pids-limit 512 --memory 2g --cpus 2 --user 1000:1000 \
  --network none -p 127.0.0.1:8080:80 \
  -v data:/data:ro --mount type=volume,source=cache,target=/cache \
  --runtime runsc ubuntu:24.04 sleep infinity
# Not a container's start: never checked.
docker ps --filter status=running
docker build -t x .
echo docker run --privileged alpine
docker exec -it sandbox sh
