#!/bin/sh
# sandlint: ignore[SBX001] -- the fuzzer needs ptrace and its own devices
docker run --name fuzzer \
  --cap-add SYS_PTRACE \
  --device /dev/fuse \
  -v /var/run/docker.sock:/var/run/docker.sock \
  alpine
docker run --privileged alpine  # sandlint: ignore[SBX001] -- a nested engine for tests
docker run --privileged alpine
# sandlint: ignore[SBX002] -- nothing to suppress here
docker run alpine
