"""The Rust crate `make dist-crate` leaves in dist/, used as a user would.

The .crate is unpacked outside the clone (so its build script cannot fall back
on the clone's out/lib) and a new program depends on it by path. Its build
finds the library through PATHCONFIG_LIB_DIR, or through pkg-config, or stops
with an error naming both. Everything runs offline: the crate has no
required dependencies (serde and serde_json are optional, behind the
`serde` feature, which this program leaves off).
"""

from __future__ import annotations

import os
import re
import subprocess
import tarfile
import tomllib
from pathlib import Path
from typing import Dict, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("PATHCONFIG_DIST", REPO / "dist"))
LIBDIR = REPO / "out" / "lib"
VERSION = re.search(r'#define PATHCONFIG_VERSION "([^"]+)"',  # type: ignore[union-attr]
                    (REPO / "include" / "pathconfig" / "common.h").read_text()).group(1)

MAIN = r'''
fn main() {
    let json = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
    let options = pathconfig::Options::new().profile(pathconfig::Profile::HotwireIos);
    let config = pathconfig::PathConfiguration::from_json(json, &options).expect("the configuration loads");
    let props = config.properties("https://example.com/messages/new").expect("a lookup");
    println!("{} {}", pathconfig::version(), props.json());
}
'''


@pytest.fixture(scope="module")
def crate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packaged crate, unpacked in a directory of its own."""
    found = sorted(DIST.glob("pathconfig-*.crate"))
    assert [p.name for p in found] == [f"pathconfig-{VERSION}.crate"], f"{DIST}: run make dist-crate"
    root = tmp_path_factory.mktemp("crate")
    with tarfile.open(found[0]) as tf:
        tf.extractall(root)  # our own archive, just built
    return root / f"pathconfig-{VERSION}"


@pytest.fixture(scope="module")
def app(crate: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    app = tmp_path_factory.mktemp("app")
    (app / "src").mkdir()
    (app / "Cargo.toml").write_text(
        '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
        f'[dependencies]\npathconfig = {{ path = "{crate}" }}\n'
    )
    (app / "src" / "main.rs").write_text(MAIN)
    return app


def cargo(app: Path, command: str, lib_dir: Optional[Path], pkg_config_dir: Path) -> subprocess.CompletedProcess:
    """`cargo COMMAND` for the program, with only what a user would set: PATHCONFIG_LIB_DIR
    or not, and pkg-config looking only in `pkg_config_dir`."""
    unset = ("LD_LIBRARY_PATH", "MAKEFLAGS", "MFLAGS", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS",
             "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR")
    env: Dict[str, str] = {k: v for k, v in os.environ.items()
                           if not k.startswith(("PATHCONFIG_", "PKG_CONFIG")) and k not in unset}
    env["CARGO_NET_OFFLINE"] = "true"
    env["PKG_CONFIG_LIBDIR"] = str(pkg_config_dir)
    if lib_dir is not None:
        env["PATHCONFIG_LIB_DIR"] = str(lib_dir)
    return subprocess.run([os.environ.get("CARGO", "cargo"), command, "--offline", "--quiet"],
                          cwd=app, env=env, capture_output=True, text=True, timeout=600)


def build_output(app: Path) -> str:
    [output] = [p for p in (app / "target" / "debug" / "build").glob("pathconfig-*/output") if p.stat().st_size]
    return output.read_text()


def test_the_manifest_links_pathconfig_at_the_header_version(crate: Path) -> None:
    manifest = tomllib.loads((crate / "Cargo.toml").read_text())["package"]
    assert manifest["links"] == "pathconfig"
    assert manifest["version"] == VERSION
    assert manifest["license"] == "MIT"
    assert (crate / "build.rs").is_file() and not (crate / "tests").exists()


def test_neither_way_found_names_both(app: Path, tmp_path: Path) -> None:
    result = cargo(app, "build", None, tmp_path)
    assert result.returncode != 0
    assert "pathconfig: cannot find libpathconfig.so: neither PATHCONFIG_LIB_DIR nor pkg-config names it" in result.stderr
    assert "set PATHCONFIG_LIB_DIR to the directory that holds libpathconfig.so" in result.stderr
    assert "PKG_CONFIG_PATH=<prefix>/lib/pkgconfig" in result.stderr
    assert "`make lib`" not in result.stderr, "outside a clone there is no out/lib to build"


def test_found_through_pkg_config(app: Path) -> None:
    result = cargo(app, "run", None, LIBDIR / "pkgconfig")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f'{VERSION} {{"context":"modal"}}\n'
    assert "cargo:found_by=pkg-config" in build_output(app)


def test_found_through_pathconfig_lib_dir(app: Path, tmp_path: Path) -> None:
    result = cargo(app, "run", LIBDIR, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f'{VERSION} {{"context":"modal"}}\n'
    assert "cargo:found_by=PATHCONFIG_LIB_DIR" in build_output(app)
