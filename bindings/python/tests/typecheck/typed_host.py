"""A host as a user writes it, type-checked with ``mypy --strict`` by
tests/test_typing.py (never imported by the suite): the typed accessors
have the types a visit proposal needs, and an answer goes to ``json.dumps``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from typing_extensions import assert_type

import pathconfig


def is_modal(cfg: pathconfig.PathConfiguration, url: str) -> bool:
    props = cfg.properties(url)
    assert_type(props, pathconfig.Properties)
    assert_type(props.context, pathconfig.Context)
    assert_type(props.presentation, pathconfig.Presentation)
    assert_type(props.modal_style, pathconfig.ModalStyle)
    assert_type(props.query_string_presentation, pathconfig.QueryStringPresentation)
    assert_type(props.view_controller, Optional[str])
    assert_type(props.title, Optional[str])
    assert_type(props.uri, Optional[str])
    assert_type(props.fallback_uri, Optional[str])
    assert_type(props.pull_to_refresh_enabled, bool)
    assert_type(props.modal_dismiss_gesture_enabled, bool)
    assert_type(props.animated, bool)
    assert_type(props.historical_location, bool)
    assert_type(props.typed("context"), pathconfig.TypedValue)
    assert_type(props.json, str)
    assert_type(props.get_int("count"), Optional[int])
    return props.context == "modal" and props.presentation != "pop"


def title_or(cfg: pathconfig.PathConfiguration, url: str, default: str) -> str:
    title = cfg.properties(url).title
    return default if title is None else title


def as_json(cfg: pathconfig.PathConfiguration, url: str) -> str:
    props = cfg.properties(url)
    plain: Dict[str, Any] = dict(props)
    plain["seen"] = True
    return json.dumps({"answer": props, "copy": plain})


def add_token(cfg: pathconfig.PathConfiguration, token: str) -> int:
    def configure(request: pathconfig.Request, properties: Dict[str, Any]) -> None:
        request.set_header("X-HappyApp-Auth-Token", token)
        request.set_int("expirationTime", 30)
        request.set_float("ratio", 0.5)
        request.set_bool("authenticated", True)
        request.set_str("via", request.url)
        request.remove("debug")
        request.merge_properties({"headers": {"Accept": "application/json"}})

    return cfg.add_rule(globs=["**"], configurer=configure)
