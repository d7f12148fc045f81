"""Installing from the clone into fresh virtualenvs, as the README says.

1. ``pip install ./bindings/python`` (run from the clone's root) into a new
   venv, then ``import pathconfig`` and resolve with no environment variables.
2. ``pip wheel ./bindings/python``: a platform wheel that carries the library
   and the C extension, installed into a second new venv and run in an
   environment without Swift.

The library packaged is the one under test: when it is the clone's
out/lib/libpathconfig.so the build finds it by itself (exactly the README's
command); otherwise PATHCONFIG_LIBRARY names it for the build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List

import pytest
from conftest import REPO

CHECK = """
import json, pathconfig
doc = '{"settings": {"s": 1}, "rules": [{"patterns": ["/new$"], "properties": {"context": "modal", "n": 2}}]}'
with pathconfig.PathConfiguration.from_json(doc) as cfg:
    props = cfg.properties("https://example.com/messages/new")
    print(json.dumps({
        "file": pathconfig.__file__,
        "library": pathconfig.library_path(),
        "version": pathconfig.__version__,
        "library_version": pathconfig.library_version(),
        "properties": json.loads(cfg.properties_json("https://example.com/messages/new")),
        "str": str(props),
        "context": props.context,
        "settings": cfg.settings,
        "speedups": pathconfig.SPEEDUPS,
    }))
"""


def run(args: List[str], **kwargs) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, args))} failed:\n{result.stdout}\n{result.stderr}"
    return result


def library_under_test() -> Path:
    return Path(os.environ["PATHCONFIG_LIBRARY"]).resolve()


def build_env() -> Dict[str, str]:
    """The environment for pip: the library under test, no Python path leaks."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PATHCONFIG_") and k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    if library_under_test() != (REPO / "out" / "lib" / "libpathconfig.so").resolve():
        env["PATHCONFIG_LIBRARY"] = os.environ["PATHCONFIG_LIBRARY"]
    return env


def bare_env(home: Path) -> Dict[str, str]:
    """A machine without Swift: no LD_LIBRARY_PATH, no toolchain on PATH, no PATHCONFIG_*."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}


def new_venv(path: Path) -> Path:
    run([sys.executable, "-m", "venv", path])
    return path / "bin" / "python"


def check_installed(python: Path, venv: Path, home: Path) -> Dict[str, object]:
    out = json.loads(run([python, "-c", CHECK], env=bare_env(home), cwd=home).stdout)
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"],
                    env=bare_env(home), cwd=home).stdout.strip())
    assert Path(out["file"]).parent == site / "pathconfig"
    assert Path(out["library"]) == site / "pathconfig" / "libpathconfig.so"
    assert (site / "pathconfig" / "py.typed").is_file()
    assert out["properties"] == {"context": "modal", "n": 2} and out["context"] == "modal"
    assert out["str"] == '{"context":"modal","n":2}', "str() of the properties is their JSON"
    assert out["settings"] == {"s": 1}
    assert out["version"] == out["library_version"]
    assert out["speedups"] is True, "pip built the C extension (a C compiler and Python's headers are here)"
    return out


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("home")


def test_pip_install_from_the_clone(tmp_path: Path, home: Path) -> None:
    venv = tmp_path / "v"
    python = new_venv(venv)
    # --no-build-isolation only when the venv has the setuptools pyproject.toml
    # asks for; otherwise pip fetches it from the index, as on a fresh machine.
    can_build = subprocess.run(
        [str(python), "-c", "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 77)"],
        capture_output=True,
    ).returncode == 0
    isolation = ["--no-build-isolation"] if can_build else []
    run([venv / "bin" / "pip", "install", *isolation, "./bindings/python"], cwd=REPO, env=build_env())
    check_installed(python, venv, home)


def test_wheel_carries_the_library_and_runs_without_swift(tmp_path: Path, home: Path) -> None:
    builder = new_venv(tmp_path / "builder")
    wheels = tmp_path / "wheels"
    run([builder, "-m", "pip", "wheel", "--no-deps", "-w", wheels, "./bindings/python"], cwd=REPO, env=build_env())
    [wheel] = list(wheels.glob("libpathconfig-*.whl"))
    tags = wheel.name[: -len(".whl")].split("-")[-3:]
    # The C extension is built for Python's stable ABI: one wheel for every CPython from 3.9.
    assert tags[0] == "cp39" and tags[1] == "abi3" and tags[2] != "any", wheel.name
    assert tags[2].startswith("linux_") or "manylinux" in tags[2], wheel.name
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "pathconfig/libpathconfig.so" in names, names
        assert "pathconfig/_speedups.abi3.so" in names, names
        assert "pathconfig/py.typed" in names and "pathconfig/_speedups.pyi" in names
        info = zf.getinfo("pathconfig/libpathconfig.so")
        assert info.file_size == library_under_test().stat().st_size
        assert "Root-Is-Purelib: false" in zf.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()

    venv = tmp_path / "target"
    python = new_venv(venv)
    run([venv / "bin" / "pip", "install", "--no-index", "--no-deps", wheel], env=bare_env(home))
    out = check_installed(python, venv, home)

    ldd = run(["ldd", out["library"]], env=bare_env(home)).stdout
    assert "swift" not in ldd.lower(), ldd
    assert "not found" not in ldd, ldd


def test_build_runs_make_lib_when_the_library_is_missing(tmp_path: Path) -> None:
    """In a clone without out/lib/libpathconfig.so (and out/bin/pathconfig), the build runs
    `make -C <clone> lib` (and `cli`). (A stand-in clone whose `make lib` copies the library
    under test and whose `make cli` writes a stand-in command, so no Swift build runs.)"""
    import shutil

    clone = tmp_path / "clone"
    shutil.copytree(REPO / "bindings" / "python", clone / "bindings" / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "libpathconfig.so*", "_bin",
                                                  "path-configuration.schema.json", "tests", ".venv"))
    (clone / "docs").mkdir()
    shutil.copyfile(REPO / "docs" / "path-configuration.schema.json", clone / "docs" / "path-configuration.schema.json")
    (clone / "Package.swift").write_text("// stand-in\n")
    (clone / "Makefile").write_text(
        "lib:\n\tmkdir -p out/lib\n\tcp \"$(PATHCONFIG_TEST_SOURCE)\" out/lib/libpathconfig.so.1.1.0\n"
        "\tln -sf libpathconfig.so.1.1.0 out/lib/libpathconfig.so\n\ttouch made-lib\n"
        "cli:\n\tmkdir -p out/bin\n\tprintf '#!/bin/sh\\necho stand-in\\n' > out/bin/pathconfig\n\ttouch made-cli\n"
    )
    env = {k: v for k, v in build_env().items() if k != "PATHCONFIG_LIBRARY"}
    env["PATHCONFIG_TEST_SOURCE"] = str(library_under_test())
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, "./bindings/python"], cwd=clone, env=env)
    assert (clone / "made-lib").is_file() and (clone / "made-cli").is_file()
    [wheel] = list(wheels.glob("libpathconfig-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        assert zf.getinfo("pathconfig/libpathconfig.so").file_size == library_under_test().stat().st_size
        assert zf.read("pathconfig/_bin/pathconfig") == (clone / "out" / "bin" / "pathconfig").read_bytes()


def test_build_outside_a_clone_says_what_to_do(tmp_path: Path) -> None:
    import shutil

    lone = tmp_path / "pathconfig-src"
    shutil.copytree(REPO / "bindings" / "python", lone,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "libpathconfig.so*", "tests", ".venv"))
    env = {k: v for k, v in build_env().items() if k != "PATHCONFIG_LIBRARY"}
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path / "w", str(lone)],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode != 0
    assert "cannot find libpathconfig.so" in result.stdout + result.stderr
    assert "set PATHCONFIG_LIBRARY=/path/to/libpathconfig.so" in result.stdout + result.stderr
