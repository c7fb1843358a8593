#!/bin/sh
# The distribution packaging carries configure.ac's version: sandlint.spec
# (Version, and `rpmspec -P` parses it when rpm is installed: a main and a
# -devel package, %check running make check) and debian/changelog (a native
# version, no Debian revision); debian/ has the files a native source
# package needs; the README's snippets, the pre-commit hook's image and
# sandlint(1) name the same version; the Containerfile builds from
# debian:bookworm-slim and runs as a user without privileges.  (.ci/rpm
# and .ci/image build the packages and the image; maint/release.sh and
# tests/release.sh move every version at once.)
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$abs_top_srcdir"
version=$(sed -n 's/^AC_INIT(\[sandlint\], \[\([^]]*\)\].*/\1/p' configure.ac)
[ -n "$version" ] && pass "configure.ac: version $version" || { fail "no version in configure.ac"; finish; }

# --- RPM -------------------------------------------------------------------------
spec_version=$(sed -n 's/^Version: *//p' sandlint.spec)
[ "$spec_version" = "$version" ] && pass "sandlint.spec: Version $version" \
    || fail "sandlint.spec: Version '$spec_version', configure.ac says $version"
for field in License URL Source0 Summary; do
    grep -q "^$field: " sandlint.spec && pass "sandlint.spec: $field" || fail "sandlint.spec: no $field"
done
if command -v rpmspec >/dev/null 2>&1; then
    if rpmspec -P sandlint.spec > "$out" 2> "$err"; then
        pass "rpmspec -P parses sandlint.spec"
    else
        fail "rpmspec -P: $(cat "$err")"
    fi
    contains "$out" "make check" "%check runs make check"
    rpmspec -q --qf '%{name} %{version}\n' sandlint.spec > "$out" 2> "$err" || fail "rpmspec -q: $(cat "$err")"
    [ "$(cat "$out" | tr '\n' ' ')" = "sandlint $version sandlint-devel $version " ] \
        && pass "rpmspec: sandlint and sandlint-devel $version" || fail "rpmspec -q: $(cat "$out")"
    rpmspec -q --srpm --qf '[%{requirename}\n]' sandlint.spec > "$out" 2> "$err" || fail "rpmspec -q --srpm: $(cat "$err")"
    for requirement in 'pkgconfig(yaml-0.1)' 'pkgconfig(inih)' 'pkgconfig(cmocka)' 'pkgconfig(libseccomp)'; do
        contains "$out" "$requirement" "BuildRequires $requirement"
    done
else
    echo "packaging.sh: SKIP (partly): rpmspec is not installed (apt-get install rpm); sandlint.spec not parsed"
fi

# --- Debian ----------------------------------------------------------------------
if command -v dpkg-parsechangelog >/dev/null 2>&1; then
    deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
else
    deb_version=$(sed -n '1s/^sandlint (\([^)]*\)).*/\1/p' debian/changelog)
fi
[ "$deb_version" = "$version" ] && pass "debian/changelog: native version $version" \
    || fail "debian/changelog: version '$deb_version', configure.ac says $version"
[ "$(cat debian/source/format)" = "3.0 (native)" ] && pass "debian: 3.0 (native)" || fail "debian/source/format"
contains debian/control "debhelper-compat (= 13)" "debian: debhelper compat 13"
for package in sandlint sandlint-dev; do
    grep -q "^Package: $package$" debian/control && pass "debian: package $package" || fail "debian: no package $package"
done
[ -x debian/rules ] && pass "debian/rules is executable" || fail "debian/rules is not executable"

# --- what names the version besides the packages ------------------------------------
# The README's snippets resolve once vVERSION is tagged (maint/release.sh
# writes them all at a release).
snippets=$(grep -o 'rev: v[0-9.]*$\|sandlint/sandlint@v[0-9.]*$\|ghcr\.io/sandlint/sandlint:[0-9.]*' \
           README.md | sort -u)
[ "$snippets" = "ghcr.io/sandlint/sandlint:$version
rev: v$version
sandlint/sandlint@v$version" ] && pass "README.md: rev: v$version, @v$version, image :$version" ||
    fail "README.md's snippets do not name $version: $snippets"
contains .pre-commit-hooks.yaml "entry: ghcr.io/sandlint/sandlint:$version --allow-no-files" \
    "the docker_image hook runs the image of $version"
other=$(grep -ho 'ghcr\.io/sandlint/sandlint:[0-9.]*' .pre-commit-hooks.yaml man/sandlint.1 README.md |
        grep -v ":$version\$" || true)
[ -z "$other" ] && pass "every image reference is :$version" || fail "other image tags: $other"

# --- the container image's definition ---------------------------------------------------
[ "$(grep -c '^FROM ${BASE}' Containerfile)" -eq 2 ] &&
    grep -q '^ARG BASE=docker.io/library/debian:bookworm-slim$' Containerfile &&
    pass "Containerfile: two stages from debian:bookworm-slim" || fail "Containerfile: stages"
grep -q '^USER 10001:10001$' Containerfile && pass "Containerfile: a user without privileges" ||
    fail "Containerfile: no USER 10001:10001"
grep -q '^ENTRYPOINT \["/usr/bin/sandlint"\]$' Containerfile &&
    pass "Containerfile: sandlint is the entry point" || fail "Containerfile: entry point"
for line in .git '**/*.o' '**/.libs' /config.status /sandlint; do
    grep -qxF "$line" .dockerignore || fail ".dockerignore lets $line into the build"
done
pass ".dockerignore keeps version control and build outputs out"
finish
