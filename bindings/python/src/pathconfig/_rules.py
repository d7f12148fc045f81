"""Rules added from code: the :class:`Request` a predicate or configurer
receives, the rule as JSON, the trampolines, and how a callable's exception
reaches the lookup that ran it.

The trampolines. :func:`add` holds the rule's callables with
:func:`pathconfig._callbacks.hold` and passes the key as the rule's
``context``, with :data:`pathconfig._callbacks.FREE` as its
``free_context``: the library calls that once the configuration is freed
(or at once when it refuses the rule), and only then are the callables
dropped, as a loader's callback is (:mod:`pathconfig._events`). The two C
function pointers, :data:`_PREDICATE` and :data:`_CONFIGURER`, are made once
and find the callables by that key.

Exceptions. No exception crosses into C: a trampoline catches whatever the
callable raises (``BaseException`` included), keeps it in a thread-local slot,
tells the library why with ``pathconfig_request_fail(repr(exc))`` and returns
-1. The lookup then fails with ``PATHCONFIG_E_CALLBACK`` (and memoises
nothing); :func:`host_exceptions`, around every lookup, raises the kept
exception in its place, chained from the library's :class:`CallbackError`.
Callbacks run on the thread that resolves, so the slot of that thread is
the one its lookup reads; a lookup made from inside a callable empties the
slot before the outer trampoline fills it. A signal handler's exception due
as a trampoline starts (Ctrl-C during the library's search) fails the
request the same way, the callable not run
(:func:`pathconfig._callbacks.deferring`).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, NoReturn, Optional, cast

from . import _callbacks, _ffi
from ._errors import CallbackError, ErrorCode, MisuseError
from ._ffi import text_arg as _c_text

_lib = _ffi.lib


@dataclass(frozen=True)
class Request:
    """The lookup a rule's predicate or configurer is called for.

    ``str(request)`` is ``"METHOD URL"``. Two requests are equal when their
    URL and method are.

    In a configurer, its methods change the properties merged so far, through
    the library's setters: each takes a value (never JSON text), so a value
    such as ``'abc", "X-Admin": "true'`` is stored as that string, in one
    place. The typed setters are named for the Python type they take, as the
    getters of :class:`Properties` are: :meth:`set_str`, :meth:`set_int`,
    :meth:`set_float`, :meth:`set_bool`; :meth:`set_header` sets one HTTP
    header under ``"headers"``; :meth:`remove` removes a key;
    :meth:`set_properties` replaces them all with a mapping and
    :meth:`merge_properties` applies one as a JSON Merge Patch (both
    serialised with :func:`json.dumps`). Each change applies at once, and
    the next :meth:`properties` shows it.

    Called from a predicate, which may not change anything, they raise
    :class:`MisuseError` (the library's ``E_MISUSE``); called after the
    callback returned, they raise :class:`MisuseError` too.
    """

    url: str
    """The URL as a request would be made: an input without a scheme resolved
    against the ``base_url`` option, the scheme lower-cased, characters a URL
    may not hold percent-encoded, a host beyond ASCII IDNA-encoded (the C
    header's ``pathconfig_request_url`` says exactly)."""
    method: str
    """The HTTP method, upper-cased (``"GET"`` when the lookup named none)."""
    _ptr: Any = field(default=None, init=False, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.method} {self.url}"

    def _live(self) -> Any:
        """The C request, or :class:`MisuseError` once its callback returned."""
        ptr = self._ptr
        if ptr is None:
            raise MisuseError(
                "a Request changes properties only while its rule's configurer runs", ErrorCode.E_MISUSE
            )
        return ptr

    def properties(self) -> Dict[str, Any]:
        """The properties merged so far, this rule's fixed ``properties`` and
        every change made so far included, as a new ``dict`` (configurer
        only: a predicate gets :class:`MisuseError`)."""
        return cast(Dict[str, Any], json.loads(_lib.pathconfig_request_properties(self._live())))

    def set_str(self, key: str, value: str) -> None:
        """Sets ``key`` to the string ``value``."""
        _lib.pathconfig_request_set_string(self._live(), _c_text(key, "key"), _c_text(value, "value"))

    def set_int(self, key: str, value: int) -> None:
        """Sets ``key`` to the integer ``value`` (64 bits: a larger one raises
        :class:`OverflowError`)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"value must be int, not {type(value).__name__} (set_bool sets a boolean)")
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise OverflowError(f"value {value} does not fit in 64 bits")
        _lib.pathconfig_request_set_int64(self._live(), _c_text(key, "key"), value)

    def set_float(self, key: str, value: float) -> None:
        """Sets ``key`` to the number ``value`` (an ``int`` is taken as a
        ``float``; NaN and the infinities, which JSON lacks, raise
        :class:`ConfigError`, ``E_ARGUMENT``)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"value must be float, not {type(value).__name__}")
        _lib.pathconfig_request_set_double(self._live(), _c_text(key, "key"), float(value))

    def set_bool(self, key: str, value: bool) -> None:
        """Sets ``key`` to ``true`` or ``false``."""
        if not isinstance(value, bool):
            raise TypeError(f"value must be bool, not {type(value).__name__}")
        _lib.pathconfig_request_set_bool(self._live(), _c_text(key, "key"), int(value))

    def set_header(self, name: str, value: str) -> None:
        """Sets the HTTP header ``name`` to ``value``: the string under
        ``name`` in the object ``"headers"`` (made an object first when it
        is absent or not one), the other headers kept."""
        _lib.pathconfig_request_set_header(self._live(), _c_text(name, "name"), _c_text(value, "value"))

    def remove(self, key: str) -> None:
        """Removes ``key`` (nothing happens when it is absent)."""
        _lib.pathconfig_request_remove(self._live(), _c_text(key, "key"))

    def set_properties(self, properties: Mapping[str, Any]) -> None:
        """Replaces the properties merged so far with ``properties`` (a
        mapping, serialised with :func:`json.dumps`; NaN and infinities raise
        :class:`ValueError`)."""
        if not isinstance(properties, Mapping):
            raise TypeError(f"properties must be a mapping (a dict), not {type(properties).__name__}")
        _lib.pathconfig_request_set_properties(self._live(), _json_arg(properties))

    def merge_properties(self, patch: Mapping[str, Any]) -> None:
        """Applies ``patch`` (a mapping, serialised with :func:`json.dumps`)
        as a JSON Merge Patch (RFC 7396): nested objects merge key by key,
        ``None`` removes a key."""
        if not isinstance(patch, Mapping):
            raise TypeError(f"patch must be a mapping (a dict), not {type(patch).__name__}")
        _lib.pathconfig_request_merge_properties(self._live(), _json_arg(patch))


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


#: ``predicate(request)``: true when the rule applies.
Predicate = Callable[[Request], Any]
#: ``configurer(request, properties)``: changes the properties through the
#: request's setters, or changes the dict in place, or returns the
#: properties to use instead (a mapping).
Configurer = Callable[[Request, Dict[str, Any]], Optional[Mapping[str, Any]]]


# --- the rule as JSON ---------------------------------------------------------------


def _strings(value: Optional[Sequence[str]], what: str) -> Optional[List[str]]:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{what} must be a sequence of str (a list), not {type(value).__name__}")
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"{what} must hold str, not {type(item).__name__}")
    return list(value)


def rule_json(
    patterns: Optional[Sequence[str]],
    globs: Optional[Sequence[str]],
    methods: Optional[Sequence[str]],
    properties: Optional[Mapping[str, Any]],
    description: Optional[str],
) -> bytes:
    """``add_rule``'s ``rule_json``: the keys given, checked for type only
    (the library checks the values: patterns, globs, methods)."""
    rule: Dict[str, Any] = {}
    for key, value in (("patterns", patterns), ("globs", globs), ("methods", methods)):
        strings = _strings(value, key)
        if strings is not None:
            rule[key] = strings
    if properties is not None:
        if not isinstance(properties, Mapping):
            raise TypeError(f"properties must be a mapping (a dict), not {type(properties).__name__}")
        rule["properties"] = dict(properties)
    if description is not None:
        if not isinstance(description, str):
            raise TypeError(f"description must be str or None, not {type(description).__name__}")
        rule["description"] = description
    return _json_arg(rule)


def _json_arg(value: Mapping[str, Any]) -> bytes:
    """``value`` as ASCII JSON (a NUL or lone surrogate travels escaped);
    NaN and infinities, which JSON lacks, raise :class:`ValueError`."""
    return json.dumps(value, allow_nan=False).encode("ascii")


# --- the trampolines -------------------------------------------------------------------


class _HostRule:
    """What one rule's context holds: its Python callables."""

    def __init__(self, predicate: Optional[Predicate], configurer: Optional[Configurer], owner: str) -> None:
        self.predicate = predicate
        self.configurer = configurer
        self.owner = owner

    def __repr__(self) -> str:
        return f"<rule callables predicate={self.predicate!r} configurer={self.configurer!r} of {self.owner}>"


#: The exception a callable raised during the current lookup, per thread.
_failure = threading.local()


def _request(ptr: Any) -> Request:
    """The :class:`Request` for the C request ``ptr``, live (its setters
    work) until :func:`_run` ends it."""
    request = Request(url=_lib.pathconfig_request_url(ptr), method=_lib.pathconfig_request_method(ptr))
    object.__setattr__(request, "_ptr", ptr)
    return request


def _describe(exc: BaseException) -> bytes:
    try:
        text = repr(exc)
    except BaseException:  # a __repr__ that raises
        text = f"{type(exc).__qualname__} (repr() failed)"
    return text.replace("\0", "\\0").encode("utf-8", "backslashreplace")


def _run(key: Optional[int], ptr: Any, body: Callable[[_HostRule, Request], int]) -> int:
    """``body(rule, request)``; anything it raises is kept for the lookup and
    reported to the library as a failure (-1). The request is ended when it
    returns: the C request is only borrowed for the call."""
    request: Optional[Request] = None
    try:
        request = _request(ptr)
        return body(_callbacks.held(key), request)
    except BaseException as exc:
        return _fail(exc, ptr)
    finally:
        if request is not None:
            object.__setattr__(request, "_ptr", None)


def _fail(exc: BaseException, ptr: Any) -> int:
    """The request fails with ``exc``, which the lookup raises."""
    _failure.exception = exc
    try:
        _lib.pathconfig_request_fail(ptr, _describe(exc))
    except BaseException:  # pragma: no cover - only for a NULL request
        pass
    return -1


def _predicate(rule: _HostRule, request: Request) -> int:
    assert rule.predicate is not None
    return 1 if rule.predicate(request) else 0


def _configure(rule: _HostRule, request: Request) -> int:
    """Runs the configurer. Its changes through the request's setters are
    already applied; a mapping it returns, or the dict it was given when
    changed in place (its JSON differs from what it was given), then
    replaces the properties (``pathconfig_request_set_properties``)."""
    assert rule.configurer is not None
    properties = request.properties()
    given = _json_arg(properties)
    returned = rule.configurer(request, properties)
    if returned is not None:
        if not isinstance(returned, Mapping):
            raise TypeError(f"a configurer returns a dict or None, not {type(returned).__name__}")
        request.set_properties(returned)
    else:
        text = _json_arg(properties)
        if text != given:
            _lib.pathconfig_request_set_properties(request._live(), text)
    return 0


def _interrupted(exc: BaseException, ran: bool, key: Optional[int], ptr: Any) -> int:
    """What a signal handler raised as a trampoline started, or in it
    outside the callable (:func:`pathconfig._callbacks.deferring`): the
    request fails with it, as with the callable's own exception."""
    return _fail(exc, ptr)


#: The C function pointers of every rule's callables; live as long as the module.
_PREDICATE = _ffi.RuleFn(_callbacks.deferring(lambda key, ptr: _run(key, ptr, _predicate), _interrupted))
_CONFIGURER = _ffi.RuleFn(_callbacks.deferring(lambda key, ptr: _run(key, ptr, _configure), _interrupted))
#: NULL function pointers (ctypes takes no None for a CFUNCTYPE argument).
_NO_RULE_FN = _ffi.RuleFn()
_NO_FREE = _ffi.PayloadFree()


def add(
    ptr: Any,
    rule: bytes,
    predicate: Optional[Predicate],
    configurer: Optional[Configurer],
    owner: str,
) -> int:
    """``pathconfig_add_rule`` with the callables given (kept until the
    library frees the rule's context); the rule's index."""
    for name, value in (("predicate", predicate), ("configurer", configurer)):
        if value is not None and not callable(value):
            raise TypeError(f"{name} must be callable or None, not {type(value).__name__}")
    err = _ffi.ErrorStruct()
    index = ctypes.c_size_t()
    if predicate is None and configurer is None:
        _lib.pathconfig_add_rule(ptr, rule, _NO_RULE_FN, _NO_RULE_FN, None, _NO_FREE, ctypes.byref(index), err)
        return index.value
    key = _callbacks.hold(_HostRule(predicate, configurer, owner))
    try:
        _lib.pathconfig_add_rule(
            ptr,
            rule,
            _NO_RULE_FN if predicate is None else _PREDICATE,
            _NO_RULE_FN if configurer is None else _CONFIGURER,
            key,
            _callbacks.FREE,
            ctypes.byref(index),
            err,
        )
    except BaseException:
        _callbacks.release(key)  # the library freed it already, or never took it
        raise
    return index.value


def reraise(exc: CallbackError) -> NoReturn:
    """After a lookup failed with ``exc``: raises the exception of the Python
    callable that caused it (chained from ``exc``), or ``exc`` itself when no
    Python callable failed (a C host's). Clears the thread's record."""
    original = getattr(_failure, "exception", None)
    _failure.exception = None
    if original is None:
        raise exc
    raise original from exc


@contextlib.contextmanager
def host_exceptions() -> Iterator[None]:
    """Around a lookup: a :class:`CallbackError` caused by a Python callable
    becomes that callable's own exception, chained from it."""
    _failure.exception = None
    try:
        yield
    except CallbackError as exc:
        original = _failure.exception
        if original is None:
            raise
        _failure.exception = None
        raise original from exc
    finally:
        _failure.exception = None
