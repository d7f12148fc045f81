#!/usr/bin/env bash
# Makes bench/.venv with the Python peers of `make bench` from PyPI
# (requirements.txt): google-re2 and hyperscan.
#
#   bench/python/venv.sh [PYTHON] [VENV]
#
# Never fails the benchmark: when the virtual environment cannot be made or
# PyPI cannot be reached it says so, and bench/python/peers.py leaves those
# peers out with a note in bench/results.md.
set -u
python=${1:-/usr/bin/python3}
venv=${2:-bench/.venv}
requirements=$(dirname "$0")/requirements.txt

if [ ! -x "$venv/bin/python" ] && ! "$python" -m venv "$venv"; then
    echo "bench: NOTE: could not make $venv with $python; the Python peers re2.Set and hyperscan are left out" >&2
    exit 0
fi
if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --timeout 20 --retries 1 -r "$requirements"; then
    echo "bench: NOTE: could not install google-re2 and hyperscan from PyPI into $venv;" \
         "their cells stay empty and the report says why" >&2
fi
exit 0
