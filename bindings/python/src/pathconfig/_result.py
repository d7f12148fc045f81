"""The properties of one URL: :class:`Properties`, one read-only ``dict`` per
distinct answer, with its JSON text, typed accessors and the library's raw
getters.

Answers are shared. The library names each distinct answer with an id
(``pathconfig_result_id``: results with the same id hold the same
properties, and an id is never reused), and lookups that match the same rules
give the same answer whatever the URL. The binding keeps one
:class:`Properties` per id in :data:`_answers` (the newest
:data:`_CAPACITY`), made the first time the id is seen: the JSON text read
and decoded once, each typed value and each raw getter's value of a key read
from the library the first time it is asked for and kept on the object. A
lookup whose answer is known costs the library's lookup and one dict lookup;
every read of it then costs what reading a Python attribute or dict item
costs.

A :class:`Properties` holds a reference on one C result of its answer (for
the typed values and raw getters it has not read yet), released when the
object is garbage-collected. Nothing is keyed on a pointer.
"""

from __future__ import annotations

import ctypes
import json as _json
import os
import threading
from collections import OrderedDict
from typing import (
    Any,
    Callable,
    Dict,
    Generic,
    List,
    Literal,
    NoReturn,
    Optional,
    Tuple,
    TypeVar,
    Union,
    cast,
    overload,
)

from . import _ffi
from ._catalog import KEY_INDEX, TYPED_KEYS, TypedValue
from ._errors import ConfigError, ErrorCode
from ._ffi import text_arg
from ._handle import Owner

_lib = _ffi.lib
_lookup = _ffi.lookup

T = TypeVar("T")

# --- the typed values' types --------------------------------------------------------
#
# The catalog (pathconfig_typed_key_*) is the source of every typed key, its
# kind and its values; these declarations say the same to type checkers, and
# tests/test_typing.py holds them to the catalog: the accessors of Properties
# are exactly its keys, each with its kind, and each Literal lists exactly
# the values the catalog allows under some profile.

#: ``context``: how a screen is shown.
Context = Literal["default", "modal"]
#: ``presentation``: what a visit does to the navigation stack (``"push"``
#: only under the Android profiles).
Presentation = Literal["default", "push", "pop", "replace", "refresh", "clear_all", "replace_root", "none"]
#: ``modal_style``: how a modal screen is presented.
ModalStyle = Literal["medium", "large", "full", "page_sheet", "form_sheet"]
#: ``query_string_presentation``: what a visit that changes only the query does.
QueryStringPresentation = Literal["default", "replace"]


class TypedAccessor(Generic[T]):
    """One typed key as an attribute of :class:`Properties`: the value the
    profile's app reads (defaults applied when the key is missing, mistyped
    or unknown), of type ``T``.

    Read from the library (``pathconfig_result_typed_string`` or
    ``_typed_bool``, by the catalog's kind of the key) the first time it is
    read on an answer, then kept in that answer's instance dictionary, where
    Python finds it before this descriptor: every later read of it, from any
    lookup with the same answer, is a plain attribute read.
    """

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: Optional[type] = None) -> "TypedAccessor[T]": ...

    @overload
    def __get__(self, obj: "Properties", owner: Optional[type] = None) -> T: ...

    def __get__(self, obj: Optional["Properties"], owner: Optional[type] = None) -> Union[T, "TypedAccessor[T]"]:
        if obj is None:
            return self
        value = obj._read_typed(self.name)
        obj.__dict__[self.name] = value
        return cast(T, value)


# --- read-only JSON containers --------------------------------------------------------


def _read_only(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(
        f"{type(self).__name__!r} object is read-only: every lookup with the same answer shares it "
        "(copy it: dict(props), copy.deepcopy(props))"
    )


def _thaw(value: Any) -> Any:
    """``value`` with every JSON object and array as a new ``dict`` and ``list``."""
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_thaw(v) for v in value]
    return value


class JSONObject(Dict[str, Any]):
    """A JSON object inside :class:`Properties`: a ``dict`` that refuses
    changes (it is shared). ``copy.copy`` and ``copy.deepcopy`` of it, and
    pickling, give a plain ``dict``."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> Dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: Dict[int, Any]) -> Dict[str, Any]:
        return cast(Dict[str, Any], _thaw(self))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (dict, (_thaw(self),))


class JSONArray(List[Any]):
    """A JSON array inside :class:`Properties`: a ``list`` that refuses
    changes (it is shared). ``copy.copy`` and ``copy.deepcopy`` of it, and
    pickling, give a plain ``list``."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __copy__(self) -> List[Any]:
        return list(self)

    def __deepcopy__(self, memo: Dict[int, Any]) -> List[Any]:
        return cast(List[Any], _thaw(self))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (list, (_thaw(self),))


def _freeze(value: Any) -> Any:
    """A decoded JSON value with its objects and arrays made read-only."""
    kind = type(value)
    if kind is dict:
        return JSONObject((k, _freeze(v)) for k, v in value.items())
    if kind is list:
        return JSONArray(_freeze(v) for v in value)
    return value


# --- Properties --------------------------------------------------------------------------


class Properties(JSONObject):
    """The merged properties of one URL, from :meth:`PathConfiguration.properties`.

    A read-only ``dict`` of ``str`` to the values as the configuration wrote
    them, with their JSON types (``str``, ``int``, ``float``, ``bool``,
    ``None``, and read-only :class:`JSONArray` and :class:`JSONObject` for
    arrays and objects), in the order the keys first appeared in the matching
    rules. Being a ``dict``, it is what ``json.dumps``, ``dict(props)`` (a
    copy whose top level may be changed), ``==``, ``**props`` and every
    ``dict`` reader take, at ``dict`` speed. Changing it raises
    :class:`TypeError`: every lookup with the same answer returns this same
    object (``cfg.properties(a) is cfg.properties(b)`` when both match the
    same rules). ``copy.deepcopy(props)`` gives plain, changeable ``dict``
    and ``list`` values all the way down.

    :attr:`json` is the library's JSON text; ``str(props)`` is that text, as
    ``print`` shows it in every host.

    The typed accessors (:attr:`context`, :attr:`presentation`, ...,
    :attr:`pull_to_refresh_enabled`, ...) read the well-known keys the way the
    configuration's profile reads them: defaults apply when a key is missing,
    has the wrong type or an unknown value, and Android profiles read
    enumerations case-insensitively (``"POP"`` reads as ``"pop"``). Each is
    typed for type checkers (``context`` is a :data:`Context`,
    ``pull_to_refresh_enabled`` a ``bool``, ``title`` an ``Optional[str]``);
    :meth:`typed` reads any key of :data:`pathconfig.TYPED_KEYS` by name.

    One value of a given JSON type, through the library's getters, named for
    its Python type: :meth:`get_str`, :meth:`get_bool`, :meth:`get_int`,
    :meth:`get_float` (``None`` when the key is absent or holds another type)
    and :meth:`get_json` (any value as JSON text, number literals kept).

    A result does not depend on its configuration: it stays valid after the
    configuration is closed, and is freed with its last reference. It is safe
    to read from several threads.
    """

    # Instance attributes, in the instance dictionary: _owner (the
    # reference on the C result, given back when this object goes, see
    # pathconfig/_handle.py), _address (the result's), _id (its answer's id),
    # _handle (a ResultPtr to it, made on first use), json, each typed
    # value once read (see TypedAccessor), and _raw_str, _raw_bool, ...,
    # each raw getter's values once read (see _raw).
    _address: int
    _id: int

    json: str
    """The merged properties as compact JSON text, exactly as the library
    writes them (key order and number literals kept)."""

    context: TypedAccessor[Context] = TypedAccessor("``context``: ``\"default\"`` or ``\"modal\"``.")
    presentation: TypedAccessor[Presentation] = TypedAccessor(
        "``presentation``: ``\"default\"``, ``\"pop\"``, ``\"replace\"``, ... (``\"push\"`` on Android).")
    modal_style: TypedAccessor[ModalStyle] = TypedAccessor(
        "``modal_style``: ``\"large\"``, ``\"medium\"``, ``\"full\"``, ``\"page_sheet\"``, ``\"form_sheet\"``.")
    query_string_presentation: TypedAccessor[QueryStringPresentation] = TypedAccessor(
        "``query_string_presentation``: ``\"default\"`` or ``\"replace\"``.")
    view_controller: TypedAccessor[Optional[str]] = TypedAccessor(
        "``view_controller``: the native screen to show (``\"web\"`` by default on iOS, ``None`` on Android).")
    title: TypedAccessor[Optional[str]] = TypedAccessor("``title``: the screen's title, or ``None``.")
    uri: TypedAccessor[Optional[str]] = TypedAccessor("``uri``: the Android destination's URI, or ``None``.")
    fallback_uri: TypedAccessor[Optional[str]] = TypedAccessor(
        "``fallback_uri``: the Android destination used when ``uri`` has none, or ``None``.")
    pull_to_refresh_enabled: TypedAccessor[bool] = TypedAccessor("``pull_to_refresh_enabled``.")
    modal_dismiss_gesture_enabled: TypedAccessor[bool] = TypedAccessor("``modal_dismiss_gesture_enabled``.")
    animated: TypedAccessor[bool] = TypedAccessor("``animated``.")
    historical_location: TypedAccessor[bool] = TypedAccessor(
        "``historical_location``: true for the built-in recede/resume/refresh rules.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("Properties objects are made by PathConfiguration.properties()")

    # --- read-only (JSONObject's mutators, copies and pickling: a plain dict,
    # since a Properties needs its C result), its attributes too ------------

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        _read_only(self)

    def __delattr__(self, name: str) -> NoReturn:
        _read_only(self)

    def __repr__(self) -> str:
        return f"Properties({dict.__repr__(self)})"

    def __str__(self) -> str:
        return self.json

    # --- typed values ----------------------------------------------------------------

    def typed(self, key: str) -> TypedValue:
        """The typed value of ``key``, any key of :data:`pathconfig.TYPED_KEYS`
        (the library's list, which may hold keys newer than the accessors): a
        ``bool`` for the bool keys, else a ``str`` (or ``None`` when the key
        has no value and no default). Another key raises :class:`ConfigError`
        (``E_ARGUMENT``, a :class:`ValueError`)."""
        if type(key) is str and key in ACCESSORS:
            return cast(TypedValue, getattr(self, key))
        text_arg(key, "key")
        return self._read_typed(key)

    def _read_typed(self, name: str) -> TypedValue:
        """The typed value of the key ``name``, from the library."""
        info = TYPED_KEYS.get(name)
        if info is None:
            raise ConfigError(
                f"{name!r} is not a typed key; the library's typed keys are {', '.join(TYPED_KEYS)}",
                ErrorCode.E_ARGUMENT,
            )
        if info.kind == "bool":
            return cast(bool, _lib.pathconfig_result_typed_bool(self._ptr(), KEY_INDEX[name]))
        return cast(Optional[str], _lib.pathconfig_result_typed_string(self._ptr(), KEY_INDEX[name]))

    def _ptr(self) -> Any:
        """A ``ResultPtr`` to the C result, for the signature table's functions."""
        handle = self.__dict__.get("_handle")
        if handle is None:
            handle = self.__dict__["_handle"] = _ffi.result_handle(self._address)
        return handle

    # --- raw values: pathconfig_result_get_*, each read once per key and kept ---------

    # Each getter answers a key it has read before from its dict in the
    # instance dictionary (named for the getter, made on its first read), in
    # the getter itself: a second call, to _raw, would double what a kept
    # read costs.

    def get_str(self, key: str) -> Optional[str]:
        """The value of ``key`` when it is a JSON string, else ``None`` (as a
        ``PathRule`` subscript reads it on iOS); whole, U+0000 included."""
        if type(key) is str:
            try:
                kept: Optional[str] = self.__dict__["_raw_str"][key]
                return kept
            except KeyError:
                pass
        value: Optional[str] = self._raw(_read_str, "_raw_str", key)
        return value

    def get_bool(self, key: str) -> Optional[bool]:
        """The value of ``key`` when it is a JSON boolean, else ``None`` (the
        string ``"true"`` is not one; the typed accessors read it as the apps
        do)."""
        if type(key) is str:
            try:
                kept: Optional[bool] = self.__dict__["_raw_bool"][key]
                return kept
            except KeyError:
                pass
        value: Optional[bool] = self._raw(_read_bool, "_raw_bool", key)
        return value

    def get_int(self, key: str) -> Optional[int]:
        """The value of ``key`` when it is a JSON number written without
        fraction or exponent that fits in 64 bits, else ``None``."""
        if type(key) is str:
            try:
                kept: Optional[int] = self.__dict__["_raw_int"][key]
                return kept
            except KeyError:
                pass
        value: Optional[int] = self._raw(_read_int, "_raw_int", key)
        return value

    def get_float(self, key: str) -> Optional[float]:
        """The value of ``key`` when it is any JSON number, as the nearest
        ``float``, else ``None``."""
        if type(key) is str:
            try:
                kept: Optional[float] = self.__dict__["_raw_float"][key]
                return kept
            except KeyError:
                pass
        value: Optional[float] = self._raw(_read_float, "_raw_float", key)
        return value

    def get_json(self, key: str) -> Optional[str]:
        """Any value of ``key`` (objects, arrays and ``null`` included) as
        compact JSON text, exactly as written (``"1.50"`` stays ``1.50``);
        ``None`` when the key is absent."""
        if type(key) is str:
            try:
                kept: Optional[str] = self.__dict__["_raw_json"][key]
                return kept
            except KeyError:
                pass
        value: Optional[str] = self._raw(_read_json, "_raw_json", key)
        return value

    def _raw(self, read: Callable[[Any, bytes], Any], kept: str, key: str) -> Any:
        """What ``read`` (one of the library's getters) gives for ``key``,
        read from the library and kept in the instance dictionary's dict
        ``kept``, as the typed values are; a key the answer lacks is ``None``
        without a call (the dict's keys are the answer's). Only keys of this
        answer are kept, so what is kept stays bounded whatever keys are asked
        for."""
        arg = text_arg(key, "key")
        if type(key) is not str:
            return read(self._ptr(), arg)
        if key not in self:
            return None
        value = self.__dict__.setdefault(kept, {})[key] = read(self._ptr(), arg)
        return value


# The library's raw getters through ctypes, on a result and a key's UTF-8.


def _read_str(res: Any, key: bytes) -> Optional[str]:
    out, size = ctypes.c_char_p(), ctypes.c_size_t()
    if _lib.pathconfig_result_get_string(res, key, ctypes.byref(out), ctypes.byref(size)) != _ffi.OK:
        return None
    # By address and length: c_char_p's own value would stop at a NUL.
    return ctypes.string_at(cast(int, ctypes.c_void_p.from_buffer(out).value), size.value).decode("utf-8")


def _read_bool(res: Any, key: bytes) -> Optional[bool]:
    out = ctypes.c_int()
    return bool(out.value) if _lib.pathconfig_result_get_bool(res, key, ctypes.byref(out)) == _ffi.OK else None


def _read_int(res: Any, key: bytes) -> Optional[int]:
    out = ctypes.c_int64()
    return int(out.value) if _lib.pathconfig_result_get_int64(res, key, ctypes.byref(out)) == _ffi.OK else None


def _read_float(res: Any, key: bytes) -> Optional[float]:
    out = ctypes.c_double()
    return float(out.value) if _lib.pathconfig_result_get_double(res, key, ctypes.byref(out)) == _ffi.OK else None


def _read_json(res: Any, key: bytes) -> Optional[str]:
    out = ctypes.c_char_p()
    if _lib.pathconfig_result_get_json(res, key, ctypes.byref(out)) != _ffi.OK:
        return None
    return cast(bytes, out.value).decode("utf-8")


#: The names of the typed accessors :class:`Properties` declares, in order.
ACCESSORS: Tuple[str, ...] = tuple(
    name for name, value in vars(Properties).items() if isinstance(value, TypedAccessor)
)


# --- the answers --------------------------------------------------------------------------

#: How many answers :data:`_answers` keeps (the newest). A lookup of an
#: answer that is not there makes its Properties again: one JSON decoding.
_CAPACITY = 4096
#: The Properties of each answer seen, by id, oldest first. Reads take no
#: lock (one dict lookup is atomic); changes take _answers_lock.
_answers: "OrderedDict[int, Properties]" = OrderedDict()
_answers_lock = threading.Lock()
_new_properties = dict.__new__


def _new_answers_lock() -> None:
    """A child of fork() gets a new :data:`_answers_lock`: fork copies only
    the thread that calls it, so the lock another thread held (or had just
    been granted, still waiting for the GIL) would stay taken there, and the
    child's first new answer would wait for good. :data:`_answers` itself is
    whole: each of its changes is one step under the GIL."""
    global _answers_lock
    _answers_lock = threading.Lock()


os.register_at_fork(after_in_child=_new_answers_lock)


def _answer(owner: Any, answer_id: int) -> Properties:
    """The Properties of the result ``owner`` holds a reference on (see
    :func:`owner`), whose id ``answer_id`` was not in :data:`_answers`:
    made from it (keeping ``owner``) and kept, or the one another thread
    kept first (``owner`` then goes with the one made here)."""
    props = _new_properties(Properties)
    attributes = props.__dict__
    attributes["_owner"] = owner
    address = attributes["_address"] = owner.address
    attributes["_id"] = answer_id
    text = _lookup.result_json(address)
    if text is None:
        raise _ffi.last_error()
    json = attributes["json"] = text.decode("utf-8")
    dict.update(props, {k: _freeze(v) for k, v in _json.loads(json).items()})
    evicted = []
    with _answers_lock:
        kept = _answers.get(answer_id)
        if kept is None:
            _answers[answer_id] = kept = props
            while len(_answers) > _CAPACITY:
                evicted.append(_answers.popitem(last=False)[1])
    del evicted  # their references go now unless a caller still holds them
    return kept


def _load_speedups() -> Any:
    """``pathconfig._speedups``, bound to the library ctypes loaded, or None:
    when it was not built (no C compiler or Python headers where the package
    was built) or ``PATHCONFIG_PURE_PYTHON`` is set to anything but ``""``
    or ``"0"``."""
    if os.environ.get("PATHCONFIG_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _speedups
    except ImportError:
        return None
    _speedups.bind(*_lookup.addresses())
    return _speedups


_speedups = _load_speedups()
#: Whether :meth:`PathConfiguration.properties` calls the library through the
#: C extension ``pathconfig._speedups`` (``False``: through ctypes alone).
SPEEDUPS = _speedups is not None
if _speedups is not None:
    _speedups.bind_lookups(_answers, _answer)


def owner(handed: _ffi.Handed, release: Any) -> Any:
    """What holds the reference a library call ``handed`` over (a result, a
    configuration), taking it from that object, and gives it back with
    ``release``, a function of :data:`_ffi.lookup`, when it goes:
    ``_speedups.Owned`` with the C extension, else an :class:`Owner` (see
    pathconfig/_handle.py)."""
    if _speedups is not None:
        return _speedups.Owned(handed, ctypes.cast(release, ctypes.c_void_p).value)
    return Owner(handed, release)


#: The base that gives :class:`PathConfiguration` the extension's
#: ``properties`` (``LookupBase``, see _speedups.c); ``object`` without it.
LookupBase: type = _speedups.LookupBase if _speedups is not None else object
#: The extension's ``resolve(config, url, method, answers)`` (see
#: _speedups.c), called with :data:`_answers`; None without the extension:
#: then :func:`look_up` is the whole lookup.
fast_resolve: Optional[Callable[[int, object, object, Dict[int, Any]], object]] = (
    _speedups.resolve if _speedups is not None else None
)


def arguments(url: str, method: Optional[str]) -> "tuple[bytes, Optional[bytes]]":
    """``url`` and ``method`` as the library's arguments (an error for one
    it cannot take: not a ``str``, a NUL, not UTF-8)."""
    if type(url) is str and "\0" not in url and url.isascii():
        raw = url.encode("ascii")
    else:
        raw = text_arg(url, "url")
    return raw, None if method is None else text_arg(method, "method")


def look_up(config: int, url: str, method: Optional[str]) -> Optional[Properties]:
    """The Properties of one lookup of ``url`` for ``method`` through ctypes
    alone, on the configuration at ``config`` (held by the caller), or
    ``None`` when it failed: the last error says why."""
    raw, c_method = arguments(url, method)
    handed = _lookup.resolve(config, raw, c_method, None)
    if not handed:
        return None
    answer_id = _lookup.result_id(handed)
    known = _answers.get(answer_id)
    if known is not None:
        _lookup.result_release(handed.take())
        return known
    return _answer(owner(handed, _lookup.result_release), answer_id)


def settle(config: int, url: str, method: Optional[str], answer: object) -> Optional[Properties]:
    """The Properties for what :data:`fast_resolve` answered when it was
    not a known answer's: ``(owned, id)`` of a new answer (``owned``: a
    ``_speedups.Owned`` of its result); ``0`` for a failed lookup (``None``
    here: the last error says why); ``None`` for an argument it leaves to
    :func:`arguments`, looked up here through ctypes."""
    if answer is None:
        return look_up(config, url, method)
    if not answer:
        return None
    owned, answer_id = cast(Tuple[Any, int], answer)
    return _answer(owned, answer_id)
