"""Shared set-up: which library and conformance data the suite runs against.

- The library is $PATHCONFIG_LIBRARY (the Makefile sets it from LIBDIR); when
  unset, the clone's out/lib/libpathconfig.so if `make lib` made it.
- The conformance cases are $PATHCONFIG_CONFORMANCE, else Tests/Fixtures/conformance
  next to the clone. A missing file fails the suite (never skips).
- `pathconfig` is imported from src/ (pytest's pythonpath), not from any
  installed copy.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Optional

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent  # bindings/python
REPO = PACKAGE.parent.parent
CONFORMANCE = Path(os.environ.get("PATHCONFIG_CONFORMANCE") or REPO / "Tests" / "Fixtures" / "conformance")

if not os.environ.get("PATHCONFIG_LIBRARY"):
    _built = REPO / "out" / "lib" / "libpathconfig.so"
    if _built.is_file():
        os.environ["PATHCONFIG_LIBRARY"] = str(_built)


def load_conformance(name: str) -> Optional[Any]:
    """The parsed conformance file, or None when it is missing (the tests
    that use it then fail with `conformance_missing`)."""
    path = CONFORMANCE / name
    if not path.is_file():
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def conformance_missing(name: str) -> None:
    pytest.fail(
        f"conformance file {CONFORMANCE / name} not found: the cases live in Tests/Fixtures/conformance "
        "next to the clone; set PATHCONFIG_CONFORMANCE=/path/to/conformance to point elsewhere",
        pytrace=False,
    )


def assert_json_equal(actual: Any, expected: Any, where: str = "$") -> None:
    """Equality that also compares JSON types (in Python True == 1 == 1.0)."""
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        assert type(actual) is type(expected) and actual == expected, f"{where}: {actual!r} != {expected!r}"
    elif isinstance(expected, int):
        assert type(actual) is int and actual == expected, f"{where}: {actual!r} != {expected!r}"
    elif isinstance(expected, float):
        assert type(actual) is float and actual == expected, f"{where}: {actual!r} != {expected!r}"
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_json_equal(a, e, f"{where}[{i}]")
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        assert set(actual) == set(expected), f"{where}: keys {list(actual)} != {list(expected)}"
        for key in expected:
            assert_json_equal(actual[key], expected[key], f"{where}.{key}")
    else:  # pragma: no cover
        raise AssertionError(f"{where}: unexpected expected value {expected!r}")


SAMPLE = """{
  "settings": {"tabs": [{"title": "Messages", "path": "/messages"}], "flags": {"new_composer": true}},
  "rules": [
    {"description": "every page", "patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
    {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "pull_to_refresh_enabled": false}},
    {"patterns": ["^/messages/\\\\d+$"], "properties": {"view_controller": "message", "title": "Message", "count": 3, "ratio": 0.5, "nothing": null, "tags": ["a", 1, true], "nested": {"k": {"v": [null]}}}}
  ]
}"""


@pytest.fixture
def sample_json() -> str:
    return SAMPLE


@pytest.fixture
def sample(sample_json: str):  # type: ignore[no-untyped-def]
    import pathconfig

    cfg = pathconfig.PathConfiguration.from_json(sample_json)
    yield cfg
    cfg.close()
