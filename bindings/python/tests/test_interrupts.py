"""Signals that arrive while the library runs: what a Python signal handler
raises (Ctrl-C's KeyboardInterrupt, an alarm's exception) reaches the caller,
and the call it interrupted is not cut short.

CPython runs pending handlers at the entry of the next Python function, and
the next one after a long C call is often the binding's callback: a loader
event, a rule's predicate or configurer. There, ctypes would report the
exception as unraisable and drop the call. The C extension runs the handlers
before the callback starts (pathconfig._callbacks.deferring), so this file
runs with it, as `make test` runs the whole suite; the ctypes-only path
cannot (its README says so).

The handlers here raise ``Alarm`` on SIGALRM from ``setitimer``: the kernel
delivers it whenever it falls due, wherever the main thread is.
"""

from __future__ import annotations

import contextlib
import gc
import json
import signal
import socket
import sys
import time
from typing import Any, Callable, ContextManager, Dict, Iterator, List

import pytest

import pathconfig
import pathconfig._result
from pathconfig import _callbacks
from pathconfig import DataSource, EventKind, Loader, LoaderEvent, PathConfiguration, ServerSource
from socket_server import Served, response, serving


class Alarm(Exception):
    """What the test's SIGALRM handler raises."""


@pytest.fixture(autouse=True)
def needs_the_extension() -> None:
    assert pathconfig.SPEEDUPS, "runs with pathconfig._speedups (make -C bindings/python speedups)"


def unraisable(monkeypatch: pytest.MonkeyPatch) -> List[Any]:
    """What is reported through sys.unraisablehook from now on. Called in
    the test's body: pytest sets the hook of its own around each phase."""
    reported: List[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    return reported


@contextlib.contextmanager
def alarms(first: float, interval: float = 0.0, handler: Any = None) -> Iterator[None]:
    """SIGALRM after ``first`` seconds (then every ``interval``), its handler
    raising :class:`Alarm` (or ``handler``); both undone at the end."""

    def raise_alarm(signum: int, frame: Any) -> None:
        raise Alarm()

    old = signal.signal(signal.SIGALRM, handler or raise_alarm)
    signal.setitimer(signal.ITIMER_REAL, first, interval)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def raising_when_armed(state: Dict[str, Any]) -> Callable[[int, Any], None]:
    """A SIGALRM handler that raises :class:`Alarm` while ``state["armed"]``
    (counting in ``state["raised"]``), and disarms as it raises: the loop
    that catches the Alarm arms again, so that none can strike its own
    except clause."""

    def handler(signum: int, frame: Any) -> None:
        if state["armed"]:
            state["armed"] = False
            state["raised"] += 1
            raise Alarm()

    return handler


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def document(version: str) -> str:
    return json.dumps({"rules": [{"patterns": [".*"], "properties": {"version": version}}]})


def answering_after(seconds: float, bodies: List[bytes]) -> ContextManager[Served]:
    """A server that answers each request with the last of ``bodies``
    ``seconds`` after it arrives."""

    def answer(conn: socket.socket, n: int) -> None:
        time.sleep(seconds)
        conn.sendall(response(bodies[-1]))

    return serving(answer)


def summary(events: List[LoaderEvent]) -> str:
    return " ".join(EventKind(e.kind).name.lower() for e in events)


def version(loader: Loader) -> Any:
    cfg = loader.current
    assert cfg is not None
    with cfg:
        return cfg.properties("/x")["version"]


@pytest.mark.parametrize("call", ["load", "refresh"])
def test_an_interrupt_during_a_download_is_raised_once_the_chain_ends(call: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGALRM 0.1 s into a 0.5 s download: the download goes on, its event
    reaches on_change, and load() / refresh() raises Alarm when the
    library's call returns (before: it returned, the event missing, and
    the Alarm went to sys.unraisablehook)."""
    reported = unraisable(monkeypatch)
    seen: List[LoaderEvent] = []
    bodies = [document("v2").encode()]
    with answering_after(0.5, bodies) as (url, _):
        with Loader([DataSource(document("v1")), ServerSource(url)], timeout=10, on_change=seen.append) as loader:
            if call == "refresh":
                loader.load()  # (0.5 s, no alarm)
                seen.clear()
                bodies.append(document("v3").encode())
            with alarms(0.1), pytest.raises(Alarm):
                getattr(loader, call)()
            assert summary(seen) == ("applied applied" if call == "load" else "applied"), "every step reached on_change"
            assert version(loader) == ("v2" if call == "load" else "v3")
            # The loader works on: the next call runs, without an alarm.
            bodies.append(document("v4").encode())
            assert summary(loader.refresh()) == "applied" and version(loader) == "v4"
    assert not reported, [r.exc_value for r in reported]


def test_an_interrupt_inside_on_change_is_raised_once_the_chain_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt (any exception that is not an Exception) raised in
    on_change while load() runs: the chain goes on, and load() raises it
    when it ends. An Exception is still reported through sys.unraisablehook."""
    reported = unraisable(monkeypatch)
    calls: List[str] = []

    def on_change(event: LoaderEvent) -> None:
        calls.append(event.location)
        if event.location == "first":
            raise KeyboardInterrupt("in on_change")
        if event.location == "second":
            raise ValueError("reported")

    sources = [DataSource(document("v1"), name="first"), DataSource(document("v2"), name="second")]
    with Loader(sources, on_change=on_change) as loader:
        with pytest.raises(KeyboardInterrupt, match="in on_change"):
            loader.load()
        assert calls == ["first", "second"] and version(loader) == "v2"
    assert [type(r.exc_value) for r in reported] == [ValueError]


def test_interrupts_during_lookups_through_python_rules_reach_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGALRM every millisecond while URLs are looked up through a
    predicate and a configurer, the library's search before them taking
    most of each lookup: every Alarm the handler raised is raised by a
    lookup or between them, none reported as unraisable, and every answer
    that returned is whole."""
    reported = unraisable(monkeypatch)
    rules = [{"patterns": ["^/p%d/(a|b)+c$" % i for i in range(400)], "properties": {"n": 0}}]
    state = {"armed": False, "raised": 0, "caught": 0}
    handler = raising_when_armed(state)

    with PathConfiguration.from_json(json.dumps({"rules": rules}), result_cache_size=0) as cfg:
        cfg.add_rule(patterns=["^/"], predicate=lambda request: True, properties={"p": 1})
        cfg.add_rule(patterns=["^/"], configurer=lambda request, props: request.set_int("c", 2))
        answers: List[Any] = []  # kept, and the garbage collector waits: few finalisers run
        gc.collect()
        deadline = time.monotonic() + 1.5
        with alarms(0.001, 0.001, handler), collector_paused():
            while time.monotonic() < deadline:
                try:
                    state["armed"] = True
                    while time.monotonic() < deadline:
                        cfg.invalidate()
                        answers.append(cfg.properties("/x/" + "ab" * 200))
                except Alarm:
                    state["caught"] += 1
            state["armed"] = False
        assert all(a == {"p": 1, "c": 2} for a in answers)
    assert not reported, [(r.exc_value, r.object) for r in reported[:3]]
    assert state["caught"] == state["raised"] >= 100, state


def test_interrupts_as_answers_and_configurations_go_reach_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGALRM every millisecond while Properties and configurations with
    Python rules are dropped, each right after a long lookup: every Alarm
    the handler raised reaches the loop, none is reported as unraisable,
    and every configuration's callbacks are let go. Before, a Python
    finaliser (``__del__``) struck at its entry reported the Alarm as
    unraisable and returned without giving the library its reference back:
    the answer, or the whole configuration, stayed for good."""
    reported = unraisable(monkeypatch)
    # Each new answer then drops the binding's hold on the one before, so
    # that a Properties goes when the last reference the test keeps does.
    monkeypatch.setattr(pathconfig._result, "_CAPACITY", 1)
    held = len(_callbacks._held)
    state = {"armed": False, "raised": 0, "caught": 0}
    handler = raising_when_armed(state)

    slow = [{"patterns": ["^/k7/p%d/(a|b)+c$" % i for i in range(400)], "properties": {"n": 0}}]
    answers = [{"patterns": ["^/k%d(/|$)" % k], "properties": {"k": k}} for k in range(8)]
    plain = PathConfiguration.from_json(json.dumps({"rules": slow + answers}), result_cache_size=0)
    long_url = "/k7/x/" + "ab" * 200  # the search takes most of the lookup; the answer is k7's

    def with_python_rules() -> PathConfiguration:
        cfg = PathConfiguration.from_json(document("v1"), profile="siesta")
        cfg.add_rule(patterns=["^/"], predicate=lambda request: True, properties={"p": 1})
        return cfg

    gc.collect()
    deadline = time.monotonic() + 1.5
    dropped = 0
    with plain, alarms(0.001, 0.001, handler), collector_paused():
        configs: List[PathConfiguration] = []
        while time.monotonic() < deadline:
            try:
                while time.monotonic() < deadline:
                    if not configs:
                        state["armed"] = False  # no Alarm while they are made
                        configs = [with_python_rules() for _ in range(20)]
                    state["armed"] = True
                    kept = [plain.properties("/k%d" % k) for k in range(8)]
                    assert plain.properties(long_url) is kept[-1]  # a known answer: no Python code runs
                    kept.clear()  # seven Properties go
                    plain.properties(long_url)
                    configs.pop()  # a configuration goes, and its predicate
                    dropped += 1
            except Alarm:
                state["caught"] += 1
        state["armed"] = False
        configs.clear()
    gc.collect()
    assert not reported, [(r.exc_value, r.object) for r in reported[:3]]
    assert state["caught"] == state["raised"] >= 100, state
    assert dropped >= 100 and len(_callbacks._held) == held, "every configuration's predicate was let go"
