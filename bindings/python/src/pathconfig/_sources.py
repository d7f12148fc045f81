"""What a :class:`~pathconfig.Loader` reads and how: its sources, as small
frozen dataclasses (:class:`FileSource`, :class:`ServerSource`,
:class:`DataSource`; plain ``dict`` in the C form are accepted too), and its
options, given as keyword arguments. Both are checked for type here and
serialised with :func:`json.dumps` to the C ``sources_json`` and
``options_json`` (include/pathconfig/loader.h, "Loader: sources, cache and
live updates"); the library checks the values.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ._config import StrPath
from ._ffi import text_arg as _c_text


def _utf8(value: str, what: str) -> str:
    """``value``, checked as a C string argument would be (no NUL, no lone
    surrogate), for the C JSON."""
    _c_text(value, what)
    return value


def _path_text(path: StrPath, what: str) -> str:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{what} must be str, bytes or os.PathLike, not {type(path).__name__}")
    return _utf8(os.fsdecode(path), what)


# --- sources ----------------------------------------------------------------------


@dataclass(frozen=True)
class FileSource:
    """A configuration file, read each time the chain runs (``{"file": PATH}``).
    A relative path is resolved against the working directory at that time."""

    path: str

    def __init__(self, path: StrPath) -> None:
        object.__setattr__(self, "path", _path_text(path, "FileSource path"))

    def to_dict(self) -> Dict[str, Any]:
        """The source in the C ``sources_json`` form."""
        return {"file": self.path}


@dataclass(frozen=True)
class ServerSource:
    """A server copy (``{"server": URL, "headers": {...}}``): an absolute
    ``http://`` or ``https://`` URL, downloaded by ``load()`` and
    ``refresh()``, cached in the loader's ``cache_dir``. ``headers`` are sent
    with each request, in the order given (some servers reject requests
    without ``Accept``)."""

    url: str
    headers: Tuple[Tuple[str, str], ...] = field(default=())

    def __init__(
        self,
        url: str,
        headers: Union[Mapping[str, str], Iterable[Tuple[str, str]], None] = None,
    ) -> None:
        if not isinstance(url, str):
            raise TypeError(f"ServerSource url must be str, not {type(url).__name__}")
        pairs: List[Tuple[str, str]] = []
        if headers is not None:
            if isinstance(headers, (str, bytes)):
                raise TypeError("ServerSource headers must be a mapping of str to str")
            items = headers.items() if isinstance(headers, Mapping) else headers
            for item in items:
                if not (isinstance(item, tuple) and len(item) == 2):
                    raise TypeError("ServerSource headers must be a mapping of str to str")
                name, value = item
                if not isinstance(name, str) or not isinstance(value, str):
                    raise TypeError(
                        f"ServerSource header {name!r}: names and values must be str, "
                        f"not {type(name).__name__} and {type(value).__name__}"
                    )
                pairs.append((_utf8(name, "header name"), _utf8(value, f"header {name!r}")))
        object.__setattr__(self, "url", _utf8(url, "ServerSource url"))
        object.__setattr__(self, "headers", tuple(pairs))

    def to_dict(self) -> Dict[str, Any]:
        """The source in the C ``sources_json`` form."""
        spec: Dict[str, Any] = {"server": self.url}
        if self.headers:
            spec["headers"] = dict(self.headers)
        return spec


@dataclass(frozen=True)
class DataSource:
    """A configuration given as JSON text (``{"data": TEXT, "name": NAME}``),
    e.g. one bundled with the application; ``name`` (default ``"data"``)
    names it in events. ``bytes`` must be UTF-8."""

    text: str
    name: Optional[str] = None

    def __init__(self, text: Union[str, bytes], name: Optional[str] = None) -> None:
        if isinstance(text, (bytes, bytearray, memoryview)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"DataSource text is not UTF-8: {exc.reason} at byte {exc.start}") from None
        elif not isinstance(text, str):
            raise TypeError(f"DataSource text must be str or bytes, not {type(text).__name__}")
        else:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(f"DataSource text cannot be encoded as UTF-8: {exc.reason} at index {exc.start}") from None
        if name is not None and not isinstance(name, str):
            raise TypeError(f"DataSource name must be str or None, not {type(name).__name__}")
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "name", None if name is None else _utf8(name, "DataSource name"))

    def to_dict(self) -> Dict[str, Any]:
        """The source in the C ``sources_json`` form."""
        spec: Dict[str, Any] = {"data": self.text}
        if self.name is not None:
            spec["name"] = self.name
        return spec

    def __repr__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"DataSource({text!r}, name={self.name!r})"


Source = Union[FileSource, ServerSource, DataSource, Mapping[str, Any]]


def _source_spec(source: object, index: int) -> Dict[str, Any]:
    if isinstance(source, (FileSource, ServerSource, DataSource)):
        return source.to_dict()
    if isinstance(source, Mapping):
        for key in source:
            if not isinstance(key, str):
                raise TypeError(f"source {index}: keys must be str, not {type(key).__name__}")
        return dict(source)
    raise TypeError(
        f"source {index} must be a FileSource, ServerSource, DataSource or dict, not {type(source).__name__}"
    )


def _sources_json(sources: object) -> Tuple[bytes, Tuple[Source, ...]]:
    if isinstance(sources, (str, bytes, Mapping)) or not isinstance(sources, (Sequence, Iterable)):
        raise TypeError(
            f"sources must be a list of FileSource, ServerSource, DataSource or dict, not {type(sources).__name__}"
        )
    kept = tuple(cast(Iterable[Source], sources))
    specs = [_source_spec(s, i) for i, s in enumerate(kept)]
    try:
        # ASCII: a NUL or a lone surrogate inside a dict source travels escaped
        # and the library rejects it.
        return json.dumps(specs).encode("ascii"), kept
    except (TypeError, ValueError) as exc:
        raise TypeError(f"sources: {exc}") from None


# --- options ----------------------------------------------------------------------


def _milliseconds(value: object, what: str) -> Optional[int]:
    """Seconds as the library's whole milliseconds (rounded up); the library
    checks the range. Only what JSON cannot carry is refused here."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} must be a number of seconds or None, not {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number of seconds, not {value!r}")
    return math.ceil(value * 1000)


def _loader_options(
    cache_dir: Optional[StrPath],
    timeout: Optional[float],
    max_body_bytes: Optional[int],
    refresh_interval: Optional[float],
    user_agent: Optional[str],
    ca_file: Optional[StrPath],
    follow_redirects_to_other_hosts: Optional[bool],
    load_options: Dict[str, Any],
) -> bytes:
    options = dict(load_options)
    if cache_dir is not None:
        options["cache_dir"] = _path_text(cache_dir, "cache_dir")
    ms = _milliseconds(timeout, "timeout")
    if ms is not None:
        options["timeout_ms"] = ms
    if max_body_bytes is not None:
        if isinstance(max_body_bytes, bool) or not isinstance(max_body_bytes, int):
            raise TypeError(f"max_body_bytes must be int or None, not {type(max_body_bytes).__name__}")
        options["max_body_bytes"] = max_body_bytes
    ms = _milliseconds(refresh_interval, "refresh_interval")
    if ms is not None:
        options["refresh_interval_ms"] = ms
    if user_agent is not None:
        if not isinstance(user_agent, str):
            raise TypeError(f"user_agent must be str or None, not {type(user_agent).__name__}")
        options["user_agent"] = _utf8(user_agent, "user_agent")
    if ca_file is not None:
        options["ca_file"] = _path_text(ca_file, "ca_file")
    if follow_redirects_to_other_hosts is not None:
        if not isinstance(follow_redirects_to_other_hosts, bool):
            raise TypeError(
                "follow_redirects_to_other_hosts must be bool or None, "
                f"not {type(follow_redirects_to_other_hosts).__name__}"
            )
        options["follow_redirects_to_other_hosts"] = follow_redirects_to_other_hosts
    return json.dumps(options).encode("ascii")
