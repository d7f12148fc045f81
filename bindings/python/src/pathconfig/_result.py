"""The properties of one URL: a read-only mapping with typed accessors."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any, Dict, Iterator, Optional, Union, cast

from . import _ffi
from ._handle import OwnedHandle

_lib = _ffi.lib

#: Typed keys read as strings (enumerations, then free strings).
STRING_KEYS = frozenset(
    {
        "context",
        "presentation",
        "modal_style",
        "query_string_presentation",
        "view_controller",
        "title",
        "uri",
        "fallback_uri",
    }
)
#: Typed keys read as booleans.
BOOL_KEYS = frozenset(
    {
        "pull_to_refresh_enabled",
        "modal_dismiss_gesture_enabled",
        "animated",
        "historical_location",
    }
)
TYPED_KEYS = STRING_KEYS | BOOL_KEYS


class Properties(OwnedHandle, Mapping[str, Any]):
    """The merged properties of one URL, from :meth:`PathConfiguration.resolve`.

    A read-only :class:`~collections.abc.Mapping` of ``str`` to the values as
    the configuration wrote them, with their JSON types (``str``, ``int``,
    ``float``, ``bool``, ``None``, ``list``, ``dict``), in the order the keys
    first appeared in the matching rules. It compares equal to a ``dict`` with
    the same items, and ``dict(props)`` is an independent copy. Container
    values are returned as copies, so the mapping cannot be changed through
    them.

    The typed accessors (:attr:`context`, :attr:`presentation`, ...) read the
    well-known keys the way the configuration's profile reads them: defaults
    apply when a key is missing, has the wrong type or an unknown value, and
    Android profiles read enumerations case-insensitively (``"POP"`` reads as
    ``"pop"``).

    A result does not depend on its configuration: it stays valid after the
    configuration is closed. It holds a C handle, released by :meth:`close`,
    at the end of a ``with`` block, or when the object is garbage-collected;
    any use after that raises :class:`ClosedError`. It is safe to read from
    several threads.
    """

    _data: Optional[Dict[str, Any]]

    def __init__(self) -> None:
        raise TypeError("Properties objects are made by PathConfiguration.resolve()")

    @classmethod
    def _wrap(cls, ptr: Any) -> "Properties":
        self = cls.__new__(cls)
        self._data = None
        self._own(ptr, _lib.pathconfig_result_free)
        return self

    # --- mapping --------------------------------------------------------------

    def _values(self) -> Dict[str, Any]:
        data = self._data
        if data is None or self._closed:
            data = json.loads(self._call(_lib.pathconfig_result_json))
            self._data = data
        return data

    def __getitem__(self, key: str) -> Any:
        value = self._values()[key]
        return copy.deepcopy(value) if isinstance(value, (dict, list)) else value

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._values()))

    def __len__(self) -> int:
        return len(self._values())

    def __contains__(self, key: object) -> bool:
        return key in self._values()

    def __repr__(self) -> str:
        if self._closed:
            return "<pathconfig.Properties (closed)>"
        return f"Properties({self._values()!r})"

    @property
    def json(self) -> str:
        """The merged properties as compact JSON text, exactly as the library
        writes them (key order and number literals kept)."""
        return cast(str, self._call(_lib.pathconfig_result_json))

    def get_string(self, key: str) -> Optional[str]:
        """The value of ``key`` when it is a JSON string, else ``None`` (as a
        ``PathRule`` subscript reads it on iOS)."""
        if not isinstance(key, str):
            raise TypeError(f"key must be str, not {type(key).__name__}")
        value = self._values().get(key)
        return value if isinstance(value, str) else None

    def typed(self, key: str) -> Union[str, bool, None]:
        """The typed value of any of :data:`TYPED_KEYS` (what the accessor of
        the same name returns)."""
        if not isinstance(key, str):
            raise TypeError(f"key must be str, not {type(key).__name__}")
        if key in BOOL_KEYS:
            return cast(bool, self._call(_lib.pathconfig_result_typed_bool, key.encode()))
        if key in STRING_KEYS:
            return cast(Optional[str], self._call(_lib.pathconfig_result_typed_string, key.encode()))
        raise ValueError(f"{key!r} is not a typed key; typed keys are {', '.join(sorted(TYPED_KEYS))}")

    # --- typed accessors ------------------------------------------------------

    @property
    def context(self) -> str:
        """``"default"`` or ``"modal"`` (default ``"default"``)."""
        return self._call(_lib.pathconfig_result_context)  # type: ignore[no-any-return]

    @property
    def presentation(self) -> str:
        """``"default"``, ``"pop"``, ``"replace"``, ``"refresh"``,
        ``"clear_all"``, ``"replace_root"``, ``"none"`` (Android adds
        ``"push"``); default ``"default"``."""
        return self._call(_lib.pathconfig_result_presentation)  # type: ignore[no-any-return]

    @property
    def modal_style(self) -> str:
        """``"medium"``, ``"large"``, ``"full"``, ``"page_sheet"``,
        ``"form_sheet"``; default ``"large"``."""
        return self._call(_lib.pathconfig_result_modal_style)  # type: ignore[no-any-return]

    @property
    def query_string_presentation(self) -> str:
        """``"default"`` or ``"replace"`` (default ``"default"``)."""
        return self._call(_lib.pathconfig_result_query_string_presentation)  # type: ignore[no-any-return]

    @property
    def view_controller(self) -> Optional[str]:
        """Any string; default ``"web"`` on iOS, ``None`` on Android."""
        return self._call(_lib.pathconfig_result_view_controller)  # type: ignore[no-any-return]

    @property
    def title(self) -> Optional[str]:
        """Any string, or ``None``."""
        return self._call(_lib.pathconfig_result_title)  # type: ignore[no-any-return]

    @property
    def uri(self) -> Optional[str]:
        """Any string, or ``None``."""
        return self._call(_lib.pathconfig_result_uri)  # type: ignore[no-any-return]

    @property
    def fallback_uri(self) -> Optional[str]:
        """Any string, or ``None``."""
        return self._call(_lib.pathconfig_result_fallback_uri)  # type: ignore[no-any-return]

    @property
    def pull_to_refresh_enabled(self) -> bool:
        """Default ``True`` on iOS, ``False`` on Android."""
        return self._call(_lib.pathconfig_result_pull_to_refresh_enabled)  # type: ignore[no-any-return]

    @property
    def modal_dismiss_gesture_enabled(self) -> bool:
        """Default ``True``."""
        return self._call(_lib.pathconfig_result_modal_dismiss_gesture_enabled)  # type: ignore[no-any-return]

    @property
    def animated(self) -> bool:
        """Default ``True``."""
        return self._call(_lib.pathconfig_result_animated)  # type: ignore[no-any-return]

    @property
    def historical_location(self) -> bool:
        """True for the historical-location routes; default ``False``."""
        return self._call(_lib.pathconfig_result_historical_location)  # type: ignore[no-any-return]
