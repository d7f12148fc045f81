"""What the library knows, asked once per process: the profiles and their
apps' release lines, the backends built in and the typed keys (kind, allowed
values and default per profile).

Nothing here is written down in Python: a profile, release line, backend or
typed key added to the library appears in :data:`PROFILES`, :data:`RELEASES`,
:data:`BACKENDS` and :data:`TYPED_KEYS` (and is read by
:meth:`~pathconfig.Properties.typed`) without a change to this package.
The typed accessors of :class:`~pathconfig.Properties` are declared in
Python, for type checkers; the test suite holds them to this catalog.
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


class Release(NamedTuple):
    """One release line of a profile's app, as ``pathconfig_profile_release_*``
    describe it: a run of tagged releases that read a configuration alike, or
    the app's main branch (docs/app-versions.md)."""

    name: str
    """The name ``profile=`` takes for the line: the app, ``@`` and the
    line's first tag (``"hotwire-ios@1.2.0"``), or ``"APP@main"``."""
    profile: str
    """The app's profile, one of :data:`PROFILES` (``"hotwire-ios"``)."""
    tags: Tuple[str, ...]
    """Every tag of the line, oldest first; each also names the line after
    ``@`` (``"hotwire-ios@1.2.2"``). Empty for the main branch."""
    commit: str
    """The upstream commit (abbreviated) that made the line read files as it
    does; for the main branch, the commit it models."""


def _releases(i: int, profile: str) -> Tuple[Release, ...]:
    """The release lines of the ``i``-th profile, in the library's order
    (oldest first, the main branch last)."""
    return tuple(
        Release(
            _lib.pathconfig_profile_release_name(i, j),
            profile,
            tuple(_lib.pathconfig_profile_release_tags(i, j).split()),
            _lib.pathconfig_profile_release_commit(i, j),
        )
        for j in range(_lib.pathconfig_profile_release_count(i))
    )


_RELEASE_LINES: Dict[str, Tuple[Release, ...]] = {name: _releases(i, name) for i, name in enumerate(PROFILES)}

#: By profile, the names of its app's release lines (``profile=`` values
#: such as ``"hotwire-ios@1.2.0"`` and ``"hotwire-ios@main"``), in the
#: library's order: oldest first, the main branch last. Any tag of a line
#: (:data:`RELEASE_LINES`) names it too.
RELEASES: Mapping[str, Tuple[str, ...]] = types.MappingProxyType(
    {name: tuple(r.name for r in lines) for name, lines in _RELEASE_LINES.items()}
)

#: Each release line by its name (a value of :data:`RELEASES`): its
#: profile, tags and commit.
RELEASE_LINES: Mapping[str, Release] = types.MappingProxyType(
    {r.name: r for lines in _RELEASE_LINES.values() for r in lines}
)

#: By profile, the release line its bare name reads as (the app's latest
#: stable release, ``pathconfig_profile_default_release``): ``"hotwire-ios"``
#: answers as ``DEFAULT_RELEASES["hotwire-ios"]`` does.
DEFAULT_RELEASES: Mapping[str, str] = types.MappingProxyType(
    {name: RELEASES[name][_lib.pathconfig_profile_default_release(i)] for i, name in enumerate(PROFILES)}
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
