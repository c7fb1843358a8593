#!/bin/sh
# Seed 003: the hardened argv of container_run_argv(), as a command line.
# Its four hardening flags satisfy SBX101, SBX102, SBX104 and SBX105; the
# seed has no --read-only, --cpus or --user, so SBX103, SBX106 and SBX107
# are reported.
docker run -d --rm --name lev-abc --cap-drop ALL --security-opt no-new-privileges \
  --pids-limit 512 --memory 2g -v /work:/work -v /data:/data -w /work \
  ubuntu:24.04 sleep infinity
# One flag less (no --memory): SBX105 for this one.
docker run -d --rm --name lev-less --cap-drop ALL --security-opt no-new-privileges \
  --pids-limit 512 -v /work:/work -w /work ubuntu:24.04 sleep infinity
