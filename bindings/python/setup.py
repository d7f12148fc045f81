"""Build hook: put libpathconfig.so, the pathconfig command and the schema inside the package.

Metadata lives in pyproject.toml; this file only adds what follows.

- ``build_py`` copies into the built package (into ``src/pathconfig/`` for an
  editable install):

  - the native library, ``libpathconfig.so``: ``$PATHCONFIG_LIBRARY`` if set;
    ``out/lib/libpathconfig.so`` of the libpathconfig clone this directory
    sits in; otherwise it runs ``make -C <clone> lib`` to build it (Swift
    toolchain needed) and takes that;
  - the command, as ``_bin/pathconfig`` (run by the console script
    ``pathconfig``, the module ``_pathconfig_command``): ``$PATHCONFIG_CLI`` if set;
    ``out/bin/pathconfig`` of the clone; otherwise ``make -C <clone> cli``;
  - the JSON Schema, ``path-configuration.schema.json``: the sdist's copy
    when building from an sdist, else the clone's
    ``docs/path-configuration.schema.json``.
- ``sdist`` puts that schema at the top of the sdist, which carries no
  built library or command (those are named as above).
- ``build_ext`` builds the optional C extension ``pathconfig._speedups``
  (``PathConfiguration.properties``'s call into the library, in C) against
  Python's stable ABI. Where it cannot be built (no C compiler, no Python
  headers) the build goes on without it and the binding calls the library
  through ctypes alone.
- ``bdist_wheel`` tags the wheel ``cp39-abi3-<platform>`` when it carries the
  extension (any CPython from 3.9), else ``py3-none-<platform>``: the Python
  code runs on any Python 3, but the wheel carries native code, so it
  must not claim to be ``py3-none-any``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, Extension, setup
from setuptools.command.build_py import build_py as _build_py
from setuptools.command.sdist import sdist as _sdist

from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent  # the clone: bindings/python/ -> ./
LIB_NAME = "libpathconfig.so"
CLI_NAME = "pathconfig"
SCHEMA_NAME = "path-configuration.schema.json"


def find_built(name: str, env_var: str, built: Path, target: str) -> Path:
    """A file the clone's Makefile builds: ``$env_var`` if set; else ``built``;
    else ``built`` after ``make -C <clone> target`` (Swift toolchain needed)."""
    override = os.environ.get(env_var)
    if override:
        path = Path(override)
        if not path.is_file():
            raise SystemExit(f"{env_var}={override!r} is not a file")
        return path
    if built.is_file():
        return built
    if (REPO / "Package.swift").is_file() and (REPO / "Makefile").is_file():
        print(f"{built} is missing: running make -C {REPO} {target}", flush=True)
        subprocess.run(["make", "-C", str(REPO), target], check=True)
        if built.is_file():
            return built
    raise SystemExit(
        f"cannot find {name}: build from a clone of libpathconfig (make {target} makes {built}), "
        f"or set {env_var}=/path/to/{name}"
    )


def find_library() -> Path:
    """The libpathconfig.so to package (building it when needed)."""
    return find_built(LIB_NAME, "PATHCONFIG_LIBRARY", REPO / "out" / "lib" / LIB_NAME, "lib")


def find_cli() -> Path:
    """The pathconfig command to package (building it when needed): the
    binary `make cli` builds, the one the Debian package installs."""
    return find_built(CLI_NAME, "PATHCONFIG_CLI", REPO / "out" / "bin" / CLI_NAME, "cli")


def find_schema() -> Path:
    """The JSON Schema to package: an sdist's own copy (see :class:`sdist`),
    else the clone's committed docs/path-configuration.schema.json."""
    for path in (HERE / SCHEMA_NAME, REPO / "docs" / SCHEMA_NAME):
        if path.is_file():
            return path
    raise SystemExit(f"cannot find {SCHEMA_NAME}: build from a clone of libpathconfig (docs/{SCHEMA_NAME}) "
                     "or from its sdist")


def copy_into(source: Path, target: Path, mode: int) -> None:
    """``source`` as a real file at ``target`` (symlinks followed: the wheel
    must carry the file itself)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink() or target.exists():
        target.unlink()
    shutil.copyfile(source, target)
    os.chmod(target, mode)
    print(f"packaged {source.resolve()} as {target}", flush=True)


#: What build_py adds to the package, relative to it: (path, finder, mode).
PACKAGED = (
    (LIB_NAME, find_library, 0o755),
    (f"_bin/{CLI_NAME}", find_cli, 0o755),
    (SCHEMA_NAME, find_schema, 0o644),
)


class build_py(_build_py):
    def target_dir(self) -> Path:
        """Where the package is built (its source, for an editable install)."""
        if getattr(self, "editable_mode", False):
            return HERE / "src" / "pathconfig"
        return Path(self.build_lib) / "pathconfig"

    def run(self) -> None:
        super().run()
        for name, find, mode in PACKAGED:
            copy_into(find(), self.target_dir() / name, mode)

    def get_outputs(self, include_bytecode: bool = True) -> list:  # type: ignore[override]
        outputs = list(super().get_outputs(include_bytecode))
        if not getattr(self, "editable_mode", False):
            outputs.extend(str(self.target_dir() / name) for name, _find, _mode in PACKAGED)
        return outputs


class sdist(_sdist):
    """The sdist carries the schema (a text file, unlike the library and the
    command), so that a wheel built from it finds one without a clone."""

    def make_release_tree(self, base_dir: str, files: list) -> None:  # type: ignore[override]
        super().make_release_tree(base_dir, files)
        copy_into(find_schema(), Path(base_dir) / SCHEMA_NAME, 0o644)


SPEEDUPS = Extension(
    "pathconfig._speedups",
    sources=["src/pathconfig/_speedups.c"],
    py_limited_api=True,
    optional=True,  # no compiler: a warning, and the ctypes path
)


class BinaryDistribution(Distribution):
    """Carries native code: installed to platlib, wheel not pure."""

    def has_ext_modules(self) -> bool:
        return True


class bdist_wheel(_bdist_wheel):
    def get_tag(self) -> tuple:
        _python, _abi, platform = super().get_tag()
        build_ext = self.get_finalized_command("build_ext")
        built = os.path.isfile(os.path.join(build_ext.build_lib, build_ext.get_ext_filename(SPEEDUPS.name)))
        return ("cp39", "abi3", platform) if built else ("py3", "none", platform)


setup(
    distclass=BinaryDistribution,
    ext_modules=[SPEEDUPS],
    cmdclass={"build_py": build_py, "sdist": sdist, "bdist_wheel": bdist_wheel},
)
