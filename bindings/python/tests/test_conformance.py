"""Every case of Tests/Fixtures/conformance/ios.json and android.json, through the binding."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest
from conftest import assert_json_equal, conformance_missing, load_conformance

import pathconfig
from pathconfig import ConfigError, ErrorCode, PathConfiguration

IOS = load_conformance("ios.json")
ANDROID = load_conformance("android.json")

IOS_PROFILES = {"turbo-ios": "turbo-ios", "hotwire-native-ios": "hotwire-ios"}
ANDROID_PROFILES = {"hotwire-native-android": "hotwire-android", "turbo-android": "turbo-android"}
#: settings_cases whose source is the decoder or loader count the document's
#: rules; the others count the configuration's, built-ins included.
DOCUMENT_LEVEL = ("test_json_", "Loader", "Decoder")


def params(data: Any, key: str, name: str) -> List[Any]:
    if data is None:
        return [pytest.param(None, id=f"{name}-missing")]
    out = []
    for i, case in enumerate(data[key]):
        who = case.get("library") or case.get("implementation")
        out.append(pytest.param(case, id=f"{i}-{who}-{case['fixture']}-{case.get('input')}"))
    return out


def load(data: Dict[str, Any], case: Dict[str, Any], profile: str) -> PathConfiguration:
    options = case.get("options") or {}
    return PathConfiguration.from_json(
        json.dumps(data["fixtures"][case["fixture"]]),
        profile=profile,
        match_query_strings=options.get("matchQueryStrings"),
    )


def test_conformance_files_present() -> None:
    for name, data in (("ios.json", IOS), ("android.json", ANDROID)):
        if data is None:
            conformance_missing(name)


@pytest.mark.parametrize("case", params(IOS, "cases", "ios"))
def test_ios_case(case: Dict[str, Any]) -> None:
    if case is None:
        conformance_missing("ios.json")
    url = case["input"]
    expected = case["expected_properties"]
    with load(IOS, case, IOS_PROFILES[case["library"]]) as cfg:
        assert cfg.matched_string(url) == case["matched_string"]
        assert_json_equal(json.loads(cfg.properties_json(url)), expected)
        props = cfg.properties(url)
        assert_json_equal(dict(props), expected)
        assert props == expected
        for key, value in (case.get("expected_typed") or {}).items():
            assert_json_equal(getattr(props, key), value, key)
            assert_json_equal(props.typed(key), value, key)
        for key, value in (case.get("expected_string_accessor") or {}).items():
            assert_json_equal(props.get_str(key), value, key)
        explained = cfg.explain(url)
        assert explained["matched_string"] == case["matched_string"]
        assert_json_equal(explained["properties"], expected)
        if "expected_rule_match" in case:
            assert any(rule["index"] == 0 for rule in explained["rules"]) is case["expected_rule_match"]


@pytest.mark.parametrize("case", params(IOS, "settings_cases", "ios-settings"))
def test_ios_settings_case(case: Dict[str, Any]) -> None:
    if case is None:
        conformance_missing("ios.json")
    profile = IOS_PROFILES[case["library"]]
    if case["expected_error"]:
        with pytest.raises(ConfigError) as info:
            load(IOS, case, profile)
        assert info.value.code in (ErrorCode.E_JSON, ErrorCode.E_SCHEMA)
        assert isinstance(info.value, ValueError)
        return
    with load(IOS, case, profile) as cfg:
        assert_json_equal(cfg.settings, case["expected_settings"])
        if case["expected_rule_count"] is not None:
            document_level = any(marker in case["source"] for marker in DOCUMENT_LEVEL)
            count = cfg.document_rule_count if document_level else cfg.rule_count
            assert count == case["expected_rule_count"]


@pytest.mark.parametrize("case", params(ANDROID, "cases", "android"))
def test_android_case(case: Dict[str, Any]) -> None:
    if case is None:
        conformance_missing("android.json")
    with load(ANDROID, case, ANDROID_PROFILES[case["implementation"]]) as cfg:
        if case.get("kind") == "settings":
            setting = case["expected_setting"]
            settings = cfg.settings
            if setting["assertion"] == "size":
                assert len(settings) == setting["value"]
            else:
                assert_json_equal(settings.get(setting["key"]), setting["value"])
            return
        url = case["input"]
        assert cfg.matched_string(url) == case["matched_string"]
        assert_json_equal(json.loads(cfg.properties_json(url)), case["expected_properties"])
        props = cfg.properties(url)
        assert_json_equal(dict(props), case["expected_properties"])
        assert props == case["expected_properties"]
        expected = case.get("expected_property")
        if expected is not None:
            key = expected["key"]
            if key in pathconfig.TYPED_KEYS:
                assert_json_equal(getattr(props, key), expected["value"], key)
            else:
                assert_json_equal(props[key], expected["value"], key)
            assert_json_equal(props.get(key), expected["raw_value"], key)
