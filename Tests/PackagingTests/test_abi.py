"""The ABI guard (scripts/abi.py, `make abi-check`) against the committed baseline.

Each test copies include/ into a temporary directory, changes the copy the way
a developer might, builds a stand-in library from it (`abi.py stub`: a shared
object exporting every function the copy declares, as the real one would after
the change) and runs the check that `make abi-check` runs. The real sources
and the real library are never touched.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
ABI = REPO / "scripts" / "abi.py"
BASELINE = REPO / "packaging" / "libpathconfig.abi"
MAP = REPO / "packaging" / "pathconfig.map"
SONAME = re.search(r"soname='([^']+)'", BASELINE.read_text()).group(1)  # type: ignore[union-attr]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{path.name}: {old!r} is not there exactly once"
    path.write_text(text.replace(old, new))


def check(tmp_path: Path, change: Optional[Callable[[Path], None]] = None,
          soname: str = SONAME) -> subprocess.CompletedProcess:
    """`abi.py check` of a stand-in built from include/ after `change`."""
    include = tmp_path / "include"
    shutil.copytree(REPO / "include", include)
    if change:
        change(include / "pathconfig")
    lib = tmp_path / "libpathconfig.so"
    common = ["--include", str(include), "--version-script", str(MAP)]
    subprocess.run([sys.executable, ABI, "stub", *common, "--soname", soname, "--out", lib], check=True)
    return subprocess.run([sys.executable, ABI, "check", *common, "--lib", lib, "--baseline", BASELINE],
                          capture_output=True, text=True)


def test_the_headers_as_committed_match_the_baseline(tmp_path: Path) -> None:
    result = check(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "the same as" in result.stdout


def test_a_removed_function_fails(tmp_path: Path) -> None:
    result = check(tmp_path, lambda d: edit(d / "config.h", "PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);", ""))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 Removed function" in result.stdout
    assert "pathconfig_rule_count" in result.stdout
    assert "raise SOVERSION" in result.stderr


def test_a_changed_prototype_fails(tmp_path: Path) -> None:
    result = check(tmp_path, lambda d: edit(d / "config.h", "PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);",
                                            "PATHCONFIG_API int pathconfig_rule_count(const pathconfig *cfg, int which);"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "pathconfig_rule_count" in result.stdout
    assert "return type changed" in result.stdout and "parameter 2 of type 'int' was added" in result.stdout


def test_a_changed_struct_layout_fails(tmp_path: Path) -> None:
    # pathconfig_error is allocated by the caller: even a field appended at its end breaks old hosts.
    result = check(tmp_path, lambda d: edit(d / "common.h", "} pathconfig_error;", "    int severity;\n} pathconfig_error;"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "struct pathconfig_error' changed" in result.stdout
    assert "'int severity', at offset 4288 (in bits)" in result.stdout


def test_a_versioned_struct_may_grow_at_its_end(tmp_path: Path) -> None:
    result = check(tmp_path, lambda d: edit(d / "config.h", "} pathconfig_warning;", "    int severity;\n} pathconfig_warning;"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "struct pathconfig_warning grew at its end: severity" in result.stdout


def test_a_versioned_struct_changed_before_its_end_fails(tmp_path: Path) -> None:
    # Retyped and grown at once: libabigail's own suppression would let this pass.
    def change(d: Path) -> None:
        edit(d / "config.h", "    int kind;            /**< A PATHCONFIG_WARNING_*", "    long kind;           /**< A PATHCONFIG_WARNING_*")
        edit(d / "config.h", "} pathconfig_warning;", "    int severity;\n} pathconfig_warning;")

    result = check(tmp_path, change)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "struct pathconfig_warning: members before its end changed: kind" in result.stdout


def test_an_added_function_passes_and_is_listed(tmp_path: Path) -> None:
    result = check(tmp_path, lambda d: edit(d / "config.h", "PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);",
                                            "PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);\n"
                                            "PATHCONFIG_API size_t pathconfig_pattern_count(const pathconfig *cfg);"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 Added function" in result.stdout and "pathconfig_pattern_count" in result.stdout
    assert "compatible with" in result.stdout


def test_an_incompatible_change_passes_with_a_new_soname(tmp_path: Path) -> None:
    major = int(SONAME.rsplit(".", 1)[1])
    result = check(tmp_path, lambda d: edit(d / "config.h", "PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);", ""),
                   soname=f"libpathconfig.so.{major + 1}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pathconfig_rule_count" in result.stdout
    assert f"SONAME {SONAME} in" in result.stdout and "make abi-baseline" in result.stdout


def test_an_export_no_header_declares_stops_the_check(tmp_path: Path) -> None:
    include = tmp_path / "include"
    shutil.copytree(REPO / "include", include)
    lib = tmp_path / "libpathconfig.so"
    common = ["--include", str(include), "--version-script", str(MAP)]
    subprocess.run([sys.executable, ABI, "stub", *common, "--soname", SONAME, "--out", lib], check=True)
    edit(include / "pathconfig" / "config.h", "PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);", "")
    result = subprocess.run([sys.executable, ABI, "check", *common, "--lib", lib, "--baseline", BASELINE],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "exported but declared in no header" in result.stderr and "pathconfig_rule_count" in result.stderr


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
