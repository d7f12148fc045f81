//! [`Error`] and [`ErrorCode`]: what a failed call reports.

use std::ffi::{c_int, CStr, NulError};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::sys;

/// The kind of failure, one per `PATHCONFIG_E_*` code of the C API.
///
/// The C numbers are stable and only appended to; a code this crate does not
/// know yet (from a newer library) is [`ErrorCode::Unknown`], and
/// [`Error::raw_code`] still has the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `PATHCONFIG_E_JSON` (1): the document is not JSON (or not UTF-8); line and column say where.
    Json,
    /// `PATHCONFIG_E_SCHEMA` (2): JSON, but not a path configuration; line, column and rule index say where.
    Schema,
    /// `PATHCONFIG_E_REGEX` (3): a pattern the regex engine rejects; rule and pattern index say which.
    Regex,
    /// `PATHCONFIG_E_OPTIONS` (4): the options are malformed, have an unknown key or a bad value.
    Options,
    /// `PATHCONFIG_E_IO` (5): the file could not be opened or read.
    Io,
    /// `PATHCONFIG_E_LIMIT` (6): the input exceeds a limit (size, depth, counts, pattern length,
    /// a lookup's URL length).
    Limit,
    /// `PATHCONFIG_E_BACKEND` (7): the requested regex backend is not built in.
    Backend,
    /// `PATHCONFIG_E_ARGUMENT` (8): a bad argument: an interior NUL, a path that
    /// is not UTF-8, an unknown typed key.
    Argument,
    /// `PATHCONFIG_E_NOMEM` (9): the library could not allocate a string.
    NoMem,
    /// `PATHCONFIG_E_INTERNAL` (10): a bug in libpathconfig (or in this crate).
    Internal,
    /// `PATHCONFIG_E_TYPE` (11): the key holds a value of another JSON type.
    Type,
    /// `PATHCONFIG_E_DOWNLOAD` (12): a loader's download brought no usable response.
    Download,
    /// `PATHCONFIG_E_CACHE` (13): a loader's cache file was ignored or could not be written.
    Cache,
    /// `PATHCONFIG_E_MISUSE` (14): a call the object's state forbids (a loader
    /// loading from inside its own callback).
    Misuse,
    /// `PATHCONFIG_E_CALLBACK` (15): a lookup failed because a predicate or
    /// configurer of a rule added from code failed (returned `Err` or
    /// panicked); [`Error::rule_index`] names the rule, the message quotes
    /// what the closure said. Such a lookup is not memoised.
    Callback,
    /// `PATHCONFIG_E_URL` (16): the profile's app crashes on the URL looked
    /// up, so there is no answer (turbo-android on a URL `java.net.URL`
    /// rejects: an unknown scheme, a port that is not a number, a bad IPv6
    /// literal); the message says why.
    Url,
    /// `PATHCONFIG_E_CRASH` (17, since 1.1.0): the profile's app throws where
    /// it reads a typed key, so the key has no value: hotwire-android 1.2
    /// and later read a boolean key with `as Boolean`, which throws
    /// `ClassCastException` for a string (`"true"` included) or a number;
    /// turbo-android reads a missing `uri` with `Uri.parse(null)`. Returned
    /// by [`Properties::typed`], [`typed_bool`] and [`typed_str`]; the
    /// message names the exception.
    ///
    /// [`Properties::typed`]: crate::Properties::typed
    /// [`typed_bool`]: crate::Properties::typed_bool
    /// [`typed_str`]: crate::Properties::typed_str
    Crash,
    /// `PATHCONFIG_E_FORKED` (18, since 1.1.0): [`Loader::load`] or
    /// [`Loader::refresh`] in a child of `fork()` on a loader made before the
    /// fork: nothing was done, and calling again never helps (the polling
    /// thread stayed in the parent). Make the child's own loader;
    /// [`Loader::current`] and dropping still work.
    ///
    /// [`Loader::load`]: crate::Loader::load
    /// [`Loader::refresh`]: crate::Loader::refresh
    /// [`Loader::current`]: crate::Loader::current
    Forked,
    /// A code this crate does not know; see [`Error::raw_code`].
    Unknown,
}

/// Each code and its C number: the one place a code is mapped.
const CODES: [(ErrorCode, c_int); 18] = [
    (ErrorCode::Json, sys::PATHCONFIG_E_JSON),
    (ErrorCode::Schema, sys::PATHCONFIG_E_SCHEMA),
    (ErrorCode::Regex, sys::PATHCONFIG_E_REGEX),
    (ErrorCode::Options, sys::PATHCONFIG_E_OPTIONS),
    (ErrorCode::Io, sys::PATHCONFIG_E_IO),
    (ErrorCode::Limit, sys::PATHCONFIG_E_LIMIT),
    (ErrorCode::Backend, sys::PATHCONFIG_E_BACKEND),
    (ErrorCode::Argument, sys::PATHCONFIG_E_ARGUMENT),
    (ErrorCode::NoMem, sys::PATHCONFIG_E_NOMEM),
    (ErrorCode::Internal, sys::PATHCONFIG_E_INTERNAL),
    (ErrorCode::Type, sys::PATHCONFIG_E_TYPE),
    (ErrorCode::Download, sys::PATHCONFIG_E_DOWNLOAD),
    (ErrorCode::Cache, sys::PATHCONFIG_E_CACHE),
    (ErrorCode::Misuse, sys::PATHCONFIG_E_MISUSE),
    (ErrorCode::Callback, sys::PATHCONFIG_E_CALLBACK),
    (ErrorCode::Url, sys::PATHCONFIG_E_URL),
    (ErrorCode::Crash, sys::PATHCONFIG_E_CRASH),
    (ErrorCode::Forked, sys::PATHCONFIG_E_FORKED),
];

impl ErrorCode {
    /// The code for a C status number (a `PATHCONFIG_E_*` constant).
    pub fn from_raw(code: i32) -> ErrorCode {
        CODES.iter().find(|&&(_, raw)| raw == code).map_or(ErrorCode::Unknown, |&(c, _)| c)
    }

    /// The C number (positive), or `None` for [`ErrorCode::Unknown`].
    pub fn raw(self) -> Option<i32> {
        CODES.iter().find(|&&(c, _)| c == self).map(|&(_, raw)| raw)
    }

    /// The C name, e.g. `"PATHCONFIG_E_JSON"`, as `pathconfig_error_name` gives it.
    pub fn name(self) -> &'static str {
        match self.raw() {
            Some(code) => error_name(code),
            None => "PATHCONFIG_E_UNKNOWN",
        }
    }

    /// True for the codes a load can fail with that are about the input
    /// (`Json`, `Schema`, `Regex`, `Limit`), as opposed to the call.
    pub fn is_document_error(self) -> bool {
        matches!(self, ErrorCode::Json | ErrorCode::Schema | ErrorCode::Regex | ErrorCode::Limit)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The C name of a status code (`pathconfig_error_name`): `"PATHCONFIG_E_JSON"`
/// for 1, `"PATHCONFIG_OK"` for 0, `"PATHCONFIG_E_UNKNOWN"` for a code
/// the library does not know.
pub fn error_name(code: i32) -> &'static str {
    // SAFETY: pathconfig_error_name accepts any int and returns a static,
    // never-NULL, NUL-terminated string.
    let name = unsafe { CStr::from_ptr(sys::pathconfig_error_name(code)) };
    name.to_str().unwrap_or("PATHCONFIG_E_UNKNOWN")
}

/// A failed call: what went wrong ([`code`](Error::code)), where in the
/// document ([`line`](Error::line), [`column`](Error::column),
/// [`rule_index`](Error::rule_index), [`pattern_index`](Error::pattern_index))
/// and a human-readable [`message`](Error::message) that does not repeat the
/// position. An [`ErrorCode::Io`] error also has the operating system's error
/// number ([`raw_os_error`](Error::raw_os_error),
/// [`io_error_kind`](Error::io_error_kind)), as [`std::io::Error`] does.
///
/// An error of [`PathConfiguration::from_file`] names the file
/// ([`path`](Error::path)), as the Python binding's do.
///
/// `Display` prints `PATH:LINE:COLUMN: MESSAGE` when there is a position
/// (`LINE:COLUMN: MESSAGE` for a document given as text), as the
/// `pathconfig` command and the C header print it; without a position, the
/// message, after `PATH: ` when the message does not name the file itself.
///
/// ```
/// use pathconfig::{ErrorCode, Options, PathConfiguration};
///
/// let err = PathConfiguration::from_json("{\"rules\": [}", &Options::new()).unwrap_err();
/// assert_eq!(err.code(), ErrorCode::Json);
/// assert_eq!((err.line(), err.column()), (Some(1), Some(12)));
/// assert!(err.to_string().starts_with("1:12: "));
///
/// let file = std::env::temp_dir().join("pathconfig-doc-bad.json");
/// std::fs::write(&file, "{\"rules\": [}").unwrap();
/// let err = PathConfiguration::from_file(&file, &Options::new()).unwrap_err();
/// assert_eq!(err.path(), Some(file.as_path()));
/// assert!(err.to_string().starts_with(&format!("{}:1:12: ", file.display())));
/// # std::fs::remove_file(&file).unwrap();
/// ```
///
/// [`PathConfiguration::from_file`]: crate::PathConfiguration::from_file
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    raw_code: i32,
    line: u32,
    column: u32,
    rule_index: Option<usize>,
    pattern_index: Option<usize>,
    os_error: Option<i32>,
    message: String,
    path: Option<PathBuf>,
}

impl Error {
    /// An error made on the Rust side of the boundary (no position).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            raw_code: code.raw().unwrap_or(-1),
            line: 0,
            column: 0,
            rule_index: None,
            pattern_index: None,
            os_error: None,
            message: message.into(),
            path: None,
        }
    }

    /// The same error, naming the file it is about.
    pub(crate) fn with_path(mut self, path: &Path) -> Error {
        self.path = Some(path.to_path_buf());
        self
    }

    /// The same error, at a 1-based line and column.
    pub(crate) fn at(mut self, line: usize, column: usize) -> Error {
        self.line = u32::try_from(line).unwrap_or(u32::MAX);
        self.column = u32::try_from(column).unwrap_or(u32::MAX);
        self
    }

    /// The error a `pathconfig_error` holds. A cleared struct (code 0) means
    /// the library reported a failure without saying why: that is
    /// [`ErrorCode::Internal`] with a canned message.
    pub fn from_raw(raw: &sys::pathconfig_error) -> Error {
        if raw.code == sys::PATHCONFIG_OK {
            return Error::new(ErrorCode::Internal, "libpathconfig reported a failure without an error code");
        }
        // The message is a NUL-terminated array; never read past its end even
        // if the terminator is missing. It is UTF-8 (cut at a character
        // boundary); lossy decoding only guards against a library bug.
        let bytes: Vec<u8> = raw.message.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
        let message = String::from_utf8_lossy(&bytes).into_owned();
        let index = |i: c_int| usize::try_from(i).ok();
        Error {
            code: ErrorCode::from_raw(raw.code),
            raw_code: raw.code,
            line: u32::try_from(raw.line).unwrap_or(0),
            column: u32::try_from(raw.column).unwrap_or(0),
            rule_index: index(raw.rule_index),
            pattern_index: index(raw.pattern_index),
            os_error: (raw.os_error != 0).then_some(raw.os_error),
            message: if message.is_empty() { error_name(raw.code).to_string() } else { message },
            path: None,
        }
    }

    /// The calling thread's last error (`pathconfig_last_error`). Read it
    /// right after the call that failed, before any other call into the
    /// library on this thread.
    pub(crate) fn last() -> Error {
        match last_raw() {
            Some(raw) => Error::from_raw(&raw),
            None => Error::new(ErrorCode::Internal, "pathconfig_last_error returned NULL"),
        }
    }

    /// The calling thread's last error, `None` when it is cleared (the last
    /// call succeeded): for functions whose NULL may mean "no value".
    pub(crate) fn last_if_set() -> Option<Error> {
        match last_raw() {
            Some(raw) if raw.code == sys::PATHCONFIG_OK => None,
            _ => Some(Error::last()),
        }
    }

    /// The last error if it has a code, else an error with `fallback`'s code
    /// (for the calls that return a status).
    pub(crate) fn last_or(fallback: c_int) -> Error {
        match last_raw() {
            Some(raw) if raw.code != sys::PATHCONFIG_OK => Error::from_raw(&raw),
            _ => Error::new(ErrorCode::from_raw(fallback), format!("{} (no message recorded)", error_name(fallback))),
        }
    }

    /// What kind of failure this is.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The C status number (`pathconfig_error.code`), also for codes
    /// [`ErrorCode`] does not know.
    pub fn raw_code(&self) -> i32 {
        self.raw_code
    }

    /// 1-based line in the JSON document, when the failure has a position.
    pub fn line(&self) -> Option<u32> {
        (self.line > 0).then_some(self.line)
    }

    /// 1-based column in the JSON document, counted in Unicode scalars.
    pub fn column(&self) -> Option<u32> {
        (self.column > 0).then_some(self.column)
    }

    /// 0-based index of the rule at fault (schema and regex errors).
    pub fn rule_index(&self) -> Option<usize> {
        self.rule_index
    }

    /// 0-based index of the pattern within that rule (regex errors).
    pub fn pattern_index(&self) -> Option<usize> {
        self.pattern_index
    }

    /// The human-readable message, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The file the error is about: the one given to
    /// [`PathConfiguration::from_file`](crate::PathConfiguration::from_file).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// For an [`ErrorCode::Io`] error, the operating system's error number
    /// (`errno`: `ENOENT`, `EACCES`, ...) of the call that failed, as
    /// [`std::io::Error::raw_os_error`] gives it; `None` for other errors.
    pub fn raw_os_error(&self) -> Option<i32> {
        self.os_error
    }

    /// For an [`ErrorCode::Io`] error, what [`std::io::Error`] makes of
    /// [`raw_os_error`](Self::raw_os_error) (`NotFound`, `PermissionDenied`,
    /// ...); `None` for other errors.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use pathconfig::{ErrorCode, Options, PathConfiguration};
    ///
    /// let err = PathConfiguration::from_file("/nonexistent/pc.json", &Options::new()).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::Io);
    /// assert_eq!(err.io_error_kind(), Some(ErrorKind::NotFound));
    /// ```
    pub fn io_error_kind(&self) -> Option<io::ErrorKind> {
        self.os_error.map(|n| io::Error::from_raw_os_error(n).kind())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            let shown = path.display().to_string();
            if self.line > 0 || !self.message.contains(&shown) {
                write!(f, "{shown}:{}", if self.line > 0 { "" } else { " " })?;
            }
        }
        if self.line > 0 {
            write!(f, "{}:{}: ", self.line, self.column)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A string argument with an interior NUL cannot cross the C API: it becomes
/// an [`ErrorCode::Argument`] error, as the library reports bad arguments.
impl From<NulError> for Error {
    fn from(e: NulError) -> Error {
        Error::new(
            ErrorCode::Argument,
            format!(
                "string argument contains a NUL byte at byte {}; the C API takes NUL-terminated strings",
                e.nul_position()
            ),
        )
    }
}

/// A copy of the calling thread's last error, `None` if the library returned NULL.
fn last_raw() -> Option<sys::pathconfig_error> {
    // SAFETY: pathconfig_last_error takes no arguments and returns NULL or a
    // pointer to this thread's error, valid until its next pathconfig_* call;
    // it is copied out here before any other call.
    unsafe { sys::pathconfig_last_error().as_ref().copied() }
}

/// A fresh, cleared `pathconfig_error` to pass as `err`.
pub(crate) fn blank() -> sys::pathconfig_error {
    sys::pathconfig_error {
        code: 0,
        line: 0,
        column: 0,
        message: [0; 512],
        rule_index: -1,
        pattern_index: -1,
        os_error: 0,
    }
}
