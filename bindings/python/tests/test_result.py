"""Properties as a read-only dict (one per answer), JSON types, typed accessors and defaults,
and the configuration's other views (settings, explain, counts)."""

from __future__ import annotations

import gc
import json
from collections.abc import Mapping

import pytest
from conftest import assert_json_equal

import pathconfig
from pathconfig import ConfigError, ErrorCode, PathConfiguration, Properties, _ffi, _result

MESSAGE = {
    "context": "default",
    "pull_to_refresh_enabled": True,
    "view_controller": "message",
    "title": "Message",
    "count": 3,
    "ratio": 0.5,
    "nothing": None,
    "tags": ["a", 1, True],
    "nested": {"k": {"v": [None]}},
}


def test_properties_json_is_the_library_text(sample) -> None:  # type: ignore[no-untyped-def]
    text = sample.properties_json("https://example.com/messages/42")
    assert type(text) is str
    assert_json_equal(json.loads(text), MESSAGE)
    assert list(json.loads(text)) == list(MESSAGE)  # order of first appearance
    props = sample.properties("https://example.com/messages/42")
    assert text == props.json == str(props)
    assert sample.properties_json("https://example.com/messages/new") == '{"context":"modal","pull_to_refresh_enabled":false}'


def test_no_match_is_empty() -> None:
    with PathConfiguration.from_json('{"rules": [{"patterns": ["^/only$"], "properties": {"a": 1}}]}') as cfg:
        assert cfg.properties_json("/other") == "{}"
        props = cfg.properties("/other")
        assert len(props) == 0 and dict(props) == {} and props == {}
        assert props.context == "default"


def test_properties_is_a_read_only_dict(sample) -> None:  # type: ignore[no-untyped-def]
    props = sample.properties("https://example.com/messages/42")
    assert isinstance(props, dict) and isinstance(props, Mapping) and isinstance(props, Properties)
    assert props == MESSAGE and MESSAGE == props
    assert props != {**MESSAGE, "count": 4}
    assert dict(props) == MESSAGE and list(props) == list(MESSAGE)
    assert type(dict(props)) is dict and type(props.copy()) is dict
    assert len(props) == len(MESSAGE)
    assert list(props.keys()) == list(MESSAGE)
    assert list(props.items()) == list(MESSAGE.items())
    assert list(props.values()) == list(MESSAGE.values())
    assert "title" in props and "missing" not in props and 1 not in props
    assert props["count"] == 3 and props.get("missing") is None and props.get("missing", 7) == 7
    assert {**props} == MESSAGE and (props | {"count": 4})["count"] == 4
    with pytest.raises(KeyError):
        props["missing"]
    with pytest.raises(TypeError):
        hash(props)
    assert_json_equal(dict(props), MESSAGE)
    assert repr(props) == f"Properties({MESSAGE!r})"
    assert str(props) == props.json
    assert json.loads(props.json) == MESSAGE
    assert props.json == json.dumps(MESSAGE, separators=(",", ":"))
    with pytest.raises(TypeError):
        Properties()


@pytest.mark.parametrize("change", [
    lambda p: p.__setitem__("title", "x"),
    lambda p: p.__delitem__("title"),
    lambda p: p.update(title="x"),
    lambda p: p.setdefault("new", 1),
    lambda p: p.pop("title"),
    lambda p: p.popitem(),
    lambda p: p.clear(),
    lambda p: p.__ior__({"title": "x"}),
    lambda p: setattr(p, "context", "modal"),
    lambda p: setattr(p, "json", "{}"),
    lambda p: delattr(p, "json"),
    lambda p: p["tags"].append("x"),
    lambda p: p["tags"].__setitem__(0, "x"),
    lambda p: p["tags"].extend([1]),
    lambda p: p["tags"].sort(),
    lambda p: p["nested"].__setitem__("k", 0),
    lambda p: p["nested"]["k"].pop("v"),
    lambda p: p["nested"]["k"]["v"].clear(),
    lambda p: dict(p)["tags"].append("x"),
], ids=["setitem", "delitem", "update", "setdefault", "pop", "popitem", "clear", "ior", "setattr-typed",
        "setattr-json", "delattr", "array-append", "array-setitem", "array-extend", "array-sort",
        "object-setitem", "nested-pop", "nested-array-clear", "copy-shares-nested"])
def test_a_shared_answer_cannot_be_changed(sample, change) -> None:  # type: ignore[no-untyped-def]
    """Every lookup with the same answer gets the same object, so nothing
    may change it, at any depth: each change raises TypeError (attributes:
    AttributeError or TypeError) and the next reader sees the answer whole."""
    props = sample.properties("https://example.com/messages/42")
    props.context  # a typed value read and kept
    with pytest.raises((TypeError, AttributeError)):
        change(props)
    again = sample.properties("https://example.com/messages/43")
    assert again is props
    assert_json_equal(dict(again), MESSAGE)
    assert again.context == "default" and again.json == json.dumps(MESSAGE, separators=(",", ":"))


def test_copies_are_plain_and_changeable(sample) -> None:  # type: ignore[no-untyped-def]
    import copy
    import pickle

    props = sample.properties("https://example.com/messages/42")
    assert isinstance(props["tags"], list) and isinstance(props["nested"], dict)
    assert type(props["tags"]) is pathconfig.JSONArray and type(props["nested"]) is pathconfig.JSONObject
    for made in (copy.deepcopy(props), pickle.loads(pickle.dumps(props)), copy.deepcopy(props["nested"])):
        assert type(made) is dict
    deep = copy.deepcopy(props)
    assert deep == MESSAGE and type(deep["tags"]) is list and type(deep["nested"]["k"]) is dict
    deep["tags"].append("x")
    deep["nested"]["k"]["v"].append(1)
    shallow = copy.copy(props)
    assert type(shallow) is dict and shallow == MESSAGE
    shallow["title"] = "changed"
    assert type(copy.copy(props["tags"])) is list and type(pickle.loads(pickle.dumps(props["tags"]))) is list
    assert props == MESSAGE, "the shared answer is untouched"


def test_json_dumps_takes_properties(sample) -> None:  # type: ignore[no-untyped-def]
    """json.dumps of an answer is the library's JSON, re-encoded: the same
    value, keys in the same order, nested objects and arrays included."""
    for url in ("https://example.com/messages/42", "/messages/new", "/"):
        props = sample.properties(url)
        text = json.dumps(props)
        assert json.loads(text) == json.loads(props.json) == props
        assert list(json.loads(text)) == list(json.loads(props.json))
        assert json.dumps(props, separators=(",", ":")) == props.json
    assert json.dumps({"answer": sample.properties("/messages/42")}, separators=(",", ":")) == (
        '{"answer":' + sample.properties("/messages/42").json + "}")


def test_number_literals_and_text_survive() -> None:
    doc = (
        '{"rules": [{"patterns": [".*"], "properties": {"big": 123456789012345678901234567890, "neg": -5, '
        '"f": 1.25, "exp": 1e2, "zero": 0.0, "u": "caf\u00e9 \u2603 \U0001F600", "esc": "\\"\\\\\\n\\t"}}]}'
    )
    with PathConfiguration.from_json(doc) as cfg:
        expected = {"big": 123456789012345678901234567890, "neg": -5, "f": 1.25, "exp": 100.0, "zero": 0.0,
                    "u": "caf\u00e9 \u2603 \U0001F600", "esc": "\"\\\n\t"}
        assert_json_equal(json.loads(cfg.properties_json("/")), expected)
        props = cfg.properties("/")
        assert_json_equal(dict(props), expected)
        assert '"big":123456789012345678901234567890' in props.json and '"exp":1e2' in props.json


def test_get_str(sample) -> None:  # type: ignore[no-untyped-def]
    props = sample.properties("/messages/42")
    assert props.get_str("title") == "Message"
    for key in ("count", "ratio", "nothing", "tags", "nested", "pull_to_refresh_enabled", "missing"):
        assert props.get_str(key) is None


def test_raw_getters_of_each_type(sample) -> None:  # type: ignore[no-untyped-def]
    props = sample.properties("/messages/42")
    getters = {"get_str": str, "get_bool": bool, "get_int": int, "get_float": float}
    for key, value in MESSAGE.items():
        for getter, kind in getters.items():
            got = getattr(props, getter)(key)
            # bool is an int in Python, not in JSON; any number is a float.
            fits = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
            fits = fits or (kind is float and type(value) in (int, float))
            assert_json_equal(got, kind(value) if fits else None, f"{getter}({key})")
        assert props.get_json(key) == json.dumps(value, separators=(",", ":")), key
        assert props.get_json("missing") is None
    with PathConfiguration.from_json('{"rules": [{"patterns": [".*"], "properties": {"f": 1.50, "big": 1e308, "i": 9223372036854775808}}]}') as cfg:
        props = cfg.properties("/")
        assert props.get_json("f") == "1.50" and props.get_float("f") == 1.5 and props.get_int("f") is None
        assert props.get_int("i") is None, "does not fit in 64 bits"
        assert props.get_float("i") == 9223372036854775808.0
        assert props.get_json("big") == "1e308" and props.get_float("big") == 1e308 and props.get_int("big") is None
    # A number beyond a Double: the iOS apps' JSONSerialization refuses the document.
    with pytest.raises(ConfigError) as info:
        PathConfiguration.from_json('{"rules": [{"patterns": [".*"], "properties": {"big": 1e400}}]}')
    assert info.value.code == ErrorCode.E_JSON and "too large for a Double" in info.value.message


def test_raw_getters_keep_only_this_answers_keys(sample) -> None:  # type: ignore[no-untyped-def]
    """Each raw getter's value of a key is read from the library once and
    kept on the answer; keys the answer lacks are answered without being
    kept, so asking for any number of them keeps nothing more, and a key
    the library cannot take is refused every time."""
    props = sample.properties("/messages/42")
    getters = (props.get_str, props.get_bool, props.get_int, props.get_float, props.get_json)
    first = [[get(key) for get in getters] for key in props]
    for i in range(10_000):
        assert all(get(f"missing {i}") is None for get in getters)
    assert [[get(key) for get in getters] for key in props] == first
    kept = [props.__dict__[f"_raw_{kind}"] for kind in ("str", "bool", "int", "float", "json")]
    assert [sorted(values) for values in kept] == [sorted(props)] * len(getters)
    for get in getters:
        for _ in range(2):
            with pytest.raises(ValueError):
                get("title\0")
            with pytest.raises(TypeError):
                get(b"title")  # type: ignore[arg-type]


def test_typed_defaults_of_the_apps() -> None:
    """A few defaults as the apps have them (every key and profile:
    test_catalog.py, against the library's list)."""
    with PathConfiguration.from_json('{"rules": []}', profile="hotwire-ios") as cfg:
        props = cfg.properties("/")
        assert (props.view_controller, props.pull_to_refresh_enabled, props.modal_style) == ("web", True, "large")
    with PathConfiguration.from_json('{"rules": []}', profile="hotwire-android") as cfg:
        props = cfg.properties("/")
        assert (props.view_controller, props.pull_to_refresh_enabled, props.title) == (None, False, None)


SET_EVERYTHING = {
    "context": "modal",
    "presentation": "replace_root",
    "modal_style": "page_sheet",
    "query_string_presentation": "replace",
    "view_controller": "native",
    "title": "T",
    "uri": "app://u",
    "fallback_uri": "app://f",
    "pull_to_refresh_enabled": False,
    "modal_dismiss_gesture_enabled": False,
    "animated": False,
    "historical_location": True,
}


@pytest.mark.parametrize("profile", ["hotwire-ios", "turbo-ios", "hotwire-android"])
def test_typed_values(profile: str) -> None:
    doc = json.dumps({"rules": [{"patterns": [".*"], "properties": SET_EVERYTHING}]})
    with PathConfiguration.from_json(doc, profile=profile) as cfg:
        props = cfg.properties("/a")
        for key, value in SET_EVERYTHING.items():
            assert_json_equal(getattr(props, key), value, key)


def test_unknown_or_mistyped_values_fall_back_to_defaults() -> None:
    wrong = {
        "context": "sheet",
        "presentation": 3,
        "modal_style": None,
        "query_string_presentation": ["replace"],
        "view_controller": 1,
        "title": False,
        "pull_to_refresh_enabled": "false",
        "modal_dismiss_gesture_enabled": 2,
        "animated": "no",
    }
    doc = json.dumps({"rules": [{"patterns": [".*"], "properties": wrong}]})
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg:
        props = cfg.properties("/a")
        for key in wrong:
            assert_json_equal(getattr(props, key), pathconfig.TYPED_KEYS[key].defaults["hotwire-ios"], key)
        assert props == wrong  # the raw values are untouched
    # iOS reads a boolean with `as? Bool`: a number that is exactly 0 or 1
    # bridges (an NSNumber), any other does not.
    doc = json.dumps({"rules": [{"patterns": [".*"], "properties": {"modal_dismiss_gesture_enabled": 0, "animated": 1.0}}]})
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg:
        props = cfg.properties("/a")
        assert (props.modal_dismiss_gesture_enabled, props.animated) == (False, True)


def test_ios_reads_strictly_android_leniently() -> None:
    values = {"presentation": "POP", "context": "Modal", "animated": "false", "pull_to_refresh_enabled": "TRUE"}
    doc = json.dumps({"rules": [{"patterns": [".*"], "properties": values}]})
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg:
        props = cfg.properties("/a")
        assert (props.presentation, props.context, props.animated, props.pull_to_refresh_enabled) == (
            "default", "default", True, True)
    # hotwire-android before 1.2 keeps every value as a string: booleans by toBoolean().
    with PathConfiguration.from_json(doc, profile="hotwire-android@1.1.3") as cfg:
        props = cfg.properties("/a")
        assert (props.presentation, props.context, props.animated, props.pull_to_refresh_enabled) == (
            "pop", "modal", False, True)
        assert props["presentation"] == "POP"  # raw value kept
    # From 1.2 (the bare name): enumerations alike, but `as Boolean` on a string throws.
    with PathConfiguration.from_json(doc, profile="hotwire-android") as cfg:
        props = cfg.properties("/a")
        assert (props.presentation, props.context) == ("pop", "modal")
        for key in ("animated", "pull_to_refresh_enabled"):
            with pytest.raises(ConfigError) as info:
                getattr(props, key)
            assert info.value.code == ErrorCode.E_CRASH and "ClassCastException" in info.value.message
        assert props["presentation"] == "POP"  # raw value kept


def test_android_push_presentation() -> None:
    doc = '{"rules": [{"patterns": [".*"], "properties": {"presentation": "push"}}]}'
    with PathConfiguration.from_json(doc, profile="hotwire-android") as cfg:
        props = cfg.properties("/a")
        assert props.presentation == "push"
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg:
        props = cfg.properties("/a")
        assert props.presentation == "default"


def test_turbo_android_stores_strings() -> None:
    doc = '{"settings": {"n": 1, "b": true}, "rules": [{"patterns": [".*"], "properties": {"n": 1, "animated": false}}]}'
    with PathConfiguration.from_json(doc, profile="turbo-android") as cfg:
        assert_json_equal(cfg.settings, {"n": "1", "b": "true"})
        props = cfg.properties("/a")
        assert_json_equal(dict(props), {"n": "1", "animated": "false"})
        assert props.animated is False


def test_historical_location_builtins() -> None:
    with PathConfiguration.from_json('{"rules": []}', profile="hotwire-ios") as cfg:
        assert cfg.rule_count == 3 and cfg.document_rule_count == 0
        props = cfg.properties("https://example.com/recede_historical_location")
        assert props.historical_location is True and props.presentation == "pop"
        [rule] = cfg.explain("/resume_historical_location")["rules"]
        assert rule["builtin"] is True and rule["index"] == 1  # the second built-in
    with PathConfiguration.from_json('{"rules": []}', profile="turbo-ios") as cfg:
        assert cfg.rule_count == 0
        assert cfg.properties("/recede_historical_location") == {}


def test_query_strings_option() -> None:
    doc = '{"rules": [{"patterns": ["\\\\?tab=1"], "properties": {"q": true}}]}'
    url = "https://example.com/a/?tab=1#frag"
    with PathConfiguration.from_json(doc, profile="turbo-ios") as cfg:
        assert cfg.matched_string(url) == "/a" and cfg.properties(url) == {}
    with PathConfiguration.from_json(doc, profile="turbo-ios", match_query_strings=True) as cfg:
        assert cfg.matched_string(url) == "/a?tab=1" and cfg.properties(url) == {"q": True}
    with PathConfiguration.from_json(doc, profile="hotwire-ios@main") as cfg:
        assert cfg.matched_string(url) == "/a/?tab=1" and cfg.properties(url) == {"q": True}
    with PathConfiguration.from_json(doc, profile="hotwire-ios@main", match_query_strings=False) as cfg:
        assert cfg.matched_string(url) == "/a/" and cfg.properties(url) == {}
    # The bare hotwire-ios (its latest release) matches url.path: the slash dropped.
    with PathConfiguration.from_json(doc) as cfg:
        assert cfg.matched_string(url) == "/a?tab=1" and cfg.properties(url) == {"q": True}
    with PathConfiguration.from_json(doc, match_query_strings=False) as cfg:
        assert cfg.matched_string(url) == "/a" and cfg.properties(url) == {}


def test_explain_as_the_cli_prints_it(sample) -> None:  # type: ignore[no-untyped-def]
    explained = sample.explain("https://example.com/messages/new?x=1")
    assert list(explained) == ["input", "method", "url", "matched_string", "rules", "properties"]
    assert explained["input"] == explained["url"] == "https://example.com/messages/new?x=1"
    assert explained["method"] == "GET"
    assert explained["matched_string"] == "/messages/new?x=1"
    assert explained["properties"] == {"context": "default", "pull_to_refresh_enabled": True}
    assert explained["rules"] == [{"index": 0, "pattern": ".*", "pattern_index": 0, "description": "every page"}]
    explained = sample.explain("/messages/new")
    assert [r["index"] for r in explained["rules"]] == [0, 1]
    assert explained["rules"][1] == {"index": 1, "pattern": "/new$", "pattern_index": 0}


def test_settings(sample) -> None:  # type: ignore[no-untyped-def]
    settings = sample.settings
    assert_json_equal(settings, {"tabs": [{"title": "Messages", "path": "/messages"}], "flags": {"new_composer": True}})
    settings["tabs"] = None  # a new dict on each access
    assert sample.settings["tabs"] == [{"title": "Messages", "path": "/messages"}]
    with PathConfiguration.from_json('{"rules": []}') as cfg:
        assert cfg.settings == {}


def test_values_nested_as_deep_as_the_library_reads() -> None:
    # The library reads documents, answers and rules from code nested up to
    # 256 levels; each way the binding reads or writes JSON goes as deep.
    deep: object = 1
    for _ in range(250):
        deep = {"k": deep}
    document = {"settings": {"s": deep}, "rules": [{"patterns": [".*"], "properties": {"x": deep}}]}
    cfg = PathConfiguration.from_json(json.dumps(document), profile="hotwire-ios")
    assert cfg.properties("/a")["x"] == deep
    assert cfg.settings["s"] == deep
    assert cfg.explain("/a")["properties"]["x"] == deep
    seen = []
    from_code = PathConfiguration.from_json('{"rules": []}', profile="siesta")
    from_code.add_rule(
        patterns=[".*"], properties={"y": deep}, configurer=lambda request, props: seen.append(request.properties()["y"])
    )
    assert from_code.properties("/a")["y"] == deep
    assert seen == [deep]


def test_counts_profile_repr(sample) -> None:  # type: ignore[no-untyped-def]
    assert sample.document_rule_count == 3 and sample.rule_count == 6
    assert sample.profile == "hotwire-ios"
    assert repr(sample) == "<pathconfig.PathConfiguration profile='hotwire-ios' rules=3>"


def test_options_are_the_librarys() -> None:
    """``options`` is pathconfig_options: every option in effect, defaults
    written out; loading again with them gives the same configuration."""
    doc = '{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}'
    with PathConfiguration.from_json(doc, profile="turbo-android", result_cache_size=0, merge="deep") as cfg:
        options = cfg.options
        assert options == json.loads(_ffi.lib.pathconfig_options(cfg._ptr))
        assert options["profile"] == cfg.profile == "turbo-android"
        assert options["result_cache_size"] == 0 and options["merge"] == "deep"
        assert {"match_query_strings", "backend", "lenient", "base_url", "max_url_bytes"} <= set(options)
        options["profile"] = "changed"  # a new dict on each access
        assert cfg.options["profile"] == "turbo-android"
        with PathConfiguration.from_json(doc, **cfg.options) as again:
            assert again.options == cfg.options and again.properties("/a/new") == cfg.properties("/a/new")


def test_result_equality_between_results(sample) -> None:  # type: ignore[no-untyped-def]
    a = sample.properties("/messages/1")
    b = sample.properties("https://x.test/messages/2")
    assert a == b
    c = sample.properties("/messages/new")
    assert c != MESSAGE


def test_result_cache_size_option() -> None:
    """The cache changes speed, never answers: off and on agree, lookup after lookup."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as off, PathConfiguration.from_json(rules) as on:
        for url in ["/a/new", "/a/new", "/b", "/b"]:
            assert off.properties(url) == on.properties(url)
        assert off.properties("/a/new") == {"context": "modal"}


def test_url_longer_than_max_url_bytes_is_a_limit_error() -> None:
    rules = '{"rules": [{"patterns": ["^/x+$"], "properties": {"long": true}}]}'
    with PathConfiguration.from_json(rules) as cfg:
        assert cfg.properties("/" + "x" * 65535) == {"long": True}
        with pytest.raises(pathconfig.ConfigError) as info:
            cfg.properties("/" + "x" * 65536)
        assert info.value.code == pathconfig.ErrorCode.E_LIMIT
        assert "more than the limit of 65536 (max_url_bytes)" in str(info.value)
    with PathConfiguration.from_json(rules, max_url_bytes=4) as small:
        assert small.properties("/xxx") == {"long": True}
        with pytest.raises(pathconfig.ConfigError):
            small.properties("/xxxx")
    with pytest.raises(TypeError, match="max_url_bytes"):
        PathConfiguration.from_json(rules, max_url_bytes="4")  # type: ignore[arg-type]


def test_url_the_app_crashes_on_is_a_url_error() -> None:
    """turbo-android crashes on a URL java.net.URL rejects: the lookup raises
    (E_URL); hotwire-android matches "" for it."""
    rules = '{"rules": [{"patterns": ["^$"], "properties": {"home": "y"}}]}'
    with PathConfiguration.from_json(rules, profile="turbo-android") as turbo, \
            PathConfiguration.from_json(rules, profile="hotwire-android") as hotwire:
        for url in ["mailto:a@x.dev", "https://x.dev:abc/new", "https://[::1/new"]:
            with pytest.raises(pathconfig.ConfigError) as info:
                turbo.properties(url)
            assert info.value.code == pathconfig.ErrorCode.E_URL and info.value.name == "PATHCONFIG_E_URL"
            assert str(info.value).startswith("turbo-android crashes on this URL: java.net.URL rejects it (")
            assert turbo.matched_string(url) == ""
            assert hotwire.properties(url) == {"home": "y"}
        assert turbo.properties(" url:https://x.dev/ ") == {}


def test_lookups_with_the_same_answer_share_one_properties() -> None:
    """The library names each distinct answer (pathconfig_result_id); the
    binding keeps one Properties per answer, decoded once, with each typed
    value read from the library once and kept on it."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"nested": {"a": [1, 2]}}}, {"patterns": ["^/p"], "properties": {"p": 1}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        first, second = cfg.properties("/a/new"), cfg.properties("/b/new")
        assert first is second  # one answer for both URLs
        assert first._id == _ffi.lib.pathconfig_result_id(first._ptr())
        assert _result._answers[first._id] is first
        assert "context" not in vars(first)
        assert first.context == "default"
        assert vars(first)["context"] == "default"  # kept: the next read is an attribute read
        other = cfg.properties("/p/new")
        assert other is not first and other._id != first._id and other == {"nested": {"a": [1, 2]}, "p": 1}
        assert cfg.properties("/c") is cfg.properties("/d") == {}


def test_an_answer_outlives_its_entry() -> None:
    """An answer dropped from the binding's table stays whole for whoever
    holds it, and the next lookup of it makes a new, equal one."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal", "tags": ["a"]}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        props = cfg.properties("/q/new")
        with _result._answers_lock:
            del _result._answers[props._id]
        again = cfg.properties("/r/new")
        assert again is not props and again == props and again._id == props._id
        assert props.presentation == again.presentation == "default" and props.get_str("context") == "modal"
        del props, again
        gc.collect()
        assert cfg.properties("/s/new") == {"context": "modal", "tags": ["a"]}


def test_the_table_of_answers_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules from code give a new answer per URL: the table keeps the newest
    _CAPACITY of them."""
    monkeypatch.setattr(_result, "_CAPACITY", 8)
    with PathConfiguration.from_json('{"rules": []}', profile="siesta", base_url="https://x.test") as cfg:
        cfg.add_rule(globs=["**"], configurer=lambda request, props: props.update(url=request.url))
        kept = [cfg.properties(f"/{i}") for i in range(20)]
        assert len({p._id for p in kept}) == 20
        assert len(_result._answers) <= 8 and kept[-1]._id in _result._answers and kept[0]._id not in _result._answers
        assert [p["url"] for p in kept] == [f"https://x.test/{i}" for i in range(20)]


def test_lookup_path_takes_every_url_and_method() -> None:
    """properties() encodes ASCII URLs on a short path and everything else
    with the full checks; both give what the library's own JSON says."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"n": 1}}, {"patterns": ["caf\u00e9"], "properties": {"c": true}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        for url in ("/a/new", "https://x.test/a/new?q=1", "/caf\u00e9/new", "/\U0001F600", "", "/caf%C3%A9", "/a b"):
            for method in (None, "GET", "post"):
                props = cfg.properties(url, method=method)
                assert dict(props) == json.loads(props.json) == json.loads(cfg.properties_json(url, method=method))
        assert cfg.properties("/caf\u00e9/new") == {"n": 1, "c": True}
        with pytest.raises(pathconfig.ConfigError) as info:
            cfg.properties("/a", method="BAD METHOD")
        assert info.value.code == pathconfig.ErrorCode.E_ARGUMENT
