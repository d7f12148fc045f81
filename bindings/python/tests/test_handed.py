"""What the library hands over is owned from the instant its call returns.

A signal handler's exception (Ctrl-C's KeyboardInterrupt, an alarm's) is
raised at the first Python function after a long C call: for a load, that
was the ``errcheck`` or the code that made the owner, and the configuration
was lost (20 loads of bench/corpora/rules-10000.json interrupted that way
grew the process by 150 MiB). ctypes now returns a ``_ffi.Handed``, which
frees what it holds when it goes, until an owner takes it.

These tests raise where such a handler would, at the entry of the Python
function that runs next, and count the frees through ``_ffi.lookup``, which
a Handed frees with. They run with the C extension and through ctypes alone
(PURE_TESTS); test_memory.py has the same with real signals, measured.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Iterator, List

import pytest

import pathconfig
from pathconfig import DataSource, Loader, PathConfiguration, _ffi, _result

DOC = '{"rules": [{"patterns": [".*"], "properties": {"a": 1}}]}'


class Alarm(BaseException):
    """What a signal handler would raise."""


@pytest.fixture
def frees(monkeypatch: pytest.MonkeyPatch) -> Iterator[List[Any]]:
    """(FREE name, address) of every free through ``_ffi.lookup``, each
    still done: C functions, as the extension's Owned calls them."""
    seen: List[Any] = []
    for name in ("release", "result_release", "loader_free", "string_free"):
        real = getattr(_ffi.lookup, name)

        def record(address: int, name: str = name, real: Callable[[int], None] = real) -> None:
            seen.append((name, address))
            real(address)

        monkeypatch.setattr(_ffi.lookup, name, ctypes.CFUNCTYPE(None, ctypes.c_void_p)(record))
    yield seen


def struck_as_it_returns(monkeypatch: pytest.MonkeyPatch, function: Any, returned: List[int]) -> None:
    """``function``'s errcheck raises :class:`Alarm` at its entry, as a
    handler would, noting the address the call returned."""

    def errcheck(result: Any, func: Any, args: Any) -> Any:
        returned.append(_ffi.address(result))
        raise Alarm()

    monkeypatch.setattr(function, "errcheck", errcheck)


def test_a_load_struck_as_it_returns_frees_its_configuration(monkeypatch: pytest.MonkeyPatch, frees: List[Any]) -> None:
    returned: List[int] = []
    struck_as_it_returns(monkeypatch, _ffi.lib.pathconfig_load_json, returned)
    try:
        PathConfiguration.from_json(DOC)
    except Alarm:
        pass
    assert returned[0] != 0 and frees == [("release", returned[0])]


def test_each_kind_of_handed_object_is_freed_once(monkeypatch: pytest.MonkeyPatch, frees: List[Any]) -> None:
    """A configuration, a result, a string and a loader: each freed by the
    function its header names (test_library_lookup.py checks the names)."""
    with PathConfiguration.from_json(DOC) as cfg:
        calls = [
            (_ffi.lib.pathconfig_retain, lambda: _ffi.lib.pathconfig_retain(cfg._ptr), "release"),
            (_ffi.lib.pathconfig_resolve, lambda: _ffi.lib.pathconfig_resolve(cfg._ptr, b"/", None, None),
             "result_release"),
            (_ffi.lib.pathconfig_explain, lambda: cfg.explain("/x"), "string_free"),
            (_ffi.lib.pathconfig_loader_new, lambda: Loader([DataSource(DOC)]), "loader_free"),
        ]
        for function, call, free in calls:
            returned: List[int] = []
            struck_as_it_returns(monkeypatch, function, returned)
            frees.clear()
            try:
                call()
            except Alarm:
                pass
            assert returned[0] != 0 and frees == [(free, returned[0])], free
        assert cfg.properties("/") == {"a": 1}, "the configuration's own reference is untouched"


def test_a_lookup_struck_before_its_owner_frees_its_result(monkeypatch: pytest.MonkeyPatch, frees: List[Any]) -> None:
    """The ctypes lookup path: the result is freed when the owner's making is
    struck (before, its address was a plain int)."""

    def struck(handed: Any, release: Any) -> Any:
        raise Alarm()

    with PathConfiguration.from_json(DOC, result_cache_size=0) as cfg:
        monkeypatch.setattr(_result, "owner", struck)
        try:
            _result.look_up(cfg._address, "/not/yet/answered", None)
        except Alarm:
            pass
        assert [free for free, _ in frees] == ["result_release"]


def test_an_owner_takes_what_was_handed_and_gives_it_back_once(frees: List[Any]) -> None:
    """``_result.owner`` (the extension's Owned, or the ctypes Owner) takes
    the reference, and gives it back once with the function it was given;
    the handed object, left empty, frees nothing more."""
    calls: List[int] = []

    def give_back(address: int, free: Callable[[int], None] = _ffi.lookup.release) -> None:
        calls.append(address)
        free(address)

    release = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(give_back)
    with PathConfiguration.from_json(DOC) as cfg:
        handed = _ffi.lib.pathconfig_retain(cfg._ptr)
        address = _ffi.address(handed)
        owner = _result.owner(handed, release)
        if pathconfig.SPEEDUPS:
            assert not handed, "taken in C, at once"
        assert owner.address == address
        owner.release()
        owner.release()
        del handed, owner
        assert calls == [address], "given back once, by the owner"
        assert frees == [("release", address)], "(the owner's, through the fixture): none by the handed object"
        assert cfg.properties("/") == {"a": 1}


def test_owned_takes_a_ctypes_pointer_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_speedups.Owned`` given a ctypes object reads its pointer and leaves
    NULL there, with no Python code between (built in both runs)."""
    from pathconfig import _speedups

    calls: List[int] = []
    release = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(calls.append)
    monkeypatch.setattr(_ffi.lookup, "fake_free", calls.append, raising=False)

    class Fake(_ffi.Handed, ctypes.c_void_p):
        FREE = "fake_free"

    handed = Fake(0x1234)
    owned = _speedups.Owned(handed, ctypes.cast(release, ctypes.c_void_p).value)
    assert not handed and owned.address == 0x1234
    del handed
    assert calls == []
    del owned
    assert calls == [0x1234]
    Fake(0x5678)  # goes at once, never taken: its own free
    assert calls == [0x1234, 0x5678]
