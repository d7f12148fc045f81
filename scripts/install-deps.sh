#!/usr/bin/env bash
# Installs the Debian packages the build and the test suites need, when they
# are missing. Needs root for apt-get; says what to install otherwise.
#
# Checked on a fresh Debian 12 (debootstrap --variant=minbase bookworm): after
# this script, the C, Python and Rust suites find every tool they use.
set -euo pipefail

packages=(libpcre2-dev pkg-config)
# libidn2: host names beyond ASCII, IDNA-encoded as Foundation's URL(string:)
# does, for the siesta profile (Sources/CIDN2; libpathconfig.so links it).
packages+=(libidn2-dev)
# Test-only tools.
packages+=(valgrind libcjson-dev gcc g++ binutils)
# The loader's tests: libcurl (which libpathconfig loads with dlopen for
# downloads) and a real HTTP server on 127.0.0.1.
packages+=(libcurl4 nginx-light)
# curl.h, only so that Sources/CHTTP checks its option numbers against it
# (the build works without it; nothing links libcurl).
packages+=(libcurl4-openssl-dev)
# The HTTPS loader test makes a self-signed certificate with the openssl command.
packages+=(openssl)
# The loader's test of response headers under a Turkish locale compiles
# tr_TR.UTF-8 with localedef from this package's sources.
packages+=(locales)
# The Python suite (`make test-python` runs Debian's /usr/bin/python3, see the
# Makefile's PYTHON): pytest, pytest-xdist (the suite runs on two processes),
# and venv + pip for the tests that install the
# package into fresh virtual environments; python3-dev for the binding's C
# extension (pathconfig._speedups), which the suite builds and tests beside
# the ctypes path.
packages+=(python3 python3-pytest python3-pytest-xdist python3-venv python3-pip python3-dev)
# The Ruby gem's suites (`make test-ruby`): Debian's ruby with ffi, Minitest,
# RSpec, Rack and WEBrick (the Rack server's test runs it on localhost);
# ruby-dev for the gem's C extension (pathconfig/speedups), which the suite
# builds and tests beside the ffi path.
packages+=(ruby ruby-dev ruby-ffi ruby-minitest ruby-rspec ruby-rack ruby-webrick)
# The ABI guard (make abi-check): libabigail's abidw and abidiff.
packages+=(abigail-tools)
# The Android profiles' differential tests (Tests/PathConfigurationTests:
# JavaURLDifferentialTests, JavaCaseDifferentialTests, WordBoundaryTests and
# GsonOracleTests) run java.net.URL, java.util.regex and the real Gson
# (Debian's 2.10) themselves, from the Java programs in Tests/JVM, on a JDK 17,
# the JDK the apps' Java semantics are taken from (a JDK runs a single source
# file; a JRE cannot).
packages+=(openjdk-17-jdk-headless libgoogle-gson-java)

# The Rust suite needs cargo and rustc 1.77 or newer (bindings/rust/Cargo.toml,
# rust-version). A toolchain already on the PATH (rustup's, say) is used as it
# is; otherwise Debian 12's cargo-web and rustc-web (Rust 1.85 in bookworm, newer in
# bookworm-security), since its plain `cargo` package is Rust 1.63, too old for the crate.
RUST_MIN=1.77
rust_ok() {
    local version
    version=$(rustc --version 2>/dev/null | sed -n 's/^rustc \([0-9]*\.[0-9]*\).*/\1/p')
    command -v cargo >/dev/null 2>&1 && [ -n "$version" ] &&
        [ "$(printf '%s\n%s\n' "$RUST_MIN" "$version" | sort -V | head -n1)" = "$RUST_MIN" ]
}
rust_ok || packages+=(cargo-web)
# The crate's optional `serde` feature: Debian's serde and serde_json crate
# sources under /usr/share/cargo/registry, which bindings/rust/.cargo/config.toml
# puts in place of crates.io (cargo resolves them even with the feature off).
packages+=(librust-serde-dev librust-serde-json-dev)

. "$(dirname "$0")/apt-missing.sh"
install_missing "" "${packages[@]}"

# What the suites run, not only what dpkg says: a clear message here rather
# than "No module named pytest" later.
/usr/bin/python3 -c "import pytest, xdist, venv, ensurepip, pip" ||
    { echo "/usr/bin/python3 cannot import pytest, xdist, venv, ensurepip and pip (the Python suite needs them)" >&2; exit 1; }
hash -r
rust_ok || { echo "cargo and rustc $RUST_MIN or newer are not on the PATH (the Rust suite needs them)" >&2; exit 1; }
