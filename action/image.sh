#!/usr/bin/env bash
# action/image.sh - the image step of the sandlint GitHub Action
# (action.yml, input `image`): instead of building sandlint, run the one in
# the project's container image.  Writes a `sandlint` command to
# $RUNNER_TEMP/sandlint-image/ that runs the image with the workspace
# mounted at its own path (so relative and absolute paths inside it, and
# the SARIF file, mean what they mean outside), as the runner's user, with
# no network, no capabilities, no new privileges and a read-only root file
# system: sandlint needs none of them.  Prints sandlint= (that command) to
# $GITHUB_OUTPUT.  Kept here so that it runs, and is tested
# (tests/action.sh), outside GitHub too.
#
# Environment: INPUT_IMAGE (the image, e.g. ghcr.io/sandlint/sandlint:0.3.0),
# GITHUB_WORKSPACE (default: the current directory), RUNNER_TEMP,
# GITHUB_OUTPUT.
set -euo pipefail
log() { printf 'sandlint action: %s\n' "$*" >&2; }
image=${INPUT_IMAGE:?INPUT_IMAGE names the image}
# An image reference, nothing else: it is written into a script.
if ! [[ $image =~ ^[A-Za-z0-9][A-Za-z0-9._/:@-]*$ ]]; then
    log "not an image reference: $image"
    exit 2
fi
engine=
for candidate in docker podman; do
    if command -v "$candidate" >/dev/null 2>&1; then
        engine=$candidate
        break
    fi
done
if [ -z "$engine" ]; then
    log "the image input needs docker or podman on the runner"
    exit 1
fi
workspace=$(cd "${GITHUB_WORKSPACE:-.}" && pwd)
dir="${RUNNER_TEMP:-/tmp}/sandlint-image"
mkdir -p "$dir"
# The workspace's path is quoted for the shell whatever it holds.
volume=$(printf '%q' "$workspace:$workspace")
# The runner's temporary directory too, read-only: the pull-request recipe
# keeps the base branch's configuration there, outside the checkout that
# --untrusted refuses it in (README.md, "Pull requests").
temp_volume=
if [ -n "${RUNNER_TEMP:-}" ] && [ -d "$RUNNER_TEMP" ]; then
    temp_volume="--volume $(printf '%q' "$RUNNER_TEMP:$RUNNER_TEMP:ro")"
fi
cat >"$dir/sandlint" <<SCRIPT
#!/usr/bin/env bash
# sandlint from the container image $image (the sandlint action's image input).
exec $engine run --rm --network none --read-only --tmpfs /tmp --cap-drop ALL \\
    --security-opt no-new-privileges --user "\$(id -u):\$(id -g)" \\
    --volume $volume --workdir "\$PWD" $temp_volume \\
    --env NO_COLOR --env FORCE_COLOR --env SANDLINT_UNTRUSTED \\
    $image "\$@"
SCRIPT
chmod +x "$dir/sandlint"
log "using $image through $engine"
echo "sandlint=$dir/sandlint" >> "${GITHUB_OUTPUT:-/dev/stdout}"
