//! Safe Rust bindings to libpathconfig: the path configuration of Turbo and
//! Hotwire Native apps, URLs to path properties.
//!
//! Load a configuration once, then ask for the properties of each URL:
//!
//! ```
//! use pathconfig::{Options, PathConfiguration, Profile, Value};
//!
//! let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/path-configuration.json");
//! let config = PathConfiguration::from_file(file, &Options::new().profile(Profile::HotwireIos))?;
//!
//! let props = config.properties("https://example.com/messages/new")?;
//! assert_eq!(props.json(), r#"{"context":"modal","pull_to_refresh_enabled":false}"#);
//! assert_eq!(props.context(), "modal");
//! assert!(!props.pull_to_refresh_enabled());
//! assert_eq!(props.presentation(), "default"); // not in the file: the profile's default
//!
//! let props = config.properties("https://example.com/messages/42")?;
//! assert_eq!(props.view_controller(), Some("message"));
//! assert_eq!(props.get_str("title")?, Some("Message"));
//!
//! assert_eq!(props.map()["title"], Value::from("Message"));
//!
//! let settings = Value::from_json(config.settings())?;
//! assert_eq!(settings["feature_flags"]["new_composer"], Value::Bool(true));
//! # Ok::<(), pathconfig::Error>(())
//! ```
//!
//! Errors say where:
//!
//! ```
//! use pathconfig::{ErrorCode, Options, PathConfiguration};
//!
//! let json = "{\"rules\": [\n  {\"patterns\": [\"/a\", \"([\"], \"properties\": {}}\n]}";
//! match PathConfiguration::from_json(json, &Options::new()) {
//!     Err(e) if e.code() == ErrorCode::Regex => {
//!         assert_eq!((e.line(), e.rule_index(), e.pattern_index()), (Some(2), Some(0), Some(1)));
//!         eprintln!("path-configuration.json:{e}"); // "2:22: rule 0, pattern 1: invalid regular expression ..."
//!     }
//!     other => panic!("expected a regex error, got {other:?}"),
//! }
//! ```
//!
//! Share one configuration between threads: it is `Send + Sync`, and `Clone`
//! only adds a reference to the same C object (immutable but for the rules
//! added from code, which every clone sees).
//!
//! ```
//! use std::thread;
//! use pathconfig::{Options, PathConfiguration};
//!
//! let json = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
//! let config = PathConfiguration::from_json(json, &Options::new())?;
//! let workers: Vec<_> = (0..4)
//!     .map(|i| {
//!         let config = config.clone();
//!         thread::spawn(move || config.properties(&format!("/items/{i}/new")).map(|p| p.context().to_owned()))
//!     })
//!     .collect();
//! for worker in workers {
//!     assert_eq!(worker.join().unwrap()?, "modal");
//! }
//! # Ok::<(), pathconfig::Error>(())
//! ```
//!
//! # Layout
//!
//! As git2-rs over libgit2-sys, in one crate:
//!
//! - [`sys`]: the raw declarations of `include/pathconfig.h`;
//! - [`PathConfiguration`] (`pathconfig *`), [`Properties`]
//!   (`pathconfig_result *`): owners of one handle each, freed in `Drop`,
//!   [`Binding`] to reach the handle;
//! - [`Error`] / [`ErrorCode`] (an error of a file names it: [`Error::path`]),
//!   [`Options`], [`Warning`] / [`WarningKind`];
//! - enums where a misspelling should not compile: [`Profile`] (held to the
//!   library's catalog by the tests), [`Merge`], [`Method`] (an extension
//!   method is a checked token, [`Method::parse`]);
//! - typed values: [`Value`] and [`Map`], from [`Properties::value`] and
//!   [`Properties::map`], in `serde_json::Value`'s role (see [below](#why-its-own-value));
//!   with the `serde` feature (off by default; serde and serde_json),
//!   [`Properties`], [`Value`] and [`Map`] are `serde::Serialize` (key order
//!   kept), and `Properties::deserialize` reads an answer into a type of
//!   your own, `serde_json::Value` included;
//! - what the library knows, asked once: [`Profile::platform`], [`backends`],
//!   [`TypedKey::all`] (kind, allowed values, default per profile);
//! - [`Loader`] (`pathconfig_loader *`): a configuration kept current from
//!   [`Source`]s (data, files, server URLs with a cache), configured by
//!   [`LoaderOptions`]; its change callback is a
//!   `FnMut(&LoaderEvent) + Send + 'static` closure called through an
//!   `extern "C"` trampoline that catches panics with
//!   `std::panic::catch_unwind` and resumes them after the C call returns,
//!   as git2-rs's `panic::wrap` does ([`EventKind`], [`SourceKind`],
//!   [`Reason`]);
//! - request rules, as Siesta's `Service.configure(...)`:
//!   [`PathConfiguration::request_properties`] and
//!   [`explain_request`](PathConfiguration::explain_request) for an HTTP
//!   method, [`PathConfiguration::add_rule`] with a [`RuleSpec`] (globs,
//!   patterns, methods, fixed properties, and `Fn + Send + Sync` closures: a
//!   predicate over the [`Request`] returning `bool`, a configurer changing
//!   the properties through the typed setters of an [`Edit`]),
//!   [`PathConfiguration::invalidate`]. The closures' trampolines catch
//!   panics too; a failing closure fails its lookup with
//!   [`ErrorCode::Callback`].
//!
//! A configuration kept current from a bundled file and a server:
//!
//! ```no_run
//! use std::time::Duration;
//! use pathconfig::{Loader, LoaderEvent, LoaderOptions, Source};
//!
//! let loader = Loader::new(
//!     &[
//!         Source::file("bundle/path-configuration.json"),
//!         Source::server("https://example.com/path-configuration.json").header("Accept", "application/json"),
//!     ],
//!     &LoaderOptions::new().cache_dir("/var/cache/app").timeout(Duration::from_secs(10)),
//! )?;
//! loader.set_callback(Some(|event: &LoaderEvent| eprintln!("{event}")));
//! loader.load()?; // the file, the cached copy, the download
//! let config = loader.current().expect("loaded");
//! println!("{}", config.properties("https://example.com/messages/new")?.context());
//! # Ok::<(), pathconfig::Error>(())
//! ```
//!
//! # Why its own Value
//!
//! [`Map`] keeps the answer's keys in order (the rules' order, as
//! [`Properties::json`] writes them) with no dependency. `serde_json::Map`
//! sorts them unless serde_json's `preserve_order` feature is on, which adds
//! indexmap and hashbrown: Debian packages them without checksums, so the
//! offline build could not lock them correctly for crates.io, and the
//! feature would hold for every crate of a program. serde_json is also
//! slower at what [`Properties::map`] does: `make -C bindings/rust
//! value-bench RUNS=31` (`examples/value_bench.rs`: the same walk over the C
//! API into a [`Map`] or a `serde_json::Map`, and the JSON text parsed whole
//! by [`Value::from_json`] or `serde_json::from_str`, over 10,000 results;
//! medians of six invocations) measured serde_json's time over the crate's
//! at 1.11 to 1.14 (keys sorted) and 1.34 to 1.37 (keys in order) for the
//! map, 0.89 to 0.94 (sorted) and 1.29 to 1.33 (in order) for parsing. A
//! [`Map`] took 0.4 to 0.8 µs per answer of the bench corpus, and
//! [`Properties::map`] builds each answer's map once per thread and caches
//! it: a small difference, paid once per answer. The README's "Why its own
//! Value" has the table; replacing [`Value`] would also break every program
//! naming `Value::Int` or [`Value::from_json`], a major version, which the
//! crate shares with the library.
//!
//! # Linking
//!
//! `build.rs` looks for `libpathconfig.so` in `$PATHCONFIG_LIB_DIR`, then
//! through `pkg-config pathconfig`, then in the repository's `out/lib`, and
//! stops with instructions when none has it. `cargo run` and `cargo test` find
//! the library at run time, in this crate and in crates depending on it; a
//! binary started outside Cargo needs it on the loader's path (a system
//! prefix plus `ldconfig`, `LD_LIBRARY_PATH`, or an rpath: see the README).
//!
//! # Threads
//!
//! [`PathConfiguration`], [`Properties`] and [`Loader`] are `Send + Sync`:
//! the header documents the configuration (rules added from code included)
//! and result objects as safe to use from several threads at once, and the
//! loader as thread-safe. Each call's error is read from the calling
//! thread's own slot right after the call.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod callback;
mod catalog;
mod config;
mod error;
mod event;
mod json;
mod loader;
mod method;
mod options;
mod panic;
mod properties;
mod request;
mod rule;
#[cfg(feature = "serde")]
mod serde_impl;
mod source;
#[allow(missing_docs)]
pub mod sys;
mod util;
mod value;
mod warning;

use std::ffi::CStr;

// The README's Rust examples compile (and, unless marked no_run, run) as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use crate::catalog::{backends, profile_names, Profile, Release, TypedKey, TypedKind, TypedValue};
pub use crate::config::PathConfiguration;
pub use crate::error::{error_name, Error, ErrorCode};
pub use crate::event::{EventKind, LoaderEvent, Reason, SourceKind};
pub use crate::loader::Loader;
pub use crate::method::{ExtensionMethod, Method};
pub use crate::options::{Merge, Options};
pub use crate::properties::{Iter, Keys, Properties};
pub use crate::request::{Edit, Request};
pub use crate::rule::RuleSpec;
pub use crate::source::{LoaderOptions, Source};
pub use crate::util::Binding;
pub use crate::value::{Map, Value};
pub use crate::warning::{Warning, WarningKind};

/// The version of the header this crate was written against, e.g. `"1.0.0"`.
pub const HEADER_VERSION: &str = sys::PATHCONFIG_VERSION;

/// The version of the library loaded at run time, e.g. `"1.0.0"`; compare with
/// [`HEADER_VERSION`] to detect a mismatch.
pub fn version() -> &'static str {
    // SAFETY: pathconfig_version takes no arguments and returns a static,
    // never-NULL, NUL-terminated string.
    let v = unsafe { CStr::from_ptr(sys::pathconfig_version()) };
    v.to_str().unwrap_or("")
}

/// The library's version as MAJOR * 1000000 + MINOR * 1000 + PATCH.
pub fn version_number() -> i32 {
    // SAFETY: no arguments, no preconditions.
    unsafe { sys::pathconfig_version_number() }
}
