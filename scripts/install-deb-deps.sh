#!/usr/bin/env bash
# Installs what `make dist-deb` needs beyond the build's packages
# (scripts/install-deps.sh), when it is missing: dpkg-dev, for
# dpkg-architecture, dpkg-shlibdeps, dpkg-gensymbols and dpkg-gencontrol.
# Needs root for apt-get; says what to install otherwise.
set -euo pipefail
. "$(dirname "$0")/apt-missing.sh"
install_missing "to build the Debian packages" dpkg-dev
