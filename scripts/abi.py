#!/usr/bin/env python3
"""The C ABI guard: libpathconfig's exported ABI, recorded and compared with libabigail.

What the ABI is here: every function libpathconfig.so exports, with its ELF
symbol version (packaging/pathconfig.map) and the SONAME, and, for each, the
C prototype include/pathconfig.h declares and every type reachable from it
(the layout of pathconfig_error, pathconfig_warning, pathconfig_loader_event,
the callback signatures, the opaque handles).

Why a stand-in: the library is Swift (@_cdecl functions). Its DWARF describes
Swift types, which libabigail does not read, and the shipped copy is stripped,
so `abidw` on it alone sees symbol names only: a removed function, never a
changed one. So this script compiles a stand-in shared object, with DWARF
(-g), that defines exactly the functions the real library exports, each with
the prototype the header declares (copied from it, given a body that traps),
linked with the library's SONAME and version script, and runs `abidw` on
that: the names come from the library, the types from the header, which is
the only contract hosts compile against. A function the library exports that
no header declares stops the dump.

  dump   write the ABI of LIB (with the headers of INCLUDE) as abixml
  check  compare it with a baseline (`abidiff`): fail on any change that is
         not an addition (a removed function, a changed prototype, a changed
         struct layout), unless the SONAME changed as well; additions (new
         functions, and members appended to the VERSIONED_STRUCTS) are
         allowed and listed
  stub   only build the stand-in (the tests use it as a stand-in library)

The Makefile's `abi-check` and `abi-baseline` run `check` and `dump` on
out/lib/libpathconfig.so against packaging/libpathconfig.abi.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

#: A declaration of the API: `PATHCONFIG_API <type> pathconfig_name(<params>);` at
#: the start of a line (parameters hold one level of parentheses: a callback's).
DECLARATION = re.compile(
    r"^PATHCONFIG_API\s+((?:[^;(]|\((?:[^()]|\([^()]*\))*\))*?\b(pathconfig_\w+)\s*\(((?:[^()]|\([^()]*\))*)\))\s*;",
    re.M | re.S,
)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)

#: The structs whose first member is a `version` the reader checks, so that
#: they may grow at their end within a SONAME: pathconfig_warning (the caller
#: says which version it allocated; the library fills no more than that) and
#: pathconfig_loader_event (made by the library; a callback reads a field only
#: when `version` says it is there). pathconfig_error is not one: the caller
#: allocates it with no version, so its size is fixed.
VERSIONED_STRUCTS = ("pathconfig_warning", "pathconfig_loader_event")


class AbiError(Exception):
    """A problem that stops the dump or the check (not an ABI change)."""


def run(args: Sequence[object], check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AbiError(f"{' '.join(map(str, args))} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def declarations(include: Path) -> Dict[str, str]:
    """Every function the headers under `include` declare: name -> declaration text."""
    found: Dict[str, str] = {}
    for header in sorted(include.rglob("*.h")):
        text = COMMENT.sub(" ", header.read_text(encoding="utf-8"))
        for match in DECLARATION.finditer(text):
            found[match.group(2)] = " ".join(match.group(1).split())
    if not found:
        raise AbiError(f"{include}: no PATHCONFIG_API declarations found")
    return found


def exported_functions(lib: Path) -> List[str]:
    """The pathconfig_* functions `lib` defines in its dynamic symbol table."""
    names, data = [], []
    for line in run(["nm", "-D", "--defined-only", lib]).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2].startswith("pathconfig_"):
            (names if fields[1] in ("T", "W", "i") else data).append(fields[2].split("@")[0])
    if data:
        raise AbiError(f"{lib} exports data, which this guard does not cover: {', '.join(sorted(data))} "
                       "(the C API is functions only)")
    if not names:
        raise AbiError(f"{lib}: exports no pathconfig_* function")
    return sorted(set(names))


def soname_of(lib: Path) -> str:
    match = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", run(["readelf", "-d", lib]).stdout)
    if not match:
        raise AbiError(f"{lib}: has no SONAME")
    return match.group(1)


def build_stub(include: Path, names: Sequence[str], soname: str, version_script: Path, out: Path) -> None:
    """The stand-in: each named function defined with the header's prototype."""
    declared = declarations(include)
    undeclared = [n for n in names if n not in declared]
    if undeclared:
        raise AbiError("exported but declared in no header under "
                       f"{include}: {', '.join(undeclared)} (declare them, or stop exporting them)")
    umbrella = "pathconfig.h" if (include / "pathconfig.h").is_file() else None
    lines = ["/* Generated by scripts/abi.py: the header's prototypes, for their DWARF. */"]
    if umbrella:
        lines.append(f"#include <{umbrella}>")
    else:
        lines += [f"#include <{h.relative_to(include)}>" for h in sorted(include.rglob("*.h"))]
    lines += [f"{declared[n]} {{ __builtin_trap(); }}" for n in names]
    source = out.parent / "pathconfig_abi.c"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # gnu2x: a definition may leave a parameter unnamed, as a declaration may.
    cc = os.environ.get("CC", "cc")
    # The debug prefix map keeps the temporary directory out of the ABI file.
    run([cc, "-std=gnu2x", "-g", "-O0", "-fPIC", "-shared", f"-fdebug-prefix-map={out.parent}=.",
         f"-I{include}", "-o", out, source,
         f"-Wl,-soname,{soname}", f"-Wl,--version-script={version_script}"])


def dump(include: Path, lib: Path, version_script: Path, out: Path) -> None:
    """Writes the ABI of `lib` (names, SONAME) with the header's types as abixml."""
    with tempfile.TemporaryDirectory(prefix="pathconfig-abi-") as tmp:
        stub = Path(tmp) / soname_of(lib)
        build_stub(include, exported_functions(lib), soname_of(lib), version_script, stub)
        run(["abidw", "--no-corpus-path", "--no-comp-dir-path", "--no-show-locs", "--no-elf-needed",
             "--headers-dir", include, "--drop-private-types", "--type-id-style", "hash",
             "--out-file", out, stub])


def corpus_soname(abixml: Path) -> str:
    match = re.search(r"<abi-corpus [^>]*\bsoname='([^']*)'", abixml.read_text(encoding="utf-8"))
    return match.group(1) if match else ""


def suppressions(path: Path) -> None:
    """A libabigail suppression letting VERSIONED_STRUCTS grow at their end.

    libabigail 2.2 applies it even when a member before the end changed too,
    so versioned_changes checks those structs itself."""
    path.write_text(
        "[suppress_type]\n"
        "  label = versioned structs grow at their end\n"
        "  type_kind = struct\n"
        f"  name_regexp = ^({'|'.join(VERSIONED_STRUCTS)})$\n"
        "  has_data_member_inserted_at = end\n"
        "  has_size_change = yes\n",
        encoding="utf-8",
    )


def members(abixml: Path) -> Dict[str, Tuple[int, List[Tuple[str, int, str]]]]:
    """For each of VERSIONED_STRUCTS in a corpus: its size and (name, offset, type) per member."""
    root = ET.parse(abixml).getroot()
    types = {e.get("id"): e for e in root.iter() if e.get("id")}

    def name(type_id: Optional[str], depth: int = 0) -> str:
        e = types.get(type_id)
        if e is None or depth > 8:
            return f"?{type_id}"
        below = lambda: name(e.get("type-id"), depth + 1)  # noqa: E731
        if e.tag == "pointer-type-def":
            return below() + "*"
        if e.tag == "qualified-type-def":
            return ("const " if e.get("const") == "yes" else "") + ("volatile " if e.get("volatile") == "yes" else "") + below()
        if e.tag == "array-type-def":
            return below() + "".join(f"[{s.get('length')}]" for s in e.iter("subrange"))
        if e.tag == "function-type":
            params = ", ".join(name(p.get("type-id"), depth + 1) for p in e.iter("parameter"))
            ret = e.find("return")
            return f"{name(ret.get('type-id') if ret is not None else None, depth + 1)}({params})"
        if e.tag == "class-decl":
            return f"struct {e.get('name')}"
        return f"{e.get('name')} ({e.get('size-in-bits')} bits)" if e.tag == "type-decl" else f"{e.get('name')}={below()}"

    found = {}
    for struct in root.iter("class-decl"):
        if struct.get("name") in VERSIONED_STRUCTS and struct.get("is-declaration-only") != "yes":
            found[struct.get("name")] = (
                int(struct.get("size-in-bits") or 0),
                [(v.get("name"), int(m.get("layout-offset-in-bits") or 0), name(v.get("type-id")))
                 for m in struct.iter("data-member") for v in m.iter("var-decl")],
            )
    return found


def versioned_changes(baseline: Path, current: Path) -> Tuple[List[str], List[str]]:
    """How VERSIONED_STRUCTS changed: what breaks (a member before the end
    changed, the struct shrank) and what grew (members appended)."""
    problems, grown = [], []
    old, new = members(baseline), members(current)
    for struct, (size, fields) in old.items():
        if struct not in new:
            continue  # gone from the ABI: abidiff reports the functions that used it
        new_size, new_fields = new[struct]
        if new_fields[: len(fields)] != fields or new_size < size:
            changed = [f"{a[0]} ({a[2]} at bit {a[1]})" for a, b in zip(fields, new_fields + [("", 0, "")] * len(fields)) if a != b]
            problems.append(f"struct {struct}: members before its end changed: {', '.join(changed)}; "
                            "a versioned struct may only grow at its end")
        elif len(new_fields) > len(fields):
            grown.append(f"struct {struct} grew at its end: {', '.join(f[0] for f in new_fields[len(fields):])}")
    return problems, grown


#: abidiff's summary lines: "Functions changes summary: 1 Removed, 2 Changed (3 filtered out), 4 Added functions"
SUMMARY = re.compile(r"^(Functions|Variables) changes summary: (\d+) Removed, (\d+) Changed(?: \(\d+ filtered out\))?, (\d+) Added", re.M)
SYMBOLS = re.compile(r"^(Function|Variable) symbols changes summary: (\d+) Removed, (\d+) Added", re.M)


def check(include: Path, lib: Path, version_script: Path, baseline: Path) -> int:
    """0 when the ABI of `lib` is the baseline's or adds to it (or the SONAME moved); 1 otherwise."""
    if not baseline.is_file():
        raise AbiError(f"no baseline {baseline}: record one with `make abi-baseline`")
    with tempfile.TemporaryDirectory(prefix="pathconfig-abi-") as tmp:
        current = Path(tmp) / "current.abi"
        dump(include, lib, version_script, current)
        suppr = Path(tmp) / "versioned.suppr"
        suppressions(suppr)
        diff = run(["abidiff", "--no-show-locs", "--suppressions", suppr, baseline, current], check=False)
        broken, grown = versioned_changes(baseline, current)
        old, new = corpus_soname(baseline), corpus_soname(current)
    if diff.returncode & 3:  # 1: abidiff failed, 2: usage error
        raise AbiError(f"abidiff failed ({diff.returncode}):\n{diff.stdout}{diff.stderr}")
    report = "\n".join([diff.stdout.strip() if diff.returncode else "", *broken, *grown]).strip()
    if diff.returncode == 0 and not broken and not grown:
        print(f"ABI of {lib.name} ({new}): the same as {baseline}")
        return 0

    removed = changed = added = 0
    for _, r, c, a in SUMMARY.findall(report):
        removed, changed, added = removed + int(r), changed + int(c), added + int(a)
    for _, r, a in SYMBOLS.findall(report):
        removed, added = removed + int(r), added + int(a)
    changed += len(broken)
    added += len(grown)
    incompatible = removed or changed or diff.returncode & 8 or old != new
    print(report)
    if not incompatible:
        print(f"\nABI of {lib.name} ({new}): compatible with {baseline}; {added} added "
              "(allowed; `make abi-baseline` records them)")
        return 0
    if old != new:
        print(f"\nABI of {lib.name}: SONAME {old} in {baseline}, {new} now: an incompatible release, so the "
              "changes above are allowed; record the new ABI with `make abi-baseline`")
        return 0
    print(f"\nABI of {lib.name} ({new}) is incompatible with {baseline}: {removed} removed, {changed} changed "
          "(functions, or structs they use).\n"
          "Hosts built against the baseline would break. Either keep the old functions and layouts (add new "
          "ones beside them), or make an incompatible release: raise SOVERSION in the Makefile (the SONAME's "
          "major) and PATHCONFIG_VERSION_MAJOR, then run `make abi-baseline`.", file=sys.stderr)
    return 1


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("dump", "check", "stub"):
        p = sub.add_parser(name)
        p.add_argument("--include", type=Path, required=True, help="the directory holding pathconfig.h")
        p.add_argument("--version-script", type=Path, required=True, help="packaging/pathconfig.map")
        if name == "stub":
            p.add_argument("--soname", required=True)
            p.add_argument("--out", type=Path, required=True)
        else:
            p.add_argument("--lib", type=Path, required=True, help="the built libpathconfig.so")
            p.add_argument("--out" if name == "dump" else "--baseline", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "stub":
            build_stub(args.include, sorted(declarations(args.include)), args.soname, args.version_script, args.out)
            return 0
        if args.command == "dump":
            dump(args.include, args.lib, args.version_script, args.out)
            print(f"wrote {args.out}: the ABI of {args.lib} ({soname_of(args.lib)}, "
                  f"{len(exported_functions(args.lib))} functions)")
            return 0
        return check(args.include, args.lib, args.version_script, args.baseline)
    except AbiError as error:
        print(f"abi: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
