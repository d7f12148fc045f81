"""Build hook: put libpathconfig.so inside the package.

Metadata lives in pyproject.toml; this file only adds two commands:

- ``build_py`` copies the native library into the built package (into
  ``src/pathconfig/`` for an editable install). The library is, in order:
  ``$PATHCONFIG_LIBRARY`` if set; ``out/lib/libpathconfig.so`` of the
  libpathconfig clone this directory sits in; otherwise it runs
  ``make -C <clone> lib`` to build it (Swift toolchain needed) and takes that.
- ``build_ext`` builds the optional C extension ``pathconfig._speedups``
  (``PathConfiguration.properties``'s call into the library, in C) against
  Python's stable ABI. Where it cannot be built (no C compiler, no Python
  headers) the build goes on without it and the binding calls the library
  through ctypes alone.
- ``bdist_wheel`` tags the wheel ``cp39-abi3-<platform>`` when it carries the
  extension (any CPython from 3.9), else ``py3-none-<platform>``: the Python
  code runs on any Python 3, but the wheel carries a native library, so it
  must not claim to be ``py3-none-any``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, Extension, setup
from setuptools.command.build_py import build_py as _build_py

from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent  # the clone: bindings/python/ -> ./
LIB_NAME = "libpathconfig.so"


def find_library() -> Path:
    """The libpathconfig.so to package (building it when needed)."""
    override = os.environ.get("PATHCONFIG_LIBRARY")
    if override:
        path = Path(override)
        if not path.is_file():
            raise SystemExit(f"PATHCONFIG_LIBRARY={override!r} is not a file")
        return path
    built = REPO / "out" / "lib" / LIB_NAME
    if built.is_file():
        return built
    if (REPO / "Package.swift").is_file() and (REPO / "Makefile").is_file():
        print(f"{built} is missing: running make -C {REPO} lib", flush=True)
        subprocess.run(["make", "-C", str(REPO), "lib"], check=True)
        if built.is_file():
            return built
    raise SystemExit(
        f"cannot find {LIB_NAME}: build from a clone of libpathconfig (make lib makes {built}), "
        "or set PATHCONFIG_LIBRARY=/path/to/libpathconfig.so"
    )


class build_py(_build_py):
    def run(self) -> None:
        super().run()
        source = find_library()
        if getattr(self, "editable_mode", False):
            package_dir = HERE / "src" / "pathconfig"
        else:
            package_dir = Path(self.build_lib) / "pathconfig"
        package_dir.mkdir(parents=True, exist_ok=True)
        target = package_dir / LIB_NAME
        # A real file (symlinks followed): the wheel must carry the library itself.
        if target.is_symlink() or target.exists():
            target.unlink()
        shutil.copyfile(source, target)
        os.chmod(target, 0o755)
        print(f"packaged {source.resolve()} as {target}", flush=True)

    def get_outputs(self, include_bytecode: bool = True) -> list:  # type: ignore[override]
        outputs = list(super().get_outputs(include_bytecode))
        if not getattr(self, "editable_mode", False):
            outputs.append(str(Path(self.build_lib) / "pathconfig" / LIB_NAME))
        return outputs


SPEEDUPS = Extension(
    "pathconfig._speedups",
    sources=["src/pathconfig/_speedups.c"],
    py_limited_api=True,
    optional=True,  # no compiler: a warning, and the ctypes path
)


class BinaryDistribution(Distribution):
    """Carries a native library: installed to platlib, wheel not pure."""

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
    cmdclass={"build_py": build_py, "bdist_wheel": bdist_wheel},
)
