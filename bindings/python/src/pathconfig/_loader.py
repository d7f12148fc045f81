"""A configuration kept current from several sources: :class:`Loader`, over
``pathconfig_loader`` (include/pathconfig/loader.h, "Loader: sources, cache
and live updates").

Its sources and options are in :mod:`pathconfig._sources`, its events and
the callback trampoline in :mod:`pathconfig._events`. The library keeps the
callback's guarantees (a callback is never released while it runs; setting
one, closing or collecting the loader from inside one works), so this module
only owns the handle.
"""

from __future__ import annotations

import atexit
import functools
import itertools
import threading
import weakref
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from . import _ffi
from ._config import PathConfiguration, StrPath, _load_options
from ._ffi import text_arg as _c_text
from ._errors import ClosedError, DownloadError
from ._events import Collectors, LoaderEvent, OnChange, Run, register, wait_for_calls
from ._handle import OwnedHandle, Owner
from ._sources import Source, _loader_options, _sources_json

_lib = _ffi.lib


#: The C loaders not freed yet, each under a number its :class:`Loader` took:
#: the Loader, held weakly, and the pointer. Exit frees them all, even a
#: Loader's that is garbage whose ``__del__`` has not run yet: a collection
#: (on a polling thread, say) first drops its weak references, then frees
#: its loaders one at a time, each free waiting for a download to be
#: abandoned. ``__del__`` does nothing once the interpreter is finalising,
#: so such a loader would poll on, and call a trampoline that finalisation
#: has freed.
_unfreed: Dict[int, Tuple["weakref.ReferenceType[Loader]", Any]] = {}
_numbers = itertools.count(1)


def _free(address: int) -> None:
    """Frees a C loader (from any thread, and from inside its own callback)."""
    _ffi.lookup.loader_free(address)


def _free_loader(number: int, address: int) -> None:
    """Frees loader ``number`` unless that is done (``dict.pop`` is atomic, so
    however many threads ask, one frees it)."""
    if _unfreed.pop(number, None) is not None:
        _free(address)


#: How long interpreter exit waits, in seconds, for loaders' callbacks that
#: are running on another thread to return.
EXIT_PATIENCE = 2.0


@atexit.register
def _close_open_loaders() -> None:
    """Closes the loaders still open and frees those whose Loader is garbage
    not yet finalised (none of their calls can be in flight), then waits (at
    most :data:`EXIT_PATIENCE`) for their callbacks' calls still running on
    other threads, which closing never waits for: finalisation would cut
    them short, or free the trampolines they return through. When no
    callback runs, nothing waits (a download in progress on another thread
    included)."""
    for number, (ref, handed) in list(_unfreed.items()):
        loader = ref()
        if loader is None:
            _free_loader(number, handed.take())
        else:
            loader.close()
    wait_for_calls(EXIT_PATIENCE)


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
    - ``follow_redirects_to_other_hosts``: follow a redirect to another host
      (default ``False``: the download fails with ``DOWNLOAD_HTTP_STATUS``,
      naming the target). Redirects on the same host are followed, at most
      5; from https to http never.
    - ``profile``, ``match_query_strings``, ``backend``, ``lenient``,
      ``base_url``, ``merge``, ``result_cache_size``, ``max_url_bytes``: as
      for :meth:`PathConfiguration.from_file`,
      applied to every source. (Rules added from code belong to one
      configuration: add them again to each new :attr:`current`.)
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
    interpreter exit (which then waits, at most :data:`EXIT_PATIENCE`
    seconds, for a callback running on another thread); any use after
    :meth:`close` raises :class:`ClosedError`. Configurations already
    obtained stay valid. The loader holds ``on_change``; the library holds
    the loader only weakly. So an ``on_change`` that refers to its loader
    does not keep it alive: the cycle collector frees both, and polling
    stops.

    A loader belongs to the process that made it: in a child of ``fork()``
    (a preforking server's worker, gunicorn ``--preload``), :meth:`load` and
    :meth:`refresh` raise :class:`MisuseError` (``E_FORKED``), since the
    polling thread stayed in the parent; :attr:`current` and :meth:`close`
    still work. Make each worker's loader after the fork.
    """

    _on_change: Optional[OnChange]
    _collectors: Collectors
    _description: str  # names the loader in the on_change reports
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
        follow_redirects_to_other_hosts: Optional[bool] = None,
        profile: Optional[str] = None,
        match_query_strings: Optional[bool] = None,
        backend: Optional[str] = None,
        lenient: bool = False,
        base_url: Optional[str] = None,
        merge: Optional[str] = None,
        result_cache_size: Optional[int] = None,
        max_url_bytes: Optional[int] = None,
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
            follow_redirects_to_other_hosts,
            _load_options(
                profile, match_query_strings, backend, lenient, base_url, merge, result_cache_size, max_url_bytes
            ),
        )
        if on_change is not None and not callable(on_change):
            raise TypeError(f"on_change must be callable or None, not {type(on_change).__name__}")
        self._on_change = on_change
        self._collectors = {}
        self._description = f"pathconfig.Loader with {len(kept)} source(s)"
        self._sources = kept
        handed = _lib.pathconfig_loader_new(sources_json, options_json, _ffi.ErrorStruct())
        ptr = _ffi.LoaderPtr.from_buffer_copy(handed)
        try:
            # Registered even without on_change: load() and refresh() collect
            # their events through it.
            register(ptr, self, self._collectors, self._description)
        except BaseException:
            _free(handed.take())
            raise
        number = next(_numbers)
        # Until it is freed, _unfreed holds the handed object too, so that
        # exit frees it even if this owner's __del__ was struck.
        _unfreed[number] = (weakref.ref(self), handed)
        # A Python owner, with __del__: the free goes through _unfreed.
        self._own(ptr, Owner(handed, functools.partial(_free_loader, number)))

    # --- running the chain ------------------------------------------------------------

    def _run(self, func: Any) -> List[LoaderEvent]:
        collectors = self._collectors
        ident = threading.get_ident()
        run = Run()
        outer = collectors.get(ident)  # load() from inside on_change
        collectors[ident] = run
        try:
            self._call(func, _ffi.ErrorStruct())
        except DownloadError as exc:
            # err is the last failure, which was a download: its event has
            # the reason and status that err has no room for.
            for event in reversed(run.events):
                if isinstance(event.error, DownloadError):
                    exc._details(event.error.reason or 0, event.error.http_status or 0, event.error.url)
                    break
            raise
        finally:
            if outer is None:
                del collectors[ident]
            else:
                collectors[ident] = outer
            if run.interrupt is not None:
                # An interrupt that arrived while the chain ran (Ctrl-C):
                # raised now, the chain having run to its end.
                raise run.interrupt
        return run.events

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
                nothing was run, and polling was not started; or, with code
                ``E_FORKED``, in a child of ``fork()`` on a loader made before
                the fork (make the child's own loader).
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
                nothing was run; or, with code ``E_FORKED``, in a child of
                ``fork()`` on a loader made before the fork.
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
        keep the event (and its ``configuration``), set :attr:`on_change` and
        :meth:`close` the loader; :meth:`load` and :meth:`refresh` raise
        :class:`MisuseError` there.
        An exception it raises is reported through :func:`sys.unraisablehook`
        (printed to stderr by default) and the chain goes on.

        The loader keeps the callable, and each event reads it from the
        loader, which the library holds only weakly: a callable that refers
        to the loader does not keep it alive. Setting it replaces the old one
        at once, from any thread: the old one is not called again, though a
        call of it in progress goes on to its end; :meth:`load` and
        :meth:`refresh` raise :class:`MisuseError` while one runs. After
        :meth:`close`, it is not called again.
        """
        if self._closed:
            return None
        return self._on_change

    @on_change.setter
    def on_change(self, callback: Optional[OnChange]) -> None:
        if callback is not None and not callable(callback):
            raise TypeError(f"on_change must be callable or None, not {type(callback).__name__}")
        if self._closed:
            raise ClosedError("operation on a closed Loader")
        # The trampoline reads it at each event, so this is all it takes.
        self._on_change = callback

    # --- the rest ---------------------------------------------------------------------

    @property
    def sources(self) -> Tuple[Source, ...]:
        """The sources, as given."""
        return self._sources

    def close(self) -> None:
        """Stops polling (a refresh in progress abandons its download within
        about a second, and is waited for; a running ``on_change`` never is),
        then frees the C loader; ``on_change`` is not called again.
        Idempotent; later use raises :class:`ClosedError`. Configurations
        obtained from the loader stay valid. When another thread is inside a
        call on this loader, the loader is freed as that call returns. Inside
        ``on_change`` it is freed at once (the library allows that), and
        ``on_change`` is released when it returns."""
        if not self._closed:
            try:
                ptr = self._acquire()
            except ClosedError:  # closed meanwhile by another thread
                ptr = None
            if ptr is not None:
                try:
                    # A closed loader's trampoline calls no on_change, but a
                    # fresh one, never called, replaces it now, even when the
                    # C loader is freed later (another thread is inside a
                    # call), so that exit never waits for that call
                    # (wait_for_calls). Replacing never waits (1.1.0).
                    register(ptr, self, self._collectors, self._description)
                finally:
                    self._done()
        super().close()
        self._on_change = None

    def __repr__(self) -> str:
        state = " (closed)" if self._closed else ""
        return f"<pathconfig.Loader sources={len(self._sources)}{state}>"
