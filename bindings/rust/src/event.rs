//! What a [`Loader`]'s callback receives: [`LoaderEvent`], an
//! owned copy of `pathconfig_loader_event`, with its [`EventKind`],
//! [`SourceKind`] and [`Reason`].

use std::ffi::{c_char, c_int, CStr};
use std::fmt;
use std::ptr::NonNull;

use crate::config::PathConfiguration;
use crate::error::{Error, ErrorCode};
use crate::sys;
use crate::util::Binding;
#[cfg(doc)]
use crate::{Loader, LoaderOptions, Source};

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
    /// A status other than 200 (or 304 answering a conditional request), a
    /// redirect not followed among them; see [`LoaderEvent::http_status`].
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
    pub(crate) unsafe fn from_raw(raw: &sys::pathconfig_loader_event) -> LoaderEvent {
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

#[cfg(test)]
mod tests {
    use super::*;

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
