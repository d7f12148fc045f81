"""libpathconfig for Python: Turbo / Hotwire Native path configurations.

    import pathconfig

    with pathconfig.PathConfiguration.from_file("path-configuration.json", profile="hotwire-ios") as cfg:
        cfg.properties("https://example.com/messages/new")   # {'context': 'modal', ...}
        props = cfg.resolve("https://example.com/messages/new")
        props.context, props.presentation                    # ('modal', 'default')

A thin, typed layer over the C library (ctypes, no dependencies):

- :class:`PathConfiguration`: load (``from_file``, ``from_json``), then
  ``properties(url)`` (a ``dict``), ``resolve(url)`` (:class:`Properties`),
  ``explain(url)``, ``matched_string(url)``, ``settings``, ``warnings``.
- :class:`Properties`: a read-only mapping with typed accessors.
- :class:`Error` and its subclasses :class:`ConfigError`, :class:`ClosedError`,
  :class:`InternalError`; :class:`ErrorCode`.

The library is the copy installed inside this package, or the one named by
the ``PATHCONFIG_LIBRARY`` environment variable (see :mod:`pathconfig._loader`).
"""

from __future__ import annotations

from . import _ffi
from ._config import PROFILES, PathConfiguration
from ._errors import ClosedError, ConfigError, Error, ErrorCode, InternalError
from ._result import BOOL_KEYS, STRING_KEYS, TYPED_KEYS, Properties
from ._version import __version__

# The configuration loader of issue 4 (sources, cache directory, refresh(),
# change callbacks) will be a ConfigurationLoader class in its own module,
# exported here; its C functions join the table in _ffi.py.

__all__ = [
    "BOOL_KEYS",
    "PROFILES",
    "STRING_KEYS",
    "TYPED_KEYS",
    "ClosedError",
    "ConfigError",
    "Error",
    "ErrorCode",
    "InternalError",
    "PathConfiguration",
    "Properties",
    "__version__",
    "library_path",
    "library_version",
]


def library_version() -> str:
    """The version of the loaded libpathconfig, e.g. ``"0.1.0"``."""
    return _ffi.lib.pathconfig_version()  # type: ignore[no-any-return]


def library_path() -> str:
    """The path (or name) the library was loaded from."""
    return _ffi.library_path
