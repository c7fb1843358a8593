#!/bin/sh
# --update-allowlist (SPEC §8, §14, issues 12 and 20) on small repositories:
# entries scoped to their file by default (never '*'), --allowlist-scope
# package, stale entries per scope, --strict, --narrow,
# --allowlist-suppressed, what INI cannot hold, the report after the change,
# and what cannot be edited safely.  The same on a real repository:
# tests/update_allowlist_corpus.sh.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

mkdir -p small/evals/alpha small/evals/beta
printf 'services:\n  default:\n    privileged: true\n    cap_add: [SYS_ADMIN]\n' > small/evals/alpha/compose.yaml
printf 'services:\n  default:\n    pid: host\n' > small/evals/beta/compose.yaml

# --- no configuration: file entries in a new .sandlint.ini -------------------
expect_status 0 "no configuration: --update-allowlist creates .sandlint.ini" -- \
    --root small --update-allowlist small
[ -f small/.sandlint.ini ] && pass ".sandlint.ini created at the root" || fail "no .sandlint.ini"
contains small/.sandlint.ini "[allowlist sandbox_privileges]" "the new file has the group's section"
contains small/.sandlint.ini "evals/beta/compose.yaml = default:pid:host" \
    "without packages, entries are scoped to their file"
lacks small/.sandlint.ini "* = " "never a '*' entry"
[ ! -s "$out" ] && pass "the accepted findings are not printed again" \
    || fail "the update printed findings: $(cat "$out")"
head -1 "$err" | grep -q '^added 3, removed 0 entries in small/.sandlint.ini$' \
    && pass "it says what it changed first" || fail "first line: $(head -1 "$err")"
tail -1 "$err" | grep -q '^0 errors, 0 warnings in 2 files (2 services), 3 allowlisted$' \
    && pass "then the summary of the run after the change" || fail "summary: $(tail -1 "$err")"
expect_status 0 "a second update" -- --root small --update-allowlist small
contains "$err" "added 0, removed 0 entries" "a second update changes nothing"

# --- the adoption story: a new setting elsewhere fails ---------------------------
mkdir -p small/evals/alpha/sibling small/evals/gamma
printf 'services:\n  default:\n    privileged: true\n' > small/evals/alpha/sibling/compose.yaml
expect_status 1 "privileged in a sibling file of the same package fails" -- --root small small
contains "$out" "evals/alpha/sibling/compose.yaml:3:5: error: privileged mode" \
    "the sibling's finding is reported"
printf 'services:\n  default:\n    privileged: true\n' > small/evals/gamma/compose.yaml
rm -r small/evals/alpha/sibling
expect_status 1 "privileged in another package fails" -- --root small small
contains "$out" "evals/gamma/compose.yaml:3:5: error: privileged mode" "another package's finding"
rm -r small/evals/gamma

# --- package entries on request ---------------------------------------------------
rm small/.sandlint.ini
expect_status 2 "--allowlist-scope package without packages" -- --root small --update-allowlist \
    --allowlist-scope package small
contains "$err" "--allowlist-scope package needs packages" "says why"
[ ! -e small/.sandlint.ini ] && pass "nothing written" || fail "a configuration was written"
expect_status 2 "--allowlist-scope '*'" -- --root small --update-allowlist --allowlist-scope '*' small
contains "$err" "--allowlist-scope takes file or package" "no scope for every package"
expect_status 2 "--allowlist-scope without --update-allowlist" -- --allowlist-scope file small
contains "$err" "--allowlist-scope only goes with --update-allowlist" "a usage error"
printf '[sandlint]\npackages = evals/*\n' > small/.sandlint.ini
chmod 640 small/.sandlint.ini
expect_status 0 "--allowlist-scope package" -- --root small --update-allowlist \
    --allowlist-scope package small
contains small/.sandlint.ini "alpha = default:cap_add:SYS_ADMIN" "entries under their package"
[ "$(stat -c %a small/.sandlint.ini)" = 640 ] && pass "the file's mode is kept" \
    || fail "mode changed to $(stat -c %a small/.sandlint.ini)"
[ -z "$(ls -A small | grep 'sandlint-' || true)" ] && pass "no temporary file left" \
    || fail "temporary files: $(ls -A small)"

# Two files of one package with the same key: exactly one package entry.
mkdir -p small/evals/beta/second
printf 'services:\n  default:\n    cap_add: [SYS_TIME]\n' > small/evals/beta/compose.yaml
printf 'services:\n  default:\n    cap_add: [SYS_TIME]\n' > small/evals/beta/second/compose.yaml
expect_status 0 "one key in two files of a package" -- --root small --update-allowlist \
    --allowlist-scope package small
contains "$err" "added 1, removed 1 entries" "added 1 (and beta's pid entry went)"
[ "$(grep -c '^beta = default:cap_add:SYS_TIME$' small/.sandlint.ini)" = 1 ] \
    && pass "one line for the two files" || fail "$(cat small/.sandlint.ini)"
rm -r small/evals/beta/second

# A one-file run under a package calls no package entry stale.
printf 'services:\n  default:\n    image: x\n' > small/evals/alpha/compose.yaml
expect_status 0 "one file of alpha" -- --root small small/evals/alpha/compose.yaml
lacks "$out" "no longer needed" "a one-file run reports no stale package entry"
expect_status 0 "--update-allowlist on one file" -- --root small --update-allowlist \
    small/evals/alpha/compose.yaml
contains "$err" "added 0, removed 0 entries" "a package not fully checked loses nothing"
expect_status 0 "the whole tree" -- --root small small
contains "$out" "no longer needed" "the whole run reports the stale entries"
expect_status 0 "--update-allowlist removes stale entries" -- --root small --update-allowlist small
contains "$err" "added 0, removed 2 entries" "two stale entries removed"
lacks small/.sandlint.ini "alpha = " "alpha's entries are gone"
contains small/.sandlint.ini "beta = default:cap_add:SYS_TIME" "beta's entry stays"

# --- stale file entries: judged by a run that checked the file ------------------
mkdir -p files/a files/b
printf 'services:\n  web:\n    image: x\n' > files/a/compose.yaml
printf 'services:\n  web:\n    image: x\n' > files/b/compose.yaml
printf '[allowlist sandbox_privileges]\na/compose.yaml = web:privileged\nb/compose.yaml = web:privileged\ngone/compose.yaml = web:privileged\n' \
    > files/.sandlint.ini
expect_status 0 "a run of one file" -- --root files files/a/compose.yaml
contains "$out" ".sandlint.ini:2:18: warning: allowlist entry 'web:privileged' for sandbox_privileges on 'a/compose.yaml' is no longer needed [SL005]" \
    "the checked file's unused entry is stale"
lacks "$out" "on 'b/compose.yaml'" "another file's entry is not judged"
lacks "$out" "on 'gone/compose.yaml'" "nor one of a file outside the operands"
expect_status 0 "--update-allowlist on one file" -- --root files --update-allowlist files/a
contains "$err" "added 0, removed 1 entries" "it removes the checked file's entry only"
contains files/.sandlint.ini "b/compose.yaml = web:privileged" "b's entry stays"
expect_status 0 "the whole root" -- --root files --update-allowlist files
contains "$err" "added 0, removed 2 entries" "the whole root removes the rest (a gone file too)"

# --- a stale '*' entry (no packages) --------------------------------------------
printf '[allowlist sandbox_privileges]\n* = web:privileged\n' > files/.sandlint.ini
expect_status 0 "a '*' entry nothing matches" -- --root files files
contains "$out" ".sandlint.ini:2:5: warning: allowlist entry 'web:privileged' for sandbox_privileges on '*' is no longer needed [SL005]" \
    "a stale '*' entry is reported"
expect_status 0 "a run of one directory" -- --root files files/a
lacks "$out" "no longer needed" "a '*' entry is judged only by a run of the whole root"
expect_status 0 "--update-allowlist" -- --root files --update-allowlist files
contains "$err" "added 0, removed 1 entries" "the stale '*' entry is removed"
lacks files/.sandlint.ini "* = " "it is gone"

# --- --strict: warnings get entries too -----------------------------------------
mkdir warn
printf 'services:\n  web:\n    image: x\n    cap_add: ["${CAP}"]\n' > warn/compose.yaml
expect_status 0 "warnings are not added without --strict" -- --root warn --update-allowlist \
    --extend-select sandbox_hardening warn
contains "$err" "added 5, removed 0" "the hardening errors are added"
lacks warn/.sandlint.ini "web:cpu_limit" "a hardening warning is not"
lacks warn/.sandlint.ini "\${CAP}" "nor an interpolation warning"
contains "$err" "0 errors, 3 warnings in 1 file" "the warnings stay in the summary"
expect_status 1 "--strict fails on them" -- --root warn --strict --extend-select sandbox_hardening warn
expect_status 0 "--strict --update-allowlist" -- --root warn --update-allowlist --strict \
    --extend-select sandbox_hardening warn
contains "$err" "added 3, removed 0" "with --strict the three warnings are added"
contains warn/.sandlint.ini "./compose.yaml = web:cap_add:\${CAP}" "the interpolation warning gets an entry"
contains warn/.sandlint.ini "./compose.yaml = web:cpu_limit" "hardening warnings get entries"
expect_status 0 "--strict passes after it" -- --root warn --strict --extend-select sandbox_hardening warn

# --- --narrow: 0.2's '*' and package entries become file entries ----------------------
mkdir -p old/evals/a old/evals/b
printf 'services:\n  default:\n    privileged: true\n' > old/evals/a/compose.yaml
printf 'services:\n  default:\n    privileged: true\n    pid: host\n' > old/evals/b/compose.yaml
printf '[sandlint]\npackages = evals/*\n[allowlist sandbox_privileges]\n* = default:privileged\nb = default:pid:host\n' \
    > old/.sandlint.ini
expect_status 0 "0.2 entries keep their meaning" -- --root old old
expect_status 0 "--narrow on one package" -- --root old --update-allowlist --narrow old/evals/a
contains "$err" "'*' entry not narrowed: this run did not check every file it covers" \
    "a '*' entry is narrowed only by a run of the whole root"
contains old/.sandlint.ini "* = default:privileged" "it stays"
expect_status 0 "--narrow" -- --root old --update-allowlist --narrow old
contains "$err" "narrowed 2 '*' and package entries into file entries" "says what it narrowed"
contains "$err" "added 3, removed 2 entries" "three file entries for two broad ones"
lacks old/.sandlint.ini "* = " "the '*' entry is gone"
lacks old/.sandlint.ini "b = " "the package entry is gone"
contains old/.sandlint.ini "evals/a/compose.yaml = default:privileged" "a's file entry"
contains old/.sandlint.ini "evals/b/compose.yaml = default:pid:host" "b's file entry"
expect_status 0 "the narrowed configuration passes" -- --root old old
mkdir old/evals/c
printf 'services:\n  default:\n    privileged: true\n' > old/evals/c/compose.yaml
expect_status 1 "and no longer accepts a new file" -- --root old old

# --- --allowlist-suppressed: comments become trusted entries -------------------------
mkdir comments
printf 'services:\n  web:\n    # sandlint: ignore[SBX001] -- reviewed (SEC-1)\n    privileged: true\n' \
    > comments/compose.yaml
expect_status 0 "comments accept the finding" -- --root comments comments
expect_status 0 "--allowlist-suppressed" -- --root comments --update-allowlist \
    --allowlist-suppressed comments
contains comments/.sandlint.ini "./compose.yaml = web:privileged" "the suppressed finding gets an entry"
cp comments/.sandlint.ini trusted.ini
expect_status 0 "--untrusted passes with the entry from the trusted configuration" -- \
    --root comments --untrusted --config trusted.ini comments
contains "$out" "suppression comment not honoured: --untrusted [SL004]" "the comment is still reported"
expect_status 2 "--allowlist-suppressed alone" -- --allowlist-suppressed comments
expect_status 2 "--narrow alone" -- --narrow comments

# --- what INI cannot hold -----------------------------------------------------------
mkdir -p colon/'a:b'
printf 'services:\n  web:\n    privileged: true\n' > colon/'a:b'/compose.yaml
expect_status 2 "a path INI cannot hold, no pyproject.toml" -- --root colon --update-allowlist colon
contains "$err" "cannot write the allowlist entry 'a:b/compose.yaml = web:privileged'" \
    "names the entry"
contains "$err" "pyproject.toml" "says where it can go"
[ ! -e colon/.sandlint.ini ] && pass "nothing written" || fail "a half configuration was written"
printf '[project]\nname = "colon"\n' > colon/pyproject.toml
expect_status 0 "with a pyproject.toml, the entries go there" -- --root colon --update-allowlist colon
contains "$err" "entries in colon/pyproject.toml" "pyproject.toml is named"
contains colon/pyproject.toml '"a:b/compose.yaml" = ["web:privileged"]' "the path, quoted"
contains colon/pyproject.toml '[project]' "the rest of the file stays"
[ ! -e colon/.sandlint.ini ] && pass "no .sandlint.ini beside it" || fail ".sandlint.ini written"
expect_status 0 "pyproject.toml is now the configuration" -- --root colon colon
rm colon/pyproject.toml
printf '[sandlint]\n' > colon/.sandlint.ini
cp colon/.sandlint.ini colon.ini
expect_status 2 "an existing .sandlint.ini that cannot hold it" -- --root colon --update-allowlist colon
cmp -s colon.ini colon/.sandlint.ini && pass "it is untouched" || fail "it changed"

# --- a package directory named like a wildcard ---------------------------------------
mkdir -p star/evals/'*' star/evals/ok
printf 'services:\n  web:\n    privileged: true\n' > star/evals/'*'/compose.yaml
printf '[sandlint]\npackages = evals/*\n' > star/.sandlint.ini
expect_status 2 "a package directory named '*'" -- --root star star
contains "$err" "package directory 'evals/*' is named like a wildcard" "a configuration error"
printf '[allowlist sandbox_privileges]\nevals/*/ = web:privileged\n' > star/.sandlint.ini
expect_status 2 "a scope with '*'" -- --root star star/evals/ok
contains "$err" ".sandlint.ini:2:1: allowlist scope 'evals/*/': a scope is a literal path" \
    "refused at its position"
cp star/.sandlint.ini star.ini
expect_status 2 "the same outside the root" -- --config star.ini --root star star/evals/ok
contains "$err" "star.ini:2:1: allowlist scope '<not quoted>': a scope is a literal path" \
    "a configuration outside the root is not quoted"
contains "$err" "(the configuration lies outside the root, so its text is not quoted)" "and says why"

# Two at once never leave a half-written file.
printf 'services:\n  default:\n    cap_add: [NET_ADMIN, SYS_TIME, SYS_NICE]\n' > small/evals/alpha/compose.yaml
sl --root small --update-allowlist small >/dev/null 2>&1 &
first=$!
sl --root small --update-allowlist small >/dev/null 2>&1 || true
wait "$first" || true
expect_status 0 "after two updates at once" -- --root small small
contains small/.sandlint.ini "evals/alpha/compose.yaml = default:cap_add:SYS_TIME" "the file is whole"

# --- what is still wrong is printed ------------------------------------------------
mkdir bad
printf 'services:\n  web:\n    privileged: true\n' > bad/compose.yaml
printf 'services: [\n' > bad/docker-compose.yml
expect_status 1 "an unreadable file still fails" -- --root bad --update-allowlist bad
contains "$out" "docker-compose.yml" "its error is printed"
lacks "$out" "privileged mode" "the accepted finding is not"

# --- what cannot be edited safely --------------------------------------------------
mkdir -p broken
printf 'services:\n  web:\n    privileged: true\n' > broken/compose.yaml
printf '[sandlint]\nselect = SBX001\n[allowlist sandbox_privileges]\n = web:privileged\n' > broken/.sandlint.ini
cp broken/.sandlint.ini broken.ini
expect_status 2 "a configuration with an error" -- --root broken --update-allowlist broken
cmp -s broken.ini broken/.sandlint.ini && pass "a broken configuration is untouched" \
    || fail "a broken configuration was changed"
contains "$err" ".sandlint.ini:4:" "the error has its line"
printf '[sandlint]\n' > broken/.sandlint.ini
chmod 444 broken/.sandlint.ini
expect_status 2 "a read-only configuration" -- --root broken --update-allowlist broken
contains "$err" "the configuration is read-only" "read-only is refused"
[ "$(cat broken/.sandlint.ini)" = "[sandlint]" ] && pass "the read-only file is untouched" \
    || fail "the read-only file changed"
chmod 644 broken/.sandlint.ini
mv broken/.sandlint.ini broken/real.ini
ln -s real.ini broken/.sandlint.ini
expect_status 2 "a configuration that is a link" -- --root broken --update-allowlist broken
contains "$err" "it is a symbolic link; --update-allowlist edits files, not links" "a link is not edited"
[ -L broken/.sandlint.ini ] && pass "the link stays a link" || fail "the link was replaced"
expect_status 2 "with standard input" -- --update-allowlist -
contains "$err" "--update-allowlist cannot take standard input" "stdin refused"
expect_status 2 "with --exit-zero" -- --update-allowlist --exit-zero broken
expect_status 2 "with json" -- --update-allowlist --format json broken
contains "$err" "--update-allowlist prints a text report, not json" "another format refused"
expect_status 2 "with --untrusted" -- --update-allowlist --untrusted broken
contains "$err" "cannot run with --untrusted" "--untrusted refused"
finish
