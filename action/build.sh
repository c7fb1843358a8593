#!/usr/bin/env bash
# action/build.sh - the build steps of the sandlint GitHub Action
# (action.yml), kept here so that they run, and are tested
# (tests/action.sh), outside GitHub too.
#
#   build.sh key       prints version=, key=, prefix= and sandlint= to
#                      $GITHUB_OUTPUT: the install prefix, the actions/cache
#                      key and the command for the sandlint of the action's
#                      own checkout
#   build.sh install   makes $SANDLINT_PREFIX/bin/sandlint work: when it is
#                      not there (no cache hit), installs the missing build
#                      dependencies from the distribution (apt-get), builds
#                      the checkout out of tree and installs it there; when
#                      it is, installs only missing run-time libraries
#
# Environment: SANDLINT_SOURCE (the action's checkout, default: this
# script's directory/..), SANDLINT_PREFIX (install), GITHUB_OUTPUT,
# RUNNER_TOOL_CACHE, RUNNER_TEMP, ImageOS (set by GitHub's runners; each has
# a default here).
set -euo pipefail
source_dir=${SANDLINT_SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export DEBIAN_FRONTEND=noninteractive
log() { printf 'sandlint action: %s\n' "$*" >&2; }

# apt_install PACKAGE...: through sudo unless we are root already.
apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        log "cannot install $* here: the action needs a Debian or Ubuntu runner (apt-get)"
        exit 1
    fi
    local sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    log "installing $*"
    $sudo apt-get update -q >&2
    $sudo apt-get install -y -q --no-install-recommends "$@" >&2
}

version() {
    sed -n 's/^AC_INIT(\[sandlint\], \[\([^]]*\)\].*/\1/p' "$source_dir/configure.ac"
}

# A digest of everything the installed files are built from: a version
# number alone does not change between commits of a branch (uses: ...@main).
source_digest() {
    (cd "$source_dir" &&
        find configure.ac Makefile.am sandlint.pc.in tests/toml.mk core include plugins \
            man completion -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum |
        sha256sum | cut -c1-16)
}

key() {
    local version digest arch prefix
    version=$(version)
    [ -n "$version" ] || { log "no version in $source_dir/configure.ac"; exit 1; }
    digest=$(source_digest)
    arch=$(uname -m)
    prefix="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/sandlint/$version-$digest/$arch"
    # The runner image is part of the key: the binary links the image's
    # libraries.
    {
        echo "version=$version"
        echo "key=sandlint-${ImageOS:-$(. /etc/os-release && echo "$ID$VERSION_ID")}-$arch-$version-$digest"
        echo "prefix=$prefix"
        echo "sandlint=$prefix/bin/sandlint"
    } >> "${GITHUB_OUTPUT:-/dev/stdout}"
}

build_dependencies() {
    local missing=no tool module
    for tool in cc make pkg-config; do
        command -v "$tool" >/dev/null 2>&1 || missing=yes
    done
    if [ ! -x "$source_dir/configure" ]; then
        for tool in autoreconf automake libtoolize; do
            command -v "$tool" >/dev/null 2>&1 || missing=yes
        done
    fi
    if [ "$missing" = no ]; then
        for module in yaml-0.1 inih libseccomp; do
            pkg-config --exists "$module" || missing=yes
        done
    fi
    if [ "$missing" = yes ]; then
        apt_install build-essential autoconf automake libtool pkg-config \
            libyaml-dev libinih-dev libseccomp-dev
    else
        log "build dependencies are installed"
    fi
}

install() {
    local prefix=${SANDLINT_PREFIX:?SANDLINT_PREFIX names the install prefix}
    local sandlint="$prefix/bin/sandlint"
    if [ -x "$sandlint" ]; then
        # A cache hit on a fresh runner: the libraries may be missing.
        if ldd "$sandlint" "$prefix"/lib/sandlint/plugins/*.so 2>/dev/null | grep -q 'not found'; then
            apt_install libyaml-0-2 libinih1 libseccomp2
        fi
        log "using $("$sandlint" --version) from $prefix"
        return
    fi
    build_dependencies
    if [ ! -x "$source_dir/configure" ]; then
        log "autoreconf in $source_dir"
        (cd "$source_dir" && autoreconf -fi >&2)
    fi
    local build
    build=$(mktemp -d "${RUNNER_TEMP:-/tmp}/sandlint-build.XXXXXX")
    log "building $source_dir in $build"
    (
        cd "$build"
        "$source_dir/configure" --prefix="$prefix" --quiet --disable-dependency-tracking >&2
        make -j"$(nproc)" >&2
        make install >&2
    )
    rm -rf "$build"
    "$sandlint" --version >&2
}

case ${1:-} in
    key) key ;;
    install) install ;;
    *) echo "usage: build.sh key|install" >&2; exit 2 ;;
esac
