"""pathconfig.Loader against a real nginx on 127.0.0.1 (tests/nginx_server.py):
file then server, the cache with the server down, 304, a new version,
500 / invalid JSON / a timeout / a body over the limit leaving `current` and
the cache file as they were, a corrupt cache file, the on_change callable
(its events, its lifetime, exceptions in it, misuse from inside it), polling,
close(), and threads resolving through `current` while another refreshes.
Without nginx these tests fail; they never skip."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import socket
import sys
import textwrap
import threading
import time
import warnings
import weakref
from pathlib import Path
from typing import Any, Callable, ContextManager, Dict, Iterator, List, Optional, Tuple, cast

import pytest
from nginx_server import Nginx
from socket_server import Served, response, serving

import pathconfig
from pathconfig import (
    CacheError,
    CacheReason,
    ClosedError,
    ConfigError,
    DataSource,
    DownloadError,
    DownloadReason,
    ErrorCode,
    EventKind,
    FileSource,
    Loader,
    LoaderEvent,
    MisuseError,
    PathConfiguration,
    ServerSource,
    SourceKind,
)


def document(version: str) -> str:
    """A configuration every path resolves to {"version": V, "rule2": V} under."""
    return (
        '{"settings": {"version": "%s"},\n "rules": [\n'
        '  {"patterns": [".*"], "properties": {"version": "%s"}},\n'
        '  {"patterns": ["^/"], "properties": {"rule2": "%s"}}\n ]}\n' % (version, version, version)
    )


def version_of(cfg: Optional[PathConfiguration]) -> str:
    """The version cfg resolves "/x" to; "?" when its two rules disagree (a
    configuration that is not whole); "" for None."""
    if cfg is None:
        return ""
    props = cfg.properties("/x")
    return str(props["version"]) if props.get("version") == props.get("rule2") else "?"


def current_version(loader: Loader) -> str:
    cfg = loader.current
    try:
        return version_of(cfg)
    finally:
        if cfg is not None:
            cfg.close()


def summary(events: List[LoaderEvent]) -> str:
    return " ".join(f"{SourceKind(e.source_kind).name.lower()}:{EventKind(e.kind).name.lower()}" for e in events)


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Nginx]:
    srv = Nginx(tmp_path)
    srv.put("config.json", document("v1"))
    yield srv
    srv.destroy()


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    path = tmp_path / "bundle.json"
    path.write_text(document("bundle"), encoding="utf-8")
    return path


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def chain(bundle: Path, server: Nginx) -> List[Any]:
    return [FileSource(bundle), ServerSource(server.url("config.json"), headers={"Accept": "application/json"})]


# --- the chain -------------------------------------------------------------------------


def test_first_download_file_then_server(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    seen: List[LoaderEvent] = []
    threads: List[int] = []

    def on_change(event: LoaderEvent) -> None:
        seen.append(event)
        threads.append(threading.get_ident())

    url = server.url("config.json")
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, user_agent="pathconfig-py-test",
                on_change=on_change) as loader:
        assert loader.current is None
        cache_file = loader.cache_file(url)
        assert cache_file is not None and Path(cache_file).parent == cache_dir
        events = loader.load()
        assert summary(events) == "file:applied server:applied"
        assert len(seen) == 2 and all(a is b for a, b in zip(seen, events)), "on_change got the returned events"
        assert threads == [threading.get_ident()] * 2, "load() delivers events on the calling thread"

        file_event, server_event = events
        assert (file_event.kind, file_event.source_kind, file_event.source_index) == (EventKind.APPLIED, SourceKind.FILE, 0)
        assert file_event.location == str(bundle) and file_event.url is None
        assert file_event.byte_count == len(document("bundle").encode())
        assert (file_event.http_status, file_event.reason, file_event.error) == (None, None, None)
        assert version_of(file_event.configuration) == "bundle"
        assert "applied" in str(file_event) and str(file_event) == file_event.description

        assert (server_event.kind, server_event.source_kind, server_event.source_index) == (EventKind.APPLIED, SourceKind.SERVER, 1)
        assert server_event.location == url and server_event.url == url
        assert version_of(server_event.configuration) == "v1"
        assert url in server_event.description

        assert current_version(loader) == "v1"
        assert server.log("GET /config.json 200", "accept=[application/json]", "ua=[pathconfig-py-test]", expected=1)
        assert '"v1"' in Path(cache_file).read_text()
    # The configuration copied into the event outlives the loader.
    assert version_of(server_event.configuration) == "v1"


def test_cache_reused_when_the_server_is_down(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    url = server.url("config.json")
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as first:
        first.load()
        cache_file = Path(first.cache_file(url) or "")
    cached = cache_file.read_bytes()
    server.put("config.json", document("v2"))  # never seen: the server is down
    server.stop()

    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as second:
        events = second.load()  # no exception: a configuration is current
        assert summary(events) == "file:applied cache:applied server:failed"
        cache_event, failed = events[1], events[2]
        assert cache_event.location == str(cache_file) and cache_event.url == url
        assert version_of(cache_event.configuration) == "v1"
        assert isinstance(failed.error, DownloadError) and failed.error.code == ErrorCode.E_DOWNLOAD
        assert failed.reason == failed.error.reason == DownloadReason.TRANSPORT
        assert failed.http_status is None and failed.error.url == url
        assert current_version(second) == "v1"

        with pytest.raises(DownloadError) as info:
            second.refresh()
        assert info.value.reason == DownloadReason.TRANSPORT and url in info.value.message
        assert current_version(second) == "v1"
    assert cache_file.read_bytes() == cached

    # A server source alone, no cache, server down: nothing is current, load() raises.
    with Loader([ServerSource(url)], timeout=2) as alone:
        with pytest.raises(DownloadError) as info:
            alone.load()
        assert isinstance(info.value, OSError) and info.value.reason == DownloadReason.TRANSPORT
        assert str(info.value).startswith(f"server {url}: ")
        assert alone.current is None


def test_304_on_refresh(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    url = server.url("config.json")
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as loader:
        loader.load()
        cache_file = Path(loader.cache_file(url) or "")
        cached = cache_file.read_bytes()
        events = loader.refresh()
        assert summary(events) == "server:not_modified"
        assert version_of(events[0].configuration) == "v1", "not-modified carries the known configuration"
        assert server.log("GET /config.json 304", 'inm=["', expected=1), "a conditional request answered 304"
        assert current_version(loader) == "v1"
        assert cache_file.read_bytes() == cached


def test_new_version_picked_up(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    url = server.url("config.json")
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as loader:
        loader.load()
        held = loader.current
        server.put("config.json", document("v2"))
        events = loader.refresh()
        assert summary(events) == "server:applied" and version_of(events[0].configuration) == "v2"
        assert current_version(loader) == "v2"
        assert '"v2"' in Path(loader.cache_file(url) or "").read_text()
        assert version_of(held) == "v1", "a configuration held stays whole and valid"


@pytest.mark.parametrize("failure", ["500", "invalid JSON", "timeout", "too large"])
def test_failures_keep_current_and_cache(server: Nginx, bundle: Path, cache_dir: Path, failure: str) -> None:
    url = server.url("config.json")
    seen: List[LoaderEvent] = []
    max_body = 4096
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=0.5 if failure == "timeout" else 5,
                max_body_bytes=max_body, on_change=seen.append) as loader:
        loader.load()
        cache_file = Path(loader.cache_file(url) or "")
        cached = cache_file.read_bytes()
        # A good new version is on the server, so only the failure keeps it out.
        server.put("config.json", document("v2"))
        if failure == "500":
            server.fail500(True)
        elif failure == "timeout":
            server.slow(True)
        elif failure == "invalid JSON":
            server.put("config.json", '{"rules": [\n  {"patterns": [".*"],,}\n]}\n')
        else:
            server.put("config.json", document("v2") + " " * max_body)
        seen.clear()
        with pytest.raises(pathconfig.Error) as info:
            loader.refresh()
        err = info.value
        assert summary(seen) == "server:failed"
        event = seen[0]
        assert event.configuration is None and event.error is not None and event.error.code == err.code
        if failure == "invalid JSON":
            assert isinstance(err, ConfigError) and err.code == ErrorCode.E_JSON and err.line == 2
            assert isinstance(event.error, ConfigError) and event.error.line == 2 and event.reason is None
            assert event.byte_count is not None and event.byte_count > 0
        else:
            assert isinstance(err, DownloadError) and isinstance(event.error, DownloadError)
            expected = {"500": DownloadReason.HTTP_STATUS, "timeout": DownloadReason.TIMEOUT,
                        "too large": DownloadReason.TOO_LARGE}[failure]
            assert err.reason == event.reason == expected, err
            # The status of a response that arrived (a body over the limit came with a 200).
            statuses = {"500": (500,), "timeout": (None, 200), "too large": (200,)}[failure]
            assert err.http_status == event.http_status and err.http_status in statuses
            assert err.url == url
        assert err.message.startswith(f"server {url}: "), "the message names the source"
        assert current_version(loader) == "v1", f"current unchanged after {failure}"
        assert cache_file.read_bytes() == cached, f"cache file byte-identical after {failure}"
        server.fail500(False)
        server.slow(False)


def test_corrupt_cache_file_is_a_warning(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    url = server.url("config.json")
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as loader:
        cache_file = loader.cache_file(url) or ""
    cache_dir.mkdir()
    Path(cache_file).write_bytes(b"garbage\n")
    server.stop()
    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as loader:
        events = loader.load()
        assert summary(events) == "file:applied cache:warning server:failed"
        warning = events[1]
        assert isinstance(warning.error, CacheError) and isinstance(warning.error, OSError)
        assert warning.reason == warning.error.reason == CacheReason.CORRUPT
        assert warning.error.filename == cache_file and warning.error.url == url
        assert current_version(loader) == "bundle"
    server.start()


def test_data_source_and_dict_sources(server: Nginx, tmp_path: Path) -> None:
    url = server.url("config.json")
    events = []
    with Loader([DataSource(document("embedded"), name="embedded"), {"server": url}], max_body_bytes=16) as loader:
        events = loader.load()
        assert summary(events) == "data:applied server:failed"
        assert events[0].location == "embedded" and events[0].url is None
        assert events[1].reason == DownloadReason.TOO_LARGE
        assert current_version(loader) == "embedded"
    with Loader([{"data": document("d"), "name": "n"}, DataSource(document("bytes").encode())]) as loader:
        events = loader.load()
        assert summary(events) == "data:applied data:applied" and events[1].location == "data"
        assert current_version(loader) == "bytes"


def test_load_raises_only_when_nothing_is_current(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    good = tmp_path / "good.json"
    good.write_text(document("good"))
    with Loader([FileSource(missing)]) as loader:
        with pytest.raises(ConfigError) as info:
            loader.load()
        assert info.value.code == ErrorCode.E_IO and info.value.message.startswith(f"file {missing}: ")
        assert loader.current is None
        assert loader.refresh() == [], "after load(), refresh() only downloads, and there is no server source"
    with Loader([FileSource(good), FileSource(missing)]) as loader:
        # refresh() before load() runs load's chain (without polling), and
        # raises when any step failed, even with a configuration current.
        with pytest.raises(ConfigError) as info:
            loader.refresh()
        assert info.value.code == ErrorCode.E_IO and current_version(loader) == "good"
    with Loader([FileSource(missing)]) as loader:
        with pytest.raises(ConfigError):
            loader.refresh()
    with Loader([FileSource(good), FileSource(missing)]) as loader:
        events = loader.load()  # the good file is current: no exception
        assert summary(events) == "file:applied file:failed"
        assert isinstance(events[1].error, ConfigError) and events[1].error.code == ErrorCode.E_IO
        assert current_version(loader) == "good"
        assert loader.refresh() == [], "no server source: nothing to refresh"
        assert loader.cache_file("http://example.com/") is None, "no cache_dir"


# --- arguments -------------------------------------------------------------------------


def test_argument_types_are_checked_before_c(tmp_path: Path) -> None:
    ok = [FileSource(tmp_path / "x.json")]
    for bad_sources in ("a.json", b"a.json", {"file": "a"}, [1], ["a.json"], None, [{1: "x"}], [{"data": object()}]):
        with pytest.raises(TypeError):
            Loader(bad_sources)  # type: ignore[arg-type]
    for option, value in [("cache_dir", 1), ("timeout", "1"), ("timeout", True), ("max_body_bytes", 1.5),
                          ("refresh_interval", []), ("user_agent", 1), ("ca_file", 2.0), ("profile", 1),
                          ("match_query_strings", 1), ("backend", 1), ("lenient", None), ("on_change", 1),
                          ("follow_redirects_to_other_hosts", 1)]:
        with pytest.raises(TypeError, match=option):
            Loader(ok, **cast(Dict[str, Any], {option: value}))
    for option, value in [("timeout", 0), ("timeout", -1), ("timeout", float("nan")), ("timeout", float("inf")),
                          ("refresh_interval", 0.0), ("max_body_bytes", 0), ("max_body_bytes", 2**63),
                          ("user_agent", "a\0b"), ("cache_dir", "a\udc80")]:
        with pytest.raises(ValueError, match=option):
            Loader(ok, **cast(Dict[str, Any], {option: value}))
    with pytest.raises(TypeError):
        ServerSource(b"http://h/")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ServerSource("http://h/", headers={"Accept": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DataSource(1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not UTF-8"):
        DataSource(b"\xff")
    with pytest.raises(ValueError, match="NUL"):
        ServerSource("http://h/\0")
    with pytest.raises(TypeError):
        cast(Any, Loader)(ok, 5)  # options are keyword-only


def test_loader_options_serialise_to_the_c_json() -> None:
    from pathconfig._sources import _loader_options

    text = _loader_options("/c", 1.5, None, None, None, None, True, {"profile": "siesta"})
    assert json.loads(text) == {"profile": "siesta", "cache_dir": "/c", "timeout_ms": 1500,
                                "follow_redirects_to_other_hosts": True}
    assert "follow_redirects_to_other_hosts" not in json.loads(_loader_options(None, None, None, None, None, None, None, {}))


def test_sources_serialise_to_the_c_forms() -> None:
    server = ServerSource("https://h/p.json", headers=[("Accept", "application/json"), ("X-B", "1")])
    assert server.to_dict() == {"server": "https://h/p.json", "headers": {"Accept": "application/json", "X-B": "1"}}
    assert list(server.to_dict()["headers"]) == ["Accept", "X-B"], "headers keep their order"
    assert ServerSource("https://h/").to_dict() == {"server": "https://h/"}
    assert FileSource(Path("a") / "b.json").to_dict() == {"file": "a/b.json"}
    assert FileSource(b"c.json").to_dict() == {"file": "c.json"}
    assert DataSource("{}", name="n").to_dict() == {"data": "{}", "name": "n"}
    assert DataSource("{}").to_dict() == {"data": "{}"}
    assert FileSource("a") == FileSource("a") and hash(ServerSource("http://h/", {"A": "b"}))


def test_rejected_sources_and_options_are_config_errors(tmp_path: Path) -> None:
    ok = [FileSource(tmp_path / "x.json")]
    cases: List[Tuple[Callable[[], Loader], ErrorCode, str]] = [
        (lambda: Loader([]), ErrorCode.E_OPTIONS, "sources are empty"),
        (lambda: Loader([{"fiel": "b"}]), ErrorCode.E_OPTIONS, 'source 0: unknown key "fiel"'),
        (lambda: Loader([ServerSource("ftp://h/x")]), ErrorCode.E_OPTIONS, "is not an http:// or https:// URL"),
        (lambda: Loader([ServerSource("http://h/", {"Bad Name": "v"})]), ErrorCode.E_OPTIONS, "not a valid header name"),
        (lambda: Loader(ok, user_agent="a\nb"), ErrorCode.E_OPTIONS, "without control characters"),
        (lambda: Loader(ok, profile="ios"), ErrorCode.E_OPTIONS, 'unknown profile "ios"'),
        (lambda: Loader(ok, backend="foundation"), ErrorCode.E_BACKEND, "not built into this library"),
    ]
    for make, code, message in cases:
        with pytest.raises(ConfigError) as info:
            make()
        assert info.value.code == code and message in info.value.message, repr(info.value)
    # The largest values are accepted.
    Loader(ok, timeout=9.2e15, max_body_bytes=2**63 - 1, refresh_interval=1e-9).close()


# --- the callable --------------------------------------------------------------------------


def test_callback_that_raises_does_not_break_the_loader(
    server: Nginx, bundle: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reported: List[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    calls: List[LoaderEvent] = []

    def on_change(event: LoaderEvent) -> None:
        calls.append(event)
        raise RuntimeError(f"boom {len(calls)}")

    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, on_change=on_change) as loader:
        events = loader.load()
        assert summary(events) == "file:applied server:applied", "the chain went on after each exception"
        assert len(calls) == 2 and current_version(loader) == "v1"
        server.put("config.json", document("v2"))
        assert summary(loader.refresh()) == "server:applied" and current_version(loader) == "v2"
    assert [str(r.exc_value) for r in reported] == ["boom 1", "boom 2", "boom 3"]
    assert all(isinstance(r.exc_value, RuntimeError) for r in reported)
    assert "on_change" in repr(reported[0].object) and "pathconfig.Loader" in repr(reported[0].object)


class Recorder:
    def __init__(self, into: List[LoaderEvent]) -> None:
        self.into = into

    def __call__(self, event: LoaderEvent) -> None:
        self.into.append(event)


def test_callable_kept_alive_while_registered(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    seen: List[LoaderEvent] = []
    callback = Recorder(seen)
    alive = weakref.ref(callback)
    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, on_change=callback)
    del callback
    gc.collect()
    assert alive() is not None, "the loader keeps on_change alive"
    loader.load()
    assert summary(seen) == "file:applied server:applied"

    # Replacing it releases the old one and calls the new one.
    others: List[LoaderEvent] = []
    loader.on_change = Recorder(others)
    gc.collect()
    assert alive() is None
    assert summary(loader.refresh()) == "server:not_modified" and summary(others) == "server:not_modified"
    assert len(seen) == 2

    # Removing it: events are still returned, nobody is called.
    loader.on_change = None
    assert loader.on_change is None
    assert summary(loader.refresh()) == "server:not_modified" and len(others) == 1

    third = Recorder([])
    third_alive = weakref.ref(third)
    loader.on_change = third
    del third
    loader.close()
    gc.collect()
    assert third_alive() is None, "close() releases on_change"


def test_an_on_change_that_refers_to_its_loader_does_not_keep_it(
    server: Nginx, bundle: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The natural callback, ``lambda event: use(loader.current)``, makes a
    cycle: the loader holds it, and it holds the loader. The library holds
    the loader only weakly, so the collector frees both, and polling stops."""
    freed_on = record_free_threads(monkeypatch)
    seen: List[LoaderEvent] = []

    def make() -> "weakref.ReferenceType[Loader]":
        loader = Loader(
            chain(bundle, server),
            cache_dir=cache_dir,
            timeout=5,
            refresh_interval=0.02,
            on_change=lambda event: seen.append(event) if loader.current is not None else None,
        )
        loader.load()
        return weakref.ref(loader)

    gone = make()
    assert wait_for(lambda: len(seen) >= 4), "polling delivers to the callback"
    # A call in progress holds the loader (through the callback's frame):
    # collect until none is.
    assert wait_for(lambda: gc.collect() >= 0 and gone() is None), "the loader was collected"
    assert wait_for(lambda: len(freed_on) == 1), f"freed once: {freed_on}"
    delivered = len(seen)
    time.sleep(0.2)
    assert len(seen) == delivered, "polling stopped with the loader"


def test_calls_handed_to_another_thread_from_inside_the_callback(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    """As an FFI that runs a callback's body on a thread of its own would:
    the callback waits for a thread that loads, replaces the callback and
    closes the loader. Nothing may wait for the running callback."""
    results: List[Any] = []
    loader: Optional[Loader] = None

    def elsewhere() -> None:
        assert loader is not None
        try:
            loader.load()
        except MisuseError as exc:
            results.append(exc)
        loader.on_change = results.append
        loader.close()
        results.append("closed")

    def on_change(event: LoaderEvent) -> None:
        worker = threading.Thread(target=elsewhere)
        worker.start()
        worker.join(20)
        results.append("joined" if not worker.is_alive() else "deadlocked")

    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, on_change=on_change)
    assert summary(loader.load()) == "file:applied server:applied", "the load ran to its end"
    # One call of on_change: no event was delivered after close().
    assert [type(r).__name__ for r in results] == ["MisuseError", "str", "str"] and results[1:] == ["closed", "joined"]
    assert "another thread" in results[0].message


def test_calls_from_inside_the_callback(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    results: List[Any] = []
    loader: Optional[Loader] = None

    def on_change(event: LoaderEvent) -> None:
        assert loader is not None
        if event.source_kind == SourceKind.SERVER:
            for call in (loader.load, loader.refresh):
                try:
                    call()
                except MisuseError as exc:
                    results.append(exc)
            results.append(current_version(loader))
            loader.on_change = results.append  # replacing it from inside does not deadlock

    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, on_change=on_change)
    try:
        assert summary(loader.load()) == "file:applied server:applied"
        assert [type(r) for r in results[:2]] == [MisuseError, MisuseError]
        misuse = results[0]
        assert isinstance(misuse, MisuseError) and isinstance(misuse, RuntimeError)
        assert misuse.code == ErrorCode.E_MISUSE and "own callback" in misuse.message
        assert results[2] == "v1", "current works inside, and is the applied configuration"
        loader.refresh()
        assert isinstance(results[3], LoaderEvent), "the replacement is called"
    finally:
        loader.close()


def native_threads() -> int:
    """The threads of this process, the library's included (Linux)."""
    return len(os.listdir("/proc/self/task"))


def test_a_refused_load_starts_nothing(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    refused: List[MisuseError] = []
    seen: List[LoaderEvent] = []
    loader: Optional[Loader] = None

    def on_change(event: LoaderEvent) -> None:
        assert loader is not None
        seen.append(event)
        if event.source_kind == SourceKind.SERVER:
            try:
                loader.load()
            except MisuseError as exc:
                refused.append(exc)

    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, refresh_interval=0.05, on_change=on_change)
    try:
        threads = native_threads()
        # refresh() before the first load() runs the chain without polling, so
        # polling could only come from the load() refused inside on_change.
        assert summary(loader.refresh()) == "file:applied server:applied"
        assert len(refused) == 1 and refused[0].code == ErrorCode.E_MISUSE
        assert "pathconfig_loader_load" in refused[0].message and "own callback" in refused[0].message
        time.sleep(0.1)  # let nginx log the last request
        events, requests = len(seen), len(server.log("GET /config.json"))
        time.sleep(0.4)  # eight intervals
        assert len(seen) == events, f"no polling event after the refused load: {summary(seen)}"
        assert len(server.log("GET /config.json")) == requests, "no request after the refused load"
        assert native_threads() <= threads, "no thread started"
        # The host's own load() starts polling: the checks above would see it.
        loader.load()
        assert wait_for(lambda: len(seen) >= events + 6), f"polling after load(): {summary(seen)}"
    finally:
        loader.close()


def test_polling_thread_and_close(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    seen: List[LoaderEvent] = []
    threads: List[int] = []
    lock = threading.Lock()

    def on_change(event: LoaderEvent) -> None:
        with lock:
            seen.append(event)
            threads.append(threading.get_ident())

    def applied(version: str) -> bool:
        with lock:
            return any(e.kind == EventKind.APPLIED and version_of(e.configuration) == version for e in seen)

    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, refresh_interval=0.05, on_change=on_change)
    loader.load()
    server.put("config.json", document("p2"))
    assert wait_for(lambda: applied("p2")), f"polling picked up p2: {summary(seen)}"
    with lock:
        index = next(i for i, e in enumerate(seen) if e.kind == EventKind.APPLIED and version_of(e.configuration) == "p2")
        assert threads[index] != threading.get_ident(), "the polling thread delivered it"
    assert current_version(loader) == "p2"
    loader.close()
    with lock:
        count = len(seen)
    server.put("config.json", document("p3"))
    time.sleep(0.3)
    assert len(seen) == count, "no event after close()"


def answering_only_the_first(body: bytes) -> ContextManager[Served]:
    """A server whose URL is yielded with its connections, in order: it
    answers the first request (a load's) with ``body`` and never answers a
    later one (the polling refresh's)."""

    def answer(conn: socket.socket, n: int) -> None:
        if n == 0:
            conn.sendall(response(body))

    return serving(answer)


def test_close_abandons_a_polling_download() -> None:
    """close() while the polling thread waits on a server that never
    answers: the download is abandoned, not waited for (its timeout is 60 s)."""
    with answering_only_the_first(document("v1").encode()) as (url, held):
        loader = Loader([ServerSource(url)], timeout=60, refresh_interval=0.02)
        assert summary(loader.load()) == "server:applied"
        assert wait_for(lambda: len(held) >= 2), "the polling refresh's request arrived"
        start = time.monotonic()
        loader.close()
        elapsed = time.monotonic() - start
        assert elapsed < 10, f"close() took {elapsed:.1f} s"


def test_a_forked_child_is_refused_its_parents_loader() -> None:
    """fork() while the polling thread waits on a download, holding the
    loader's locks (a preforking server that made its loader before forking
    its workers): in the child, load() and refresh() raise MisuseError with
    code E_FORKED, current is the configuration of the fork, and close()
    returns. The parent's loader goes on."""
    with answering_only_the_first(document("v1").encode()) as (url, held):
        with Loader([ServerSource(url)], timeout=60, refresh_interval=0.02) as loader:
            assert summary(loader.load()) == "server:applied"
            assert wait_for(lambda: len(held) >= 2), "the polling refresh's request arrived"
            read_end, write_end = os.pipe()
            with warnings.catch_warnings():  # Python 3.12 warns of fork() with threads running
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
            if pid == 0:  # the child: the verdict goes to the pipe, and nothing returns to pytest
                verdict = "ok"
                try:
                    for call in (loader.refresh, loader.load):
                        try:
                            call()
                            verdict = f"{call.__name__}() did not raise"
                        except MisuseError as exc:
                            if exc.code != ErrorCode.E_FORKED or "fork()" not in str(exc):
                                verdict = f"{call.__name__}(): {exc!r}"
                    if verdict == "ok" and version_of(loader.current) != "v1":
                        verdict = f"current: {version_of(loader.current)}"
                    loader.close()
                except BaseException as exc:  # noqa: B036 - whatever it is, the parent reports it
                    verdict = repr(exc)
                os.write(write_end, verdict.encode())
                os._exit(0)
            os.close(write_end)
            with os.fdopen(read_end, "rb") as pipe:
                verdict = pipe.read().decode()
            _, status = os.waitpid(pid, 0)
            assert verdict == "ok" and not os.WIFSIGNALED(status), f"the child: {verdict or 'no answer'}, status {status}"
            assert version_of(loader.current) == "v1", "the parent's loader goes on"


def record_free_threads(monkeypatch: pytest.MonkeyPatch) -> List[int]:
    """The idents of the threads that run pathconfig_loader_free from now on."""
    from pathconfig import _loader

    idents: List[int] = []
    free = _loader._free

    def recording(ptr: Any) -> None:
        idents.append(threading.get_ident())
        free(ptr)

    monkeypatch.setattr(_loader, "_free", recording)
    return idents


def test_close_from_inside_the_callback_on_the_polling_thread(
    server: Nginx, bundle: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    freed_on = record_free_threads(monkeypatch)
    done = threading.Event()
    loader: Optional[Loader] = None
    after: List[LoaderEvent] = []
    polling: List[int] = []
    released = threading.Event()

    class OnChange:
        def __call__(self, event: LoaderEvent) -> None:
            assert loader is not None
            if done.is_set():
                after.append(event)
            elif threading.current_thread() is not threading.main_thread():
                polling.append(threading.get_ident())
                loader.close()  # freed here, inside its own callback: the library allows it
                assert not released.is_set(), "on_change released while it runs"
                done.set()

    on_change = OnChange()
    weakref.finalize(on_change, released.set)
    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, refresh_interval=0.02, on_change=on_change)
    del on_change
    loader.load()
    assert done.wait(10), "a polling event arrived"
    assert loader.closed
    with pytest.raises(ClosedError):
        loader.refresh()
    assert wait_for(released.is_set), "on_change released once its call returned"
    time.sleep(0.2)
    assert after == []
    assert freed_on == polling, "freed on the polling thread, inside the callback"


def test_unreferenced_loader_is_freed_and_stops_polling(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    seen: List[LoaderEvent] = []
    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, refresh_interval=0.02, on_change=seen.append)
    loader.load()
    assert wait_for(lambda: len(seen) > 3), "polling"
    gone = weakref.ref(loader)
    del loader
    gc.collect()
    assert gone() is None
    count = len(seen)
    time.sleep(0.2)
    assert len(seen) == count, "the finaliser stopped polling"


def test_close_is_idempotent_and_use_after_close_raises(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5)
    events = loader.load()
    held = loader.current
    assert repr(loader) == "<pathconfig.Loader sources=2>"
    loader.close()
    loader.close()
    assert loader.closed and repr(loader) == "<pathconfig.Loader sources=2 (closed)>"
    for use in (lambda: loader.load(), lambda: loader.refresh(), lambda: loader.current,
                lambda: loader.cache_file(server.url("config.json"))):
        with pytest.raises(ClosedError, match="closed Loader"):
            use()
    with pytest.raises(ClosedError):
        loader.on_change = print
    assert loader.on_change is None
    assert version_of(held) == "v1" and version_of(events[1].configuration) == "v1", "configurations outlive the loader"

    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5) as loader:
        assert not loader.closed
    assert loader.closed
    with pytest.raises(ClosedError):
        loader.current


def test_close_while_loading_on_the_calling_thread(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    loader: Optional[Loader] = None

    def on_change(event: LoaderEvent) -> None:
        assert loader is not None
        loader.close()  # load() is in flight: freed when it returns

    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, on_change=on_change)
    events = loader.load()
    assert summary(events) == "file:applied server:applied", "the run finished (on_change called once)"
    assert loader.closed
    with pytest.raises(ClosedError):
        loader.current


# --- threads -------------------------------------------------------------------------------


def test_threads_resolve_through_current_while_another_refreshes(server: Nginx, cache_dir: Path) -> None:
    threads, refreshes = 4, 30
    server.put("config.json", document("t0"))
    stop = threading.Event()
    bad: List[str] = []
    lookups = [0] * threads

    def read(index: int) -> None:
        while not stop.is_set():
            cfg = loader.current
            if cfg is None:
                bad.append("current is None")
                continue
            with cfg:
                props = cfg.properties("https://example.com/x")
            if not str(props["version"]).startswith("t") or props["version"] != props["rule2"]:
                bad.append(repr(props))
            lookups[index] += 1

    with Loader([ServerSource(server.url("config.json"))], cache_dir=cache_dir, timeout=5) as loader:
        loader.load()
        readers = [threading.Thread(target=read, args=(i,)) for i in range(threads)]
        for r in readers:
            r.start()
        applied = 0
        try:
            for i in range(1, refreshes + 1):
                server.put("config.json", document(f"t{i}"))
                events = loader.refresh()
                if summary(events) == "server:applied" and current_version(loader) == f"t{i}":
                    applied += 1
        finally:
            stop.set()
            for r in readers:
                r.join()
    assert applied == refreshes
    assert bad == [], f"{len(bad)} lookups saw a configuration that is not whole, first {bad[:1]}"
    assert all(n > 0 for n in lookups)


def test_garbage_collected_on_its_own_polling_thread(
    server: Nginx, bundle: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    freed_on = record_free_threads(monkeypatch)
    collect = threading.Event()
    collected = threading.Event()

    def on_change(event: LoaderEvent) -> None:
        if collect.is_set() and not collected.is_set():
            gc.collect()  # finalises the unreachable loader here, inside its own callback
            collected.set()

    loader = Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, refresh_interval=0.02, on_change=on_change)
    loader.cycle = loader  # type: ignore[attr-defined]  # only the cycle collector can free it
    loader.load()
    gone = weakref.ref(loader)
    del loader
    gc.disable()
    try:
        collect.set()
        assert collected.wait(10), "a polling event arrived"
    finally:
        gc.enable()
    assert wait_for(lambda: gone() is None), "the loader was collected"
    assert wait_for(lambda: len(freed_on) == 1), f"freed once: {freed_on}"
    assert freed_on[0] != threading.get_ident(), "freed on the polling thread, inside its own callback"


def test_setting_on_change_does_not_wait_for_a_running_callback(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    state = {"inside": False, "calls": 0}
    lock = threading.Lock()

    def slow(event: LoaderEvent) -> None:
        with lock:
            state["inside"] = True
            state["calls"] += 1
        time.sleep(0.1)
        with lock:
            state["inside"] = False

    with Loader(chain(bundle, server), cache_dir=cache_dir, timeout=5, refresh_interval=0.01) as loader:
        loader.load()
        loader.on_change = slow
        assert wait_for(lambda: bool(state["inside"])), "a polling event reached the callback"
        loader.on_change = None
        with lock:
            assert state["inside"], "the setter waited for the running callback"
            calls = state["calls"]
        with pytest.raises(MisuseError):
            loader.refresh()  # refused while the callback runs on the polling thread
        assert wait_for(lambda: not state["inside"]), "the running callback returned"
        time.sleep(0.1)
        assert state["calls"] == calls, "the old callback was called after it was replaced"


def _exit_with_a_polling_loader(server: Nginx, bundle: Path, cache_dir: Path, on_change: str) -> str:
    """Runs a new interpreter that starts a polling loader with the callback
    ``on_change`` (source text), waits for an event from the polling thread,
    prints ``polled True`` and exits with the loader open; its output."""
    import subprocess

    script = f"""
import sys, threading, time
import pathconfig
main = threading.get_ident()
polled = threading.Event()
def on_change(event):
    if threading.get_ident() != main:
        polled.set()
{textwrap.indent(textwrap.dedent(on_change), "        ")}
loader = pathconfig.Loader([pathconfig.FileSource({str(bundle)!r}), pathconfig.ServerSource({server.url("config.json")!r})],
                           cache_dir={str(cache_dir)!r}, timeout=5, refresh_interval=0.005, on_change=on_change)
loader.load()
print("polled", polled.wait(10), flush=True)
# exits with the loader open and polling: closed at exit, before finalisation
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(pathconfig.__file__).parent.parent)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return run.stdout


def test_interpreter_exit_with_a_polling_loader_open(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    assert _exit_with_a_polling_loader(server, bundle, cache_dir, "pass") == "polled True\n"


def test_interpreter_exit_waits_for_a_running_callback(server: Nginx, bundle: Path, cache_dir: Path) -> None:
    # The polling thread's callback is running as the interpreter exits:
    # closing the loader does not wait for it, exit does (EXIT_PATIENCE), so
    # it returns before finalisation rather than being cut short.
    slow = """
    time.sleep(0.3)
    print("callback returned", flush=True)
    """
    out = _exit_with_a_polling_loader(server, bundle, cache_dir, slow)
    assert out.startswith("polled True\n") and out.endswith("callback returned\n"), out


def test_interpreter_exit_during_a_collection_that_frees_loaders(server: Nginx) -> None:
    # A collection on another thread has dropped the weak references to
    # three polling loaders in a cycle and not yet run their __del__ (an
    # object before them in the batch holds it), as the interpreter exits.
    # Exit frees them: before, they polled on through finalisation, and
    # the process died of SIGSEGV in the trampoline finalisation had freed.
    import subprocess

    script = f"""
import atexit, gc, threading, time
log = {str(server.prefix / "access.log")!r}
def polls():
    with open(log) as f:
        return sum("?garbage" in line for line in f)
def after_exit():  # registered before pathconfig's handler, so runs after it
    time.sleep(0.1)  # a request abandoned at the free is logged as it closes
    before = polls()
    time.sleep(0.3)
    print("polls after exit", polls() - before, flush=True)
atexit.register(after_exit)
import pathconfig
stalled, never = threading.Event(), threading.Event()
class Stall:
    def __del__(self):
        stalled.set()
        never.wait()
gc.disable()
stall = Stall()
stall.cycle = stall
del stall
for _ in range(3):
    loader = pathconfig.Loader([pathconfig.ServerSource({server.url("config.json?garbage")!r})],
                               timeout=5, refresh_interval=0.005)
    loader.cycle = loader
    loader.load()
    del loader
threading.Thread(target=gc.collect, daemon=True).start()
print("stalled", stalled.wait(10), flush=True)
before = polls()
time.sleep(0.2)
print("polling before exit", polls() > before, flush=True)
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(pathconfig.__file__).parent.parent)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert (run.returncode, run.stderr) == (0, ""), f"exit status {run.returncode}: {run.stderr}"
    assert run.stdout == "stalled True\npolling before exit True\npolls after exit 0\n", run.stdout
