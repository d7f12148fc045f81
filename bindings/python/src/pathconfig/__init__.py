"""libpathconfig for Python: Turbo / Hotwire Native path configurations.

    import pathconfig

    with pathconfig.PathConfiguration.from_file("path-configuration.json", profile="hotwire-ios") as cfg:
        props = cfg.properties("https://example.com/messages/new")
        props == {"context": "modal", "pull_to_refresh_enabled": False}   # a read-only dict
        props.context, props.presentation                    # ('modal', 'default'): typed, defaults applied
        json.dumps(props), props.json                        # the same properties as JSON text

A thin, typed layer over the C library (ctypes, no dependencies):

- :class:`PathConfiguration`: load (``from_file``, ``from_json``), then
  ``properties(url, method=...)`` (:class:`Properties`), ``properties_json(url)``,
  ``explain(url)``, ``matched_string(url)``, ``settings``, ``options``,
  ``warnings`` (:class:`ConfigWarning`); rules added from code
  (``add_rule``, with a predicate and a configurer that receive a
  :class:`Request`, whose typed setters change the properties) and
  ``invalidate()``.
- :class:`Properties`: one read-only ``dict`` per distinct answer, with its
  JSON text, the typed accessors (typed for ``mypy --strict``:
  :data:`Context`, :data:`Presentation`, :data:`ModalStyle`,
  :data:`QueryStringPresentation`, ``bool``, ``Optional[str]``) and the raw
  getters; its objects and arrays are :class:`JSONObject` and
  :class:`JSONArray`, read-only too.
- What the library knows, asked once: :data:`PROFILES`, :data:`PLATFORMS`,
  the apps' release lines (:data:`RELEASES`, :data:`DEFAULT_RELEASES`,
  :data:`RELEASE_LINES` of :class:`Release`: a ``profile=`` may name one,
  ``"hotwire-ios@1.2.2"``), :data:`BACKENDS`, :data:`TYPED_KEYS`
  (:class:`TypedKey`: kind, allowed values and default per profile),
  :data:`STRING_KEYS`, :data:`BOOL_KEYS`.
- :class:`Loader`: a configuration kept current from files, data and server
  copies (:class:`FileSource`, :class:`DataSource`, :class:`ServerSource`),
  with a cache directory, ``refresh()`` and an ``on_change`` callable that
  receives each :class:`LoaderEvent` (:class:`EventKind`, :class:`SourceKind`).
- :class:`Error` and its subclasses :class:`ConfigError` (and its
  :class:`FileError`, also an :class:`OSError`), :class:`ClosedError`,
  :class:`InternalError`, :class:`DownloadError`, :class:`CacheError`,
  :class:`MisuseError`, :class:`CallbackError`; :class:`ErrorCode`, :class:`DownloadReason`,
  :class:`CacheReason`.

The wheel also carries the ``pathconfig`` command (run by the console script
of the module ``_pathconfig_command``, beside this package) and the JSON
Schema for path configurations, :func:`schema_path`.

The library is the copy installed inside this package, or the one named by
the ``PATHCONFIG_LIBRARY`` environment variable (see :mod:`pathconfig._library`).
:data:`SPEEDUPS` says whether ``properties()`` calls it through the optional C
extension ``pathconfig._speedups`` (built with the package where a C compiler
is present; ``PATHCONFIG_PURE_PYTHON=1`` turns it off) or through ctypes.
"""

from __future__ import annotations

from . import _ffi
from ._catalog import (
    BACKENDS,
    BOOL_KEYS,
    DEFAULT_RELEASES,
    PLATFORMS,
    PROFILES,
    RELEASE_LINES,
    RELEASES,
    STRING_KEYS,
    TYPED_KEYS,
    Release,
    TypedKey,
    TypedValue,
)
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
from ._result import (
    SPEEDUPS,
    Context,
    JSONArray,
    JSONObject,
    ModalStyle,
    Presentation,
    Properties,
    QueryStringPresentation,
)
from ._rules import Request
from ._schema import schema_path
from ._events import EventKind, LoaderEvent, SourceKind
from ._loader import Loader
from ._sources import DataSource, FileSource, ServerSource
from ._version import __version__

__all__ = [
    "BACKENDS",
    "BOOL_KEYS",
    "DEFAULT_RELEASES",
    "PLATFORMS",
    "PROFILES",
    "RELEASES",
    "RELEASE_LINES",
    "SPEEDUPS",
    "STRING_KEYS",
    "TYPED_KEYS",
    "CacheError",
    "CacheReason",
    "CallbackError",
    "ClosedError",
    "ConfigError",
    "ConfigWarning",
    "Context",
    "DataSource",
    "DownloadError",
    "DownloadReason",
    "Error",
    "ErrorCode",
    "EventKind",
    "FileError",
    "FileSource",
    "InternalError",
    "JSONArray",
    "JSONObject",
    "Loader",
    "LoaderEvent",
    "MisuseError",
    "ModalStyle",
    "PathConfiguration",
    "Presentation",
    "Properties",
    "QueryStringPresentation",
    "Release",
    "Request",
    "ServerSource",
    "SourceKind",
    "TypedKey",
    "TypedValue",
    "__version__",
    "library_path",
    "library_version",
    "schema_path",
]


def library_version() -> str:
    """The version of the loaded libpathconfig, e.g. ``"1.1.0"``."""
    return _ffi.lib.pathconfig_version()  # type: ignore[no-any-return]


def library_path() -> str:
    """The path (or name) the library was loaded from."""
    return _ffi.library_path
