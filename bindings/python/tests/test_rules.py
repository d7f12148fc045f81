"""Request rules through the binding: methods, rules added from code with
Python predicates and configurers, invalidate, and what happens to their
exceptions and to the callables themselves."""

from __future__ import annotations

import gc
import json
import math
import threading
import weakref
from typing import Any, Dict, List

import pytest

import pathconfig
from pathconfig import CallbackError, ClosedError, ConfigError, ErrorCode, PathConfiguration, Request
from pathconfig import _callbacks

API = "https://api.example.com"
TOKEN_HEADER = "X-HappyApp-Auth-Token"
DOC = json.dumps({"rules": [
    {"globs": ["**"], "description": "JSON", "properties": {"headers": {"Accept": "application/json"}, "expirationTime": 30}},
    {"globs": ["/users/*"], "methods": ["POST", "PUT"], "properties": {"headers": {"Content-Type": "application/json"}}},
]})


def api(merge: str = "deep", doc: str = DOC) -> PathConfiguration:
    return PathConfiguration.from_json(doc, profile="siesta", base_url=API, merge=merge)


class Counter:
    """A predicate that counts its calls and answers ``answer``."""

    def __init__(self, answer: bool = True) -> None:
        self.calls: List[Request] = []
        self.answer = answer

    def __call__(self, request: Request) -> bool:
        self.calls.append(request)
        return self.answer


# --- options and methods -----------------------------------------------------------


def test_base_url_and_merge_options() -> None:
    with api("shallow") as shallow, api("deep") as deep:
        assert shallow.properties("/users/1", method="POST")["headers"] == {"Content-Type": "application/json"}
        assert deep.properties("/users/1", method="POST")["headers"] == {"Accept": "application/json",
                                                                         "Content-Type": "application/json"}
    for options, message in (({"base_url": "ftp//x"}, "base_url"), ({"merge": "sideways"}, "merge")):
        with pytest.raises(ConfigError) as info:
            PathConfiguration.from_json(DOC, **options)
        assert info.value.code == ErrorCode.E_OPTIONS and message in info.value.message
    with pytest.raises(TypeError, match="base_url must be str"):
        PathConfiguration.from_json(DOC, base_url=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="merge must be str"):
        PathConfiguration.from_json(DOC, merge=True)  # type: ignore[arg-type]


def test_relative_inputs_resolve_as_siesta_resource() -> None:
    """A relative input's ``?`` is part of its path, encoded as Siesta's
    ``resource(_:)`` encodes it; the absolute URL carries a query; a base
    URL's host beyond ASCII is IDNA-encoded (issue 27, items 4 and 6)."""
    doc = json.dumps({"rules": [{"globs": ["/items"], "properties": {"m": True}}]})
    with PathConfiguration.from_json(doc, profile="siesta", base_url=API) as cfg:
        assert cfg.properties_json("/items?x=1") == "{}"
        assert cfg.explain("/items?x=1")["url"] == API + "/items%3Fx=1"
        assert cfg.properties_json(API + "/items?x=1") == '{"m":true}'
    with PathConfiguration.from_json(doc, profile="siesta", base_url="https://bücher.de") as cfg:
        assert cfg.properties_json("https://xn--bcher-kva.de/items") == '{"m":true}'
        assert cfg.explain("/items")["url"] == "https://xn--bcher-kva.de/items"


def test_method_filters() -> None:
    with api() as cfg:
        for method, typed in ((None, False), ("GET", False), ("post", True), ("PUT", True), ("PATCH", False)):
            props = cfg.properties("/users/1", method=method)
            assert ("Content-Type" in props["headers"]) == typed, method
            assert json.loads(cfg.properties_json("/users/1", method=method)) == props
            assert cfg.explain("/users/1", method=method)["method"] == (method or "GET").upper()
        index = cfg.add_rule(globs=["**"], methods=["DELETE"], properties={"confirm": True})
        assert "confirm" not in cfg.properties("/users/1")
        assert cfg.properties("/users/1", method="delete")["confirm"] is True
        assert [r["index"] for r in cfg.explain("/users/1", method="DELETE")["rules"]] == [0, index]
        with pytest.raises(ConfigError) as info:
            cfg.properties("/users/1", method="GET POST")
        assert info.value.code == ErrorCode.E_ARGUMENT and "not an HTTP method" in info.value.message
        with pytest.raises(TypeError, match="method must be str"):
            cfg.properties("/users/1", method=b"GET")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="NUL"):
            cfg.explain("/users/1", method="GET\0")


# --- rules added from code ----------------------------------------------------------


def test_add_rule_returns_its_index_and_explain_reports_it() -> None:
    doc = '{"rules": [{"patterns": ["/a"], "properties": {"k": 1}}]}'
    with PathConfiguration.from_json(doc) as cfg:  # hotwire-ios: three built-ins after the document's rule
        predicate = Counter()
        first = cfg.add_rule(patterns=["/a$"], properties={"k": 2}, description="from code")
        second = cfg.add_rule(predicate=predicate, configurer=lambda request, props: None, properties={"j": 3})
        builtins = 3
        assert (first, second) == (cfg.document_rule_count + builtins, cfg.document_rule_count + builtins + 1)
        assert cfg.properties("/a") == {"k": 2, "j": 3}
        rules = cfg.explain("/a")["rules"]
        assert rules[1] == {"index": first, "pattern": "/a$", "pattern_index": 0, "description": "from code", "from_code": True}
        assert rules[2] == {"index": second, "predicate": True, "from_code": True, "configurer": True}


def test_predicate_and_configurer_receive_the_request() -> None:
    seen: List[Any] = []
    with api() as cfg:
        cfg.add_rule(globs=["/users/**"], predicate=lambda r: seen.append(("predicate", r)) or True,
                     configurer=lambda r, props: seen.append(("configurer", r, dict(props))))
        cfg.properties(f"{API}/users/1?x=1", method="patch")
        request = Request(url=f"{API}/users/1?x=1", method="PATCH")
        assert seen == [("predicate", request),
                        ("configurer", request, {"headers": {"Accept": "application/json"}, "expirationTime": 30})]
        assert str(request) == "PATCH https://api.example.com/users/1?x=1"
        seen.clear()
        cfg.properties("https://api.example.com/users/2")
        assert seen[0] == ("predicate", Request(url=f"{API}/users/2", method="GET"))


def test_a_predicate_refines_globs_and_patterns() -> None:
    with api() as cfg:
        cfg.add_rule(globs=["/users/*"], predicate=lambda r: r.url.endswith("/7"), properties={"seven": True})
        assert "seven" in cfg.properties("/users/7") and "seven" not in cfg.properties("/users/8")
        assert "seven" not in cfg.properties("/teams/7")


def test_a_configurer_changes_the_dict_or_returns_a_new_one() -> None:
    with api() as cfg:
        cfg.add_rule(globs=["/a"], configurer=lambda r, props: props.update(added=1))
        cfg.add_rule(globs=["/b"], configurer=lambda r, props: {"replaced": r.method})
        cfg.add_rule(globs=["/c"], properties={"expirationTime": None, "fixed": 1},
                     configurer=lambda r, props: props.update(seen=sorted(props)))
        assert cfg.properties("/a") == {"headers": {"Accept": "application/json"}, "expirationTime": 30, "added": 1}
        assert cfg.properties("/b", method="PUT") == {"replaced": "PUT"}
        # the configurer sees its rule's fixed properties merged (deep: null removed a key)
        assert cfg.properties("/c")["seen"] == ["fixed", "headers"]


def test_add_rule_errors() -> None:
    with api() as cfg:
        with pytest.raises(ConfigError) as info:
            cfg.add_rule(properties={"k": 1})
        assert info.value.code == ErrorCode.E_SCHEMA and "patterns, globs or a predicate" in info.value.message
        with pytest.raises(ConfigError) as info:
            cfg.add_rule(patterns=["(["])
        assert info.value.code == ErrorCode.E_REGEX and info.value.pattern_index == 0
        with pytest.raises(ConfigError) as info:
            cfg.add_rule(globs=["**"], methods=["GET POST"])
        assert info.value.code == ErrorCode.E_SCHEMA and "not an HTTP method" in info.value.message
        for kwargs, message in (
            ({"globs": "**"}, "globs must be a sequence of str"),
            ({"patterns": [1]}, "patterns must hold str"),
            ({"methods": "GET"}, "methods must be a sequence of str"),
            ({"globs": ["**"], "properties": [("k", 1)]}, "properties must be a mapping"),
            ({"globs": ["**"], "description": 1}, "description must be str"),
            ({"globs": ["**"], "predicate": 1}, "predicate must be callable"),
            ({"globs": ["**"], "configurer": "f"}, "configurer must be callable"),
        ):
            with pytest.raises(TypeError, match=message):
                cfg.add_rule(**kwargs)
        with pytest.raises(ValueError):
            cfg.add_rule(globs=["**"], properties={"x": math.nan})
        assert cfg.properties("/x") == {"headers": {"Accept": "application/json"}, "expirationTime": 30}, "nothing added"
    with pytest.raises(ClosedError):
        cfg.add_rule(globs=["**"])
    with pytest.raises(ClosedError):
        cfg.invalidate()


# --- the auth-token example -----------------------------------------------------------


def test_auth_token_end_to_end() -> None:
    token = {"value": "t1"}
    calls: List[Request] = []

    def add_token(request: Request, props: Dict[str, Any]) -> None:
        calls.append(request)
        props["headers"][TOKEN_HEADER] = token["value"]

    with api() as cfg:
        cfg.add_rule(globs=["**"], description="auth token", configurer=add_token)
        props = cfg.properties("/users/1", method="POST")
        assert props["headers"] == {"Accept": "application/json", "Content-Type": "application/json", TOKEN_HEADER: "t1"}
        assert props["expirationTime"] == 30
        assert cfg.properties(f"{API}/users/1")["headers"] == {"Accept": "application/json", TOKEN_HEADER: "t1"}
        for elsewhere in (
            "https://evil.com/users/1",
            "https://api.example.com.evil.com/",
            "https://api.example.com.evil.com/users/1",
            "https://api.example.com@evil.com/",
            "https://api.example.com@evil.com/users/1",
            "http://api.example.com/users/1",
            "https://api.example.com:8443/users/1",
        ):
            assert cfg.properties(elsewhere) == {}, elsewhere
            assert cfg.explain(elsewhere)["rules"] == [], elsewhere

        # Memoised per method and URL: a new token shows only after invalidate.
        before = len(calls)
        token["value"] = "t2"
        assert cfg.properties("/users/1", method="POST")["headers"][TOKEN_HEADER] == "t1"
        assert cfg.properties(f"{API}/users/1")["headers"][TOKEN_HEADER] == "t1"
        assert len(calls) == before, "no configurer ran"
        cfg.invalidate()
        assert cfg.properties("/users/1", method="POST")["headers"][TOKEN_HEADER] == "t2"
        assert cfg.properties(f"{API}/users/1")["headers"][TOKEN_HEADER] == "t2"
        assert len(calls) == before + 2


def test_explain_is_never_memoised() -> None:
    predicate = Counter()
    with api() as cfg:
        cfg.add_rule(predicate=predicate)
        cfg.properties("/p")
        cfg.properties("/p")
        assert len(predicate.calls) == 1
        cfg.explain("/p")
        cfg.explain("/p")
        assert len(predicate.calls) == 3


# --- exceptions from callables ----------------------------------------------------------


class Boom(Exception):
    pass


def test_a_predicate_exception_propagates_unmemoised() -> None:
    raised: List[BaseException] = []
    failing = {"on": True}

    def predicate(request: Request) -> bool:
        if failing["on"]:
            raised.append(Boom(request.url))
            raise raised[-1]
        return True

    with api() as cfg:
        index = cfg.add_rule(predicate=predicate, properties={"ok": True})
        for lookup in (lambda: cfg.properties("/p"), lambda: cfg.properties_json("/p"),
                       lambda: cfg.explain("/p", method="POST"), lambda: cfg.properties("/p", method="POST")):
            with pytest.raises(Boom) as info:
                lookup()
            assert info.value is raised[-1], "the very exception the predicate raised"
            cause = info.value.__cause__
            assert isinstance(cause, CallbackError) and cause.code == ErrorCode.E_CALLBACK
            assert cause.rule_index == index and repr(raised[-1]) in cause.message
        assert len(raised) == 4, "each lookup ran the predicate again: a failure is not memoised"
        failing["on"] = False
        assert cfg.properties("/p")["ok"] is True


def test_a_configurer_exception_propagates_unmemoised() -> None:
    answers: List[Any] = [KeyError("token"), {"ok": 1}]

    def configurer(request: Request, props: Dict[str, Any]) -> Any:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    with api() as cfg:
        cfg.add_rule(globs=["**"], configurer=configurer)
        with pytest.raises(KeyError) as info:
            cfg.properties("/c")
        assert info.value.args == ("token",) and isinstance(info.value.__cause__, CallbackError)
        assert cfg.properties("/c") == {"ok": 1}


@pytest.mark.parametrize("returned, error", [([1], TypeError), ({"x": math.inf}, ValueError), ({"x": {1, 2}}, TypeError)])
def test_a_configurer_result_that_is_not_json_fails_the_lookup(returned: Any, error: type) -> None:
    with api() as cfg:
        cfg.add_rule(globs=["**"], configurer=lambda r, props: returned)
        with pytest.raises(error) as info:
            cfg.properties("/c")
        assert isinstance(info.value.__cause__, CallbackError)


def test_base_exceptions_propagate_too() -> None:
    class Stop(BaseException):
        pass

    with api() as cfg:
        cfg.add_rule(predicate=lambda r: (_ for _ in ()).throw(Stop()))
        with pytest.raises(Stop):
            cfg.properties("/p")


def test_exceptions_stay_on_their_thread() -> None:
    threads = 8
    start = threading.Barrier(threads)
    outcomes: Dict[int, Any] = {}

    def predicate(request: Request) -> bool:
        if "/fail/" in request.url:
            raise Boom(request.url)
        return True

    with api() as cfg:
        cfg.add_rule(predicate=predicate, properties={"ok": True})

        def work(n: int) -> None:
            start.wait()
            got: List[Any] = []
            for i in range(200):
                url = f"/{'fail' if (i + n) % 2 else 'pass'}/{n}/{i}"
                try:
                    got.append(cfg.properties(url)["ok"] is True and not url.startswith("/fail/"))
                except Boom as exc:
                    got.append(exc.args == (f"{API}{url}",))
            outcomes[n] = got

        workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    assert sorted(outcomes) == list(range(threads))
    assert all(all(got) and len(got) == 200 for got in outcomes.values())


# --- calls from inside a callable -------------------------------------------------------


def test_callables_may_use_the_configuration() -> None:
    with api() as cfg:
        def configurer(request: Request, props: Dict[str, Any]) -> None:
            if request.url.endswith("/outer"):
                props["inner"] = dict(cfg.properties("/inner"))
                props["explained"] = len(cfg.explain("/inner")["rules"])
                cfg.invalidate()
                props["added"] = cfg.add_rule(globs=["/never"], properties={})

        cfg.add_rule(globs=["/outer", "/inner"], configurer=configurer)
        props = cfg.properties("/outer")
        assert props["inner"] == {"headers": {"Accept": "application/json"}, "expirationTime": 30}
        assert props["explained"] == 2 and isinstance(props["added"], int)


def test_nested_lookup_failures() -> None:
    with api() as cfg:
        cfg.add_rule(globs=["/inner"], predicate=lambda r: (_ for _ in ()).throw(Boom("inner")))

        def swallow(request: Request, props: Dict[str, Any]) -> None:
            try:
                cfg.properties("/inner")
            except Boom as exc:
                props["swallowed"] = str(exc)

        def propagate(request: Request, props: Dict[str, Any]) -> None:
            cfg.properties("/inner")

        cfg.add_rule(globs=["/swallow"], configurer=swallow)
        cfg.add_rule(globs=["/propagate"], configurer=propagate)
        assert cfg.properties("/swallow")["swallowed"] == "inner", "a caught inner failure leaves nothing behind"
        with pytest.raises(Boom, match="inner") as info:
            cfg.properties("/propagate")
        assert isinstance(info.value.__cause__, CallbackError) and "propagate" not in info.value.__cause__.message
        assert cfg.properties("/elsewhere")["expirationTime"] == 30, "the next lookup is clean"


# --- the callables' lifetime -------------------------------------------------------------


class Configurer:
    def __call__(self, request: Request, props: Dict[str, Any]) -> None:
        props["configured"] = True


def test_callables_live_as_long_as_the_configuration() -> None:
    held = len(_callbacks._held)
    cfg = api()
    predicate, configurer = Counter(), Configurer()
    alive = [weakref.ref(predicate), weakref.ref(configurer)]
    cfg.add_rule(predicate=predicate, configurer=configurer)
    del predicate, configurer
    gc.collect()
    assert all(ref() is not None for ref in alive), "kept while the configuration may call them"
    props = cfg.properties("/x")
    assert props["configured"] is True
    del cfg
    gc.collect()
    assert all(ref() is None for ref in alive), "freed with the configuration"
    assert props["configured"] is True, "a result outlives its configuration"
    assert len(_callbacks._held) == held


def test_close_frees_the_callables_and_a_refused_rule_keeps_none() -> None:
    held = len(_callbacks._held)
    with api() as cfg:
        predicate = Counter()
        alive = weakref.ref(predicate)
        with pytest.raises(ConfigError):
            cfg.add_rule(patterns=["(["], predicate=predicate)
        del predicate
        gc.collect()
        assert alive() is None, "a refused rule's callables are released at once"
        predicate = Counter()
        alive = weakref.ref(predicate)
        cfg.add_rule(predicate=predicate)
        del predicate
        assert len(_callbacks._held) == held + 1
    gc.collect()
    assert alive() is None and len(_callbacks._held) == held


def test_a_configuration_from_a_loader_shares_its_rules() -> None:
    with pathconfig.Loader([pathconfig.DataSource(DOC)], profile="siesta", base_url=API, merge="deep") as loader:
        loader.load()
        first, second = loader.current, loader.current
        assert first is not None and second is not None
        first.add_rule(globs=["**"], properties={"from": "code"})
        assert second.properties("/x")["from"] == "code", "two wrappers of one C configuration"
        assert second.properties("/x")["headers"] == {"Accept": "application/json"}


def test_request_is_exported() -> None:
    assert pathconfig.Request is Request and "Request" in pathconfig.__all__ and "CallbackError" in pathconfig.__all__
    assert Request("u", "GET") == Request(url="u", method="GET")
    with pytest.raises(AttributeError):
        Request("u", "GET").url = "v"  # type: ignore[misc]


def test_host_failure_without_python_exception_is_a_callback_error() -> None:
    """The trampoline's thread-local slot is empty: the library's error is raised as is."""
    from pathconfig import _rules

    with pytest.raises(CallbackError):
        with _rules.host_exceptions():
            raise CallbackError("rule 9: the predicate failed", rule_index=9)
    assert getattr(_rules._failure, "exception", None) is None


# --- typed setters -----------------------------------------------------------------------

HOSTILE = [
    'abc", "X-Admin": "true',
    'abc\\", \\"X-Admin\\": \\"true',
    "abc\n\"X-Admin\": \"true\"\n}",
    "}, {\"X-Admin\": \"true\"}",
    "t\u00e9k\u00f6n \u2603 \U0001F600 \u0000-free",
    "\\u0022, \"X-Admin\": \"true",
    "",
]


@pytest.mark.parametrize("token", HOSTILE)
def test_a_hostile_token_is_one_header_with_exactly_that_value(token: str) -> None:
    """A token set as a header, through the setter or through the dict,
    arrives as exactly one header holding exactly that string: quotes,
    backslashes, newlines, braces and non-ASCII text never make a header
    or a key of their own."""
    token = token.replace("\u0000", "")
    for how in ("setter", "dict", "returned", "merge"):
        def add_token(request: Request, props: Dict[str, Any], how: str = how) -> Any:
            if how == "setter":
                request.set_header(TOKEN_HEADER, token)
            elif how == "dict":
                props["headers"][TOKEN_HEADER] = token
            elif how == "merge":
                request.merge_properties({"headers": {TOKEN_HEADER: token}})
            else:
                return {**props, "headers": {**props["headers"], TOKEN_HEADER: token}}
            return None

        with api() as cfg:
            cfg.add_rule(globs=["**"], configurer=add_token)
            props = cfg.properties("/users/1", method="POST")
            assert props["headers"] == {"Accept": "application/json", "Content-Type": "application/json",
                                        TOKEN_HEADER: token}, how
            assert list(props) == ["headers", "expirationTime"], how
            assert props["headers"][TOKEN_HEADER] == token and "X-Admin" not in props["headers"], how
            assert json.loads(props.json)["headers"][TOKEN_HEADER] == token, how


def test_typed_setters_store_values_of_their_type() -> None:
    def configure(request: Request, props: Dict[str, Any]) -> None:
        request.set_str("s", 'a "quoted" value')
        request.set_int("i", -(2**63))
        request.set_int("big", 2**63 - 1)
        request.set_float("f", 0.5)
        request.set_float("from_int", 3)
        request.set_bool("yes", True)
        request.set_bool("no", False)
        request.set_header("X-One", "1")
        request.set_header("X-Two", "2")
        request.set_str("expirationTime", "soon")  # an existing key keeps its place
        request.remove("gone")
        request.remove("never-there")

    with api() as cfg:
        cfg.add_rule(globs=["**"], properties={"gone": 1}, configurer=configure)
        props = cfg.properties("/x")
        assert list(props) == ["headers", "expirationTime", "s", "i", "big", "f", "from_int", "yes", "no"]
        assert props == {"headers": {"Accept": "application/json", "X-One": "1", "X-Two": "2"},
                         "expirationTime": "soon", "s": 'a "quoted" value', "i": -(2**63), "big": 2**63 - 1,
                         "f": 0.5, "from_int": 3.0, "yes": True, "no": False}
        assert type(props["from_int"]) is float and props.get_int("i") == -(2**63)


def test_set_header_makes_headers_an_object() -> None:
    with api("shallow", json.dumps({"rules": [{"globs": ["**"], "properties": {"headers": "not an object"}}]})) as cfg:
        cfg.add_rule(globs=["**"], configurer=lambda request, props: request.set_header("A", "b"))
        assert cfg.properties("/x") == {"headers": {"A": "b"}}


def test_setters_and_the_dict_and_properties() -> None:
    """request.properties() shows the setters' changes; a dict changed in
    place (or returned) replaces the properties when the configurer returns;
    an unchanged dict leaves the setters' changes alone."""
    seen: List[Any] = []

    def setters_only(request: Request, props: Dict[str, Any]) -> None:
        request.set_int("n", 1)
        seen.append(request.properties()["n"])
        seen.append("n" in props)  # the dict is what the configurer was given

    def dict_wins(request: Request, props: Dict[str, Any]) -> None:
        request.set_int("n", 1)
        props["m"] = 2

    with api() as cfg:
        cfg.add_rule(globs=["/a"], configurer=setters_only)
        cfg.add_rule(globs=["/b"], configurer=dict_wins)
        cfg.add_rule(globs=["/c"], configurer=lambda request, props: request.set_properties({"only": [1, {"x": None}]}))
        assert cfg.properties("/a")["n"] == 1 and seen == [1, False]
        assert cfg.properties("/b") == {"headers": {"Accept": "application/json"}, "expirationTime": 30, "m": 2}
        assert cfg.properties("/c") == {"only": [1, {"x": None}]}


def test_setter_errors() -> None:
    kept: List[Request] = []

    def configure(request: Request, props: Dict[str, Any]) -> None:
        kept.append(request)
        for call, error in (
            (lambda: request.set_int("i", True), TypeError),
            (lambda: request.set_int("i", 1.5), TypeError),
            (lambda: request.set_int("i", 2**63), OverflowError),
            (lambda: request.set_int("i", -(2**63) - 1), OverflowError),
            (lambda: request.set_float("f", "1"), TypeError),
            (lambda: request.set_float("f", True), TypeError),
            (lambda: request.set_bool("b", 1), TypeError),
            (lambda: request.set_str("s", 1), TypeError),
            (lambda: request.set_str("s", "a\0b"), ValueError),
            (lambda: request.set_header("H\0", "v"), ValueError),
            (lambda: request.set_properties([("k", 1)]), TypeError),
            (lambda: request.merge_properties({"x": math.nan}), ValueError),
        ):
            with pytest.raises(error):
                call()
        for value in (math.nan, math.inf):
            with pytest.raises(ConfigError) as info:
                request.set_float("f", value)
            assert info.value.code == ErrorCode.E_ARGUMENT
        props["ok"] = True

    with api() as cfg:
        cfg.add_rule(globs=["**"], configurer=configure)
        assert cfg.properties("/x") == {"headers": {"Accept": "application/json"}, "expirationTime": 30, "ok": True}
    with pytest.raises(pathconfig.MisuseError, match="only while"):
        kept[0].set_str("late", "x")
    with pytest.raises(pathconfig.MisuseError):
        kept[0].properties()


def test_a_predicate_may_not_change_anything() -> None:
    """The library refuses a setter called from a predicate (E_MISUSE), and
    so does request.properties() there; the predicate's error fails the lookup."""
    def predicate(request: Request) -> bool:
        request.set_str("k", "v")
        return True

    def reader(request: Request) -> bool:
        request.properties()
        return True

    with api() as cfg:
        cfg.add_rule(globs=["/set"], predicate=predicate)
        cfg.add_rule(globs=["/read"], predicate=reader)
        for url in ("/set", "/read"):
            with pytest.raises(pathconfig.MisuseError) as info:
                cfg.properties(url)
            assert info.value.code == ErrorCode.E_MISUSE and isinstance(info.value.__cause__, CallbackError)
