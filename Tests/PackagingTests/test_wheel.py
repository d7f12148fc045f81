"""The Python distribution `make dist-python` leaves in dist/, used as a user would.

The wheel is installed into a fresh virtual environment and run from a
directory outside the clone, with PATHCONFIG_LIBRARY unset and nothing of a
toolchain on PATH or LD_LIBRARY_PATH: the library it carries (and the
libpcre2-8 and libidn2 auditwheel vendored beside it) must be what loads.
Its `pathconfig` command (the console script that runs the packaged
out/bin/pathconfig) must answer as the clone's out/bin/pathconfig does, the
binary the Debian package installs, and be that binary apart from what
auditwheel changed. The sdist must build a wheel by itself. `make
test-packaging` runs `make dist-python` first and names its tools'
environment in PATHCONFIG_DIST_TOOLS.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("PATHCONFIG_DIST", REPO / "dist"))
CLI = REPO / "out" / "bin" / "pathconfig"
SCHEMA = REPO / "docs" / "path-configuration.schema.json"
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

#: A second version of CONFIG: the edit form becomes a page sheet.
NEXT = CONFIG.replace('"/edit$"], "properties": {"context": "modal"',
                      '"/edit$"], "properties": {"context": "modal", "modal_style": "page_sheet"')

#: One case that holds and one that does not.
CASES = """{"cases": [
  {"url": "https://example.com/messages/new", "properties": {"context": "modal", "pull_to_refresh_enabled": false}},
  {"url": "/messages/42", "properties": {"context": "modal"}, "match": "subset"}
]}
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


class Installed(NamedTuple):
    """The wheel in a fresh venv, and a home directory outside the clone with the test files."""

    venv: Path
    home: Path

    def command(self, *args: str, stdin: Optional[str] = None,
                binary: Optional[Path] = None) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
        """``pathconfig ARGS`` as the venv's console script (or ``binary``) runs it, in home, bare."""
        return subprocess.run([str(binary or self.venv / "bin" / "pathconfig"), *args], input=stdin,
                              capture_output=True, text=True, env=bare_env(self.home), cwd=self.home, timeout=600)

    def same_as_debian(self, *args: str, stdin: Optional[str] = None) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
        """``pathconfig ARGS`` from the wheel, checked against the clone's out/bin/pathconfig
        (the Debian package's binary) run the same way: exit code, stdout and stderr alike."""
        ours, theirs = self.command(*args, stdin=stdin), self.command(*args, stdin=stdin, binary=CLI)
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), args
        return ours


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("installed")
    home = root / "home"
    home.mkdir()
    venv = root / "venv"
    run([sys.executable, "-m", "venv", venv], env=bare_env(home), cwd=home)
    run([venv / "bin" / "pip", "install", "--quiet", "--no-index", "--no-deps", wheel], env=bare_env(home), cwd=home)
    (home / "path-configuration.json").write_text(CONFIG)
    (home / "path-configuration.next.json").write_text(NEXT)
    (home / "broken.json").write_text(CONFIG.replace('"context": "modal",', '"context": "modal"'))
    (home / "path-configuration.cases.json").write_text(CASES)
    return Installed(venv, home)


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
    assert "pathconfig/_bin/pathconfig" in names and "pathconfig/path-configuration.schema.json" in names
    with zipfile.ZipFile(wheel) as zf:
        entry_points = zf.read(f"libpathconfig-{VERSION}.dist-info/entry_points.txt").decode()
    assert "[console_scripts]\npathconfig = _pathconfig_command:main" in entry_points
    for vendored in ("libpcre2-8", "libidn2", "libunistring"):
        assert any(re.fullmatch(rf"libpathconfig\.libs/{vendored}-[0-9a-f]+\.so[.0-9]*", n) for n in names), (vendored, names)
    assert f"Tag: cp39-abi3-{tag}" in wheel_file and "Root-Is-Purelib: false" in wheel_file


def test_the_wheel_runs_in_a_fresh_venv_outside_the_clone(installed: Installed) -> None:
    venv, home = installed
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


def test_the_command_runs_from_the_venv_as_the_debian_binary_does(installed: Installed) -> None:
    """The console script execs the packaged binary: same arguments, streams and exit codes."""
    version = installed.same_as_debian("--version")
    assert (version.returncode, version.stdout) == (0, VERSION + "\n")

    # The Hotwire Native apps: turbo-android, among the four lint reads by default, ignores a file whose tabs are an array.
    good = installed.same_as_debian("validate", "--profile", "hotwire-ios", "--profile", "hotwire-android", "--config", "path-configuration.json")
    assert good.returncode == 0 and good.stdout.startswith("path-configuration.json: ok: 2 rules"), good
    bad = installed.same_as_debian("validate", "--config", "broken.json")
    assert bad.returncode == 1 and re.fullmatch(r"broken\.json:5:\d+: error: .+\n", bad.stderr), bad.stderr

    tested = installed.same_as_debian("test", "--config", "path-configuration.json", "path-configuration.cases.json")
    assert tested.returncode == 1 and "FAIL " in tested.stdout, tested
    assert tested.stdout.endswith("2 checks (2 cases): 1 passed, 1 failed\n"), tested.stdout

    # URLs from standard input; turbo-ios drops the trailing slash before /new$ sees it, hotwire-ios's main branch does not.
    urls = "https://example.com/messages/new/\nhttps://example.com/messages/42\n"
    differ = installed.same_as_debian("diff", "--config", "path-configuration.json", "--profile", "hotwire-ios@main",
                                      "--profile", "turbo-ios", "--exit-code", stdin=urls)
    assert differ.returncode == 1 and "1 of 2 URLs differ between hotwire-ios@main, turbo-ios" in differ.stdout, differ
    changes = installed.same_as_debian("diff", "--config", "path-configuration.json", "--against",
                                       "path-configuration.next.json", "--format", "json", "/messages/1/edit")
    assert changes.returncode == 0 and '"page_sheet"' in changes.stdout, changes

    usage = installed.same_as_debian("validate", "--config", "path-configuration.json", "--no-such-option")
    assert usage.returncode == 2 and "--no-such-option" in usage.stderr, usage

    # port: the file hotwire-android reads as hotwire-ios reads this one, on standard output.
    ported = installed.same_as_debian("port", "--config", "path-configuration.json", "--like", "hotwire-ios",
                                      "--profile", "hotwire-android")
    assert ported.returncode == 0 and '"(?-i)/new$"' in ported.stdout, ported


def test_the_command_does_not_load_the_library(installed: Installed) -> None:
    """The console script never imports the package: a PATHCONFIG_LIBRARY naming nothing, which
    stops ``import pathconfig``, does not stop the command."""
    env = dict(bare_env(installed.home), PATHCONFIG_LIBRARY=str(installed.home / "no-such-library.so"))
    imported = subprocess.run([str(installed.venv / "bin" / "python"), "-c", "import pathconfig"], env=env,
                              cwd=installed.home, capture_output=True, text=True, timeout=600)
    assert imported.returncode != 0, imported
    command = subprocess.run([str(installed.venv / "bin" / "pathconfig"), "--version"], env=env, cwd=installed.home,
                             capture_output=True, text=True, timeout=600)
    assert (command.returncode, command.stdout) == (0, VERSION + "\n"), command


def test_the_command_finds_its_vendored_libraries(installed: Installed) -> None:
    """auditwheel points the binary's RPATH at libpathconfig.libs/, as it does the library's."""
    site = Path(run([installed.venv / "bin" / "python", "-c", "import pathconfig; print(pathconfig.__file__)"],
                    env=bare_env(installed.home), cwd=installed.home).stdout.strip()).parent.parent
    binary = site / "pathconfig" / "_bin" / "pathconfig"
    ldd = run(["ldd", binary], env=bare_env(installed.home)).stdout
    for vendored in ("libpcre2-8", "libidn2", "libunistring"):
        found = re.search(rf"{vendored}\S* => (\S+)", ldd)
        assert found and Path(os.path.realpath(found.group(1))).parent == (site / "libpathconfig.libs").resolve(), ldd
    assert "swift" not in ldd.lower() and "not found" not in ldd, ldd
    dynamic = run(["readelf", "-d", binary]).stdout
    assert "Library rpath: [$ORIGIN/../../libpathconfig.libs]" in dynamic, dynamic


def elf_sections(path: Path) -> Dict[str, str]:
    """Each section of an ELF64 file (x86_64: little-endian) by name: the SHA-256 of its bytes."""
    data = path.read_bytes()
    assert data[:5] == b"\x7fELF\x02", path
    (offset,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, offset + i * entry_size) for i in range(count)]
    names = headers[names_index][4]
    sections = {}
    for name, kind, _flags, _address, start, size in headers:
        body = b"" if kind == 8 else data[start:start + size]  # SHT_NOBITS (.bss) has no bytes
        sections[data[names + name:data.index(b"\0", names + name)].decode()] = hashlib.sha256(body).hexdigest()
    return sections


def test_the_packaged_command_is_out_bin_pathconfig(wheel: Path, tmp_path: Path) -> None:
    """The same binary as the Debian package's: every section byte for byte, but the
    dynamic-linking tables patchelf rewrote for auditwheel (the vendored libraries'
    new names in NEEDED and .gnu.version_r, the RPATH, and the symbols' section
    numbers, renumbered when it moved those tables to the end of the file)."""
    with zipfile.ZipFile(wheel) as zf:
        packaged = Path(zf.extract("pathconfig/_bin/pathconfig", tmp_path))
        assert zf.getinfo("pathconfig/_bin/pathconfig").external_attr >> 16 & 0o111, "executable"
    ours, built = elf_sections(packaged), elf_sections(CLI)
    assert ours.keys() == built.keys()
    rewritten = {".dynamic", ".dynstr", ".dynsym", ".gnu.version_r"}
    changed = {name for name in built if ours[name] != built[name]}
    assert changed <= rewritten, changed
    assert {".text", ".rodata", ".data"} <= built.keys() - changed


def test_the_schema_is_packaged(installed: Installed) -> None:
    """pathconfig.schema_path() is the committed schema, which `pathconfig schema` prints."""
    found = run([installed.venv / "bin" / "python", "-c", "import pathconfig; print(pathconfig.schema_path())"],
                env=bare_env(installed.home), cwd=installed.home).stdout.strip()
    path = Path(found)
    assert path.name == "path-configuration.schema.json" and path.parent.parent.is_relative_to(installed.venv), found
    assert path.read_bytes() == SCHEMA.read_bytes()
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == ("https://raw.githubusercontent.com/libpathconfig/libpathconfig/main/docs/"
                             "path-configuration.schema.json")
    printed = installed.same_as_debian("schema")
    assert printed.returncode == 0 and json.loads(printed.stdout) == schema


def test_the_sdist_builds_a_wheel(sdist: Path, tmp_path: Path) -> None:
    top = f"libpathconfig-{VERSION}"
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
        tf_schema = tf.extractfile(f"{top}/path-configuration.schema.json").read()  # type: ignore[union-attr]
    assert tf_schema == SCHEMA.read_bytes()
    for member in ("pyproject.toml", "setup.py", "README.md", "src/pathconfig/_version.py", "src/pathconfig/py.typed",
                   "src/pathconfig/_speedups.c", "src/_pathconfig_command.py", "path-configuration.schema.json"):
        assert f"{top}/{member}" in names, names
    assert not any(n.endswith(".so") for n in names), "the sdist carries no built library"
    assert f"{top}/src/pathconfig/_bin/pathconfig" not in names, "nor the command"

    # An sdist has no clone around it: the library and the command to package are named, as its README says.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATHCONFIG_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATHCONFIG_LIBRARY"] = str(REPO / "out" / "lib" / "libpathconfig.so")
    env["PATHCONFIG_CLI"] = str(CLI)
    run([sys.executable, "-m", "venv", tmp_path / "venv"])
    run([tmp_path / "venv" / "bin" / "pip", "wheel", "--quiet", "--no-deps", "-w", tmp_path / "wheels", sdist],
        env=env, cwd=tmp_path)
    [built] = list((tmp_path / "wheels").glob(f"libpathconfig-{VERSION}-cp39-abi3-linux_x86_64.whl"))
    with zipfile.ZipFile(built) as zf:
        assert zf.getinfo("pathconfig/libpathconfig.so").file_size == Path(env["PATHCONFIG_LIBRARY"]).resolve().stat().st_size
        assert zf.read("pathconfig/_bin/pathconfig") == CLI.read_bytes()
        assert zf.read("pathconfig/path-configuration.schema.json") == tf_schema
