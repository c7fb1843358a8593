#!/bin/sh
# Host paths a command line hands the container without -v (0.3):
# podman's and nerdctl's --rootfs (the image word is a host directory, '/'
# the whole host), podman's ns:PATH namespaces, --mount type=glob, and
# --mount type=volume whose volume-opt fields make the local driver bind a
# host path.  The last lines are fine.
podman run --rootfs / sh
podman run --rootfs=true /srv/rootfs:O sh
nerdctl run --rootfs "$ROOTFS" sh
podman run --rootfs "$(pwd)/rootfs" sh
podman run --pid=ns:/proc/1/ns/pid --network ns:/proc/1/ns/net alpine
podman run --ipc=ns:/proc/1/ns/ipc --uts=ns:/proc/1/ns/uts --userns=ns:/proc/1/ns/user \
  --cgroupns=ns:/proc/1/ns/cgroup alpine
podman run --mount type=glob,src=/etc/*,dst=/e alpine
docker run --mount type=volume,src=x,dst=/y,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=/etc alpine
docker run --mount 'dst=/a,volume-opt=o=rbind,volume-opt=device=/srv/a' \
  --mount dst=/b,volume-opt=o=bind,volume-opt=device=/srv/b -v data:/c \
  --mount src=data,dst=/d,volume-opt=o=bind,volume-opt=device=/srv/data alpine
podman run --rootfs=false alpine
podman run --pid=private --network=none --mount type=tmpfs,dst=/t alpine
docker run --mount type=volume,src=nfs,dst=/n,volume-opt=type=nfs,volume-opt=o=addr=10.0.0.1,volume-opt=device=:/export alpine
# The docker CLI refuses a bare "disable" (the daemon, which GitLab
# Runner talks to, reads it as label=disable).
docker run --security-opt disable alpine
