"""scripts/check_version.py (`make check-version`): one version, stated everywhere.

Each test copies the files the check reads into a temporary tree, changes the
copy and runs the check on it; the real files are never touched.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "check_version.py"
_spec = importlib.util.spec_from_file_location("check_version", SCRIPT)
check_version = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(check_version)  # type: ignore[union-attr]

FILES: List[str] = [check_version.HEADER, *(path for path, *_ in check_version.SOURCES), "Makefile"]
VERSION = re.search(r'#define PATHCONFIG_VERSION "([^"]+)"', (REPO / check_version.HEADER).read_text()).group(1)  # type: ignore[union-attr]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for path in FILES:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / path, tmp_path / path)
    return tmp_path


def run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, SCRIPT, "--repo", str(repo), *args], capture_output=True, text=True)


def test_the_committed_files_agree(tree: Path) -> None:
    result = run(tree)
    assert result.returncode == 0, result.stderr
    assert f"version {VERSION}:" in result.stdout


@pytest.mark.parametrize("path", [path for path, *_ in check_version.SOURCES])
def test_a_file_that_disagrees_is_named(tree: Path, path: str) -> None:
    file = tree / path
    text = file.read_text()
    assert f'"{VERSION}"' in text, f"{path} does not state {VERSION} in quotes"
    file.write_text(text.replace(f'"{VERSION}"', '"9.8.7"', 1))
    result = run(tree)
    assert result.returncode == 1
    lines = [line.strip() for line in result.stderr.splitlines()[1:]]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:"), result.stderr
    assert "9.8.7" in lines[0] and VERSION in lines[0]


def test_a_new_header_version_names_every_file_still_on_the_old_one(tree: Path) -> None:
    header = tree / check_version.HEADER
    major, minor, patch = (int(p) for p in VERSION.split("."))
    text = header.read_text().replace(f'"{VERSION}"', f'"{major}.{minor}.{patch + 1}"')
    text = re.sub(r"#define PATHCONFIG_VERSION_PATCH \d+", f"#define PATHCONFIG_VERSION_PATCH {patch + 1}", text)
    text = re.sub(r"#define PATHCONFIG_VERSION_NUMBER \d+",
                  f"#define PATHCONFIG_VERSION_NUMBER {major * 1_000_000 + minor * 1_000 + patch + 1}", text)
    header.write_text(text)
    result = run(tree)
    assert result.returncode == 1
    named = {line.strip().split(":")[0] for line in result.stderr.splitlines()[1:]}
    assert named == {path for path, *_ in check_version.SOURCES}


def test_the_header_macros_must_agree_with_each_other(tree: Path) -> None:
    header = tree / check_version.HEADER
    header.write_text(re.sub(r"#define PATHCONFIG_VERSION_NUMBER \d+", "#define PATHCONFIG_VERSION_NUMBER 42", header.read_text()))
    result = run(tree)
    assert result.returncode == 1
    assert f"{check_version.HEADER}: PATHCONFIG_VERSION_NUMBER is 42" in result.stderr


def test_the_soname_follows_the_major_version(tree: Path) -> None:
    makefile = tree / "Makefile"
    major = int(VERSION.split(".")[0])
    makefile.write_text(re.sub(r"^SOVERSION(\s*):=.*$", rf"SOVERSION\1:= {major + 1}", makefile.read_text(), count=1, flags=re.M))
    result = run(tree)
    assert result.returncode == 1
    assert f"Makefile: SOVERSION is {major + 1}, the SONAME's number must be the MAJOR version {major}" in result.stderr


def test_a_built_library_and_command_are_asked(tree: Path, tmp_path: Path) -> None:
    """--cli runs the command; a stand-in that prints another version is named."""
    cli = tmp_path / "pathconfig"
    cli.write_text("#!/bin/sh\necho 0.0.1\n")
    cli.chmod(0o755)
    result = run(tree, "--cli", str(cli))
    assert result.returncode == 1
    assert f"{cli}: --version prints '0.0.1'" in result.stderr
