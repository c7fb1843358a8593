!IMAGE ?= alpine
DOCKER := docker
run: build ; @$(DOCKER) run --rm $(IMAGE)
	-docker run --privileged \
	  -v $(PWD):/w $$IMG 'a $$b' # go
	+@podman run --userns=host $${X:-y}
define canned
docker run --pid=host canned
endef
