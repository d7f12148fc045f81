"""What a :class:`~pathconfig.Loader`'s callback receives, and how it gets it.

:class:`LoaderEvent` is a copy of each ``pathconfig_loader_event``, made
during the callback (the C struct and its strings are only borrowed for the
call), with its :class:`EventKind` and :class:`SourceKind`.

The trampoline. :func:`register` makes a :class:`_Listener` (which hands each
event to the ``load()`` or ``refresh()`` running on that thread, then to the
loader's ``on_change``), makes a ``CFUNCTYPE`` trampoline of it, and
registers that with ``pathconfig_loader_set_callback``, whose payload is a key
:func:`pathconfig._callbacks.hold` gave. The library calls
:data:`pathconfig._callbacks.FREE` with the key once the trampoline is no
longer used (replaced or its loader freed, and no call of it running: see the
header), and only then is it dropped. So the trampoline stays alive exactly as
long as C may call it, and this module keeps no other state. ctypes reports an
exception raised by ``on_change`` through :func:`sys.unraisablehook` and
returns normally to C.

Interrupts. A ``load()`` or ``refresh()`` cannot be cut short: the library's
call runs its chain to the end. What a signal handler raises meanwhile on
that thread (Ctrl-C's ``KeyboardInterrupt``) is kept in its :class:`Run`,
and the call raises it once the library returns: when it is due as the
trampoline starts (:func:`pathconfig._callbacks.deferring`: the event is
delivered all the same), and when ``on_change`` raises it (any exception
that is not an :class:`Exception`; an ``Exception`` is reported, as above).

The listener holds its loader weakly and reads ``on_change`` from it at each
event: the loader holds ``on_change``, the library holds only the listener.
So an ``on_change`` that refers to its loader makes a cycle the garbage
collector can free, as it would be without the library.
"""

from __future__ import annotations

import enum
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, cast

from . import _callbacks, _ffi
from ._config import PathConfiguration
from ._errors import (
    CacheError,
    CacheReason,
    DownloadError,
    DownloadReason,
    Error,
    _enum_or_int,
)

_lib = _ffi.lib


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


# --- the trampoline ----------------------------------------------------------------


class Run:
    """What one ``load()`` or ``refresh()`` collects while the library runs
    its chain: the events, and the first interrupt that arrived, which the
    call raises when the library returns."""

    __slots__ = ("events", "interrupt")

    def __init__(self) -> None:
        self.events: List[LoaderEvent] = []
        self.interrupt: Optional[BaseException] = None

    def defer(self, exc: BaseException) -> None:
        if self.interrupt is None:
            self.interrupt = exc


#: The load() or refresh() running on each thread, by thread ident.
Collectors = Dict[int, Run]


class _Listener:
    """What one registration calls: copies the event, hands it to the
    ``load()`` / ``refresh()`` running on this thread (if any), then to the
    loader's ``on_change`` (if any). Called by ctypes, which takes the GIL, on
    the thread running the chain or on the loader's polling thread."""

    def __init__(self, loader: "weakref.ReferenceType[Any]", collectors: Collectors, owner: str) -> None:
        #: Weak: the loader holds ``on_change``, and ``on_change`` may hold the loader.
        self.loader = loader
        self.collectors = collectors
        self.owner = owner
        #: Set by the first call: from then until the library releases the
        #: trampoline, a call of it may be running (see :func:`wait_for_calls`).
        self.called = False

    def on_change(self) -> Optional[OnChange]:
        """The loader's ``on_change`` now; ``None`` once it is closed or collected."""
        loader = self.loader()
        return None if loader is None else cast(Optional[OnChange], loader.on_change)

    def __call__(self, event: Any, payload: Any) -> None:
        self.called = True
        run = self.collectors.get(threading.get_ident())
        on_change = self.on_change()
        if run is None and on_change is None:
            return  # nobody listens (e.g. polling without on_change)
        copied = LoaderEvent._from_c(event.contents)
        if run is not None:
            run.events.append(copied)
        if on_change is not None:
            on_change(copied)  # what it raises goes to interrupted()

    def interrupted(self, exc: BaseException, ran: bool, event: Any, payload: Any) -> None:
        """What was raised before this listener returned
        (:func:`pathconfig._callbacks.deferring`). A signal handler's
        exception due as the call started (``ran`` false): the event is
        delivered all the same, and the ``load()`` or ``refresh()`` running
        on this thread raises it when the library returns. Raised during
        the call (by ``on_change``, or a handler's while it ran): one that
        is not an ``Exception`` (``KeyboardInterrupt``) is raised the same
        way; an ``Exception`` is reported by ctypes and the chain goes on,
        as is anything on a thread with no such call."""
        run = self.collectors.get(threading.get_ident())
        kept = run is not None and not (ran and isinstance(exc, Exception))
        if run is not None and kept:
            run.defer(exc)  # first: delivering the event may raise (on_change's own)
        if not ran:
            self(event, payload)
        if not kept:
            raise exc

    def __repr__(self) -> str:
        return f"<on_change callback {self.on_change()!r} of {self.owner}>"


def register(ptr: Any, loader: Any, collectors: Collectors, owner: str) -> None:
    """Registers a new trampoline as the loader's callback, in place of the
    one before. ``loader`` is the Python object, held weakly.

    Returns at once, even while a call of the old one runs (on another
    thread, or this one when called from inside it): that call goes on to
    its end, and the library releases the old trampoline when it returns,
    or at once when no call of it runs (1.1.0)."""
    listener = _Listener(weakref.ref(loader), collectors, owner)
    trampoline = _ffi.LoaderCallback(_callbacks.deferring(listener, listener.interrupted))
    key = _callbacks.hold((trampoline, listener))
    try:
        _lib.pathconfig_loader_set_callback(ptr, trampoline, key, _callbacks.FREE)
    except BaseException:
        _callbacks.release(key)  # refused: the library took nothing
        raise


def wait_for_calls(seconds: float) -> None:
    """Waits, at most ``seconds``, until the library has released every
    trampoline that has been called (a call of it may still run, on another
    thread: closing a loader never waits for it). Returns at once when none
    is held, as after closing loaders whose callbacks were not running."""
    deadline = time.monotonic() + seconds

    def calling(obj: Any) -> bool:
        return isinstance(obj, tuple) and isinstance(obj[-1], _Listener) and obj[-1].called

    while _callbacks.holds(calling) and time.monotonic() < deadline:
        time.sleep(0.001)
