#!/usr/bin/env bash
# The binary tarball, used as its README promises: unpacked anywhere (here a
# temporary directory, then moved, so nothing may depend on where it was
# unpacked), pointed at with PKG_CONFIG_PATH, a C host builds and runs, and
# bin/pathconfig, its manual and completions work.
#
#   Tests/DistTests/test_tarball.sh dist/libpathconfig-VERSION-linux-x86_64.tar.gz VERSION
#
# (`make test-dist` runs it.) Leaves nothing behind.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 TARBALL VERSION" >&2
    exit 2
fi
tarball=$(realpath "$1")
VERSION=$2
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/Tests/DistTests/checks.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

top=libpathconfig-$VERSION-linux-x86_64
[ "$(basename "$tarball")" = "$top.tar.gz" ] || fail "$tarball is not named $top.tar.gz"
tops=$(tar -tzf "$tarball" | cut -d/ -f1 | sort -u)
[ "$tops" = "$top" ] || fail "$tarball holds $tops at its top, not the one directory $top"
tar -xzf "$tarball" -C "$tmp"
mkdir "$tmp/elsewhere"
mv "$tmp/$top" "$tmp/elsewhere/prefix"
prefix=$tmp/elsewhere/prefix

# What the issue lists, each where a prefix keeps it.
for path in \
    lib/libpathconfig.so.$VERSION lib/libpathconfig.so.1 lib/libpathconfig.so lib/pkgconfig/pathconfig.pc \
    include/pathconfig.h bin/pathconfig share/man/man1/pathconfig.1 \
    share/bash-completion/completions/pathconfig share/zsh/site-functions/_pathconfig \
    share/fish/vendor_completions.d/pathconfig.fish README.md LICENSE CHANGELOG.md; do
    [ -e "$prefix/$path" ] || fail "$top/$path is missing"
done
# The README is a front door: every page of the manual it links to is shipped beside it.
for page in $(grep -o '](docs/[^)#]*' "$prefix/README.md" | cut -c3- | sort -u); do
    [ -f "$prefix/$page" ] || fail "$top/README.md links to $page, which the tarball lacks"
done
for header in "$REPO"/include/pathconfig/*.h; do
    cmp -s "$header" "$prefix/include/pathconfig/$(basename "$header")" ||
        fail "$top/include/pathconfig/$(basename "$header") is not the clone's"
done
[ "$(readlink "$prefix/lib/libpathconfig.so.1")" = "libpathconfig.so.$VERSION" ] ||
    fail "lib/libpathconfig.so.1 does not link to libpathconfig.so.$VERSION"
[ "$(readlink "$prefix/lib/libpathconfig.so")" = "libpathconfig.so.1" ] ||
    fail "lib/libpathconfig.so does not link to the SONAME"
soname=$(readelf -d "$prefix/lib/libpathconfig.so.$VERSION" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libpathconfig.so.1 ] || fail "the library's SONAME is '$soname'"
grep -q "^## \[$VERSION\]" "$prefix/CHANGELOG.md" || fail "CHANGELOG.md has no entry for $VERSION"
echo "ok: $top holds the library and its links, header, pkg-config file, command, manual, completions and docs"

# pkg-config finds the prefix from the .pc file's own place.
pc_env=(PKG_CONFIG_PATH="$prefix/lib/pkgconfig")
got=$(env -i PATH=$BARE_PATH "${pc_env[@]}" pkg-config --modversion pathconfig)
[ "$got" = "$VERSION" ] || fail "pkg-config --modversion pathconfig gave '$got'"
got=$(env -i PATH=$BARE_PATH "${pc_env[@]}" pkg-config --variable=libdir pathconfig)
[ "$(realpath "$got")" = "$(realpath "$prefix/lib")" ] || fail "pathconfig.pc's libdir is $got, not the unpacked lib/"
echo "ok: pkg-config reads version $VERSION and the unpacked lib/"

PATHCONFIG=$prefix/bin/pathconfig
check_command
check_c_host "$tmp/example" "${pc_env[@]}" LD_LIBRARY_PATH="$prefix/lib"
check_manual "$prefix/share/man/man1/pathconfig.1"
if command -v man >/dev/null; then
    got=$(env -i PATH=$BARE_PATH man -M "$prefix/share/man" -w pathconfig)
    [ "$got" = "$prefix/share/man/man1/pathconfig.1" ] || fail "man -M PREFIX/share/man -w pathconfig gave '$got'"
    echo "ok: man finds pathconfig(1) under the prefix"
fi
check_completions "$prefix/share/bash-completion/completions/pathconfig" \
    "$prefix/share/zsh/site-functions/_pathconfig" "$prefix/share/fish/vendor_completions.d/pathconfig.fish"
check_schema "$prefix/share/pathconfig/path-configuration.schema.json"
echo "test_tarball: all checks passed"
