#!/usr/bin/env bash
# Installs the Debian packages the build and the test suites need, when they
# are missing. Needs root for apt-get; says what to install otherwise.
set -euo pipefail

packages=(libpcre2-dev pkg-config)
# Test-only tools.
packages+=(valgrind libcjson-dev gcc g++ binutils)
# The loader's tests: libcurl (which libpathconfig loads with dlopen for
# downloads) and a real HTTP server on 127.0.0.1.
packages+=(libcurl4 nginx-light)
# curl.h, only so that Sources/CHTTP checks its option numbers against it
# (the build works without it; nothing links libcurl).
packages+=(libcurl4-openssl-dev)
# The HTTPS loader test makes a self-signed certificate with the openssl command.
packages+=(openssl)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "missing packages: ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
