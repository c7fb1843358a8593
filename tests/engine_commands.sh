#!/bin/sh
# Engine command lines and CI job containers (SPEC §15): the attack forms
# of issue 22 as a user meets them, keys that allowlists and suppression
# comments match, discovery of every format, and hostile input (an
# unterminated quote, a 1 MB line, a script of a million docker run lines)
# ending in bounded time with a clear finding.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# --- the forms of issue 22 -------------------------------------------------
mkdir -p evals/scripts
cat > evals/scripts/start.sh <<'SCRIPT'
#!/usr/bin/env bash
set -euo pipefail
IMAGE=sandbox:latest
docker run --rm -d --name agent \
    --privileged \
    -v /:/host \
    "$IMAGE" sleep infinity
SCRIPT
expect_status 1 "docker run --privileged -v /:/host in a script" -- evals
contains "$out" "evals/scripts/start.sh:5:5: error: privileged mode grants every capability" "--privileged at its own line"
contains "$out" "add 'evals/scripts/start.sh = agent:--privileged' under [allowlist sandbox_privileges]" "the key is the --name value, never the line"
contains "$out" "evals/scripts/start.sh:6:5:" "-v /:/host points at its flag"

# A file with a shell's #! line and no extension, named on the command line.
printf '#!/bin/sh\nexec sudo podman run --cap-add=SYS_ADMIN alpine\n' > launcher
expect_status 1 "a named script with a #! line" -- launcher
contains "$out" "launcher:2:22: error: --cap-add grants the Linux capability 'SYS_ADMIN'" "sudo podman behind exec"
contains "$out" "launcher = run1:--cap-add:SYS_ADMIN'" "run<N> when the command has no --name"

# Combined short flags, = values, continuation lines, a command substitution.
cat > forms.sh <<'SCRIPT'
id=$(docker run -d -itv /var/run/docker.sock:/x alpine)
docker create --security-opt=seccomp=unconfined \
  --pid=host alpine
bash -c "nerdctl run --net=host alpine"
SCRIPT
expect_status 1 "shell forms" -- forms.sh
contains "$out" "forms.sh:1:23: error: bind-mounts host path '/var/run/docker.sock'" "-itv VALUE inside \$(...)"
contains "$out" "forms.sh = run2:--security-opt:seccomp=unconfined'" "the second engine command is run2"
contains "$out" "forms.sh:3:3: error: --pid 'host'" "a continued line keeps its own line number"
contains "$out" "forms.sh:4:22: error: --network 'host'" "the text of bash -c is read where it is written"

# --- allowlists and suppressions match the keys ----------------------------
mkdir reviewed
printf 'docker run --name agent --privileged alpine\ndocker run --privileged alpine\n' > reviewed/run.sh
printf '[sandlint]\n[allowlist sandbox_privileges]\nreviewed/run.sh = agent:--privileged\n' > .sandlint.ini
expect_status 1 "allowlisted by key" -- reviewed
contains "$err" "1 error, 0 warnings in 1 file (2 services), 1 allowlisted" "the entry accepts the named container only"
rm .sandlint.ini
printf '# sandlint: ignore[SBX001] -- needs privileges\ndocker run --privileged \\\n  --cap-add ALL alpine\n' > suppressed.sh
expect_status 0 "a comment above a continued command covers all of it" -- suppressed.sh
contains "$err" "2 suppressed" "both findings suppressed"
expect_status 1 "--untrusted shows, never obeys, shell comments" -- --untrusted suppressed.sh
contains "$out" "suppressed.sh:1:1: warning: suppression comment not honoured: --untrusted [SL004]" "the comment is reported"

# --- discovery: every format by a plain scan --------------------------------
mkdir -p repo/.github/workflows repo/ci
printf 'jobs:\n  t:\n    runs-on: ubuntu-latest\n    container:\n      image: x\n      options: --privileged\n' > repo/.github/workflows/t.yml
printf 't:\n  script:\n    - docker run --privileged x\n' > repo/.gitlab-ci.yml
printf 'run:\n\tdocker run --privileged x\n' > repo/Makefile
printf 'docker run --privileged x\n' > repo/ci/run.bash
printf '[[runners]]\n  [runners.docker]\n    privileged = true\n' > repo/ci/config.toml
printf 'title = "not a runner"\n' > repo/config.toml
mkdir -p repo/bin
printf '#!/usr/bin/env bash\nexec docker run --privileged x\n' > repo/bin/start-sandbox
printf 'MIT License\n' > repo/LICENSE
printf '\177ELF\0\0binary' > repo/bin/tool
mkfifo repo/bin/pipe
ln -s /etc/passwd repo/bin/passwd
expect_status 1 "every format found" -- repo
contains "$out" "repo/bin/start-sandbox:2:17: error: privileged mode" "found: a script without an extension, by its #! line"
lacks "$out" "LICENSE" "a file without an extension and without #! says nothing"
lacks "$out" "bin/tool" "nor does a binary"
lacks "$out" "bin/pipe" "nor a FIFO"
lacks "$out" "bin/passwd" "nor a link out of the tree"
for file in .github/workflows/t.yml:6:16 .gitlab-ci.yml:3:18 Makefile:2:13 ci/run.bash:1:12 ci/config.toml:3:18; do
    contains "$out" "repo/$file: error: privileged mode" "found: ${file%%:*}"
done
contains "$err" "in 6 files" "another program's config.toml, LICENSE and the others are skipped, not counted"
# A workflow piped in under its own name is a workflow, as when it is named.
expect_status 1 "a workflow on standard input" -- --stdin-filename .github/workflows/t.yml - \
    <repo/.github/workflows/t.yml
contains "$out" ".github/workflows/t.yml:6:16: error: privileged mode" "standard input: the job container"
expect_status 0 "--help names the new kinds" -- --help
for kind in shell makefile github-actions gitlab-ci gitlab-runner; do
    contains "$out" "  $kind" "--help: $kind"
done

# --- GitLab Runner's kubernetes executor: what the model cannot read ---------
mkdir -p k8s-runner/shapes k8s-runner/colon
printf '[[runners]]\n  executor = "kubernetes"\n  [runners.kubernetes]\n    volumes = 3\n    build_container_security_context = "x"\n' \
    > k8s-runner/shapes/config.toml
expect_status 1 "[runners.kubernetes] keys of the wrong shape" -- k8s-runner/shapes
contains "$out" "config.toml:4:5: error: [runners.kubernetes] volumes is not a table; not checked [SL008]" "volumes not a table"
contains "$out" "config.toml:5:5: error: [runners.kubernetes] build_container_security_context is not a table" "a security context not a table"
printf '[[runners]]\n  executor = "kubernetes"\n  [runners.kubernetes]\n    [[runners.kubernetes.volumes.host_path]]\n      mount_path = "/e"\n      host_path = "/"\n      sub_path = "etc"\n    [[runners.kubernetes.volumes.host_path]]\n      mount_path = "/x:y"\n' \
    > k8s-runner/colon/config.toml
expect_status 1 "host_path volumes with sub_path and a colon" -- k8s-runner/colon
contains "$out" "config.toml:6:19: error: bind-mounts host path '/etc', a host system directory [SBX003]" "sub_path below host_path"
contains "$out" "config.toml:9:20: error: [runners.kubernetes] volumes.host_path entry: host_path or mount_path is missing or holds a colon" "a colon is SL008, not a misread bind"
# A [runners.kubernetes] the runner's executor never reads is no finding.
printf '[[runners]]\n  executor = "shell"\n  [runners.kubernetes]\n    privileged = true\n' > k8s-runner/config.toml
expect_status 0 "[runners.kubernetes] of a shell executor" -- k8s-runner/config.toml

# --- GitLab CI include: followed like Compose's ------------------------------
# An include loop ends (each file checked once); an included file's own
# local paths are relative to the repository's top; one outside the
# scanned tree is an error, never a silent pass.
mkdir -p gitlab-loop/repo/sub gitlab-loop/other
printf 'include: sub/a.yml\n' > gitlab-loop/repo/.gitlab-ci.yml
printf 'include:\n  - local: sub/b.yml\na:\n  script: docker run --privileged x\n' \
    > gitlab-loop/repo/sub/a.yml
printf 'include:\n  - local: /sub/a.yml\n  - local: ../other/c.yml\nb:\n  script: [docker run --ipc=host x]\n' \
    > gitlab-loop/repo/sub/b.yml
printf 'c: {script: docker run --privileged y}\n' > gitlab-loop/other/c.yml
expect_status 1 "a GitLab CI include loop" -- --root gitlab-loop/repo gitlab-loop/repo
contains "$out" "sub/a.yml:4:22: error: privileged mode" "the included file is checked"
contains "$out" "sub/b.yml:5:23: error: --ipc 'host'" "its own include, from the top, too"
contains "$out" "sub/b.yml:3:12: error: include '../other/c.yml' names a file outside the scanned trees" "outside the tree: an error"
contains "$err" "3 errors, 0 warnings in 3 files" "each file once"

# --- hostile input ----------------------------------------------------------
mkdir hostile
printf 'docker run --privileged alpine\ndocker run --cap-add ALL "alpine\n' > hostile/open.sh
expect_status 1 "unterminated quote" -- hostile/open.sh
contains "$out" "hostile/open.sh:2:26: warning: a double quote is not closed" "SL011 at the quote"
contains "$out" "hostile/open.sh:1:12: error: privileged mode" "what came before it is still checked"
awk 'BEGIN { printf "docker run"; for (i = 0; i < 100000; i++) printf " -e X%d=1", i; print " --privileged alpine" }' > hostile/long.sh
[ "$(wc -c < hostile/long.sh)" -gt 1000000 ] || fail "long.sh is not over 1 MB"
set +e
timeout 60 "$SANDLINT" hostile/long.sh > "$out" 2> "$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "a 1 MB command line ends" || fail "a 1 MB command line: exit $status"
contains "$out" "error: privileged mode" "the flag after 100,000 others is read"
awk 'BEGIN { for (i = 0; i < 1000000; i++) print "docker run --rm alpine true" }' > hostile/million.sh
set +e
timeout 120 "$SANDLINT" --jobs 1 hostile/million.sh > "$out" 2> "$err"
status=$?
set -e
[ "$status" -eq 0 ] && pass "a million docker run lines end" || fail "a million docker run lines: exit $status"
contains "$err" "(1000000 services)" "each one is a container"
# An alias bomb of a run text: read up to a limit, then an error.
mkdir aliasbomb
{
    printf 'x-a0: &a0 |\n'
    awk 'BEGIN { for (i = 0; i < 4000; i++) print "  docker run --rm alpine true" }'
    for level in 1 2 3 4 5 6; do
        prev=$((level - 1))
        printf 'x-a%s: &a%s [*a%s, *a%s, *a%s, *a%s, *a%s, *a%s, *a%s, *a%s, *a%s]\n' \
            "$level" "$level" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev"
    done
    printf 't:\n  script: *a6\n'
} > aliasbomb/.gitlab-ci.yml
set +e
timeout 60 "$SANDLINT" aliasbomb > "$out" 2> "$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "an alias bomb of shell text ends" || fail "alias bomb: exit $status"
contains "$out" "more than 16 MiB of shell text in CI steps" "the limit is said"
# $(shell ...) nested 50,000 deep: each level is read once, up to a budget,
# then an error says the rest was not checked.
mkdir makenest
awk 'BEGIN { printf "X := "; for (i = 0; i < 50000; i++) printf "$(shell echo ";
             for (i = 0; i < 50000; i++) printf ")"; print "" }' > makenest/Makefile
set +e
timeout 60 "$SANDLINT" makenest > "$out" 2> "$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "nested \$(shell) calls end" || fail "nested \$(shell): exit $status"
contains "$out" "calls nested deeper than sandlint reads" "the limit is said"
printf 'docker run --privileged alpine\n' > hostile/ok.sh
printf '\0docker run' > hostile/binary.sh
expect_status 1 "a NUL byte" -- hostile
contains "$out" "hostile/binary.sh" "a binary file is reported, not read"
finish
