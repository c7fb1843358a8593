#!/bin/sh
# maint/release.sh - the release commit's edits, in one command.
#
#     maint/release.sh VERSION [DATE]      e.g. maint/release.sh 0.3.0 2027-01-15
#
# Sets VERSION (and DATE, default today, UTC) everywhere a release names
# them, in the tree this script belongs to:
#   configure.ac         AC_INIT's version
#   sandlint.spec        Version, and a %changelog entry on top
#   debian/changelog     an entry on top (a native package: no revision)
#   NEWS                 the "VERSION (unreleased)" heading gets the date
#   README.md            pre-commit's rev: vVERSION, the Action's @vVERSION,
#                        the image's :VERSION
#   .pre-commit-hooks.yaml, man/sandlint.1
#                        the image's :VERSION
# It does not commit, tag, build or publish.  Then: review `git diff`,
# commit, tag vVERSION at that commit (the README's rev: and @v resolve
# from then on), push the tag, build and push the image
# ghcr.io/sandlint/sandlint:VERSION (podman build -t ... .), and attach
# `make dist`'s tarball to the release.  tests/release.sh runs this on a
# copy of the tree and checks every file; tests/packaging.sh checks that
# they all agree with configure.ac.
set -eu
LC_ALL=C
export LC_ALL
usage() { echo "usage: $0 VERSION [YYYY-MM-DD]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
version=$1
date=${2:-$(date -u +%Y-%m-%d)}
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' || { echo "$0: bad version '$version'" >&2; exit 2; }
echo "$date" | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' || { echo "$0: bad date '$date'" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
old=$(sed -n 's/^AC_INIT(\[sandlint\], \[\([^]]*\)\].*/\1/p' configure.ac)
[ -n "$old" ] || { echo "$0: no version in configure.ac" >&2; exit 1; }
grep -q "^$version (unreleased)\$" NEWS ||
    { echo "$0: NEWS has no heading '$version (unreleased)'" >&2; exit 1; }
# Dates as the changelogs write them.
rpm_date=$(date -u -d "$date" '+%a %b %d %Y')
deb_date=$(date -u -d "$date 12:00" '+%a, %d %b %Y %H:%M:%S +0000')
maintainer='The sandlint authors <sandlint@users.noreply.github.com>'

# replace FILE SED-SCRIPT : edits FILE in place, failing when nothing changed.
replace() {
    file=$1
    cp "$file" "$file.release"
    sed -e "$2" "$file.release" >"$file"
    if cmp -s "$file" "$file.release"; then
        rm -f "$file.release"
        [ "$old" = "$version" ] && return 0
        echo "$0: nothing to change in $file" >&2
        exit 1
    fi
    rm -f "$file.release"
}
escape() { printf '%s' "$1" | sed 's/\./\\./g'; }
from=$(escape "$old")

replace configure.ac "s/^AC_INIT(\[sandlint\], \[$from\]/AC_INIT([sandlint], [$version]/"
replace sandlint.spec "s/^Version:\( *\)$from\$/Version:\1$version/"
if ! grep -q " - $version-1\$" sandlint.spec; then
    awk -v entry="* $rpm_date $maintainer - $version-1" -v note="- Update to $version (see NEWS)" '
        { print }
        /^%changelog$/ { print entry; print note; print "" }' sandlint.spec >sandlint.spec.release
    mv sandlint.spec.release sandlint.spec
fi
if ! head -n 1 debian/changelog | grep -q "^sandlint ($version) "; then
    {
        echo "sandlint ($version) unstable; urgency=medium"
        echo ""
        echo "  * New upstream version $version (see NEWS)."
        echo ""
        echo " -- $maintainer  $deb_date"
        echo ""
        cat debian/changelog
    } >debian/changelog.release
    mv debian/changelog.release debian/changelog
fi
replace NEWS "s/^$(escape "$version") (unreleased)\$/$version ($date)/"
replace README.md "s/rev: v$from\$/rev: v$version/; s/sandlint\/sandlint@v$from\$/sandlint\/sandlint@v$version/; s/ghcr\.io\/sandlint\/sandlint:$from/ghcr.io\/sandlint\/sandlint:$version/g"
replace .pre-commit-hooks.yaml "s/ghcr\.io\/sandlint\/sandlint:$from /ghcr.io\/sandlint\/sandlint:$version /"
replace man/sandlint.1 "s/ghcr\.io\/sandlint\/sandlint:$from/ghcr.io\/sandlint\/sandlint:$version/"
echo "sandlint $old -> $version ($date): configure.ac, sandlint.spec, debian/changelog, NEWS," \
     "README.md, .pre-commit-hooks.yaml, man/sandlint.1"
