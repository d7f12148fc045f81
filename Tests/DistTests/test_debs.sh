#!/usr/bin/env bash
# The Debian packages, used as a Debian user would: lintian reports no error;
# `dpkg -i` of the three; a C host finds the library through pkg-config and
# runs; `pathconfig`, `man -w pathconfig` (when man is installed) and the
# completions work; `dpkg -r` then removes every file and directory the
# packages brought, and the dynamic linker forgets the library.
#
#   Tests/DistTests/test_debs.sh DIST VERSION
#
# (`make test-dist` runs it.) Needs root, and a machine where none of the
# packages is installed and none of their files exists: it refuses otherwise,
# before touching anything. Whatever happens, it purges what it installed
# (trap), so the machine is left as it was found (lintian, a test tool,
# stays installed, as make test's other tools do).
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 DIST VERSION" >&2
    exit 2
fi
dist=$(realpath "$1")
VERSION=$2
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/Tests/DistTests/checks.sh"

[ "$(id -u)" = 0 ] || fail "installing the packages with dpkg needs root (make test runs as root in CI)"
. "$REPO/scripts/apt-missing.sh"
install_missing "to check the Debian packages" lintian

arch=$(dpkg --print-architecture)
packages=(libpathconfig1 libpathconfig-dev pathconfig)
debs=()
for package in "${packages[@]}"; do
    debs+=("$dist/${package}_$VERSION-1_$arch.deb")
    [ -f "${debs[-1]}" ] || fail "${debs[-1]} is missing (make dist-deb)"
done

tmp=$(mktemp -d)
installed=0
cleanup() {
    if [ "$installed" = 1 ]; then
        echo "test_debs: purging ${packages[*]}" >&2
        dpkg --purge "${packages[@]}" >/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# lintian: no errors (warnings and notes are printed, not fatal).
status=0
report=$(lintian --fail-on error "${debs[@]}" 2>&1) || status=$?
grep -v '^running with root privileges' <<<"$report" || true
[ "$status" = 0 ] || fail "lintian reports errors (exit $status)"
echo "ok: lintian reports no errors"

# Before: nothing of the packages is here, so their removal can be checked
# path by path and nothing of the machine's is overwritten.
for package in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q ' installed$'; then
        fail "$package is installed already; this test installs and removes it (dpkg --purge ${packages[*]} first)"
    fi
done
: > "$tmp/paths"
for deb in "${debs[@]}"; do
    dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^$' >> "$tmp/paths"
done
while read -r path; do
    if [ -d "$path" ] && [ ! -L "$path" ]; then
        continue
    elif [ -e "$path" ] || [ -L "$path" ]; then
        fail "$path exists already; installing the packages would overwrite it"
    fi
done < "$tmp/paths"
# Every path the packages bring that is not here yet (their files, and
# directories such as /usr/include/pathconfig): all must be gone after dpkg -r.
while read -r path; do
    [ -e "$path" ] || echo "$path"
done < <(sort -u "$tmp/paths") > "$tmp/absent"
echo "ok: none of the $(wc -l < "$tmp/paths") paths of the packages is on this machine yet"

installed=1
dpkg -i "${debs[@]}" >/dev/null
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" | grep -q ' installed$' || fail "dpkg -i left $package not installed"
done
echo "ok: dpkg -i installed ${packages[*]}"

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
libdir=/usr/lib/$multiarch
# The package's own pathconfig.pc, whatever else this machine has: a `make
# install` into /usr/local puts a pathconfig.pc that pkg-config reads first,
# and a libpathconfig.so.1 that the linker's cache may list first.
pc=$(dpkg -L libpathconfig-dev | grep '/pathconfig\.pc$') || fail "libpathconfig-dev holds no pathconfig.pc"
[ "$pc" = "$libdir/pkgconfig/pathconfig.pc" ] || fail "libpathconfig-dev's pathconfig.pc is $pc, not in $libdir/pkgconfig"
package_pkg_config=(PKG_CONFIG_LIBDIR="$libdir/pkgconfig:/usr/share/pkgconfig")
got=$(env -i PATH=$BARE_PATH "${package_pkg_config[@]}" pkg-config --modversion pathconfig)
[ "$got" = "$VERSION" ] || fail "pkg-config --modversion pathconfig gave '$got' from $pc"
got=$(env -i PATH=$BARE_PATH "${package_pkg_config[@]}" pkg-config --variable=libdir pathconfig)
[ "$got" = "$libdir" ] || fail "$pc gives libdir $got, not the package's $libdir"
echo "ok: the package's pkg-config file reads version $VERSION in $libdir"
first=$(env -i PATH=$BARE_PATH pkg-config --variable=libdir pathconfig 2>/dev/null || true)
[ "$first" = "$libdir" ] || echo "note: pkg-config's default search finds another pathconfig.pc first (libdir $first)"

PATHCONFIG=/usr/bin/pathconfig
check_command
# The linker's cache names the package's library unless another copy (a
# `make install` in /usr/local) comes first; the host is then run against
# the package's directory, so that it is the packaged library that is tested.
others=$(ldconfig -p | sed -n 's/.*libpathconfig\.so\.1 .*=> \(.*\)$/\1/p' | while read -r f; do
    [ "$(realpath "$f")" = "$(realpath "$libdir/libpathconfig.so.$VERSION")" ] || echo "$f"; done)
run_env=("${package_pkg_config[@]}")
[ -z "$others" ] || run_env+=(LD_LIBRARY_PATH="$libdir")
check_c_host "$tmp/example" "${run_env[@]}"
linked=$(env -i PATH=$BARE_PATH "${run_env[@]}" ldd "$tmp/example/host" | sed -n 's/.*libpathconfig\.so\.1 => \([^ ]*\) .*/\1/p')
[ -n "$linked" ] && [ "$(realpath "$linked")" = "$(realpath "$libdir/libpathconfig.so.$VERSION")" ] ||
    fail "the host loads libpathconfig.so.1 from '$linked', not the package's $libdir"
if [ -z "$others" ]; then
    echo "ok: the host loads the packaged library through the linker's cache"
else
    echo "ok: the host loads the packaged library (the linker's cache also lists: $(echo $others))"
fi
check_manual /usr/share/man/man1/pathconfig.1.gz
if command -v man >/dev/null; then
    got=$(env -i PATH=$BARE_PATH man -w pathconfig)
    [ "$got" = /usr/share/man/man1/pathconfig.1.gz ] || fail "man -w pathconfig gave '$got'"
    echo "ok: man -w pathconfig finds the packaged manual"
fi
check_completions /usr/share/bash-completion/completions/pathconfig \
    /usr/share/zsh/vendor-completions/_pathconfig /usr/share/fish/vendor_completions.d/pathconfig.fish
check_schema /usr/share/pathconfig/path-configuration.schema.json
[ "$(dpkg -S /usr/share/pathconfig/path-configuration.schema.json)" = "pathconfig: /usr/share/pathconfig/path-configuration.schema.json" ] ||
    fail "the JSON Schema is not in the pathconfig package"

dpkg -r "${packages[@]}" >/dev/null
left=$(while read -r path; do if [ -e "$path" ] || [ -L "$path" ]; then echo "$path"; fi; done < "$tmp/absent")
[ -z "$left" ] || fail "dpkg -r left behind:"$'\n'"$left"
if ldconfig -p | grep 'libpathconfig\.so\.1 ' | grep -q "=> $libdir/"; then
    fail "the dynamic linker's cache still lists $libdir/libpathconfig.so.1 after dpkg -r"
fi
dpkg --purge "${packages[@]}" >/dev/null 2>&1
installed=0
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    case $status in
        "" | *" not-installed") ;;
        *) fail "dpkg still lists $package as '$status' after --purge" ;;
    esac
done
echo "ok: dpkg -r removed every file and directory the packages brought; --purge forgot them"
echo "test_debs: all checks passed"
