"""Handles: close(), with, use after close, finalisers, and the C types."""

from __future__ import annotations

import copy
import ctypes
import gc
import pickle
import subprocess
import sys
import textwrap

import pytest

import pathconfig
from pathconfig import ClosedError, DataSource, Loader, PathConfiguration, _ffi

URL = "https://example.com/messages/42"


def test_close_is_idempotent(sample_json: str) -> None:
    cfg = PathConfiguration.from_json(sample_json)
    assert not cfg.closed
    cfg.close()
    assert cfg.closed
    cfg.close()
    assert cfg.closed
    assert repr(cfg) == "<pathconfig.PathConfiguration (closed)>"


def test_with_releases(sample_json: str) -> None:
    with PathConfiguration.from_json(sample_json) as cfg:
        assert cfg.properties(URL)["title"] == "Message"
    assert cfg.closed
    with pytest.raises(ClosedError, match="closed PathConfiguration"):
        cfg.properties(URL)


def test_with_releases_on_exception(sample_json: str) -> None:
    with pytest.raises(KeyError):
        with PathConfiguration.from_json(sample_json) as cfg:
            raise KeyError("boom")
    assert cfg.closed


@pytest.mark.parametrize(
    "use",
    [
        lambda c: c.properties(URL),
        lambda c: c.properties_json(URL),
        lambda c: c.explain(URL),
        lambda c: c.matched_string(URL),
        lambda c: c.settings,
        lambda c: c.warnings,
        lambda c: c.rule_count,
        lambda c: c.document_rule_count,
        lambda c: c.profile,
        lambda c: c.options,
    ],
    ids=["properties", "properties_json", "explain", "matched_string", "settings", "warnings",
         "rule_count", "document_rule_count", "profile", "options"],
)
def test_configuration_use_after_close(sample_json: str, use) -> None:  # type: ignore[no-untyped-def]
    cfg = PathConfiguration.from_json(sample_json)
    use(cfg)  # also fills any cache
    cfg.close()
    with pytest.raises(ClosedError) as info:
        use(cfg)
    assert isinstance(info.value, ValueError) and info.value.code is None


def test_results_have_nothing_to_close(sample) -> None:  # type: ignore[no-untyped-def]
    """A Properties is shared by every lookup with its answer: it has no
    close() and no with block (1.0); its C result goes with its last
    reference."""
    props = sample.properties(URL)
    for name in ("close", "closed", "__enter__", "__exit__"):
        assert not hasattr(props, name), name
    with pytest.raises(TypeError):
        with props:  # type: ignore[attr-defined]
            pass


def test_result_outlives_configuration(sample_json: str) -> None:
    cfg = PathConfiguration.from_json(sample_json)
    props = cfg.properties(URL)
    cfg.close()
    del cfg
    gc.collect()
    assert props["title"] == "Message" and props.view_controller == "message"


def test_finaliser_releases_unclosed_handles(sample_json: str) -> None:
    # Not closing is allowed: the handle goes with its object (checked for leaks in test_memory).
    for _ in range(100):
        cfg = PathConfiguration.from_json(sample_json)
        cfg.properties(URL)
        del cfg
    gc.collect()


@pytest.mark.parametrize("make", [PathConfiguration.from_json, lambda text: Loader([DataSource(text)])],
                         ids=["PathConfiguration", "Loader"])
@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy, pickle.dumps], ids=["copy", "deepcopy", "pickle"])
def test_handle_owners_refuse_copies(sample_json: str, make, duplicate) -> None:  # type: ignore[no-untyped-def]
    """A copy would share the handle, and free it under the original when it
    went (through ctypes: a crash; a Loader: a hang)."""
    owner = make(sample_json)
    name = type(owner).__name__
    with pytest.raises(TypeError, match=f"cannot pickle '{name}' object: it owns a library handle"):
        duplicate(owner)
    gc.collect()
    if isinstance(owner, Loader):
        owner.load()
        owner = owner.current
    assert owner.properties(URL)["title"] == "Message"


def test_unclosed_handles_at_interpreter_exit(sample_json: str) -> None:
    """Objects alive at shutdown (module globals, cycles) must not crash the exit."""
    code = textwrap.dedent(
        f"""
        import pathconfig
        cfg = pathconfig.PathConfiguration.from_json({sample_json!r})
        props = cfg.properties({URL!r})
        class Cycle:
            pass
        c = Cycle(); c.self = c; c.cfg = pathconfig.PathConfiguration.from_json({sample_json!r}); c.props = c.cfg.properties("/")
        import sys
        sys.modules["keep"] = c
        print(props["title"])
        """
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=_child_env())
    assert run.returncode == 0, run.stderr
    assert run.stdout == "Message\n" and run.stderr == ""


def _child_env() -> dict:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


def test_handles_are_distinct_pointer_types() -> None:
    assert _ffi.ConfigPtr is not _ffi.ResultPtr
    assert issubclass(_ffi.ConfigPtr, ctypes._Pointer)
    load = _ffi.lib.pathconfig_load_json
    assert issubclass(load.restype, _ffi.ConfigPtr) and not issubclass(load.restype, _ffi.ResultPtr)
    assert issubclass(_ffi.lib.pathconfig_resolve.restype, _ffi.ResultPtr)
    # a result handle cannot be passed where a configuration is expected
    with PathConfiguration.from_json('{"rules": []}') as cfg:
        props = cfg.properties("/")
        with pytest.raises(ctypes.ArgumentError):
            _ffi.lib.pathconfig_rule_count(props._ptr())


def test_null_handles_are_errors_not_crashes() -> None:
    with pytest.raises(pathconfig.ConfigError) as info:
        _ffi.lib.pathconfig_rule_count(None)
    assert info.value.code == pathconfig.ErrorCode.E_ARGUMENT
    with pytest.raises(pathconfig.ConfigError):
        _ffi.lib.pathconfig_resolve(None, b"/", None, None)
    with pytest.raises(pathconfig.ConfigError):
        _ffi.lib.pathconfig_result_typed_string(None, 0)
    # A typed bool of no result is 0 (false) with the last error set, never
    # a negative number that reads as true (the errcheck raises it).
    animated = pathconfig._catalog.KEY_INDEX["animated"]
    with pytest.raises(pathconfig.ConfigError) as info:
        _ffi.lib.pathconfig_result_typed_bool(None, animated)
    assert info.value.code == pathconfig.ErrorCode.E_ARGUMENT
    raw = _ffi.lib["pathconfig_result_typed_bool"]  # the same function, no errcheck
    raw.argtypes, raw.restype = [ctypes.c_void_p, ctypes.c_int], ctypes.c_int
    assert raw(None, animated) == 0 and _ffi.last_error().code == pathconfig.ErrorCode.E_ARGUMENT
    _ffi.lib.pathconfig_release(None)
    _ffi.lib.pathconfig_result_release(None)
    _ffi.lib.pathconfig_string_free(None)


def test_library_is_cdll_so_the_gil_is_released() -> None:
    assert type(_ffi.lib) is ctypes.CDLL
    assert not isinstance(_ffi.lib, ctypes.PyDLL)
