"""Python objects the library holds for a while: a loader's callback, a rule's
predicate and configurer.

C keeps a ``void *`` (a loader's payload, a rule's context) and calls one
free function with it once it no longer needs it. Here that pointer is a key
into :data:`_held`, and :data:`FREE` is the one free function every
registration names: it drops the key, and with it the last reference the
binding keeps. So a Python object stays alive exactly as long as C may use it,
and no other state is kept.

Every function C calls back is wrapped by :func:`deferring`, which says what
becomes of an exception raised before it returns, a signal handler's due as
the call starts among them; :data:`FREE` is C's own with the extension.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Dict, Optional, cast

from . import _ffi
from ._result import _speedups

#: The objects the library may still use, by the key it was given.
_held: Dict[int, Any] = {}
_keys = itertools.count(1)


def hold(obj: Any) -> int:
    """Keeps ``obj`` until the library calls :data:`FREE` with the returned
    key (pass the key as the payload or context)."""
    key = next(_keys)
    _held[key] = obj
    return key


def held(key: Optional[int]) -> Any:
    """The object held under ``key`` (``None`` when there is none)."""
    return None if key is None else _held.get(key)


def holds(test: Callable[[Any], bool]) -> bool:
    """Whether the library may still use an object for which ``test`` is true."""
    return any(test(obj) for obj in list(_held.values()))


def release(key: Optional[int]) -> None:
    """Drops ``key`` (the library is done with it, or never took it)."""
    if key is not None:
        _held.pop(key, None)


def deferring(func: Callable[..., Any], on_raise: Callable[..., Any]) -> Callable[..., Any]:
    """``func``, in the form to hand ctypes for C to call back.

    CPython runs pending signal handlers at the entry of a Python function,
    and after a long call into the library the first one is often the
    callback: an exception a handler raises there (Ctrl-C's
    ``KeyboardInterrupt``) would be reported as unraisable by ctypes, and
    the call dropped. Whatever is raised before ``func`` returns goes to
    ``on_raise(exc, ran, *args)`` (``ran``: ``False`` when ``func`` was not
    called), whose result is the call's. With the C extension the handlers
    run first, in C (``_speedups.Deferring``); through ctypes alone there
    is no place before the entry, and only what ``func`` raises is handed
    on."""
    if _speedups is not None:
        return cast(Callable[..., Any], _speedups.Deferring(func, on_raise))
    return _Deferring(func, on_raise)


class _Deferring:
    """``_speedups.Deferring`` through ctypes alone: what ``func`` raises
    goes to ``on_raise``; named by ``func`` in ctypes' reports."""

    __slots__ = ("func", "on_raise")

    def __init__(self, func: Callable[..., Any], on_raise: Callable[..., Any]) -> None:
        self.func = func
        self.on_raise = on_raise

    def __call__(self, *args: Any) -> Any:
        try:
            return self.func(*args)
        except BaseException as exc:
            return self.on_raise(exc, True, *args)

    def __repr__(self) -> str:
        return repr(self.func)


def _release_interrupted(exc: BaseException, ran: bool, key: Optional[int]) -> None:
    release(key)
    raise exc  # reported by ctypes: a free has no caller to raise it in


#: ``pathconfig_loader_payload_free`` and ``pathconfig_add_rule``'s
#: ``free_context``; lives as long as the module. With the C extension, a C
#: function that drops the key without entering Python code, so that a
#: signal handler cannot strike there (the library frees a configuration's
#: callbacks as the configuration goes): ``_speedups.bind_payloads``.
FREE = _ffi.PayloadFree(
    _speedups.bind_payloads(_held) if _speedups is not None else deferring(release, _release_interrupted)
)
