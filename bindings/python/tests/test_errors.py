"""Every error path: what the library rejects, and what Python rejects first."""

from __future__ import annotations

import errno
import os
import pathlib
import pickle
import subprocess
import sys

import pytest

import pathconfig
from pathconfig import (
    CacheError,
    CacheReason,
    CallbackError,
    ClosedError,
    ConfigError,
    DownloadError,
    DownloadReason,
    Error,
    ErrorCode,
    FileError,
    InternalError,
    MisuseError,
    PathConfiguration,
)

RULES = '{"rules": []}'


def load_error(text, **options) -> ConfigError:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError) as info:
        PathConfiguration.from_json(text, **options)
    return info.value


# --- the document -----------------------------------------------------------


def test_bad_json_has_line_and_column() -> None:
    err = load_error('{"rules": [\n  {"patterns": ["a"], }, x]}')
    assert err.code == ErrorCode.E_JSON == 1
    assert err.name == "PATHCONFIG_E_JSON"
    assert (err.line, err.column) == (2, 26)
    assert err.message == "unexpected character 'x', expected a value"
    assert str(err) == "2:26: unexpected character 'x', expected a value"
    assert err.rule_index is None and err.pattern_index is None and err.filename is None
    assert isinstance(err, ValueError) and isinstance(err, Error)


def test_empty_document() -> None:
    err = load_error("")
    assert err.code == ErrorCode.E_JSON and (err.line, err.column) == (1, 1)


def test_column_counts_unicode_scalars() -> None:
    err = load_error('{"é€😀": 1, x}')
    assert err.code == ErrorCode.E_JSON and (err.line, err.column) == (1, 12)  # scalars, not bytes (bytes: 17)


def test_schema_error_names_rule_and_pattern() -> None:
    err = load_error('{"rules": [{"patterns": ["/a"], "properties": {}},\n {"patterns": ["/b", 2], "properties": {}}]}')
    assert err.code == ErrorCode.E_SCHEMA
    assert (err.rule_index, err.pattern_index) == (1, 1)
    assert (err.line, err.column) == (2, 22)
    assert "must be a string" in err.message


def test_schema_error_rule_without_pattern_index() -> None:
    err = load_error('{"rules": [{"patterns": ["/a"]}]}')
    assert err.code == ErrorCode.E_SCHEMA
    assert err.rule_index == 0 and err.pattern_index is None


def test_schema_error_missing_rules() -> None:
    err = load_error("{}")
    assert err.code == ErrorCode.E_SCHEMA and err.rule_index is None


def test_regex_error_names_rule_and_pattern() -> None:
    err = load_error('{"rules": [{"patterns": ["/a"], "properties": {}}, {"patterns": ["/b", "(["], "properties": {}}]}')
    assert err.code == ErrorCode.E_REGEX
    assert (err.rule_index, err.pattern_index) == (1, 1)
    assert (err.line, err.column) == (1, 72)
    assert "offset" in err.message


def test_lenient_skips_bad_pattern_with_warning() -> None:
    text = '{"rules": [{"patterns": ["([", "/x$"], "properties": {"ok": true}}]}'
    with PathConfiguration.from_json(text, lenient=True) as cfg:
        assert cfg.properties("/x") == {"ok": True}
        [warning] = cfg.warnings
        assert warning.kind == "skipped-pattern"
        assert (warning.rule_index, warning.pattern_index) == (0, 0)
        assert str(warning) == f"{warning.line}:{warning.column}: {warning.message}"


def test_warnings_duplicate_key_and_ignored_settings() -> None:
    with PathConfiguration.from_json('{"settings": 1, "rules": [], "rules": []}') as cfg:
        kinds = [w.kind for w in cfg.warnings]
        assert kinds == ["duplicate-key", "ignored-settings"]
        assert all(str(w).startswith("1:") for w in cfg.warnings)
        assert cfg.settings == {}


def test_no_warnings() -> None:
    with PathConfiguration.from_json(RULES) as cfg:
        assert cfg.warnings == []


def test_limit_nesting() -> None:
    err = load_error("[" * 10000)
    assert err.code == ErrorCode.E_LIMIT and err.line == 1


def test_turbo_android_rejects_nested_values() -> None:
    err = load_error('{"rules": [{"patterns": ["x"], "properties": {"a": {"b": 1}}}]}', profile="turbo-android")
    assert err.code == ErrorCode.E_SCHEMA and err.rule_index == 0


# --- options ------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"profile": "android"},
        {"profile": ""},
        {"profile": "hot\0wire"},
        {"profile": "\ud800"},
        {"backend": "re2"},
        {"result_cache_size": -1},
    ],
    ids=["unknown-profile", "empty-profile", "nul-in-profile", "surrogate-in-profile", "unknown-backend", "negative-cache"],
)
def test_bad_option_values(options) -> None:  # type: ignore[no-untyped-def]
    err = load_error(RULES, **options)
    assert err.code == ErrorCode.E_OPTIONS and err.name == "PATHCONFIG_E_OPTIONS"
    assert err.line is None and err.column is None


def test_unknown_profile_message() -> None:
    err = load_error(RULES, profile="android")
    assert "android" in err.message and "hotwire-ios" in err.message


def test_foundation_backend_is_not_built_in() -> None:
    err = load_error(RULES, backend="foundation")
    assert err.code == ErrorCode.E_BACKEND


def test_known_profiles_and_backend_load() -> None:
    for profile in pathconfig.PROFILES:
        with PathConfiguration.from_json(RULES, profile=profile, backend="pcre2", match_query_strings=False) as cfg:
            assert cfg.profile == profile
    err = load_error(RULES, profile="android")
    for profile in pathconfig.PROFILES:
        assert profile in err.message, "the library's message lists its profiles"


@pytest.mark.parametrize(
    "options",
    [
        {"profile": 1},
        {"profile": b"hotwire-ios"},
        {"match_query_strings": "yes"},
        {"match_query_strings": 1},
        {"backend": 0},
        {"lenient": None},
        {"lenient": 1},
        {"lenient": "false"},
        {"result_cache_size": True},
        {"result_cache_size": "0"},
        {"unknown": True},
    ],
    ids=lambda o: "-".join(f"{k}={v!r}" for k, v in o.items()),
)
def test_option_types(options) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        PathConfiguration.from_json(RULES, **options)
    with pytest.raises(TypeError):
        PathConfiguration.from_file("/nonexistent", **options)


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        PathConfiguration.from_json(RULES, "hotwire-ios")  # type: ignore[misc]


# --- argument types, NULs and UTF-8 ------------------------------------------------


@pytest.mark.parametrize("text", [None, 1, ["{}"], {"rules": []}, pathlib.Path("x.json")])
def test_from_json_argument_type(text) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        PathConfiguration.from_json(text)


@pytest.mark.parametrize("path", [None, 1, 1.5, ["a"]])
def test_from_file_argument_type(path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        PathConfiguration.from_file(path)


def test_from_json_accepts_bytes_like() -> None:
    for text in (RULES, RULES.encode(), bytearray(RULES.encode()), memoryview(RULES.encode())):
        with PathConfiguration.from_json(text) as cfg:
            assert cfg.properties("/") == {}


def test_nul_inside_document_is_a_json_error() -> None:
    err = load_error(RULES + "\0")
    assert err.code == ErrorCode.E_JSON and (err.line, err.column) == (1, 14)
    err = load_error(b'{"rules":\0[]}')
    assert err.code == ErrorCode.E_JSON


def test_nul_in_json_string_escape_is_data() -> None:
    with PathConfiguration.from_json('{"rules": [{"patterns": ["a"], "properties": {"s": "x\\u0000y"}}]}') as cfg:
        assert cfg.properties("/a") == {"s": "x\0y"}
        props = cfg.properties("/a")
        # Nothing is lost at U+0000: the mapping, get_str and get_json are exact.
        assert props["s"] == "x\0y" and props.get_str("s") == "x\0y" and props.get_json("s") == '"x\\u0000y"'


def test_invalid_utf8_document() -> None:
    for data in (b"\xff", b'{"rules": ["\xc3"]}', b'{"rules": [], "settings": {"\xed\xa0\x80": 1}}'):
        err = load_error(data)
        assert err.code == ErrorCode.E_JSON and err.line == 1


def test_unencodable_str_document() -> None:
    with pytest.raises(ValueError, match="UTF-8"):
        PathConfiguration.from_json('{"rules": [], "x": "\ud800"}')


@pytest.mark.parametrize("method", ["properties", "properties_json", "explain", "matched_string"])
def test_url_arguments(sample, method) -> None:  # type: ignore[no-untyped-def]
    call = getattr(sample, method)
    for bad in (None, b"/a", 1, pathlib.Path("/a")):
        with pytest.raises(TypeError):
            call(bad)
    with pytest.raises(ValueError, match="NUL"):
        call("/messages\0/new")
    with pytest.raises(ValueError, match="UTF-8"):
        call("/\udcff")
    call("")  # empty is a valid (empty) path


def test_path_with_nul() -> None:
    for path in ("a\0b.json", b"a\0b.json"):
        with pytest.raises(ValueError, match="NUL"):
            PathConfiguration.from_file(path)


def test_missing_file_is_io_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "missing.json"
    with pytest.raises(FileNotFoundError) as info:
        PathConfiguration.from_file(missing)
    err = info.value
    assert isinstance(err, FileError) and isinstance(err, ConfigError) and isinstance(err, Error)
    assert err.code == ErrorCode.E_IO and err.filename == str(missing)
    assert (err.errno, err.strerror) == (errno.ENOENT, os.strerror(errno.ENOENT))
    assert str(missing) in err.message and err.line is None
    assert str(err) == err.message


def test_io_errors_are_the_oserror_python_makes_of_their_errno(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The class is the one open() raises for the same path: Python's own
    errno table decides, through the library's os_error."""
    for path in (tmp_path / "missing.json", tmp_path, "/dev/null/pc.json"):
        with pytest.raises(OSError) as expected:
            open(path, "rb").read()
        with pytest.raises(FileError) as info:
            PathConfiguration.from_file(path)
        err = info.value
        assert err.errno == expected.value.errno and isinstance(err, type(expected.value)), (path, err)
        assert type(expected.value) is not OSError, "each path has an OSError subclass of its own"
        assert err.code == ErrorCode.E_IO and err.filename == os.fsdecode(path)
        copy = pickle.loads(pickle.dumps(err))
        assert type(copy) is type(err) and (copy.errno, copy.filename, str(copy)) == (err.errno, err.filename, str(err))


def test_unreadable_file_is_permission_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """EACCES is a PermissionError, as open() raises (run as nobody when the
    suite runs as root, which reads anything)."""
    path = tmp_path / "secret.json"
    path.write_text(RULES)
    path.chmod(0)
    tmp_path.chmod(0o755)
    script = (
        "import errno, os, sys, pathconfig\n"
        "if os.geteuid() == 0: os.setgid(65534); os.setuid(65534)\n"
        "try:\n"
        f"    pathconfig.PathConfiguration.from_file({str(path)!r})\n"
        "except PermissionError as e:\n"
        "    assert isinstance(e, pathconfig.FileError) and e.errno == errno.EACCES, repr(e)\n"
        "    print(type(e).__name__, e.errno)\n"
        "else:\n"
        "    sys.exit('loaded')\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"PermissionError {errno.EACCES}\n"


def test_file_error_has_filename_in_str(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.json"
    path.write_text('{\n "rules": x}')
    with pytest.raises(ConfigError) as info:
        PathConfiguration.from_file(str(path))
    assert str(info.value) == f"{path}:2:11: unexpected character 'x', expected a value"


def test_file_paths_str_bytes_pathlike(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "é config.json"
    path.write_text(RULES)
    for arg in (path, str(path), os.fsencode(path)):
        with PathConfiguration.from_file(arg) as cfg:
            assert cfg.rule_count == 3


def test_non_utf8_path_is_argument_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError) as info:
        PathConfiguration.from_file(os.fsencode(tmp_path) + b"/\xff.json")
    assert info.value.code == ErrorCode.E_ARGUMENT


def test_typed_unknown_key(sample) -> None:  # type: ignore[no-untyped-def]
    props = sample.properties("/")
    with pytest.raises(ValueError, match="not a typed key"):
        props.typed("colour")
    with pytest.raises(TypeError):
        props.typed(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        props.get_str(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NUL"):
        props.typed("context\0")


def test_typed_reads_a_str_subclass_as_its_text(sample) -> None:  # type: ignore[no-untyped-def]
    """An accessor's name is read through the accessor only when it is an
    exact str; another spelling of it, a str subclass, takes the library's
    typed read, which gives the same value."""

    class Name(str):
        pass

    props = sample.properties("/messages/new")
    for name in pathconfig.TYPED_KEYS:
        assert props.typed(Name(name)) == props.typed(name) == getattr(props, name, props.typed(name)), name


# --- the exception classes --------------------------------------------------------


def test_hierarchy() -> None:
    assert issubclass(ConfigError, Error) and issubclass(ConfigError, ValueError)
    assert issubclass(FileError, ConfigError) and issubclass(FileError, OSError)
    assert issubclass(ClosedError, Error) and issubclass(ClosedError, ValueError)
    assert issubclass(InternalError, Error) and issubclass(InternalError, RuntimeError)
    assert not issubclass(ClosedError, ConfigError)


def test_error_codes_match_library_names() -> None:
    from pathconfig import _ffi

    for code in ErrorCode:
        assert _ffi.error_name(code) == f"PATHCONFIG_{code.name}"
    assert _ffi.error_name(_ffi.NOT_FOUND) == "PATHCONFIG_NOT_FOUND"
    assert _ffi.error_name(99) == _ffi.error_name(-1) == "PATHCONFIG_E_UNKNOWN", "1.0: no negated codes"


def test_errors_pickle() -> None:
    err = load_error('{"rules": [{"patterns": ["(["], "properties": {}}]}')
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is ConfigError
    assert (copy.code, copy.name, copy.line, copy.column, copy.rule_index, copy.pattern_index, copy.message) == (
        err.code,
        err.name,
        err.line,
        err.column,
        err.rule_index,
        err.pattern_index,
        err.message,
    )
    assert str(copy) == str(err)


def test_constructors_are_private() -> None:
    with pytest.raises(TypeError):
        PathConfiguration()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        pathconfig.Properties()  # type: ignore[call-arg]


def test_exception_for_each_code() -> None:
    from pathconfig._errors import from_fields

    for code in ErrorCode:
        err = from_fields(code, "m", 3, 4, 1, 2)
        assert err.code == code and err.name == f"PATHCONFIG_{code.name}"
        if code in (ErrorCode.E_NOMEM, ErrorCode.E_INTERNAL, ErrorCode.OK):
            assert type(err) is InternalError
        elif code == ErrorCode.E_DOWNLOAD:
            assert type(err) is DownloadError and isinstance(err, OSError)
            assert (err.reason, err.http_status, err.url) == (None, None, None)
        elif code == ErrorCode.E_CACHE:
            assert type(err) is CacheError and isinstance(err, OSError)
            assert (err.reason, err.url, err.filename) == (None, None, None)
        elif code in (ErrorCode.E_MISUSE, ErrorCode.E_FORKED):
            assert type(err) is MisuseError and isinstance(err, RuntimeError)
        elif code == ErrorCode.E_CALLBACK:
            assert type(err) is CallbackError and isinstance(err, RuntimeError)
            assert err.rule_index == 1
        elif code == ErrorCode.E_IO:
            assert type(err) is FileError and err.errno is None, "no os_error: no OSError subclass"
        else:
            assert type(err) is ConfigError
            assert (err.line, err.column, err.rule_index, err.pattern_index) == (3, 4, 1, 2)
    unknown = from_fields(99, "", name="PATHCONFIG_E_UNKNOWN")
    assert type(unknown) is InternalError and unknown.code == 99 and unknown.name == "PATHCONFIG_E_UNKNOWN"
    assert str(unknown) == "libpathconfig reported an unknown failure"


def test_loader_errors_keep_their_details() -> None:
    download = DownloadError("server http://h/p.json: the server answered HTTP 500", reason=6, http_status=500,
                             url="http://h/p.json")
    cache = CacheError("ignored", reason=1, url="http://h/p.json", filename="/c/x.cache")
    assert download.reason is DownloadReason.HTTP_STATUS and cache.reason is CacheReason.CORRUPT
    assert str(download) == download.message and download.errno is None
    assert repr(download) == ("DownloadError(code=PATHCONFIG_E_DOWNLOAD, message='server http://h/p.json: the server "
                              "answered HTTP 500', reason=<DownloadReason.HTTP_STATUS: 6>, http_status=500, "
                              "url='http://h/p.json')")
    callback = CallbackError("rule 2: predicate failed", rule_index=2)
    assert repr(callback) == "CallbackError(code=PATHCONFIG_E_CALLBACK, message='rule 2: predicate failed', rule_index=2)"
    for err in (download, cache, MisuseError("inside", ErrorCode.E_MISUSE), callback):
        copy = pickle.loads(pickle.dumps(err))
        assert type(copy) is type(err) and repr(copy) == repr(err) and str(copy) == str(err)
    assert pickle.loads(pickle.dumps(cache)).filename == "/c/x.cache"
    assert DownloadError("m", reason=99).reason == 99, "a reason newer than the binding stays an int"
