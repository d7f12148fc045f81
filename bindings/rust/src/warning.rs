//! [`Warning`]: what a load noticed but accepted, read through
//! `pathconfig_warning_get`.

use std::ffi::{c_int, CStr};
use std::fmt;
use std::ptr;

use crate::error::Error;
use crate::sys;

/// What kind of thing a [`Warning`] is about: a `PATHCONFIG_WARNING_*`
/// constant, named by the library ([`as_str`](Self::as_str)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// `PATHCONFIG_WARNING_DUPLICATE_KEY`: a key repeated in one object; the
    /// message says which value the profile's app keeps.
    DuplicateKey,
    /// `PATHCONFIG_WARNING_SKIPPED_PATTERN`: an invalid pattern skipped by a
    /// [lenient](crate::Options::lenient) load.
    SkippedPattern,
    /// `PATHCONFIG_WARNING_IGNORED_SETTINGS`: a `settings` that is not an object.
    IgnoredSettings,
    /// `PATHCONFIG_WARNING_NOT_PORTABLE`: a rule uses `globs` or `methods`,
    /// which the profile's mobile app does not read.
    NotPortable,
    /// A kind this crate does not know yet (from a newer library), by number;
    /// [`as_str`](Self::as_str) still names it.
    Unknown(i32),
}

impl WarningKind {
    /// The kind for a C number.
    pub fn from_raw(kind: i32) -> WarningKind {
        match kind {
            sys::PATHCONFIG_WARNING_DUPLICATE_KEY => WarningKind::DuplicateKey,
            sys::PATHCONFIG_WARNING_SKIPPED_PATTERN => WarningKind::SkippedPattern,
            sys::PATHCONFIG_WARNING_IGNORED_SETTINGS => WarningKind::IgnoredSettings,
            sys::PATHCONFIG_WARNING_NOT_PORTABLE => WarningKind::NotPortable,
            other => WarningKind::Unknown(other),
        }
    }

    /// The C number.
    pub fn raw(self) -> i32 {
        match self {
            WarningKind::DuplicateKey => sys::PATHCONFIG_WARNING_DUPLICATE_KEY,
            WarningKind::SkippedPattern => sys::PATHCONFIG_WARNING_SKIPPED_PATTERN,
            WarningKind::IgnoredSettings => sys::PATHCONFIG_WARNING_IGNORED_SETTINGS,
            WarningKind::NotPortable => sys::PATHCONFIG_WARNING_NOT_PORTABLE,
            WarningKind::Unknown(n) => n,
        }
    }

    /// The library's name for the kind (`pathconfig_warning_kind_name`), e.g.
    /// `"duplicate-key"`; `"unknown"` for a number the library does not have.
    pub fn as_str(self) -> &'static str {
        // SAFETY: any number may be passed; the result is NULL or static.
        let p = unsafe { sys::pathconfig_warning_kind_name(self.raw()) };
        if p.is_null() {
            return "unknown";
        }
        // SAFETY: a static, NUL-terminated string.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("unknown")
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One warning of a load
/// ([`PathConfiguration::warnings`](crate::PathConfiguration::warnings)).
///
/// `Display` prints `LINE:COLUMN: MESSAGE` when there is a position.
///
/// ```
/// use pathconfig::{Options, PathConfiguration, WarningKind};
///
/// let json = r#"{"rules": [{"patterns": ["(["], "properties": {}}]}"#;
/// let config = PathConfiguration::from_json(json, &Options::new().lenient(true))?;
/// let warnings = config.warnings()?;
/// assert_eq!(warnings[0].kind, WarningKind::SkippedPattern);
/// assert_eq!(warnings[0].kind.as_str(), "skipped-pattern");
/// assert_eq!((warnings[0].rule_index, warnings[0].pattern_index), (Some(0), Some(0)));
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// What it is about.
    pub kind: WarningKind,
    /// Human readable, without the position.
    pub message: String,
    /// 1-based line in the document, when known.
    pub line: Option<u32>,
    /// 1-based column in the document (Unicode scalars), when known.
    pub column: Option<u32>,
    /// 0-based index of the rule concerned, when any.
    pub rule_index: Option<usize>,
    /// 0-based index of the pattern within that rule, when any.
    pub pattern_index: Option<usize>,
}

impl Warning {
    /// Every warning of the configuration `cfg`, copied.
    ///
    /// # Safety
    ///
    /// `cfg` is a live configuration handle for the duration of the call.
    pub(crate) unsafe fn read_all(cfg: *const sys::pathconfig) -> Result<Vec<Warning>, Error> {
        // SAFETY: cfg is live (the caller's contract).
        let n = unsafe { sys::pathconfig_warning_count(cfg) };
        (0..n)
            .map(|i| {
                let mut w = sys::pathconfig_warning {
                    version: sys::PATHCONFIG_WARNING_VERSION,
                    kind: 0,
                    line: 0,
                    column: 0,
                    rule_index: -1,
                    pattern_index: -1,
                    message: ptr::null(),
                };
                // SAFETY: cfg is live, i < the count, `w` is writable with its
                // version set; the message it receives is borrowed from cfg,
                // which outlives this copy.
                let rc = unsafe { sys::pathconfig_warning_get(cfg, i, &mut w) };
                if rc != sys::PATHCONFIG_OK {
                    return Err(Error::last_or(rc));
                }
                // SAFETY: on success `message` is a NUL-terminated string
                // borrowed from cfg ("never NULL").
                let message = unsafe { CStr::from_ptr(w.message) }.to_string_lossy().into_owned();
                let position = |n: c_int| u32::try_from(n).ok().filter(|&n| n > 0);
                let index = |n: c_int| usize::try_from(n).ok();
                Ok(Warning {
                    kind: WarningKind::from_raw(w.kind),
                    message,
                    line: position(w.line),
                    column: position(w.column),
                    rule_index: index(w.rule_index),
                    pattern_index: index(w.pattern_index),
                })
            })
            .collect()
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, "{line}:{column}: ")?;
        }
        f.write_str(&self.message)
    }
}
