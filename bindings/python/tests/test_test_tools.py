"""`make test` installs what the suites use (scripts/install-deps.sh), so they
pass on a fresh Debian machine and not only where a tool happens to be there.

Every module a test here imports is the standard library, the package, a
helper of this folder, or a Debian package the script installs (DEBIAN); every
`python -m TOOL` a test runs has its package too, or is pinned in
tests/requirements.txt, which bindings/python's `make test` installs from
PyPI into .venv (mypy); the suite runs on the interpreter those packages serve
(Debian's /usr/bin/python3); and the Rust version the script asks for is the
crate's rust-version.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Dict, Set

from conftest import PACKAGE, REPO, TESTS

# A third-party module a test imports -> the Debian package that provides it
# for /usr/bin/python3. A new import fails this test until it is added here
# and to scripts/install-deps.sh.
DEBIAN: Dict[str, str] = {"pytest": "python3-pytest"}
# `python -m MODULE` run by a test (Debian splits these out of python3).
TOOLS: Dict[str, str] = {"venv": "python3-venv", "ensurepip": "python3-venv", "pip": "python3-pip"}


def installed_by_script() -> Set[str]:
    script = (REPO / "scripts" / "install-deps.sh").read_text()
    names: Set[str] = set()
    for group in re.findall(r"^packages\+?=\(([^)]*)\)", script, re.MULTILINE):
        names.update(group.split())
    return names


def imported_modules() -> Dict[str, str]:
    """Top-level module -> the first test file importing it."""
    found: Dict[str, str] = {}
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], path.name)
    return found


def test_every_third_party_import_is_installed_by_the_script() -> None:
    local = {p.stem for p in TESTS.glob("*.py")} | {"pathconfig", "__future__"}
    packages = installed_by_script()
    for module, where in imported_modules().items():
        if module in sys.stdlib_module_names or module in local:
            continue
        assert module in DEBIAN, (
            f"{where} imports {module!r}, which neither the standard library nor scripts/install-deps.sh "
            "provides: add its Debian package to the script and to DEBIAN here")
        assert DEBIAN[module] in packages, f"scripts/install-deps.sh does not install {DEBIAN[module]} ({module})"


def from_pypi() -> Set[str]:
    """What tests/requirements.txt pins (``name==version``), which
    bindings/python's `make test` installs into .venv before the suite runs."""
    pinned = set()
    for line in (TESTS / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and version, f"tests/requirements.txt: pin {line!r} (name==version)"
            pinned.add(name.strip().lower())
    makefile = (PACKAGE / "Makefile").read_text()
    assert "-r tests/requirements.txt" in makefile and re.search(r"^test: .*\bvenv\b", makefile, re.MULTILINE)
    return pinned


def test_every_python_tool_the_tests_run_is_installed_by_the_script() -> None:
    packages = installed_by_script()
    pypi = from_pypi()
    used = set()
    for path in TESTS.glob("*.py"):
        used.update(re.findall(r'"-m",\s*"(\w+)"', path.read_text()))
    assert {"venv", "pip", "mypy"} <= used, f"the scan missed test_install.py's venv and pip, or mypy: {used}"
    for tool in used:
        if tool in pypi:
            continue
        assert tool in TOOLS, (f"a test runs `python -m {tool}`: add its Debian package to TOOLS and the script, "
                               "or pin it in tests/requirements.txt")
        assert TOOLS[tool] in packages, f"scripts/install-deps.sh does not install {TOOLS[tool]} (python -m {tool})"


def test_the_suite_runs_on_the_interpreter_the_packages_serve() -> None:
    """Debian's python3-* packages install for /usr/bin/python3 only."""
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^PYTHON\s*\?=\s*/usr/bin/python3\s*$", makefile, re.MULTILINE), "Makefile: PYTHON ?= /usr/bin/python3"
    assert "PYTHON=$(PYTHON)" in makefile, "make test-python passes PYTHON to bindings/python"
    assert "python3" in installed_by_script()


def test_the_script_asks_for_the_rust_the_crate_needs() -> None:
    cargo = (PACKAGE.parent / "rust" / "Cargo.toml").read_text()
    crate = re.search(r'^rust-version\s*=\s*"([\d.]+)"', cargo, re.MULTILINE)
    script = re.search(r"^RUST_MIN=([\d.]+)$", (REPO / "scripts" / "install-deps.sh").read_text(), re.MULTILINE)
    assert crate and script, "rust-version in bindings/rust/Cargo.toml, RUST_MIN in scripts/install-deps.sh"
    assert crate.group(1) == script.group(1)
