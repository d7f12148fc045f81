"""No read path changes an answer: every way Python reads a result (the
dict, json.dumps, the JSON text, the raw getters and the typed accessors,
both kept once per answer) against the library's own readers on a fresh
result of the same lookup, on the conformance cases and on random
configurations."""

from __future__ import annotations

import ctypes
import json
import random
from typing import Any, Dict, List, Optional, Tuple

from conftest import assert_json_equal, load_conformance

import pathconfig
from pathconfig import ConfigError, ErrorCode, PathConfiguration, Properties, _ffi
from pathconfig._catalog import KEY_INDEX

lib = _ffi.lib
INT64 = range(-(2**63), 2**63)
#: PATHCONFIG_TYPE_* (pathconfig/result.h) for each Python type of a decoded value.
JSON_TYPES = {type(None): 1, bool: 2, int: 3, float: 4, str: 5, list: 6, dict: 7}


def fresh(cfg: PathConfiguration, url: str, method: Optional[str]) -> Any:
    """A new C result of the lookup, through the signature table."""
    c_method = None if method is None else method.encode()
    return lib.pathconfig_resolve(cfg._ptr, url.encode("utf-8", "surrogatepass"), c_method, _ffi.ErrorStruct())


def check(cfg: PathConfiguration, url: str, method: Optional[str] = None) -> None:
    """Every read of ``cfg.properties(url)``, twice (a new answer, then a
    known one), against a fresh C result of the same lookup."""
    for _ in range(2):
        props = cfg.properties(url, method=method)
        res = fresh(cfg, url, method)
        try:
            compare(props, res, f"{url} {method}")
        finally:
            _ffi.lookup.result_release(res.take())


def compare(props: Properties, res: Any, where: str) -> None:
    text = lib.pathconfig_result_json(res)
    assert props.json == text == str(props), where
    assert lib.pathconfig_result_id(res) == props._id, where
    decoded = json.loads(text)
    assert_json_equal(dict(props), decoded, where)
    assert list(props) == list(decoded), where
    assert_json_equal(json.loads(json.dumps(props)), decoded, where)
    assert json.dumps(props, separators=(",", ":"), ensure_ascii=False) == json.dumps(
        decoded, separators=(",", ":"), ensure_ascii=False), where
    count = lib.pathconfig_result_count(res)
    assert count == len(props), where
    for i, key in enumerate(props):
        assert lib.pathconfig_result_key(res, i) == key, where
        value = props[key]
        assert props.get(key) is value, (where, key)
        assert_json_equal(json.loads(props.get_json(key) or "0"), decoded[key], f"{where} {key}")
        kind = type(decoded[key])
        assert props.get_str(key) == (decoded[key] if kind is str else None), (where, key)
        assert props.get_bool(key) == (decoded[key] if kind is bool else None), (where, key)
        number = kind in (int, float)
        assert props.get_float(key) == (float(decoded[key]) if number else None), (where, key)
        raw = props.get_json(key)
        int64 = kind is int and raw is not None and not any(c in raw for c in ".eE") and decoded[key] in INT64
        assert props.get_int(key) == (decoded[key] if int64 else None), (where, key)
        json_type = JSON_TYPES[float if kind is int and not int64 else kind]
        assert lib.pathconfig_result_type(res, i) == json_type, (where, key)
    for get in (props.get, props.get_str, props.get_bool, props.get_int, props.get_float, props.get_json):
        assert get("no such key") is None, where
    for name, info in pathconfig.TYPED_KEYS.items():
        index = KEY_INDEX[name]
        try:
            if info.kind == "bool":
                direct: Any = lib.pathconfig_result_typed_bool(res, index)
            else:
                direct = lib.pathconfig_result_typed_string(res, index)
        except ConfigError as crash:
            # The profile's app throws reading the key (E_CRASH): the
            # accessors raise the same, every time (nothing is kept).
            assert crash.code == ErrorCode.E_CRASH, f"{where} {name}: {crash!r}"
            for read in (lambda: getattr(props, name), lambda: props.typed(name), lambda: getattr(props, name)):
                try:
                    read()
                except ConfigError as again:
                    assert (again.code, again.message) == (crash.code, crash.message), f"{where} {name}"
                else:
                    raise AssertionError(f"{where} {name}: read a value where the app crashes: {crash.message}")
            assert name not in props.__dict__, f"{where} {name}: a crash kept as a value"
            continue
        assert_json_equal(getattr(props, name), direct, f"{where} {name}")
        assert_json_equal(props.typed(name), direct, f"{where} {name}")


# --- the conformance cases -------------------------------------------------------------


def conformance() -> List[Tuple[Any, str, Optional[bool], str]]:
    found = []
    for data, profiles in ((load_conformance("ios.json"), {"turbo-ios": "turbo-ios", "hotwire-native-ios": "hotwire-ios"}),
                           (load_conformance("android.json"), {"hotwire-native-android": "hotwire-android",
                                                               "turbo-android": "turbo-android"})):
        assert data is not None, "the conformance files are missing (Tests/Fixtures/conformance)"
        for case in data["cases"]:
            if case.get("kind") == "settings":
                continue
            who = case.get("library") or case.get("implementation")
            found.append((data["fixtures"][case["fixture"]], profiles[who],
                          (case.get("options") or {}).get("matchQueryStrings"), case["input"]))
    return found


def test_every_read_of_every_conformance_case_is_the_librarys() -> None:
    cases = conformance()
    assert len(cases) > 50
    for fixture, profile, queries, url in cases:
        with PathConfiguration.from_json(json.dumps(fixture), profile=profile, match_query_strings=queries,
                                         result_cache_size=0) as cfg:
            check(cfg, url)


# --- random configurations ---------------------------------------------------------------

PATTERNS = [".*", "^/a", "/new$", "/edit$", "b", "^/x/\\d+$", "\\?q=", "caf\u00e9", "^/$", "(a|b)+c"]
URLS = ["/", "/a", "/a/new", "/b/edit", "/x/12", "/x/12?q=1", "/caf\u00e9/new", "/abc", "/zzz",
        "https://example.com/a/b/new?q=2", "/aab", "/ab/abc"]
TEXTS = ["", "modal", "Modal", "DEFAULT", "pop", "POP", "push", "replace_root", "none", "page_sheet", "large",
         "true", "FALSE", "x\u0000y", "caf\u00e9 \u2603", "\U0001F600", 'q"uote\\', "web"]


def random_value(rng: random.Random, depth: int = 0, containers: bool = True) -> Any:
    roll = rng.random() if containers else rng.random() * 0.77
    if roll < 0.35:
        return rng.choice(TEXTS)
    if roll < 0.5:
        return rng.choice([True, False])
    if roll < 0.6:
        return rng.choice([0, 1, -7, 2**53 + 1, 2**63 - 1, -(2**63), 2**63, 10**30])
    if roll < 0.7:
        return rng.choice([0.5, -1.25, 1e-7, 1e300, 2.0])
    if roll < 0.77:
        return None
    if depth > 2:
        return rng.choice(TEXTS)
    if roll < 0.88:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["k", "headers", "x", "context"]): random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def random_document(rng: random.Random, containers: bool) -> Dict[str, Any]:
    """Rules of random patterns and properties (turbo-android refuses
    objects and arrays: ``containers=False`` there)."""
    keys = list(pathconfig.TYPED_KEYS) + ["flow", "headers", "n", "nested", "title"]
    rules = []
    for _ in range(rng.randint(0, 8)):
        rules.append({"patterns": rng.sample(PATTERNS, rng.randint(1, 2)),
                      "properties": {rng.choice(keys): random_value(rng, containers=containers)
                                     for _ in range(rng.randint(0, 5))}})
    return {"rules": rules}


def test_every_read_of_random_configurations_is_the_librarys() -> None:
    rng = random.Random(29)
    checked = 0
    for _ in range(60):
        profile = rng.choice([p for p in pathconfig.PROFILES if p != "siesta"])
        document = random_document(rng, containers=profile != "turbo-android")
        merge = rng.choice(["shallow", "deep"])
        with PathConfiguration.from_json(json.dumps(document), profile=profile, merge=merge,
                                         result_cache_size=rng.choice([0, None])) as cfg:
            for url in rng.sample(URLS, 5):
                check(cfg, url)
                checked += 1
    assert checked == 300


def test_a_value_text_with_a_nul_reads_whole() -> None:
    """get_str reads by length: a string holding U+0000 comes back whole,
    as the dict and the JSON text have it."""
    with PathConfiguration.from_json(json.dumps({"rules": [{"patterns": [".*"], "properties": {"s": "a\u0000b"}}]})) as cfg:
        props = cfg.properties("/")
        out, size = ctypes.c_char_p(), ctypes.c_size_t()
        res = fresh(cfg, "/", None)
        try:
            assert lib.pathconfig_result_get_string(res, b"s", ctypes.byref(out), ctypes.byref(size)) == _ffi.OK
            assert size.value == 3
        finally:
            _ffi.lookup.result_release(res.take())
        assert props["s"] == props.get_str("s") == "a\u0000b"
