#!/usr/bin/env bash
# Installs the Debian packages only `make bench` needs, when they are missing:
# the engines it compares against (hyperscan, RE2) with a C++ compiler, and
# matplotlib for the plot. `make test` never runs this. Needs root for
# apt-get; says what to install otherwise.
#
# The Python peers (google-re2, hyperscan) come from PyPI into bench/.venv,
# made by bench/python/venv.sh; that step may fail without breaking the bench.
set -euo pipefail

packages=(gcc g++ make pkg-config libpcre2-dev libidn2-dev)
# The multi-pattern engines, through their C and C++ APIs.
packages+=(libhyperscan-dev libre2-dev)
# cJSON: pathconfig-peers reads the rules and merges them for its check.
packages+=(libcjson-dev)
# The plot (bench/plot.py, run by Debian's python3), and venv + pip for the
# Python peers.
packages+=(python3 python3-matplotlib python3-venv python3-pip)

. "$(dirname "$0")/apt-missing.sh"
install_missing "for the benchmark" "${packages[@]}"
