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
slot before the outer trampoline fills it.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, NoReturn, Optional

from . import _callbacks, _ffi
from ._errors import CallbackError

_lib = _ffi.lib


@dataclass(frozen=True)
class Request:
    """The lookup a rule's predicate or configurer is called for.

    ``str(request)`` is ``"METHOD URL"``.
    """

    url: str
    """The URL as a request would be made: an input without a scheme resolved
    against the ``base_url`` option, the scheme lower-cased, characters a URL
    may not hold percent-encoded, a host beyond ASCII IDNA-encoded (the C
    header's ``pathconfig_request_url`` says exactly)."""
    method: str
    """The HTTP method, upper-cased (``"GET"`` when the lookup named none)."""

    def __str__(self) -> str:
        return f"{self.method} {self.url}"


#: ``predicate(request)``: true when the rule applies.
Predicate = Callable[[Request], Any]
#: ``configurer(request, properties)``: changes the dict in place and returns
#: ``None``, or returns the properties to use instead.
Configurer = Callable[[Request, Dict[str, Any]], Optional[Mapping]]  # type: ignore[type-arg]


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
    properties: Optional[Mapping],  # type: ignore[type-arg]
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


def _json_arg(value: Mapping) -> bytes:  # type: ignore[type-arg]
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
    return Request(url=_lib.pathconfig_request_url(ptr), method=_lib.pathconfig_request_method(ptr))


def _describe(exc: BaseException) -> bytes:
    try:
        text = repr(exc)
    except BaseException:  # a __repr__ that raises
        text = f"{type(exc).__qualname__} (repr() failed)"
    return text.replace("\0", "\\0").encode("utf-8", "backslashreplace")


def _run(key: Optional[int], ptr: Any, body: Callable[[_HostRule, Any], int]) -> int:
    """``body(rule, request)``; anything it raises is kept for the lookup and
    reported to the library as a failure (-1)."""
    try:
        return body(_callbacks.held(key), ptr)
    except BaseException as exc:
        _failure.exception = exc
        try:
            _lib.pathconfig_request_fail(ptr, _describe(exc))
        except BaseException:  # pragma: no cover - only for a NULL request
            pass
        return -1


def _predicate(rule: _HostRule, ptr: Any) -> int:
    assert rule.predicate is not None
    return 1 if rule.predicate(_request(ptr)) else 0


def _configure(rule: _HostRule, ptr: Any) -> int:
    assert rule.configurer is not None
    properties = json.loads(_lib.pathconfig_request_properties(ptr))
    returned = rule.configurer(_request(ptr), properties)
    result = properties if returned is None else returned
    if not isinstance(result, Mapping):
        raise TypeError(f"a configurer returns a dict or None, not {type(result).__name__}")
    _lib.pathconfig_request_set_properties(ptr, _json_arg(result))
    return 0


#: The C function pointers of every rule's callables; live as long as the module.
_PREDICATE = _ffi.RuleFn(lambda key, ptr: _run(key, ptr, _predicate))
_CONFIGURER = _ffi.RuleFn(lambda key, ptr: _run(key, ptr, _configure))
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
    if predicate is None and configurer is None:
        return int(_lib.pathconfig_add_rule(ptr, rule, _NO_RULE_FN, _NO_RULE_FN, None, _NO_FREE, err))
    key = _callbacks.hold(_HostRule(predicate, configurer, owner))
    try:
        return int(
            _lib.pathconfig_add_rule(
                ptr,
                rule,
                _NO_RULE_FN if predicate is None else _PREDICATE,
                _NO_RULE_FN if configurer is None else _CONFIGURER,
                key,
                _callbacks.FREE,
                err,
            )
        )
    except BaseException:
        _callbacks.release(key)  # the library freed it already, or never took it
        raise


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
