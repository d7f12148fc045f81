#!/usr/bin/env bash
# Builds the Debian packages of libpathconfig from a staged system tree
# (`make dist-deb` stages it and runs this):
#
#   packaging/debian/build-debs.sh VERSION STAGE DIST
#
# STAGE/root holds `make install-files` with DESTDIR=STAGE/root, PREFIX=/usr,
# the library in /usr/lib/<multiarch>. Its files are split as Debian splits a
# library, and every file must land in one package:
#
#   libpathconfig1     the shared library and its SONAME link; shlibs and
#                      symbols files; an ldconfig trigger
#   libpathconfig-dev  the header (pathconfig.h, pathconfig/*.h), pathconfig.pc
#                      and the unversioned libpathconfig.so link
#   pathconfig         the command, its manual, its completions and the JSON
#                      Schema of a path configuration (/usr/share/pathconfig)
#
# Each also gets /usr/share/doc/PACKAGE/: copyright (this directory's, with
# the licence text of LICENSE), changelog.Debian.gz and changelog.gz
# (CHANGELOG.md). The control files come from dpkg-gencontrol over this
# directory's control; Depends from dpkg-shlibdeps, which maps the libraries
# each ELF file links (NEEDED) to the packages that ship them. The packages
# are VERSION-1, built with dpkg-deb --root-owner-group into DIST as
# PACKAGE_VERSION-1_ARCH.deb; dates come from SOURCE_DATE_EPOCH.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 VERSION STAGE DIST" >&2
    exit 2
fi
version=$1 stage=$(realpath "$2") dist=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
debversion="$version-1"
arch=$(dpkg --print-architecture)
libdir=usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
packages=(libpathconfig1 libpathconfig-dev pathconfig)
: "${SOURCE_DATE_EPOCH:=$(date +%s)}"
export SOURCE_DATE_EPOCH

root=$stage/root
# A source tree as the dpkg-dev tools expect one: debian/control,
# debian/changelog, and each package's tree in debian/PACKAGE.
work=$stage/work
rm -rf "$work"
mkdir -p "$work/debian"
cp "$here/control" "$work/debian/control"
maintainer=$(sed -n 's/^Maintainer: //p' "$here/control" | head -n1)
cat > "$work/debian/changelog" <<EOF
libpathconfig ($debversion) unstable; urgency=medium

  * Upstream release $version; see /usr/share/doc/PACKAGE/changelog.gz.

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF

# move PACKAGE PATH...: staged paths (files or whole directories) into a package.
move() {
    local package=$1 path
    shift
    for path in "$@"; do
        [ -e "$root/$path" ] || [ -L "$root/$path" ] || { echo "build-debs: $path is not staged" >&2; exit 1; }
        mkdir -p "$work/debian/$package/$(dirname "$path")"
        mv "$root/$path" "$work/debian/$package/$path"
    done
}
move libpathconfig1 "$libdir/libpathconfig.so.1" "$libdir/libpathconfig.so.$version"
move libpathconfig-dev usr/include "$libdir/libpathconfig.so" "$libdir/pkgconfig"
move pathconfig usr/bin usr/share/man usr/share/bash-completion usr/share/zsh usr/share/fish usr/share/pathconfig
left=$(find "$root" ! -type d)
if [ -n "$left" ]; then
    echo "build-debs: staged files in no package:" >&2
    echo "$left" >&2
    exit 1
fi

cd "$work"
for package in "${packages[@]}"; do
    tree=debian/$package
    doc=$tree/usr/share/doc/$package
    mkdir -p "$doc" "$tree/DEBIAN"
    { cat "$here/copyright"; sed -n '/^Permission/,$p' "$repo/LICENSE" | sed -e 's/^$/./' -e 's/^/ /'; } > "$doc/copyright"
    gzip -9n < debian/changelog > "$doc/changelog.Debian.gz"
    gzip -9n < "$repo/CHANGELOG.md" > "$doc/changelog.gz"
done
gzip -9n debian/pathconfig/usr/share/man/man1/pathconfig.1

# The library: not executable (Debian policy), found by the dynamic linker
# after an ldconfig trigger; shlibs and symbols tell packages built against
# it what to depend on.
chmod 644 "debian/libpathconfig1/$libdir/libpathconfig.so.$version"
echo "activate-noawait ldconfig" > debian/libpathconfig1/DEBIAN/triggers
echo "libpathconfig 1 libpathconfig1 (>= $version)" > debian/libpathconfig1/DEBIAN/shlibs
# Every symbol of this ABI dates from this upstream version; packages that
# build against the library depend on it through libpathconfig-dev.
dpkg-gensymbols -q -plibpathconfig1 -Pdebian/libpathconfig1 -v"$version" -edebian/libpathconfig1/"$libdir"/libpathconfig.so.1
sed -i '1a\* Build-Depends-Package: libpathconfig-dev' debian/libpathconfig1/DEBIAN/symbols

dpkg-shlibdeps -Tdebian/libpathconfig1.substvars "debian/libpathconfig1/$libdir/libpathconfig.so.$version"
dpkg-shlibdeps -Tdebian/pathconfig.substvars debian/pathconfig/usr/bin/pathconfig

mkdir -p "$dist"
for package in "${packages[@]}"; do
    tree=debian/$package
    find "$tree" -type d -exec chmod 755 {} +
    find "$tree" -type f ! -path "$tree/usr/bin/*" -exec chmod 644 {} +
    substvars=()
    [ -f "debian/$package.substvars" ] && substvars=(-T"debian/$package.substvars")
    dpkg-gencontrol -p"$package" -P"$tree" -fdebian/files "${substvars[@]}"
    (cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0r md5sum) \
        > "$tree/DEBIAN/md5sums"
    rm -f "$dist/${package}_"*"_$arch.deb"
    dpkg-deb --root-owner-group -Zxz --build "$tree" "$dist/${package}_${debversion}_$arch.deb"
done
