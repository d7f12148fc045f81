"""libpathconfig for Python: Turbo / Hotwire Native path configurations.

    import pathconfig

    with pathconfig.PathConfiguration.from_file("path-configuration.json", profile="hotwire-ios") as cfg:
        props = cfg.properties("https://example.com/messages/new")
        props == {"context": "modal", "pull_to_refresh_enabled": False}   # a read-only mapping
        props.context, props.presentation                    # ('modal', 'default'): typed, defaults applied

A thin, typed layer over the C library (ctypes, no dependencies):

- :class:`PathConfiguration`: load (``from_file``, ``from_json``), then
  ``properties(url, method=...)`` (:class:`Properties`), ``properties_json(url)``,
  ``explain(url)``, ``matched_string(url)``, ``settings``, ``warnings``
  (:class:`ConfigWarning`); rules added from code (``add_rule``, with a
  predicate and a configurer that receive a :class:`Request`) and
  ``invalidate()``.
- :class:`Properties`: a read-only mapping with the raw getters and typed
  accessors.
- What the library knows, asked once: :data:`PROFILES`, :data:`PLATFORMS`,
  :data:`BACKENDS`, :data:`TYPED_KEYS` (:class:`TypedKey`: kind, allowed
  values and default per profile), :data:`STRING_KEYS`, :data:`BOOL_KEYS`.
- :class:`Loader`: a configuration kept current from files, data and server
  copies (:class:`FileSource`, :class:`DataSource`, :class:`ServerSource`),
  with a cache directory, ``refresh()`` and an ``on_change`` callable that
  receives each :class:`LoaderEvent` (:class:`EventKind`, :class:`SourceKind`).
- :class:`Error` and its subclasses :class:`ConfigError` (and its
  :class:`FileError`, also an :class:`OSError`), :class:`ClosedError`,
  :class:`InternalError`, :class:`DownloadError`, :class:`CacheError`,
  :class:`MisuseError`, :class:`CallbackError`; :class:`ErrorCode`, :class:`DownloadReason`,
  :class:`CacheReason`.

The library is the copy installed inside this package, or the one named by
the ``PATHCONFIG_LIBRARY`` environment variable (see :mod:`pathconfig._library`).
:data:`SPEEDUPS` says whether ``properties()`` calls it through the optional C
extension ``pathconfig._speedups`` (built with the package where a C compiler
is present; ``PATHCONFIG_PURE_PYTHON=1`` turns it off) or through ctypes.
"""

from __future__ import annotations

from . import _ffi
from ._catalog import BACKENDS, BOOL_KEYS, PLATFORMS, PROFILES, STRING_KEYS, TYPED_KEYS, TypedKey
from ._config import ConfigWarning, PathConfiguration
from ._errors import (
    CacheError,
    CacheReason,
    CallbackError,
    ClosedError,
    ConfigError,
    DownloadError,
    DownloadReason,
    Error,
    ErrorCode,
    FileError,
    InternalError,
    MisuseError,
)
from ._result import SPEEDUPS, Properties
from ._rules import Request
from ._events import EventKind, LoaderEvent, SourceKind
from ._loader import Loader
from ._sources import DataSource, FileSource, ServerSource
from ._version import __version__

__all__ = [
    "BACKENDS",
    "BOOL_KEYS",
    "PLATFORMS",
    "PROFILES",
    "SPEEDUPS",
    "STRING_KEYS",
    "TYPED_KEYS",
    "CacheError",
    "CacheReason",
    "CallbackError",
    "ClosedError",
    "ConfigError",
    "ConfigWarning",
    "DataSource",
    "DownloadError",
    "DownloadReason",
    "Error",
    "ErrorCode",
    "EventKind",
    "FileError",
    "FileSource",
    "InternalError",
    "Loader",
    "LoaderEvent",
    "MisuseError",
    "PathConfiguration",
    "Properties",
    "Request",
    "ServerSource",
    "SourceKind",
    "TypedKey",
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
