"""The C API of include/pathconfig.h, declared once.

One table, :data:`SIGNATURES`, gives each exported function its argument
types, result type and an ``errcheck`` that turns the library's failure
conventions into exceptions, so callers never see a NULL or a negative code:

- handles are typed pointers to opaque structures (``ConfigPtr``,
  ``ResultPtr``, ``LoaderPtr``), so one cannot be passed where another is
  expected;
- strings the caller owns (``char *``) come back as ``c_void_p``, are copied
  into a Python ``str`` and freed at once with ``pathconfig_free_string``;
- strings borrowed from a handle (``const char *``) come back as ``c_char_p``,
  which ctypes copies into ``bytes`` immediately, before anything can free them;
- failures are read from the ``pathconfig_error`` the call filled (load,
  resolve) or from the thread-local ``pathconfig_last_error()``, in the calling
  thread, right after the call; a loader's ``int`` status (0 or a negated
  code) raises what its ``err`` says.

The loader's callback types (``LoaderCallback``, ``PayloadFree``) and event
structure (``LoaderEventStruct``) are declared here too; :mod:`pathconfig._events`
holds the trampoline. So are the rules' (``RuleFn``, ``RequestPtr``; the
``free_context`` of ``pathconfig_add_rule`` is a ``PayloadFree``), whose
trampolines :mod:`pathconfig._rules` holds.

The library is opened with :class:`ctypes.CDLL`, so ctypes releases the GIL
for the duration of every call: resolving in several threads runs in parallel.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_char, c_char_p, c_double, c_int, c_int64, c_size_t, c_void_p
from typing import Any, Callable, Dict, NoReturn, Optional, Sequence, Tuple, cast

from ._errors import Error, from_fields
from ._library import load_library

#: The header this module mirrors (PATHCONFIG_VERSION_NUMBER of pathconfig.h).
HEADER_VERSION = "0.1.0"
HEADER_VERSION_NUMBER = 1000

#: Return values of the raw value getters.
FOUND = 1
NOT_FOUND = 0

#: ``PATHCONFIG_TYPED_*``: what ``pathconfig_typed_key_kind`` returns, by the
#: names :data:`pathconfig.TYPED_KEYS` uses.
TYPED_KINDS = {1: "string", 2: "bool", 3: "enum"}

#: ``PATHCONFIG_WARNING_VERSION``: the warning layout declared below.
WARNING_VERSION = 1


class Config(ctypes.Structure):
    """``struct pathconfig``: opaque, only ever handled through a pointer."""


class Result(ctypes.Structure):
    """``struct pathconfig_result``: opaque, only ever handled through a pointer."""


class Loader(ctypes.Structure):
    """``struct pathconfig_loader``: opaque, only ever handled through a pointer."""


class Request(ctypes.Structure):
    """``struct pathconfig_request``: opaque, borrowed by a rule's callback for one call."""


ConfigPtr = POINTER(Config)
ResultPtr = POINTER(Result)
LoaderPtr = POINTER(Loader)
RequestPtr = POINTER(Request)


class ErrorStruct(ctypes.Structure):
    """``struct pathconfig_error``, field for field (fields are only ever appended)."""

    _fields_ = [
        ("code", c_int),
        ("line", c_int),
        ("column", c_int),
        ("message", c_char * 512),
        ("rule_index", c_int),
        ("pattern_index", c_int),
        ("os_error", c_int),
    ]

    def to_exception(self) -> Error:
        """The exception for this failure (the fields are copied)."""
        return from_fields(
            self.code,
            self.message.decode("utf-8", "replace"),
            self.line,
            self.column,
            self.rule_index,
            self.pattern_index,
            name=error_name(self.code),
            os_error=self.os_error,
        )


ErrorPtr = POINTER(ErrorStruct)


class WarningStruct(ctypes.Structure):
    """``struct pathconfig_warning``, version 1, field for field. The caller
    sets ``version``; ``message`` is borrowed from the configuration (c_char_p
    copies it when read, so read it while the configuration is held)."""

    _fields_ = [
        ("version", c_int),
        ("kind", c_int),
        ("line", c_int),
        ("column", c_int),
        ("rule_index", c_int),
        ("pattern_index", c_int),
        ("message", c_char_p),
    ]


WarningPtr = POINTER(WarningStruct)

#: ``PATHCONFIG_LOADER_EVENT_VERSION``: the event layout declared below.
LOADER_EVENT_VERSION = 1


class LoaderEventStruct(ctypes.Structure):
    """``struct pathconfig_loader_event``, version 1, field for field (the
    library only appends fields, so a newer library's events read the same).
    Borrowed for the callback call: copy what you keep."""

    _fields_ = [
        ("version", c_int),
        ("kind", c_int),
        ("source_kind", c_int),
        ("source_index", c_int),
        ("byte_count", c_int64),
        ("http_status", c_int),
        ("reason", c_int),
        ("location", c_char_p),
        ("url", c_char_p),
        ("error", ErrorPtr),
        ("configuration", ConfigPtr),
        ("description", c_char_p),
    ]


LoaderEventPtr = POINTER(LoaderEventStruct)

#: ``pathconfig_loader_callback``: ``void (*)(const pathconfig_loader_event *, void *payload)``.
#: ctypes takes the GIL around the Python function and reports (through
#: ``sys.unraisablehook``) any exception it raises, so none reaches C.
LoaderCallback = ctypes.CFUNCTYPE(None, LoaderEventPtr, c_void_p)

#: ``pathconfig_loader_payload_free``: ``void (*)(void *payload)``, called by the
#: library once a callback's payload is no longer used.
PayloadFree = ctypes.CFUNCTYPE(None, c_void_p)

#: ``pathconfig_rule_fn``: ``int (*)(void *context, pathconfig_request *request)``,
#: a rule's predicate (1 applies, 0 not) or configurer (0); negative: failed.
RuleFn = ctypes.CFUNCTYPE(c_int, c_void_p, RequestPtr)


def text_arg(value: str, what: str) -> bytes:
    """``value`` as a NUL-terminated UTF-8 argument (``what`` names it in errors)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be str, not {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{what} contains a NUL character")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} cannot be encoded as UTF-8: {exc.reason} at index {exc.start}") from None


def error_name(code: int) -> str:
    """``pathconfig_error_name``: the C name of a status code."""
    return cast(bytes, lib.pathconfig_error_name(code)).decode("ascii", "replace")


def last_error() -> Error:
    """The calling thread's last error as an exception."""
    return cast(ErrorStruct, lib.pathconfig_last_error().contents).to_exception()


def _raise_last() -> NoReturn:
    raise last_error()


def _last_code() -> int:
    return int(lib.pathconfig_last_error().contents.code)


# --- errcheck functions --------------------------------------------------------


def _raise_failure(args: Tuple[Any, ...]) -> NoReturn:
    """Raises what ``err`` (the last argument, when it is a
    ``pathconfig_error``) or else the last error says."""
    err = args[-1] if args else None
    if isinstance(err, ErrorStruct) and err.code != 0:
        raise err.to_exception()
    _raise_last()


def _check_new_handle(result: Any, func: Any, args: Tuple[Any, ...]) -> Any:
    """Handles that are NULL only on failure (constructors, and the result
    ``pathconfig_lookup`` lends): NULL raises what ``err`` (the last argument,
    when there is one) or else the last error says."""
    if not result:
        _raise_failure(args)
    return result


def _check_owned_text(result: Optional[int], func: Any, args: Tuple[Any, ...]) -> str:
    """``char *`` the caller frees: copy, free, decode. NULL raises what
    ``err`` (when the function takes one) or the last error says."""
    if result is None:
        _raise_failure(args)
    try:
        data = ctypes.string_at(result)
    finally:
        lib.pathconfig_free_string(result)
    return data.decode("utf-8")


def _check_borrowed_text(result: Optional[bytes], func: Any, args: Tuple[Any, ...]) -> str:
    """``const char *`` that is NULL only on failure (already copied by c_char_p)."""
    if result is None:
        _raise_last()
    return result.decode("utf-8")


def _check_optional_text(result: Optional[bytes], func: Any, args: Tuple[Any, ...]) -> Optional[str]:
    """``const char *`` where NULL with a cleared last error means "no value"."""
    if result is None:
        if _last_code() != 0:
            _raise_last()
        return None
    return result.decode("utf-8")


def _check_typed_bool(result: int, func: Any, args: Tuple[Any, ...]) -> bool:
    """1 or 0, or a negated code."""
    if result < 0:
        _raise_last()
    return bool(result)


def _check_count(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """``size_t`` where 0 may also mean failure."""
    if result == 0 and _last_code() != 0:
        _raise_last()
    return int(result)


def _check_getter(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """A value of zero or more (FOUND / NOT_FOUND, a typed key's kind), or a
    negated code."""
    if result < 0:
        _raise_last()
    return int(result)


def _check_status(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """0 (or an index, zero or more), or a negative value: raises what ``err``
    (the last argument, when it is a ``pathconfig_error``) or the last error
    says."""
    if result < 0:
        _raise_failure(args)
    return int(result)


def _check_optional_handle(result: Any, func: Any, args: Tuple[Any, ...]) -> Any:
    """A new handle, or NULL: ``None`` when the last error is cleared ("no
    value"), else raise it."""
    if not result:
        if _last_code() != 0:
            _raise_last()
        return None
    return result


def _check_optional_owned_text(result: Optional[int], func: Any, args: Tuple[Any, ...]) -> Optional[str]:
    """``char *`` the caller frees, or NULL meaning "no value" when the last
    error is cleared."""
    if result is None:
        if _last_code() != 0:
            _raise_last()
        return None
    return _check_owned_text(result, func, args)


# --- the signature table ------------------------------------------------------

Signature = Tuple[Sequence[Any], Any, Optional[Callable[..., Any]]]

#: name -> (argtypes, restype, errcheck), grouped by the header's sections.
SIGNATURES: Dict[str, Signature] = {
    # Version and errors
    "pathconfig_version": ([], c_char_p, _check_borrowed_text),
    "pathconfig_version_number": ([], c_int, None),
    "pathconfig_last_error": ([], ErrorPtr, None),
    "pathconfig_error_name": ([c_int], c_char_p, None),
    # Loading
    "pathconfig_load_json": ([c_char_p, c_size_t, c_char_p, ErrorPtr], ConfigPtr, _check_new_handle),
    "pathconfig_load_file": ([c_char_p, c_char_p, ErrorPtr], ConfigPtr, _check_new_handle),
    "pathconfig_retain": ([ConfigPtr], ConfigPtr, None),
    "pathconfig_release": ([ConfigPtr], None, None),
    # Resolving
    "pathconfig_properties": ([ConfigPtr, c_char_p], c_void_p, _check_owned_text),
    "pathconfig_resolve": ([ConfigPtr, c_char_p, ErrorPtr], ResultPtr, _check_new_handle),
    "pathconfig_lookup": ([ConfigPtr, c_char_p, c_char_p], ResultPtr, _check_new_handle),
    "pathconfig_result_free": ([ResultPtr], None, None),
    "pathconfig_result_retain": ([ResultPtr], ResultPtr, None),
    "pathconfig_result_json": ([ResultPtr], c_char_p, _check_borrowed_text),
    "pathconfig_result_count": ([ResultPtr], c_size_t, _check_count),
    "pathconfig_result_key": ([ResultPtr, c_size_t], c_char_p, _check_borrowed_text),
    # Raw values of a result
    "pathconfig_result_get_string": ([ResultPtr, c_char_p, POINTER(c_char_p)], c_int, _check_getter),
    "pathconfig_result_get_string_len": (
        [ResultPtr, c_char_p, POINTER(c_char_p), POINTER(c_size_t)],
        c_int,
        _check_getter,
    ),
    "pathconfig_result_get_bool": ([ResultPtr, c_char_p, POINTER(c_int)], c_int, _check_getter),
    "pathconfig_result_get_int64": ([ResultPtr, c_char_p, POINTER(c_int64)], c_int, _check_getter),
    "pathconfig_result_get_double": ([ResultPtr, c_char_p, POINTER(c_double)], c_int, _check_getter),
    "pathconfig_result_get_json": ([ResultPtr, c_char_p, POINTER(c_char_p)], c_int, _check_getter),
    # Typed accessors of a result
    "pathconfig_result_typed_string": ([ResultPtr, c_char_p], c_char_p, _check_optional_text),
    "pathconfig_result_typed_bool": ([ResultPtr, c_char_p], c_int, _check_typed_bool),
    "pathconfig_result_context": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_presentation": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_modal_style": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_query_string_presentation": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_view_controller": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_title": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_uri": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_fallback_uri": ([ResultPtr], c_char_p, _check_optional_text),
    "pathconfig_result_pull_to_refresh_enabled": ([ResultPtr], c_int, _check_typed_bool),
    "pathconfig_result_modal_dismiss_gesture_enabled": ([ResultPtr], c_int, _check_typed_bool),
    "pathconfig_result_animated": ([ResultPtr], c_int, _check_typed_bool),
    "pathconfig_result_historical_location": ([ResultPtr], c_int, _check_typed_bool),
    # What this library knows: profiles, backends, typed keys
    "pathconfig_profile_count": ([], c_size_t, None),
    "pathconfig_profile_name": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_profile_platform": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_backend_count": ([], c_size_t, None),
    "pathconfig_backend_name": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_typed_key_count": ([], c_size_t, None),
    "pathconfig_typed_key_name": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_typed_key_kind": ([c_size_t], c_int, _check_getter),
    "pathconfig_typed_key_value_count": ([c_size_t, c_char_p], c_size_t, _check_count),
    "pathconfig_typed_key_value": ([c_size_t, c_char_p, c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_typed_key_default_string": ([c_size_t, c_char_p], c_char_p, _check_optional_text),
    "pathconfig_typed_key_default_bool": ([c_size_t, c_char_p], c_int, _check_typed_bool),
    # Inspecting a configuration
    "pathconfig_explain": ([ConfigPtr, c_char_p], c_void_p, _check_owned_text),
    "pathconfig_matched_string": ([ConfigPtr, c_char_p], c_void_p, _check_owned_text),
    "pathconfig_settings": ([ConfigPtr], c_void_p, _check_owned_text),
    "pathconfig_warnings": ([ConfigPtr], c_void_p, _check_owned_text),
    "pathconfig_warning_count": ([ConfigPtr], c_size_t, _check_count),
    "pathconfig_warning_get": ([ConfigPtr, c_size_t, WarningPtr], c_int, _check_status),
    "pathconfig_warning_kind_name": ([c_int], c_char_p, _check_borrowed_text),
    "pathconfig_rule_count": ([ConfigPtr], c_size_t, _check_count),
    "pathconfig_document_rule_count": ([ConfigPtr], c_size_t, _check_count),
    "pathconfig_profile": ([ConfigPtr], c_char_p, _check_borrowed_text),
    "pathconfig_free_string": ([c_void_p], None, None),
    # Requests: methods, rules added from code, invalidation
    "pathconfig_resolve_request": ([ConfigPtr, c_char_p, c_char_p, ErrorPtr], ResultPtr, _check_new_handle),
    "pathconfig_explain_request": ([ConfigPtr, c_char_p, c_char_p, ErrorPtr], c_void_p, _check_owned_text),
    "pathconfig_add_rule": (
        [ConfigPtr, c_char_p, RuleFn, RuleFn, c_void_p, PayloadFree, ErrorPtr],
        c_int,
        _check_status,
    ),
    "pathconfig_invalidate": ([ConfigPtr], c_int, _check_status),
    "pathconfig_request_url": ([RequestPtr], c_char_p, _check_borrowed_text),
    "pathconfig_request_method": ([RequestPtr], c_char_p, _check_borrowed_text),
    "pathconfig_request_properties": ([RequestPtr], c_char_p, _check_borrowed_text),
    "pathconfig_request_set_properties": ([RequestPtr, c_char_p], c_int, _check_status),
    "pathconfig_request_merge_properties": ([RequestPtr, c_char_p], c_int, _check_status),
    "pathconfig_request_fail": ([RequestPtr, c_char_p], c_int, _check_status),
    # Loader: sources, cache and live updates
    "pathconfig_loader_new": ([c_char_p, c_char_p, ErrorPtr], LoaderPtr, _check_new_handle),
    "pathconfig_loader_set_callback": ([LoaderPtr, LoaderCallback, c_void_p], c_int, _check_status),
    "pathconfig_loader_set_callback_v2": ([LoaderPtr, LoaderCallback, c_void_p, PayloadFree], c_int, _check_status),
    "pathconfig_loader_load": ([LoaderPtr, ErrorPtr], c_int, _check_status),
    "pathconfig_loader_refresh": ([LoaderPtr, ErrorPtr], c_int, _check_status),
    "pathconfig_loader_current": ([LoaderPtr], ConfigPtr, _check_optional_handle),
    "pathconfig_loader_cache_file": ([LoaderPtr, c_char_p], c_void_p, _check_optional_owned_text),
    "pathconfig_loader_free": ([LoaderPtr], None, None),
}


def _bind(library: ctypes.CDLL) -> None:
    missing = []
    for name, (argtypes, restype, errcheck) in SIGNATURES.items():
        try:
            func = getattr(library, name)
        except AttributeError:
            missing.append(name)
            continue
        func.argtypes = list(argtypes)
        func.restype = restype
        if errcheck is not None:
            func.errcheck = errcheck
    if missing:
        raise ImportError(
            f"libpathconfig at {library_path!r} lacks {', '.join(missing)}: "
            f"it is older than the header this binding was written for ({HEADER_VERSION})",
            name="pathconfig",
        )


def _check_version(library: ctypes.CDLL) -> None:
    number = int(library.pathconfig_version_number())
    if number // 1_000_000 != HEADER_VERSION_NUMBER // 1_000_000 or number < HEADER_VERSION_NUMBER:
        raise ImportError(
            f"libpathconfig at {library_path!r} is version "
            f"{number // 1_000_000}.{number // 1000 % 1000}.{number % 1000}; "
            f"this binding needs {HEADER_VERSION} or a later {HEADER_VERSION_NUMBER // 1_000_000}.x",
            name="pathconfig",
        )


class Lookup:
    """The lookup path, declared a second time with addresses for handles.

    ``PathConfiguration.properties`` is called once per URL, and there the
    table's conveniences cost more than the library's work: a typed pointer is
    built for every result and an ``errcheck`` runs after every call. These
    are the same functions of the same library, their types read from
    :data:`SIGNATURES` with ``c_void_p`` for every pointer type (a result
    comes back as a plain ``int``, 0 for NULL), and no ``errcheck``: their
    callers check for 0 and raise the last error themselves. Nothing else may
    use them; everything else goes through :data:`SIGNATURES`.
    """

    def __init__(self, library: ctypes.CDLL) -> None:
        self.lookup = self._declare(library, "pathconfig_lookup")
        self.resolve_request = self._declare(library, "pathconfig_resolve_request")
        self.result_retain = self._declare(library, "pathconfig_result_retain")
        self.result_json = self._declare(library, "pathconfig_result_json")
        self.result_free = self._declare(library, "pathconfig_result_free")
        # pathconfig_result_json again, for the text's address rather than
        # its bytes: what the binding keys decoded results by.
        self.result_text = self._declare(library, "pathconfig_result_json", restype=c_void_p)

    @staticmethod
    def _declare(library: ctypes.CDLL, name: str, restype: Any = None) -> Any:
        def address(ctype: Any) -> Any:
            return c_void_p if isinstance(ctype, type) and issubclass(ctype, ctypes._Pointer) else ctype

        argtypes, declared, _ = SIGNATURES[name]
        # Indexing makes a new function object, so the one in SIGNATURES
        # keeps its own types.
        function = library[name]
        function.argtypes = [address(t) for t in argtypes]
        function.restype = address(declared) if restype is None else restype
        return function


def address(handle: Any) -> int:
    """The address a typed handle points to (``Lookup`` takes addresses)."""
    return cast(int, ctypes.cast(handle, c_void_p).value)


def result_handle(address: int) -> Any:
    """A ``ResultPtr`` for a result's address (from :class:`Lookup`)."""
    return ctypes.cast(address, ResultPtr)


lib, library_path = load_library()
_check_version(lib)
_bind(lib)
#: The lookup path's declarations (see :class:`Lookup`).
lookup = Lookup(lib)
