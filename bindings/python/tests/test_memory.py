"""100,000 loads and resolves, 20,000 loaders with callbacks, and 20,000
configurations with rules from code (predicates, configurers, failures) do
not grow the process (RSS from /proc/self/statm); loads interrupted by a
signal do not grow the heap (glibc's mallinfo2)."""

from __future__ import annotations

import ctypes
import gc
import json
import os
import signal
import sys
import time
from typing import Any, Dict, Optional

import pytest

from pathconfig import ConfigError, DataSource, FileSource, Loader, LoaderEvent, PathConfiguration, Request
from pathconfig import _callbacks

ITERATIONS = 100_000
WARM_UP = 5_000
#: Allowed RSS growth. A leak of one handle (hundreds of bytes at least) per
#: iteration would be tens of megabytes; allocator noise stays well under this.
TOLERANCE = 4 * 1024 * 1024

DOC = (
    '{"settings": {"a": [1, 2, 3]}, "rules": ['
    '{"patterns": [".*"], "properties": {"context": "default", "n": 1}},'
    '{"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "nested": {"k": [true, null]}}}]}'
)
BAD = '{"rules": [{"patterns": ["(["], "properties": {}}]}'
URLS = ["https://example.com/messages/new", "https://example.com/a?b=c", "/edit", "/"]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cycle(n: int) -> None:
    for i in range(n):
        url = URLS[i % len(URLS)]
        if i % 2:
            # explicit release: with-blocks
            with PathConfiguration.from_json(DOC) as cfg:
                cfg.properties_json(url)
                props = cfg.properties(url)
                props.context
                props.title
                dict(props)
        else:
            # the finaliser releases what is never closed
            cfg = PathConfiguration.from_json(DOC, profile="hotwire-android")
            props = cfg.properties(url)
            props.presentation
            props["context"]
            cfg.explain(url)
            del cfg, props
        if i % 50 == 0:
            try:
                PathConfiguration.from_json(BAD)
            except ConfigError:
                pass
            cfg = PathConfiguration.from_json(DOC)
            cfg.settings
            cfg.warnings
            cfg.close()


def test_loads_and_resolves_do_not_grow() -> None:
    cycle(WARM_UP)
    gc.collect()
    before = rss()
    start = time.perf_counter()
    cycle(ITERATIONS)
    gc.collect()
    after = rss()
    elapsed = time.perf_counter() - start
    print(f"\nRSS {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB after {ITERATIONS} loads and resolves "
          f"({elapsed:.1f} s)")
    assert after - before < TOLERANCE, f"RSS grew by {(after - before) / 2**20:.1f} MiB"


def test_shared_configuration_resolves_do_not_grow() -> None:
    with PathConfiguration.from_json(DOC) as cfg:
        def run(n: int) -> None:
            for i in range(n):
                # distinct strings, so the library's per-string cache is exercised too
                props = cfg.properties(f"/items/{i % 1000}/edit")
                props.context
                cfg.properties_json(URLS[i % len(URLS)])

        run(WARM_UP)
        gc.collect()
        before = rss()
        run(ITERATIONS)
        gc.collect()
        after = rss()
    print(f"\nRSS {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB after {ITERATIONS} resolves on one configuration")
    assert after - before < TOLERANCE, f"RSS grew by {(after - before) / 2**20:.1f} MiB"


def loaders(n: int) -> None:
    for i in range(n):
        seen: list[LoaderEvent] = []
        if i % 2:
            # closed by with; a failing source, so events carry errors too
            with Loader([DataSource(DOC), FileSource("/nonexistent/p.json")], on_change=seen.append) as loader:
                loader.load()
                current = loader.current
                assert current is not None
                current.properties(URLS[i % len(URLS)])
        else:
            # the finaliser frees the loader; its events and configuration outlive it
            loader = Loader([DataSource(DOC)], on_change=seen.append)
            events = loader.load()
            cfg = loader.current
            del loader
            assert cfg is not None and events[0].configuration is not None


def test_loaders_and_their_callbacks_do_not_grow() -> None:
    loaders(WARM_UP // 5)
    gc.collect()
    before = rss()
    loaders(ITERATIONS // 5)
    gc.collect()
    after = rss()
    print(f"\nRSS {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB after {ITERATIONS // 5} loaders")
    assert after - before < TOLERANCE, f"RSS grew by {(after - before) / 2**20:.1f} MiB"


def configure(request: Request, props: dict) -> None:
    props["headers"] = {"X-Token": request.url}
    if request.method == "DELETE":
        raise KeyError(request.url)


def rules(n: int) -> None:
    for i in range(n):
        cfg = PathConfiguration.from_json(DOC, profile="siesta", base_url="https://api.example.com", merge="deep")
        cfg.add_rule(globs=["**"], configurer=configure, predicate=lambda request: not request.url.endswith("/x"))
        cfg.add_rule(patterns=["edit"], methods=["POST"], properties={"posted": True})
        try:
            cfg.add_rule(patterns=["(["], predicate=bool)
        except ConfigError:
            pass
        cfg.properties(f"/items/{i}/edit", method="POST")
        cfg.properties_json("/x")
        cfg.explain("/a")
        try:
            cfg.properties("/a", method="DELETE")
        except KeyError:
            pass
        cfg.invalidate()
        if i % 2:
            cfg.close()
        del cfg


def test_rules_and_their_callables_do_not_grow() -> None:
    held = len(_callbacks._held)
    # Rules from code make a result per lookup; the binding keeps the last
    # 4,096 (the shared results' cache), which warming up fills.
    rules(WARM_UP)
    gc.collect()
    before = rss()
    rules(ITERATIONS // 5)
    gc.collect()
    after = rss()
    print(f"\nRSS {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB after {ITERATIONS // 5} configurations with rules")
    assert after - before < TOLERANCE, f"RSS grew by {(after - before) / 2**20:.1f} MiB"
    assert len(_callbacks._held) == held, "every rule's callables were released"


class Alarm(Exception):
    """What the SIGALRM handler below raises."""


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2``: ten ``size_t``."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def heap_in_use() -> int:
    """The bytes malloc has handed out and not had back (glibc's
    ``mallinfo2``): what the library holds, without the freed pages glibc
    keeps, which RSS counts (6.3 MiB of them after the loads below, once,
    under pytest-xdist)."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return int(info.uordblks + info.hblkhd)


#: 10,000 rules, 0.9 MB: a load of about 80 ms that holds about 10 MiB.
BIG = json.dumps({"rules": [{"patterns": [f"/p{i}/[a-z]+$", f"^/q{i}"], "properties": {"n": i, "title": f"t{i}"}}
                            for i in range(10_000)]})


def interrupted_loads(n: int, after: float) -> int:
    """Loads of :data:`BIG`, each with SIGALRM due ``after`` seconds in,
    whose handler raises :class:`Alarm` once per load, until ``n`` were
    interrupted (at most ``3 * n`` loads). The number interrupted."""
    state: Dict[str, Any] = {"armed": False, "raised": 0}

    def handler(signum: int, frame: Any) -> None:
        if state["armed"]:
            state["armed"] = False
            state["raised"] += 1
            raise Alarm()

    old = signal.signal(signal.SIGALRM, handler)
    try:
        for _ in range(3 * n):
            if state["raised"] == n:
                break
            cfg: Optional[PathConfiguration] = None
            try:
                state["armed"] = True
                signal.setitimer(signal.ITIMER_REAL, after)
                cfg = PathConfiguration.from_json(BIG)
                state["armed"] = False
            except Alarm:
                pass
            state["armed"] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            if cfg is not None:
                cfg.close()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return int(state["raised"])


def test_loads_interrupted_by_a_signal_do_not_grow() -> None:
    """A signal that arrives during a load has its handler run as the load
    returns, before an owner held the configuration: the exception reaches
    the caller and the configuration is freed (each leaked, 10 MiB here,
    before pathconfig._ffi.Handed)."""
    took = []
    for _ in range(3):
        start = time.perf_counter()
        PathConfiguration.from_json(BIG).close()
        took.append(time.perf_counter() - start)
    interrupted_loads(2, min(took) / 4)
    gc.collect()
    before = heap_in_use()
    raised = interrupted_loads(20, min(took) / 4)
    gc.collect()
    after = heap_in_use()
    print(f"\nheap in use {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB after {raised} loads interrupted")
    assert raised == 20, "the alarm was due during the load"
    assert after - before < TOLERANCE, f"the heap grew by {(after - before) / 2**20:.1f} MiB"
