#!/bin/sh
# Compose as compose-go reads it (SPEC §13, §17): values interpolated with
# the project's .env and defaults before they are checked, include and
# extends.file paths resolved and followed, and a .env that cannot be read
# (SL010) failing the run in bounded time.  The attack forms of issue 19
# that concern Compose, and variants.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# --- values resolved from .env and defaults ---------------------------
mkdir env
cat > env/compose.yaml <<'YAML'
services:
  agent:
    image: sandbox
    pid: ${SANDBOX_PID}
    security_opt: ["seccomp=${P:-unconfined}"]
    privileged: ${PRIV}
    cap_add: ["${CAP:-SYS_ADMIN}"]
    ipc: ${IPC_MODE}
    network_mode: ${NET:?set NET}
    userns_mode: ${USERNS}
YAML
printf '# the sandbox\nSANDBOX_PID=host\nPRIV="true"\nIPC_MODE=private\nUSERNS='"'"'${HOST_NS:-host}'"'"'\n' > env/.env
expect_status 1 "attack: pid from .env" -- env
contains "$out" "compose.yaml:4:5: error: pid 'host' shares the host's process namespace, making host processes visible (written '\${SANDBOX_PID}', which resolves to 'host': SANDBOX_PID from env/.env:2)" \
    "pid: \${SANDBOX_PID} with SANDBOX_PID=host in .env is an error that says where host came from"
contains "$out" "error: security_opt 'seccomp=unconfined' removes the seccomp system-call filter (written 'seccomp=\${P:-unconfined}', which resolves to 'seccomp=unconfined': the default of P, which is unset)" \
    "attack: seccomp=\${P:-unconfined} is an error from its default"
contains "$out" "error: privileged mode grants every capability" "a double-quoted .env value interpolates: privileged"
contains "$out" "error: cap_add grants the Linux capability 'SYS_ADMIN' (written '\${CAP:-SYS_ADMIN}'" \
    "a default that grants a capability"
contains "$out" "warning: ipc '\${IPC_MODE}' is interpolated and cannot be checked" \
    "resolved to something harmless: still the warning, keyed as written"
contains "$out" "warning: network_mode '\${NET:?set NET}' is interpolated and cannot be checked" \
    "\${X:?msg} with X unset cannot be checked"
contains "$out" "warning: userns_mode '\${USERNS}' is interpolated and cannot be checked" \
    "a single-quoted .env value is literal text, not host"
sl --format json env >report.json 2>/dev/null || true
contains report.json '"key": "agent:pid:host"' "the finding is keyed by the resolved value"
contains report.json '"key": "agent:ipc:${IPC_MODE}"' "the warning is keyed by the value as written"
lacks report.json '"key": "agent:pid:${SANDBOX_PID}"' "one finding per setting"

# Volumes: an item whose source is an interpolation is the host mount it
# resolves to.
mkdir vols
printf 'services:\n  a:\n    image: x\n    volumes:\n      - "${ROOT:-/}:/host"\n      - "${SOCKETS}:/run/containerd"\n      - "${DATA}:/data"\n' > vols/compose.yaml
printf 'SOCKETS=/run/containerd\n' > vols/.env
expect_status 1 "attack: a bind mount from a default" -- vols
contains "$out" "error: bind-mounts host path '/', which exposes the whole host file system (and with it every container engine API socket) (written '\${ROOT:-/}:/host'" \
    "\${ROOT:-/}:/host is the host's root"
contains "$out" "error: bind-mounts host path '/run/containerd', which exposes a container engine API socket (written '\${SOCKETS}:/run/containerd', which resolves to '/run/containerd': SOCKETS from vols/.env:1)" \
    "a socket directory from .env is SBX006"
contains "$out" "warning: volumes source '\${DATA}' is interpolated and cannot be checked" "an unset source still warns"
printf 'services:\n  a:\n    image: x\n    volumes:\n      - type: bind\n        source: ${SOCK:-/var/run/docker.sock}\n        target: /s\n      - source: ${DIR:-/etc}\n        target: /e\n' > vols/compose.yaml
expect_status 1 "long syntax sources" -- vols
contains "$out" "error: bind-mounts host path '/var/run/docker.sock' (long syntax, type bind), which exposes a container engine API socket (written '\${SOCK:-/var/run/docker.sock}'" \
    "a long-syntax bind source from a default is the socket it names"
contains "$out" "error: bind-mounts host path '/etc' (long syntax without type, read as bind), a host system directory (written '\${DIR:-/etc}'" \
    "a long-syntax source without a type that resolves to a host path is one"

# The file named as an operand: its directory's .env is read too.
expect_status 1 "a file operand" -- env/compose.yaml
contains "$out" "which resolves to 'host': SANDBOX_PID from env/.env:2" "a file operand's .env is read"

# sandlint never reads its own environment.
mkdir noenv
printf 'services:\n  a:\n    image: x\n    pid: ${SANDBOX_PID}\n' > noenv/compose.yaml
set +e
SANDBOX_PID=host "$SANDLINT" noenv >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 0 ] && pass "the process environment is never read: exit 0" || fail "exit $status"
contains "$out" "warning: pid '\${SANDBOX_PID}' is interpolated and cannot be checked" \
    "an unset variable stays a warning"

# A service's env_file does not interpolate the file.
mkdir envfile
printf 'services:\n  a:\n    image: x\n    env_file: vars.env\n    pid: ${PID_MODE}\n' > envfile/compose.yaml
printf 'PID_MODE=host\n' > envfile/vars.env
expect_status 0 "env_file does not interpolate" -- envfile
contains "$out" "warning: pid '\${PID_MODE}' is interpolated" "env_file is not the project's .env"

# A directory called .env (a Python virtual environment) is no .env.
mkdir -p venv/.env
printf 'services:\n  a:\n    image: x\n    pid: ${P:-host}\n' > venv/compose.yaml
expect_status 1 "a .env directory" -- venv
lacks "$out" "SL010" "a .env directory is skipped, as Compose skips it"
contains "$out" "the default of P, which is unset" "defaults still resolve"

# --- include and extends.file paths -----------------------------------
mkdir -p refs/lib
cat > refs/compose.yaml <<'YAML'
include: ["${UNSET:-evil.yml}", "$$evil.yml"]
services:
  web:
    image: x
    extends: {file: "${BASE:-lib/base.yml}", service: base}
YAML
printf 'services:\n  evil:\n    image: x\n    privileged: true\n' > refs/evil.yml
printf 'services:\n  dollar:\n    image: x\n    cap_add: [SYS_MODULE]\n' > 'refs/$evil.yml'
printf 'services:\n  base:\n    image: x\n    network_mode: host\n' > refs/lib/base.yml
expect_status 1 "attack: interpolated include and extends paths" -- refs
contains "$out" "refs/evil.yml:4:5: error: privileged mode" "include \${UNSET:-evil.yml} follows evil.yml"
contains "$out" 'refs/$evil.yml:4:15: error: cap_add grants' 'include $$evil.yml follows the file $evil.yml'
contains "$out" "refs/lib/base.yml:4:5: error: network_mode 'host'" \
    "extends.file \${BASE:-lib/base.yml} follows lib/base.yml"
lacks "$out" "is interpolated, so the file it names cannot be checked" "no interpolation warning for them"
printf 'include: ["${UNSET:-missing.yml}", "${NOPE}.yml"]\nservices:\n  a:\n    image: x\n' > refs/compose.yaml
expect_status 0 "an unresolved or missing include" -- refs/compose.yaml
contains "$out" "include '\${UNSET:-missing.yml}' (resolved to 'missing.yml': the default of UNSET, which is unset) names a file that does not exist" \
    "a resolved path says what it resolved to"
contains "$out" "include '\${NOPE}.yml' is interpolated, so the file it names cannot be checked" \
    "an unset variable still warns"
printf 'BASE=lib/base.yml\n' > refs/.env
printf 'include: ["${BASE}"]\nservices:\n  a:\n    image: x\n' > refs/compose.yaml
expect_status 1 "an include path from .env" -- refs
contains "$out" "refs/lib/base.yml:4:5: error: network_mode 'host'" "include \${BASE} from .env is followed"

# --- SL010: a .env that cannot be read --------------------------------
hostile() {
    name=$1
    rm -rf h && mkdir h
    printf 'services:\n  a:\n    image: x\n    security_opt: ["seccomp=${P:-unconfined}"]\n' > h/compose.yaml
}
hostile huge
awk 'BEGIN { for (i = 0; i < 70000; i++) printf "VARIABLE_%06d=some value to fill\n", i }' > h/.env
expect_status 1 "a huge .env" -- h
contains "$out" "error: h/.env cannot be read" "a .env over 1 MiB is SL010"
contains "$out" "[SL010]" "it is SL010"
contains "$out" "warning: security_opt entry 'seccomp=\${P:-unconfined}' is interpolated and cannot be checked" \
    "with an unreadable .env even a default cannot be trusted"
hostile binary
printf 'A=1\nB=\001\000\002\n' > h/.env
expect_status 1 "a binary .env" -- h
contains "$out" "h/.env:" "a .env with a NUL byte is SL010 at its place"
hostile syntax
printf 'GOOD=1\nBAD KEY=2\n' > h/.env
expect_status 1 "a .env syntax error" -- h
contains "$out" "h/.env:2:" "a syntax error is reported at its line"
hostile nested
awk 'BEGIN { printf "X="; for (i = 0; i < 5000; i++) printf "${A:-"; for (i = 0; i < 5000; i++) printf "}"; printf "\n" }' > h/.env
start=$(date +%s)
expect_status 1 "a deeply nested .env" -- h
end=$(date +%s)
contains "$out" "[SL010]" "\${\${...}} nested past the limit is SL010"
[ $((end - start)) -lt 10 ] && pass "a nested .env is read in bounded time" || fail "took $((end - start)) s"
hostile expand
awk 'BEGIN { printf "A=0123456789012345678901234567890123456789\n"; prev = "A"; for (i = 0; i < 40; i++) { printf "B%d=${%s}${%s}\n", i, prev, prev; prev = "B" i } }' > h/.env
start=$(date +%s)
expect_status 1 "a .env that doubles itself" -- h
end=$(date +%s)
contains "$out" "[SL010]" "an expansion past the limits is SL010"
[ $((end - start)) -lt 10 ] && pass "an expanding .env is read in bounded time" || fail "took $((end - start)) s"
hostile link
printf 'P=unconfined\n' > outside.env
ln -s ../outside.env h/.env
expect_status 1 "a .env that is a link" -- h
contains "$out" "h/.env cannot be read" "a linked .env is not followed"
hostile ignore
printf 'BAD KEY\n' > h/.env
expect_status 1 "SL010 cannot be ignored" -- --ignore SL010 h
contains "$out" "[SL010]" "--ignore does not hide an unreadable .env"
# --- the contexts of included and extended files (SPEC §13 "include items",
# §17 "Included files") -----------------------------------------------
mkdir -p ctx/sub
printf 'services:\n  w:\n    image: w\n    privileged: ${PRIV}\n' > ctx/sub/compose.yaml
printf 'include: [{path: sub/compose.yaml}]\n' > ctx/compose.yaml
printf 'PRIV=true\n' > ctx/.env
expect_status 1 "attack: an included file privileged from the includer's .env" -- ctx
contains "$out" "sub/compose.yaml:4:5: error: privileged mode grants every capability, host devices and relaxed security profiles (written '\${PRIV}', which resolves to 'true': PRIV from ctx/.env:1) (with the variables of ctx/compose.yaml, which includes it)" \
    "the included file is interpolated with the including project's .env, and says so"
contains "$out" "sub/compose.yaml:4:5: warning: privileged is set by interpolation" \
    "and it is checked in its own context as well"
printf 'PRIV=false\n' > ctx/sub/.env
expect_status 1 "the includer's variables win over the included file's .env" -- ctx
contains "$out" "resolves to 'true': PRIV from ctx/.env:1" "the including project's PRIV wins"
rm ctx/.env
printf 'OTHER=1\n' > ctx/.env
expect_status 0 "an unset variable falls back to the included file's own .env" -- ctx
lacks "$out" "error:" "PRIV=false from sub/.env: no error"
printf 'include:\n  - sub/compose.yaml\n  - sub/compose.yaml\n' > ctx/compose.yaml
printf 'PRIV=true\n' > ctx/.env
expect_status 1 "one context, checked once" -- ctx
if [ "$(grep -c 'which includes it' "$out")" -eq 1 ]; then
    pass "a file included twice in the same context is checked once"
else
    fail "a file included twice in the same context is checked once"
fi

mkdir -p ext/base
printf 'services:\n  app:\n    extends: {file: base/base.yml, service: b}\n' > ext/compose.yaml
printf 'services:\n  b:\n    image: b\n    pid: ${BPID}\n' > ext/base/base.yml
printf 'BPID=host\n' > ext/base/.env
expect_status 0 "attack: an extends.file target never reads its own .env" -- ext
lacks "$out" "error:" "BPID=host in the target's own .env is not what Compose uses"
contains "$out" "warning: pid '\${BPID}' is interpolated and cannot be checked (with the variables of ext/compose.yaml, which extends it)" \
    "the target depends on the extending project's unset BPID"
printf 'BPID=host\n' > ext/.env
expect_status 1 "an extends.file target with the extending project's variables" -- ext
contains "$out" "error: pid 'host'" "BPID=host in the extending project's .env is an error"

mkdir -p many/sub
: > many/compose.yaml
printf 'services:\n  w:\n    image: w\n    privileged: ${PRIV}\n' > many/sub/compose.yaml
for i in 1 2 3 4 5 6 7 8 9; do
    mkdir many/p$i
    printf 'PRIV=v%s\n' "$i" > many/p$i/.env
    printf 'include: [{path: ../sub/compose.yaml}]\n' > many/p$i/compose.yaml
done
expect_status 1 "more than 8 contexts for one file" -- many
contains "$out" "names a file already checked with 8 different sets of variables" \
    "the ninth context is an error, not a silent pass"

# Bounded memory: 8 projects, each with about 57 KB of variables, include
# the same files; every file+context the coordinator keeps costs about
# 170 KB (its key in hex and the context), so 8 x 20 stay under the 32 MiB
# of a run and 8 x 30 do not.
mkdir -p capped/shared
for j in $(seq 1 30); do
    printf 'services:\n  w%s:\n    image: w\n' "$j" > capped/shared/f$j.yml
done
for i in 1 2 3 4 5 6 7 8; do
    mkdir capped/p$i
    awk -v p="$i" 'BEGIN { for (k = 0; k < 500; k++) printf "V%d=%060d\n", k, p }' > capped/p$i/.env
    { printf 'include:\n'; for j in $(seq 1 20); do printf '  - ../shared/f%s.yml\n' "$j"; done; } \
        > capped/p$i/compose.yaml
done
expect_status 0 "many big contexts under the run's cap" -- capped
lacks "$out" "32 MiB" "160 file+contexts of about 170 KB fit in 32 MiB"
for i in 1 2 3 4 5 6 7 8; do
    for j in $(seq 21 30); do printf '  - ../shared/f%s.yml\n' "$j" >> capped/p$i/compose.yaml; done
done
expect_status 1 "attack: contexts past the run's cap" -- capped
contains "$out" "which cannot be handed on to it (past the limit of 32 MiB of variables handed on in one run); it was not checked with them [SL007]" \
    "past 32 MiB of contexts a reference is an error, not a silent pass"

big=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "V%d=%s\n", i, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }')
mkdir -p huge/sub
printf '%s\n' "$big" > huge/.env
printf 'include: [sub/compose.yaml]\n' > huge/compose.yaml
printf 'services:\n  w:\n    image: w\n' > huge/sub/compose.yaml
expect_status 1 "variables too many to hand on" -- huge
contains "$out" "which cannot be handed on to it" "an overflowed context is an error"
mkdir -p item/sub
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: ..\n    env_file: [other.env]\n' > item/compose.yaml
printf 'services:\n  w:\n    image: w\n' > item/sub/compose.yaml
expect_status 1 "an include item's env_file that cannot be read is not a silent pass" -- item
contains "$out" "item/compose.yaml:4:16: error: include item env_file 'other.env' cannot be read (cannot open file: No such file or directory), so the included file cannot be checked with its variables [SL010]" \
    "a missing env_file is SL010"
contains "$out" "item/compose.yaml:2:11: error: include 'sub/compose.yaml' names a file that Compose interpolates with this file's variables, which cannot be handed on to it" \
    "and the included file is not checked with its own .env instead"
# --- COMPOSE_FILE in the project's .env: the files docker compose reads --
mkdir -p cfile
printf 'services:\n  app:\n    image: app\n' > cfile/compose.yaml
printf 'services:\n  app:\n    privileged: true\n' > cfile/sandbox.yml
printf 'COMPOSE_FILE=compose.yaml:sandbox.yml\n' > cfile/.env
expect_status 1 "attack: COMPOSE_FILE in .env merges a file of another name" -- cfile
contains "$out" "cfile/sandbox.yml:3:5: error: privileged mode grants every capability" \
    "a file COMPOSE_FILE lists is checked as Compose"
printf 'COMPOSE_PATH_SEPARATOR=;\nCOMPOSE_FILE="compose.yaml;sandbox.yml;missing.yml"\n' > cfile/.env
expect_status 1 "COMPOSE_PATH_SEPARATOR" -- cfile
contains "$out" "cfile/sandbox.yml:3:5: error: privileged mode" "the separator the .env names"
contains "$out" "warning: COMPOSE_FILE of the project's .env 'missing.yml' names a file that does not exist [SL007]" \
    "a missing file is the reference warning"
rm cfile/.env
expect_status 0 "without COMPOSE_FILE the other name is not Compose's" -- cfile
# --- an include item's project_directory (SPEC §13 "include items") ----
mkdir -p pdir/app/sub pdir/shared
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: ../shared\n' > pdir/app/compose.yaml
printf 'include: [extra.yml]\nservices:\n  w:\n    image: w\n    pid: ${PID_MODE}\n' > pdir/app/sub/compose.yaml
printf 'PID_MODE=host\n' > pdir/shared/.env
printf 'PID_MODE=private\n' > pdir/app/sub/.env
printf 'services:\n  evil:\n    image: e\n    privileged: true\n' > pdir/shared/extra.yml
printf 'services:\n  fine:\n    image: f\n' > pdir/app/sub/extra.yml
expect_status 1 "attack: an include item's project_directory moves the included file's paths and .env" -- pdir
contains "$out" "pdir/app/sub/compose.yaml:5:5: error: pid 'host' shares the host's process namespace, making host processes visible (written '\${PID_MODE}', which resolves to 'host': PID_MODE from pdir/shared/.env:1) (with the variables of pdir/app/compose.yaml, which includes it with project directory 'pdir/shared') [SBX002]" \
    "the .env of the project directory, not the file's own, and the message names the directory"
contains "$out" "pdir/shared/extra.yml:4:5: error: privileged mode grants every capability" \
    "a relative include of the included file resolves against the project directory"
lacks "$out" "pdir/app/sub/extra.yml" "the harmless sibling is not what Compose includes"
contains "$out" "pdir/app/sub/compose.yaml:5:5: warning: pid '\${PID_MODE}' is interpolated" \
    "the file found by the search is still checked in its own project too"
# The including project's variables, nested directories, env_file beside it.
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: ${PD:-../shared}\n    env_file: ["${E:-app.env}"]\n' > pdir/app/compose.yaml
printf 'PID_MODE=host\n' > pdir/app/app.env
printf 'PID_MODE=private\n' > pdir/shared/.env
expect_status 1 "project_directory and env_file written with defaults" -- pdir
contains "$out" "(written '\${PID_MODE}', which resolves to 'host': PID_MODE from pdir/app/app.env:1) (with the variables of pdir/app/compose.yaml, which includes it with project directory 'pdir/shared')" \
    "env_file resolves against the including project; the directory's .env is not read beside it"
contains "$out" "pdir/shared/extra.yml:4:5: error: privileged mode" "the directory still moves the relative include"
# What cannot be followed fails the run, or warns when only deploy time knows it.
for bad in /etc ../nothere '~/x' ../../..; do
    printf 'include:\n  - path: sub/compose.yaml\n    project_directory: %s\n' "$bad" > pdir/app/compose.yaml
    expect_status 1 "attack: project_directory $bad" -- pdir/app
    contains "$out" "pdir/app/compose.yaml:2:11: error: include 'sub/compose.yaml': its project_directory '$bad' is not a directory inside the scanned tree that holds the file, so the file was not checked as Compose reads it [SL007]" \
        "project_directory $bad, outside the scanned tree or missing, is an error"
done
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: ${UNSET}\n' > pdir/app/compose.yaml
expect_status 0 "an interpolated project_directory is a warning" -- pdir/app
contains "$out" "pdir/app/compose.yaml:2:11: warning: include 'sub/compose.yaml': its project_directory '\${UNSET}' is interpolated, so the file's relative paths and .env cannot be checked as Compose reads them; it is checked in its own directory [SL007]" \
    "unknown until deploy time: a warning"
expect_status 1 "--strict fails it" -- --strict pdir/app
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: [a]\n' > pdir/app/compose.yaml
expect_status 1 "a project_directory that is not a string" -- pdir/app
contains "$out" "pdir/app/compose.yaml:3:24: error: include item sets project_directory in a form sandlint does not follow" \
    "a project_directory that is not a string is an error"
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: ""\n' > pdir/app/compose.yaml
expect_status 0 "an empty project_directory is Compose's default" -- pdir/app
printf 'include:\n  - path: sub/compose.yaml\n    project_directory: .\n' > pdir/app/compose.yaml
printf 'PID_MODE=host\n' > pdir/app/.env
expect_status 1 "project_directory . is the including project's directory" -- pdir/app
contains "$out" "resolves to 'host': PID_MODE from pdir/app/.env:1) (with the variables of pdir/app/compose.yaml, which includes it with project directory 'pdir/app')" \
    "the including project's .env through the included file's project directory"
rm pdir/app/.env
# --- an include item's env_file (SPEC §13 "include items") -------------
mkdir -p envf/sub
printf 'include:\n  - path: sub/compose.yaml\n    env_file: [one.env, two.env]\n' > envf/compose.yaml
printf 'services:\n  w:\n    image: w\n    privileged: ${PRIV}\n    pid: ${PID_MODE}\n' > envf/sub/compose.yaml
printf 'PRIV=true\nPID_MODE=private\n' > envf/one.env
printf 'PID_MODE=host\n' > envf/two.env
expect_status 1 "attack: an included file privileged from its include item's env_file" -- envf
contains "$out" "(written '\${PRIV}', which resolves to 'true': PRIV from envf/one.env:1) (with the variables of envf/compose.yaml, which includes it)" \
    "env_file entries are read relative to the including project"
contains "$out" "resolves to 'host': PID_MODE from envf/two.env:1" "a later env_file overrides an earlier one"
printf 'PRIV=false\nPID_MODE=private\n' > envf/one.env
printf 'PID_MODE=private\n' > envf/two.env
printf 'PRIV=true\nPID_MODE=host\n' > envf/sub/.env
expect_status 1 "the own context still reads sub/.env" -- envf
if [ "$(grep -c 'error:.*which includes it' "$out")" -eq 0 ] &&
   [ "$(grep -c 'error:' "$out")" -eq 2 ]; then
    pass "with env_file, the included file's own .env is not read in the includer's context"
else
    fail "with env_file, the included file's own .env is not read in the includer's context"
fi
printf 'PRIV=true\n' > envf/.env
expect_status 1 "the including project's variables win over env_file" -- envf
contains "$out" "resolves to 'true': PRIV from envf/.env:1) (with the variables of envf/compose.yaml" \
    "PRIV=true of the includer wins over PRIV=false of env_file"
rm envf/.env envf/sub/.env
printf 'include:\n  - path: sub/compose.yaml\n    env_file: ../outside.env\n' > envf/compose.yaml
printf 'PRIV=true\n' > outside.env
expect_status 1 "attack: env_file outside the scanned tree" -- envf
contains "$out" "envf/compose.yaml:3:15: error: include item env_file '../outside.env' names a file outside what this run may read" \
    "an env_file above the operand is SL010"
ln -s ../outside.env envf/link.env
printf 'include:\n  - path: sub/compose.yaml\n    env_file: link.env\n' > envf/compose.yaml
expect_status 1 "attack: env_file through a symbolic link" -- envf
contains "$out" "include item env_file 'link.env' cannot be read" "a linked env_file is not followed (SL010)"
printf 'include:\n  - path: sub/compose.yaml\n    env_file: "${ENVF}"\n' > envf/compose.yaml
expect_status 1 "an env_file with a variable without a value is not followed" -- envf
contains "$out" "envf/compose.yaml:3:15: error: include item env_file uses a variable without a value, so the variables Compose reads the included file with cannot be known; it was not checked with them [SL007]" \
    "an unresolved env_file is an SL007 error"
printf 'include:\n  - path: sub/compose.yaml\n    env_file: "${ENVF:-link.env}"\n' > envf/compose.yaml
expect_status 1 "an env_file written with a default is followed" -- envf
contains "$out" "include item env_file '\${ENVF:-link.env}' (resolved to 'link.env') cannot be read" \
    "the resolved env_file is read, and the message says what it resolved to"
printf 'include:\n  - path: sub/compose.yaml\n    env_file: [a, {b: c}]\n' > envf/compose.yaml
expect_status 1 "an env_file in a form sandlint does not follow" -- envf
contains "$out" "include item sets env_file in a form sandlint does not follow" \
    "an env_file list with a mapping is an SL007 error"
finish
