"""The properties of one URL: a read-only mapping, the library's raw getters
and its typed accessors."""

from __future__ import annotations

import copy
import ctypes
import json
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, TypeVar, cast

from . import _ffi
from ._catalog import TYPED_KEYS, TypedValue
from ._errors import ClosedError, ConfigError, ErrorCode
from ._ffi import text_arg

_lib = _ffi.lib
_lookup = _ffi.lookup
_get_ident = threading.get_ident

T = TypeVar("T")

# Results are shared: lookups that match the same rules get the same C result,
# or one of the same JSON text (a thread's own copy of a result it meets
# often), whatever the URL. Each text's map is decoded once and kept here,
# keyed by the address of the result's JSON text (pathconfig_result_json: the
# same pointer for a result and its copies), in a _Result that holds a
# reference on one of those results, so that the text cannot be freed, nor its
# address reused, while the entry lives. The oldest entries go first. The
# capacity is generous (4,096 texts, a few KiB each at most): there are more
# texts than distinct maps (different sets of matching rules can merge to the
# same properties: the benchmark's 1,000 rules give 334 maps from 600 sets),
# and a lookup whose text is not here takes a reference, and its first reader
# decodes JSON, several times the cost of a lookup. Reads take no lock (one
# dict lookup is atomic); changes take _decoded_lock.
_DECODED_CAPACITY = 4096
_decoded: "OrderedDict[int, _Result]" = OrderedDict()
_decoded_lock = threading.Lock()


class _Result:
    """One C result, a reference to it, and its map once decoded: what every
    :class:`Properties` of that result shares. The reference goes with the
    last of them and the cache entry."""

    __slots__ = ("address", "data")

    def __init__(self, address: int) -> None:
        self.address = address
        # Decoded on first use: a result nobody reads costs no JSON decoding.
        # Two threads may both decode it; either map is the same.
        self.data: Optional[Dict[str, Any]] = None

    def map(self) -> Dict[str, Any]:
        """The properties, decoded from the library's JSON on first use."""
        data = self.data
        if data is None:
            data = self.data = json.loads(_lookup.result_json(self.address))
        return data

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing, _free: Callable[[int], None] = _ffi.lookup.result_free) -> None:
        # At shutdown module state may be gone, and the process frees all.
        if not _finalizing():
            _free(self.address)


def _shared(address: int, owned: bool, key: Optional[int] = None) -> _Result:
    """The shared result for the result at ``address``: the cached one of
    its JSON text (``key``, its address, when the caller has it), or a new
    one holding a reference of its own (the caller's when ``owned``, which is
    then taken; else one taken here, so the caller's must be valid for this
    call). Raises the last error when the library cannot make the text
    (``E_NOMEM``)."""
    if key is None:
        key = _lookup.result_text(address)
    if not key:
        if owned:
            _lookup.result_free(address)
        raise _ffi.last_error()
    entry = _decoded.get(key)
    if entry is not None:
        if owned:
            _lookup.result_free(address)
        return entry
    if not owned:
        _lookup.result_retain(address)
    made = _Result(address)
    evicted = None
    with _decoded_lock:
        entry = _decoded.get(key)
        if entry is None:
            _decoded[key] = entry = made
            if len(_decoded) > _DECODED_CAPACITY:
                evicted = _decoded.popitem(last=False)[1]
    del evicted  # its reference goes now unless a Properties still holds it
    return entry


def _load_speedups() -> Any:
    """``pathconfig._speedups``, bound to the library ctypes loaded, or None:
    when it was not built (no C compiler or Python headers where the package
    was built) or ``PATHCONFIG_PURE_PYTHON`` is set to anything but ``""``
    or ``"0"``."""
    if os.environ.get("PATHCONFIG_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _speedups  # type: ignore[attr-defined]
    except ImportError:
        return None
    address = ctypes.c_void_p
    _speedups.bind(*(ctypes.cast(f, address).value for f in (_lookup.lookup, _lookup.result_retain, _lookup.result_text)))
    return _speedups


_speedups = _load_speedups()
#: Whether :meth:`PathConfiguration.properties` calls the library through the
#: C extension ``pathconfig._speedups`` (``False``: through ctypes alone).
SPEEDUPS = _speedups is not None
#: The extension's ``lookup(config, url, method, cache)`` (see _speedups.c),
#: called with :data:`_decoded` as the cache; None without the extension:
#: then :func:`look_up` is the whole lookup.
fast_lookup: Optional[Callable[[int, str, Optional[str], Dict[int, _Result]], Any]] = (
    _speedups.lookup if _speedups is not None else None
)


def arguments(url: str, method: Optional[str]) -> "tuple[bytes, Optional[bytes]]":
    """``url`` and ``method`` as the library's arguments (an error for one
    it cannot take: not a ``str``, a NUL, not UTF-8)."""
    if type(url) is str and "\0" not in url and url.isascii():
        raw = url.encode("ascii")
    else:
        raw = text_arg(url, "url")
    return raw, None if method is None else text_arg(method, "method")


def settle(config: int, url: str, method: Optional[str], answer: Any) -> Optional[_Result]:
    """The shared result for what :data:`fast_lookup` answered when the
    cache did not have it: an address it took a reference on; ``0`` for a
    failed lookup (``None`` here: the last error says why); ``None`` for an
    argument it leaves to :func:`arguments`, looked up here with a result
    handed over (``pathconfig_resolve_request``), which leaves nothing lent."""
    if answer is None:
        raw, c_method = arguments(url, method)
        answer = _lookup.resolve_request(config, raw, c_method, None)
    return _shared(answer, owned=True) if answer else None


# The threads between a pathconfig_lookup and the reference _shared takes on
# the result it lent (valid until the thread's next pathconfig_lookup).
_lending: Set[int] = set()


def look_up(config: int, url: str, method: Optional[str]) -> Optional[_Result]:
    """The shared result of one lookup of ``url`` for ``method`` through
    ctypes alone, on the configuration at ``config`` (held by the caller),
    or ``None`` when it failed: the last error says why.

    The lookup borrows its result (``pathconfig_lookup``: no free follows,
    one ctypes call instead of two) unless this thread is already between
    such a lookup and the reference taken on its result: then a rule's
    callback, a finaliser or a signal handler is resolving in that gap, and
    its lookup must not replace the result the thread is lending, so it takes
    one handed over (``pathconfig_resolve_request``). The C extension has no
    such gap: it holds the GIL from its lookup until the result is in hand."""
    raw, c_method = arguments(url, method)
    thread = _get_ident()
    if thread in _lending:
        address = _lookup.resolve_request(config, raw, c_method, None)
        return _shared(address, owned=True) if address else None
    _lending.add(thread)
    try:
        address = _lookup.lookup(config, raw, c_method)
        if not address:
            return None
        key = _lookup.result_text(address)
        result = _decoded.get(key) if key else None  # _shared(address, owned=False), inline for a hit
        return _shared(address, owned=False, key=key) if result is None else result
    finally:
        _lending.discard(thread)


class Properties(Mapping[str, Any]):
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
    configuration is closed. Lookups that match the same rules share one C
    result and its decoded map (see :class:`_Result`); :meth:`close`, or the
    end of a ``with`` block, lets this object's go, and any use after that
    raises :class:`ClosedError`. It is safe to read from several threads.
    """

    __slots__ = ("_result",)

    def __init__(self) -> None:
        raise TypeError("Properties objects are made by PathConfiguration.properties()")

    def _live(self) -> _Result:
        """The shared result, or :class:`ClosedError` after :meth:`close`."""
        result = self._result
        if result is None:
            raise ClosedError("operation on a closed Properties")
        return result

    def _call(self, func: Callable[..., T], *args: Any) -> T:
        """``func(handle, *args)``, the shared result held for the call,
        whatever ``close()`` does meanwhile."""
        result = self._live()
        return func(_ffi.result_handle(result.address), *args)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called (or the ``with`` block ended)."""
        return self._result is None

    def close(self) -> None:
        """Lets go of the shared result (freed with its last user).
        Idempotent; later use raises :class:`ClosedError`."""
        self._result = None

    def __enter__(self) -> "Properties":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- mapping --------------------------------------------------------------

    def _values(self) -> Dict[str, Any]:
        """The whole map, decoded once per shared result."""
        return self._live().map()

    def __getitem__(self, key: str) -> Any:
        value = self._values()[key]
        return copy.deepcopy(value) if isinstance(value, (dict, list)) else value

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._values()))

    def __len__(self) -> int:
        result = self._result  # _values(), inline for a map already decoded
        data = None if result is None else result.data
        return len(self._values() if data is None else data)

    def __contains__(self, key: object) -> bool:
        return key in self._values()

    def __repr__(self) -> str:
        if self._result is None:
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
