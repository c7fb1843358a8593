#!/bin/sh
# Values the shell fills in at run time cannot be checked: warnings.
docker run --cap-add "$CAP" -v "$PWD":/src -v "$(pwd)/x:/x" --network "$NET" \
  --security-opt "seccomp=${PROFILE}" --device "$DEV" alpine
docker run $EXTRA_FLAGS alpine
docker run --name "$NAME" --privileged alpine
docker $SUBCOMMAND --privileged alpine
