//! [`Properties`]: the merged properties of one URL (`pathconfig_result *`).
//!
//! This file holds the handle (ownership, `Clone`, `Drop`, `Send + Sync`)
//! and its text and raw reads: [`json`](Properties::json), the raw getters
//! (`get_*`). The other ways to read it live beside it:
//!
//! - `typed.rs`: the typed accessors ([`context`](Properties::context), ...,
//!   [`typed`](Properties::typed)), defaults applied as the profile's app
//!   applies them;
//! - `map.rs`: the map view, [`value`](Properties::value) and
//!   [`map`](Properties::map) (Rust [`Value`](crate::Value)s, the native
//!   map cached per answer);
//! - `iter.rs`: [`Keys`] and [`Iter`], the keys and `(key, value JSON)` pairs.

use std::ffi::{c_char, c_double, c_int};
use std::fmt;
use std::ptr::{self, NonNull};
use std::sync::{Arc, OnceLock};

use crate::error::Error;
use crate::sys;
use crate::util::{self, Binding};
use crate::value::Map;

mod iter;
mod map;
mod typed;

pub use iter::{Iter, Keys};

/// The merged properties of one URL.
///
/// Made by [`PathConfiguration::properties`]; independent of the
/// configuration (it may outlive it). Every `&str` it hands out borrows from
/// it and lives as long as the borrow of `self`. The library works out what
/// is read (JSON text, keys, values, typed values) once per distinct answer
/// and shares it between every result of that answer, so a read is a table
/// lookup and allocates nothing.
///
/// Four ways to read it:
///
/// - the typed accessors: the well-known keys ([`TypedKey::all`](crate::TypedKey::all)) as the
///   profile's app reads them, defaults applied (a missing key, a value of
///   the wrong type or an unknown value gives the default; Android profiles
///   compare enumerations case-insensitively and return them in lower case;
///   hotwire-android before 1.2 and turbo-android read `"true"` as `true`):
///   [`context`](Self::context), [`presentation`](Self::presentation),
///   [`modal_style`](Self::modal_style), ... each one call of
///   `pathconfig_result_typed_string` or `_typed_bool` with its
///   `PATHCONFIG_KEY_*`; [`typed`](Self::typed) reads any of them by name.
///   Where the profile's app crashes reading a key (hotwire-android 1.2 and
///   later on `"pull_to_refresh_enabled": "true"`, turbo-android on a
///   missing `uri`), [`typed`](Self::typed), [`typed_bool`](Self::typed_bool)
///   and [`typed_str`](Self::typed_str) return an [`ErrorCode::Crash`](crate::ErrorCode::Crash)
///   error, and the named accessors, which cannot, the default;
/// - the raw getters ([`get_str`](Self::get_str), [`get_bool`](Self::get_bool),
///   [`get_i64`](Self::get_i64), [`get_f64`](Self::get_f64),
///   [`get_json`](Self::get_json)): a value as the file wrote it, `Ok(None)`
///   when the key is absent, an [`ErrorCode::Type`](crate::ErrorCode::Type) error when it holds
///   another JSON type;
/// - typed Rust values: [`value`](Self::value) for one key, a [`Value`](crate::Value);
///   [`map`](Self::map) for all, a [`Map`] in key order, worked out once per
///   answer;
/// - as text: [`json`](Self::json) (also `Display`), [`keys`](Self::keys),
///   [`iter`](Self::iter) (`(key, value JSON)` pairs).
///
/// ```
/// use pathconfig::{ErrorCode, Options, PathConfiguration, Profile, Value};
///
/// let json = r#"{"rules": [{"patterns": ["^/docs/"],
///     "properties": {"title": "Docs", "presentation": "replace", "pull_to_refresh_enabled": false,
///                    "max_age": 60, "ratio": 1.50, "tags": ["a", "b"]}}]}"#;
/// let config = PathConfiguration::from_json(json, &Options::new().profile(Profile::HotwireIos))?;
/// let props = config.properties("/docs/intro")?;
///
/// // Typed, with defaults.
/// assert_eq!(props.presentation(), "replace");
/// assert_eq!(props.modal_style(), "large");        // absent: the default
/// assert!(!props.pull_to_refresh_enabled());
/// assert_eq!(props.title(), Some("Docs"));
///
/// // Raw.
/// assert_eq!(props.get_i64("max_age")?, Some(60));
/// assert_eq!(props.get_f64("ratio")?, Some(1.5));
/// assert_eq!(props.get_json("ratio")?, Some("1.50"));
/// assert_eq!(props.get_json("tags")?, Some(r#"["a","b"]"#));
/// assert_eq!(props.get_str("missing")?, None);
/// assert_eq!(props.get_str("max_age").unwrap_err().code(), ErrorCode::Type);
///
/// // As Rust values.
/// assert_eq!(props.value("tags")?, Some(Value::Array(vec!["a".into(), "b".into()])));
/// let map = props.map();
/// assert_eq!(map["max_age"], Value::Int(60));
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["title", "presentation", "pull_to_refresh_enabled", "max_age", "ratio", "tags"]);
///
/// // As text.
/// for (key, value_json) in &props {
///     println!("{key} = {value_json}");
/// }
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// # Panics
///
/// The accessors that return plain values ([`json`](Self::json), the
/// iterators, the typed accessors, [`map`](Self::map)) panic only if
/// the library cannot allocate the string it returns
/// (`PATHCONFIG_E_NOMEM`), as Rust's own collections give up when
/// allocation fails; never where the app crashes reading a key.
///
/// [`PathConfiguration::properties`]: crate::PathConfiguration::properties
pub struct Properties {
    raw: NonNull<sys::pathconfig_result>,
    /// The native map, once asked for (shared by the answer's results on
    /// this thread through the cache of `map.rs`).
    map: OnceLock<Arc<Map>>,
}

// SAFETY: (Send) a result is an independent, reference-counted heap object
// ("independent of the configuration it came from"), released by
// pathconfig_result_release from any thread; nothing in it is tied to the
// thread that resolved it.
unsafe impl Send for Properties {}
// SAFETY: (Sync) the header documents a result as "immutable too and may be
// read from several threads". What it gives (JSON text, keys, values, typed
// values) is worked out once per answer inside the library and never changes
// or moves, so `&str`s handed out on one thread stay valid while another
// thread reads. Only Drop (which needs ownership) releases it.
unsafe impl Sync for Properties {}

impl Properties {
    /// What `pathconfig_resolve` returned: the new result, or (NULL) the
    /// failure the calling thread's last error describes (read it before
    /// any other call into the library).
    #[inline]
    pub(crate) fn resolved(raw: *mut sys::pathconfig_result) -> Result<Properties, Error> {
        match NonNull::new(raw) {
            // A non-NULL result is a new reference, the caller's, released once (in Drop).
            Some(raw) => Ok(Properties { raw, map: OnceLock::new() }),
            None => Err(Error::last()),
        }
    }

    fn ptr(&self) -> *const sys::pathconfig_result {
        self.raw.as_ptr()
    }

    /// A string borrowed from the result, for `&self`'s lifetime.
    fn borrowed(&self, p: *const c_char, what: &str) -> Result<Option<&str>, Error> {
        // SAFETY: every pointer passed here was just returned by a
        // pathconfig_result_* function for self.raw, documented as "borrowed
        // from res": NUL-terminated, unchanged and valid while a reference is
        // held, which `self` releases only in Drop, after every borrow of
        // `self` has ended.
        unsafe { util::borrowed_str(p, what) }
    }

    /// A string the caller cannot do without: NULL or bad text is only
    /// possible when the library is out of memory (or has a bug).
    fn required(&self, p: *const c_char, what: &str) -> &str {
        let err = if p.is_null() { Some(Error::last()) } else { None };
        match self.borrowed(p, what) {
            Ok(Some(s)) => s,
            Ok(None) => panic!("{what} failed: {}", err.map_or_else(String::new, |e| e.to_string())),
            Err(e) => panic!("{e}"),
        }
    }

    /// The answer's identity (`pathconfig_result_id`): results with the same
    /// id hold the same properties (two answers of different rules may still
    /// merge to equal properties). Ids are never reused within the process,
    /// so a host may key what it derives from an answer (a decoded struct,
    /// say) on it without holding the result.
    ///
    /// ```
    /// use pathconfig::{Options, PathConfiguration};
    ///
    /// let json = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
    /// let config = PathConfiguration::from_json(json, &Options::new())?;
    /// let a = config.properties("/a/new")?;
    /// assert_eq!(a.id(), config.properties("/b/new")?.id()); // the same rules matched
    /// assert_ne!(a.id(), config.properties("/b")?.id());
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    pub fn id(&self) -> u64 {
        // SAFETY: self.ptr() is a live result.
        unsafe { sys::pathconfig_result_id(self.ptr()) }
    }

    /// The merged properties as a compact JSON object (`"{}"` when no rule
    /// matched), keys in the order they first appeared in the matching rules.
    pub fn json(&self) -> &str {
        // SAFETY: self.ptr() is a live result.
        let p = unsafe { sys::pathconfig_result_json(self.ptr()) };
        self.required(p, "pathconfig_result_json")
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        // SAFETY: self.ptr() is a live result.
        unsafe { sys::pathconfig_result_count(self.ptr()) }
    }

    /// True when no rule matched (or the matching rules have no properties).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The keys, in the order they first appeared in the matching rules.
    pub fn keys(&self) -> Keys<'_> {
        Keys::new(self)
    }

    /// `(key, value as compact JSON)` pairs, in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter::new(self)
    }

    /// The i-th key as the library gives it (i < the count).
    fn key_ptr(&self, i: usize) -> *const c_char {
        // SAFETY: self.ptr() is a live result and i < pathconfig_result_count
        // (the callers never go past it).
        unsafe { sys::pathconfig_result_key(self.ptr(), i) }
    }

    fn key_at(&self, i: usize) -> &str {
        self.required(self.key_ptr(i), "pathconfig_result_key")
    }

    /// Whether the merged properties have `key` (with any value, `null` included).
    pub fn contains_key(&self, key: &str) -> Result<bool, Error> {
        // SAFETY: live result, NUL-terminated key; `out` may be NULL.
        let rc =
            util::with_cstr(key, |key| unsafe { sys::pathconfig_result_get_json(self.ptr(), key, ptr::null_mut()) })?;
        status(rc)
    }

    /// A string value, whole (U+0000 included); an [`ErrorCode::Type`](crate::ErrorCode::Type)
    /// error when the key holds another type.
    pub fn get_str(&self, key: &str) -> Result<Option<&str>, Error> {
        let mut out: *const c_char = ptr::null();
        let mut len: usize = 0;
        // SAFETY: live result, NUL-terminated key, `out` and `len` writable;
        // the library sets `out` to `len` bytes borrowed from the result.
        let rc = util::with_cstr(key, |key| unsafe {
            sys::pathconfig_result_get_string(self.ptr(), key, &mut out, &mut len)
        })?;
        if !status(rc)? {
            return Ok(None);
        }
        // SAFETY: on PATHCONFIG_OK `out` points to `len` bytes borrowed from
        // the result, unchanged while `self` holds its reference.
        unsafe { util::borrowed_str_len(out, len, "pathconfig_result_get_string") }.map(Some)
    }

    /// A JSON boolean. The string `"true"` is not one (see
    /// [`typed_bool`](Self::typed_bool) for the apps' reading).
    pub fn get_bool(&self, key: &str) -> Result<Option<bool>, Error> {
        let mut out: c_int = 0;
        // SAFETY: live result, NUL-terminated key, writable `out`.
        let rc = util::with_cstr(key, |key| unsafe { sys::pathconfig_result_get_bool(self.ptr(), key, &mut out) })?;
        Ok(status(rc)?.then_some(out != 0))
    }

    /// A JSON number written without fraction or exponent that fits in
    /// `i64`; any other number is an [`ErrorCode::Type`](crate::ErrorCode::Type) error.
    pub fn get_i64(&self, key: &str) -> Result<Option<i64>, Error> {
        let mut out: i64 = 0;
        // SAFETY: live result, NUL-terminated key, writable `out`.
        let rc = util::with_cstr(key, |key| unsafe { sys::pathconfig_result_get_int64(self.ptr(), key, &mut out) })?;
        Ok(status(rc)?.then_some(out))
    }

    /// Any JSON number, as the nearest `f64`.
    pub fn get_f64(&self, key: &str) -> Result<Option<f64>, Error> {
        let mut out: c_double = 0.0;
        // SAFETY: live result, NUL-terminated key, writable `out`.
        let rc = util::with_cstr(key, |key| unsafe { sys::pathconfig_result_get_double(self.ptr(), key, &mut out) })?;
        Ok(status(rc)?.then_some(out))
    }

    /// Any value (objects, arrays and `null` included) as compact JSON text,
    /// exactly as written (numbers keep their text). Never a type error.
    pub fn get_json(&self, key: &str) -> Result<Option<&str>, Error> {
        let mut out: *const c_char = ptr::null();
        // SAFETY: live result, NUL-terminated key, writable pointer slot;
        // the library sets it to a string borrowed from the result.
        let rc = util::with_cstr(key, |key| unsafe { sys::pathconfig_result_get_json(self.ptr(), key, &mut out) })?;
        if status(rc)? {
            self.borrowed(out, "pathconfig_result_get_json")
        } else {
            Ok(None)
        }
    }
}

/// A getter's status: OK → true, NOT_FOUND → false, a code → that error.
fn status(rc: c_int) -> Result<bool, Error> {
    match rc {
        sys::PATHCONFIG_OK => Ok(true),
        sys::PATHCONFIG_NOT_FOUND => Ok(false),
        rc => Err(Error::last_or(rc)),
    }
}

impl Drop for Properties {
    fn drop(&mut self) {
        // SAFETY: this value owns one reference to the result and gives it
        // up exactly once; no borrow of `self` (and so no string borrowed
        // from it) outlives this.
        unsafe { sys::pathconfig_result_release(self.raw.as_ptr()) }
    }
}

/// Another reference to the same result (`pathconfig_result_retain`).
impl Clone for Properties {
    fn clone(&self) -> Properties {
        // SAFETY: self.raw is a live result; retain is atomic and returns the
        // same handle with one more reference, which the clone releases.
        let raw = unsafe { sys::pathconfig_result_retain(self.raw.as_ptr()) };
        let raw = NonNull::new(raw).expect("pathconfig_result_retain returned NULL for a live result");
        Properties { raw, map: self.map.clone() }
    }
}

impl Binding for Properties {
    type Raw = *mut sys::pathconfig_result;

    unsafe fn from_raw(raw: *mut sys::pathconfig_result) -> Properties {
        Properties { raw: NonNull::new(raw).expect("Properties::from_raw: NULL result"), map: OnceLock::new() }
    }

    fn raw(&self) -> *mut sys::pathconfig_result {
        self.raw.as_ptr()
    }
}

impl fmt::Debug for Properties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Properties({})", self.json())
    }
}

/// The merged properties as [`json`](Properties::json) text, what printing
/// them shows in every host (Swift's `description`, Python's `str`).
impl fmt::Display for Properties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.json())
    }
}

impl<'a> IntoIterator for &'a Properties {
    type Item = (&'a str, &'a str);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}
