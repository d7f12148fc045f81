"""Finding and opening libpathconfig.

In this order (the first that opens wins):

1. ``PATHCONFIG_LIBRARY``: an explicit path. When it is set, nothing else is
   tried: an override that silently fell back to another copy would hide the
   mistake.
2. The copy installed inside this package by ``pip install`` (found with
   :mod:`importlib.resources`, so it also works from a zip).
3. The system's: :func:`ctypes.util.find_library`, then the bare SONAME (which
   the dynamic linker looks up through ``LD_LIBRARY_PATH`` and its cache).

Every candidate is probed for a symbol only libpathconfig exports, so an
unrelated file of the same name is refused. If nothing opens, one
:class:`ImportError` lists every path tried and why it failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from importlib import resources
from typing import List, Tuple

ENV_VAR = "PATHCONFIG_LIBRARY"
#: A symbol every libpathconfig exports, checked on each candidate.
PROBE_SYMBOL = "pathconfig_version_number"

if sys.platform == "darwin":  # pragma: no cover - the library is built for Linux today
    PACKAGED_NAMES: Tuple[str, ...] = ("libpathconfig.dylib",)
    SYSTEM_NAMES: Tuple[str, ...] = ("libpathconfig.1.dylib", "libpathconfig.dylib")
else:
    PACKAGED_NAMES = ("libpathconfig.so",)
    SYSTEM_NAMES = ("libpathconfig.so.1",)


def _open(path: str) -> ctypes.CDLL:
    """Opens ``path`` with CDLL (the GIL is released around every call) and
    checks that it is libpathconfig."""
    lib = ctypes.CDLL(path)
    try:
        getattr(lib, PROBE_SYMBOL)
    except AttributeError:
        raise OSError(f"{path}: opens, but does not export {PROBE_SYMBOL} (not libpathconfig)") from None
    return lib


def _packaged(tried: List[str]) -> "ctypes.CDLL | None":
    package = __name__.rpartition(".")[0]
    try:
        root = resources.files(package)
    except Exception as exc:  # pragma: no cover - a package always has files()
        tried.append(f"packaged copy: {exc}")
        return None
    for name in PACKAGED_NAMES:
        entry = root / name
        if not entry.is_file():
            tried.append(f"{entry}: not installed in the package")
            continue
        # as_file gives a real path (extracting from a zip if needed); a
        # library stays mapped after its temporary file is removed.
        with resources.as_file(entry) as path:
            try:
                return _open(os.fspath(path))
            except OSError as exc:
                tried.append(f"{path}: {exc}")
    return None


def load_library() -> Tuple[ctypes.CDLL, str]:
    """Opens libpathconfig and returns it with the path or name it was opened by.

    Raises:
        ImportError: nothing could be opened; the message lists what was tried.
    """
    override = os.environ.get(ENV_VAR)
    if override:
        try:
            return _open(override), override
        except OSError as exc:
            raise ImportError(
                f"libpathconfig: {ENV_VAR}={override!r} could not be loaded: {exc}\n"
                f"(unset {ENV_VAR} to use the library installed with the package)",
                name="pathconfig",
                path=override,
            ) from exc

    tried: List[str] = [f"{ENV_VAR}: not set"]
    lib = _packaged(tried)
    if lib is not None:
        return lib, lib._name

    names: List[str] = []
    found = ctypes.util.find_library("pathconfig")
    if found:
        names.append(found)
    else:
        tried.append("ctypes.util.find_library('pathconfig'): nothing found")
    names.extend(n for n in SYSTEM_NAMES if n not in names)
    for name in names:
        try:
            return _open(name), name
        except OSError as exc:
            tried.append(f"{name}: {exc}")

    raise ImportError(
        "libpathconfig could not be loaded. Tried:\n  - "
        + "\n  - ".join(tried)
        + "\nInstall the package with pip (`pip install libpathconfig`, or from a clone: either way it bundles "
        f"the library), or set {ENV_VAR}=/path/to/libpathconfig.so.",
        name="pathconfig",
    )
