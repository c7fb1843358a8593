#!/bin/sh
# --allow-no-files (SPEC §17, for hooks that pass every changed file): a run
# that finds no sandbox file exits 0 with one line instead of 2; a file
# operand counts as what a directory search would make of it, so named
# files of no known kind are skipped silently, and the others are checked
# as usual.  .gitignore is not honoured (SPEC §16), with or without it.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# --- a repository without sandbox files ------------------------------------------
mkdir empty
cd empty
printf '# readme\n' >README.md
printf '{"name": "x"}\n' >package.json
printf 'print("hi")\n' >build.py      # (a shell script or a Makefile would be read: SPEC §15)
printf '[tool]\nname = "x"\n' >setup.toml
printf 'a: [1, 2\n' >broken.yaml          # not even valid YAML
printf 'key: value\n' >settings.yaml
printf 'X=1\n' >.env
expect_status 2 "no sandbox file: exit 2 without the option" -- .
expect_status 0 "no sandbox file: exit 0 with --allow-no-files" -- --allow-no-files .
[ "$(wc -l <"$err")" -eq 1 ] && pass "one line on stderr" || fail "stderr: $(cat "$err")"
contains "$err" "sandlint: no sandbox files found under .; nothing to check (--allow-no-files)" \
    "the line says why nothing was checked"
[ ! -s "$out" ] && pass "nothing on stdout" || fail "stdout: $(cat "$out")"
expect_status 0 "--quiet" -- --allow-no-files --quiet .
expect_status 0 "JSON report of nothing" -- --allow-no-files --format json .
json_valid "$out" && contains "$out" '"findings": []' "an empty JSON report"

# Named files of no known kind (what pre-commit passes): skipped silently,
# even those that are not YAML at all.  (A named YAML file is read for
# Kubernetes objects, as a searched one under the kubernetes globs is: one
# that is not valid YAML is what such a file is, SPEC §17.)
expect_status 1 "named files without the option are read as Compose (a YAML error)" -- broken.yaml
expect_status 0 "named files of no known kind" -- --allow-no-files README.md package.json \
    build.py setup.toml settings.yaml .env
[ "$(wc -l <"$err")" -eq 1 ] && contains "$err" "no sandbox files found under README.md and the other operands" \
    "one line for several operands"
cd ..

# --- named files of a known kind are checked ----------------------------------------
mkdir mixed
cd mixed
printf '# readme\n' >README.md
cat >values.yaml <<'EOF'
services:
  default:
    image: python:3.12
    securityContext:
      privileged: true
EOF
cat >pod.yaml <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: runner
spec:
  hostPID: true
  containers:
    - name: runner
      image: runner:1
EOF
printf 'services:\n  web:\n    image: x\n    cap_add: [SYS_ADMIN]\n' >docker-compose.yml
printf 'services:\n  web:\n    image: x\n    privileged: true\n' >sandbox.yml
expect_status 1 "agent-env values among unknown files" -- --allow-no-files README.md values.yaml
contains "$out" "values.yaml:5:7: error: " "the values file is checked (SBX001)"
contains "$err" "in 1 file" "only the values file is counted"
lacks "$err" "no sandbox files" "no 'nothing to check' line"
expect_status 1 "a Kubernetes object named as a file" -- --allow-no-files pod.yaml README.md
contains "$out" "pod.yaml:6:3: error: hostPID" "the Pod is checked"
expect_status 1 "a Compose name" -- --allow-no-files docker-compose.yml
contains "$out" "docker-compose.yml:4:15: error: cap_add grants" "the Compose file is checked"
# A YAML file whose name is no kind's and that holds no object is no
# sandbox file for a search, so not for the hook either.
expect_status 0 "a Compose file under another name is not a sandbox file" -- --allow-no-files sandbox.yml
expect_status 1 "without the option it is checked as Compose" -- sandbox.yml
expect_status 2 "--update-allowlist refuses --allow-no-files" -- --update-allowlist --allow-no-files .
contains "$err" "--update-allowlist and --allow-no-files go against each other" "the refusal says why"
expect_status 1 "directory search with the option" -- --allow-no-files .
contains "$out" "values.yaml:5:7: error: " "a search with the option checks the values file"
contains "$out" "docker-compose.yml:4:15: error: " "and the Compose file"
cd ..

# --- .gitignore is not honoured ------------------------------------------------------
mkdir ignored
cd ignored
mkdir -p .git/info
printf 'compose.yaml\nsub/\n' >.gitignore
printf 'compose.yaml\n' >.git/info/exclude
printf 'services:\n  web:\n    image: x\n    privileged: true\n' >compose.yaml
mkdir sub
printf 'services:\n  db:\n    image: y\n    pid: host\n' >sub/compose.yaml
expect_status 1 "files that .gitignore names are checked" -- .
contains "$out" "compose.yaml:4:5: error: privileged mode" "the ignored file is checked"
contains "$out" "sub/compose.yaml:4:5: error: pid" "the ignored directory is searched"
expect_status 1 "also with --allow-no-files" -- --allow-no-files .
finish
