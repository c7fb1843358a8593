#!/bin/sh
# Every flag of the privileges group, one command each, so each finding's
# key and line can be seen.
docker run --privileged alpine
docker run --cap-add SYS_ADMIN --cap-add=NET_ADMIN,SYS_PTRACE alpine
docker run --device /dev/kvm:/dev/kvm alpine
docker run --security-opt seccomp=unconfined --security-opt apparmor:unconfined \
  --security-opt label=disable --security-opt systempaths=unconfined alpine
docker run --gpus all alpine
docker run --pid host --network=host --ipc host --uts host --userns host --cgroupns host alpine
docker run --net host alpine
docker run -v /etc:/host-etc:ro -v /:/host --mount type=bind,source=/var/run/docker.sock,target=/s alpine
docker run -itv /run/containerd:/c alpine
podman run --runtime runc alpine
nerdctl container create --use-api-socket alpine
sudo -E docker run --device-cgroup-rule 'c 10:200 rwm' alpine
sh -c 'docker run --privileged alpine'
