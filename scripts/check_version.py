#!/usr/bin/env python3
"""Checks that every place that states libpathconfig's version agrees with the one source.

The version is ``PATHCONFIG_VERSION`` (and its ``_MAJOR``, ``_MINOR``,
``_PATCH`` and ``_NUMBER`` macros) in include/pathconfig/common.h. The tools
that cannot read it at build time state it again, and this script compares
each of them with it:

- Sources/PathConfigCore/Resolution/Version.swift (the library's ``pathconfig_version()``
  and ``pathconfig --version``),
- bindings/python/src/pathconfig/_version.py (``__version__``, which
  pyproject.toml reads) and ``HEADER_VERSION`` of _ffi.py,
- bindings/rust/Cargo.toml and Cargo.lock (the crate's version) and
  ``PATHCONFIG_VERSION*`` of src/sys.rs,
- bindings/ruby/lib/pathconfig/version.rb (the gem's ``Pathconfig::VERSION``,
  which pathconfig.gemspec reads) and ``HEADER_VERSION*`` of native.rb,

the SONAME's number (``SOVERSION`` in the Makefile), which is the MAJOR
version (the header's ABI promise), and, when given, what the built artefacts say: ``pathconfig_version()`` and
``pathconfig_version_number()`` of a built library (``--lib``) and
``pathconfig --version`` (``--cli``). The Makefile reads the header itself
(``VERSION``), so pathconfig.pc and the release file names follow it.

Prints one line per place that disagrees, naming the file, and exits 1; exits
0 silently but for a one-line summary when all agree.
"""

from __future__ import annotations

import argparse
import ctypes
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Callable, List, Optional, Tuple

HEADER = "include/pathconfig/common.h"


def header_version(repo: Path) -> Tuple[str, List[str]]:
    """The header's version string, and what is inconsistent inside the header."""
    text = (repo / HEADER).read_text(encoding="utf-8")

    def macro(name: str) -> Optional[str]:
        match = re.search(rf"^#define {name} (\S+)", text, re.M)
        return match.group(1) if match else None

    string = macro("PATHCONFIG_VERSION")
    if string is None or not re.fullmatch(r'"\d+\.\d+\.\d+"', string):
        raise SystemExit(f'{HEADER}: no #define PATHCONFIG_VERSION "MAJOR.MINOR.PATCH"')
    version = string.strip('"')
    major, minor, patch = (int(p) for p in version.split("."))
    problems = []
    for name, want in (("MAJOR", major), ("MINOR", minor), ("PATCH", patch),
                       ("NUMBER", major * 1_000_000 + minor * 1_000 + patch)):
        if macro(f"PATHCONFIG_VERSION_{name}") != str(want):
            problems.append(f"{HEADER}: PATHCONFIG_VERSION_{name} is {macro(f'PATHCONFIG_VERSION_{name}')}, "
                            f"PATHCONFIG_VERSION {version} makes it {want}")
    return version, problems


def swift_version(text: str) -> Optional[str]:
    parts = [re.search(rf"static let {p}: Int32 = (\d+)", text) for p in ("major", "minor", "patch")]
    string = re.search(r'static let string: StaticString = "([^"]*)"', text)
    if not all(parts) or string is None:
        return None
    numbers = ".".join(m.group(1) for m in parts)  # type: ignore[union-attr]
    return string.group(1) if numbers == string.group(1) else f"{string.group(1)} (major/minor/patch say {numbers})"


def python_version(text: str) -> Optional[str]:
    match = re.search(r'^__version__ = "([^"]*)"', text, re.M)
    return match.group(1) if match else None


def ffi_version(text: str) -> Optional[str]:
    string = re.search(r'^HEADER_VERSION = "([^"]*)"', text, re.M)
    number = re.search(r"^HEADER_VERSION_NUMBER = (\d+)", text, re.M)
    return f"{string.group(1)} ({number.group(1)})" if string and number else None


def ruby_version(text: str) -> Optional[str]:
    match = re.search(r'^\s*VERSION = "([^"]*)"', text, re.M)
    return match.group(1) if match else None


def ruby_native_version(text: str) -> Optional[str]:
    string = re.search(r'^\s*HEADER_VERSION = "([^"]*)"', text, re.M)
    number = re.search(r"^\s*HEADER_VERSION_NUMBER = (\d+)", text, re.M)
    return f"{string.group(1)} ({number.group(1)})" if string and number else None


def cargo_version(text: str) -> Optional[str]:
    return tomllib.loads(text).get("package", {}).get("version")


def lock_version(text: str) -> Optional[str]:
    for package in tomllib.loads(text).get("package", []):
        if package.get("name") == "pathconfig":
            return package.get("version")
    return None


def sys_rs_version(text: str) -> Optional[str]:
    string = re.search(r'pub const PATHCONFIG_VERSION: &str = "([^"]*)";', text)
    number = re.search(r"pub const PATHCONFIG_VERSION_NUMBER: c_int = (\d+);", text)
    return f"{string.group(1)} ({number.group(1)})" if string and number else None


#: (file, what it states, how to read it, whether it also states the number)
SOURCES: List[Tuple[str, str, Callable[[str], Optional[str]], bool]] = [
    ("Sources/PathConfigCore/Resolution/Version.swift", "PathConfigurationVersion", swift_version, False),
    ("bindings/python/src/pathconfig/_version.py", "__version__", python_version, False),
    ("bindings/python/src/pathconfig/_ffi.py", "HEADER_VERSION (HEADER_VERSION_NUMBER)", ffi_version, True),
    ("bindings/rust/Cargo.toml", "[package] version", cargo_version, False),
    ("bindings/rust/Cargo.lock", "the pathconfig package's version", lock_version, False),
    ("bindings/rust/src/sys.rs", "PATHCONFIG_VERSION (PATHCONFIG_VERSION_NUMBER)", sys_rs_version, True),
    ("bindings/ruby/lib/pathconfig/version.rb", "Pathconfig::VERSION", ruby_version, False),
    ("bindings/ruby/lib/pathconfig/native.rb", "HEADER_VERSION (HEADER_VERSION_NUMBER)", ruby_native_version, True),
]


def major_of(version: str) -> int:
    return int(version.split(".")[0])


def number_of(version: str) -> int:
    major, minor, patch = (int(p) for p in version.split("."))
    return major * 1_000_000 + minor * 1_000 + patch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--lib", type=Path, help="a built libpathconfig.so to ask pathconfig_version()")
    parser.add_argument("--cli", type=Path, help="a built pathconfig command to ask --version")
    args = parser.parse_args()

    version, problems = header_version(args.repo)
    number = number_of(version)
    for path, what, read, with_number in SOURCES:
        file = args.repo / path
        if not file.is_file():
            problems.append(f"{path}: missing")
            continue
        found = read(file.read_text(encoding="utf-8"))
        want = f"{version} ({number})" if with_number else version
        if found != want:
            problems.append(f"{path}: {what} is {found or 'not found'}, {HEADER} says {want}")
    checked = [path for path, *_ in SOURCES]

    makefile = args.repo / "Makefile"
    soversion = re.search(r"^SOVERSION\s*:?=\s*(\S+)", makefile.read_text(encoding="utf-8"), re.M) if makefile.is_file() else None
    if soversion is None:
        problems.append("Makefile: no SOVERSION := N")
    elif soversion.group(1) != str(major_of(version)):
        problems.append(f"Makefile: SOVERSION is {soversion.group(1)}, the SONAME's number must be the MAJOR "
                        f"version {major_of(version)} of {HEADER}")
    checked.append("Makefile's SOVERSION")

    if args.lib:
        lib = ctypes.CDLL(str(args.lib))
        lib.pathconfig_version.restype = ctypes.c_char_p
        said = (lib.pathconfig_version().decode(), lib.pathconfig_version_number())
        if said != (version, number):
            problems.append(f"{args.lib}: pathconfig_version() and _number() say {said[0]} and {said[1]}, "
                            f"{HEADER} says {version} ({number})")
        checked.append("pathconfig_version()")
    if args.cli:
        said = subprocess.run([str(args.cli), "--version"], capture_output=True, text=True, check=True).stdout.strip()
        if said != version:
            problems.append(f"{args.cli}: --version prints {said!r}, {HEADER} says {version}")
        checked.append("pathconfig --version")

    if problems:
        print(f"version disagreement: {HEADER} says PATHCONFIG_VERSION {version}; every place below must say it too",
              file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"version {version}: {HEADER} and {', '.join(checked)} agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
