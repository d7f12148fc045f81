"""The C API of include/pathconfig.h, declared once.

One table, :data:`SIGNATURES`, gives each exported function its argument
types, result type and an ``errcheck`` that turns the library's conventions
(pathconfig.h, "Returns") into exceptions, so callers never see a NULL or a
status code:

- handles are typed pointers to opaque structures (``ConfigPtr``,
  ``ResultPtr``, ``LoaderPtr``), so one cannot be passed where another is
  expected;
- what a call hands its caller to free (a CONSTRUCTOR's handle, a ``char *``)
  comes back as a :class:`Handed` object, which frees it if it goes before
  an owner takes it (see there);
- strings the caller owns (``char *``) are copied into a Python ``str`` and
  freed at once with ``pathconfig_string_free``;
- strings borrowed from a handle (``const char *``) come back as ``c_char_p``,
  which ctypes copies into ``bytes`` immediately, before anything can free them;
- a CONSTRUCTOR's NULL, a status other than ``PATHCONFIG_OK`` and a READER's
  0 or NULL with the last error set raise what the ``pathconfig_error`` the
  call filled (load, resolve, add a rule, the loader's chain) or the
  thread-local ``pathconfig_last_error()`` says, read in the calling thread
  right after the call.

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
import sys
from ctypes import POINTER, c_char, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint64, c_void_p
from typing import Any, Callable, Dict, NoReturn, Optional, Sequence, Tuple, cast

from ._errors import Error, from_fields
from ._library import load_library

#: The header this module mirrors (PATHCONFIG_VERSION_NUMBER of pathconfig.h).
HEADER_VERSION = "1.1.0"
HEADER_VERSION_NUMBER = 1001000

#: ``PATHCONFIG_OK``: the status of a call that did what it was asked.
OK = 0
#: ``PATHCONFIG_NOT_FOUND``: a value getter's key is absent (not an error).
NOT_FOUND = 100
#: ``PATHCONFIG_E_TYPE``: a value getter found the key with another JSON type.
E_TYPE = 11

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


class Handed:
    """What a call hands its caller to free, owned from the instant it returns.

    The result type of every function that returns something the caller
    frees (a CONSTRUCTOR's handle, a ``char *``): ctypes makes the object in
    C, before any Python code runs, so a signal handler's exception (Ctrl-C's
    ``KeyboardInterrupt``, an alarm's) that strikes as the call returns, in
    its ``errcheck`` or before an owner holds it, cannot lose it: this object
    frees it when it goes, with :attr:`FREE`, unless :meth:`take` has handed
    it on. A load interrupted that way used to leak its whole configuration.

    Never ``ctypes.cast`` one: the cast's keep-alive makes the object refer
    to itself, so it would be freed only by the cycle collector; read it
    with :func:`address`.
    """

    __slots__ = ()
    #: The name of the function that frees it (of :class:`Lookup`'s, which take addresses).
    FREE = ""

    def take(self) -> int:
        """The address, which the caller now frees (0 for NULL, and once taken)."""
        view = c_void_p.from_buffer(cast(Any, self))
        taken: int = view.value or 0
        view.value = None
        return taken

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        if not _finalizing():
            taken = self.take()
            if taken:
                getattr(lookup, self.FREE)(taken)


class NewConfig(Handed, ConfigPtr):  # type: ignore[misc, valid-type]
    """A CONSTRUCTOR's configuration (see :class:`Handed`)."""

    _type_ = Config
    FREE = "release"


class NewResult(Handed, ResultPtr):  # type: ignore[misc, valid-type]
    """A CONSTRUCTOR's result (see :class:`Handed`)."""

    _type_ = Result
    FREE = "result_release"


class NewLoader(Handed, LoaderPtr):  # type: ignore[misc, valid-type]
    """``pathconfig_loader_new``'s loader (see :class:`Handed`)."""

    _type_ = Loader
    FREE = "loader_free"


class HandedAddress(Handed, c_void_p):
    """A :class:`Handed` declared ``c_void_p``, read through ``value``: on the
    lookup path through ctypes alone, a known answer's result costs 0.3 µs
    more than a plain ``int`` this way, 0.6 µs through ``from_buffer``."""

    __slots__ = ()

    def take(self) -> int:
        """The address, which the caller now frees (0 for NULL, and once taken)."""
        taken: int = self.value or 0
        self.value = None
        return taken

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        if self.value and not _finalizing():
            getattr(lookup, self.FREE)(self.take())


class NewResultAddress(HandedAddress):
    """The lookup path's result (:class:`Lookup`), an address (see :class:`Handed`)."""

    FREE = "result_release"


class OwnedText(HandedAddress):
    """A ``char *`` the caller frees (see :class:`Handed`)."""

    FREE = "string_free"


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
    """A CONSTRUCTOR: NULL raises what ``err`` (the last argument, when there
    is one) or else the last error says."""
    if not result:
        _raise_failure(args)
    return result


def _check_owned_text(result: OwnedText, func: Any, args: Tuple[Any, ...]) -> str:
    """``char *`` the caller frees: copy, free, decode. NULL raises what
    ``err`` (when the function takes one) or the last error says."""
    if not result:
        _raise_failure(args)
    data = ctypes.string_at(result)
    lookup.string_free(result.take())
    return data.decode("utf-8")


def _check_borrowed_text(result: Optional[bytes], func: Any, args: Tuple[Any, ...]) -> str:
    """A READER's ``const char *`` that is NULL only on failure (already
    copied by c_char_p)."""
    if result is None:
        _raise_last()
    return result.decode("utf-8")


def _check_optional_text(result: Optional[bytes], func: Any, args: Tuple[Any, ...]) -> Optional[str]:
    """A READER's ``const char *`` where NULL with a cleared last error means
    "no value"."""
    if result is None:
        if _last_code() != 0:
            _raise_last()
        return None
    return result.decode("utf-8")


def _check_reader(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """A READER's number (a count, a kind, an id): 0 is a failure when the
    last error is set, else the value."""
    if result == 0 and _last_code() != 0:
        _raise_last()
    return int(result)


def _check_reader_bool(result: int, func: Any, args: Tuple[Any, ...]) -> bool:
    """A READER's 1 or 0; 0 with the last error set is a failure."""
    if result == 0 and _last_code() != 0:
        _raise_last()
    return bool(result)


def _check_getter(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """A value getter's status: ``OK``, ``NOT_FOUND`` and ``E_TYPE`` (the key
    holds another JSON type) are answers, returned; any other code raises the
    last error."""
    if result not in (OK, NOT_FOUND, E_TYPE):
        _raise_last()
    return int(result)


def _check_status(result: int, func: Any, args: Tuple[Any, ...]) -> None:
    """A status: anything but ``OK`` raises what ``err`` (the last argument,
    when it is a ``pathconfig_error``) or the last error says."""
    if result != OK:
        _raise_failure(args)


def _check_optional_handle(result: Any, func: Any, args: Tuple[Any, ...]) -> Any:
    """A new handle, or NULL: ``None`` when the last error is cleared ("no
    value"), else raise it."""
    if not result:
        if _last_code() != 0:
            _raise_last()
        return None
    return result


def _check_optional_owned_text(result: OwnedText, func: Any, args: Tuple[Any, ...]) -> Optional[str]:
    """``char *`` the caller frees, or NULL meaning "no value" when the last
    error is cleared."""
    if not result:
        if _last_code() != 0:
            _raise_last()
        return None
    return _check_owned_text(result, func, args)


# --- the signature table ------------------------------------------------------

Signature = Tuple[Sequence[Any], Any, Optional[Callable[..., Any]]]

#: name -> (argtypes, restype, errcheck), grouped by the header's parts.
SIGNATURES: Dict[str, Signature] = {
    # common.h: version and errors, strings
    "pathconfig_version": ([], c_char_p, _check_borrowed_text),
    "pathconfig_version_number": ([], c_int, None),
    "pathconfig_last_error": ([], ErrorPtr, None),
    "pathconfig_error_name": ([c_int], c_char_p, None),
    "pathconfig_string_free": ([c_void_p], None, None),
    # config.h: loading
    "pathconfig_load_json": ([c_char_p, c_size_t, c_char_p, ErrorPtr], NewConfig, _check_new_handle),
    "pathconfig_load_file": ([c_char_p, c_char_p, ErrorPtr], NewConfig, _check_new_handle),
    "pathconfig_retain": ([ConfigPtr], NewConfig, _check_new_handle),
    "pathconfig_release": ([ConfigPtr], None, None),
    # config.h: resolving, inspecting
    "pathconfig_resolve": ([ConfigPtr, c_char_p, c_char_p, ErrorPtr], NewResult, _check_new_handle),
    "pathconfig_explain": ([ConfigPtr, c_char_p, c_char_p, ErrorPtr], OwnedText, _check_owned_text),
    "pathconfig_matched_string": ([ConfigPtr, c_char_p, ErrorPtr], OwnedText, _check_owned_text),
    "pathconfig_settings": ([ConfigPtr], c_char_p, _check_borrowed_text),
    "pathconfig_options": ([ConfigPtr], c_char_p, _check_borrowed_text),
    "pathconfig_warning_count": ([ConfigPtr], c_size_t, _check_reader),
    "pathconfig_warning_get": ([ConfigPtr, c_size_t, WarningPtr], c_int, _check_status),
    "pathconfig_warning_kind_name": ([c_int], c_char_p, _check_borrowed_text),
    "pathconfig_rule_count": ([ConfigPtr], c_size_t, _check_reader),
    "pathconfig_document_rule_count": ([ConfigPtr], c_size_t, _check_reader),
    # result.h
    "pathconfig_result_release": ([ResultPtr], None, None),
    "pathconfig_result_retain": ([ResultPtr], NewResult, _check_new_handle),
    "pathconfig_result_id": ([ResultPtr], c_uint64, _check_reader),
    "pathconfig_result_json": ([ResultPtr], c_char_p, _check_borrowed_text),
    "pathconfig_result_count": ([ResultPtr], c_size_t, _check_reader),
    "pathconfig_result_key": ([ResultPtr, c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_result_type": ([ResultPtr, c_size_t], c_int, _check_reader),
    "pathconfig_result_get_string": (
        [ResultPtr, c_char_p, POINTER(c_char_p), POINTER(c_size_t)],
        c_int,
        _check_getter,
    ),
    "pathconfig_result_get_bool": ([ResultPtr, c_char_p, POINTER(c_int)], c_int, _check_getter),
    "pathconfig_result_get_int64": ([ResultPtr, c_char_p, POINTER(c_int64)], c_int, _check_getter),
    "pathconfig_result_get_double": ([ResultPtr, c_char_p, POINTER(c_double)], c_int, _check_getter),
    "pathconfig_result_get_json": ([ResultPtr, c_char_p, POINTER(c_char_p)], c_int, _check_getter),
    "pathconfig_result_typed_string": ([ResultPtr, c_int], c_char_p, _check_optional_text),
    "pathconfig_result_typed_bool": ([ResultPtr, c_int], c_int, _check_reader_bool),
    # catalog.h
    "pathconfig_profile_count": ([], c_size_t, None),
    "pathconfig_profile_name": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_profile_platform": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_profile_release_count": ([c_size_t], c_size_t, None),
    "pathconfig_profile_release_name": ([c_size_t, c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_profile_release_tags": ([c_size_t, c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_profile_release_commit": ([c_size_t, c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_profile_default_release": ([c_size_t], c_size_t, None),
    "pathconfig_backend_count": ([], c_size_t, None),
    "pathconfig_backend_name": ([c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_typed_key_count": ([], c_size_t, None),
    "pathconfig_typed_key_name": ([c_int], c_char_p, _check_borrowed_text),
    "pathconfig_typed_key_kind": ([c_int], c_int, _check_reader),
    "pathconfig_typed_key_value_count": ([c_int, c_char_p], c_size_t, _check_reader),
    "pathconfig_typed_key_value": ([c_int, c_char_p, c_size_t], c_char_p, _check_borrowed_text),
    "pathconfig_typed_key_default_string": ([c_int, c_char_p], c_char_p, _check_optional_text),
    "pathconfig_typed_key_default_bool": ([c_int, c_char_p], c_int, _check_reader_bool),
    # loader.h
    "pathconfig_loader_new": ([c_char_p, c_char_p, ErrorPtr], NewLoader, _check_new_handle),
    "pathconfig_loader_set_callback": ([LoaderPtr, LoaderCallback, c_void_p, PayloadFree], c_int, _check_status),
    "pathconfig_loader_load": ([LoaderPtr, ErrorPtr], c_int, _check_status),
    "pathconfig_loader_refresh": ([LoaderPtr, ErrorPtr], c_int, _check_status),
    "pathconfig_loader_current": ([LoaderPtr], NewConfig, _check_optional_handle),
    "pathconfig_loader_cache_file": ([LoaderPtr, c_char_p], OwnedText, _check_optional_owned_text),
    "pathconfig_loader_free": ([LoaderPtr], None, None),
    # rules.h
    "pathconfig_add_rule": (
        [ConfigPtr, c_char_p, RuleFn, RuleFn, c_void_p, PayloadFree, POINTER(c_size_t), ErrorPtr],
        c_int,
        _check_status,
    ),
    "pathconfig_invalidate": ([ConfigPtr], c_int, _check_status),
    "pathconfig_request_url": ([RequestPtr], c_char_p, _check_borrowed_text),
    "pathconfig_request_method": ([RequestPtr], c_char_p, _check_borrowed_text),
    "pathconfig_request_properties": ([RequestPtr], c_char_p, _check_borrowed_text),
    "pathconfig_request_set_string": ([RequestPtr, c_char_p, c_char_p], c_int, _check_status),
    "pathconfig_request_set_int64": ([RequestPtr, c_char_p, c_int64], c_int, _check_status),
    "pathconfig_request_set_double": ([RequestPtr, c_char_p, c_double], c_int, _check_status),
    "pathconfig_request_set_bool": ([RequestPtr, c_char_p, c_int], c_int, _check_status),
    "pathconfig_request_set_header": ([RequestPtr, c_char_p, c_char_p], c_int, _check_status),
    "pathconfig_request_remove": ([RequestPtr, c_char_p], c_int, _check_status),
    "pathconfig_request_set_properties": ([RequestPtr, c_char_p], c_int, _check_status),
    "pathconfig_request_merge_properties": ([RequestPtr, c_char_p], c_int, _check_status),
    "pathconfig_request_fail": ([RequestPtr, c_char_p], c_int, _check_status),
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
    comes back as a :class:`NewResultAddress`, false for NULL), and no
    ``errcheck``: their callers check for NULL and raise the last error
    themselves. Only the lookup path (:mod:`pathconfig._result`) and what
    frees handles and strings by address (the owners, :class:`Handed`) use
    them; everything else goes through :data:`SIGNATURES`.
    """

    def __init__(self, library: ctypes.CDLL) -> None:
        self.resolve = self._declare(library, "pathconfig_resolve", NewResultAddress)
        self.result_id = self._declare(library, "pathconfig_result_id")
        self.result_json = self._declare(library, "pathconfig_result_json")
        self.result_release = self._declare(library, "pathconfig_result_release")
        self.release = self._declare(library, "pathconfig_release")
        self.loader_free = self._declare(library, "pathconfig_loader_free")
        self.string_free = self._declare(library, "pathconfig_string_free")

    def addresses(self) -> Tuple[int, int, int]:
        """The addresses of ``pathconfig_resolve``, ``pathconfig_result_id``
        and ``pathconfig_result_release``, for ``pathconfig._speedups.bind``."""
        return cast(
            Tuple[int, int, int],
            tuple(ctypes.cast(f, c_void_p).value for f in (self.resolve, self.result_id, self.result_release)),
        )

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
    """The address a handle points to (``Lookup`` takes addresses), 0 for
    NULL; read in place, since a ``ctypes.cast`` would keep a :class:`Handed`
    alive until the cycle collector runs."""
    return c_void_p.from_buffer(handle).value or 0


def result_handle(address: int) -> Any:
    """A ``ResultPtr`` for a result's address (from :class:`Lookup`)."""
    return ctypes.cast(address, ResultPtr)


lib, library_path = load_library()
_check_version(lib)
_bind(lib)
#: The lookup path's declarations (see :class:`Lookup`).
lookup = Lookup(lib)
