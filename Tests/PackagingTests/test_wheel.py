"""The Python distribution `make dist-python` leaves in dist/, used as a user would.

The wheel is installed into a fresh virtual environment and run from a
directory outside the clone, with PATHCONFIG_LIBRARY unset and nothing of a
toolchain on PATH or LD_LIBRARY_PATH: the library it carries (and the
libpcre2-8 and libidn2 auditwheel vendored beside it) must be what loads. The sdist must
build a wheel by itself. `make test-packaging` runs `make dist-python` first
and names its tools' environment in PATHCONFIG_DIST_TOOLS.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List

import pytest

REPO = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("PATHCONFIG_DIST", REPO / "dist"))
VERSION = re.search(r'#define PATHCONFIG_VERSION "([^"]+)"',  # type: ignore[union-attr]
                    (REPO / "include" / "pathconfig" / "common.h").read_text()).group(1)

CONFIG = """{
  "settings": {"tabs": [{"title": "Home", "path": "/"}]},
  "rules": [
    {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
    {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "pull_to_refresh_enabled": false}}
  ]
}
"""

CHECK = """
import importlib.metadata, json, pathconfig, sys
cfg = pathconfig.PathConfiguration.from_file(sys.argv[1])
props = cfg.properties("https://example.com/messages/new")
print(json.dumps({
    "properties": props.json, "context": props.context,
    "other": cfg.properties_json("https://example.com/messages/42"),
    "library": pathconfig.library_path(), "package": pathconfig.__file__,
    "version": pathconfig.__version__, "library_version": pathconfig.library_version(),
    "distribution": importlib.metadata.version("libpathconfig"),
    "speedups": pathconfig.SPEEDUPS,
    # libidn2, vendored: a base URL's host beyond ASCII, IDNA-encoded.
    "idna": pathconfig.PathConfiguration.from_json('{"rules": []}', profile="siesta",
                                                   base_url="https://b\\u00fccher.de").explain("/x")["url"],
}))
"""


def run(args: List[object], **kwargs) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, args))} failed:\n{result.stdout}\n{result.stderr}"
    return result


def bare_env(home: Path) -> Dict[str, str]:
    """A machine without Swift or the clone: no PATHCONFIG_*, no LD_LIBRARY_PATH, a plain PATH."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}


def one(pattern: str) -> Path:
    found = sorted(DIST.glob(pattern))
    assert len(found) == 1, f"{DIST}: want one {pattern}, found {[p.name for p in found]} (run make dist-python)"
    return found[0]


@pytest.fixture(scope="module")
def wheel() -> Path:
    return one(f"libpathconfig-{VERSION}-cp39-abi3-manylinux_*_x86_64.whl")


@pytest.fixture(scope="module")
def sdist() -> Path:
    return one(f"libpathconfig-{VERSION}.tar.gz")


def test_auditwheel_accepts_the_manylinux_tag(wheel: Path) -> None:
    tools = os.environ.get("PATHCONFIG_DIST_TOOLS")
    if not tools:
        pytest.fail("PATHCONFIG_DIST_TOOLS is not set: run this through `make test-packaging`", pytrace=False)
    tag = re.search(r"-(manylinux_\d+_\d+_x86_64)\.whl$", wheel.name).group(1)  # type: ignore[union-attr]
    shown = run([Path(tools) / "bin" / "auditwheel", "show", wheel]).stdout
    assert f'consistent with the following platform tag: "{tag}"' in " ".join(shown.split()), shown
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        wheel_file = zf.read(f"libpathconfig-{VERSION}.dist-info/WHEEL").decode()
    assert "pathconfig/libpathconfig.so" in names
    assert "pathconfig/_speedups.abi3.so" in names, "the C extension, for Python's stable ABI"
    for vendored in ("libpcre2-8", "libidn2", "libunistring"):
        assert any(re.fullmatch(rf"libpathconfig\.libs/{vendored}-[0-9a-f]+\.so[.0-9]*", n) for n in names), (vendored, names)
    assert f"Tag: cp39-abi3-{tag}" in wheel_file and "Root-Is-Purelib: false" in wheel_file


def test_the_wheel_runs_in_a_fresh_venv_outside_the_clone(wheel: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], env=bare_env(home), cwd=home)
    run([venv / "bin" / "pip", "install", "--quiet", "--no-index", "--no-deps", wheel], env=bare_env(home), cwd=home)
    (home / "path-configuration.json").write_text(CONFIG)

    out = json.loads(run([venv / "bin" / "python", "-c", CHECK, "path-configuration.json"],
                         env=bare_env(home), cwd=home).stdout)
    assert out["properties"] == '{"context":"modal","pull_to_refresh_enabled":false}'
    assert out["context"] == "modal"
    assert out["other"] == '{"context":"default","pull_to_refresh_enabled":true}'
    assert out["version"] == out["library_version"] == out["distribution"] == VERSION
    assert out["speedups"] is True, "the wheel's C extension loads"
    package = Path(out["package"]).parent
    assert package.is_relative_to(venv), out
    assert Path(out["library"]) == package / "libpathconfig.so", "the wheel's own copy is the one loaded"

    ldd = run(["ldd", out["library"]], env=bare_env(home)).stdout
    for vendored in ("libpcre2-8", "libidn2"):
        found = re.search(rf"{vendored}\S* => (\S+)", ldd)
        assert found and Path(os.path.realpath(found.group(1))).parent == (package.parent / "libpathconfig.libs").resolve(), ldd
    assert out["idna"] == "https://xn--bcher-kva.de/x"
    assert "swift" not in ldd.lower() and "not found" not in ldd, ldd


def test_the_sdist_builds_a_wheel(sdist: Path, tmp_path: Path) -> None:
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
    top = f"libpathconfig-{VERSION}"
    for member in ("pyproject.toml", "setup.py", "README.md", "src/pathconfig/_version.py", "src/pathconfig/py.typed",
                   "src/pathconfig/_speedups.c"):
        assert f"{top}/{member}" in names, names
    assert not any(n.endswith(".so") for n in names), "the sdist carries no built library"

    # An sdist has no clone around it: the library to package is named, as its README says.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATHCONFIG_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATHCONFIG_LIBRARY"] = str(REPO / "out" / "lib" / "libpathconfig.so")
    run([sys.executable, "-m", "venv", tmp_path / "venv"])
    run([tmp_path / "venv" / "bin" / "pip", "wheel", "--quiet", "--no-deps", "-w", tmp_path / "wheels", sdist],
        env=env, cwd=tmp_path)
    [built] = list((tmp_path / "wheels").glob(f"libpathconfig-{VERSION}-cp39-abi3-linux_x86_64.whl"))
    with zipfile.ZipFile(built) as zf:
        assert zf.getinfo("pathconfig/libpathconfig.so").file_size == Path(env["PATHCONFIG_LIBRARY"]).resolve().stat().st_size
