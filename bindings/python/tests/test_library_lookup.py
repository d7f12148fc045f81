"""Finding the library, and the binding against the header it mirrors."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

import pytest
from conftest import PACKAGE, REPO

import pathconfig
from pathconfig import _ffi

HEADER = REPO / "include" / "pathconfig.h"
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"[ \t]*$', re.M)


def header() -> str:
    """The C API as one text: pathconfig.h with each ``#include "..."`` replaced
    by the part it names (relative to the including file, as the compiler finds
    it), recursively, each file once as its include guard would have it."""
    if not HEADER.is_file():
        pytest.fail(f"{HEADER} not found: the binding is checked against the header of its clone", pytrace=False)
    seen: Set[Path] = set()

    def expand(path: Path) -> str:
        path = path.resolve()
        if path in seen:
            return ""
        seen.add(path)
        text = path.read_text(encoding="utf-8")
        return _INCLUDE.sub(lambda m: expand(path.parent / m.group(1)), text)

    text = expand(HEADER)
    assert len(seen) > 1, f"{HEADER} includes no part"
    return text


# --- the header ---------------------------------------------------------------

_C_TYPES = {
    "void": None,
    "int": ctypes.c_int,
    "size_t": ctypes.c_size_t,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "double": ctypes.c_double,
    "char *": ctypes.c_void_p,  # owned: copied, then freed with pathconfig_string_free
    "const char *": ctypes.c_char_p,  # borrowed: copied at once
    "pathconfig *": _ffi.ConfigPtr,
    "const pathconfig *": _ffi.ConfigPtr,
    "pathconfig_result *": _ffi.ResultPtr,
    "const pathconfig_result *": _ffi.ResultPtr,
    "pathconfig_error *": _ffi.ErrorPtr,
    "const pathconfig_error *": _ffi.ErrorPtr,
    "pathconfig_warning *": _ffi.WarningPtr,
    "pathconfig_loader *": _ffi.LoaderPtr,
    "const pathconfig_loader *": _ffi.LoaderPtr,
    "pathconfig_loader_callback": _ffi.LoaderCallback,
    "pathconfig_loader_payload_free": _ffi.PayloadFree,
    "void (*)(void *)": _ffi.PayloadFree,  # pathconfig_add_rule's free_context
    "pathconfig_rule_fn": _ffi.RuleFn,
    "pathconfig_request *": _ffi.RequestPtr,
    "const pathconfig_request *": _ffi.RequestPtr,
    "void *": ctypes.c_void_p,  # the callback's payload (the binding passes a key)
    "const char **": ctypes.POINTER(ctypes.c_char_p),
    "int *": ctypes.POINTER(ctypes.c_int),
    "int64_t *": ctypes.POINTER(ctypes.c_int64),
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
    "double *": ctypes.POINTER(ctypes.c_double),
}


def _ctype(decl: str) -> object:
    pointer = re.fullmatch(r"\s*(.+?)\(\s*\*\s*\w*\s*\)\s*\((.*)\)\s*", decl)  # void (*name)(void *context)
    if pointer:
        params = ", ".join(" ".join(re.sub(r"\w+$", "", p).split()) for p in pointer.group(2).split(","))
        decl = f"{pointer.group(1).strip()} (*)({params})"
        return _C_TYPES[decl]
    decl = re.sub(r"\s*\*\s*", " *", " ".join(decl.split())).replace("* *", "**")
    decl = re.sub(r" \*", " *", decl)
    return _C_TYPES[decl.strip()]



def declarations() -> Dict[str, Tuple[object, List[object]]]:
    """Every function the header declares."""
    text = re.sub(r"/\*.*?\*/", "", header(), flags=re.S)
    found = {}
    # (parameters hold one level of parentheses: a function pointer's)
    declaration = r"PATHCONFIG_API\s+([^;(]*?)\b(pathconfig_\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*;"
    for ret, name, params in re.findall(declaration, text):
        args = []
        if params.strip() != "void":
            for param in re.split(r",(?![^()]*\))", params):  # commas outside parentheses
                param = " ".join(param.split())
                args.append(_ctype(param if "(" in param else re.sub(r"\w+$", "", param)))  # drop the parameter name
        found[name] = (_ctype(ret), args)
    return found


def test_signature_table_matches_the_header() -> None:
    declared = declarations()
    # nothing missed by the parser
    assert len(declared) == len(re.findall(r"^PATHCONFIG_API ", header(), re.M))
    assert "pathconfig_loader_set_callback" in declared and "pathconfig_add_rule" in declared
    assert sorted(declared) == sorted(_ffi.SIGNATURES), "functions differ between the header and _ffi.SIGNATURES"
    for name, (restype, argtypes) in declared.items():
        table_args, table_restype, _ = _ffi.SIGNATURES[name]
        assert list(table_args) == argtypes, f"{name}: argument types"
        if isinstance(table_restype, type) and issubclass(table_restype, _ffi.Handed):
            # what the caller frees: the header's type, owned from the return
            ctype = next(c for c in table_restype.__mro__ if not issubclass(c, _ffi.Handed))
            assert ctype is restype, f"{name}: result type"
        else:
            assert table_restype is restype, f"{name}: result type"


def test_what_the_caller_frees_is_owned_from_the_return() -> None:
    """Every function returning a pointer that is not const returns what its
    caller frees (a CONSTRUCTOR's handle, a ``char *``): ctypes hands it back
    as a :class:`_ffi.Handed`, whose free is the one the header names."""
    text = re.sub(r"/\*.*?\*/", "", header(), flags=re.S)
    documented = {name: doc for doc, name in re.findall(r"/\*\*((?:(?!\*/).)*)\*/\s*PATHCONFIG_API[^;(]*?\b(pathconfig_\w+)\s*\(", header(), re.S)}
    owned = re.findall(r"PATHCONFIG_API\s+(?!const)[\w ]+\*\s*(pathconfig_\w+)\s*\(", text)
    assert len(owned) == 10, owned
    for name, (_, restype, _) in _ffi.SIGNATURES.items():
        assert (isinstance(restype, type) and issubclass(restype, _ffi.Handed)) == (name in owned), name
    for name in owned:
        free = getattr(_ffi.lookup, _ffi.SIGNATURES[name][1].FREE).__name__
        doc = " ".join(documented[name].replace("*", " ").split())
        assert re.search(rf"caller (frees with|must pass to) {free}\b", doc), (name, free)


def test_error_struct_matches_the_header() -> None:
    body = re.search(r"typedef struct pathconfig_error \{(.*?)\} pathconfig_error;", header(), re.S)
    assert body
    fields: List[Tuple[str, str]] = []
    for line in re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S).split(";"):
        line = line.strip()
        if not line:
            continue
        ctype, names = line.split(None, 1)
        for field in names.split(","):
            fields.append((ctype, field.strip()))
    mine = []
    for name, t in _ffi.ErrorStruct._fields_:
        if t is ctypes.c_int:
            mine.append(("int", name))
        else:
            assert t._type_ is ctypes.c_char
            mine.append(("char", f"{name}[{t._length_}]"))
    assert mine == fields
    assert ctypes.sizeof(_ffi.ErrorStruct) == 536


def test_loader_event_and_callback_match_the_header() -> None:
    body = re.search(r"typedef struct pathconfig_loader_event \{(.*?)\} pathconfig_loader_event;", header(), re.S)
    assert body
    fields: List[Tuple[str, str]] = []
    for line in re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S).split(";"):
        line = " ".join(line.split())
        if line:
            ctype, name = line.rsplit(" ", 1)
            while name.startswith("*"):
                ctype, name = ctype + " *", name[1:]
            fields.append((name, ctype))
    types = {"int": ctypes.c_int, "int64_t": ctypes.c_int64, "const char *": ctypes.c_char_p,
             "const pathconfig_error *": _ffi.ErrorPtr, "pathconfig *": _ffi.ConfigPtr}
    assert [(name, types[ctype]) for name, ctype in fields] == list(_ffi.LoaderEventStruct._fields_)
    pointer = ctypes.sizeof(ctypes.c_void_p)
    assert ctypes.sizeof(_ffi.LoaderEventStruct) == 32 + 5 * pointer  # as Tests/CTests/test_loader.c checks
    assert _ffi.LoaderEventStruct.location.offset == 32
    typedef = re.search(r"typedef void \(\*pathconfig_loader_callback\)\(([^)]*)\);", header())
    assert typedef and " ".join(typedef.group(1).split()) == "const pathconfig_loader_event *event, void *payload"
    assert _ffi.LoaderCallback._restype_ is None
    assert list(_ffi.LoaderCallback._argtypes_) == [_ffi.LoaderEventPtr, ctypes.c_void_p]


def test_rule_callbacks_match_the_header() -> None:
    typedef = re.search(r"typedef int \(\*pathconfig_rule_fn\)\(([^)]*)\);", header())
    assert typedef and " ".join(typedef.group(1).split()) == "void *context, pathconfig_request *request"
    assert _ffi.RuleFn._restype_ is ctypes.c_int
    assert list(_ffi.RuleFn._argtypes_) == [ctypes.c_void_p, _ffi.RequestPtr]
    assert "void (*free_context)(void *context)" in header()
    assert _ffi.PayloadFree._restype_ is None and list(_ffi.PayloadFree._argtypes_) == [ctypes.c_void_p]


def test_warning_struct_and_constants_match_the_header() -> None:
    body = re.search(r"typedef struct pathconfig_warning \{(.*?)\} pathconfig_warning;", header(), re.S)
    assert body
    fields: List[Tuple[str, str]] = []
    for line in re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S).split(";"):
        line = " ".join(line.split())
        if line:
            ctype, names = re.match(r"((?:const )?\w+ ?\**)\s*(.*)", line).groups()  # type: ignore[union-attr]
            for name in names.split(","):
                name = name.strip()
                while name.startswith("*"):
                    ctype, name = ctype.strip() + " *", name[1:]
                fields.append((name, ctype.strip()))
    types = {"int": ctypes.c_int, "const char *": ctypes.c_char_p}
    assert [(name, types[ctype]) for name, ctype in fields] == list(_ffi.WarningStruct._fields_)
    assert ctypes.sizeof(_ffi.WarningStruct) == 24 + ctypes.sizeof(ctypes.c_void_p)  # as Tests/CTests/catalog.c checks
    text = header()
    assert int(re.search(r"#define PATHCONFIG_WARNING_VERSION (\d+)", text).group(1)) == _ffi.WARNING_VERSION  # type: ignore[union-attr]
    kinds = {int(n): name.lower() for name, n in re.findall(r"#define PATHCONFIG_TYPED_(\w+)\s+(\d+)", text)}
    assert kinds == _ffi.TYPED_KINDS


def test_loader_constants_match_the_header() -> None:
    text = header()

    def defines(prefix: str) -> Dict[str, int]:
        return {m[0]: int(m[1]) for m in re.findall(rf"#define PATHCONFIG_{prefix}_(\w+)\s+(\d+)", text)}

    assert defines("EVENT") == {k.name: k.value for k in pathconfig.EventKind}
    assert defines("SOURCE") == {k.name: k.value for k in pathconfig.SourceKind}
    assert defines("DOWNLOAD") == {k.name: k.value for k in pathconfig.DownloadReason}
    assert defines("CACHE") == {k.name: k.value for k in pathconfig.CacheReason}
    assert int(re.search(r"#define PATHCONFIG_LOADER_EVENT_VERSION (\d+)", text).group(1)) == _ffi.LOADER_EVENT_VERSION  # type: ignore[union-attr]


def test_codes_and_version_match_the_header() -> None:
    text = header()
    defines = {m[0]: int(m[1]) for m in re.findall(r"#define PATHCONFIG_(OK|E_\w+)\s+(-?\d+)", text)}
    assert defines == {code.name: code.value for code in pathconfig.ErrorCode}
    assert "PATHCONFIG_FOUND" not in text, "1.0: a getter returns PATHCONFIG_OK when it finds the key"
    assert int(re.search(r"#define PATHCONFIG_NOT_FOUND\s+(\d+)", text).group(1)) == _ffi.NOT_FOUND  # type: ignore[union-attr]
    assert _ffi.OK == pathconfig.ErrorCode.OK and _ffi.E_TYPE == pathconfig.ErrorCode.E_TYPE
    version = re.search(r'#define PATHCONFIG_VERSION "([^"]+)"', text).group(1)  # type: ignore[union-attr]
    number = int(re.search(r"#define PATHCONFIG_VERSION_NUMBER (\d+)", text).group(1))  # type: ignore[union-attr]
    assert (_ffi.HEADER_VERSION, _ffi.HEADER_VERSION_NUMBER) == (version, number)
    assert pathconfig.library_version() == version
    assert pathconfig.__version__ == version


def test_typed_key_constants_are_the_catalogs_indices() -> None:
    """PATHCONFIG_KEY_X is the index of the typed key "x" in the library's
    catalog, which the binding reads its numbers from (KEY_INDEX)."""
    defines = {name.lower(): int(n) for name, n in re.findall(r"#define PATHCONFIG_KEY_(\w+)\s+(\d+)", header())}
    assert len(defines) == _ffi.lib.pathconfig_typed_key_count()
    assert {name: _ffi.lib.pathconfig_typed_key_name(n) for name, n in defines.items()} == {n: n for n in defines}
    assert dict(pathconfig._catalog.KEY_INDEX) == defines


def test_version_and_symbol_checks() -> None:
    too_new = types.SimpleNamespace(pathconfig_version_number=lambda: 2_000_000)
    with pytest.raises(ImportError, match="2.0.0"):
        _ffi._check_version(too_new)  # type: ignore[arg-type]
    too_old = types.SimpleNamespace(pathconfig_version_number=lambda: 1000)
    with pytest.raises(ImportError, match="0.1.0"):
        _ffi._check_version(too_old)  # type: ignore[arg-type]
    with pytest.raises(ImportError, match="lacks pathconfig_version, "):
        _ffi._bind(types.SimpleNamespace())  # type: ignore[arg-type]


# --- finding the library (each in a fresh interpreter) ------------------------------

PROBE = "import pathconfig; print(pathconfig.library_path()); print(pathconfig.library_version())"


def run_import(tmp_path: Path, env_changes: Dict[str, Optional[str]], with_packaged_copy: bool) -> subprocess.CompletedProcess:
    """Imports a copy of the package from tmp_path, in a clean environment."""
    target = tmp_path / "site" / "pathconfig"
    shutil.copytree(PACKAGE / "src" / "pathconfig", target,
                    ignore=shutil.ignore_patterns("libpathconfig.so*", "__pycache__"))
    if with_packaged_copy:
        shutil.copyfile(os.environ["PATHCONFIG_LIBRARY"], target / "libpathconfig.so")
    env = {k: v for k, v in os.environ.items() if k not in ("PATHCONFIG_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = str(tmp_path / "site")
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60)


def test_env_var_wins(tmp_path: Path) -> None:
    lib = os.environ["PATHCONFIG_LIBRARY"]
    run = run_import(tmp_path, {"PATHCONFIG_LIBRARY": lib}, with_packaged_copy=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == lib


def test_env_var_that_does_not_load_is_an_import_error(tmp_path: Path) -> None:
    run = run_import(tmp_path, {"PATHCONFIG_LIBRARY": str(tmp_path / "nope.so")}, with_packaged_copy=True)
    assert run.returncode != 0
    assert "ImportError: libpathconfig: PATHCONFIG_LIBRARY=" in run.stderr and "nope.so" in run.stderr
    assert "unset PATHCONFIG_LIBRARY" in run.stderr


def test_env_var_naming_another_library_is_refused(tmp_path: Path) -> None:
    libc = ctypes.util.find_library("c")
    assert libc
    run = run_import(tmp_path, {"PATHCONFIG_LIBRARY": libc}, with_packaged_copy=False)
    assert run.returncode != 0
    assert "does not export pathconfig_version_number (not libpathconfig)" in run.stderr


def test_empty_env_var_is_unset(tmp_path: Path) -> None:
    run = run_import(tmp_path, {"PATHCONFIG_LIBRARY": ""}, with_packaged_copy=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == str(tmp_path / "site" / "pathconfig" / "libpathconfig.so")


def test_packaged_copy(tmp_path: Path) -> None:
    run = run_import(tmp_path, {}, with_packaged_copy=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [str(tmp_path / "site" / "pathconfig" / "libpathconfig.so"), pathconfig.library_version()]


def test_system_library_through_the_soname(tmp_path: Path) -> None:
    libdir = tmp_path / "lib"
    libdir.mkdir()
    (libdir / "libpathconfig.so.1").symlink_to(os.environ["PATHCONFIG_LIBRARY"])
    run = run_import(tmp_path, {"LD_LIBRARY_PATH": str(libdir)}, with_packaged_copy=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] in ("libpathconfig.so.1", ctypes.util.find_library("pathconfig"))


def test_nothing_found_lists_everything_tried(tmp_path: Path) -> None:
    run = run_import(tmp_path, {}, with_packaged_copy=False)
    if ctypes.util.find_library("pathconfig"):  # installed system-wide (make install): found there
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode != 0
    err = run.stderr
    assert "ImportError: libpathconfig could not be loaded. Tried:" in err
    assert "PATHCONFIG_LIBRARY: not set" in err
    assert "libpathconfig.so: not installed in the package" in err
    assert "find_library('pathconfig'): nothing found" in err
    assert "libpathconfig.so.1: " in err
    assert "set PATHCONFIG_LIBRARY=/path/to/libpathconfig.so" in err


def test_imported_from_the_source_tree() -> None:
    assert Path(pathconfig.__file__).resolve().parent == (PACKAGE / "src" / "pathconfig").resolve()
    assert (PACKAGE / "src" / "pathconfig" / "py.typed").is_file()
