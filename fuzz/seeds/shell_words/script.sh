 #!/bin/sh
# The first byte of a seed picks the dialect: ' ' a script at 1:1.
set -eu
IMAGE=${IMAGE:-alpine}
sudo -E docker run --rm -itv "$PWD":/w --cap-add=SYS_ADMIN \
    --security-opt seccomp=unconfined --mount type=bind,src=/,dst=/host,ro \
    -e TOKEN="$(cat ~/.token)" --name 'box 1' "${IMAGE}" sh -c 'echo "$HOME"'
CID=$(podman create --privileged --pid=host -v /var/run/docker.sock:/s x) && echo "$CID"
env -i PATH=/bin nerdctl -n k8s.io run --net host `echo img` >/dev/null 2>&1 &
cat <<EOF2 | bash
docker run --privileged $(echo nope)
EOF2
case "$1" in start) docker container run -d --gpus all y;; esac
bash -lc "docker run --ipc=host z" ; eval 'docker run --uts host w'
