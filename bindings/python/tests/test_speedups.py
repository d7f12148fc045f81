"""The C extension (pathconfig._speedups) against the ctypes path: the same
answers, errors and shared results for every input, and the mode the suite
was asked to run in.

`make test` builds the extension in place and runs the whole suite with it
(PATHCONFIG_EXPECT_SPEEDUPS=1), then the suites that look URLs up once more
without it (PATHCONFIG_PURE_PYTHON=1). These tests call both paths directly,
so they need the extension built: `make -C bindings/python speedups`.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import random
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest
from conftest import load_conformance

import pathconfig
from pathconfig import PathConfiguration, _result

IOS = load_conformance("ios.json")
ANDROID = load_conformance("android.json")


def speedups() -> Any:
    try:
        return importlib.import_module("pathconfig._speedups")
    except ImportError as exc:
        pytest.fail(f"pathconfig._speedups is not built ({exc}): run `make -C bindings/python speedups`", pytrace=False)


def test_the_mode_the_suite_was_asked_for() -> None:
    speedups()  # built, whatever the mode
    if os.environ.get("PATHCONFIG_PURE_PYTHON", "") not in ("", "0"):
        assert pathconfig.SPEEDUPS is False and _result.fast_resolve is None
    else:
        assert pathconfig.SPEEDUPS is True and _result.fast_resolve is not None
        if os.environ.get("PATHCONFIG_EXPECT_SPEEDUPS"):
            assert _result._speedups.__file__.endswith("_speedups.abi3.so")


Outcome = Tuple[str, Any]


def outcome(call: Callable[[], Optional[Any]]) -> Outcome:
    """("ok", the map) or ("error", type, code, message) of one lookup."""
    try:
        result = call()
    except Exception as exc:  # compared, not swallowed
        return ("error", (type(exc).__name__, getattr(exc, "code", None), str(exc)))
    if result is None:
        error = pathconfig._ffi.last_error()
        return ("error", (type(error).__name__, error.code, str(error)))
    return ("ok", (result.json, dict(result)))


def bound() -> Any:
    """The extension, bound to the library ctypes loaded (in the pure mode
    the binding does not bind it itself)."""
    fast = speedups()
    fast.bind(*pathconfig._ffi.lookup.addresses())
    return fast


def both(cfg: PathConfiguration, url: Any, method: Any = None) -> Tuple[Outcome, Outcome]:
    """The C extension's answer (lookup, then settle, as properties() does)
    and the ctypes path's."""
    fast = bound()

    def through_c() -> Optional[Any]:
        got = fast.resolve(cfg._address, url, method, _result._answers)
        return got if type(got) is pathconfig.Properties else _result.settle(cfg._address, url, method, got)

    return outcome(through_c), outcome(lambda: _result.look_up(cfg._address, url, method))


def conformance_cases() -> List[Any]:
    cases = []
    for data, profiles in ((IOS, {"turbo-ios": "turbo-ios", "hotwire-native-ios": "hotwire-ios"}),
                           (ANDROID, {"hotwire-native-android": "hotwire-android", "turbo-android": "turbo-android"})):
        assert data is not None, "the conformance files are missing (Tests/Fixtures/conformance)"
        for case in data["cases"]:
            if case.get("kind") == "settings":
                continue
            who = case.get("library") or case.get("implementation")
            cases.append((data["fixtures"][case["fixture"]], profiles[who],
                          (case.get("options") or {}).get("matchQueryStrings"), case["input"]))
    return cases


def test_every_conformance_case_answers_the_same_through_both_paths() -> None:
    cases = conformance_cases()
    assert len(cases) > 50
    for fixture, profile, queries, url in cases:
        with PathConfiguration.from_json(json.dumps(fixture), profile=profile, match_query_strings=queries) as cfg:
            for _ in range(2):  # a miss, then a hit of the shared cache
                fast, slow = both(cfg, url)
                assert fast == slow, (profile, url)
                assert fast[0] == "ok"


RULES = {
    "rules": [
        {"patterns": [".*"], "properties": {"context": "default"}},
        {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal"}},
        {"patterns": ["^/posts/[0-9]+$"], "properties": {"presentation": "push", "n": 1.50}},
        {"patterns": ["caf\u00e9"], "properties": {"accent": True}},
        {"patterns": ["/admin"], "methods": ["POST"], "properties": {"admin": {"a": [1, 2]}}},
        {"patterns": ["(a+)+$"], "properties": {"nested": None}},
    ]
}


def random_inputs(seed: int, count: int) -> List[Tuple[Any, Any]]:
    """URLs and methods of every kind the binding is given: ASCII paths and
    URLs, non-ASCII text, NULs, lone surrogates, bytes, None, long ones, and
    good, bad and odd methods."""
    rng = random.Random(seed)
    pieces = ["/", "posts", "new", "edit", "admin", "caf\u00e9", "12", "?q=1", "#f", "a", "aaaa", "%2F", " ",
              "\0", "\ud800", "\U0001f600", "https://example.com", "//x", "..", "\u212a"]
    methods = [None, None, None, "GET", "POST", "post", "PATCH", "NOT A TOKEN", "", "G\0T", "\ud800", 7, b"GET"]
    inputs: List[Tuple[Any, Any]] = []
    for _ in range(count):
        url: Any = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        roll = rng.random()
        if roll < 0.03:
            url = url.encode("utf-8", "surrogatepass")
        elif roll < 0.05:
            url = None
        elif roll < 0.07:
            url = "/" + "x" * rng.choice([4095, 4096, 70000])
        inputs.append((url, rng.choice(methods)))
    return inputs


@pytest.mark.parametrize("cache", [0, None])
@pytest.mark.parametrize("profile", ["turbo-ios", "hotwire-android"])
def test_random_inputs_answer_and_fail_the_same_through_both_paths(profile: str, cache: Optional[int]) -> None:
    with PathConfiguration.from_json(json.dumps(RULES), profile=profile, result_cache_size=cache, max_url_bytes=8192) as cfg:
        kinds = set()
        for url, method in random_inputs(seed=len(profile), count=3000):
            fast, slow = both(cfg, url, method)
            assert fast == slow, (url if not isinstance(url, str) or len(url) < 100 else url[:100], method)
            kinds.add(fast[0] if fast[0] == "ok" else fast[1][0])
        # Both kinds of answer were compared: results, the binding's errors and the library's.
        assert {"ok", "TypeError", "ValueError", "ConfigError"} <= kinds, kinds


def answered(props: Any) -> Any:
    """properties() raises or answers: never None, which outcome() would
    read as the last error."""
    if props is None:
        raise AssertionError("properties() returned None")
    return props


@pytest.mark.parametrize("profile", ["turbo-ios", "hotwire-android"])
def test_properties_answers_and_fails_as_the_python_method(profile: str) -> None:
    """With the extension, PathConfiguration.properties is LookupBase's, in
    C; the binding's Python method stays as _checked_properties. Both give
    the same answer or the same error for every input, the C method's
    handing what it does not take to the Python one."""
    if not pathconfig.SPEEDUPS:
        assert "properties" in PathConfiguration.__dict__, "the Python method, through ctypes alone"
        return
    assert "properties" not in PathConfiguration.__dict__
    assert PathConfiguration.properties is speedups().LookupBase.properties
    with PathConfiguration.from_json(json.dumps(RULES), profile=profile, max_url_bytes=8192) as cfg:
        kinds = set()
        for url, method in random_inputs(seed=7 + len(profile), count=3000):
            fast = outcome(lambda: answered(cfg.properties(url, method=method)))
            slow = outcome(lambda: cfg._checked_properties(url, method=method))  # type: ignore[attr-defined]
            assert fast == slow, (url if not isinstance(url, str) or len(url) < 100 else url[:100], method)
            kinds.add(fast[0] if fast[0] == "ok" else fast[1][0])
        assert {"ok", "TypeError", "ValueError", "ConfigError"} <= kinds, kinds
        modal = cfg.properties("/a/new")
        assert cfg.properties("/b/new", method="GET") is modal
        assert cfg.properties("/b/new", method=None) is modal
        for bad in ((), ("/a", "GET"), ("/a",)):
            with pytest.raises(TypeError):
                cfg.properties(*bad, **({"methods": "GET"} if bad == ("/a",) else {}))
        with pytest.raises(TypeError):
            cfg.properties("/a", method="GET", x=1)  # type: ignore[call-arg]
        # Rules with Python callbacks: the Python method runs them.
        cfg.add_rule(patterns=["/cb$"], configurer=lambda request, props: request.set_str("title", "from Python"))
        assert cfg.properties("/x/cb")["title"] == "from Python"
        cfg.add_rule(patterns=["/boom$"], predicate=lambda request: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            cfg.properties("/x/boom")
        cfg.close()
        with pytest.raises(pathconfig.ClosedError):
            cfg.properties("/a/new")
    with PathConfiguration.from_json(json.dumps(RULES)) as cfg:
        cfg.close()
        with pytest.raises(pathconfig.ClosedError):
            cfg.properties("/a/new")


def test_properties_use_the_extension_and_share_answers() -> None:
    assert pathconfig.SPEEDUPS or os.environ.get("PATHCONFIG_PURE_PYTHON")
    with PathConfiguration.from_json(json.dumps(RULES), result_cache_size=0) as cfg:
        a, b = cfg.properties("/x/new"), cfg.properties("/y/edit")
        assert a == b == {"context": "modal"}
        assert a is b  # one answer, one Properties, for both URLs
        assert cfg.properties("/posts/7", method="POST") == {"context": "default", "presentation": "push", "n": 1.5}
        assert cfg.properties("/admin", method="POST")["admin"] == {"a": [1, 2]}
        assert cfg.properties("/admin") == {"context": "default"}


def test_resolve_answers_a_known_id_with_its_object_and_a_new_one_with_the_result() -> None:
    """resolve() returns the kept Properties for an id it finds (and
    releases the result itself); for a new id, an Owned of the result (the
    reference the caller now holds) and the id; 0 for a failed lookup;
    None for an argument it leaves to the binding."""
    fast = bound()
    lookup = pathconfig._ffi.lookup
    with PathConfiguration.from_json(json.dumps(RULES), result_cache_size=0) as cfg:
        answers: Dict[int, Any] = {}
        owned, answer_id = fast.resolve(cfg._address, "/q/new", None, answers)
        assert type(owned) is fast.Owned
        assert answer_id == lookup.result_id(owned.address) != 0
        marker = object()
        answers[answer_id] = marker
        for url in ("/q/new", "/r/edit"):
            assert fast.resolve(cfg._address, url, None, answers) is marker
        owned.release()  # the reference the miss handed over
        assert owned.address == 0
        assert fast.resolve(cfg._address, "/q", "NOT A TOKEN", answers) == 0
        assert _ffi_last_code() == pathconfig.ErrorCode.E_ARGUMENT
        for url, method in ((b"/q", None), ("/q\0", None), ("/\ud800", None), ("/q", 7), (None, None)):
            assert fast.resolve(cfg._address, url, method, answers) is None
        assert cfg.properties("/s/new") == {"context": "modal"}


def _ffi_last_code() -> int:
    return int(pathconfig._ffi.last_error().code)


def test_threads_share_the_cache_through_the_extension() -> None:
    with PathConfiguration.from_json(json.dumps(RULES), result_cache_size=0) as cfg:
        urls = [f"/{i}/new" if i % 3 else f"/posts/{i}" for i in range(300)]
        expected = {u: dict(cfg.properties(u)) for u in urls}
        failures: List[str] = []

        def work(seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(3000):
                u = rng.choice(urls)
                if cfg.properties(u) != expected[u]:
                    failures.append(u)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures


def test_bad_calls_to_the_extension_are_errors() -> None:
    fast = bound()
    with pytest.raises(TypeError):
        fast.resolve(0, "/", None)  # three arguments
    with pytest.raises(TypeError):
        fast.resolve(0, "/", None, [])  # the answers are a dict
    with pytest.raises(ValueError):
        fast.bind(0, 0, 0)
    with pytest.raises(TypeError):
        fast.bind_lookups([], len)  # the answers are a dict
    with pytest.raises(TypeError):
        fast.LookupBase()._set_lookup_address("0")


def test_owned_gives_its_reference_back_once() -> None:
    """Owned(handed, release) takes the pointer out of handed and calls the
    C function at release with it once: at release(), or as it goes when
    release() was not called; never at both, never twice."""
    fast = bound()
    calls: List[int] = []
    release = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(calls.append)
    release_address = ctypes.cast(release, ctypes.c_void_p).value
    handed = ctypes.c_void_p(0x1234)
    owned = fast.Owned(handed, release_address)
    assert owned.address == 0x1234 and handed.value is None
    owned.release()
    owned.release()
    assert calls == [0x1234] and owned.address == 0
    del owned
    assert calls == [0x1234]
    fast.Owned(ctypes.c_void_p(0x5678), release_address)  # goes at once, unreleased
    assert calls == [0x1234, 0x5678]
    fast.Owned(ctypes.c_void_p(0), release_address)  # nothing to give back
    assert calls == [0x1234, 0x5678]
    with pytest.raises(ValueError, match="release function's address is 0"):
        fast.Owned(ctypes.c_void_p(0x1), 0)
    with pytest.raises(TypeError):
        fast.Owned(0x1, release_address)  # an address alone: nothing to take it from
