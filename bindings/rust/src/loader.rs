//! [`Loader`]: a configuration kept current from several sources
//! (`pathconfig_loader *`), with [`Source`], [`LoaderOptions`] and the
//! [`LoaderEvent`]s its change callback receives.
//!
//! # The callback across the boundary
//!
//! The C library gets one `extern "C"` trampoline for the whole life of a
//! loader, registered in the constructor with the loader's shared state as
//! payload; that state lives until `pathconfig_loader_free` has returned, so
//! no callback ever sees a dangling payload. The closure itself sits in a
//! slot of that state, and [`Loader::set_callback`] swaps it in Rust:
//!
//! - while a closure runs, the trampoline has taken it out of the slot and
//!   marked the slot busy; `set_callback` from another thread waits until it
//!   has returned (the guarantee `pathconfig_loader_set_callback` gives), so
//!   once `set_callback` returns the old closure is never called again, and
//!   it is dropped on the caller's thread;
//! - `set_callback` from inside the running closure (which the header allows)
//!   does not wait for itself: the running closure is dropped by the
//!   trampoline after it returns;
//! - no lock is held while calling into C or while the closure runs, so the
//!   header's warning ("do not call it while holding a lock that callback
//!   waits for") applies only to the caller's own locks.
//!
//! A panic in the closure is caught in the trampoline
//! (`std::panic::catch_unwind`) and never unwinds into C. As in git2-rs's
//! `panic::wrap`/`panic::check`, it is stored, later events skip the closure
//! until it is dealt with, and [`Loader::load`] or [`Loader::refresh`]
//! resumes it (`std::panic::resume_unwind`) when the C call has returned:
//! the same call for a panic during that call, the next call for one on the
//! polling thread. [`Loader::take_panic`] takes it without resuming.

use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::ptr::{self, NonNull};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, ThreadId};
use std::time::Duration;

use crate::config::PathConfiguration;
use crate::error::{self, Error, ErrorCode};
use crate::json;
use crate::options::{string_literal, Options};
use crate::sys;
use crate::util::{self, Binding};

// ---------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------

/// One place a [`Loader`] reads a configuration from.
///
/// - [`Source::file`]: a JSON file, read each time the chain runs;
/// - [`Source::data`]: the configuration itself (e.g. bundled with the app),
///   with a name for events;
/// - [`Source::server`]: an `http://` or `https://` URL, downloaded, cached
///   on disk when the loader has a [cache directory](LoaderOptions::cache_dir),
///   with extra request [headers](Source::header).
///
/// ```
/// use pathconfig::Source;
///
/// let source = Source::server("https://example.com/path-configuration.json").header("Accept", "application/json");
/// assert_eq!(
///     source.to_json()?,
///     r#"{"server":"https://example.com/path-configuration.json","headers":{"Accept":"application/json"}}"#
/// );
/// assert_eq!(Source::data("{\"rules\": []}", "bundled").to_json()?, r#"{"data":"{\"rules\": []}","name":"bundled"}"#);
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    spec: Spec,
    headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Spec {
    File(PathBuf),
    Data { text: String, name: String },
    Server(String),
}

impl Source {
    /// A JSON file (`{"file": PATH}`), read each time the chain runs.
    pub fn file(path: impl Into<PathBuf>) -> Source {
        Source { spec: Spec::File(path.into()), headers: Vec::new() }
    }

    /// The configuration as JSON text (`{"data": TEXT, "name": NAME}`);
    /// `name` stands for it in events ([`LoaderEvent::location`]).
    pub fn data(text: impl Into<String>, name: impl Into<String>) -> Source {
        Source { spec: Spec::Data { text: text.into(), name: name.into() }, headers: Vec::new() }
    }

    /// A server copy (`{"server": URL}`): an absolute `http://` or `https://`
    /// URL (anything else fails [`Loader::new`] with [`ErrorCode::Options`]).
    pub fn server(url: impl Into<String>) -> Source {
        Source { spec: Spec::Server(url.into()), headers: Vec::new() }
    }

    /// Adds a request header, sent in the order added (servers may reject
    /// requests without `Accept`). For server sources only: the library
    /// rejects headers on another source, and a name or value it cannot send,
    /// with [`ErrorCode::Options`] when the loader is created.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Source {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// [`SourceKind::File`], [`Data`](SourceKind::Data) or [`Server`](SourceKind::Server).
    pub fn kind(&self) -> SourceKind {
        match self.spec {
            Spec::File(_) => SourceKind::File,
            Spec::Data { .. } => SourceKind::Data,
            Spec::Server(_) => SourceKind::Server,
        }
    }

    /// The source object the C API takes, compact.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a file path that is not UTF-8 or contains
    /// a NUL byte (the C API takes UTF-8 paths).
    pub fn to_json(&self) -> Result<String, Error> {
        let mut members = Vec::new();
        match &self.spec {
            Spec::File(path) => members.push(("file".to_string(), string_literal(utf8_path(path, "file")?))),
            Spec::Data { text, name } => {
                members.push(("data".to_string(), string_literal(text)));
                members.push(("name".to_string(), string_literal(name)));
            }
            Spec::Server(url) => members.push(("server".to_string(), string_literal(url))),
        }
        if !self.headers.is_empty() {
            let headers: Vec<(String, String)> =
                self.headers.iter().map(|(name, value)| (name.clone(), string_literal(value))).collect();
            members.push(("headers".to_string(), json::object(&headers)));
        }
        Ok(json::object(&members))
    }
}

/// The JSON array of sources the C API takes.
fn sources_json(sources: &[Source]) -> Result<String, Error> {
    let items = sources.iter().map(Source::to_json).collect::<Result<Vec<_>, _>>()?;
    Ok(format!("[{}]", items.join(",")))
}

/// `path` as UTF-8 without NUL bytes, or an [`ErrorCode::Argument`] error naming `what`.
fn utf8_path<'a>(path: &'a Path, what: &str) -> Result<&'a str, Error> {
    let text = path.to_str().ok_or_else(|| {
        Error::new(ErrorCode::Argument, format!("{what} path is not valid UTF-8: {}", path.display()))
    })?;
    if text.contains('\0') {
        return Err(Error::new(ErrorCode::Argument, format!("{what} path contains a NUL byte: {}", path.display())));
    }
    Ok(text)
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// How a [`Loader`] loads and downloads: the load [`Options`] (applied to
/// every source) plus the loader's own, serialised to the C API's options
/// JSON by [`to_json`](LoaderOptions::to_json). Only what is set is sent.
///
/// ```
/// use std::time::Duration;
/// use pathconfig::LoaderOptions;
///
/// let options = LoaderOptions::new()
///     .profile("turbo-android")
///     .cache_dir("/var/cache/app")
///     .timeout(Duration::from_secs(10))
///     .refresh_interval(Duration::from_secs(15 * 60))
///     .user_agent("MyApp/2.1 \"beta\"");
/// assert_eq!(
///     options.to_json()?,
///     r#"{"profile":"turbo-android","cache_dir":"/var/cache/app","timeout_ms":10000,"refresh_interval_ms":900000,"user_agent":"MyApp/2.1 \"beta\""}"#
/// );
/// assert_eq!(LoaderOptions::new().to_json()?, "{}");
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoaderOptions {
    options: Options,
    cache_dir: Option<PathBuf>,
    timeout: Option<Duration>,
    max_body_bytes: Option<u64>,
    refresh_interval: Option<Duration>,
    user_agent: Option<String>,
    ca_file: Option<PathBuf>,
}

impl LoaderOptions {
    /// The library's defaults: the load defaults, no cache, a 30 s timeout,
    /// an 8 MiB body limit, no polling, `User-Agent: libpathconfig/VERSION`,
    /// the system's CA certificates.
    pub fn new() -> LoaderOptions {
        LoaderOptions::default()
    }

    /// Replaces the load options (profile, query matching, backend,
    /// lenient), which apply to every source.
    pub fn load_options(mut self, options: Options) -> LoaderOptions {
        self.options = options;
        self
    }

    /// The load options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// [`Options::profile`] for every source.
    pub fn profile(mut self, profile: impl AsRef<str>) -> LoaderOptions {
        self.options = self.options.profile(profile);
        self
    }

    /// [`Options::match_query_strings`] for every source.
    pub fn match_query_strings(mut self, on: impl Into<Option<bool>>) -> LoaderOptions {
        self.options = self.options.match_query_strings(on);
        self
    }

    /// [`Options::backend`] for every source.
    pub fn backend(mut self, backend: impl AsRef<str>) -> LoaderOptions {
        self.options = self.options.backend(backend);
        self
    }

    /// [`Options::lenient`] for every source.
    pub fn lenient(mut self, lenient: bool) -> LoaderOptions {
        self.options = self.options.lenient(lenient);
        self
    }

    /// [`Options::raw_option`]: `"key": value_json` as written, for an
    /// option of a newer library (checked by the library, not here).
    pub fn raw_option(mut self, key: &str, value_json: &str) -> LoaderOptions {
        self.options = self.options.raw_option(key, value_json);
        self
    }

    /// `"cache_dir"`: where server copies are kept, one file per URL
    /// (created, mode 0700, when missing). Default: no cache.
    pub fn cache_dir(mut self, dir: impl Into<PathBuf>) -> LoaderOptions {
        self.cache_dir = Some(dir.into());
        self
    }

    /// `"timeout_ms"`: the longest one download may take, connecting
    /// included (default 30 s). Sent in whole milliseconds, rounded up; zero
    /// is rejected by the library ([`ErrorCode::Options`]).
    pub fn timeout(mut self, timeout: Duration) -> LoaderOptions {
        self.timeout = Some(timeout);
        self
    }

    /// `"max_body_bytes"`: the largest body accepted (default 8388608); zero
    /// is rejected by the library.
    pub fn max_body_bytes(mut self, bytes: u64) -> LoaderOptions {
        self.max_body_bytes = Some(bytes);
        self
    }

    /// `"refresh_interval_ms"`: [`Loader::load`] starts a thread that
    /// refreshes at this interval until the loader is dropped (default: no
    /// polling). Whole milliseconds, rounded up; zero is rejected.
    pub fn refresh_interval(mut self, interval: Duration) -> LoaderOptions {
        self.refresh_interval = Some(interval);
        self
    }

    /// `"user_agent"`: the `User-Agent` header (default
    /// `libpathconfig/VERSION`); control characters are rejected.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> LoaderOptions {
        self.user_agent = Some(user_agent.into());
        self
    }

    /// `"ca_file"`: a PEM file of CA certificates to trust for HTTPS instead
    /// of the system's.
    pub fn ca_file(mut self, path: impl Into<PathBuf>) -> LoaderOptions {
        self.ca_file = Some(path.into());
        self
    }

    /// The options object the C API takes, compact: the load options'
    /// members, then the loader's.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a `cache_dir` or `ca_file` path that is
    /// not UTF-8 or contains a NUL byte.
    pub fn to_json(&self) -> Result<String, Error> {
        let mut members = self.options.members();
        let mut add = |key: &str, value: String| members.push((key.to_string(), value));
        if let Some(dir) = &self.cache_dir {
            add("cache_dir", string_literal(utf8_path(dir, "cache_dir")?));
        }
        if let Some(timeout) = self.timeout {
            add("timeout_ms", millis(timeout).to_string());
        }
        if let Some(bytes) = self.max_body_bytes {
            add("max_body_bytes", bytes.to_string());
        }
        if let Some(interval) = self.refresh_interval {
            add("refresh_interval_ms", millis(interval).to_string());
        }
        if let Some(agent) = &self.user_agent {
            add("user_agent", string_literal(agent));
        }
        if let Some(file) = &self.ca_file {
            add("ca_file", string_literal(utf8_path(file, "ca_file")?));
        }
        Ok(json::object(&members))
    }

    /// True when nothing is set (NULL is passed).
    fn is_default(&self) -> bool {
        *self == LoaderOptions::default()
    }
}

/// Load options alone, the loader's own at their defaults.
impl From<Options> for LoaderOptions {
    fn from(options: Options) -> LoaderOptions {
        LoaderOptions::new().load_options(options)
    }
}

/// Whole milliseconds, rounded up (so 1 µs is 1 ms, and only zero is zero).
fn millis(d: Duration) -> u128 {
    d.as_nanos().div_ceil(1_000_000)
}

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

/// What one step of the chain did (`PATHCONFIG_EVENT_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EventKind {
    /// The source's configuration is now the current one.
    Applied,
    /// The source's configuration loaded, but a later source's stays current.
    Superseded,
    /// The server answered 304 (or sent the same bytes): nothing changed.
    NotModified,
    /// The source gave no configuration; the current one stays.
    /// [`LoaderEvent::error`] says why.
    Failed,
    /// Something was skipped or not saved (a corrupt cache file ignored, a
    /// cache write that failed); [`LoaderEvent::error`] says what.
    Warning,
    /// A kind this crate does not know (from a newer library).
    Unknown(i32),
}

impl EventKind {
    fn from_raw(kind: c_int) -> EventKind {
        match kind {
            sys::PATHCONFIG_EVENT_APPLIED => EventKind::Applied,
            sys::PATHCONFIG_EVENT_SUPERSEDED => EventKind::Superseded,
            sys::PATHCONFIG_EVENT_NOT_MODIFIED => EventKind::NotModified,
            sys::PATHCONFIG_EVENT_FAILED => EventKind::Failed,
            sys::PATHCONFIG_EVENT_WARNING => EventKind::Warning,
            other => EventKind::Unknown(other),
        }
    }

    /// A short name: `"applied"`, `"superseded"`, `"not-modified"`,
    /// `"failed"`, `"warning"`, `"unknown"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Applied => "applied",
            EventKind::Superseded => "superseded",
            EventKind::NotModified => "not-modified",
            EventKind::Failed => "failed",
            EventKind::Warning => "warning",
            EventKind::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which kind of source an event (or a [`Source`]) is about
/// (`PATHCONFIG_SOURCE_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SourceKind {
    /// A [`Source::data`].
    Data,
    /// A [`Source::file`].
    File,
    /// The cached copy of a [`Source::server`].
    Cache,
    /// The download of a [`Source::server`].
    Server,
    /// A kind this crate does not know (from a newer library).
    Unknown(i32),
}

impl SourceKind {
    fn from_raw(kind: c_int) -> SourceKind {
        match kind {
            sys::PATHCONFIG_SOURCE_DATA => SourceKind::Data,
            sys::PATHCONFIG_SOURCE_FILE => SourceKind::File,
            sys::PATHCONFIG_SOURCE_CACHE => SourceKind::Cache,
            sys::PATHCONFIG_SOURCE_SERVER => SourceKind::Server,
            other => SourceKind::Unknown(other),
        }
    }

    /// `"data"`, `"file"`, `"cache"`, `"server"` or `"unknown"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Data => "data",
            SourceKind::File => "file",
            SourceKind::Cache => "cache",
            SourceKind::Server => "server",
            SourceKind::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a download failed ([`ErrorCode::Download`]) or a cache file was not
/// used or written ([`ErrorCode::Cache`]): `PATHCONFIG_DOWNLOAD_*` and
/// `PATHCONFIG_CACHE_*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// libcurl could not be loaded (not installed, or too old).
    Unavailable,
    /// Connection refused, DNS, TLS or protocol failure.
    Transport,
    /// No complete response within the [timeout](LoaderOptions::timeout).
    Timeout,
    /// The body was larger than [`max_body_bytes`](LoaderOptions::max_body_bytes).
    TooLarge,
    /// The connection closed before the announced body was complete.
    Truncated,
    /// A status other than 200 (or 304 answering a conditional request);
    /// see [`LoaderEvent::http_status`].
    HttpStatus,
    /// Memory ran out while receiving.
    OutOfMemory,
    /// The cache file is not a complete copy for the URL; it was ignored.
    CacheCorrupt,
    /// The cache file could not be read; it was ignored.
    CacheUnreadable,
    /// A new copy could not be written; the previous file is unchanged.
    CacheUnwritable,
    /// A reason this crate does not know (from a newer library).
    Unknown(i32),
}

impl Reason {
    /// The reason an event carries, read according to its error code.
    fn from_raw(reason: c_int, error: Option<&Error>) -> Option<Reason> {
        if reason == 0 {
            return None;
        }
        Some(match (error.map(Error::code), reason) {
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_UNAVAILABLE) => Reason::Unavailable,
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_TRANSPORT) => Reason::Transport,
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_TIMEOUT) => Reason::Timeout,
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_TOO_LARGE) => Reason::TooLarge,
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_TRUNCATED) => Reason::Truncated,
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_HTTP_STATUS) => Reason::HttpStatus,
            (Some(ErrorCode::Download), sys::PATHCONFIG_DOWNLOAD_NOMEM) => Reason::OutOfMemory,
            (Some(ErrorCode::Cache), sys::PATHCONFIG_CACHE_CORRUPT) => Reason::CacheCorrupt,
            (Some(ErrorCode::Cache), sys::PATHCONFIG_CACHE_UNREADABLE) => Reason::CacheUnreadable,
            (Some(ErrorCode::Cache), sys::PATHCONFIG_CACHE_UNWRITABLE) => Reason::CacheUnwritable,
            (_, other) => Reason::Unknown(other),
        })
    }
}

/// One step of a loader's chain, as the [callback](Loader::set_callback)
/// receives it: an owned copy of the C event (`pathconfig_loader_event`),
/// made while the C callback runs, so it may be kept, cloned and sent to
/// other threads.
///
/// `Display` prints [`description`](Self::description), one line for logs.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LoaderEvent {
    /// What the step did.
    pub kind: EventKind,
    /// Which kind of source it was about.
    pub source_kind: SourceKind,
    /// 0-based index of the source in the list the loader was made with
    /// (a server's cache and download events share their source's index).
    pub source_index: usize,
    /// The data's name, the file's path, the cache file's path or the URL.
    pub location: String,
    /// The server URL, for cache and server events.
    pub url: Option<String>,
    /// Bytes read or downloaded, `None` when no body was.
    pub byte_count: Option<u64>,
    /// The HTTP status of a failed download, when one arrived.
    pub http_status: Option<u16>,
    /// Why, for a [`Download`](ErrorCode::Download) or
    /// [`Cache`](ErrorCode::Cache) error.
    pub reason: Option<Reason>,
    /// Why, for [`Failed`](EventKind::Failed) and
    /// [`Warning`](EventKind::Warning): the code, the message, and the
    /// position when the configuration did not load.
    pub error: Option<Error>,
    /// One line for logs, e.g. `server https://example.com/p.json: applied (412 bytes)`.
    pub description: String,
    /// The configuration the source produced ([`Applied`](EventKind::Applied),
    /// [`Superseded`](EventKind::Superseded), and
    /// [`NotModified`](EventKind::NotModified) when one is known): a new
    /// reference, valid as long as it is kept.
    pub configuration: Option<PathConfiguration>,
}

impl LoaderEvent {
    /// Copies a C event.
    ///
    /// # Safety
    ///
    /// `raw` is an event the library passed to a loader callback that is
    /// still running: its strings, error and configuration are valid for
    /// the call (the header's contract for `pathconfig_loader_event`).
    unsafe fn from_raw(raw: &sys::pathconfig_loader_event) -> LoaderEvent {
        // SAFETY: `location`, `url` and `description`, the only pointers
        // passed to it, are NULL or NUL-terminated strings valid for this
        // callback call (this function's contract).
        let text = |p: *const c_char| unsafe { lossy(p) };
        // SAFETY: as above; `error` is NULL or points to a pathconfig_error
        // the library filled, read (copied) here.
        let error = unsafe { raw.error.as_ref() }.map(Error::from_raw);
        let configuration = NonNull::new(raw.configuration).map(|cfg| {
            // SAFETY: a non-NULL `configuration` is a live handle borrowed for
            // the call; pathconfig_retain adds the reference the returned
            // value owns and releases in its Drop.
            unsafe { PathConfiguration::from_raw(sys::pathconfig_retain(cfg.as_ptr())) }
        });
        LoaderEvent {
            kind: EventKind::from_raw(raw.kind),
            source_kind: SourceKind::from_raw(raw.source_kind),
            source_index: usize::try_from(raw.source_index).unwrap_or(usize::MAX),
            location: text(raw.location).unwrap_or_default(),
            url: text(raw.url),
            byte_count: u64::try_from(raw.byte_count).ok(),
            http_status: u16::try_from(raw.http_status).ok().filter(|&s| s != 0),
            reason: Reason::from_raw(raw.reason, error.as_ref()),
            error,
            description: text(raw.description).unwrap_or_default(),
            configuration,
        }
    }
}

impl fmt::Display for LoaderEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

/// A copy of a C string (UTF-8 by the header's rules; decoded lossily only to
/// guard against a library bug); `None` for NULL.
///
/// # Safety
///
/// `p` is NULL or a NUL-terminated string valid for the call.
unsafe fn lossy(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL and NUL-terminated, valid for the call (see above).
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

// ---------------------------------------------------------------------------
// The loader
// ---------------------------------------------------------------------------

type Callback = Box<dyn FnMut(&LoaderEvent) + Send>;

/// A panic caught in the callback, waiting to be resumed.
type PanicPayload = Box<dyn Any + Send>;

/// The state the C library holds as the callback payload: alive from the
/// constructor until after `pathconfig_loader_free` has returned.
struct Shared {
    slot: Mutex<Slot>,
    /// Signalled when a running closure has returned.
    idle: Condvar,
    panic: Mutex<Option<PanicPayload>>,
}

struct Slot {
    /// The closure; `None` when there is none or while it runs (taken out).
    callback: Option<Callback>,
    /// The thread running the closure, if one is.
    running: Option<ThreadId>,
    /// Bumped by every `set_callback`, so the trampoline knows whether to put
    /// the closure it ran back or drop it.
    generation: u64,
}

impl Shared {
    fn slot(&self) -> MutexGuard<'_, Slot> {
        // Nothing panics while holding the lock; a poisoned lock still holds
        // consistent data.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn pending_panic(&self) -> MutexGuard<'_, Option<PanicPayload>> {
        self.panic.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs the closure for one event (called inside `catch_unwind`).
    ///
    /// # Safety
    ///
    /// As [`LoaderEvent::from_raw`].
    unsafe fn deliver(&self, raw: &sys::pathconfig_loader_event) {
        if self.pending_panic().is_some() {
            // As git2-rs: no callback runs while a panic waits to be resumed.
            return;
        }
        let me = thread::current().id();
        let (mut callback, generation) = {
            let mut slot = self.slot();
            let Some(callback) = slot.callback.take() else { return };
            slot.running = Some(me);
            (callback, slot.generation)
        };
        // From here until the slot is restored nothing may unwind past this
        // function, or `running` would stay set and `set_callback` wait forever.
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: guaranteed by the caller.
            let event = unsafe { LoaderEvent::from_raw(raw) };
            callback(&event);
        }));
        let replaced = {
            let mut slot = self.slot();
            slot.running = None;
            if slot.generation == generation {
                slot.callback = Some(callback);
                None
            } else {
                Some(callback) // set_callback ran inside the closure
            }
        };
        self.idle.notify_all();
        if let Err(payload) = outcome {
            self.store_panic(payload);
        }
        // May drop the last reference to the loader: see `Loader::drop`.
        drop(replaced);
    }

    /// Keeps the first panic until it is resumed or taken; a later one (from
    /// a replaced closure's Drop, or a closure set after the first panicked)
    /// is dropped.
    fn store_panic(&self, payload: PanicPayload) {
        let extra = {
            let mut pending = self.pending_panic();
            match *pending {
                None => {
                    *pending = Some(payload);
                    None
                }
                Some(_) => Some(payload),
            }
        };
        if let Some(extra) = extra {
            // A payload whose Drop panics must not unwind into C either.
            if let Err(again) = panic::catch_unwind(AssertUnwindSafe(|| drop(extra))) {
                std::mem::forget(again);
            }
        }
    }
}

thread_local! {
    /// The loaders (their `Shared`) whose callback this thread is inside,
    /// innermost last, compared by address only.
    static INSIDE: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Marks the current thread as inside `shared`'s callback until dropped.
struct Inside(usize);

impl Inside {
    fn enter(shared: &Shared) -> Inside {
        let key = shared as *const Shared as usize;
        // `try_with`: never panic, even while the thread's locals are torn down.
        let _ = INSIDE.try_with(|inside| inside.borrow_mut().push(key));
        Inside(key)
    }

    /// True when this thread is inside `shared`'s callback.
    fn contains(shared: &Shared) -> bool {
        let key = shared as *const Shared as usize;
        INSIDE.try_with(|inside| inside.borrow().contains(&key)).unwrap_or(false)
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        let _ = INSIDE.try_with(|inside| {
            let mut inside = inside.borrow_mut();
            if let Some(i) = inside.iter().rposition(|&k| k == self.0) {
                inside.remove(i);
            }
        });
    }
}

/// The `pathconfig_loader_callback` every loader is registered with.
///
/// Never unwinds: everything that can panic runs inside `catch_unwind`, and
/// a panic is stored for [`Loader::load`] / [`Loader::refresh`] to resume.
unsafe extern "C" fn trampoline(event: *const sys::pathconfig_loader_event, data: *mut c_void) {
    // SAFETY: `data` is the `Shared` this loader was registered with in
    // `Loader::adopt`; it is freed only after pathconfig_loader_free has
    // returned, and no callback runs after that.
    let shared = unsafe { &*data.cast_const().cast::<Shared>() };
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the library passes an event valid for this call (never
        // NULL, checked anyway).
        let Some(event) = (unsafe { event.as_ref() }) else { return };
        let _inside = Inside::enter(shared);
        // SAFETY: `event` is this running callback's event.
        unsafe { shared.deliver(event) };
    }));
    if let Err(payload) = outcome {
        // A panic outside the closure itself: a replaced closure's Drop.
        shared.store_panic(payload);
    }
}

/// Keeps a configuration current from an ordered list of [`Source`]s: JSON
/// text, files, and server URLs downloaded over HTTP(S), each server copy
/// cached on disk (`pathconfig_loader *`).
///
/// [`load`](Self::load) runs the chain once: each data or file source, then
/// for each server source its cached copy (if any) and its download. A later
/// source's good configuration replaces an earlier one. Bad news never
/// replaces good news: a failed download, a status other than 200, a body
/// that does not load leaves the current configuration and the cache file
/// untouched and is reported to the [callback](Self::set_callback). A
/// download sends `If-None-Match` / `If-Modified-Since` when a copy is
/// known; 304 keeps the copy.
///
/// [`current`](Self::current) never waits for the network: it returns the
/// last whole configuration, which stays valid while another is installed.
///
/// ```
/// use pathconfig::{EventKind, Loader, LoaderOptions, Source, SourceKind};
/// use std::sync::mpsc;
///
/// let bundled = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
/// let loader = Loader::new(&[Source::data(bundled, "bundled")], &LoaderOptions::new())?;
/// assert!(loader.current().is_none()); // nothing loaded yet
///
/// let (events, received) = mpsc::channel();
/// loader.set_callback(Some(move |event: &pathconfig::LoaderEvent| {
///     events.send((event.source_kind, event.kind, event.location.clone())).unwrap();
/// }));
/// loader.load()?;
/// assert_eq!(received.try_recv().unwrap(), (SourceKind::Data, EventKind::Applied, "bundled".to_string()));
///
/// let config = loader.current().expect("loaded");
/// assert_eq!(config.properties("https://example.com/messages/new")?.context(), "modal");
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// # Threads
///
/// `Loader` is `Send + Sync`: share it with `Arc` and call
/// [`current`](Self::current) from any number of threads while another
/// [refreshes](Self::refresh). The library runs the loader's operations
/// (load, refresh, polling) one at a time.
///
/// The callback (`FnMut + Send + 'static`) runs on the thread calling
/// [`load`](Self::load) or [`refresh`](Self::refresh), or on the loader's
/// polling thread ([`LoaderOptions::refresh_interval`]), one event at a time.
/// It may call [`current`](Self::current) and
/// [`set_callback`](Self::set_callback) on its loader; [`load`](Self::load)
/// and [`refresh`](Self::refresh) fail there with [`ErrorCode::Misuse`].
///
/// # Panics in the callback
///
/// They never cross into C: the panic is caught, the closure is not called
/// again until the panic has been dealt with, and the next
/// [`load`](Self::load) or [`refresh`](Self::refresh) resumes it once the
/// C call has returned (the loader is intact; its chain ran to the end).
/// [`take_panic`](Self::take_panic) takes it instead, e.g. after a panic on
/// the polling thread. A panic still pending when the loader is dropped is
/// discarded (the panic hook has printed it when it happened).
pub struct Loader {
    raw: NonNull<sys::pathconfig_loader>,
    shared: Arc<Shared>,
}

// SAFETY: (Send) the header documents the loader as thread-safe ("Every
// function below may be called from any thread"): the handle is not tied to
// the thread that made it, and pathconfig_loader_free may run on any thread
// once no other call is in progress, which `Drop` (owning the value)
// guarantees. `Shared` is Send + Sync by construction (closures are `Send`,
// behind a Mutex).
unsafe impl Send for Loader {}
// SAFETY: (Sync) the `&self` methods call pathconfig_loader_load, _refresh,
// _current and _cache_file, which the header allows on one handle from any
// number of threads at once (it serialises load, refresh and polling and
// documents pathconfig_loader_current as never waiting); set_callback is
// implemented in Rust, under `Shared`'s Mutex. Each call's error is read on
// the calling thread, from its own `err` struct or thread-local last error.
// This is why the loader, unlike git2-rs's Repository (`Send` only), is Sync.
unsafe impl Sync for Loader {}

impl Loader {
    /// Creates a loader; loads nothing yet (call [`load`](Self::load)).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Options`] for no sources, a URL that is not absolute
    /// `http(s)`, a header that cannot be sent or a header on a source that
    /// is not a server, a bad option value (e.g. a zero timeout, control
    /// characters in the user agent); [`ErrorCode::Backend`] for a backend
    /// the library lacks; [`ErrorCode::Argument`] for a path that is not
    /// UTF-8 or contains a NUL byte.
    pub fn new(sources: &[Source], options: &LoaderOptions) -> Result<Loader, Error> {
        let sources = util::cstring(&sources_json(sources)?)?;
        let options = if options.is_default() { None } else { Some(util::cstring(&options.to_json()?)?) };
        Loader::create(&sources, options.as_deref())
    }

    /// Creates a loader from the C API's JSON forms: `sources_json` an array
    /// of `{"file": PATH}`, `{"data": TEXT, "name": NAME}` and
    /// `{"server": URL, "headers": {NAME: VALUE, ...}}` objects,
    /// `options_json` an object with the load and loader options (see
    /// `include/pathconfig.h`), or `None` for the defaults. For sources kept
    /// in a configuration file of the host's.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new); malformed JSON is [`ErrorCode::Options`].
    pub fn from_json(sources_json: &str, options_json: Option<&str>) -> Result<Loader, Error> {
        let sources = util::cstring(sources_json)?;
        let options = options_json.map(util::cstring).transpose()?;
        Loader::create(&sources, options.as_deref())
    }

    fn create(sources: &CStr, options: Option<&CStr>) -> Result<Loader, Error> {
        let mut err = error::blank();
        // SAFETY: `sources` and `options` (or NULL) are NUL-terminated and
        // `err` is writable, all alive across the call and not retained.
        let raw = unsafe {
            sys::pathconfig_loader_new(sources.as_ptr(), options.map_or(ptr::null(), CStr::as_ptr), &mut err)
        };
        match NonNull::new(raw) {
            Some(raw) => Ok(Loader::adopt(raw)),
            None => Err(Error::from_raw(&err)),
        }
    }

    /// Takes ownership of a live loader handle and registers the trampoline.
    fn adopt(raw: NonNull<sys::pathconfig_loader>) -> Loader {
        let shared = Arc::new(Shared {
            slot: Mutex::new(Slot { callback: None, running: None, generation: 0 }),
            idle: Condvar::new(),
            panic: Mutex::new(None),
        });
        // SAFETY: `raw` is a live loader; `trampoline` matches
        // pathconfig_loader_callback and never unwinds; the payload is the
        // `Shared` this value keeps alive until after pathconfig_loader_free
        // (see Drop). The only failure is a NULL loader.
        let rc = unsafe {
            sys::pathconfig_loader_set_callback(
                raw.as_ptr(),
                Some(trampoline),
                Arc::as_ptr(&shared).cast_mut().cast::<c_void>(),
            )
        };
        debug_assert_eq!(rc, 0, "pathconfig_loader_set_callback on a live loader");
        Loader { raw, shared }
    }

    /// Runs the whole chain once, synchronously (downloads included, each
    /// bounded by the [timeout](LoaderOptions::timeout)), reporting every
    /// step to the callback; then starts polling when a
    /// [refresh interval](LoaderOptions::refresh_interval) is set.
    ///
    /// `Ok` when a configuration is current, even if some sources failed
    /// (the callback heard about them).
    ///
    /// # Errors
    ///
    /// When no configuration is current: the last failure, its message
    /// starting with the source (`"server URL: ..."`):
    /// [`ErrorCode::Download`], [`Io`](ErrorCode::Io),
    /// [`Json`](ErrorCode::Json), [`Schema`](ErrorCode::Schema),
    /// [`Regex`](ErrorCode::Regex), [`Limit`](ErrorCode::Limit);
    /// [`ErrorCode::Misuse`] from inside this loader's callback (nothing is
    /// run, and polling is not started).
    ///
    /// # Panics
    ///
    /// Resumes a panic of the callback (see the type's documentation).
    pub fn load(&self) -> Result<(), Error> {
        self.run(sys::pathconfig_loader_load)
    }

    /// Downloads every server source again, synchronously, conditionally
    /// when a copy with `ETag` / `Last-Modified` is known; before the first
    /// [`load`](Self::load), runs load's chain instead (without polling).
    /// A failure leaves the current configuration and the cache file as
    /// they were.
    ///
    /// `Ok` when no step failed (new configurations applied, or not
    /// modified; also with no server source).
    ///
    /// # Errors
    ///
    /// The last failure: [`ErrorCode::Download`], [`Json`](ErrorCode::Json),
    /// [`Schema`](ErrorCode::Schema), [`Regex`](ErrorCode::Regex),
    /// [`Limit`](ErrorCode::Limit), ...; [`ErrorCode::Misuse`] from inside
    /// this loader's callback (nothing is run).
    ///
    /// # Panics
    ///
    /// Resumes a panic of the callback (see the type's documentation).
    pub fn refresh(&self) -> Result<(), Error> {
        self.run(sys::pathconfig_loader_refresh)
    }

    /// Calls load or refresh, then resumes a pending panic of the callback.
    fn run(
        &self,
        f: unsafe extern "C" fn(*mut sys::pathconfig_loader, *mut sys::pathconfig_error) -> c_int,
    ) -> Result<(), Error> {
        let mut err = error::blank();
        // SAFETY: `f` is pathconfig_loader_load or _refresh, which take a
        // live loader (self.raw, alive for `&self`) and a writable error
        // struct (alive across the call, not retained).
        let rc = unsafe { f(self.raw.as_ptr(), &mut err) };
        if let Some(payload) = self.take_panic() {
            panic::resume_unwind(payload);
        }
        if rc < 0 {
            Err(Error::from_raw(&err))
        } else {
            Ok(())
        }
    }

    /// The current configuration, the newest good one; `None` until one has
    /// loaded. Never waits for the network. The value is a new reference: it
    /// stays valid (and unchanged) after the loader moves on or is dropped.
    pub fn current(&self) -> Option<PathConfiguration> {
        // SAFETY: self.raw is a live loader.
        let raw = unsafe { sys::pathconfig_loader_current(self.raw.as_ptr()) };
        // SAFETY: a non-NULL result is a new reference the caller owns
        // ("caller frees with pathconfig_release"), handed to the value.
        // NULL on a live loader means nothing has loaded yet (code 0).
        NonNull::new(raw).map(|raw| unsafe { PathConfiguration::from_raw(raw.as_ptr()) })
    }

    /// The path of the cache file that holds (or would hold) `url`'s copy
    /// (the file name is a hash of the whole URL); `None` when the loader
    /// has no [cache directory](LoaderOptions::cache_dir). Any URL may be
    /// asked about, not only the sources'.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] when `url` contains a NUL byte;
    /// [`ErrorCode::NoMem`].
    pub fn cache_file(&self, url: &str) -> Result<Option<PathBuf>, Error> {
        let url = util::cstring(url)?;
        // SAFETY: self.raw is a live loader and `url` NUL-terminated, alive
        // across the call.
        let path = unsafe { sys::pathconfig_loader_cache_file(self.raw.as_ptr(), url.as_ptr()) };
        if path.is_null() {
            // NULL with the last error cleared: no cache_dir.
            return match Error::last_if_set() {
                None => Ok(None),
                Some(e) => Err(e),
            };
        }
        // SAFETY: a non-NULL result is a string the caller frees; take_string
        // copies and frees it, with no library call in between.
        let path = unsafe { util::take_string(path, "pathconfig_loader_cache_file") }?;
        Ok(Some(PathBuf::from(path)))
    }

    /// Sets the closure called after every step of the chain (one
    /// [`LoaderEvent`] per source step, in order), replacing the previous
    /// one; `None` removes it.
    ///
    /// When the previous closure is running on another thread, this waits
    /// until it has returned (so do not call it while holding a lock that
    /// closure waits for); once this returns, the previous closure is never
    /// called again, and it has been dropped on this thread. Called from
    /// inside the running closure, it does not wait: the running closure is
    /// dropped when it returns.
    ///
    /// ```
    /// use pathconfig::{Loader, LoaderEvent, LoaderOptions, Source};
    ///
    /// let loader = Loader::new(&[Source::data(r#"{"rules": []}"#, "empty")], &LoaderOptions::new())?;
    /// loader.set_callback(Some(|event: &LoaderEvent| eprintln!("{event}")));
    /// loader.load()?; // prints "data empty: applied (13 bytes)"
    /// loader.set_callback(None::<fn(&LoaderEvent)>); // or loader.clear_callback()
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// The closure must be `Send` (it runs on the polling thread or on any
    /// thread that loads) but not `Sync` (it never runs on two threads at
    /// once):
    ///
    /// ```compile_fail
    /// use std::rc::Rc;
    /// use pathconfig::{Loader, LoaderEvent, LoaderOptions, Source};
    ///
    /// let loader = Loader::new(&[Source::data(r#"{"rules": []}"#, "empty")], &LoaderOptions::new()).unwrap();
    /// let counter = Rc::new(0);
    /// loader.set_callback(Some(move |_: &LoaderEvent| drop(counter.clone())));
    /// ```
    pub fn set_callback<F>(&self, callback: Option<F>)
    where
        F: FnMut(&LoaderEvent) + Send + 'static,
    {
        let new = callback.map(|f| Box::new(f) as Callback);
        let me = thread::current().id();
        let old = {
            let mut slot = self.shared.slot();
            while slot.running.is_some_and(|t| t != me) {
                slot = self.shared.idle.wait(slot).unwrap_or_else(PoisonError::into_inner);
            }
            slot.generation = slot.generation.wrapping_add(1);
            std::mem::replace(&mut slot.callback, new)
        };
        drop(old);
    }

    /// Removes the closure: `set_callback(None)`.
    pub fn clear_callback(&self) {
        self.set_callback(None::<fn(&LoaderEvent)>);
    }

    /// Takes a panic of the callback that has not been resumed yet (e.g. one
    /// on the polling thread), so that the closure runs again; `None` when
    /// there is none.
    pub fn take_panic(&self) -> Option<Box<dyn Any + Send + 'static>> {
        self.shared.pending_panic().take()
    }
}

impl Drop for Loader {
    /// Stops polling (waiting for a refresh in progress and its callback to
    /// end), frees the loader, then drops the closure. Configurations
    /// obtained from it stay valid.
    ///
    /// Dropped inside its own callback (the closure held the last `Arc` of
    /// it), it cannot wait for that callback: the loader is then freed on a
    /// new thread, as soon as the callback has returned.
    fn drop(&mut self) {
        if Inside::contains(&self.shared) {
            let raw = SendLoader(self.raw);
            let shared = Arc::clone(&self.shared);
            let freeing = thread::Builder::new().name("pathconfig-loader-free".into()).spawn(move || {
                raw.free();
                drop(shared);
            });
            if freeing.is_err() {
                // No thread, and freeing here would wait for this very
                // callback: leak the loader and keep its payload alive.
                std::mem::forget(Arc::clone(&self.shared));
            }
            return;
        }
        // SAFETY: self.raw is a live loader owned by this value; no other
        // call on it is in progress (Drop has it exclusively) and this is not
        // its callback's thread (checked above). No callback runs after this
        // returns, so `shared` may be dropped next.
        unsafe { sys::pathconfig_loader_free(self.raw.as_ptr()) }
    }
}

/// A loader handle moved to the thread that frees it.
struct SendLoader(NonNull<sys::pathconfig_loader>);

// SAFETY: the header allows pathconfig_loader_free from any thread; the
// handle is owned by this value alone once its `Loader` is gone.
unsafe impl Send for SendLoader {}

impl SendLoader {
    fn free(self) {
        // SAFETY: the handle is live and owned by `self`; pathconfig_loader_free
        // waits for the callback that dropped the `Loader` to return.
        unsafe { sys::pathconfig_loader_free(self.0.as_ptr()) }
    }
}

impl Binding for Loader {
    type Raw = *mut sys::pathconfig_loader;

    /// Takes ownership of a loader made by C code. Its C callback, if any,
    /// is replaced by this crate's trampoline (waiting for a running one).
    unsafe fn from_raw(raw: *mut sys::pathconfig_loader) -> Loader {
        Loader::adopt(NonNull::new(raw).expect("Loader::from_raw: NULL handle"))
    }

    /// The handle, for C code that calls `pathconfig_loader_current`,
    /// `_load`, `_refresh` or `_cache_file` on it. Never free it or set its
    /// callback (the crate's closure would stop being called).
    fn raw(&self) -> *mut sys::pathconfig_loader {
        self.raw.as_ptr()
    }
}

impl fmt::Debug for Loader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let has_callback = {
            let slot = self.shared.slot();
            slot.callback.is_some() || slot.running.is_some()
        };
        f.debug_struct("Loader").field("raw", &self.raw).field("has_callback", &has_callback).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_escaped() {
        let sources = [
            Source::file("/data/we\"ird\\dir/é.json"),
            Source::data("{\"rules\": []}\n", "a\tb"),
            Source::server("https://h/p.json?a=\"1\"").header("Accept", "application/json").header("X-Q", "\"\\\u{1}"),
        ];
        assert_eq!(
            sources_json(&sources).unwrap(),
            concat!(
                r#"[{"file":"/data/we\"ird\\dir/é.json"},"#,
                r#"{"data":"{\"rules\": []}\n","name":"a\tb"},"#,
                r#"{"server":"https://h/p.json?a=\"1\"","headers":{"Accept":"application/json","X-Q":"\"\\\u0001"}}]"#
            )
        );
        assert_eq!(sources_json(&[]).unwrap(), "[]");
    }

    #[test]
    fn bad_paths_are_argument_errors() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let not_utf8 = Path::new(OsStr::from_bytes(b"/tmp/\xff.json"));
        assert_eq!(Source::file(not_utf8).to_json().unwrap_err().code(), ErrorCode::Argument);
        assert_eq!(Source::file("/tmp/a\0b").to_json().unwrap_err().code(), ErrorCode::Argument);
        assert_eq!(LoaderOptions::new().cache_dir(not_utf8).to_json().unwrap_err().code(), ErrorCode::Argument);
        assert_eq!(LoaderOptions::new().ca_file("a\0b").to_json().unwrap_err().code(), ErrorCode::Argument);
    }

    #[test]
    fn options_extend_the_load_options() {
        let options = LoaderOptions::from(Options::new().lenient(true).raw_option("x", "1"))
            .cache_dir("/c")
            .timeout(Duration::from_micros(1500))
            .max_body_bytes(1024)
            .refresh_interval(Duration::from_secs(60))
            .user_agent("ua\n")
            .ca_file("/etc/ca.pem");
        assert_eq!(
            options.to_json().unwrap(),
            r#"{"lenient":true,"x":1,"cache_dir":"/c","timeout_ms":2,"max_body_bytes":1024,"refresh_interval_ms":60000,"user_agent":"ua\n","ca_file":"/etc/ca.pem"}"#
        );
        assert_eq!(millis(Duration::ZERO), 0);
        assert_eq!(millis(Duration::from_nanos(1)), 1);
        assert_eq!(millis(Duration::from_millis(5)), 5);
        assert_eq!(millis(Duration::MAX), 18446744073709551616000);
        assert!(LoaderOptions::new().is_default() && !LoaderOptions::new().lenient(false).is_default());
        assert_eq!(LoaderOptions::new().profile("turbo-ios").options(), &Options::new().profile("turbo-ios"));
    }

    #[test]
    fn reasons_follow_the_error_code() {
        let download = Error::new(ErrorCode::Download, "d");
        let cache = Error::new(ErrorCode::Cache, "c");
        assert_eq!(Reason::from_raw(0, Some(&download)), None);
        assert_eq!(Reason::from_raw(sys::PATHCONFIG_DOWNLOAD_TIMEOUT, Some(&download)), Some(Reason::Timeout));
        assert_eq!(Reason::from_raw(sys::PATHCONFIG_CACHE_CORRUPT, Some(&cache)), Some(Reason::CacheCorrupt));
        assert_eq!(Reason::from_raw(1, None), Some(Reason::Unknown(1)));
        assert_eq!(Reason::from_raw(99, Some(&download)), Some(Reason::Unknown(99)));
        assert_eq!(EventKind::from_raw(77), EventKind::Unknown(77));
        assert_eq!(SourceKind::from_raw(sys::PATHCONFIG_SOURCE_CACHE).as_str(), "cache");
    }
}
