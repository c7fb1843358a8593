#!/bin/bash
# Programs that run their arguments as a command (0.3): the engine command
# behind them is checked as if written alone.  The last lines are fine.
echo a | xargs -r -I{} docker run --privileged alpine
su -c "docker run --privileged alpine"
su - deploy -c 'podman run --pid=host alpine'
find . -maxdepth 0 -exec docker run --privileged alpine \;
flock /tmp/l docker run --privileged alpine
flock -w 5 /tmp/l -c "docker run --cap-add SYS_ADMIN alpine"
watch -n 60 docker run --privileged alpine
watch 'docker run --network host alpine'
bash <<EOS
docker run -v /:/host alpine
EOS
sudo sh -s <<-'EOF'
	docker run --ipc=host alpine
	EOF
ENGINE=${ENGINE:-podman}
$ENGINE run --privileged alpine
"${CONTAINER_RUNTIME:-docker}" run --uts=host alpine
docker compose run -v /:/host web
docker compose -f ci.yml run --rm -T -p 8080:80 web
docker-compose run --cap-add SYS_ADMIN web
podman-compose run -v /etc:/e web
# Fine: no engine run, or nothing the flags add.
find . -name '*.sh' -print
su deploy
xargs docker ps
watch -x docker ps
cat <<EOF
docker run --privileged alpine
EOF
bash script.sh <<EOF
docker run --privileged alpine
EOF
docker compose up -d
docker compose run --rm --service-ports -e A=1 web sh
# A variable the script assigned an engine's name to runs that engine
# (until it is given another value).
CT=podman
$CT run --privileged alpine
export RT=/usr/bin/docker
"${RT}" container run --pid=host alpine
CT=buildah
$CT run --privileged alpine
