"""Typing: the package passes ``mypy --strict``, a host using the typed
accessors type-checks with the types it needs, the mistakes a user makes
are type errors, and the accessors declared for type checkers are exactly
the library's typed keys.

mypy comes from PyPI (tests/requirements.txt): `make test` installs it into
bindings/python/.venv and names that interpreter in PATHCONFIG_MYPY_PYTHON.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest
from conftest import PACKAGE, TESTS

import pathconfig
from pathconfig import PathConfiguration, Properties, _ffi, _result

TYPING = TESTS / "typecheck"


def mypy(tmp_path: Path, *targets: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    """``mypy --strict`` on ``targets`` (relative to bindings/python), the
    package found in src/."""
    python = os.environ.get("PATHCONFIG_MYPY_PYTHON") or sys.executable
    found = subprocess.run([python, "-c", "import mypy"], capture_output=True)
    if found.returncode != 0:
        pytest.fail(f"{python} cannot import mypy: run the suite with `make -C bindings/python test` (it installs "
                    "tests/requirements.txt into bindings/python/.venv), or set PATHCONFIG_MYPY_PYTHON to a Python "
                    "that has mypy", pytrace=False)
    env = dict(os.environ, MYPYPATH=str(PACKAGE / "src"))
    return subprocess.run(
        [python, "-m", "mypy", "--strict", "--no-error-summary", "--show-error-codes", "--hide-error-context",
         "--cache-dir", str(tmp_path / "mypy-cache"), *targets],
        capture_output=True, text=True, cwd=PACKAGE, env=env, timeout=600,
    )


def test_the_package_passes_mypy_strict(tmp_path: Path) -> None:
    run = mypy(tmp_path, "-p", "pathconfig")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == ""


def test_a_typed_host_passes_mypy_strict(tmp_path: Path) -> None:
    run = mypy(tmp_path, str(TYPING / "typed_host.py"))
    assert run.returncode == 0, run.stdout + run.stderr


def test_mistakes_are_type_errors(tmp_path: Path) -> None:
    """Each line of typecheck/misspelt.py marked ``# E: TEXT`` gets an error
    containing TEXT, and no other line gets one."""
    source = (TYPING / "misspelt.py").read_text(encoding="utf-8").splitlines()
    expected: Dict[int, str] = {n: line.split("# E: ", 1)[1] for n, line in enumerate(source, 1) if "# E: " in line}
    assert len(expected) >= 8
    run = mypy(tmp_path, str(TYPING / "misspelt.py"))
    assert run.returncode == 1, run.stdout + run.stderr
    found: Dict[int, List[str]] = {}
    for line in run.stdout.splitlines():
        m = re.match(r".*misspelt\.py:(\d+): error: (.*)", line)
        assert m, f"an error elsewhere: {line}"
        found.setdefault(int(m.group(1)), []).append(m.group(2))
    assert set(found) == set(expected), run.stdout
    for n, text in expected.items():
        assert any(text in error for error in found[n]), (n, text, found[n])


# --- the declared accessors and the catalog ------------------------------------------------

def catalog() -> List[str]:
    """The library's typed keys, in its order (pathconfig_typed_key_count/_name)."""
    lib = _ffi.lib
    return [lib.pathconfig_typed_key_name(i) for i in range(lib.pathconfig_typed_key_count())]


def declared(name: str) -> object:
    """T of ``Properties.<name>: TypedAccessor[T]``, as type checkers read it."""
    hint = typing.get_type_hints(Properties)[name]
    assert typing.get_origin(hint) is _result.TypedAccessor, name
    (t,) = typing.get_args(hint)
    return t


def test_the_accessors_are_exactly_the_catalogs_typed_keys() -> None:
    names = catalog()
    assert len(_result.ACCESSORS) == len(set(_result.ACCESSORS)) == len(names)
    assert set(_result.ACCESSORS) == set(names)
    for name in names:
        assert isinstance(vars(Properties)[name], _result.TypedAccessor), name


def test_each_accessor_is_declared_with_its_kind_and_values() -> None:
    """bool for the catalog's bool keys, Optional[str] for its string keys,
    and for an enum key a Literal of exactly the values it allows under some
    profile (pathconfig_typed_key_value)."""
    lib = _ffi.lib
    kinds = {1: "string", 2: "bool", 3: "enum"}
    for i, name in enumerate(catalog()):
        kind = kinds.get(lib.pathconfig_typed_key_kind(i))
        t = declared(name)
        if kind == "bool":
            assert t is bool, name
        elif kind == "string":
            assert t == Optional[str], name
        elif kind == "enum":
            values: Set[str] = set()
            for profile in pathconfig.PROFILES:
                arg = profile.encode()
                values |= {lib.pathconfig_typed_key_value(i, arg, j)
                           for j in range(lib.pathconfig_typed_key_value_count(i, arg))}
            assert typing.get_origin(t) is typing.Literal, name
            assert set(typing.get_args(t)) == values, name
        else:
            pytest.fail(f"{name}: kind {lib.pathconfig_typed_key_kind(i)} is new to the binding: declare it")


@pytest.mark.parametrize("profile", pathconfig.PROFILES)
def test_every_typed_value_has_its_declared_type(profile: str) -> None:
    """At run time too: every default and every value a key allows reads
    back as a value of the accessor's declared type."""
    def fits(value: object, t: object) -> bool:
        if t is bool:
            return type(value) is bool
        if t == Optional[str]:
            return value is None or type(value) is str
        return type(value) is str and value in typing.get_args(t)

    docs: List[Dict[str, object]] = [{}] + [{name: value} for name, key in pathconfig.TYPED_KEYS.items() for value in key.values[profile]]
    for properties in docs:
        doc = json.dumps({"rules": [{"patterns": [".*"], "properties": properties}]})
        with PathConfiguration.from_json(doc, profile=profile) as cfg:
            props = cfg.properties("/x")
            for name in _result.ACCESSORS:
                try:
                    value = getattr(props, name)
                except pathconfig.ConfigError as crash:
                    # No value to type: turbo-android reads a missing uri with
                    # Uri.parse(null), and the app crashes (E_CRASH).
                    assert crash.code == pathconfig.ErrorCode.E_CRASH, crash
                    assert (profile, name) == ("turbo-android", "uri") and name not in properties, crash
                    continue
                assert fits(value, declared(name)), (profile, properties, name)
