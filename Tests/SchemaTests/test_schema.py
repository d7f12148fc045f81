"""docs/path-configuration.schema.json checked by a real validator (`make test-schema`).

jsonschema (from PyPI, pinned in requirements.txt) reads the committed
schema as draft 2020-12 and checks it against every example configuration,
every fixture of Tests/Fixtures/conformance and the documents of
expectations.json. The Swift suites check the other half: that the file is
what `pathconfig schema` prints (SchemaCommandTests) and that
expectations.json says truly which profiles load each document
(ConfigurationSchemaTests).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set, Tuple

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "docs" / "path-configuration.schema.json"
CONFORMANCE = Path(os.environ.get("PATHCONFIG_CONFORMANCE", ROOT / "Tests" / "Fixtures" / "conformance"))
EXPECTATIONS = json.loads((Path(__file__).resolve().parent / "expectations.json").read_text(encoding="utf-8"))

# The names fixed for the repository (the shared names of issue 30).
SCHEMA_ID = "https://raw.githubusercontent.com/libpathconfig/libpathconfig/main/docs/path-configuration.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

ErrorPath = Tuple[Any, ...]


@pytest.fixture(scope="module")
def schema() -> Dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema: Dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def error_paths(validator: Draft202012Validator, document: Any) -> Set[ErrorPath]:
    """Where each error the validator finds is, as a tuple of keys and indices."""
    return {tuple(error.absolute_path) for error in validator.iter_errors(document)}


def conformance_fixtures() -> Iterator[Tuple[str, str, Any]]:
    """(file, name, document) for every fixture of the conformance files that have them."""
    for file in sorted(CONFORMANCE.glob("*.json")):
        for name, document in json.loads(file.read_text(encoding="utf-8")).get("fixtures", {}).items():
            yield file.name, name, document


def example_configurations() -> List[Path]:
    """examples/**/*.json that are path configurations (a cases file is not one)."""
    return sorted(p for p in (ROOT / "examples").rglob("*.json") if not p.name.endswith(".cases.json"))


def document_of(entry: Dict[str, Any]) -> Any:
    if "document" in entry:
        return entry["document"]
    file, name = entry["conformance"]
    return json.loads((CONFORMANCE / file).read_text(encoding="utf-8"))["fixtures"][name]


REJECTED_FIXTURES = {tuple(e["conformance"]) for e in EXPECTATIONS["rejected"] if "conformance" in e}


def test_the_schema_is_a_valid_draft_2020_12_schema_with_the_repository_names(schema: Dict[str, Any]) -> None:
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == DRAFT
    assert schema["$id"] == SCHEMA_ID
    assert SCHEMA_PATH.read_bytes().endswith(b"}\n")


def test_no_pattern_is_checked_as_an_ecma_regex(schema: Dict[str, Any]) -> None:
    # Patterns are ICU or Java expressions: "format": "regex" would judge them as ECMA-262.
    assert '"format"' not in SCHEMA_PATH.read_text(encoding="utf-8")
    patterns = schema["$defs"]["rule"]["properties"]["patterns"]
    assert (patterns["type"], patterns["items"]) == ("array", {"type": "string"})


def test_the_conformance_files_have_fixtures() -> None:
    names = {(file, name) for file, name, _ in conformance_fixtures()}
    assert len(names) >= 30, f"too few fixtures in {CONFORMANCE}: {sorted(names)}"
    assert REJECTED_FIXTURES <= names, f"expectations.json names fixtures that do not exist: {sorted(REJECTED_FIXTURES - names)}"


@pytest.mark.parametrize("file,name,document", [pytest.param(*f, id=f"{f[0]}:{f[1]}") for f in conformance_fixtures()])
def test_every_conformance_fixture_passes_but_those_rejected_on_purpose(
        validator: Draft202012Validator, file: str, name: str, document: Any) -> None:
    if (file, name) in REJECTED_FIXTURES:
        assert error_paths(validator, document), f"{file}:{name} is listed as rejected but passes"
    else:
        assert error_paths(validator, document) == set()


def test_the_examples_are_found() -> None:
    names = {p.name for p in example_configurations()}
    assert {"path-configuration.json", "path-configuration.next.json", "api-configuration.json", "broken.json"} <= names


@pytest.mark.parametrize("path", example_configurations(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_configuration_passes(validator: Draft202012Validator, path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert "rules" in document, f"{path} is not a path configuration"
    assert error_paths(validator, document) == set()


@pytest.mark.parametrize("entry", EXPECTATIONS["rejected"], ids=lambda e: e["name"])
def test_each_broken_document_fails_where_expected(validator: Draft202012Validator, entry: Dict[str, Any]) -> None:
    expected = {tuple(path) for path in entry["errors"]}
    assert error_paths(validator, document_of(entry)) == expected


@pytest.mark.parametrize("entry", EXPECTATIONS["accepted"], ids=lambda e: e["name"])
def test_each_accepted_document_passes(validator: Draft202012Validator, entry: Dict[str, Any]) -> None:
    assert error_paths(validator, entry["document"]) == set()


@pytest.mark.parametrize("entry", EXPECTATIONS["accepted_not_loading"], ids=lambda e: e.get("example") or ":".join(e["conformance"]))
def test_the_documents_accepted_though_no_app_loads_them_pass(validator: Draft202012Validator, entry: Dict[str, Any]) -> None:
    document = json.loads((ROOT / entry["example"]).read_text(encoding="utf-8")) if "example" in entry else document_of(entry)
    assert error_paths(validator, document) == set()


def test_a_document_naming_the_schema_by_its_id_passes(validator: Draft202012Validator) -> None:
    document = json.loads((ROOT / "examples" / "path-configuration.json").read_text(encoding="utf-8"))
    assert error_paths(validator, {"$schema": SCHEMA_ID, **document}) == set()


@pytest.mark.parametrize("key,value,passes", [
    ("presentation", "replace_root", True),
    ("presentation", "Replace_Root", False),
    ("context", "modal", True),
    ("modal_style", "form_sheet", True),
    ("query_string_presentation", "push", False),
    ("animated", False, True),
    ("animated", 0, False),
    ("view_controller", "message", True),
    ("view_controller", ["message"], False),
    ("uri", "hotwire://fragment/web", True),
    ("historical_location", "true", False),
    ("flow", 42, True),
])
def test_typed_values(validator: Draft202012Validator, key: str, value: Any, passes: bool) -> None:
    document = {"rules": [{"patterns": ["/a"], "properties": {key: value}}]}
    expected = set() if passes else {("rules", 0, "properties", key)}
    assert error_paths(validator, document) == expected


@pytest.mark.parametrize("method,passes", [("GET", True), ("get", True), ("M-SEARCH", True), ("X_CUSTOM.1~", True),
                                           ("", False), ("GET ", False), ("GÉT", False), ("A" * 64, True), ("A" * 65, False)])
def test_methods_are_http_tokens(validator: Draft202012Validator, method: str, passes: bool) -> None:
    document = {"rules": [{"globs": ["/a"], "methods": [method], "properties": {}}]}
    expected = set() if passes else {("rules", 0, "methods", 0)}
    assert error_paths(validator, document) == expected
