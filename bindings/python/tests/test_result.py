"""Properties as a read-only Mapping, JSON types, typed accessors and defaults,
and the configuration's other views (settings, explain, counts)."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, MutableMapping

import pytest
from conftest import assert_json_equal

import pathconfig
from pathconfig import PathConfiguration, Properties, _result

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
    with sample.properties("https://example.com/messages/42") as props:
        assert text == props.json == str(props)
    assert sample.properties_json("https://example.com/messages/new") == '{"context":"modal","pull_to_refresh_enabled":false}'


def test_no_match_is_empty() -> None:
    with PathConfiguration.from_json('{"rules": [{"patterns": ["^/only$"], "properties": {"a": 1}}]}') as cfg:
        assert cfg.properties_json("/other") == "{}"
        with cfg.properties("/other") as props:
            assert len(props) == 0 and dict(props) == {} and props == {}
            assert props.context == "default"


def test_properties_is_a_read_only_mapping(sample) -> None:  # type: ignore[no-untyped-def]
    with sample.properties("https://example.com/messages/42") as props:
        assert isinstance(props, Mapping) and not isinstance(props, MutableMapping)
        assert isinstance(props, Properties)
        assert props == MESSAGE and MESSAGE == props
        assert props != {**MESSAGE, "count": 4}
        assert dict(props) == MESSAGE and list(props) == list(MESSAGE)
        assert len(props) == len(MESSAGE)
        assert list(props.keys()) == list(MESSAGE)
        assert list(props.items()) == list(MESSAGE.items())
        assert list(props.values()) == list(MESSAGE.values())
        assert "title" in props and "missing" not in props and 1 not in props
        assert props["count"] == 3 and props.get("missing") is None and props.get("missing", 7) == 7
        with pytest.raises(KeyError):
            props["missing"]
        with pytest.raises(TypeError):
            props["title"] = "x"  # type: ignore[index]
        with pytest.raises(TypeError):
            del props["title"]  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            hash(props)
        assert_json_equal(dict(props), MESSAGE)
        # containers come out as copies: the mapping cannot be changed through them
        props["tags"].append("x")
        props["nested"]["k"] = 0
        assert props["tags"] == ["a", 1, True] and props["nested"] == {"k": {"v": [None]}}
        copy = dict(props)
        copy["title"] = "changed"
        assert props["title"] == "Message"
        assert repr(props) == f"Properties({MESSAGE!r})"
        assert str(props) == props.json
        assert json.loads(props.json) == MESSAGE
        assert props.json == json.dumps(MESSAGE, separators=(",", ":"))


def test_number_literals_and_text_survive() -> None:
    doc = (
        '{"rules": [{"patterns": [".*"], "properties": {"big": 123456789012345678901234567890, "neg": -5, '
        '"f": 1.25, "exp": 1e2, "zero": 0.0, "u": "caf\u00e9 \u2603 \U0001F600", "esc": "\\"\\\\\\n\\t"}}]}'
    )
    with PathConfiguration.from_json(doc) as cfg:
        expected = {"big": 123456789012345678901234567890, "neg": -5, "f": 1.25, "exp": 100.0, "zero": 0.0,
                    "u": "caf\u00e9 \u2603 \U0001F600", "esc": "\"\\\n\t"}
        assert_json_equal(json.loads(cfg.properties_json("/")), expected)
        with cfg.properties("/") as props:
            assert_json_equal(dict(props), expected)
            assert '"big":123456789012345678901234567890' in props.json and '"exp":1e2' in props.json


def test_get_str(sample) -> None:  # type: ignore[no-untyped-def]
    with sample.properties("/messages/42") as props:
        assert props.get_str("title") == "Message"
        for key in ("count", "ratio", "nothing", "tags", "nested", "pull_to_refresh_enabled", "missing"):
            assert props.get_str(key) is None


def test_raw_getters_of_each_type(sample) -> None:  # type: ignore[no-untyped-def]
    with sample.properties("/messages/42") as props:
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
    with PathConfiguration.from_json('{"rules": [{"patterns": [".*"], "properties": {"f": 1.50, "big": 1e400, "i": 9223372036854775808}}]}') as cfg:
        with cfg.properties("/") as props:
            assert props.get_json("f") == "1.50" and props.get_float("f") == 1.5 and props.get_int("f") is None
            assert props.get_int("i") is None, "does not fit in 64 bits"
            assert props.get_float("i") == 9223372036854775808.0


def test_typed_defaults_of_the_apps() -> None:
    """A few defaults as the apps have them (every key and profile:
    test_catalog.py, against the library's list)."""
    with PathConfiguration.from_json('{"rules": []}', profile="hotwire-ios") as cfg, cfg.properties("/") as props:
        assert (props.view_controller, props.pull_to_refresh_enabled, props.modal_style) == ("web", True, "large")
    with PathConfiguration.from_json('{"rules": []}', profile="hotwire-android") as cfg, cfg.properties("/") as props:
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
    with PathConfiguration.from_json(doc, profile=profile) as cfg, cfg.properties("/a") as props:
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
        "modal_dismiss_gesture_enabled": 0,
        "animated": "no",
    }
    doc = json.dumps({"rules": [{"patterns": [".*"], "properties": wrong}]})
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg, cfg.properties("/a") as props:
        for key in wrong:
            assert_json_equal(getattr(props, key), pathconfig.TYPED_KEYS[key].defaults["hotwire-ios"], key)
        assert props == wrong  # the raw values are untouched


def test_ios_reads_strictly_android_leniently() -> None:
    values = {"presentation": "POP", "context": "Modal", "animated": "false", "pull_to_refresh_enabled": "TRUE"}
    doc = json.dumps({"rules": [{"patterns": [".*"], "properties": values}]})
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg, cfg.properties("/a") as props:
        assert (props.presentation, props.context, props.animated, props.pull_to_refresh_enabled) == (
            "default", "default", True, True)
    with PathConfiguration.from_json(doc, profile="hotwire-android") as cfg, cfg.properties("/a") as props:
        assert (props.presentation, props.context, props.animated, props.pull_to_refresh_enabled) == (
            "pop", "modal", False, True)
        assert props["presentation"] == "POP"  # raw value kept


def test_android_push_presentation() -> None:
    doc = '{"rules": [{"patterns": [".*"], "properties": {"presentation": "push"}}]}'
    with PathConfiguration.from_json(doc, profile="hotwire-android") as cfg, cfg.properties("/a") as props:
        assert props.presentation == "push"
    with PathConfiguration.from_json(doc, profile="hotwire-ios") as cfg, cfg.properties("/a") as props:
        assert props.presentation == "default"


def test_turbo_android_stores_strings() -> None:
    doc = '{"settings": {"n": 1, "b": true}, "rules": [{"patterns": [".*"], "properties": {"n": 1, "animated": false}}]}'
    with PathConfiguration.from_json(doc, profile="turbo-android") as cfg:
        assert_json_equal(cfg.settings, {"n": "1", "b": "true"})
        with cfg.properties("/a") as props:
            assert_json_equal(dict(props), {"n": "1", "animated": "false"})
            assert props.animated is False


def test_historical_location_builtins() -> None:
    with PathConfiguration.from_json('{"rules": []}', profile="hotwire-ios") as cfg:
        assert cfg.rule_count == 3 and cfg.document_rule_count == 0
        with cfg.properties("https://example.com/recede_historical_location") as props:
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
    with PathConfiguration.from_json(doc) as cfg:
        assert cfg.matched_string(url) == "/a/?tab=1" and cfg.properties(url) == {"q": True}
    with PathConfiguration.from_json(doc, match_query_strings=False) as cfg:
        assert cfg.matched_string(url) == "/a/" and cfg.properties(url) == {}


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


def test_counts_profile_repr(sample) -> None:  # type: ignore[no-untyped-def]
    assert sample.document_rule_count == 3 and sample.rule_count == 6
    assert sample.profile == "hotwire-ios"
    assert repr(sample) == "<pathconfig.PathConfiguration profile='hotwire-ios' rules=3>"


def test_result_equality_between_results(sample) -> None:  # type: ignore[no-untyped-def]
    with sample.properties("/messages/1") as a, sample.properties("https://x.test/messages/2") as b:
        assert a == b
    with sample.properties("/messages/new") as c:
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


def test_results_matching_the_same_rules_share_one_decoded_map() -> None:
    """The library hands out one result per set of matching rules; the binding
    decodes it once, and no caller can change what another reads."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"nested": {"a": [1, 2]}}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        first, second = cfg.properties("/a/new"), cfg.properties("/b/new")
        assert first._values() is second._values()  # one decode for both URLs
        nested = first["nested"]
        nested["a"].append(3)  # a copy: the shared map is untouched
        assert second["nested"] == {"a": [1, 2]}
        first.close()
        assert second["nested"] == {"a": [1, 2]}  # closing one handle leaves the other
        assert cfg.properties("/c")._values() == {}


def test_a_threads_own_copy_of_a_result_finds_the_map_decoded_for_the_shared_one() -> None:
    """A thread that meets a set of rules often gets its own copy of their
    result: another address, the same JSON text. The binding keys decoded
    maps by the text, so every lookup of those rules finds one entry."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}'
    lookup = pathconfig._ffi.lookup
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        lent, texts = set(), set()
        for i in range(6):
            address = lookup.lookup(cfg._address, f"/{i}/new".encode(), None)
            lent.add(address)
            texts.add(lookup.result_text(address))  # while it is lent: before the next lookup
        assert len(lent) > 1 and len(texts) == 1  # the premise: copies, one text
        found = {id(cfg.properties(f"/{i}/new")._result) for i in range(6, 12)}
        assert found == {id(_result._decoded[texts.pop()])}  # one entry, the text's


def test_a_lookup_during_a_lookup_on_the_same_thread_leaves_the_lent_result_alone() -> None:
    """Through ctypes, properties() borrows each result until the thread's
    next lookup and takes its own reference right after. A lookup made on
    the same thread in between (here by a rule's configurer; a finaliser or
    a signal handler could too) takes a result handed over instead, and both
    answers hold. The C extension has no such window (it keeps the GIL until
    the result is in hand): the nested lookup is an ordinary one, and both
    answers hold too."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        seen = []

        def configurer(request: pathconfig.Request, props: dict) -> None:  # type: ignore[type-arg]
            seen.append((threading.get_ident() in _result._lending, dict(cfg.properties("/inner/new"))))
            props["inner"] = len(seen)

        cfg.add_rule(patterns=["^/outer"], configurer=configurer)
        for n in range(1, 4):
            assert cfg.properties("/outer/new") == {"context": "modal", "inner": n}
            assert seen[-1] == (not _result.SPEEDUPS, {"context": "modal"})
        assert cfg.properties("/inner/new") == {"context": "modal"}
    assert not _result._lending  # every window closed, the failures' too
    with pytest.raises(pathconfig.ConfigError):
        PathConfiguration.from_json(rules).properties("/", method="NOT A TOKEN")
    assert not _result._lending


def test_lookup_path_takes_every_url_and_method() -> None:
    """properties() encodes ASCII URLs on a short path and everything else
    with the full checks; both give what the library's own JSON says."""
    rules = '{"rules": [{"patterns": ["/new$"], "properties": {"n": 1}}, {"patterns": ["caf\u00e9"], "properties": {"c": true}}]}'
    with PathConfiguration.from_json(rules, result_cache_size=0) as cfg:
        for url in ("/a/new", "https://x.test/a/new?q=1", "/caf\u00e9/new", "/\U0001F600", "", "/caf%C3%A9", "/a b"):
            for method in (None, "GET", "post"):
                with cfg.properties(url, method=method) as props:
                    assert dict(props) == json.loads(props.json) == json.loads(cfg.properties_json(url, method=method))
        assert cfg.properties("/caf\u00e9/new") == {"n": 1, "c": True}
        with pytest.raises(pathconfig.ConfigError) as info:
            cfg.properties("/a", method="BAD METHOD")
        assert info.value.code == pathconfig.ErrorCode.E_ARGUMENT
