"""The ``pathconfig`` command of an installed wheel.

The wheel carries the command itself, the binary ``make cli`` builds (the one
the Debian package installs), as ``pathconfig/_bin/pathconfig``, with the
libraries it needs vendored beside the package. The console script
``pathconfig`` (pyproject.toml, ``[project.scripts]``) calls :func:`main`,
which replaces this Python process with that binary: the arguments, standard
streams, environment and exit status are the command's own.

This is a module of its own, outside the ``pathconfig`` package, so that
running the command never imports the package, which loads the library: the
command starts sooner, and runs whatever ``PATHCONFIG_LIBRARY`` says.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import NoReturn


def command_path() -> Path:
    """The packaged binary, ``_bin/pathconfig`` in the ``pathconfig``
    package, found without importing the package."""
    spec = importlib.util.find_spec("pathconfig")
    locations = list(spec.submodule_search_locations or []) if spec else []
    if not locations:
        return Path("pathconfig") / "_bin" / "pathconfig"
    return Path(locations[0]) / "_bin" / "pathconfig"


def main() -> NoReturn:
    """Runs the packaged ``pathconfig`` with this process's arguments (it
    never returns). Where the binary is missing or cannot run, says so on
    standard error and exits as a shell would: 127 missing, 126 otherwise."""
    binary = command_path()
    try:
        os.execv(binary, sys.argv)
    except OSError as error:
        print(f"pathconfig: cannot run {binary}: {error.strerror}", file=sys.stderr)
        sys.exit(127 if isinstance(error, FileNotFoundError) else 126)
