//! The issue's "Done when": a new program that depends on the crate by path
//! builds and resolves URLs with `cargo run` after `make install`, following
//! the README word for word (its Cargo.toml line, main.rs, command, output and
//! rpath recipe are taken from bindings/rust/README.md).
//!
//! `make install PREFIX=<tmp>` runs at the repository root (it builds the
//! library first if needed); the new program finds it through pkg-config
//! (`PKG_CONFIG_PATH=<tmp>/lib/pkgconfig`), with no PATHCONFIG_LIB_DIR and no
//! LD_LIBRARY_PATH.

mod support;

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where the README says the repository is.
const README_REPO: &str = "/path/to/libpathconfig";

fn run(cmd: &mut Command) -> Output {
    let shown = format!("{cmd:?}");
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    assert!(
        out.status.success(),
        "{shown} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The body of the first fenced block whose info string is `info` and whose text contains `marker`.
fn readme_block(readme: &str, info: &str, marker: &str) -> String {
    let mut blocks = Vec::new();
    let mut current: Option<(String, Vec<&str>)> = None;
    for line in readme.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            match current.take() {
                None => current = Some((rest.trim().to_string(), Vec::new())),
                Some((kind, lines)) => blocks.push((kind, lines.join("\n"))),
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        }
    }
    let (_, body) = blocks
        .into_iter()
        .find(|(kind, body)| kind == info && body.contains(marker))
        .unwrap_or_else(|| panic!("README.md has no ```{info} block containing {marker:?}"));
    // Undo the indentation of blocks inside list items.
    let indent =
        body.lines().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    body.lines().map(|l| l.get(indent..).unwrap_or("")).collect::<Vec<_>>().join("\n") + "\n"
}

/// A command for the new program's cargo, with nothing of this test's environment that could
/// point it at the library: only what the README tells a user to set.
fn app_cargo(app: &Path, prefix: &Path) -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut cmd = Command::new(cargo);
    cmd.current_dir(app)
        .env_remove("PATHCONFIG_LIB_DIR")
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_NET_OFFLINE", "true")
        .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"));
    cmd
}

#[test]
fn a_new_program_builds_and_runs_against_make_install() {
    let repo = support::repo_root();
    let readme = fs::read_to_string(repo.join("bindings/rust/README.md")).expect("bindings/rust/README.md");
    let tmp = std::env::temp_dir().join(format!("pathconfig-rs-install-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).unwrap();
    let prefix = tmp.join("prefix");

    // 1. make install PREFIX=<tmp>/prefix (a make run by `make test-rust` must not share its jobserver).
    let make = std::env::var_os("MAKE").unwrap_or_else(|| OsString::from("make"));
    run(Command::new(make)
        .arg("-C")
        .arg(&repo)
        .arg("install")
        .arg(format!("PREFIX={}", prefix.display()))
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .env_remove("PATHCONFIG_LIB_DIR"));
    for installed in
        ["lib/libpathconfig.so", "lib/libpathconfig.so.1", "lib/pkgconfig/pathconfig.pc", "include/pathconfig.h"]
    {
        assert!(prefix.join(installed).exists(), "make install did not install {installed}");
    }
    // The header's parts, each as in the clone.
    let parts: Vec<PathBuf> = fs::read_dir(repo.join("include/pathconfig"))
        .expect("include/pathconfig")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "h"))
        .collect();
    assert!(parts.len() >= 5, "{parts:?}");
    for part in parts {
        let installed = prefix.join("include/pathconfig").join(part.file_name().unwrap());
        assert_eq!(
            fs::read(&installed).ok(),
            fs::read(&part).ok(),
            "make install did not install {} as it is in the clone",
            installed.display()
        );
    }

    // 2. cargo new app, the README's dependency line, the README's main.rs.
    run(app_cargo(&tmp, &prefix).args(["new", "--vcs", "none", "--offline", "app"]));
    let app = tmp.join("app");
    let repo_text = repo.to_str().expect("repository path is UTF-8");
    let dependency = readme_block(&readme, "toml", "[dependencies]").replace(README_REPO, repo_text);
    let manifest = fs::read_to_string(app.join("Cargo.toml")).unwrap();
    let manifest = match manifest.find("[dependencies]") {
        Some(at) => format!("{}{dependency}", &manifest[..at]),
        None => format!("{manifest}\n{dependency}"),
    };
    fs::write(app.join("Cargo.toml"), manifest).unwrap();
    fs::write(app.join("src/main.rs"), readme_block(&readme, "rust,no_run", "fn main() -> ExitCode")).unwrap();

    // 3. The README's `cargo run` line, its output.
    let command = readme_block(&readme, "sh", "cargo run --").replace(README_REPO, repo_text);
    let args: Vec<&str> = command.split_whitespace().skip_while(|a| *a != "--").skip(1).collect();
    assert!(args.len() >= 2, "README's cargo run line has no arguments: {command}");
    let out = run(app_cargo(&app, &prefix).args(["run", "--offline", "--quiet", "--"]).args(&args));
    let expected = readme_block(&readme, "text", "context=");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "the program's output is the README's");

    // 4. The library was found through pkg-config in the installed prefix, and `cargo run`
    //    loaded the installed copy.
    let lib_dir = prefix.join("lib").canonicalize().unwrap();
    let build_output = find_build_output(&app.join("target/debug/build"));
    let text = fs::read_to_string(&build_output).unwrap();
    assert!(text.contains("cargo:found_by=pkg-config"), "{}:\n{text}", build_output.display());
    assert!(text.contains(&format!("cargo:rustc-link-search=native={}\n", lib_dir.display())), "{text}");
    let runtime_link = build_output.parent().unwrap().join("out/runtime/libpathconfig.so.1");
    assert_eq!(fs::read_link(&runtime_link).unwrap(), lib_dir.join("libpathconfig.so.1"));

    // 5. Errors: a missing file is reported as the README's program prints it.
    let missing = tmp.join("missing.json");
    let out =
        app_cargo(&app, &prefix).args(["run", "--offline", "--quiet", "--"]).arg(&missing).arg("/x").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&missing.display().to_string()), "the message names the file: {stderr}");
    //    A document error is "FILE:LINE:COLUMN: MESSAGE", as Python's ConfigError prints it.
    let bad = tmp.join("bad.json");
    fs::write(&bad, "{\"rules\": [}").unwrap();
    let out =
        app_cargo(&app, &prefix).args(["run", "--offline", "--quiet", "--"]).arg(&bad).arg("/x").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with(&format!("{}:1:12: ", bad.display())), "{stderr}");

    // 6. The README's rpath recipe: the binary then runs outside cargo, without LD_LIBRARY_PATH.
    fs::write(app.join("build.rs"), readme_block(&readme, "rust,no_run", "DEP_PATHCONFIG_LIB_DIR")).unwrap();
    run(app_cargo(&app, &prefix).args(["build", "--offline", "--quiet"]));
    let out = run(Command::new(app.join("target/debug/app")).args(&args).env_remove("LD_LIBRARY_PATH"));
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);

    fs::remove_dir_all(&tmp).unwrap();
}

/// `target/debug/build/pathconfig-*/output` (the build script's run).
fn find_build_output(build: &Path) -> PathBuf {
    let found: Vec<PathBuf> = fs::read_dir(build)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path().join("output")))
        .filter(|p| p.parent().unwrap().file_name().unwrap().to_string_lossy().starts_with("pathconfig-") && p.exists())
        .collect();
    assert_eq!(found.len(), 1, "expected one build script run of pathconfig: {found:?}");
    found.into_iter().next().unwrap()
}
