"""The properties of one URL: a read-only mapping, the library's raw getters
and its typed accessors."""

from __future__ import annotations

import copy
import ctypes
import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterator, List, Optional, TypeVar, cast

from . import _ffi
from ._catalog import TYPED_KEYS, TypedValue
from ._errors import ConfigError, ErrorCode
from ._ffi import text_arg
from ._handle import OwnedHandle

_lib = _ffi.lib
_new = object.__new__
_NO_ENTRY = (None, None)

T = TypeVar("T")

# Results are shared: lookups that match the same rules get the same C result,
# whatever the URL. Each result's map is decoded once and kept here, keyed by
# the result's address, with a reference of our own (pathconfig_result_retain)
# so that the address cannot be reused while the entry lives. The oldest
# entries go first. A configuration has few distinct results (7 for the
# benchmark's 10 rules, 2,115 for its 10,000), but a thread may get its own
# copy of a result it meets often (another address), so the capacity is
# generous: a lookup whose map is not here decodes JSON, several times the
# cost of the lookup. Reads take no lock (one dict lookup is atomic);
# changes take _decoded_lock.
_DECODED_CAPACITY = 4096
_decoded: "OrderedDict[int, tuple[Any, Dict[str, Any]]]" = OrderedDict()
_decoded_lock = threading.Lock()


def _decoded_map(address: int) -> Dict[str, Any]:
    """The map of the result at ``address`` (a handle the caller holds),
    decoded once per distinct result. Callers must not change it."""
    entry = _decoded.get(address)
    if entry is not None:
        return entry[1]
    ptr = _ffi.result_handle(address)
    data: Dict[str, Any] = json.loads(_lib.pathconfig_result_json(ptr))
    held = _lib.pathconfig_result_retain(ptr)
    evicted = None
    with _decoded_lock:
        entry = _decoded.get(address)
        if entry is None:
            _decoded[address] = (held, data)
            held = None
            if len(_decoded) > _DECODED_CAPACITY:
                evicted = _decoded.popitem(last=False)[1][0]
        else:
            data = entry[1]
    if held is not None:
        _lib.pathconfig_result_free(held)
    if evicted is not None:
        _lib.pathconfig_result_free(evicted)
    return data


class Properties(OwnedHandle, Mapping[str, Any]):
    """The merged properties of one URL, from :meth:`PathConfiguration.properties`.

    A read-only :class:`~collections.abc.Mapping` of ``str`` to the values as
    the configuration wrote them, with their JSON types (``str``, ``int``,
    ``float``, ``bool``, ``None``, ``list``, ``dict``), in the order the keys
    first appeared in the matching rules. It compares equal to a ``dict`` with
    the same items, and ``dict(props)`` is an independent copy. Container
    values are returned as copies, so the mapping cannot be changed through
    them. ``str(props)`` is :attr:`json`, the text ``print`` shows in every
    host.

    One value of a given JSON type, named for its Python type: :meth:`get_str`,
    :meth:`get_bool`, :meth:`get_int`, :meth:`get_float` (``None`` when the key
    is absent or holds another type) and :meth:`get_json` (any value as JSON
    text).

    The typed accessors read the well-known keys the way the configuration's
    profile reads them: defaults apply when a key is missing, has the wrong
    type or an unknown value, and Android profiles read enumerations
    case-insensitively (``"POP"`` reads as ``"pop"``). Every key of
    :data:`pathconfig.TYPED_KEYS` (which the library lists) is an attribute,
    ``props.presentation``, and :meth:`typed` reads one by name.

    A result does not depend on its configuration: it stays valid after the
    configuration is closed. It holds a C handle, released by :meth:`close`,
    at the end of a ``with`` block, or when the object is garbage-collected;
    any use after that raises :class:`ClosedError`. It is safe to read from
    several threads.
    """

    # One is made per lookup, so what every instance starts with lives on the
    # class where it can: _own() is not called, and __init__ only refuses
    # direct use.
    # _ptr is the result's address (an int); _acquire() hands the functions
    # of the signature table a typed handle.
    _data: Optional[Dict[str, Any]]
    _free = staticmethod(_ffi.lookup.result_free)
    _closed = False

    def __init__(self) -> None:
        raise TypeError("Properties objects are made by PathConfiguration.properties()")

    @classmethod
    def _from_address(cls, address: int) -> "Properties":
        """Takes the reference to the result at ``address`` (not 0) that a
        lookup returned; the map comes from the decoded results when they
        hold it."""
        self = _new(cls)
        self._inflight = []
        self._ptr = address
        self._data = _decoded.get(address, _NO_ENTRY)[1]
        return self

    def _acquire(self) -> Any:
        return _ffi.result_handle(OwnedHandle._acquire(self))

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing, _free: Callable[[int], None] = _ffi.lookup.result_free) -> None:
        # OwnedHandle.__del__ without its bookkeeping: nothing can read this
        # object again, and this runs once per lookup.
        if not _finalizing():
            ptr = self.__dict__.get("_ptr")
            if ptr:
                _free(ptr)

    # --- mapping --------------------------------------------------------------

    def _values(self) -> Dict[str, Any]:
        """The whole map, parsed once from ``pathconfig_result_json``."""
        data = self._data
        if data is None or self._closed:
            address = OwnedHandle._acquire(self)
            try:
                data = _decoded_map(address)
            finally:
                self._done()
            self._data = data
        return data

    def __getitem__(self, key: str) -> Any:
        value = self._values()[key]
        return copy.deepcopy(value) if isinstance(value, (dict, list)) else value

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._values()))

    def __len__(self) -> int:
        data = self._data  # _values(), inline for the map already decoded
        return len(data if data is not None and not self._closed else self._values())

    def __contains__(self, key: object) -> bool:
        return key in self._values()

    def __repr__(self) -> str:
        if self._closed:
            return "<pathconfig.Properties (closed)>"
        return f"Properties({self._values()!r})"

    def __str__(self) -> str:
        return self.json

    @property
    def json(self) -> str:
        """The merged properties as compact JSON text, exactly as the library
        writes them (key order and number literals kept)."""
        return cast(str, self._call(_lib.pathconfig_result_json))

    # --- raw values: pathconfig_result_get_* ------------------------------------

    def _get(self, key: str, read: Callable[[Any, bytes], Optional[T]]) -> Optional[T]:
        """``read(res, key)`` while the handle is held (strings are borrowed
        from it): the value, or ``None`` when the key is absent or holds
        another JSON type (``PATHCONFIG_E_TYPE``)."""
        arg = text_arg(key, "key")

        def get(ptr: Any) -> Optional[T]:
            try:
                return read(ptr, arg)
            except ConfigError as exc:
                if exc.code == ErrorCode.E_TYPE:
                    return None
                raise

        return self._call(get)

    def get_str(self, key: str) -> Optional[str]:
        """The value of ``key`` when it is a JSON string, else ``None`` (as a
        ``PathRule`` subscript reads it on iOS); whole, U+0000 included
        (``pathconfig_result_get_string_len``)."""

        def read(ptr: Any, arg: bytes) -> Optional[str]:
            out, size = ctypes.c_char_p(), ctypes.c_size_t()
            if _lib.pathconfig_result_get_string_len(ptr, arg, ctypes.byref(out), ctypes.byref(size)) != _ffi.FOUND:
                return None
            # By address and length: c_char_p's own value would stop at a NUL.
            return ctypes.string_at(ctypes.c_void_p.from_buffer(out).value, size.value).decode("utf-8")

        return self._get(key, read)

    def get_bool(self, key: str) -> Optional[bool]:
        """The value of ``key`` when it is a JSON boolean, else ``None`` (the
        string ``"true"`` is not one; :meth:`typed` reads it as the apps do)."""
        return self._get(key, _scalar(_lib.pathconfig_result_get_bool, ctypes.c_int, bool))

    def get_int(self, key: str) -> Optional[int]:
        """The value of ``key`` when it is a JSON number written without
        fraction or exponent that fits in 64 bits, else ``None``."""
        return self._get(key, _scalar(_lib.pathconfig_result_get_int64, ctypes.c_int64, int))

    def get_float(self, key: str) -> Optional[float]:
        """The value of ``key`` when it is any JSON number, as the nearest
        ``float``, else ``None``."""
        return self._get(key, _scalar(_lib.pathconfig_result_get_double, ctypes.c_double, float))

    def get_json(self, key: str) -> Optional[str]:
        """Any value of ``key`` (objects, arrays and ``null`` included) as
        compact JSON text, exactly as written (``"1.50"`` stays ``1.50``);
        ``None`` when the key is absent."""
        return self._get(key, _scalar(_lib.pathconfig_result_get_json, ctypes.c_char_p, lambda b: b.decode("utf-8")))

    # --- typed accessors: pathconfig_result_typed_* ---------------------------

    def typed(self, key: str) -> TypedValue:
        """The typed value of ``key``, one of :data:`pathconfig.TYPED_KEYS`:
        a ``bool`` for the bool keys, else a ``str`` (or ``None`` when the key
        has no value and no default). Another key raises :class:`ConfigError`
        (``E_ARGUMENT``, a :class:`ValueError`) with the library's message."""
        arg = text_arg(key, "key")
        info = TYPED_KEYS.get(key)
        if info is not None and info.kind == "bool":
            return cast(bool, self._call(_lib.pathconfig_result_typed_bool, arg))
        return cast(Optional[str], self._call(_lib.pathconfig_result_typed_string, arg))

    def __getattr__(self, name: str) -> TypedValue:
        """The typed keys as attributes: ``props.presentation`` is
        ``props.typed("presentation")``."""
        if name in TYPED_KEYS:
            return self.typed(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(TYPED_KEYS))


def _scalar(getter: Callable[..., int], out_type: Any, convert: Callable[[Any], T]) -> Callable[[Any, bytes], Optional[T]]:
    """A reader for :meth:`Properties._get` over ``getter(res, key, &out)``:
    ``out`` converted when the key is found, else ``None``."""

    def read(ptr: Any, arg: bytes) -> Optional[T]:
        out = out_type()
        return convert(out.value) if getter(ptr, arg, ctypes.byref(out)) == _ffi.FOUND else None

    return read
