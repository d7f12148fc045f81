"""A configuration kept current from several sources: :class:`Loader`.

The C side is ``pathconfig_loader`` (include/pathconfig.h, "Loader: sources,
cache and live updates"). This module adds:

- the sources as small frozen dataclasses (:class:`FileSource`,
  :class:`ServerSource`, :class:`DataSource`; plain ``dict`` in the C form are
  accepted too), and the options as keyword arguments, checked for type here
  and serialised with :func:`json.dumps` to the C ``sources_json`` /
  ``options_json``;
- :class:`LoaderEvent`, a copy of each ``pathconfig_loader_event`` made during
  the callback (the C struct and its strings are only borrowed for the call);
- one callback trampoline per loader, registered for the loader's whole life
  (until ``pathconfig_loader_free`` has returned, after which C never calls it
  again), which collects the events of each ``load()`` / ``refresh()`` and
  calls ``on_change``.

Lifetimes. The trampoline (a ``CFUNCTYPE`` object) and the ``on_change``
callable are held by a :class:`_Dispatch` object that the :class:`Loader`
owns; neither is dropped before ``pathconfig_loader_free`` returns. The
trampoline never references the :class:`Loader` itself, so the C side keeps
nothing but the dispatch alive, and a loader that is no longer referenced is
finalised as usual.

``pathconfig_loader_free`` must not run inside one of its loader's own
callbacks (it would wait for itself). A :class:`Loader` can nevertheless be
closed or collected there (``close()`` in ``on_change``, a garbage collection
that happens to run on the polling thread): the free is then handed to a
short-lived thread, which waits for the callback to return.
"""

from __future__ import annotations

import atexit
import enum
import json
import math
import os
import threading
import weakref
from dataclasses import dataclass, field
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    cast,
)

from . import _ffi
from ._config import PathConfiguration, StrPath, _c_text, _load_options
from ._errors import (
    CacheError,
    CacheReason,
    DownloadError,
    DownloadReason,
    Error,
    _enum_or_int,
)
from ._handle import OwnedHandle

_lib = _ffi.lib

#: The largest integer the library accepts for a millisecond or byte option.
_INT64_MAX = 2**63 - 1


class EventKind(enum.IntEnum):
    """What one step of the chain did (``PATHCONFIG_EVENT_*``)."""

    APPLIED = 1
    """The source's configuration is now the current one."""
    SUPERSEDED = 2
    """The source's configuration loaded, but a later source's stays current."""
    NOT_MODIFIED = 3
    """The server answered 304 (or sent the same bytes): nothing changed."""
    FAILED = 4
    """The source gave no configuration; the current one stays. ``error`` says why."""
    WARNING = 5
    """Something was skipped or not saved (a corrupt cache file ignored, a
    cache write that failed); ``error`` says what."""


class SourceKind(enum.IntEnum):
    """Which kind of source an event comes from (``PATHCONFIG_SOURCE_*``)."""

    DATA = 0
    """A :class:`DataSource`."""
    FILE = 1
    """A :class:`FileSource`."""
    CACHE = 2
    """The cached copy of a :class:`ServerSource`."""
    SERVER = 3
    """The download of a :class:`ServerSource`."""


def _utf8(value: str, what: str) -> str:
    """``value``, checked as a C string argument would be (no NUL, no lone
    surrogate), for the C JSON."""
    _c_text(value, what)
    return value


def _path_text(path: StrPath, what: str) -> str:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{what} must be str, bytes or os.PathLike, not {type(path).__name__}")
    return _utf8(os.fsdecode(path), what)


# --- sources ----------------------------------------------------------------------


@dataclass(frozen=True)
class FileSource:
    """A configuration file, read each time the chain runs (``{"file": PATH}``).
    A relative path is resolved against the working directory at that time."""

    path: str

    def __init__(self, path: StrPath) -> None:
        object.__setattr__(self, "path", _path_text(path, "FileSource path"))

    def to_dict(self) -> Dict[str, Any]:
        """The source in the C ``sources_json`` form."""
        return {"file": self.path}


@dataclass(frozen=True)
class ServerSource:
    """A server copy (``{"server": URL, "headers": {...}}``): an absolute
    ``http://`` or ``https://`` URL, downloaded by ``load()`` and
    ``refresh()``, cached in the loader's ``cache_dir``. ``headers`` are sent
    with each request, in the order given (some servers reject requests
    without ``Accept``)."""

    url: str
    headers: Tuple[Tuple[str, str], ...] = field(default=())

    def __init__(
        self,
        url: str,
        headers: Union[Mapping[str, str], Iterable[Tuple[str, str]], None] = None,
    ) -> None:
        if not isinstance(url, str):
            raise TypeError(f"ServerSource url must be str, not {type(url).__name__}")
        pairs: List[Tuple[str, str]] = []
        if headers is not None:
            if isinstance(headers, (str, bytes)):
                raise TypeError("ServerSource headers must be a mapping of str to str")
            items = headers.items() if isinstance(headers, Mapping) else headers
            for item in items:
                if not (isinstance(item, tuple) and len(item) == 2):
                    raise TypeError("ServerSource headers must be a mapping of str to str")
                name, value = item
                if not isinstance(name, str) or not isinstance(value, str):
                    raise TypeError(
                        f"ServerSource header {name!r}: names and values must be str, "
                        f"not {type(name).__name__} and {type(value).__name__}"
                    )
                pairs.append((_utf8(name, "header name"), _utf8(value, f"header {name!r}")))
        object.__setattr__(self, "url", _utf8(url, "ServerSource url"))
        object.__setattr__(self, "headers", tuple(pairs))

    def to_dict(self) -> Dict[str, Any]:
        """The source in the C ``sources_json`` form."""
        spec: Dict[str, Any] = {"server": self.url}
        if self.headers:
            spec["headers"] = dict(self.headers)
        return spec


@dataclass(frozen=True)
class DataSource:
    """A configuration given as JSON text (``{"data": TEXT, "name": NAME}``),
    e.g. one bundled with the application; ``name`` (default ``"data"``)
    names it in events. ``bytes`` must be UTF-8."""

    text: str
    name: Optional[str] = None

    def __init__(self, text: Union[str, bytes], name: Optional[str] = None) -> None:
        if isinstance(text, (bytes, bytearray, memoryview)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"DataSource text is not UTF-8: {exc.reason} at byte {exc.start}") from None
        elif not isinstance(text, str):
            raise TypeError(f"DataSource text must be str or bytes, not {type(text).__name__}")
        else:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(f"DataSource text cannot be encoded as UTF-8: {exc.reason} at index {exc.start}") from None
        if name is not None and not isinstance(name, str):
            raise TypeError(f"DataSource name must be str or None, not {type(name).__name__}")
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "name", None if name is None else _utf8(name, "DataSource name"))

    def to_dict(self) -> Dict[str, Any]:
        """The source in the C ``sources_json`` form."""
        spec: Dict[str, Any] = {"data": self.text}
        if self.name is not None:
            spec["name"] = self.name
        return spec

    def __repr__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"DataSource({text!r}, name={self.name!r})"


Source = Union[FileSource, ServerSource, DataSource, Mapping[str, Any]]


def _source_spec(source: object, index: int) -> Dict[str, Any]:
    if isinstance(source, (FileSource, ServerSource, DataSource)):
        return source.to_dict()
    if isinstance(source, Mapping):
        for key in source:
            if not isinstance(key, str):
                raise TypeError(f"source {index}: keys must be str, not {type(key).__name__}")
        return dict(source)
    raise TypeError(
        f"source {index} must be a FileSource, ServerSource, DataSource or dict, not {type(source).__name__}"
    )


def _sources_json(sources: object) -> Tuple[bytes, Tuple[Source, ...]]:
    if isinstance(sources, (str, bytes, Mapping)) or not isinstance(sources, (Sequence, Iterable)):
        raise TypeError(
            f"sources must be a list of FileSource, ServerSource, DataSource or dict, not {type(sources).__name__}"
        )
    kept = tuple(cast(Iterable[Source], sources))
    specs = [_source_spec(s, i) for i, s in enumerate(kept)]
    try:
        # ASCII: a NUL or a lone surrogate inside a dict source travels escaped
        # and the library rejects it.
        return json.dumps(specs).encode("ascii"), kept
    except (TypeError, ValueError) as exc:
        raise TypeError(f"sources: {exc}") from None


# --- options ----------------------------------------------------------------------


def _milliseconds(value: object, what: str) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} must be a number of seconds or None, not {type(value).__name__}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} must be a positive number of seconds, not {value!r}")
    ms = max(1, math.ceil(value * 1000))
    if ms > _INT64_MAX:
        raise ValueError(f"{what} is too large: {value!r} s")
    return ms


def _loader_options(
    cache_dir: Optional[StrPath],
    timeout: Optional[float],
    max_body_bytes: Optional[int],
    refresh_interval: Optional[float],
    user_agent: Optional[str],
    ca_file: Optional[StrPath],
    load_options: Dict[str, Any],
) -> bytes:
    options = dict(load_options)
    if cache_dir is not None:
        options["cache_dir"] = _path_text(cache_dir, "cache_dir")
    ms = _milliseconds(timeout, "timeout")
    if ms is not None:
        options["timeout_ms"] = ms
    if max_body_bytes is not None:
        if isinstance(max_body_bytes, bool) or not isinstance(max_body_bytes, int):
            raise TypeError(f"max_body_bytes must be int or None, not {type(max_body_bytes).__name__}")
        if not 0 < max_body_bytes <= _INT64_MAX:
            raise ValueError(f"max_body_bytes must be a positive integer, not {max_body_bytes!r}")
        options["max_body_bytes"] = max_body_bytes
    ms = _milliseconds(refresh_interval, "refresh_interval")
    if ms is not None:
        options["refresh_interval_ms"] = ms
    if user_agent is not None:
        if not isinstance(user_agent, str):
            raise TypeError(f"user_agent must be str or None, not {type(user_agent).__name__}")
        options["user_agent"] = _utf8(user_agent, "user_agent")
    if ca_file is not None:
        options["ca_file"] = _path_text(ca_file, "ca_file")
    return json.dumps(options).encode("ascii")


# --- events -----------------------------------------------------------------------


def _text(raw: Optional[bytes]) -> Optional[str]:
    return None if raw is None else raw.decode("utf-8", "replace")


@dataclass(frozen=True)
class LoaderEvent:
    """One step of a loader's chain: a copy of the C event, made while the
    callback ran, so it stays valid afterwards.

    Attributes:
        kind: what happened (:class:`EventKind`).
        source_kind: :class:`SourceKind` of the step (a server source has two
            steps: ``CACHE``, its cached copy, and ``SERVER``, the download).
        source_index: the 0-based index of the source in ``Loader(sources=...)``.
        location: the data's name, the file's path, the cache file's path, or
            the URL.
        url: the server URL for ``CACHE`` and ``SERVER`` steps, else ``None``.
        byte_count: bytes read or downloaded, ``None`` when no body was.
        http_status: the HTTP status of a failed download when a response
            arrived (e.g. 500), else ``None``.
        reason: a :class:`DownloadReason` or :class:`CacheReason` when
            ``error`` is a :class:`DownloadError` or :class:`CacheError`, else
            ``None``.
        error: why, for ``FAILED`` and ``WARNING``: a :class:`ConfigError`
            (the configuration did not load: ``code``, ``line``, ``column``,
            ``rule_index``, ``pattern_index``), :class:`DownloadError` or
            :class:`CacheError`; ``None`` otherwise.
        description: one line for logs, e.g.
            ``"server https://example.com/p.json: applied (412 bytes)"``;
            also ``str(event)``.
        configuration: the configuration the step produced (``APPLIED``,
            ``SUPERSEDED``, and ``NOT_MODIFIED`` when one is known) as a
            :class:`PathConfiguration` of its own (a new reference: it stays
            valid after the loader moves on or is closed), else ``None``.
    """

    kind: "EventKind | int"
    source_kind: "SourceKind | int"
    source_index: int
    location: str
    url: Optional[str]
    byte_count: Optional[int]
    http_status: Optional[int]
    reason: "DownloadReason | CacheReason | int | None"
    error: Optional[Error]
    description: str
    configuration: Optional[PathConfiguration] = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.description

    @classmethod
    def _from_c(cls, ev: _ffi.LoaderEventStruct) -> "LoaderEvent":
        location = _text(ev.location) or ""
        url = _text(ev.url)
        error: Optional[Error] = None
        reason: Any = None
        if ev.error:
            error = cast(_ffi.ErrorStruct, ev.error.contents).to_exception()
            if isinstance(error, DownloadError):
                error._details(ev.reason, ev.http_status, url)
                reason = error.reason
            elif isinstance(error, CacheError):
                error._details(ev.reason, url, location)
                reason = error.reason
        configuration = None
        if ev.configuration:
            configuration = PathConfiguration._wrap(_lib.pathconfig_retain(ev.configuration))
        return cls(
            kind=_enum_or_int(EventKind, ev.kind),
            source_kind=_enum_or_int(SourceKind, ev.source_kind),
            source_index=int(ev.source_index),
            location=location,
            url=url,
            byte_count=None if ev.byte_count < 0 else int(ev.byte_count),
            http_status=int(ev.http_status) or None,
            reason=reason,
            error=error,
            description=_text(ev.description) or "",
            configuration=configuration,
        )


OnChange = Callable[[LoaderEvent], Any]


# --- the callback trampoline -----------------------------------------------------------


class _Dispatch:
    """What C calls back: the trampoline of one loader, and what it needs.

    Called by ctypes (which takes the GIL) on the thread running ``load()`` or
    ``refresh()``, or on the loader's polling thread. An exception out of
    ``on_change`` (or out of copying the event) leaves ``__call__`` after
    the bookkeeping in ``finally``; ctypes' callback wrapper then reports it
    through :func:`sys.unraisablehook` (``object`` is this dispatch) and
    returns normally to C, which goes on with the chain.
    """

    def __init__(self, on_change: Optional[OnChange], owner: str) -> None:
        self.on_change = on_change
        self.owner = owner
        self.closed = False
        #: thread ident -> the events of the load()/refresh() running there
        self.collectors: Dict[int, List[LoaderEvent]] = {}
        #: thread ident -> how many of this loader's callbacks run there
        self.inside: Dict[int, int] = {}
        self.cfunc: Any = _ffi.LoaderCallback(self)

    def __call__(self, event: Any, payload: Any) -> None:
        ident = threading.get_ident()
        self.inside[ident] = self.inside.get(ident, 0) + 1
        try:
            collector = self.collectors.get(ident)
            callback = None if self.closed else self.on_change
            if collector is None and callback is None:
                return  # nobody listens (e.g. polling without on_change)
            copied = LoaderEvent._from_c(event.contents)
            if collector is not None:
                collector.append(copied)
            if callback is not None:
                callback(copied)
        finally:
            depth = self.inside[ident] - 1
            if depth:
                self.inside[ident] = depth
            else:
                del self.inside[ident]

    def in_callback(self) -> bool:
        return threading.get_ident() in self.inside

    def release(self) -> None:
        """After ``pathconfig_loader_free`` returned: C holds nothing of ours."""
        self.on_change = None
        self.cfunc = None

    def __repr__(self) -> str:
        return f"<on_change callback {self.on_change!r} of {self.owner}>"


def _free_now(ptr: Any, dispatch: _Dispatch) -> None:
    dispatch.closed = True
    _lib.pathconfig_loader_free(ptr)  # waits for polling and a running callback
    dispatch.release()


def _freer(dispatch: _Dispatch) -> Callable[[Any], None]:
    """The loader's destructor for :class:`OwnedHandle`: frees at once, or on a
    helper thread when called from inside one of the loader's own callbacks."""

    def free(ptr: Any) -> None:
        dispatch.closed = True
        if dispatch.in_callback():
            threading.Thread(target=_free_now, args=(ptr, dispatch), name="pathconfig-loader-free").start()
        else:
            _free_now(ptr, dispatch)

    return free


#: Loaders not closed yet: closed at exit, while the interpreter can still run
#: callbacks that a polling thread is delivering.
_open_loaders: "weakref.WeakSet[Loader]" = weakref.WeakSet()


@atexit.register
def _close_open_loaders() -> None:
    for loader in list(_open_loaders):
        loader.close()


# --- the loader -------------------------------------------------------------------


class Loader(OwnedHandle):
    """Keeps a configuration current from an ordered list of sources: files,
    JSON in memory and server copies (downloaded over HTTP(S), cached on disk).

    ``sources`` is a list of :class:`FileSource`, :class:`ServerSource`,
    :class:`DataSource`, or ``dict`` in the C form (``{"file": PATH}``,
    ``{"data": TEXT, "name": NAME}``, ``{"server": URL, "headers": {...}}``).
    The options are keyword-only:

    - ``cache_dir``: directory for server copies, one file per URL (created,
      mode 0700, when missing); ``None`` (default): no cache.
    - ``timeout``: seconds one download may take, connecting included
      (default 30).
    - ``max_body_bytes``: the largest body accepted (default 8 MiB).
    - ``refresh_interval``: seconds; when set, :meth:`load` starts a
      background thread that refreshes at this interval until :meth:`close`.
    - ``user_agent`` (default ``"libpathconfig/VERSION"``), ``ca_file`` (a
      PEM bundle trusted for HTTPS instead of the system's).
    - ``profile``, ``match_query_strings``, ``backend``, ``lenient``: as for
      :meth:`PathConfiguration.from_file`, applied to every source.
    - ``on_change``: a callable taking a :class:`LoaderEvent`, called after
      every step of the chain; see :attr:`on_change`.

    Nothing is loaded until :meth:`load`. Running the chain: each data and
    file source, then for each server source its cached copy (if any) and its
    download; a later good configuration replaces an earlier one. Bad news
    never replaces good news: a failed download, a status other than 200, a
    body that does not load leaves :attr:`current` and the cache file as they
    were, and is reported to ``on_change``.

    Raises (the constructor): :class:`TypeError` for an argument of the wrong
    type, :class:`ValueError` for a NUL or unencodable text or a non-positive
    number, :class:`ConfigError` (``E_OPTIONS``, ``E_BACKEND``) for sources or
    options the library rejects (an unknown key, a URL that is not
    ``http(s)://``, a bad header name, an unknown profile).

    Thread-safe: any method may be called from any thread; the library runs
    ``load``, ``refresh`` and polling one at a time, and :attr:`current`
    never waits for the network. The C loader is freed by :meth:`close`, at
    the end of a ``with`` block, when the object is garbage-collected, or at
    interpreter exit; any use after :meth:`close` raises :class:`ClosedError`.
    Configurations already obtained stay valid.
    """

    _dispatch: _Dispatch
    _sources: Tuple[Source, ...]

    def __init__(
        self,
        sources: Sequence[Source],
        *,
        cache_dir: Optional[StrPath] = None,
        timeout: Optional[float] = None,
        max_body_bytes: Optional[int] = None,
        refresh_interval: Optional[float] = None,
        user_agent: Optional[str] = None,
        ca_file: Optional[StrPath] = None,
        profile: Optional[str] = None,
        match_query_strings: Optional[bool] = None,
        backend: Optional[str] = None,
        lenient: bool = False,
        on_change: Optional[OnChange] = None,
    ) -> None:
        sources_json, kept = _sources_json(sources)
        options_json = _loader_options(
            cache_dir,
            timeout,
            max_body_bytes,
            refresh_interval,
            user_agent,
            ca_file,
            _load_options(profile, match_query_strings, backend, lenient),
        )
        if on_change is not None and not callable(on_change):
            raise TypeError(f"on_change must be callable or None, not {type(on_change).__name__}")
        dispatch = _Dispatch(on_change, f"pathconfig.Loader with {len(kept)} source(s)")
        ptr = _lib.pathconfig_loader_new(sources_json, options_json, _ffi.ErrorStruct())
        try:
            _lib.pathconfig_loader_set_callback(ptr, dispatch.cfunc, None)
        except BaseException:
            _free_now(ptr, dispatch)
            raise
        self._dispatch = dispatch
        self._sources = kept
        self._own(ptr, _freer(dispatch))
        _open_loaders.add(self)

    # --- running the chain ------------------------------------------------------------

    def _run(self, func: Any) -> List[LoaderEvent]:
        dispatch = self._dispatch
        ident = threading.get_ident()
        events: List[LoaderEvent] = []
        outer = dispatch.collectors.get(ident)  # load() from inside on_change
        dispatch.collectors[ident] = events
        try:
            self._call(func, _ffi.ErrorStruct())
        except DownloadError as exc:
            # err is the last failure, which was a download: its event has
            # the reason and status that err has no room for.
            for event in reversed(events):
                if isinstance(event.error, DownloadError):
                    exc._details(event.error.reason or 0, event.error.http_status or 0, event.error.url)
                    break
            raise
        finally:
            if outer is None:
                del dispatch.collectors[ident]
            else:
                dispatch.collectors[ident] = outer
        return events

    def load(self) -> List[LoaderEvent]:
        """Runs the whole chain once, synchronously (downloads included, each
        bounded by ``timeout``), calling ``on_change`` after every step; then
        starts polling when ``refresh_interval`` is set.

        Returns:
            the events of this run, in order (the same objects ``on_change``
            received).

        Raises:
            ConfigError, DownloadError: only when no configuration is current
                afterwards (every source failed, and none had loaded before):
                the last failure, its message starting with the source
                (``"server URL: ..."``). A failing source while another gives
                a configuration is not an error here: it is a ``FAILED`` event.
            MisuseError: called from inside this loader's ``on_change``:
                nothing was run, and polling was not started.
            ClosedError: the loader was closed.
        """
        return self._run(_lib.pathconfig_loader_load)

    def refresh(self) -> List[LoaderEvent]:
        """Downloads every server source again, synchronously, conditionally
        (``If-None-Match`` / ``If-Modified-Since``) when a copy is known; a
        304 is a ``NOT_MODIFIED`` event. Before the first :meth:`load`, runs
        load's chain instead (without starting to poll).

        Returns:
            the events of this run, in order.

        Raises:
            DownloadError, ConfigError: a step failed (the last failure):
                :attr:`current` and the cache file are as they were.
            MisuseError: called from inside this loader's ``on_change``:
                nothing was run.
            ClosedError: the loader was closed.
        """
        return self._run(_lib.pathconfig_loader_refresh)

    @property
    def current(self) -> Optional[PathConfiguration]:
        """The newest good configuration, or ``None`` when nothing has loaded
        yet. Never waits for the network. Each access returns a new
        :class:`PathConfiguration` owning its own reference: it stays whole
        and valid while the loader installs others or is closed (close it, or
        use ``with``, to release it early)."""
        ptr = self._call(_lib.pathconfig_loader_current)
        return None if ptr is None else PathConfiguration._wrap(ptr)

    def cache_file(self, url: str) -> Optional[str]:
        """The path of the cache file that holds (or would hold) ``url``'s
        copy (the file name is a hash of the whole URL), or ``None`` when the
        loader has no ``cache_dir``. ``url`` need not be one of the sources."""
        return cast(Optional[str], self._call(_lib.pathconfig_loader_cache_file, _c_text(url, "url")))

    # --- the callback -----------------------------------------------------------------

    @property
    def on_change(self) -> Optional[OnChange]:
        """The callable called with each :class:`LoaderEvent`, or ``None``.

        It runs on the thread calling :meth:`load` or :meth:`refresh`, or on
        the polling thread, one event at a time. It may read :attr:`current`,
        keep the event (and its ``configuration``), and set :attr:`on_change`;
        :meth:`load` and :meth:`refresh` raise :class:`MisuseError` there.
        An exception it raises is reported through :func:`sys.unraisablehook`
        (printed to stderr by default) and the chain goes on.

        The loader keeps the callable alive while it is set. Setting it
        replaces the old one and returns once a call of the old one running on
        another thread has returned (so do not set it while holding a lock the
        running callback waits for). After :meth:`close`, it is not called
        again.
        """
        if self._closed:
            return None
        return self._dispatch.on_change

    @on_change.setter
    def on_change(self, callback: Optional[OnChange]) -> None:
        if callback is not None and not callable(callback):
            raise TypeError(f"on_change must be callable or None, not {type(callback).__name__}")
        dispatch = self._dispatch
        ptr = self._acquire()
        try:
            dispatch.on_change = callback
            # Registering the same trampoline again waits for a callback running
            # on another thread (pathconfig_loader_set_callback's guarantee).
            _lib.pathconfig_loader_set_callback(ptr, dispatch.cfunc, None)
        finally:
            self._done()

    # --- the rest ---------------------------------------------------------------------

    @property
    def sources(self) -> Tuple[Source, ...]:
        """The sources, as given."""
        return self._sources

    def close(self) -> None:
        """Stops polling (waiting for a refresh in progress and its callback),
        then frees the C loader; ``on_change`` is not called again. Idempotent;
        later use raises :class:`ClosedError`. Configurations obtained from
        the loader stay valid. When another thread is inside a call on this
        loader, the loader is freed as that call returns."""
        dispatch = self.__dict__.get("_dispatch")
        if dispatch is not None:
            dispatch.closed = True
        super().close()

    def __repr__(self) -> str:
        state = " (closed)" if self._closed else ""
        return f"<pathconfig.Loader sources={len(self._sources)}{state}>"
