#!/bin/sh
# What Compose follows, sandlint follows (SPEC §4, 0.2): files named by
# include and extends.file are checked whatever their names, once, in
# rounds after the searched files; the same report for any number of
# workers; references outside the scanned trees fail the run; depth and
# cycles are bounded.  (tests/golden/ref-follow holds the golden case.)
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# The two cases of issue 13: extends into a file with another name, and an
# include of another directory's file.
mkdir -p app/other
cat > app/compose.yaml <<'YAML'
include:
  - other/services.yml
services:
  web:
    extends: {file: common.yml, service: base}
YAML
printf 'services:\n  base:\n    privileged: true\n    volumes: ["/:/host"]\n' > app/common.yml
printf 'services:\n  sidecar:\n    pid: host\n' > app/other/services.yml
expect_status 1 "extends and include are followed" -- app
contains "$out" "app/common.yml:3:5: error: privileged mode" "extends.file: privileged is found"
contains "$out" "app/common.yml:4:15: error: bind-mounts host path '/'" "extends.file: the / bind is found"
contains "$out" "app/other/services.yml:3:5: error: pid 'host'" "include: pid host is found"
contains "$err" "in 3 files" "each file counted once"
for jobs in "--jobs 1" "--jobs 3" "--no-isolation"; do
    # shellcheck disable=SC2086
    sl --format json $jobs app >"report $jobs.json" 2>/dev/null || true
done
cmp -s "report --jobs 1.json" "report --jobs 3.json" && cmp -s "report --jobs 1.json" "report --no-isolation.json" \
    && pass "the same report for any number of workers" || fail "reports differ with workers"

# A file operand: its neighbours are outside what the run may read.
expect_status 1 "a file operand's reference" -- app/compose.yaml
contains "$out" "include 'other/services.yml' names a file outside the scanned trees; it was not checked" \
    "a reference outside the operands is an error"
expect_status 1 "--ignore SL007 does not hide it" -- --ignore SL007 app/compose.yaml
contains "$out" "names a file outside the scanned trees" "an unchecked file cannot be ignored"

# Standard input reads no tree.
set +e
sl - <app/compose.yaml >"$out" 2>"$err"
status=$?
set -e
[ "$status" -eq 1 ] && pass "stdin: exit 1" || fail "stdin: exit $status"
contains "$out" "names a file outside what this run may read" "stdin: references are outside"

# A chain longer than the depth limit, and a cycle.
mkdir chain
i=0
while [ "$i" -lt 40 ]; do
    printf 'include: [part%d.yml]\nservices:\n  s%d:\n    image: x\n' $((i + 1)) "$i" > "chain/part$i.yml"
    i=$((i + 1))
done
printf 'include: [part0.yml]\nservices:\n  start:\n    image: x\n' > chain/compose.yaml
printf 'include: [compose.yaml, part0.yml]\nservices:\n  last:\n    privileged: true\n' > chain/part40.yml
expect_status 1 "a long chain" -- chain
contains "$out" "is past the limit of files followed through include and extends (32 deep)" \
    "the depth is bounded, and saying so fails the run"
contains "$err" "in 33 files" "33 files checked: the search and 32 rounds"
mkdir cycle
printf 'include: [b.yml]\nservices:\n  a:\n    image: x\n' > cycle/compose.yaml
printf 'include: [c.yml]\nservices:\n  b:\n    image: x\n' > cycle/b.yml
printf 'include: [b.yml, compose.yaml]\nservices:\n  c:\n    cap_add: [NET_ADMIN]\n' > cycle/c.yml
expect_status 1 "a cycle" -- cycle
contains "$out" "cycle/c.yml:4:15: error: cap_add grants" "a cycle is followed once"
contains "$err" "in 3 files" "a cycle ends"

# A directory named as a file, and a FIFO.
mkdir odd odd/dir.yml
mkfifo odd/fifo.yml
printf 'include: [dir.yml, fifo.yml]\nservices:\n  o:\n    image: x\n' > odd/compose.yaml
expect_status 1 "not regular files" -- odd
contains "$out" "include 'dir.yml' names something that is not a regular file" "a directory is not followed"
contains "$out" "include 'fifo.yml' names something that is not a regular file" "a FIFO is never opened"
finish
