"""What the library lists about itself, reached through the binding.

Every test walks the library's own lists (never a copy), so a profile,
backend, typed key or warning kind added to the library is tested here
without an edit, and fails here if the binding does not pass it through."""

from __future__ import annotations

import dataclasses
import json
from typing import Iterator, List

import pytest
from conftest import assert_json_equal

import pathconfig
from pathconfig import ConfigError, ErrorCode, PathConfiguration, _ffi

RULES = '{"rules": []}'


def library_warning_kinds() -> Iterator[str]:
    """``pathconfig_warning_kind_name(1)``, ``(2)``, ... until the library has no more."""
    kind = 1
    while True:
        try:
            yield _ffi.lib.pathconfig_warning_kind_name(kind)
        except ConfigError as exc:
            assert exc.code == ErrorCode.E_ARGUMENT and kind > 1
            return
        kind += 1


def test_the_lists_are_the_librarys() -> None:
    lib = _ffi.lib
    assert pathconfig.PROFILES == tuple(lib.pathconfig_profile_name(i) for i in range(lib.pathconfig_profile_count()))
    assert pathconfig.BACKENDS == tuple(lib.pathconfig_backend_name(i) for i in range(lib.pathconfig_backend_count()))
    assert list(pathconfig.TYPED_KEYS) == [lib.pathconfig_typed_key_name(i) for i in range(lib.pathconfig_typed_key_count())]
    assert set(pathconfig.PLATFORMS) == set(pathconfig.PROFILES)
    assert set(pathconfig.PLATFORMS.values()) <= {"ios", "android"}
    assert pathconfig.STRING_KEYS | pathconfig.BOOL_KEYS == set(pathconfig.TYPED_KEYS)
    assert not pathconfig.STRING_KEYS & pathconfig.BOOL_KEYS
    with pytest.raises(ConfigError) as info:
        lib.pathconfig_profile_name(len(pathconfig.PROFILES))
    assert info.value.code == ErrorCode.E_ARGUMENT and "out of range" in info.value.message


@pytest.mark.parametrize("profile", pathconfig.PROFILES)
def test_every_profile_loads(profile: str) -> None:
    with PathConfiguration.from_json(RULES, profile=profile) as cfg:
        assert cfg.profile == profile


def test_the_first_profile_and_backend_are_the_defaults() -> None:
    with PathConfiguration.from_json(RULES) as cfg:
        assert cfg.profile == pathconfig.PROFILES[0]
    assert pathconfig.BACKENDS[0] == "pcre2"


@pytest.mark.parametrize("backend", pathconfig.BACKENDS)
def test_every_backend_loads(backend: str) -> None:
    with PathConfiguration.from_json('{"rules": [{"patterns": ["^/a"], "properties": {"k": 1}}]}', backend=backend) as cfg:
        assert cfg.properties("/a") == {"k": 1}


@pytest.mark.parametrize("profile", pathconfig.PROFILES)
def test_every_typed_key_gives_its_default(profile: str) -> None:
    with PathConfiguration.from_json(RULES, profile=profile) as cfg:
        props = cfg.properties("/nothing")
        for name, key in pathconfig.TYPED_KEYS.items():
            expected = key.defaults[profile]
            if (profile, name) == ("turbo-android", "uri"):
                # turbo-android reads a missing uri with Uri.parse(null): the app
                # crashes, every time it is read (docs/app-versions.md).
                for _ in range(2):
                    with pytest.raises(ConfigError) as info:
                        getattr(props, name)
                    assert info.value.code == ErrorCode.E_CRASH and "NullPointerException" in info.value.message
                    with pytest.raises(ConfigError) as info:
                        props.typed(name)
                    assert info.value.code == ErrorCode.E_CRASH
                assert expected is None and name not in props.__dict__
                continue
            assert_json_equal(getattr(props, name), expected, name)
            assert_json_equal(props.typed(name), expected, name)
            assert name in dir(props)
            if key.kind == "enum":
                assert expected in key.values[profile], f"{name}: the default is an allowed value"
            else:
                assert key.values[profile] == (), f"{name}: values only for enums"
            assert isinstance(expected, bool) == (name in pathconfig.BOOL_KEYS)


def documents(profile: str) -> Iterator[tuple]:  # type: ignore[type-arg]
    """(key, value) for every value a typed key can be given: each allowed
    value of an enum, the other boolean, a string."""
    for name, key in pathconfig.TYPED_KEYS.items():
        if key.kind == "enum":
            for value in key.values[profile]:
                yield name, value
        elif key.kind == "bool":
            yield name, not key.defaults[profile]
        else:
            yield name, "some text"


@pytest.mark.parametrize("profile", pathconfig.PROFILES)
def test_every_typed_value_reads_back(profile: str) -> None:
    for name, value in documents(profile):
        doc = json.dumps({"rules": [{"patterns": [".*"], "properties": {name: value}}]})
        with PathConfiguration.from_json(doc, profile=profile) as cfg:
            props = cfg.properties("/x")
            assert_json_equal(getattr(props, name), value, f"{profile} {name}")
            assert_json_equal(props.typed(name), value, f"{profile} {name}")
            stored = str(value).lower() if isinstance(value, bool) and profile == "turbo-android" else value
            assert_json_equal(props[name], stored, f"{profile} {name} (raw)")


def test_unknown_attribute_and_key() -> None:
    with PathConfiguration.from_json(RULES) as cfg:
        props = cfg.properties("/x")
        with pytest.raises(AttributeError, match="colour"):
            props.colour  # noqa: B018
        with pytest.raises(ConfigError) as info:
            props.typed("colour")
        assert info.value.code == ErrorCode.E_ARGUMENT
        for name in pathconfig.TYPED_KEYS:
            assert name in info.value.message, "the library's message lists the keys"


def test_every_warning_kind_reaches_python() -> None:
    doc = '{"settings": [1],\n "rules": [{"patterns": ["([", "^/a"], "methods": ["GET"], "properties": {"k": 1, "k": 2}}]}'
    with PathConfiguration.from_json(doc, lenient=True) as cfg:
        warnings = cfg.warnings
        kinds: List[str] = [w.kind for w in warnings]
        assert sorted(kinds) == sorted(library_warning_kinds()), "the document makes one of each kind the library has"
        # One ConfigWarning per pathconfig_warning_get, each field copied.
        assert len(warnings) == _ffi.lib.pathconfig_warning_count(cfg._ptr) == 4
        first = _ffi.WarningStruct(version=_ffi.WARNING_VERSION)
        _ffi.lib.pathconfig_warning_get(cfg._ptr, 0, first)
        assert dataclasses.asdict(warnings[0]) == {
            "kind": _ffi.lib.pathconfig_warning_kind_name(first.kind), "message": first.message.decode(),
            "line": first.line, "column": first.column,
            "rule_index": first.rule_index if first.rule_index >= 0 else None,
            "pattern_index": first.pattern_index if first.pattern_index >= 0 else None}
        assert [str(w) for w in warnings] == [f"{w.line}:{w.column}: {w.message}" for w in warnings]
        assert all(isinstance(w, pathconfig.ConfigWarning) for w in warnings)
    with PathConfiguration.from_json('{"rules": []}') as cfg:
        assert cfg.warnings == []
