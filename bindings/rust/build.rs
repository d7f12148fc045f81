//! Finds libpathconfig and links it.
//!
//! Looked for, in this order (the first that has `libpathconfig.so` wins):
//!
//! 1. `$PATHCONFIG_LIB_DIR`: a directory holding `libpathconfig.so`. When set,
//!    it must be right: nothing else is tried.
//! 2. `pkg-config --libs-only-L pathconfig` (then its `libdir` variable, for a
//!    library in a directory pkg-config treats as a system one): what
//!    `make install` registers. `$PKG_CONFIG` names another pkg-config binary.
//! 3. Only when the crate is built inside a libpathconfig clone (its
//!    `../../include/pathconfig.h` exists): the clone's own `out/lib`, what
//!    `make lib` builds. The published crate has no such neighbour.
//!
//! Otherwise the build stops, naming both ways to point it at the library.
//!
//! What it emits: the search path and `-lpathconfig`; an rpath for this
//! crate's own tests, examples and binaries; `DEP_PATHCONFIG_LIB_DIR` for
//! dependents' build scripts (`links = "pathconfig"`); and a symlink to the
//! library under `OUT_DIR/runtime`, also on the search path, because Cargo
//! puts search paths inside the target directory on the dynamic loader's path
//! for `cargo run` and `cargo test`. That is how a *dependent* crate's
//! `cargo run` finds a library installed under a custom prefix: Cargo passes
//! an rpath only to the targets of the package whose build script asks.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const LIB_FILE: &str = "libpathconfig.so";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in ["PATHCONFIG_LIB_DIR", "PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR"] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let clone = manifest_dir.join("../..");
    let repo_out_lib = clone.join("include/pathconfig.h").is_file().then(|| clone.join("out/lib"));

    let (dir, how) = match find(repo_out_lib.as_deref()) {
        Ok(found) => found,
        Err(tried) => fail(&tried, repo_out_lib.as_deref()),
    };
    let dir = fs::canonicalize(&dir).unwrap_or(dir);

    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=pathconfig");
    // Our own tests, doc tests, examples and binaries find the library without
    // LD_LIBRARY_PATH.
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    // DEP_PATHCONFIG_LIB_DIR / DEP_PATHCONFIG_FOUND_BY for dependents' build scripts.
    println!("cargo:lib_dir={}", dir.display());
    println!("cargo:found_by={how}");

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    if let Err(e) = runtime_links(&dir, &out_dir.join("runtime")) {
        println!("cargo:warning=pathconfig: could not link the library into OUT_DIR ({e}); `cargo run` in dependent crates may need LD_LIBRARY_PATH={}", dir.display());
    }
}

/// The directory holding the library and how it was found, or every place tried.
fn find(repo_out_lib: Option<&Path>) -> Result<(PathBuf, &'static str), Vec<String>> {
    let mut tried = Vec::new();

    if let Some(dir) = env::var_os("PATHCONFIG_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        if has_lib(&dir) {
            return Ok((dir, "PATHCONFIG_LIB_DIR"));
        }
        // An explicit setting that is wrong is an error, not a hint to look elsewhere.
        panic!(
            "\n\npathconfig: PATHCONFIG_LIB_DIR={} has no {LIB_FILE}.\n\
             Point it at the directory holding {LIB_FILE} (for example <repo>/out/lib after \
             `make lib`, or <prefix>/lib after `make install PREFIX=<prefix>`), or unset it \
             to use pkg-config.\n\n",
            dir.display()
        );
    }
    tried.push("PATHCONFIG_LIB_DIR: not set".to_string());

    match pkg_config_dirs() {
        Ok(dirs) => {
            if let Some(dir) = dirs.iter().find(|d| has_lib(d)) {
                return Ok((dir.clone(), "pkg-config"));
            }
            let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            tried.push(format!(
                "pkg-config: pathconfig.pc found, but no {LIB_FILE} in {}",
                if shown.is_empty() { "(no directory given)".to_string() } else { shown.join(", ") }
            ));
        }
        Err(why) => tried.push(format!("pkg-config: {why}")),
    }

    if let Some(repo_out_lib) = repo_out_lib {
        if has_lib(repo_out_lib) {
            return Ok((repo_out_lib.to_path_buf(), "repository out/lib"));
        }
        tried.push(format!("{}: no {LIB_FILE}", repo_out_lib.display()));
    }
    Err(tried)
}

fn has_lib(dir: &Path) -> bool {
    dir.join(LIB_FILE).exists()
}

/// `pkg-config --libs-only-L pathconfig`, then `--variable=libdir`.
fn pkg_config_dirs() -> Result<Vec<PathBuf>, String> {
    let pkg_config = env::var_os("PKG_CONFIG").unwrap_or_else(|| OsString::from("pkg-config"));
    let run = |args: &[&str]| -> Result<String, String> {
        let out = Command::new(&pkg_config)
            .args(args)
            .arg("pathconfig")
            .output()
            .map_err(|e| format!("could not run `{}`: {e}", pkg_config.to_string_lossy()))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = stderr.lines().next().unwrap_or("").trim();
            return Err(format!(
                "`{} {} pathconfig` failed{}",
                pkg_config.to_string_lossy(),
                args.join(" "),
                if first.is_empty() { String::new() } else { format!(": {first}") }
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };

    let mut dirs: Vec<PathBuf> = run(&["--libs-only-L"])?
        .split_whitespace()
        .filter_map(|flag| flag.strip_prefix("-L"))
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .collect();
    // pkg-config leaves out -L for directories it considers the system's own.
    if let Ok(libdir) = run(&["--variable=libdir"]) {
        let libdir = libdir.trim();
        if !libdir.is_empty() {
            dirs.push(PathBuf::from(libdir));
        }
    }
    Ok(dirs)
}

/// Symlinks every `libpathconfig.so*` of `dir` into `runtime` (replacing old links).
fn runtime_links(dir: &Path, runtime: &Path) -> std::io::Result<()> {
    fs::create_dir_all(runtime)?;
    for entry in fs::read_dir(runtime)? {
        let path = entry?.path();
        if path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(LIB_FILE)) {
            fs::remove_file(&path)?;
        }
    }
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_str().is_some_and(|n| n.starts_with(LIB_FILE)) {
            std::os::unix::fs::symlink(dir.join(&name), runtime.join(&name))?;
        }
    }
    println!("cargo:rustc-link-search=native={}", runtime.display());
    Ok(())
}

fn fail(tried: &[String], repo_out_lib: Option<&Path>) -> ! {
    let clone_hint = match repo_out_lib {
        Some(dir) => format!("  - in this libpathconfig clone, run `make lib` (it builds {}), or\n", dir.display()),
        None => String::new(),
    };
    panic!(
        "\n\npathconfig: cannot find {LIB_FILE}: neither PATHCONFIG_LIB_DIR nor pkg-config names it.\n\
         Looked in:\n  - {}\n\n\
         Do one of these:\n\
         {clone_hint}  \
         - install libpathconfig (`apt install libpathconfig-dev`, the release tarball, or \
         `make install PREFIX=<prefix>` in a clone) and make pkg-config see its pathconfig.pc \
         (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig; /usr and /usr/local need nothing), or\n  \
         - set PATHCONFIG_LIB_DIR to the directory that holds {LIB_FILE}.\n\n",
        tried.join("\n  - "),
    )
}
