//! [`PathConfiguration`]: a loaded configuration (`pathconfig *`).

use std::ffi::{c_char, CString};
use std::fmt;
use std::path::Path;
use std::ptr::{self, NonNull};

use crate::catalog::Profile;
use crate::error::{self, Error, ErrorCode};
use crate::options::Options;
use crate::properties::Properties;
use crate::sys;
use crate::util::{self, Binding};
use crate::warning::Warning;

/// A loaded path configuration: immutable, shared, cheap to clone.
///
/// Load it once with [`from_json`](Self::from_json) or
/// [`from_file`](Self::from_file), then ask for the [`properties`](Self::properties)
/// of each URL. Lookups are cached per matched string inside the library.
///
/// `Clone` adds a reference to the same C handle (`pathconfig_retain`);
/// dropping the last clone frees it (`pathconfig_release`). A
/// [`Properties`] does not borrow its configuration and may outlive it.
///
/// ```
/// use pathconfig::{Options, PathConfiguration};
///
/// let json = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
/// let config = PathConfiguration::from_json(json, &Options::new().profile("turbo-ios"))?;
/// assert_eq!(config.profile(), "turbo-ios");
/// let props = config.properties("https://example.com/messages/new")?;
/// assert_eq!(props.context(), "modal");
/// assert_eq!(props.json(), r#"{"context":"modal"}"#);
/// assert_eq!(config.properties("/messages")?.json(), "{}");
/// # Ok::<(), pathconfig::Error>(())
/// ```
pub struct PathConfiguration {
    raw: NonNull<sys::pathconfig>,
}

// SAFETY: (Send) the handle is a reference-counted, immutable object that is
// not tied to the thread that made it; retain/release are atomic, so the
// reference this value owns may be released from any thread.
unsafe impl Send for PathConfiguration {}
// SAFETY: (Sync) every method takes `&self` and calls functions the header
// documents as safe on one handle from any number of threads at once ("A
// configuration is immutable: any number of threads may use one handle at
// once, and retain/release are atomic"); the library's lookup cache is
// internally synchronised. Per-call error state is thread-local, and each
// method reads it on the thread that made the call.
unsafe impl Sync for PathConfiguration {}

impl PathConfiguration {
    /// Loads a configuration from JSON text.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Json`], [`Schema`](ErrorCode::Schema),
    /// [`Regex`](ErrorCode::Regex) and [`Limit`](ErrorCode::Limit) for the
    /// document (with line, column, rule and pattern index),
    /// [`Options`](ErrorCode::Options) and [`Backend`](ErrorCode::Backend) for
    /// the options.
    pub fn from_json(json: &str, options: &Options) -> Result<PathConfiguration, Error> {
        PathConfiguration::from_slice(json.as_bytes(), options)
    }

    /// Loads a configuration from JSON bytes (e.g. a file read by the caller).
    /// Bytes that are not UTF-8 are an [`ErrorCode::Json`] error.
    pub fn from_slice(json: &[u8], options: &Options) -> Result<PathConfiguration, Error> {
        let options = options_cstring(options)?;
        let mut err = error::blank();
        // SAFETY: `json` is `json.len()` readable bytes (the C side reads
        // exactly `len`, no terminator needed); `options` is NULL or a
        // NUL-terminated string; `err` is a writable pathconfig_error. All
        // three outlive the call and none is retained by the library.
        let raw = unsafe { sys::pathconfig_load_json(json.as_ptr().cast(), json.len(), opt_ptr(&options), &mut err) };
        PathConfiguration::loaded(raw, &err)
    }

    /// Loads a configuration from a file.
    ///
    /// # Errors
    ///
    /// Those of [`from_json`](Self::from_json), and [`ErrorCode::Io`] when
    /// the file cannot be read; [`ErrorCode::Argument`] for a path that is
    /// not UTF-8 or contains a NUL.
    pub fn from_file(path: impl AsRef<Path>, options: &Options) -> Result<PathConfiguration, Error> {
        let path = path.as_ref();
        let path = path
            .to_str()
            .ok_or_else(|| Error::new(ErrorCode::Argument, format!("path is not valid UTF-8: {}", path.display())))?;
        let path = util::cstring(path)?;
        let options = options_cstring(options)?;
        let mut err = error::blank();
        // SAFETY: `path` and `options` (or NULL) are NUL-terminated strings
        // and `err` a writable pathconfig_error, all alive across the call and
        // not retained.
        let raw = unsafe { sys::pathconfig_load_file(path.as_ptr(), opt_ptr(&options), &mut err) };
        PathConfiguration::loaded(raw, &err)
    }

    fn loaded(raw: *mut sys::pathconfig, err: &sys::pathconfig_error) -> Result<PathConfiguration, Error> {
        match NonNull::new(raw) {
            Some(raw) => Ok(PathConfiguration { raw }),
            None => Err(Error::from_raw(err)),
        }
    }

    fn ptr(&self) -> *const sys::pathconfig {
        self.raw.as_ptr()
    }

    /// The merged properties of every rule matching `url_or_path` (an
    /// absolute URL, or a path matched as given).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] when `url_or_path` contains a NUL.
    pub fn properties(&self, url_or_path: &str) -> Result<Properties, Error> {
        let url = util::cstring(url_or_path)?;
        let mut err = error::blank();
        // SAFETY: self.ptr() is a live handle; `url` is NUL-terminated and
        // `err` writable, both alive across the call.
        let raw = unsafe { sys::pathconfig_resolve(self.ptr(), url.as_ptr(), &mut err) };
        match NonNull::new(raw) {
            // SAFETY: a non-NULL result of pathconfig_resolve is a new
            // result the caller owns and frees once.
            Some(raw) => Ok(unsafe { Properties::from_raw(raw.as_ptr()) }),
            None => Err(Error::from_raw(&err)),
        }
    }

    /// The merged properties as a JSON object (`pathconfig_properties`),
    /// without keeping a [`Properties`]: the same text as
    /// [`Properties::json`].
    pub fn properties_json(&self, url_or_path: &str) -> Result<String, Error> {
        self.string_call(url_or_path, sys::pathconfig_properties, "pathconfig_properties")
    }

    /// Why `url_or_path` resolves as it does, as a JSON object: `input`,
    /// `matched_string`, `rules` (each `index`, `pattern`, `pattern_index`,
    /// `description` when the rule has one, `builtin: true` for a profile's
    /// rule), `properties`, and `limit_exceeded` when a search ran out of its
    /// budget.
    pub fn explain(&self, url_or_path: &str) -> Result<String, Error> {
        self.string_call(url_or_path, sys::pathconfig_explain, "pathconfig_explain")
    }

    /// The string the patterns see for `url_or_path` under this
    /// configuration's profile and options (e.g. `"/messages/new?x=1"`).
    pub fn matched_string(&self, url_or_path: &str) -> Result<String, Error> {
        self.string_call(url_or_path, sys::pathconfig_matched_string, "pathconfig_matched_string")
    }

    /// The document's top-level `settings` as a JSON object (`"{}"` when
    /// absent or not an object).
    pub fn settings(&self) -> Result<String, Error> {
        // SAFETY: self.ptr() is a live handle; the returned string is the
        // caller's and take_string frees it right after this call.
        unsafe { util::take_string(sys::pathconfig_settings(self.ptr()), "pathconfig_settings") }
    }

    /// What the load noticed but accepted: duplicate keys, patterns skipped
    /// by a [lenient](Options::lenient) load, settings ignored. The library
    /// never prints them.
    pub fn warnings(&self) -> Result<Vec<Warning>, Error> {
        // SAFETY: self.ptr() is a live handle for the whole call.
        unsafe { Warning::read_all(self.ptr()) }
    }

    /// The warnings as the library's JSON array (see [`warnings`](Self::warnings)).
    pub fn warnings_json(&self) -> Result<String, Error> {
        // SAFETY: as in `settings`.
        unsafe { util::take_string(sys::pathconfig_warnings(self.ptr()), "pathconfig_warnings") }
    }

    /// The number of rules, the profile's built-in rules included
    /// (`hotwire-ios` and `hotwire-android` append three).
    pub fn rule_count(&self) -> usize {
        // SAFETY: self.ptr() is a live handle.
        unsafe { sys::pathconfig_rule_count(self.ptr()) }
    }

    /// The number of rules the document itself has.
    pub fn document_rule_count(&self) -> usize {
        // SAFETY: self.ptr() is a live handle.
        unsafe { sys::pathconfig_document_rule_count(self.ptr()) }
    }

    /// The profile's name as the library reports it, e.g. `"hotwire-ios"`.
    pub fn profile_name(&self) -> &'static str {
        // SAFETY: self.ptr() is a live handle; the result is a static
        // string (NULL only for a NULL handle).
        let name = unsafe { util::borrowed_str(sys::pathconfig_profile(self.ptr()), "pathconfig_profile") };
        name.ok().flatten().unwrap_or("")
    }

    /// The profile the configuration was loaded with (one of
    /// [`Profile::all`]).
    pub fn profile(&self) -> Profile {
        let name = self.profile_name();
        Profile::named(name).unwrap_or_else(|| panic!("pathconfig_profile returned {name:?}, not a listed profile"))
    }

    /// Calls one of the `char *f(const pathconfig *, const char *url_or_path)` functions.
    fn string_call(
        &self,
        url_or_path: &str,
        f: unsafe extern "C" fn(*const sys::pathconfig, *const c_char) -> *mut c_char,
        what: &str,
    ) -> Result<String, Error> {
        let url = util::cstring(url_or_path)?;
        // SAFETY: `f` is one of the functions named above, which take a live
        // handle and a NUL-terminated string (both valid across the call) and
        // return a string the caller frees; take_string frees it, with no
        // library call in between.
        unsafe { util::take_string(f(self.ptr(), url.as_ptr()), what) }
    }
}

/// The options as a C string, or `None` for the defaults (NULL is passed).
fn options_cstring(options: &Options) -> Result<Option<CString>, Error> {
    if options.is_default() {
        return Ok(None);
    }
    Ok(Some(util::cstring(&options.to_json())?))
}

fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |s| s.as_ptr())
}

impl Clone for PathConfiguration {
    fn clone(&self) -> PathConfiguration {
        // SAFETY: self.raw is a live handle; pathconfig_retain is atomic and
        // returns the same handle with one more reference, which the clone
        // owns and releases in its Drop.
        let raw = unsafe { sys::pathconfig_retain(self.raw.as_ptr()) };
        PathConfiguration { raw: NonNull::new(raw).expect("pathconfig_retain returned NULL for a live handle") }
    }
}

impl Drop for PathConfiguration {
    fn drop(&mut self) {
        // SAFETY: this value owns one reference to the handle and gives it
        // up exactly once; results resolved from it stay valid.
        unsafe { sys::pathconfig_release(self.raw.as_ptr()) }
    }
}

impl Binding for PathConfiguration {
    type Raw = *mut sys::pathconfig;

    unsafe fn from_raw(raw: *mut sys::pathconfig) -> PathConfiguration {
        PathConfiguration { raw: NonNull::new(raw).expect("PathConfiguration::from_raw: NULL handle") }
    }

    fn raw(&self) -> *mut sys::pathconfig {
        self.raw.as_ptr()
    }
}

impl fmt::Debug for PathConfiguration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PathConfiguration")
            .field("profile", &self.profile_name())
            .field("rule_count", &self.rule_count())
            .field("document_rule_count", &self.document_rule_count())
            .finish()
    }
}
