"""Mistakes ``mypy --strict`` must report, one per line marked ``# E:``
(tests/test_typing.py checks that each is reported on its line, and nothing
else)."""

from __future__ import annotations

import pathconfig


def mistakes(cfg: pathconfig.PathConfiguration) -> None:
    props = cfg.properties("/")
    props.contxt  # E: "Properties" has no attribute "contxt"
    props.pull_to_refresh  # E: "Properties" has no attribute "pull_to_refresh"
    title: str = props.title  # E: Incompatible types in assignment
    enabled: str = props.pull_to_refresh_enabled  # E: Incompatible types in assignment
    if props.context == "modl":  # E: Non-overlapping equality check
        pass
    context: pathconfig.Context = "sheet"  # E: Incompatible types in assignment
    props.get_str(1)  # E: Argument 1 to "get_str" of "Properties" has incompatible type "int"
    cfg.add_rule(globs=["**"], configurer=lambda request, p: request.set_int("n", "1"))  # E: Argument 2 to "set_int" of "Request" has incompatible type "str"
