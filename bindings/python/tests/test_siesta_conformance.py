"""The cases of Tests/Fixtures/conformance/siesta.json about choosing and merging
configuration, through the binding, mapped onto rules as
Tests/PathConfigurationTests/Siesta/SiestaConformanceTests.swift maps them:

- glob cases: a rule ``{"globs": [pattern]}`` under the siesta profile, with
  ``base_url`` the case's ``baseURL`` (none when null), from the document and
  from code; regex cases: ``{"patterns": [...]}`` (``(?i)`` first when
  ``regex_options`` has ``caseInsensitive``); resource cases: a predicate
  ``url == pattern``; predicate cases: a predicate ``url`` ends with ``foo``.
- ordering cases with plain values: Siesta's defaults first (a rule with a
  predicate that is always true), then each entry as a rule from code, merged
  deep, resolved for the case's URL and method.
- the invalidate cases (``steps``): a configurer reading a host variable.
The other ordering cases pin Siesta's request pipeline, not rule selection.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional

import pytest
from conftest import assert_json_equal, conformance_missing, load_conformance

from pathconfig import PathConfiguration, Request

SIESTA = load_conformance("siesta.json")
HIT = {"hit": True}
#: Siesta's Configuration() defaults.
DEFAULTS = {"expirationTime": 30, "retryTime": 1, "headers": {}}
PLAIN = {"expirationTime", "retryTime", "headers"}


def cases(key: str, keep: Callable[[Dict[str, Any]], bool] = lambda c: True) -> List[Any]:
    if SIESTA is None:
        return [pytest.param(None, id="siesta-missing")]
    return [pytest.param(c, id=f"{i}-{c['source'].rsplit('/', 1)[-1]}-{c['url']}")
            for i, c in enumerate(SIESTA[key]) if keep(c)]


def is_value_case(c: Dict[str, Any]) -> bool:
    """An ordering case whose entries set plain values (no pipeline, no host variable)."""
    return "steps" not in c and all(
        (e.get("methods") is None or isinstance(e["methods"], list))
        and set(e["sets"]) <= PLAIN
        and not any(isinstance(v, str) for v in e["sets"].values())
        for e in c["entries"]
    )


def test_case_counts() -> None:
    if SIESTA is None:
        conformance_missing("siesta.json")
    assert len(SIESTA["pattern_cases"]) == 97
    assert len(SIESTA["ordering_cases"]) == 33
    assert len([c for c in SIESTA["ordering_cases"] if is_value_case(c)]) == 17
    assert len([c for c in SIESTA["ordering_cases"] if "steps" in c]) == 2


# --- pattern cases ---------------------------------------------------------------------


def siesta(base_url: Optional[str], rules: Optional[List[Dict[str, Any]]] = None, **options: Any) -> PathConfiguration:
    return PathConfiguration.from_json(json.dumps({"rules": rules or []}), profile="siesta", base_url=base_url, **options)


def url_predicate(c: Dict[str, Any]) -> Callable[[Request], bool]:
    pattern = c.get("pattern")
    if c["pattern_kind"] == "resource":
        return lambda request: request.url == pattern
    return lambda request: request.url.endswith("foo")


@pytest.mark.parametrize("case", cases("pattern_cases"))
def test_pattern_case(case: Optional[Dict[str, Any]]) -> None:
    if case is None:
        conformance_missing("siesta.json")
    kind, pattern, url = case["pattern_kind"], case["pattern"], case["url"]
    configs = []
    if kind == "glob":
        configs.append(("document", siesta(case["baseURL"], [{"globs": [pattern], "properties": HIT}])))
        from_code = siesta(case["baseURL"])
        from_code.add_rule(globs=[pattern], properties=HIT)
        configs.append(("add_rule", from_code))
    elif kind == "regex":
        insensitive = "caseInsensitive" in case.get("regex_options", [])
        regex = ("(?i)" if insensitive else "") + pattern
        configs.append(("document", siesta(case["baseURL"], [{"patterns": [regex], "properties": HIT}])))
    else:
        cfg = siesta(case["baseURL"])
        cfg.add_rule(properties=HIT, predicate=url_predicate(case))
        configs.append(("predicate", cfg))
    for how, cfg in configs:
        with cfg:
            props = cfg.properties(url)
            explained = cfg.explain(url)
            assert (props.get("hit") is True) == case["matches"], f"{how}: {explained}"
            if case["matches"]:
                [rule] = explained["rules"]
                expected_key = {"glob": "glob", "regex": "pattern"}.get(kind, "predicate")
                assert expected_key in rule, rule
                assert rule.get("from_code", False) == (how != "document")


# --- ordering cases --------------------------------------------------------------------


def service(base_url: str) -> PathConfiguration:
    """A configuration as a Siesta Service: deep merge, the defaults first."""
    cfg = siesta(base_url, merge="deep")
    cfg.add_rule(description="Siesta defaults", properties=DEFAULTS, predicate=lambda request: True)
    return cfg


def add_entry(cfg: PathConfiguration, entry: Dict[str, Any], **callables: Any) -> int:
    """One ``configure(...)`` entry as a rule from code."""
    kind, pattern, methods = entry["pattern_kind"], entry.get("pattern"), entry.get("methods")
    properties = entry["sets"] if not callables else None
    if kind == "global":
        return cfg.add_rule(globs=["**"], methods=methods, properties=properties, description=entry.get("description"), **callables)
    if kind == "glob":
        return cfg.add_rule(globs=[pattern], methods=methods, properties=properties, **callables)
    return cfg.add_rule(methods=methods, properties=properties, predicate=url_predicate(entry), **callables)


@pytest.mark.parametrize("case", cases("ordering_cases", is_value_case))
def test_ordering_case_with_plain_values(case: Optional[Dict[str, Any]]) -> None:
    if case is None:
        conformance_missing("siesta.json")
    with service(case["baseURL"]) as cfg:
        for entry in case["entries"]:
            add_entry(cfg, entry)
        props = dict(cfg.properties(case["url"], method=case["method"]))
        for key, expected in case["expected"].items():
            if key == "request_headers_include":
                for name, value in expected.items():
                    assert props["headers"][name] == value, props
            elif key == "loadIfNeeded_at_t+2s_loads":
                # Data (or an error) from t = 1000 is reloaded at t = 1002 when the
                # configured age limit is under 2 s: the entry's value must be in force.
                for entry in case["entries"]:
                    for name, value in entry["sets"].items():
                        assert_json_equal(props[name], value, name)
                        assert (value < 2) == expected
            else:
                assert_json_equal(props[key], expected, key)


def test_a_rule_added_later_drops_memoised_results() -> None:
    """ServiceSpec 'changes when service config added': one configuration, three steps."""
    with service("https://zingle.frotz") as cfg:
        assert cfg.properties("https://zingle.frotz/foo")["expirationTime"] == 30
        cfg.add_rule(globs=["**"], properties={"expirationTime": 17})
        assert cfg.properties("https://zingle.frotz/foo")["expirationTime"] == 17
        cfg.add_rule(globs=["*oo"], properties={"expirationTime": 16})
        assert cfg.properties("https://zingle.frotz/foo")["expirationTime"] == 16
        assert cfg.properties("https://zingle.frotz/bar")["expirationTime"] == 17


def step_cases() -> List[Any]:
    return cases("ordering_cases", lambda c: "steps" in c)


@pytest.mark.parametrize("case", step_cases())
def test_invalidate_case(case: Optional[Dict[str, Any]]) -> None:
    """A configurer reads a host variable; its new value shows only after
    invalidate (ServiceSpec 'changes when invalidateConfiguration() called',
    RequestSpec 'repeated() picks up header config changes')."""
    if case is None:
        conformance_missing("siesta.json")
    [entry] = case["entries"]
    [(key, value)] = entry["sets"].items()
    host: Dict[str, Any] = {}

    def configurer(request: Request, props: Dict[str, Any]) -> None:
        if key == "headers":  # {"X-Flavor": "$flavor"}: a header from the variable, when set
            [(header, _)] = value.items()
            if host.get("value") is not None:
                props["headers"][header] = host["value"]
        else:  # "$x": the value itself
            props[key] = host["value"]

    with service(case["baseURL"]) as cfg:
        add_entry(cfg, entry, configurer=configurer)

        def read() -> Dict[str, Any]:
            return dict(cfg.properties(case["url"], method=case["method"]))

        if key == "headers":
            # flavor=nil; originalRequest(); flavor=...; invalidate; repeated()
            [(header, expected)] = case["expected"]["repeated_request_header"].items()
            assert header not in read()["headers"]
            host["value"] = expected
            assert header not in read()["headers"], "memoised until invalidate"
            cfg.invalidate()
            assert read()["headers"][header] == expected
        else:
            for step in case["steps"]:
                action = step["do"]
                if action.startswith("set "):
                    host["value"] = int(action.split("=")[1])
                elif action == "read":
                    assert_json_equal(read()[key], step["expect"][key], step.get("why", key))
                elif action == "invalidateConfiguration()":
                    cfg.invalidate()
                else:  # pragma: no cover
                    pytest.fail(f"unknown step {action!r}")
            assert_json_equal(read()[key], case["expected"][key])


def test_configuration_is_computed_only_when_a_lookup_needs_it() -> None:
    """ServiceSpec 'is not computed when traversing resources but not using them'."""
    calls: List[Request] = []
    with service("https://zingle.frotz") as cfg:
        cfg.add_rule(globs=["**"], configurer=lambda request, props: calls.append(request))
        # resource("/bar").withParam("x", "y"): the query needs the absolute URL
        # (a relative input's "?" is part of its path, as in resource(_:)).
        assert cfg.matched_string("https://zingle.frotz/bar?x=y") == "https://zingle.frotz/bar?x=y"
        assert cfg.matched_string("/bar?x=y") == "https://zingle.frotz/bar%3Fx=y"
        assert calls == []
        cfg.properties("https://zingle.frotz/bar?x=y")
        assert calls == [Request(url="https://zingle.frotz/bar?x=y", method="GET")]
