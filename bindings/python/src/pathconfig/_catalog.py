"""What the library knows, asked once per process: the profiles, the backends
built in and the typed keys (kind, allowed values and default per profile).

Nothing here is written down in Python: a profile, backend or typed key added
to the library appears in :data:`PROFILES`, :data:`BACKENDS` and
:data:`TYPED_KEYS` (and is read by :meth:`~pathconfig.Properties.typed`)
without a change to this package. The typed accessors of
:class:`~pathconfig.Properties` are declared in Python, for type checkers;
the test suite holds them to this catalog.
"""

from __future__ import annotations

import types
from typing import Dict, FrozenSet, Mapping, NamedTuple, Optional, Tuple, Union

from . import _ffi

_lib = _ffi.lib

TypedValue = Union[str, bool, None]


class TypedKey(NamedTuple):
    """One typed key, as ``pathconfig_typed_key_*`` describe it."""

    name: str
    """The key, e.g. ``"presentation"``."""
    kind: str
    """``"string"`` (any string, or ``None``), ``"bool"`` or ``"enum"`` (one of
    :attr:`values`); a kind newer than this binding is its number as text."""
    values: Mapping[str, Tuple[str, ...]]
    """By profile: the values an enum key allows (empty for the other kinds)."""
    defaults: Mapping[str, TypedValue]
    """By profile: what the accessor gives when the key is missing, mistyped or
    unknown."""


def _typed_key(i: int, profiles: Tuple[str, ...]) -> TypedKey:
    """The ``i``-th typed key (its ``PATHCONFIG_KEY_*`` number) as the
    catalog describes it under each profile."""
    number = _lib.pathconfig_typed_key_kind(i)
    kind = _ffi.TYPED_KINDS.get(number, str(number))
    values: Dict[str, Tuple[str, ...]] = {}
    defaults: Dict[str, TypedValue] = {}
    for profile in profiles:
        arg = profile.encode()
        count = _lib.pathconfig_typed_key_value_count(i, arg)
        values[profile] = tuple(_lib.pathconfig_typed_key_value(i, arg, j) for j in range(count))
        default: Optional[Union[str, bool]]
        if kind == "bool":
            default = _lib.pathconfig_typed_key_default_bool(i, arg)
        else:
            default = _lib.pathconfig_typed_key_default_string(i, arg)
        defaults[profile] = default
    return TypedKey(_lib.pathconfig_typed_key_name(i), kind, types.MappingProxyType(values),
                    types.MappingProxyType(defaults))


#: The profiles (``profile=`` values), the default first.
PROFILES: Tuple[str, ...] = tuple(_lib.pathconfig_profile_name(i) for i in range(_lib.pathconfig_profile_count()))

#: The platform of each profile, ``"ios"`` or ``"android"``.
PLATFORMS: Mapping[str, str] = types.MappingProxyType(
    {name: _lib.pathconfig_profile_platform(i) for i, name in enumerate(PROFILES)}
)

#: The regex backends built into the library (``backend=`` values), the default first.
BACKENDS: Tuple[str, ...] = tuple(_lib.pathconfig_backend_name(i) for i in range(_lib.pathconfig_backend_count()))

#: The typed keys by name, in the library's order.
TYPED_KEYS: Mapping[str, TypedKey] = types.MappingProxyType(
    {key.name: key for key in (_typed_key(i, PROFILES) for i in range(_lib.pathconfig_typed_key_count()))}
)

#: The ``PATHCONFIG_KEY_*`` number of each typed key, by name: what the
#: library's typed readers take.
KEY_INDEX: Mapping[str, int] = types.MappingProxyType({name: i for i, name in enumerate(TYPED_KEYS)})

#: The typed keys read as booleans (:meth:`Properties.typed` gives ``bool``).
BOOL_KEYS: FrozenSet[str] = frozenset(name for name, key in TYPED_KEYS.items() if key.kind == "bool")

#: The typed keys read as strings (enumerations and free strings).
STRING_KEYS: FrozenSet[str] = frozenset(TYPED_KEYS) - BOOL_KEYS


def warning_kind_name(kind: int) -> str:
    """The library's name of a warning kind, e.g. ``"duplicate-key"``."""
    return _lib.pathconfig_warning_kind_name(kind)  # type: ignore[no-any-return]
