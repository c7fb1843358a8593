#!/bin/sh
# Dev containers and rCDS challenges (SPEC §15): found by a plain scan,
# keyed, suppressed, allowlisted and updated like every kind; the CTF dev
# container of issue 22; 76 rCDS challenges with privileged containers;
# hostile JSON with comments (bounded, a clear finding, never a crash).
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# --- the CTF archive's dev container (issue 22) ------------------------------
mkdir -p ctf/.devcontainer
cat > ctf/.devcontainer/devcontainer.json <<'JSON'
{
  // A CTF archive's dev container, as found in the wild
  "name": "CTF",
  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",
  "runArgs": ["-v", "/var/run/docker.sock:/var/run/docker.sock", "--cap-add=SYS_PTRACE",
              "--security-opt", "seccomp=unconfined"],
}
JSON
expect_status 1 "the CTF dev container fails" -- --root ctf --format json ctf
contains "$out" '"key": "devcontainer:--volume:/var/run/docker.sock"' "the engine socket in runArgs (SBX006)"
contains "$out" '"line": 5, "column": 15' "at the runArgs flag, as on every engine command line"
contains "$out" '"key": "devcontainer:--cap-add:SYS_PTRACE"' "--cap-add=SYS_PTRACE (SBX001)"
contains "$out" '"key": "devcontainer:--security-opt:seccomp=unconfined"' "seccomp=unconfined (SBX001)"
contains "$out" '"errors": 3,' "three errors, no more"
expect_status 1 "text output" -- --root ctf ctf
contains "$out" ".devcontainer/devcontainer.json:5:66: error: --cap-add grants the Linux capability 'SYS_PTRACE' [SBX001]" \
    "text names the file, line and column of the word"

# --- runArgs through the engine-command front-end (SPEC §15) ----------------
# The same flags in runArgs and in a shell script: the same rule, field,
# value and message for each (one table, one reader), and the same SL011
# warning for a flag sandlint does not know.
mkdir -p same/.devcontainer
cat > same/.devcontainer/devcontainer.json <<'JSON'
{
  "image": "debian:bookworm",
  "runArgs": ["--cap-add", "SYS_ADMIN,NET_ADMIN", "--security-opt", "unmask=ALL",
              "--user", "0", "--user", "1000", "--frobnicate"]
}
JSON
cat > same/run.sh <<'SH'
#!/bin/sh
docker run --cap-add SYS_ADMIN,NET_ADMIN --security-opt unmask=ALL --user 0 --user 1000 --frobnicate debian:bookworm
SH
expect_status 1 "the same flags in runArgs and in a script" -- --root same --format json same
summarise() {
    sed -n 's/.*"rule": "\([^"]*\)".*"field": \([^,]*\), "value": \([^,]*\), .*"message": \("[^"]*"\).*/\1 \2 \3 \4/p'
}
grep '"file": ".devcontainer/' "$out" | summarise | sort > "$scratch/dc-findings"
grep '"file": "run.sh"' "$out" | summarise | sort > "$scratch/sh-findings"
if [ -s "$scratch/dc-findings" ] && cmp -s "$scratch/dc-findings" "$scratch/sh-findings"; then
    pass "runArgs and a script give the same findings"
else
    fail "runArgs and a script give different findings:
$(diff "$scratch/sh-findings" "$scratch/dc-findings")"
fi
contains "$out" '"key": "devcontainer:--cap-add:NET_ADMIN"' "--cap-add a,b is two capabilities (podman)"
contains "$out" '"key": "devcontainer:--security-opt:unmask=ALL"' "podman's unmask=ALL unmasks the system paths"
contains "$out" "engine flag '--frobnicate' is not one sandlint knows" "an unknown runArgs flag: the engine front-end's warning"
expect_status 0 "the hardening group" -- --root same --format json --select SBX107 same/.devcontainer
lacks "$out" '"rule": "SBX107"' "--user 0 --user 1000: the engine keeps the last"

# --- allowlists and --update-allowlist ---------------------------------------
expect_status 0 "--update-allowlist" -- --root ctf --update-allowlist ctf
contains ctf/.sandlint.ini ".devcontainer/devcontainer.json = devcontainer:--cap-add:SYS_PTRACE" \
    "--update-allowlist writes the dev container's key, scoped to its file"
expect_status 0 "the allowlist accepts them" -- --root ctf ctf
rm ctf/.sandlint.ini

# --- --untrusted: comments are shown, never obeyed ---------------------------
mkdir -p sup/.devcontainer
cat > sup/.devcontainer/devcontainer.json <<'JSON'
{
  "privileged": true // sandlint: ignore[SBX001] -- a "// sandlint" in a string is no comment
}
JSON
expect_status 0 "a // suppression comment" -- --root sup sup
expect_status 1 "--untrusted" -- --root sup --untrusted sup
contains "$out" "suppression comment not honoured: --untrusted" "the comment is reported"
printf '{ "capAdd": ["// sandlint: ignore[SBX001] -- not a comment"] }\n' \
    > sup/.devcontainer/devcontainer.json
expect_status 1 "a comment inside a string" -- --root sup sup
lacks "$out" "suppressed" "is no suppression"

# --- block comments: a suppression spanning lines covers the next line ------
mkdir -p block/.devcontainer
cat > block/.devcontainer/devcontainer.json <<'JSON'
{
  "image": "debian:bookworm",
  /* sandlint: ignore[SBX001] -- the debugger needs it;
     reviewed in issue 22 */
  "privileged": true,
  "runArgs": [
    /* sandlint: ignore[SBX001] -- gdb needs ptrace
    */
    "--cap-add=SYS_PTRACE",
    /* sandlint: ignore[SBX002] -- shared with the profiler */ "--pid=host",
    /* sandlint: ignore[SBX006] -- the next line holds no
       such finding */
    "--ipc=host"
  ]
}
JSON
expect_status 1 "block comments over several lines" -- --root block --format json block
contains "$out" '"status": "suppressed", "allowlisted": false, "package": "*", "file": ".devcontainer/devcontainer.json", "line": 5,' \
    "a block comment's middle lines are comment: it covers the line after its close"
contains "$out" '"status": "suppressed", "allowlisted": false, "package": "*", "file": ".devcontainer/devcontainer.json", "line": 9,' \
    "a close alone on its line: the next line"
contains "$out" '"status": "suppressed", "allowlisted": false, "package": "*", "file": ".devcontainer/devcontainer.json", "line": 10,' \
    "a value after the close: the value's line"
contains "$out" '"line": 11, "column": 5, "end_line": null, "end_column": null, "service": null, "field": null, "value": null, "key": null, "message": "suppression comment matches no finding"' \
    "one that misses its next line is still reported where it starts"
contains "$out" '"errors": 1, "warnings": 1, "suppressed": 3' "the rest is reported"

# --- where dev containers are found ------------------------------------------
mkdir -p places/.devcontainer/py places/.devcontainer/a/b places/src places/.devcontainer-not
for path in .devcontainer.json .devcontainer/devcontainer.json .devcontainer/py/devcontainer.json \
            .devcontainer/a/b/devcontainer.json src/devcontainer.json src/.devcontainer.json \
            .devcontainer-not/devcontainer.json; do
    printf '{ "privileged": true }\n' > "places/$path"
done
expect_status 1 "a plain scan" -- --root places --format json places
contains "$out" '"files": 4,' "finds the four places the CLI reads"
lacks "$out" '.devcontainer/a/b/' "not two levels below .devcontainer"
lacks "$out" '"src/devcontainer.json' "not a devcontainer.json elsewhere"
lacks "$out" 'devcontainer-not' "not a directory that only starts with .devcontainer"
cd places/.devcontainer
expect_status 1 "scanning .devcontainer itself" -- --root . --format json .
contains "$out" '"files": 2,' "its place counts from the operand's absolute path"
cd "$scratch"
expect_status 1 "a named devcontainer.json anywhere" -- --root places --format json places/src/devcontainer.json
contains "$out" '"key": "devcontainer:privileged"' "is a dev container"

expect_status 0 "--allow-no-files: a devcontainer.json out of place" -- --root places --allow-no-files \
    places/src/devcontainer.json
lacks "$out" "devcontainer:privileged" "is skipped, as a search skips it"
expect_status 1 "--allow-no-files: one in its place" -- --root places --allow-no-files --format json \
    places/.devcontainer/py/devcontainer.json
contains "$out" '"key": "devcontainer:privileged"' "is checked"

# --- ignore-file in a JSON comment -------------------------------------------
mkdir -p whole/.devcontainer
printf '// sandlint: ignore-file[SBX001] -- a debugging container\n{ "privileged": true,\n  "capAdd": ["SYS_ADMIN"] }\n' \
    > whole/.devcontainer/devcontainer.json
expect_status 0 "ignore-file in a // comment" -- --root whole --format json whole
contains "$out" '"suppressed": 2' "covers the whole file"

# --- 76 rCDS challenges with privileged containers ---------------------------
mkdir -p rcds
i=1
while [ "$i" -le 76 ]; do
    mkdir -p "rcds/chal$i"
    printf 'name: chal%d\ncontainers:\n  main:\n    image: chal%d\n    ports: [1337]\n    securityContext:\n      privileged: true\n' \
        "$i" "$i" > "rcds/chal$i/challenge.yaml"
    i=$((i + 1))
done
expect_status 1 "76 rCDS challenges" -- --root rcds --format json rcds
contains "$out" '"files": 76,' "all found by name"
count=$(grep -c '"key": "main:securityContext.privileged"' "$out" || true)
[ "$count" = 76 ] && pass "one privileged finding each" || fail "privileged findings: $count, expected 76"

# --- hostile JSON with comments ----------------------------------------------
mkdir -p hostile/.devcontainer/deep hostile/.devcontainer/string hostile/.devcontainer/comment \
    hostile/.devcontainer/long hostile/.devcontainer/utf8 hostile/.devcontainer/surrogate \
    hostile/.devcontainer/lone
python3 - <<'PY'
import os
d = 'hostile/.devcontainer/'
open(d + 'deep/devcontainer.json', 'w').write('{"a": ' + '[' * 200000 + ']' * 200000 + '}')
open(d + 'string/devcontainer.json', 'w').write('{"privileged": "unterminated')
open(d + 'comment/devcontainer.json', 'w').write('{"privileged": true /* never closed')
open(d + 'long/devcontainer.json', 'w').write('{"x": "' + 'a' * (1 << 20) + '", "privileged": true}')
open(d + 'utf8/devcontainer.json', 'wb').write(b'{"privileged": true, "name": "\xff\xfe"}')
open(d + 'surrogate/devcontainer.json', 'w').write('{"name": "\\ud83d\\ude00", "' + 'k' * 2000 + '": 1, "privileged": true}')
open(d + 'lone/devcontainer.json', 'w').write('{"name": "\\ud83d", "privileged": true}')
PY
expect_status 1 "hostile dev containers" -- --root hostile --format json hostile
json_valid "$out" && pass "the report is valid JSON" || fail "the report is not valid JSON"
for case in deep string comment utf8 lone; do
    grep "\"file\": \".devcontainer/$case/devcontainer.json\"" "$out" >line || true
    contains line '"severity": "error"' "$case: an error says the file was not checked"
done
contains "$out" '"file": ".devcontainer/long/devcontainer.json", "line": 1, "column": 1048587' \
    "a 1 MB line: the finding after it has its column"
contains "$out" '"file": ".devcontainer/surrogate/devcontainer.json"' \
    "surrogate pairs and a 2,000-character key are valid JSON, read"
finish
