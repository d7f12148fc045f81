"""Exceptions raised by the binding, and the library's status codes.

Every failure the library reports becomes an instance of :class:`Error` (one
base class, a subclass per kind, the code and its name on each, as CPython's
``sqlite3`` does):

- :class:`ConfigError` (also a :class:`ValueError`): the document, the options
  or an argument was rejected (``PATHCONFIG_E_JSON`` ... ``PATHCONFIG_E_ARGUMENT``),
  or a lookup's URL is one the profile's app crashes on (``PATHCONFIG_E_URL``),
  or a typed read is one the profile's app crashes on (``PATHCONFIG_E_CRASH``).
- :class:`FileError`, a :class:`ConfigError` that is also an :class:`OSError`:
  the file could not be opened or read (``PATHCONFIG_E_IO``). It is raised as
  the :class:`OSError` subclass Python itself makes of the library's ``errno``
  (:class:`FileNotFoundError`, :class:`PermissionError`,
  :class:`IsADirectoryError`, ...), as ``open()`` would raise.
- :class:`ClosedError` (also a :class:`ValueError`, like I/O on a closed file):
  a configuration or result was used after ``close()``.
- :class:`InternalError` (also a :class:`RuntimeError`): the library ran out
  of memory for a string or hit a bug (``PATHCONFIG_E_NOMEM``, ``_INTERNAL``).

The :class:`~pathconfig.Loader`'s own codes have their own classes, because a
server that does not answer is not a bad value:

- :class:`DownloadError` (also an :class:`OSError`): a download brought no
  usable response (``PATHCONFIG_E_DOWNLOAD``); ``reason``, ``http_status`` and
  ``url`` say which.
- :class:`CacheError` (also an :class:`OSError`): a cache file was ignored or
  could not be written (``PATHCONFIG_E_CACHE``); only ever a warning, in a
  :class:`~pathconfig.LoaderEvent`, never raised.
- :class:`MisuseError` (also a :class:`RuntimeError`): a call the loader's
  state forbids, such as ``load()`` from inside its own ``on_change``
  (``PATHCONFIG_E_MISUSE``), or in a child of ``fork()`` on a loader made
  before it (``PATHCONFIG_E_FORKED``).

Argument checks done in Python before calling C raise the builtins
(:class:`TypeError` for a wrong type, :class:`ValueError` for a NUL inside a
string or text that cannot be encoded as UTF-8).
"""

from __future__ import annotations

import enum
import os
from typing import Any, Dict, Optional, Tuple, Type


class ErrorCode(enum.IntEnum):
    """The ``PATHCONFIG_*`` status codes of ``pathconfig.h`` (stable numbers)."""

    OK = 0
    E_JSON = 1
    """The document is not JSON (or not UTF-8); line/column say where."""
    E_SCHEMA = 2
    """JSON, but not a path configuration; line/column, rule/pattern index."""
    E_REGEX = 3
    """A pattern the regex engine rejects; rule/pattern index and position."""
    E_OPTIONS = 4
    """A bad option: unknown profile, wrong value type, unknown key."""
    E_IO = 5
    """The file could not be opened or read."""
    E_LIMIT = 6
    """The document exceeds a limit (size, nesting, rule or pattern counts)."""
    E_BACKEND = 7
    """The regex backend is not built into this library ("foundation")."""
    E_ARGUMENT = 8
    """A NULL, non-UTF-8 or out-of-range argument."""
    E_NOMEM = 9
    """The library could not allocate a string it returns."""
    E_INTERNAL = 10
    """A bug in libpathconfig."""
    E_TYPE = 11
    """A value getter found the key with another JSON type."""
    E_DOWNLOAD = 12
    """A loader's download brought no usable response (:class:`DownloadError`)."""
    E_CACHE = 13
    """A loader ignored or could not write a cache file (:class:`CacheError`)."""
    E_MISUSE = 14
    """A call the loader's state forbids (:class:`MisuseError`)."""
    E_CALLBACK = 15
    """A predicate or configurer of a rule added from code failed (:class:`CallbackError`)."""
    E_URL = 16
    """The profile's app crashes on the URL looked up, so there is no answer
    (turbo-android on a URL ``java.net.URL`` rejects); a :class:`ConfigError`."""
    E_CRASH = 17
    """(1.1.0) The profile's app throws where it reads a typed key, so the key
    has no value: hotwire-android 1.2 and later read a boolean key with
    ``as Boolean``, which throws ``ClassCastException`` for a string
    (``"true"`` included) or a number; turbo-android reads a missing ``uri``
    with ``Uri.parse(null)``. Raised by the typed accessors
    (:attr:`Properties.pull_to_refresh_enabled`, :meth:`Properties.typed`, ...)
    every time they are read; a :class:`ConfigError` whose message names the
    exception."""
    E_FORKED = 18
    """(1.1.0) :meth:`Loader.load` or :meth:`Loader.refresh` in a child of
    ``fork()`` on a loader made before the fork: nothing was done, and calling
    again never helps. Make the child's own :class:`Loader`; ``current`` and
    ``close()`` still work on the inherited one. A :class:`MisuseError`."""


class DownloadReason(enum.IntEnum):
    """Why a download failed: ``PATHCONFIG_DOWNLOAD_*``, the ``reason`` of a
    :class:`DownloadError` and of its :class:`~pathconfig.LoaderEvent`."""

    UNAVAILABLE = 1
    """libcurl could not be loaded (not installed, or too old)."""
    TRANSPORT = 2
    """Connection refused, DNS, TLS or protocol failure."""
    TIMEOUT = 3
    """No complete response within the loader's ``timeout``."""
    TOO_LARGE = 4
    """The body was larger than ``max_body_bytes``."""
    TRUNCATED = 5
    """The connection closed before the announced body was complete."""
    HTTP_STATUS = 6
    """A status other than 200 (or 304 answering a conditional request),
    a redirect not followed among them."""
    NOMEM = 7
    """Memory ran out while receiving."""


class CacheReason(enum.IntEnum):
    """Why a cache file was ignored or not written: ``PATHCONFIG_CACHE_*``,
    the ``reason`` of a :class:`CacheError` and of its event."""

    CORRUPT = 1
    """The cache file is not a complete copy for the URL; it was ignored."""
    UNREADABLE = 2
    """The cache file could not be read; it was ignored."""
    UNWRITABLE = 3
    """A new copy could not be written; the previous file is unchanged."""


#: Codes reported as :class:`InternalError`.
_INTERNAL_CODES = frozenset({ErrorCode.E_NOMEM, ErrorCode.E_INTERNAL})

#: Codes reported as :class:`ConfigError`: the input was rejected.
_CONFIG_CODES = frozenset(
    {
        ErrorCode.E_JSON,
        ErrorCode.E_SCHEMA,
        ErrorCode.E_REGEX,
        ErrorCode.E_OPTIONS,
        ErrorCode.E_IO,
        ErrorCode.E_LIMIT,
        ErrorCode.E_BACKEND,
        ErrorCode.E_ARGUMENT,
        ErrorCode.E_TYPE,
        ErrorCode.E_URL,
        ErrorCode.E_CRASH,
    }
)


def _enum_or_int(enum_type: Any, value: int) -> Any:
    """``enum_type(value)``, or ``value`` itself when it is newer than this
    binding (codes, reasons and event kinds are only ever appended)."""
    try:
        return enum_type(value)
    except ValueError:
        return value


def _as_code(code: int) -> "ErrorCode | int":
    return _enum_or_int(ErrorCode, code)  # type: ignore[no-any-return]


class Error(Exception):
    """Base class of every exception the library reports.

    Attributes:
        code: the status code (an :class:`ErrorCode`, which compares equal to
            the C constant), or ``None`` for errors the binding raises itself
            (:class:`ClosedError`).
        name: the code's C name, e.g. ``"PATHCONFIG_E_JSON"``.
        message: the library's human-readable text, without the position.
    """

    code: "ErrorCode | int | None"
    name: str
    message: str

    def __init__(self, message: str, code: "int | None" = None, name: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = None if code is None else _as_code(code)
        if name is None:
            name = f"PATHCONFIG_{self.code.name}" if isinstance(self.code, ErrorCode) else "PATHCONFIG_E_UNKNOWN"
        self.name = name

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild, (type(self), self.__dict__.copy()))


def _rebuild(cls: Type[Error], state: Dict[str, Any]) -> Error:
    # An OSError's instance layout is OSError's: make it with OSError.__new__
    # even where another base (ValueError) comes first in the MRO.
    error = OSError.__new__(cls) if issubclass(cls, OSError) else cls.__new__(cls)
    Exception.__init__(error, state.get("message", ""))
    for key, value in state.items():  # setattr: OSError's filename is a slot
        setattr(error, key, value)
    return error


def _repr(error: Error, attrs: Tuple[str, ...]) -> str:
    fields = [f"code={error.name}", f"message={error.message!r}"]
    for attr in attrs:
        value = getattr(error, attr)
        if value is not None:
            fields.append(f"{attr}={value!r}")
    return f"{type(error).__name__}({', '.join(fields)})"


class ConfigError(Error, ValueError):
    """The configuration, its options or an argument was rejected.

    Raised by :meth:`PathConfiguration.from_file` and
    :meth:`PathConfiguration.from_json` (codes ``E_JSON``, ``E_SCHEMA``,
    ``E_REGEX``, ``E_OPTIONS``, ``E_IO``, ``E_LIMIT``, ``E_BACKEND``,
    ``E_ARGUMENT``), by any call whose argument the library refuses
    (``E_ARGUMENT``, ``E_LIMIT`` for a URL over ``max_url_bytes``), by a
    lookup of a URL the profile's app crashes on (``E_URL``: turbo-android on
    a URL ``java.net.URL`` rejects, such as ``mailto:`` or a port that is not
    a number), and by a typed read the profile's app crashes on (``E_CRASH``:
    hotwire-android 1.2 and later reading ``"pull_to_refresh_enabled": "true"``
    as a boolean, turbo-android reading a missing ``uri``).

    Attributes (besides :class:`Error`'s):
        line, column: 1-based position in the document (column in Unicode
            scalars), or ``None`` when the error has no position.
        rule_index, pattern_index: 0-based indices of the rule and pattern at
            fault, or ``None``.
        filename: the file given to ``from_file``, else ``None``.

    ``str(error)`` is ``"[FILE:]LINE:COLUMN: MESSAGE"`` when there is a
    position (as the ``pathconfig`` command prints it), else the message.
    """

    code: "ErrorCode | int"
    line: Optional[int]
    column: Optional[int]
    rule_index: Optional[int]
    pattern_index: Optional[int]
    filename: Optional[str]

    def __init__(
        self,
        message: str,
        code: int,
        name: Optional[str] = None,
        *,
        line: Optional[int] = None,
        column: Optional[int] = None,
        rule_index: Optional[int] = None,
        pattern_index: Optional[int] = None,
        filename: Optional[str] = None,
    ) -> None:
        super().__init__(message, code, name)
        self.line = line
        self.column = column
        self.rule_index = rule_index
        self.pattern_index = pattern_index
        self.filename = filename

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        where = [str(self.line)] if self.column is None else [str(self.line), str(self.column)]
        if self.filename is not None:
            where.insert(0, self.filename)
        return ":".join(where) + ": " + self.message

    def __repr__(self) -> str:
        fields = [f"code={self.name}", f"message={self.message!r}"]
        for attr in ("line", "column", "rule_index", "pattern_index", "filename"):
            value = getattr(self, attr)
            if value is not None:
                fields.append(f"{attr}={value!r}")
        return f"{type(self).__name__}({', '.join(fields)})"


class FileError(ConfigError, OSError):
    """The file given to :meth:`PathConfiguration.from_file` (or a loader's
    file source) could not be opened or read (``E_IO``).

    An :class:`OSError` as well as a :class:`ConfigError`: ``errno`` is the
    library's ``pathconfig_error.os_error``, ``strerror`` its text and
    ``filename`` the path. An instance is of the :class:`OSError` subclass
    Python makes of that ``errno`` (``OSError(errno.ENOENT, ...)`` is a
    :class:`FileNotFoundError`), mixed with this class, so both
    ``except FileNotFoundError`` and ``except pathconfig.FileError`` catch a
    missing file. ``str(error)`` is the library's message.
    """

    def __init__(
        self,
        message: str,
        code: int = ErrorCode.E_IO,
        name: Optional[str] = None,
        *,
        os_error: Optional[int] = None,
        filename: Optional[str] = None,
    ) -> None:
        super().__init__(message, code, name, filename=filename)
        self.errno = os_error or None
        self.strerror = os.strerror(os_error) if os_error else None

    def __reduce__(self) -> Tuple[Any, ...]:
        state = self.__dict__.copy()
        state.update(errno=self.errno, strerror=self.strerror, filename=self.filename)
        return (_rebuild_file_error, (self.errno, state))

    def __repr__(self) -> str:
        return _repr(self, ("errno", "filename"))


#: FileError mixed with each OSError subclass, made on first use.
_FILE_ERRORS: Dict[type, Type[FileError]] = {}


def _file_error_class(os_error: Optional[int]) -> Type[FileError]:
    """:class:`FileError` mixed with the :class:`OSError` subclass Python
    itself picks for ``os_error`` (its own errno table, not one of ours)."""
    builtin = type(OSError(os_error, "")) if os_error else OSError
    if builtin is OSError:
        return FileError
    cls = _FILE_ERRORS.get(builtin)
    if cls is None:
        cls = type(builtin.__name__, (FileError, builtin), {"__doc__": FileError.__doc__, "__module__": __name__})
        _FILE_ERRORS[builtin] = cls
    return cls


def _rebuild_file_error(os_error: Optional[int], state: Dict[str, Any]) -> Error:
    return _rebuild(_file_error_class(os_error), state)


class ClosedError(Error, ValueError):
    """A :class:`PathConfiguration` or :class:`Properties` was used after
    ``close()`` (or after its ``with`` block ended). ``code`` is ``None``."""

    def __init__(self, message: str) -> None:
        super().__init__(message, None, "closed")


class InternalError(Error, RuntimeError):
    """The library could not allocate a string (``E_NOMEM``) or hit a bug
    (``E_INTERNAL``, or a code this binding does not know)."""


def _as_reason(enum_type: Any, value: int) -> Any:
    """0 (no reason) as ``None``, else as :func:`_enum_or_int`."""
    return _enum_or_int(enum_type, value) if value else None


class DownloadError(Error, OSError):
    """A loader's download brought no usable response (``E_DOWNLOAD``):
    libcurl missing, a connection or TLS failure, a timeout, a status other
    than 200/304, a body too large or cut short. The current configuration
    and the cache file were left as they were.

    Attributes (besides :class:`Error`'s):
        reason: a :class:`DownloadReason` (an ``int`` for a reason newer than
            this binding), or ``None`` when unknown.
        http_status: the status of a response that arrived (e.g. 500), else
            ``None``.
        url: the server source's URL, or ``None`` when unknown.
    """

    reason: "DownloadReason | int | None"
    http_status: Optional[int]
    url: Optional[str]

    def __init__(
        self,
        message: str,
        code: int = ErrorCode.E_DOWNLOAD,
        name: Optional[str] = None,
        *,
        reason: int = 0,
        http_status: int = 0,
        url: Optional[str] = None,
    ) -> None:
        super().__init__(message, code, name)
        self._details(reason, http_status, url)

    def _details(self, reason: int, http_status: int, url: Optional[str]) -> None:
        self.reason = _as_reason(DownloadReason, reason)
        self.http_status = http_status or None
        self.url = url

    def __repr__(self) -> str:
        return _repr(self, ("reason", "http_status", "url"))


class CacheError(Error, OSError):
    """A loader ignored a cache file (corrupt, unreadable) or could not write
    one (``E_CACHE``). Never raised: it is the ``error`` of a
    :attr:`~pathconfig.EventKind.WARNING` event; loading went on without the
    cache.

    Attributes (besides :class:`Error`'s):
        reason: a :class:`CacheReason` (an ``int`` for a newer one) or ``None``.
        url: the server source the cache file belongs to, or ``None``.
        filename: the cache file's path (:class:`OSError`'s attribute), or
            ``None``.
    """

    reason: "CacheReason | int | None"
    url: Optional[str]

    def __init__(
        self,
        message: str,
        code: int = ErrorCode.E_CACHE,
        name: Optional[str] = None,
        *,
        reason: int = 0,
        url: Optional[str] = None,
        filename: Optional[str] = None,
    ) -> None:
        super().__init__(message, code, name)
        self._details(reason, url, filename)

    def _details(self, reason: int, url: Optional[str], filename: Optional[str]) -> None:
        self.reason = _as_reason(CacheReason, reason)
        self.url = url
        self.filename = filename

    def __reduce__(self) -> Tuple[Any, ...]:
        state = self.__dict__.copy()
        state["filename"] = self.filename
        return (_rebuild, (type(self), state))

    def __repr__(self) -> str:
        return _repr(self, ("reason", "url", "filename"))


class MisuseError(Error, RuntimeError):
    """A call the loader's state forbids (``E_MISUSE``): ``load()`` or
    ``refresh()`` from inside that loader's own ``on_change`` callback; or
    (``E_FORKED``) either of them in a child of ``fork()`` on a loader made
    before the fork."""


class CallbackError(Error, RuntimeError):
    """A predicate or configurer of a rule added from code (``add_rule``)
    failed, so the lookup failed (``E_CALLBACK``); nothing was memoised.

    When the callable was Python's, the lookup raises the callable's own
    exception instead, with this error as its ``__cause__``; this error is
    raised as such only when a rule's callback reported failure without one.

    Attributes (besides :class:`Error`'s):
        rule_index: the 0-based index of the rule whose callback failed (what
            ``add_rule`` returned), or ``None``.
    """

    rule_index: Optional[int]

    def __init__(self, message: str, code: int = ErrorCode.E_CALLBACK, name: Optional[str] = None, *, rule_index: Optional[int] = None) -> None:
        super().__init__(message, code, name)
        self.rule_index = rule_index

    def __repr__(self) -> str:
        return _repr(self, ("rule_index",))


def from_fields(
    code: int,
    message: str,
    line: int = 0,
    column: int = 0,
    rule_index: int = -1,
    pattern_index: int = -1,
    name: Optional[str] = None,
    filename: Optional[str] = None,
    os_error: int = 0,
) -> Error:
    """The exception for a ``pathconfig_error`` as C fills it (0 and -1 mean
    "not applicable" there, ``None`` here)."""
    if code == ErrorCode.E_IO:
        return _file_error_class(os_error)(message, code, name, os_error=os_error, filename=filename)
    if code in _CONFIG_CODES:
        return ConfigError(
            message,
            code,
            name,
            line=line if line > 0 else None,
            column=column if line > 0 and column > 0 else None,
            rule_index=rule_index if rule_index >= 0 else None,
            pattern_index=pattern_index if pattern_index >= 0 else None,
            filename=filename,
        )
    if code == ErrorCode.E_DOWNLOAD:
        return DownloadError(message, code, name)
    if code == ErrorCode.E_CACHE:
        return CacheError(message, code, name)
    if code in (ErrorCode.E_MISUSE, ErrorCode.E_FORKED):
        return MisuseError(message, code, name)
    if code == ErrorCode.E_CALLBACK:
        return CallbackError(message, code, name, rule_index=rule_index if rule_index >= 0 else None)
    if code in _INTERNAL_CODES or not code or code not in ErrorCode.__members__.values():
        return InternalError(message or "libpathconfig reported an unknown failure", code, name)
    return Error(message, code, name)
