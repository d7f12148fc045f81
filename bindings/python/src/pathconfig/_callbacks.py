"""Python objects the library holds for a while: a loader's callback, a rule's
predicate and configurer.

C keeps a ``void *`` (a loader's payload, a rule's context) and calls one
free function with it once it no longer needs it. Here that pointer is a key
into :data:`_held`, and :data:`FREE` is the one free function every
registration names: it drops the key, and with it the last reference the
binding keeps. So a Python object stays alive exactly as long as C may use it,
and no other state is kept.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Dict, Optional

from . import _ffi

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


#: ``pathconfig_loader_payload_free`` and ``pathconfig_add_rule``'s
#: ``free_context``; lives as long as the module.
FREE = _ffi.PayloadFree(release)
