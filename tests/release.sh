#!/bin/sh
# maint/release.sh on a copy of the tree: after it, every file that names
# the version names the new one (what tests/packaging.sh checks of the
# tree), the changelogs have an entry dated as asked and NEWS's heading is
# dated; nothing else of those files changed; a wrong version or date, or a
# NEWS without the version's heading, is refused.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
copy="$scratch/tree"
mkdir -p "$copy/maint" "$copy/debian" "$copy/man"
for file in configure.ac sandlint.spec debian/changelog NEWS README.md .pre-commit-hooks.yaml \
            man/sandlint.1 maint/release.sh; do
    cp "$abs_top_srcdir/$file" "$copy/$file"
done
old=$(sed -n 's/^AC_INIT(\[sandlint\], \[\([^]]*\)\].*/\1/p' "$copy/configure.ac")
# The release NEWS prepares: its first heading still unreleased.  Right
# after a release (the first heading dated) there is none yet: the copy is
# given the next minor version's, as the next change to NEWS will add it.
first=$(sed -n 's/^\([0-9][0-9.]*\) (.*)$/&/p' "$copy/NEWS" | head -n 1)
case $first in
*"(unreleased)") ;;
*)
    next=$(echo "$old" | awk -F. '{ printf "%d.%d.0", $1, $2 + 1 }')
    awk -v heading="$next (unreleased)" 'NR == 3 { print heading; print ""; print "  * The next release."; print "" } { print }' \
        "$copy/NEWS" >"$copy/NEWS.next" && mv "$copy/NEWS.next" "$copy/NEWS"
    ;;
esac
new=$(sed -n 's/^\([0-9][0-9.]*\) (unreleased)$/\1/p' "$copy/NEWS" | head -n 1)
[ -n "$new" ] || { fail "NEWS has no unreleased heading"; finish; }
cd "$copy"

expect_release() {   # STATUS DESCRIPTION ARGS...
    want=$1 what=$2
    shift 2
    set +e
    sh maint/release.sh "$@" >"$out" 2>"$err"
    got=$?
    set -e
    [ "$got" -eq "$want" ] && pass "$what" || fail "$what: exit $got: $(cat "$err")"
}
expect_release 2 "a version that is not one is refused" "v$new"
expect_release 2 "a date that is not one is refused" "$new" "15.01.2027"
expect_release 1 "a version NEWS does not announce is refused" 9.9.9 2027-01-15
cmp -s configure.ac "$abs_top_srcdir/configure.ac" && pass "a refusal changes nothing" ||
    fail "a refused release changed configure.ac"

expect_release 0 "maint/release.sh $new 2027-01-15" "$new" 2027-01-15
grep -q "^AC_INIT(\[sandlint\], \[$new\]," configure.ac && pass "configure.ac: $new" ||
    fail "configure.ac: $(grep AC_INIT configure.ac)"
grep -q "^Version: *$new\$" sandlint.spec && pass "sandlint.spec: Version $new" || fail "spec Version"
awk '/^%changelog$/ { getline; print; exit }' sandlint.spec >entry
contains entry "* Fri Jan 15 2027 The sandlint authors <sandlint@users.noreply.github.com> - $new-1" \
    "sandlint.spec: a %changelog entry on top"
head -n 1 debian/changelog | grep -q "^sandlint ($new) unstable; urgency=medium\$" &&
    pass "debian/changelog: an entry for $new on top" || fail "debian/changelog: $(head -n 1 debian/changelog)"
contains debian/changelog " -- The sandlint authors <sandlint@users.noreply.github.com>  Fri, 15 Jan 2027 12:00:00 +0000" \
    "debian/changelog: dated as asked"
if command -v dpkg-parsechangelog >/dev/null 2>&1; then
    [ "$(dpkg-parsechangelog -l debian/changelog -S Version)" = "$new" ] &&
        pass "dpkg-parsechangelog reads $new" || fail "dpkg-parsechangelog: $(dpkg-parsechangelog -l debian/changelog 2>&1 | head -3)"
fi
grep -q "^$new (2027-01-15)\$" NEWS && pass "NEWS: $new (2027-01-15)" || fail "NEWS heading"
for pattern in "rev: v$new\$" "sandlint/sandlint@v$new\$" "ghcr.io/sandlint/sandlint:$new"; do
    grep -q "$pattern" README.md && pass "README.md: $pattern" || fail "README.md lacks $pattern"
done
grep -q "entry: ghcr.io/sandlint/sandlint:$new --allow-no-files" .pre-commit-hooks.yaml &&
    pass ".pre-commit-hooks.yaml: the image of $new" || fail ".pre-commit-hooks.yaml"
if [ "$old" != "$new" ]; then
    left=$(grep -l "ghcr.io/sandlint/sandlint:$old\|rev: v$old\$\|sandlint@v$old\$" \
           README.md .pre-commit-hooks.yaml man/sandlint.1 || true)
    [ -z "$left" ] && pass "no file names $old any more" || fail "$old left in $left"
fi
# Only the version lines changed (the two Action snippets, push and pull
# requests, among them).
changed=$(diff "$abs_top_srcdir/README.md" README.md | grep -c '^>' || true)
[ "$changed" -eq 5 ] && pass "README.md: five lines changed" || fail "README.md: $changed lines changed"
if command -v rpmspec >/dev/null 2>&1; then
    rpmspec -q --qf '%{version}\n' sandlint.spec 2>"$err" | sort -u | grep -qx "$new" &&
        pass "rpmspec reads $new" || fail "rpmspec: $(cat "$err")"
fi
finish
