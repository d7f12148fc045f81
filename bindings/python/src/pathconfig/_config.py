"""A loaded path configuration."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union, cast

from . import _ffi, _rules
from ._catalog import warning_kind_name
from ._errors import CallbackError, ClosedError, ConfigError
from ._ffi import text_arg as _c_text
from ._handle import OwnedHandle
from ._result import SPEEDUPS as _SPEEDUPS
from ._result import Properties, _answers
from ._result import arguments as _arguments
from ._result import fast_resolve as _fast_resolve
from ._result import look_up as _look_up
from ._result import owner as _owner
from ._result import settle as _settle
from ._rules import Configurer, Predicate, host_exceptions

if TYPE_CHECKING:
    _LookupBase = object
else:
    from ._result import LookupBase as _LookupBase

_lib = _ffi.lib

StrPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
JSONText = Union[str, bytes, bytearray, memoryview]


def _load_options(
    profile: Optional[str],
    match_query_strings: Optional[bool],
    backend: Optional[str],
    lenient: bool,
    base_url: Optional[str] = None,
    merge: Optional[str] = None,
    result_cache_size: Optional[int] = None,
    max_url_bytes: Optional[int] = None,
) -> Dict[str, Any]:
    """The load options given, checked for type (the library checks values and
    applies its own defaults for the rest). The loader adds its own keys."""
    options: Dict[str, Any] = {}
    for key, value in (("profile", profile), ("base_url", base_url), ("merge", merge)):
        if value is not None:
            if not isinstance(value, str):
                raise TypeError(f"{key} must be str or None, not {type(value).__name__}")
            options[key] = value
    if match_query_strings is not None:
        if not isinstance(match_query_strings, bool):
            raise TypeError(f"match_query_strings must be bool or None, not {type(match_query_strings).__name__}")
        options["match_query_strings"] = match_query_strings
    if backend is not None:
        if not isinstance(backend, str):
            raise TypeError(f"backend must be str or None, not {type(backend).__name__}")
        options["backend"] = backend
    if not isinstance(lenient, bool):
        raise TypeError(f"lenient must be bool, not {type(lenient).__name__}")
    if lenient:
        options["lenient"] = True
    if result_cache_size is not None:
        if isinstance(result_cache_size, bool) or not isinstance(result_cache_size, int):
            raise TypeError(f"result_cache_size must be int or None, not {type(result_cache_size).__name__}")
        options["result_cache_size"] = result_cache_size
    if max_url_bytes is not None:
        if isinstance(max_url_bytes, bool) or not isinstance(max_url_bytes, int):
            raise TypeError(f"max_url_bytes must be int or None, not {type(max_url_bytes).__name__}")
        options["max_url_bytes"] = max_url_bytes
    return options


def _options_json(
    profile: Optional[str],
    match_query_strings: Optional[bool],
    backend: Optional[str],
    lenient: bool,
    base_url: Optional[str],
    merge: Optional[str],
    result_cache_size: Optional[int] = None,
    max_url_bytes: Optional[int] = None,
) -> bytes:
    """The ``options_json`` argument: only the options given, so the library
    applies its own defaults for the rest."""
    options = _load_options(
        profile, match_query_strings, backend, lenient, base_url, merge, result_cache_size, max_url_bytes
    )
    # ASCII JSON: a NUL or a lone surrogate in a value travels escaped and is
    # rejected by the library as a bad option value.
    return json.dumps(options).encode("ascii")


def _c_method(method: Optional[str]) -> Optional[bytes]:
    """The ``method`` argument: NULL (GET) for ``None``; the library checks
    that a method is a token."""
    return None if method is None else _c_text(method, "method")


def _c_path(path: StrPath) -> bytes:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be str, bytes or os.PathLike, not {type(path).__name__}")
    raw = os.fsencode(path)
    if b"\0" in raw:
        raise ValueError("path contains a NUL character")
    return raw


@dataclass(frozen=True)
class ConfigWarning:
    """Something a load noticed but accepted (``pathconfig_warning``): a
    duplicate key, a pattern a lenient load skipped, settings ignored.

    ``str(warning)`` is ``"LINE:COLUMN: MESSAGE"`` when it has a position,
    else the message (the library never prints warnings).
    """

    kind: str
    """The library's name for the kind: ``"duplicate-key"``,
    ``"skipped-pattern"``, ... (``pathconfig_warning_kind_name``)."""
    message: str
    """What was noticed, without the position."""
    line: Optional[int] = None
    """1-based line in the document, or ``None``."""
    column: Optional[int] = None
    """1-based column (in Unicode scalars), or ``None``."""
    rule_index: Optional[int] = None
    """0-based index of the rule concerned, or ``None``."""
    pattern_index: Optional[int] = None
    """0-based index of the pattern within that rule, or ``None``."""

    def __str__(self) -> str:
        return self.message if self.line is None else f"{self.line}:{self.column}: {self.message}"


def _read_warnings(ptr: Any) -> List[ConfigWarning]:
    """Every warning of the configuration ``ptr``, copied while it is held
    (the messages are borrowed from it)."""
    warnings = []
    for i in range(_lib.pathconfig_warning_count(ptr)):
        w = _ffi.WarningStruct(version=_ffi.WARNING_VERSION)
        _lib.pathconfig_warning_get(ptr, i, w)
        warnings.append(
            ConfigWarning(
                kind=warning_kind_name(w.kind),
                message=w.message.decode("utf-8"),
                line=w.line if w.line > 0 else None,
                column=w.column if w.line > 0 else None,
                rule_index=w.rule_index if w.rule_index >= 0 else None,
                pattern_index=w.pattern_index if w.pattern_index >= 0 else None,
            )
        )
    return warnings


class PathConfiguration(OwnedHandle, _LookupBase):
    """A loaded path configuration, safe to share between threads. Its
    document never changes; rules added from code (:meth:`add_rule`) join the
    end of its rules.

    Make one with :meth:`from_file` or :meth:`from_json`; the options are
    keyword-only:

    - ``profile``: whose reading of the file to reproduce: an app, one of
      :data:`pathconfig.PROFILES` (the library's list; ``"hotwire-ios"`` by
      default), which reads as the app's latest stable release
      (:data:`pathconfig.DEFAULT_RELEASES`), or ``"APP@VERSION"``, a release
      of the app: any tag (``"hotwire-ios@1.2.2"``) or ``main``
      (``"hotwire-ios@main"``); :data:`pathconfig.RELEASES` lists the
      lines. The library checks the name: an unknown app or version raises
      :class:`ConfigError` with code ``E_OPTIONS``, its message listing the
      app's releases.
    - ``match_query_strings``: append ``?query`` to URL paths before matching;
      ``None`` (default) takes the profile's default (on for all but turbo-ios).
    - ``backend``: the regex engine, one of :data:`pathconfig.BACKENDS`
      (``"pcre2"`` by default).
    - ``lenient``: skip invalid patterns with a warning instead of failing.
    - ``base_url``: an absolute URL (with a host; no query, fragment or user
      information) that relative globs and inputs without a scheme resolve
      against (an input is appended as Siesta's ``resource()`` appends a
      path: its ``?`` is encoded, so a query needs the absolute URL); a
      relative glob then never matches another scheme, host or port.
      ``None`` (default): none.
    - ``merge``: ``"shallow"`` (default: a later rule replaces whole
      top-level keys, as the apps do) or ``"deep"`` (each rule's properties
      apply as a JSON Merge Patch: nested objects merge, ``None`` removes a
      key).
    - ``result_cache_size``: entries of the per-lookup result cache (the
      library's default when ``None``; ``0`` turns it off).
    - ``max_url_bytes``: the longest URL or path a lookup takes, in bytes
      of UTF-8 (default 65536); a longer one raises :class:`ConfigError`
      with code ``E_LIMIT``.

    Failures raise :class:`ConfigError` (a :class:`ValueError`) carrying
    ``code``, ``line``, ``column``, ``rule_index``, ``pattern_index`` and
    ``message``; a file that cannot be read raises :class:`FileError`, also an
    :class:`OSError` (:class:`FileNotFoundError`, :class:`PermissionError`,
    ...); arguments of the wrong type raise :class:`TypeError`.

    The C handle is released by :meth:`close`, at the end of a ``with`` block
    (unlike :mod:`sqlite3`, whose connection's ``with`` commits but leaves the
    connection open, ``with`` here really releases), or when the object is
    garbage-collected. Any use after that raises :class:`ClosedError`.
    :class:`Properties` already returned stay valid.
    """

    _settings: Optional[str]
    _options: Optional[Dict[str, Any]]
    _address: int  # of the handle, for the lookup declarations

    def __init__(self) -> None:
        raise TypeError("use PathConfiguration.from_file() or PathConfiguration.from_json()")

    @classmethod
    def _wrap(cls, handed: _ffi.NewConfig) -> "PathConfiguration":
        """Owns the configuration a library call ``handed`` over."""
        self = cls.__new__(cls)
        self._settings = None
        self._options = None
        ptr = _ffi.ConfigPtr.from_buffer_copy(handed)
        self._address = _ffi.address(ptr)
        self._own(ptr, _owner(handed, _ffi.lookup.release))
        if _SPEEDUPS:
            # What the extension's properties() looks up in (LookupBase).
            self._set_lookup_address(self._address)  # type: ignore[attr-defined]
        return self

    @classmethod
    def from_file(
        cls,
        path: StrPath,
        *,
        profile: Optional[str] = None,
        match_query_strings: Optional[bool] = None,
        backend: Optional[str] = None,
        lenient: bool = False,
        base_url: Optional[str] = None,
        merge: Optional[str] = None,
        result_cache_size: Optional[int] = None,
        max_url_bytes: Optional[int] = None,
    ) -> "PathConfiguration":
        """Loads the configuration in the file at ``path``.

        Raises:
            FileError: the file cannot be opened or read (``E_IO``), as the
                :class:`OSError` subclass of its ``errno``
                (:class:`FileNotFoundError`, :class:`PermissionError`,
                :class:`IsADirectoryError`, ...).
            ConfigError: the file is rejected (see :meth:`from_json`), or the
                path is not valid UTF-8 (``E_ARGUMENT``). ``filename`` is set to
                ``path``, here and on a :class:`FileError`.
            TypeError: an argument has the wrong type.
            ValueError: ``path`` contains a NUL character.
        """
        raw = _c_path(path)
        options = _options_json(
            profile, match_query_strings, backend, lenient, base_url, merge, result_cache_size, max_url_bytes
        )
        err = _ffi.ErrorStruct()
        try:
            ptr = _lib.pathconfig_load_file(raw, options, err)
        except ConfigError as exc:
            exc.filename = os.fsdecode(raw)
            raise
        return cls._wrap(ptr)

    @classmethod
    def from_json(
        cls,
        text: JSONText,
        *,
        profile: Optional[str] = None,
        match_query_strings: Optional[bool] = None,
        backend: Optional[str] = None,
        lenient: bool = False,
        base_url: Optional[str] = None,
        merge: Optional[str] = None,
        result_cache_size: Optional[int] = None,
        max_url_bytes: Optional[int] = None,
    ) -> "PathConfiguration":
        """Loads a configuration from JSON text (``str``) or UTF-8 bytes
        (``bytes``, ``bytearray``, ``memoryview``). The whole buffer is read,
        NUL bytes included, so a NUL is reported as a JSON error.

        Raises:
            ConfigError: ``E_JSON`` (not JSON, or not UTF-8), ``E_SCHEMA``,
                ``E_REGEX``, ``E_LIMIT``, ``E_OPTIONS``, ``E_BACKEND``.
            TypeError: an argument has the wrong type.
            ValueError: ``text`` is a ``str`` that cannot be encoded as UTF-8
                (a lone surrogate).
        """
        if isinstance(text, str):
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(f"text cannot be encoded as UTF-8: {exc.reason} at index {exc.start}") from None
        elif isinstance(text, (bytes, bytearray, memoryview)):
            data = bytes(text)
        else:
            raise TypeError(f"text must be str or bytes, not {type(text).__name__}")
        options = _options_json(
            profile, match_query_strings, backend, lenient, base_url, merge, result_cache_size, max_url_bytes
        )
        err = _ffi.ErrorStruct()
        return cls._wrap(_lib.pathconfig_load_json(data, len(data), options, err))

    # --- lookups ---------------------------------------------------------------
    #
    # A lookup is a request with an HTTP method: ``method=None`` is GET. Rules
    # whose ``methods`` leave the method out do not apply. With rules from
    # code, results are memoised per method and URL until :meth:`invalidate`
    # (or :meth:`add_rule`).
    # When a predicate or configurer raises, the lookup raises that exception
    # (its ``__cause__`` the library's :class:`CallbackError`) and memoises
    # nothing.

    def properties(self, url: str, *, method: Optional[str] = None) -> Properties:
        """The merged properties of every rule matching ``url`` (an absolute
        URL or a path) for a ``method`` request (``None``: GET): a
        :class:`Properties`, a read-only ``dict`` with JSON types (empty when
        no rule matches), its JSON text and the typed accessors (``context``,
        ``presentation``, ...). Lookups with the same answer return the same
        object."""
        # The hot path, kept short: the handle held for the call (what
        # OwnedHandle._call does, inline), no error struct: a failure raises
        # what the library's last error says.
        inflight = self._inflight
        inflight.append(None)
        if self._closed:
            self._done()
            _arguments(url, method)  # an argument error first, as on an open one
            raise ClosedError("operation on a closed PathConfiguration")
        try:
            result: Optional[Properties]
            if _fast_resolve is not None:
                answer = _fast_resolve(self._address, url, method, _answers)
                # A known answer's Properties, else what settle makes of it.
                result = answer if type(answer) is Properties else _settle(self._address, url, method, answer)
            else:
                result = _look_up(self._address, url, method)
        finally:
            inflight.pop()  # OwnedHandle._done, inline
            if self._closed and not inflight:
                self._release()
        if result is None:
            error = _ffi.last_error()
            if isinstance(error, CallbackError):
                _rules.reraise(error)
            raise error
        return result

    def properties_json(self, url: str, *, method: Optional[str] = None) -> str:
        """The merged properties of ``url`` as compact JSON text:
        ``properties(url, method=method).json``."""
        return self.properties(url, method=method).json

    def explain(self, url: str, *, method: Optional[str] = None) -> Dict[str, Any]:
        """Why ``url`` resolves as it does for a ``method`` request (``None``:
        GET), as ``pathconfig explain`` prints it: ``input``, ``method``,
        ``url``, ``matched_string``, ``rules`` (each with ``index`` and the
        ``pattern`` and ``pattern_index``, the ``glob`` and ``pattern_index``,
        or ``predicate: true`` that matched, and ``description``, ``builtin``,
        ``from_code``, ``configurer`` when they apply), ``properties``, and
        ``limit_exceeded`` when any search ran out of its match budget. Never
        memoised: predicates and configurers run again."""
        args = (_c_text(url, "url"), _c_method(method), _ffi.ErrorStruct())
        with host_exceptions():
            text = self._call(_lib.pathconfig_explain, *args)
        return json.loads(text)  # type: ignore[no-any-return]

    def matched_string(self, url: str) -> str:
        """The string the patterns see for ``url`` under this profile and
        options (e.g. ``"/messages/new?x=1"``)."""
        return cast(str, self._call(_lib.pathconfig_matched_string, _c_text(url, "url"), _ffi.ErrorStruct()))

    # --- rules added from code ---------------------------------------------------

    def add_rule(
        self,
        *,
        patterns: Optional[Sequence[str]] = None,
        globs: Optional[Sequence[str]] = None,
        methods: Optional[Sequence[str]] = None,
        properties: Optional[Mapping[str, Any]] = None,
        description: Optional[str] = None,
        predicate: Optional[Predicate] = None,
        configurer: Optional[Configurer] = None,
    ) -> int:
        """Adds a rule at the end of the ordered rules, as Siesta's
        ``configure(...)`` does, and drops the memoised results. Returns its
        index (``explain`` reports it, with ``from_code: true``).

        It matches through ``patterns`` (regexes, as a document's), ``globs``
        (Siesta's: ``*`` within a path segment, ``**`` across them, relative
        to ``base_url``), a ``predicate``, or several of these (the predicate
        then refines the others); ``methods`` limits it to those HTTP methods.
        When it applies, its fixed ``properties`` merge in (by the ``merge``
        option), then ``configurer`` receives the properties merged so far.

        - ``predicate(request)``: true when the rule applies; ``request`` is a
          :class:`Request` (``url``, ``method``).
        - ``configurer(request, properties)``: changes the properties merged
          so far through the request's typed setters (``request.set_header(
          name, value)``, ``set_str``, ``set_int``, ``set_float``,
          ``set_bool``, ``remove``, ``set_properties``, ``merge_properties``:
          values, never JSON text), or changes the ``dict`` it receives in
          place, or returns the properties to use instead (either replaces
          the properties when it returns). It reads whatever the host holds
          at that moment (an auth token); call :meth:`invalidate` when that
          changes.

        Both run on the thread that resolves, possibly on several at once,
        once per method and URL until :meth:`invalidate`; they may call this
        configuration's methods. An exception they raise is the lookup's.
        They are kept as long as the C configuration lives (until
        :meth:`close` or garbage collection): a callable that refers to this
        object keeps it alive until :meth:`close`.

        Raises:
            ConfigError: the library rejects the rule (``E_SCHEMA``: no
                patterns, globs or predicate; ``E_REGEX``: a pattern;
                ``E_ARGUMENT``, ``E_LIMIT``), with ``rule_index`` and
                ``pattern_index`` where they apply.
            TypeError: an argument has the wrong type (a bare ``str`` where a
                list is expected, a callable that is not).
            ValueError: ``properties`` hold NaN or an infinity.
        """
        rule = _rules.rule_json(patterns, globs, methods, properties, description)
        if _SPEEDUPS and (predicate is not None or configurer is not None):
            # Python callbacks: every lookup takes the Python method, which
            # keeps the handle while they run.
            self._set_lookup_address(0)  # type: ignore[attr-defined]
        return self._call(_rules.add, rule, predicate, configurer, "a pathconfig.PathConfiguration")

    def invalidate(self) -> None:
        """Drops every memoised result, so that the next lookup of each URL
        runs predicates and configurers again (Siesta's
        ``invalidateConfiguration()``). A lookup that starts after this
        returns never sees a result computed before it."""
        self._call(_lib.pathconfig_invalidate)

    # --- the configuration itself ----------------------------------------------

    @property
    def settings(self) -> Dict[str, Any]:
        """The document's top-level ``settings`` (``{}`` when absent), a new
        ``dict`` on each access."""
        text = self._settings
        if text is None or self._closed:
            text = self._settings = self._call(_lib.pathconfig_settings)
        return json.loads(text)  # type: ignore[no-any-return]

    @property
    def warnings(self) -> List[ConfigWarning]:
        """What the load noticed but accepted, one :class:`ConfigWarning` per
        warning (``kind``, ``message``, ``line``, ``column``, ``rule_index``,
        ``pattern_index``; ``str()`` of one is ``"LINE:COLUMN: MESSAGE"``),
        read through ``pathconfig_warning_get``. The library never prints
        them."""
        return self._call(_read_warnings)

    @property
    def rule_count(self) -> int:
        """The number of rules, the profile's built-in rules included."""
        return cast(int, self._call(_lib.pathconfig_rule_count))

    @property
    def document_rule_count(self) -> int:
        """The number of rules in the document (built-ins excluded)."""
        return cast(int, self._call(_lib.pathconfig_document_rule_count))

    @property
    def options(self) -> Dict[str, Any]:
        """Every load option in effect, defaults written out
        (``pathconfig_options``), e.g. ``{"profile": "hotwire-ios",
        "match_query_strings": True, "backend": "pcre2", "lenient": False,
        "base_url": None, "merge": "shallow", "result_cache_size": 512,
        "max_url_bytes": 65536}``: a new ``dict`` on each access, read from
        the library once per configuration. Loading the same document with
        these options gives the same configuration."""
        return dict(self._read_options())

    @property
    def profile(self) -> str:
        """The profile the configuration was loaded with (its ``options``'s
        ``"profile"``), as it was given: ``"hotwire-ios"``, or with a version,
        ``"hotwire-ios@1.2.2"`` (the app is the part before ``@``)."""
        return cast(str, self._read_options()["profile"])

    def _read_options(self) -> Dict[str, Any]:
        """``pathconfig_options``, parsed on first use (``ClosedError`` once
        closed)."""
        options = self._options
        if options is None or self._closed:
            options = self._options = cast(Dict[str, Any], json.loads(self._call(_lib.pathconfig_options)))
        return options

    def close(self) -> None:
        """Releases the C handle now (or, when calls on other threads are in
        flight, as the last of them returns). Idempotent; later use raises
        :class:`ClosedError`."""
        if _SPEEDUPS:
            self._set_lookup_address(0)  # type: ignore[attr-defined]
        super().close()

    def __repr__(self) -> str:
        if self._closed:
            return "<pathconfig.PathConfiguration (closed)>"
        return f"<pathconfig.PathConfiguration profile={self.profile!r} rules={self.document_rule_count}>"


if _SPEEDUPS:
    # The extension's LookupBase.properties, in C, is the method a host
    # calls for every URL: the Python method above costs about as much as
    # the lookup itself. The C method hands every call it does not take
    # itself to the Python one, kept as _checked_properties.
    setattr(PathConfiguration, "_checked_properties", PathConfiguration.__dict__["properties"])
    delattr(PathConfiguration, "properties")
