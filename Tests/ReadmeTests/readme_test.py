"""Runs every code block of the READMEs as a reader would, so they cannot rot.

    python3 Tests/ReadmeTests/readme_test.py --repo . --lib out/lib README.md bindings/python/README.md ...

(`make test-readme` runs it on README.md, each page of docs/ and the
bindings' READMEs, after `make lib cli`.) Each Markdown file is read top to
bottom, as a reader would follow it, in a fresh scratch directory of its
own: a new HOME (holding `~/libpathconfig`, a link to the clone, for the
Swift package snippet's `../libpathconfig`), a new /tmp and a new
/usr/local.

- Shell blocks (sh, shell, bash, console) run with bash -e from the top of the
  clone, as the READMEs say (`cwd ~/DIR` notes say otherwise). A block of
  `$ command` lines is a terminal session: each command's shown output must be
  what it prints. A process a block starts in the background (a server) lives
  until the end of its file.
- C blocks are compiled against the built header and library and run.
- Python blocks run with PATHCONFIG_LIBRARY naming the built library; the
  values their comments show are checked (python_values.py).
- Swift blocks are built as the main.swift of the package the README's
  Package.swift block describes (written by a `file` note), and run. Files
  that write the same Package.swift share that package's build (its folder is
  a link to one folder, emptied of all but the build for each file), so the
  library builds once, not once a file.
- Ruby blocks run with Debian's ruby, the gem loaded from bindings/ruby/lib
  (`ruby -I`) and PATHCONFIG_LIBRARY naming the built library; an `output`
  block after one shows what it prints.
- Rust blocks are built as programs depending on bindings/rust by path, and
  run unless marked no_run.
- json blocks must parse; text, toml and other data blocks are shown, not run.
  A block with no info string, or one no runner knows, must carry a note.
- Notes (<!-- readme-test: ... --> just above a block; see markdown_blocks.py):
  `skip: WHY`, `output` (the previous block's standard output, exactly),
  `file ~/PATH`, `cwd ~/DIR`.

What a reader has that the test must stand in for: these strings in blocks
are replaced before a block runs, and back in what it prints: the clone's own
path for `/path/to/libpathconfig`, the scratch prefix for `/usr/local` (put on
PATH, PKG_CONFIG_PATH and LD_LIBRARY_PATH, as a system prefix is after
ldconfig), the scratch /tmp for `/tmp/`. Programs run from the top of the clone.
After all files, the clone must hold no file the blocks made.

Prints one line per block and ends with `N passed, N failed, N skipped`;
exits 1 when any block failed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from markdown_blocks import Block, ReadmeError, read_blocks, transcript  # noqa: E402

SHELL = {"sh", "shell", "bash", "console"}
DATA = {"text", "txt", "toml", "yaml", "ini", "diff"}
BLOCK_TIMEOUT = 900
HERE = Path(__file__).resolve().parent
DROPPED_ENV = {
    "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR",
    "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "RUSTFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
}


class BlockFailed(Exception):
    """A block did not do what the README says."""


@dataclass
class Ran:
    status: int
    stdout: str
    stderr: str


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: List[str] = field(default_factory=list)


class Document:
    """One README, followed top to bottom in a scratch directory of its own."""

    def __init__(self, repo: Path, lib: Path, include: Path, scratch: Path, cargo_target: Path,
                 swift_packages: Path):
        self.repo, self.lib, self.include, self.scratch = repo, lib, include, scratch
        self.cargo_target, self.swift_packages = cargo_target, swift_packages
        self.home = scratch / "home"
        self.tmp = scratch / "tmp"
        self.prefix = scratch / "usr" / "local"
        self.work = scratch / "blocks"
        for d in (self.home, self.tmp, self.prefix / "bin", self.work):
            d.mkdir(parents=True, exist_ok=True)
        (self.home / "libpathconfig").symlink_to(repo)
        self.env = self._environment()
        self.groups: List[int] = []
        self.last_stdout: Optional[str] = None
        self.swift_package: Optional[Path] = None
        self.rust_blocks: Dict[str, Block] = {}
        self.rust_built: Dict[str, Optional[str]] = {}
        self.counter = 0

    def _environment(self) -> Dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PATHCONFIG_") and k not in DROPPED_ENV}
        real_home = Path(os.environ.get("HOME", str(Path.home())))
        for var, default in (("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup"), ("PYENV_ROOT", ".pyenv")):
            if var not in env and (real_home / default).is_dir():
                env[var] = str(real_home / default)  # the reader's toolchains, with a new HOME
        env["HOME"] = str(self.home)
        env["PATH"] = f"{self.prefix}/bin:{env.get('PATH', '/usr/bin:/bin')}"
        env["PKG_CONFIG_PATH"] = f"{self.prefix}/lib/pkgconfig"
        env["LD_LIBRARY_PATH"] = f"{self.prefix}/lib"
        env["CARGO_NET_OFFLINE"] = "true"
        return env

    # -- text in and out -------------------------------------------------

    def substitute(self, text: str) -> str:
        """One pass, so that a replacement is never replaced again."""
        real = {"/path/to/libpathconfig": str(self.repo), "/usr/local": str(self.prefix), "/tmp/": f"{self.tmp}/"}
        return re.sub(r"/path/to/libpathconfig|/usr/local|(?<![\w.~-])/tmp/", lambda m: real[m.group(0)], text)

    def unsubstitute(self, text: str) -> str:
        for real, shown in ((f"{self.tmp}/", "/tmp/"), (str(self.prefix), "/usr/local"),
                            (str(self.home), "~"), (str(self.repo), "/path/to/libpathconfig")):
            text = text.replace(real, shown)
        return text

    def expand(self, path: str) -> Path:
        if not path.startswith("~/"):
            raise BlockFailed(f"note path {path!r} must start with ~/ (the scratch HOME)")
        return self.home / path[2:]

    # -- running ---------------------------------------------------------

    def shell(self, script: str, cwd: Path, merge: bool = False, env: Optional[Dict[str, str]] = None) -> Ran:
        """bash -e; its own process group, so that what it leaves running is stopped at the end."""
        self.counter += 1
        out_path, err_path = self.work / f"sh{self.counter}.out", self.work / f"sh{self.counter}.err"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env or self.env,
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=out if merge else err,
                                    start_new_session=True)
            self.groups.append(proc.pid)
            try:
                status = proc.wait(timeout=BLOCK_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._kill(proc.pid)
                raise BlockFailed(f"still running after {BLOCK_TIMEOUT} s: {script.strip()[:200]}")
        return Ran(status, out_path.read_text(errors="replace"), err_path.read_text(errors="replace"))

    def program(self, argv: List[str], env: Dict[str, str], cwd: Path) -> Ran:
        try:
            done = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, errors="replace", timeout=BLOCK_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise BlockFailed(f"{argv[0]} still running after {BLOCK_TIMEOUT} s")
        return Ran(done.returncode, done.stdout, done.stderr)

    def stop_background(self) -> None:
        for pgid in self.groups:
            self._kill(pgid)
        self.groups.clear()

    @staticmethod
    def _kill(pgid: int) -> None:
        try:
            os.killpg(pgid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass

    # -- the kinds of block ----------------------------------------------

    def run_block(self, block: Block) -> str:
        """Runs or checks one block; returns what was done, raises BlockFailed."""
        note, lang = block.note, block.lang
        if note.output:
            return self.check_output(block)
        if note.file:
            target = self.expand(note.file)
            text = self.substitute(block.text)
            if lang == "swift" and target.name == "Package.swift":
                self.swift_package = self.shared_package(target.parent, text)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            return f"written to {note.file}"
        if lang in SHELL:
            return self.run_shell(block)
        if lang == "c":
            return self.run_c(block)
        if lang in ("python", "py"):
            return self.run_python(block)
        if lang in ("ruby", "rb"):
            return self.run_ruby(block)
        if lang == "swift":
            return self.run_swift(block)
        if lang == "rust":
            return self.run_rust(block)
        if lang == "json":
            try:
                json.loads(block.text)
            except ValueError as e:
                raise BlockFailed(f"not JSON: {e}")
            return "parsed"
        raise BlockFailed(f"no runner for ```{block.info}: mark it <!-- readme-test: skip: WHY --> "
                          "or give it an info string (text for output or a synopsis)")

    def check_output(self, block: Block) -> str:
        if self.last_stdout is None:
            raise BlockFailed("an output block with no block run before it")
        expected = block.text.rstrip("\n")
        actual = self.unsubstitute(self.last_stdout).rstrip("\n")
        if actual != expected:
            raise BlockFailed(f"the README shows\n{_indent(expected)}\nbut the block before printed\n{_indent(actual)}")
        self.last_stdout = None
        return "matches the output of the block before"

    def cwd_of(self, block: Block) -> Path:
        return self.expand(block.note.cwd) if block.note.cwd else self.repo

    def run_shell(self, block: Block) -> str:
        cwd = self.cwd_of(block)
        steps = transcript(block.text)
        if steps is None:
            ran = self.shell(self.substitute(block.text), cwd)
            if ran.status != 0:
                raise BlockFailed(f"exit status {ran.status}\n{_indent(_tail(ran.stdout + ran.stderr))}")
            self.last_stdout = ran.stdout
            return "ran"
        for command, expected in steps:
            ran = self.shell(self.substitute(command), cwd, merge=True)
            shown = self.unsubstitute(ran.stdout)
            if expected is None:
                if ran.status != 0:
                    raise BlockFailed(f"$ {command}\nexit status {ran.status}\n{_indent(shown)}")
            elif shown.rstrip("\n") != expected.rstrip("\n"):
                raise BlockFailed(f"$ {command}\nthe README shows\n{_indent(expected)}\nbut it printed\n{_indent(shown)}")
        self.last_stdout = None
        checked = sum(1 for _, e in steps if e is not None)
        return f"{len(steps)} commands, {checked} outputs compared"

    def run_c(self, block: Block) -> str:
        name = f"c_{block.line}"
        source = self.work / f"{name}.c"
        source.write_text(self.substitute(block.text), encoding="utf-8")
        binary = self.work / name
        cc = os.environ.get("CC", "cc")
        built = self.program([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{self.include}", str(source),
                              f"-L{self.lib}", f"-Wl,-rpath,{self.lib}", "-lpathconfig", "-o", str(binary)],
                             self.env, self.work)
        if built.status != 0:
            raise BlockFailed(f"does not compile:\n{_indent(built.stdout + built.stderr)}")
        return self.finish(self.program([str(binary)], self.env, self.repo), "compiled, ran")

    def run_python(self, block: Block) -> str:
        script = self.work / f"py_{block.line}.py"
        script.write_text(self.substitute(block.text), encoding="utf-8")
        env = dict(self.env, PYTHONPATH=str(self.repo / "bindings" / "python" / "src"),
                   PATHCONFIG_LIBRARY=str(self.lib / "libpathconfig.so"))
        ran = self.program([sys.executable, str(HERE / "python_values.py"), str(script)], env, self.repo)
        values = ran.stderr.count(": ok (line ")
        return self.finish(ran, f"ran, {values} values checked")

    def run_ruby(self, block: Block) -> str:
        script = self.work / f"rb_{block.line}.rb"
        script.write_text(self.substitute(block.text), encoding="utf-8")
        env = dict(self.env, PATHCONFIG_LIBRARY=str(self.lib / "libpathconfig.so"))
        ruby = os.environ.get("RUBY", "ruby")
        ran = self.program([ruby, "-I", str(self.repo / "bindings" / "ruby" / "lib"), str(script)], env, self.repo)
        return self.finish(ran, "ran")

    def shared_package(self, folder: Path, manifest: str) -> Path:
        """The folder of a Package.swift, ~/DIR: a link to a folder shared by every
        file whose blocks write the same manifest, so that SwiftPM (which resolves
        the link) builds the library once for all of them rather than once a file.
        Each file starts it afresh, with only the build kept: what an earlier file
        wrote there (its Sources/) is removed. Beside it, libpathconfig is the
        clone, as it is beside ~/DIR. A folder that already exists stays the file's own."""
        if folder.exists() or folder.is_symlink():
            return folder
        key = hashlib.sha256(f"{folder.name}\n{manifest}".encode()).hexdigest()[:16]
        shared = self.swift_packages / key / folder.name
        shared.mkdir(parents=True, exist_ok=True)
        if not (shared.parent / "libpathconfig").is_symlink():
            (shared.parent / "libpathconfig").symlink_to(self.repo)
        for entry in shared.iterdir():
            if entry.name == ".build":
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.symlink_to(shared, target_is_directory=True)
        return folder

    def run_swift(self, block: Block) -> str:
        if block.text.startswith("// swift-tools-version"):
            raise BlockFailed("a Package.swift block needs <!-- readme-test: file ~/DIR/Package.swift -->")
        if self.swift_package is None:
            raise BlockFailed("no Package.swift block (with a file note) before this Swift block")
        manifest = (self.swift_package / "Package.swift").read_text()
        target = re.search(r'\.executableTarget\(\s*name:\s*"([^"]+)"', manifest)
        if not target:
            raise BlockFailed("the README's Package.swift has no .executableTarget(name: ...)")
        sources = self.swift_package / "Sources" / target.group(1)
        sources.mkdir(parents=True, exist_ok=True)
        (sources / "main.swift").write_text(self.substitute(block.text), encoding="utf-8")
        built = self.program(["swift", "build", "--product", target.group(1)], self.env, self.swift_package)
        if built.status != 0:
            raise BlockFailed(f"swift build failed:\n{_indent(_tail(built.stdout + built.stderr))}")
        binary = self.swift_package / ".build" / "debug" / target.group(1)
        return self.finish(self.program([str(binary)], self.env, self.repo), "built in the package, ran")

    def run_rust(self, block: Block) -> str:
        attrs = set(block.attrs)
        unknown = attrs - {"no_run", "ignore"}
        if unknown:
            raise BlockFailed(f"unknown rust attributes {sorted(unknown)}")
        if "ignore" in attrs:
            raise Skipped("rust,ignore")
        if not re.search(r"\bfn main\s*\(", block.text):
            raise BlockFailed("a rust block without fn main: write the program whole, or mark it skip")
        name = f"block_{block.line}"
        error = self.rust_build(name)
        if error is not None:
            raise BlockFailed(f"does not compile:\n{_indent(_tail(error))}")
        if "no_run" in attrs:
            return "compiled (no_run)"
        binary = self.cargo_target / "debug" / name
        env = dict(self.env, LD_LIBRARY_PATH=str(self.lib))
        return self.finish(self.program([str(binary)], env, self.repo), "compiled, ran")

    def prepare_rust(self, blocks: List[Block]) -> None:
        """One Cargo package for every standalone Rust block of the file (the crate builds once)."""
        self.rust_blocks = {f"block_{b.line}": b for b in blocks
                            if b.lang == "rust" and not b.note.skip and not b.note.file and not b.note.output
                            and "ignore" not in b.attrs and re.search(r"\bfn main\s*\(", b.text)}

    def rust_build(self, name: str) -> Optional[str]:
        """None when the program built; the compiler's messages otherwise."""
        if not self.rust_built:
            package = self.scratch / "rust-blocks"
            (package / "src" / "bin").mkdir(parents=True, exist_ok=True)
            (package / "Cargo.toml").write_text(
                '[package]\nname = "readme-blocks"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
                f'[dependencies]\npathconfig = {{ path = "{self.repo}/bindings/rust" }}\n')
            for bin_name, b in self.rust_blocks.items():
                (package / "src" / "bin" / f"{bin_name}.rs").write_text(self.substitute(b.text))
            env = dict(self.env, PATHCONFIG_LIB_DIR=str(self.lib), CARGO_TARGET_DIR=str(self.cargo_target))
            whole = self.program(["cargo", "build", "--offline", "--bins"], env, package)
            for bin_name in self.rust_blocks:
                if whole.status == 0:
                    self.rust_built[bin_name] = None
                else:  # which ones: build each alone
                    one = self.program(["cargo", "build", "--offline", "--bin", bin_name], env, package)
                    self.rust_built[bin_name] = None if one.status == 0 else one.stdout + one.stderr
        return self.rust_built.get(name, "not built")

    def finish(self, ran: Ran, done: str) -> str:
        if ran.status != 0:
            raise BlockFailed(f"exit status {ran.status}\n{_indent(_tail(ran.stdout + ran.stderr))}")
        self.last_stdout = ran.stdout
        return done


class Skipped(Exception):
    """A block the README marks as not to be run."""


def _indent(text: str) -> str:
    return "\n".join("    | " + line for line in text.rstrip("\n").split("\n"))


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.rstrip("\n").split("\n")[-lines:])


def git_status(repo: Path) -> List[str]:
    done = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
                          capture_output=True, text=True, check=True)
    return sorted(done.stdout.splitlines())


def follow(path: Path, shown: str, args: argparse.Namespace, scratch_root: Path, tally: Tally) -> None:
    blocks = read_blocks(path, shown)
    scratch = Path(tempfile.mkdtemp(prefix=re.sub(r"\W", "_", shown) + "-", dir=scratch_root))
    doc = Document(args.repo, args.lib, args.include, scratch, scratch_root / "cargo-target",
                   scratch_root / "swift-packages")
    doc.prepare_rust(blocks)
    try:
        for block in blocks:
            label = f"{block.where} ```{block.info or '(no info string)'}"
            started = time.monotonic()
            if block.note.skip:
                tally.skipped += 1
                print(f"SKIP  {label}: {block.note.skip}", flush=True)
                continue
            if block.lang in DATA and not (block.note.output or block.note.file):
                tally.skipped += 1
                print(f"SHOWN {label}: not code", flush=True)
                continue
            try:
                done = doc.run_block(block)
            except Skipped as why:
                tally.skipped += 1
                print(f"SKIP  {label}: {why}", flush=True)
            except BlockFailed as failure:
                tally.failed += 1
                tally.failures.append(block.where)
                print(f"FAIL  {label}: {failure}", flush=True)
            else:
                tally.passed += 1
                print(f"ok    {label}: {done} ({time.monotonic() - started:.1f} s)", flush=True)
    finally:
        doc.stop_background()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="the clone (its top)")
    parser.add_argument("--lib", type=Path, required=True, help="the directory holding the built libpathconfig.so")
    parser.add_argument("--include", type=Path, help="the directory holding pathconfig.h and pathconfig/ (default: LIB/../include)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directories")
    parser.add_argument("files", nargs="+", help="Markdown files, relative to --repo")
    args = parser.parse_args()
    args.repo = args.repo.resolve()
    args.lib = args.lib.resolve()
    args.include = (args.include or args.lib.parent / "include").resolve()
    if not (args.lib / "libpathconfig.so").exists():
        print(f"no {args.lib}/libpathconfig.so: run make lib", file=sys.stderr)
        return 1

    before = git_status(args.repo)
    scratch_root = Path(tempfile.mkdtemp(prefix="pathconfig-readme-"))
    tally = Tally()
    started = time.monotonic()
    try:
        for name in args.files:
            print(f"== {name}", flush=True)
            try:
                follow(args.repo / name, name, args, scratch_root, tally)
            except ReadmeError as e:
                tally.failed += 1
                tally.failures.append(name)
                print(f"FAIL  {e}", flush=True)
    finally:
        if args.keep:
            print(f"scratch kept in {scratch_root}")
        else:
            shutil.rmtree(scratch_root, ignore_errors=True)
    left = [line for line in git_status(args.repo) if line not in before]
    if left:
        tally.failed += 1
        tally.failures.append("the clone")
        print("FAIL  the blocks left files in the clone:\n" + _indent("\n".join(left)))
    print(f"README blocks: {tally.passed + tally.failed + tally.skipped} in {len(args.files)} files, "
          f"{time.monotonic() - started:.0f} s" + (f"; failed: {', '.join(tally.failures)}" if tally.failures else ""))
    print(f"{tally.passed} passed, {tally.failed} failed, {tally.skipped} skipped")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
