"""App versions (libpathconfig 1.1.0): ``profile="APP@VERSION"``, the
release lines the catalog lists (:data:`pathconfig.RELEASES` and friends,
read from the library), and typed reads the profile's app crashes on
(``ErrorCode.E_CRASH``, raised every time, never kept as a value).
docs/app-versions.md describes them.

The release checks walk the library's own lists, so a line added to the
library is tested here without an edit."""

from __future__ import annotations

import json
import pickle
from typing import Any, Dict

import pytest

import pathconfig
from pathconfig import ConfigError, ErrorCode, PathConfiguration, Release, _ffi

lib = _ffi.lib

NUMBERS = '{"rules":[{"patterns":["/numbers$"],"properties":{"view_controller":"numbers"}}]}'
NUMBERS_URL = "https://hotwire-native-demo.dev/numbers/"


def rules(properties: Dict[str, Any], pattern: str = ".*") -> str:
    return json.dumps({"rules": [{"patterns": [pattern], "properties": properties}]})


# --- profiles with versions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "expected", "matched"),
    [
        ("hotwire-ios@1.2.2", {"view_controller": "numbers"}, "/numbers"),
        ("hotwire-ios@main", {}, "/numbers/"),
        ("hotwire-ios", {"view_controller": "numbers"}, "/numbers"),
        ("hotwire-ios@1.0.0", {"view_controller": "numbers"}, "/numbers"),
    ],
)
def test_a_trailing_slash_answers_by_version(profile: str, expected: Dict[str, str], matched: str) -> None:
    with PathConfiguration.from_json(NUMBERS, profile=profile) as cfg:
        assert cfg.profile == profile == cfg.options["profile"], "the name as given"
        assert cfg.properties(NUMBERS_URL) == expected
        assert cfg.matched_string(NUMBERS_URL) == matched
        assert cfg.properties(NUMBERS_URL).view_controller == ("numbers" if expected else "web")


def test_main_matches_the_encoded_path_releases_the_decoded_one() -> None:
    url = "https://x.dev/caf%C3%A9"
    with PathConfiguration.from_json(NUMBERS, profile="hotwire-ios@main") as cfg:
        assert cfg.matched_string(url) == "/caf%C3%A9"
    with PathConfiguration.from_json(NUMBERS, profile="hotwire-ios@1.2.2") as cfg:
        assert cfg.matched_string(url) == "/caf\u00e9"


def test_a_versioned_profile_round_trips_through_options() -> None:
    with PathConfiguration.from_json(NUMBERS, profile="hotwire-android@1.1.3") as cfg:
        options = cfg.options
        assert options["profile"] == "hotwire-android@1.1.3"
        assert repr(cfg) == "<pathconfig.PathConfiguration profile='hotwire-android@1.1.3' rules=1>"
    with PathConfiguration.from_json(NUMBERS, **options) as again:
        assert again.options == options


@pytest.mark.parametrize("profile", ["hotwire-ios@1.4.0", "hotwire-android@1.1.9", "siesta@2.0.0", "turbo-ios@latest"])
def test_an_unknown_version_is_an_options_error_listing_the_releases(profile: str) -> None:
    with pytest.raises(ConfigError) as info:
        PathConfiguration.from_json(NUMBERS, profile=profile)
    err = info.value
    app, version = profile.split("@")
    assert err.code == ErrorCode.E_OPTIONS and err.name == "PATHCONFIG_E_OPTIONS"
    assert version in err.message and "releases" in err.message and "main" in err.message
    # Every tag the library lists for the app is named.
    for name in pathconfig.RELEASES[app]:
        for tag in pathconfig.RELEASE_LINES[name].tags:
            assert tag in err.message, (tag, err.message)


def test_an_unknown_app_with_a_version_is_an_options_error() -> None:
    with pytest.raises(ConfigError) as info:
        PathConfiguration.from_json(NUMBERS, profile="nowhere@1.0.0")
    assert info.value.code == ErrorCode.E_OPTIONS


def test_the_loader_takes_a_versioned_profile() -> None:
    with pathconfig.Loader([pathconfig.DataSource(NUMBERS)], profile="hotwire-ios@main") as loader:
        loader.load()
        cfg = loader.current
        assert cfg is not None and cfg.profile == "hotwire-ios@main"
        assert cfg.properties(NUMBERS_URL) == {}


# --- the release catalog -------------------------------------------------------------------


def test_the_releases_are_the_librarys() -> None:
    assert tuple(pathconfig.RELEASES) == pathconfig.PROFILES
    assert tuple(pathconfig.DEFAULT_RELEASES) == pathconfig.PROFILES
    for i, profile in enumerate(pathconfig.PROFILES):
        count = lib.pathconfig_profile_release_count(i)
        names = tuple(lib.pathconfig_profile_release_name(i, j) for j in range(count))
        assert pathconfig.RELEASES[profile] == names
        assert pathconfig.DEFAULT_RELEASES[profile] == names[lib.pathconfig_profile_default_release(i)]
        for j, name in enumerate(names):
            line = pathconfig.RELEASE_LINES[name]
            assert isinstance(line, Release) and line.name == name and line.profile == profile
            assert " ".join(line.tags) == lib.pathconfig_profile_release_tags(i, j)
            assert line.commit == lib.pathconfig_profile_release_commit(i, j) != ""
    assert len(pathconfig.RELEASE_LINES) == sum(len(names) for names in pathconfig.RELEASES.values())
    with pytest.raises(TypeError):
        pathconfig.RELEASES["hotwire-ios"] = ()  # type: ignore[index]


@pytest.mark.parametrize("profile", pathconfig.PROFILES)
def test_every_release_line_and_tag_loads(profile: str) -> None:
    names = pathconfig.RELEASES[profile]
    assert names, "at least one line"
    assert names[-1] == f"{profile}@main", "the main branch last"
    for name in names:
        line = pathconfig.RELEASE_LINES[name]
        app, version = name.split("@")
        assert app == profile
        if version == "main":
            assert line.tags == ()
        else:
            assert line.tags[0] == version, "a line is named by its first tag"
        with PathConfiguration.from_json(NUMBERS, profile=name) as cfg:
            assert cfg.profile == name
        for tag in line.tags:
            with PathConfiguration.from_json(NUMBERS, profile=f"{profile}@{tag}") as cfg:
                assert cfg.profile == f"{profile}@{tag}"


@pytest.mark.parametrize("profile", pathconfig.PROFILES)
def test_the_bare_name_answers_as_its_default_release(profile: str) -> None:
    default = pathconfig.DEFAULT_RELEASES[profile]
    assert not default.endswith("@main") and pathconfig.RELEASE_LINES[default].tags, "a tagged release"
    doc = json.dumps({"rules": [
        {"patterns": ["/numbers$", "^/caf\u00e9$"], "properties": {"view_controller": "numbers"}},
        {"patterns": ["/flags$"], "properties": {"pull_to_refresh_enabled": "true", "animated": 0, "title": 5.0}},
    ]})
    urls = ["https://x.dev/numbers/", "https://x.dev/caf%C3%A9", "https://x.dev/flags",
            "https://x.dev/recede_historical_location", "https://x.dev/a?b=1", "/nothing"]

    def reads(cfg: PathConfiguration, url: str) -> Dict[str, Any]:
        props = cfg.properties(url)
        out: Dict[str, Any] = {"json": props.json, "matched": cfg.matched_string(url)}
        for key in pathconfig.TYPED_KEYS:
            try:
                out[key] = props.typed(key)
            except ConfigError as exc:
                out[key] = (exc.code, exc.message)
        return out

    with PathConfiguration.from_json(doc, profile=profile) as bare, \
            PathConfiguration.from_json(doc, profile=default) as versioned:
        assert bare.rule_count == versioned.rule_count
        for url in urls:
            assert reads(bare, url) == reads(versioned, url), url


def test_the_hotwire_ios_lines() -> None:
    names = pathconfig.RELEASES["hotwire-ios"]
    assert names[0] == "hotwire-ios@1.0.0" and names[-1] == "hotwire-ios@main"
    assert pathconfig.DEFAULT_RELEASES["hotwire-ios"] == "hotwire-ios@1.2.0"
    assert "1.2.2" in pathconfig.RELEASE_LINES["hotwire-ios@1.2.0"].tags


def test_catalog_functions_take_a_versioned_profile() -> None:
    animated = pathconfig.TYPED_KEYS["animated"].defaults["hotwire-android"]
    index = pathconfig._catalog.KEY_INDEX["animated"]
    assert lib.pathconfig_typed_key_default_bool(index, b"hotwire-android@1.1.3") == animated
    with pytest.raises(ConfigError) as info:
        lib.pathconfig_typed_key_default_bool(index, b"hotwire-android@9.9.9")
    assert info.value.code == ErrorCode.E_ARGUMENT and "9.9.9" in info.value.message


def test_release_indices_out_of_range() -> None:
    n = len(pathconfig.PROFILES)
    assert lib.pathconfig_profile_release_count(n) == 0 and lib.pathconfig_profile_default_release(n) == 0
    for read in (lib.pathconfig_profile_release_name, lib.pathconfig_profile_release_tags,
                 lib.pathconfig_profile_release_commit):
        for i, j in ((n, 0), (0, lib.pathconfig_profile_release_count(0))):
            with pytest.raises(ConfigError) as info:
                read(i, j)
            assert info.value.code == ErrorCode.E_ARGUMENT and "out of range" in info.value.message


# --- typed reads that crash the app --------------------------------------------------------

CRASH = ('the app crashes reading "pull_to_refresh_enabled": java.lang.ClassCastException: '
         "java.lang.String cannot be cast to java.lang.Boolean")


def test_e_crash_is_a_config_error() -> None:
    assert ErrorCode.E_CRASH == 17
    assert _ffi.error_name(17) == "PATHCONFIG_E_CRASH"
    err = pathconfig._errors.from_fields(17, "the app crashes")
    assert type(err) is ConfigError and isinstance(err, ValueError) and err.code is ErrorCode.E_CRASH
    assert err.name == "PATHCONFIG_E_CRASH"
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is ConfigError and again.code == ErrorCode.E_CRASH and again.message == err.message


@pytest.mark.parametrize("value", ["true", 1, 1.0, "false"])
def test_hotwire_android_crashes_reading_a_boolean_that_is_not_one(value: Any) -> None:
    with PathConfiguration.from_json(rules({"pull_to_refresh_enabled": value, "context": "modal"}),
                                     profile="hotwire-android") as cfg:
        props = cfg.properties("/a")
        # Every read raises: a crash is never kept as a value.
        for _ in range(3):
            with pytest.raises(ConfigError) as info:
                props.pull_to_refresh_enabled
            assert info.value.code == ErrorCode.E_CRASH and info.value.name == "PATHCONFIG_E_CRASH"
            assert "ClassCastException" in info.value.message and '"pull_to_refresh_enabled"' in info.value.message
            assert info.value.line is None and info.value.rule_index is None
            with pytest.raises(ConfigError):
                props.typed("pull_to_refresh_enabled")
            assert "pull_to_refresh_enabled" not in props.__dict__
        # The other keys read, and so does the raw value.
        assert props.context == "modal" and props.animated is True
        assert props["pull_to_refresh_enabled"] == value
        # Another lookup of the same answer is the same object, and crashes alike.
        assert cfg.properties("/b") is props
        with pytest.raises(ConfigError):
            cfg.properties("/b").pull_to_refresh_enabled


def test_the_crash_message() -> None:
    with PathConfiguration.from_json(rules({"pull_to_refresh_enabled": "true"}), profile="hotwire-android") as cfg:
        with pytest.raises(ConfigError) as info:
            cfg.properties("/a").pull_to_refresh_enabled
        assert info.value.message == str(info.value) == CRASH


def test_hotwire_android_reads_json_booleans_and_string_keys_as_java_prints_them() -> None:
    doc = json.dumps({"rules": [
        {"patterns": ["^/long$"], "properties": {"title": 5, "pull_to_refresh_enabled": True}},
        {"patterns": ["^/double$"], "properties": {"title": 5.0}},
    ]})
    with PathConfiguration.from_json(doc, profile="hotwire-android") as cfg:
        props = cfg.properties("/long")
        assert (props.title, props.pull_to_refresh_enabled) == ("5", True)
        assert cfg.properties("/double").title == "5.0"
    huge = '{"rules": [{"patterns": [".*"], "properties": {"title": 12345678901234567890}}]}'
    with PathConfiguration.from_json(huge, profile="hotwire-android") as cfg:
        assert cfg.properties("/a").title == "1.2345678901234567E19"


def test_hotwire_android_before_1_2_reads_strings() -> None:
    doc = json.dumps({"rules": [
        {"patterns": ["^/string$"], "properties": {"pull_to_refresh_enabled": "true", "animated": "FALSE", "title": 5}},
        {"patterns": ["^/number$"], "properties": {"pull_to_refresh_enabled": 1, "title": 5.0}},
    ]})
    with PathConfiguration.from_json(doc, profile="hotwire-android@1.1.3") as cfg:
        props = cfg.properties("/string")
        assert (props.pull_to_refresh_enabled, props.animated, props.title) == (True, False, "5")
        props = cfg.properties("/number")
        assert (props.pull_to_refresh_enabled, props.title) == (False, "5.0")


def test_turbo_android_crashes_reading_a_missing_uri() -> None:
    with PathConfiguration.from_json(rules({"uri": "app://x"}, "^/given$"), profile="turbo-android") as cfg:
        props = cfg.properties("/missing")
        for _ in range(2):
            with pytest.raises(ConfigError) as info:
                props.uri
            assert info.value.code == ErrorCode.E_CRASH and "NullPointerException" in info.value.message
            assert '"uri"' in info.value.message
        assert props.fallback_uri is None
        assert cfg.properties("/given").uri == "app://x"


def test_ios_never_crashes() -> None:
    with PathConfiguration.from_json(rules({"pull_to_refresh_enabled": "true"})) as cfg:
        assert cfg.properties("/a").pull_to_refresh_enabled is True  # not a boolean: the default
