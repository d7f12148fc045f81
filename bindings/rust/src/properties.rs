//! [`Properties`]: the merged properties of one URL (`pathconfig_result *`).

use std::ffi::{c_char, c_double, c_int};
use std::fmt;
use std::iter::FusedIterator;
use std::ptr::{self, NonNull};

use crate::catalog::{TypedKey, TypedKind, TypedValue};
use crate::error::{Error, ErrorCode};
use crate::sys;
use crate::util::{self, Binding};

/// The merged properties of one URL, read one key at a time.
///
/// Made by [`PathConfiguration::properties`]; independent of the
/// configuration (it may outlive it). Every `&str` it hands out borrows from
/// it and lives as long as the borrow of `self`.
///
/// Three ways to read it:
///
/// - the typed accessors: the well-known keys ([`TypedKey::all`]) as the
///   profile's app reads them, defaults applied (a missing key, a value of
///   the wrong type or an unknown value gives the default; Android profiles
///   compare enumerations case-insensitively, return them in lower case and
///   read `"true"` as `true`). [`typed`](Self::typed) reads any of them by
///   name; [`context`](Self::context), [`presentation`](Self::presentation),
///   [`modal_style`](Self::modal_style), ... are thin calls to the C API's
///   functions for one key each (`pathconfig_result_context`, ...);
/// - the raw getters ([`get_str`](Self::get_str), [`get_bool`](Self::get_bool),
///   [`get_i64`](Self::get_i64), [`get_f64`](Self::get_f64),
///   [`get_json`](Self::get_json)): a value as the file wrote it, `Ok(None)`
///   when the key is absent, an [`ErrorCode::Type`] error when it holds
///   another JSON type;
/// - all of it: [`json`](Self::json), [`keys`](Self::keys),
///   [`iter`](Self::iter).
///
/// ```
/// use pathconfig::{ErrorCode, Options, PathConfiguration};
///
/// let json = r#"{"rules": [{"patterns": ["^/docs/"],
///     "properties": {"title": "Docs", "presentation": "replace", "pull_to_refresh_enabled": false,
///                    "max_age": 60, "ratio": 1.50, "tags": ["a", "b"]}}]}"#;
/// let config = PathConfiguration::from_json(json, &Options::new().profile("hotwire-ios"))?;
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
/// // Everything.
/// let keys: Vec<&str> = props.keys().collect();
/// assert_eq!(keys, ["title", "presentation", "pull_to_refresh_enabled", "max_age", "ratio", "tags"]);
/// for (key, value_json) in &props {
///     println!("{key} = {value_json}");
/// }
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// # Panics
///
/// The accessors that return plain values ([`json`](Self::json), the
/// iterators, the typed accessors) panic only if the library cannot allocate
/// the string it returns (`PATHCONFIG_E_NOMEM`), as Rust's own collections
/// give up when allocation fails.
///
/// [`PathConfiguration::properties`]: crate::PathConfiguration::properties
pub struct Properties {
    raw: NonNull<sys::pathconfig_result>,
}

// SAFETY: (Send) a result is an independent heap object ("independent of the
// configuration it came from"), freed by pathconfig_result_free from any
// thread; nothing in it is tied to the thread that resolved it.
unsafe impl Send for Properties {}
// SAFETY: (Sync) the header documents a result as "immutable too and may be
// read from several threads". The strings it creates on first use (JSON text,
// typed and raw values) are made under a lock inside the library and never
// change or move once made, so `&str`s handed out on one thread stay valid
// while another thread reads. Only Drop (which needs `&mut self` or
// ownership) frees it.
unsafe impl Sync for Properties {}

type StrGetter = unsafe extern "C" fn(*const sys::pathconfig_result) -> *const c_char;
type BoolGetter = unsafe extern "C" fn(*const sys::pathconfig_result) -> c_int;

impl Properties {
    /// What `pathconfig_resolve` or `_resolve_request` returned: the new
    /// result, or the failure `err` describes (NULL).
    pub(crate) fn resolved(raw: *mut sys::pathconfig_result, err: &sys::pathconfig_error) -> Result<Properties, Error> {
        match NonNull::new(raw) {
            // A non-NULL result of those functions is new and the caller's, freed once (in Drop).
            Some(raw) => Ok(Properties { raw }),
            None => Err(Error::from_raw(err)),
        }
    }

    fn ptr(&self) -> *const sys::pathconfig_result {
        self.raw.as_ptr()
    }

    /// A string borrowed from the result, for `&self`'s lifetime.
    fn borrowed(&self, p: *const c_char, what: &str) -> Result<Option<&str>, Error> {
        // SAFETY: every pointer passed here was just returned by a
        // pathconfig_result_* function for self.raw, documented as "borrowed
        // from res": NUL-terminated, unchanged and valid until
        // pathconfig_result_free, which runs only in Drop, after every borrow
        // of `self` has ended.
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

    /// The merged properties as a compact JSON object, keys in the order they
    /// first appeared in the matching rules (`"{}"` when nothing matched).
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
        Keys { props: self, front: 0, back: self.len() }
    }

    /// `(key, value as compact JSON)` pairs, in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { keys: self.keys() }
    }

    fn key_at(&self, i: usize) -> &str {
        // SAFETY: self.ptr() is a live result and i < pathconfig_result_count
        // (the iterators never go past it).
        let p = unsafe { sys::pathconfig_result_key(self.ptr(), i) };
        self.required(p, "pathconfig_result_key")
    }

    /// Whether the merged properties have `key` (with any value, `null` included).
    pub fn contains_key(&self, key: &str) -> Result<bool, Error> {
        let key = util::cstring(key)?;
        // SAFETY: live result, NUL-terminated key; `out` may be NULL.
        let rc = unsafe { sys::pathconfig_result_get_json(self.ptr(), key.as_ptr(), ptr::null_mut()) };
        status(rc)
    }

    /// A string value, whole (U+0000 included); an [`ErrorCode::Type`]
    /// error when the key holds another type.
    pub fn get_str(&self, key: &str) -> Result<Option<&str>, Error> {
        let key = util::cstring(key)?;
        let mut out: *const c_char = ptr::null();
        let mut len: usize = 0;
        // SAFETY: live result, NUL-terminated key, `out` and `len` writable;
        // the library sets `out` to `len` bytes borrowed from the result.
        let rc = unsafe { sys::pathconfig_result_get_string_len(self.ptr(), key.as_ptr(), &mut out, &mut len) };
        if !status(rc)? {
            return Ok(None);
        }
        // SAFETY: on PATHCONFIG_FOUND `out` points to `len` bytes borrowed
        // from the result, unchanged until pathconfig_result_free, which runs
        // only in Drop, after every borrow of `self` has ended.
        unsafe { util::borrowed_str_len(out, len, "pathconfig_result_get_string_len") }.map(Some)
    }

    /// A JSON boolean. The string `"true"` is not one (see
    /// [`typed_bool`](Self::typed_bool) for the apps' reading).
    pub fn get_bool(&self, key: &str) -> Result<Option<bool>, Error> {
        let key = util::cstring(key)?;
        let mut out: c_int = 0;
        // SAFETY: live result, NUL-terminated key, writable `out`.
        let rc = unsafe { sys::pathconfig_result_get_bool(self.ptr(), key.as_ptr(), &mut out) };
        Ok(status(rc)?.then_some(out != 0))
    }

    /// A JSON number written without fraction or exponent that fits in
    /// `i64`; any other number is an [`ErrorCode::Type`] error.
    pub fn get_i64(&self, key: &str) -> Result<Option<i64>, Error> {
        let key = util::cstring(key)?;
        let mut out: i64 = 0;
        // SAFETY: live result, NUL-terminated key, writable `out`.
        let rc = unsafe { sys::pathconfig_result_get_int64(self.ptr(), key.as_ptr(), &mut out) };
        Ok(status(rc)?.then_some(out))
    }

    /// Any JSON number, as the nearest `f64`.
    pub fn get_f64(&self, key: &str) -> Result<Option<f64>, Error> {
        let key = util::cstring(key)?;
        let mut out: c_double = 0.0;
        // SAFETY: live result, NUL-terminated key, writable `out`.
        let rc = unsafe { sys::pathconfig_result_get_double(self.ptr(), key.as_ptr(), &mut out) };
        Ok(status(rc)?.then_some(out))
    }

    /// Any value (objects, arrays and `null` included) as compact JSON text,
    /// exactly as written (numbers keep their text). Never a type error.
    pub fn get_json(&self, key: &str) -> Result<Option<&str>, Error> {
        let key = util::cstring(key)?;
        let mut out: *const c_char = ptr::null();
        // SAFETY: live result, NUL-terminated key, writable pointer slot;
        // the library sets it to a string borrowed from the result.
        let rc = unsafe { sys::pathconfig_result_get_json(self.ptr(), key.as_ptr(), &mut out) };
        if status(rc)? {
            self.borrowed(out, "pathconfig_result_get_json")
        } else {
            Ok(None)
        }
    }

    /// The typed value of any [`TypedKey`] by name, as its kind reads it
    /// (`pathconfig_result_typed_bool` or `_typed_string`), defaults applied.
    /// Every key the library lists is reachable here, also one newer than
    /// this crate's convenience methods.
    ///
    /// ```
    /// use pathconfig::{Options, PathConfiguration, TypedKey, TypedValue};
    ///
    /// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new())?;
    /// let props = config.properties("/")?;
    /// assert_eq!(props.typed("presentation")?, TypedValue::Str(Some("default")));
    /// assert_eq!(props.typed("animated")?, TypedValue::Bool(true));
    /// for key in TypedKey::all() {
    ///     assert_eq!(props.typed(key.name())?, key.default_value(config.profile())?);
    /// }
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a key the library does not list (its
    /// message names the keys it has).
    pub fn typed(&self, key: &str) -> Result<TypedValue<'_>, Error> {
        match TypedKey::named(key).map(TypedKey::kind) {
            Some(TypedKind::Bool) => Ok(TypedValue::Bool(self.typed_bool(key)?)),
            _ => Ok(TypedValue::Str(self.typed_str(key)?)),
        }
    }

    /// The typed value of an enum or string key by name, defaults applied;
    /// `Ok(None)` when the key has no value and no default.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a key that is not a [`TypedKey`],
    /// [`ErrorCode::Type`] for a bool key.
    pub fn typed_str(&self, key: &str) -> Result<Option<&str>, Error> {
        let key = util::cstring(key)?;
        // SAFETY: live result, NUL-terminated key.
        let p = unsafe { sys::pathconfig_result_typed_string(self.ptr(), key.as_ptr()) };
        if p.is_null() {
            // NULL is "no value, no default" when the last error is clear.
            return match Error::last_if_set() {
                None => Ok(None),
                Some(err) => Err(err),
            };
        }
        self.borrowed(p, "pathconfig_result_typed_string")
    }

    /// The typed value of a bool key by name, defaults applied.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a key that is not a [`TypedKey`],
    /// [`ErrorCode::Type`] for an enum or string key.
    pub fn typed_bool(&self, key: &str) -> Result<bool, Error> {
        let key = util::cstring(key)?;
        // SAFETY: live result, NUL-terminated key.
        let rc = unsafe { sys::pathconfig_result_typed_bool(self.ptr(), key.as_ptr()) };
        if rc < 0 {
            return Err(Error::last_or(-rc));
        }
        Ok(rc != 0)
    }

    fn typed_string(&self, f: StrGetter, what: &str) -> Option<&str> {
        // SAFETY: `f` is one of the pathconfig_result_<key> accessors, which
        // take a live result and return NULL or a string borrowed from it.
        let p = unsafe { f(self.ptr()) };
        if p.is_null() {
            if let Some(err) = Error::last_if_set() {
                panic!("{what} failed: {err}");
            }
            return None;
        }
        Some(self.required(p, what))
    }

    fn typed_flag(&self, f: BoolGetter, what: &str) -> bool {
        // SAFETY: `f` is one of the pathconfig_result_<key> bool accessors,
        // which take a live result and return 1 or 0 (negative only for NULL).
        let rc = unsafe { f(self.ptr()) };
        assert!(rc >= 0, "{what} failed: {}", Error::last_or(-rc));
        rc != 0
    }

    /// `context`: `"default"` or `"modal"` (default `"default"`).
    pub fn context(&self) -> &str {
        self.typed_string(sys::pathconfig_result_context, "pathconfig_result_context")
            .expect("pathconfig_result_context has a default")
    }

    /// `presentation`: `"default"`, `"pop"`, `"replace"`, `"refresh"`,
    /// `"clear_all"`, `"replace_root"`, `"none"`, and on Android `"push"`
    /// (default `"default"`).
    pub fn presentation(&self) -> &str {
        self.typed_string(sys::pathconfig_result_presentation, "pathconfig_result_presentation")
            .expect("pathconfig_result_presentation has a default")
    }

    /// `modal_style`: `"medium"`, `"large"`, `"full"`, `"page_sheet"`,
    /// `"form_sheet"` (default `"large"`).
    pub fn modal_style(&self) -> &str {
        self.typed_string(sys::pathconfig_result_modal_style, "pathconfig_result_modal_style")
            .expect("pathconfig_result_modal_style has a default")
    }

    /// `query_string_presentation`: `"default"` or `"replace"` (default `"default"`).
    pub fn query_string_presentation(&self) -> &str {
        self.typed_string(
            sys::pathconfig_result_query_string_presentation,
            "pathconfig_result_query_string_presentation",
        )
        .expect("pathconfig_result_query_string_presentation has a default")
    }

    /// `view_controller`: any string; default `"web"` on iOS, none on Android.
    pub fn view_controller(&self) -> Option<&str> {
        self.typed_string(sys::pathconfig_result_view_controller, "pathconfig_result_view_controller")
    }

    /// `title`, when it is a string.
    pub fn title(&self) -> Option<&str> {
        self.typed_string(sys::pathconfig_result_title, "pathconfig_result_title")
    }

    /// `uri` (Android's destination), when it is a string.
    pub fn uri(&self) -> Option<&str> {
        self.typed_string(sys::pathconfig_result_uri, "pathconfig_result_uri")
    }

    /// `fallback_uri` (Android), when it is a string.
    pub fn fallback_uri(&self) -> Option<&str> {
        self.typed_string(sys::pathconfig_result_fallback_uri, "pathconfig_result_fallback_uri")
    }

    /// `pull_to_refresh_enabled` (default `true` on iOS, `false` on Android).
    pub fn pull_to_refresh_enabled(&self) -> bool {
        self.typed_flag(sys::pathconfig_result_pull_to_refresh_enabled, "pathconfig_result_pull_to_refresh_enabled")
    }

    /// `modal_dismiss_gesture_enabled` (default `true`).
    pub fn modal_dismiss_gesture_enabled(&self) -> bool {
        self.typed_flag(
            sys::pathconfig_result_modal_dismiss_gesture_enabled,
            "pathconfig_result_modal_dismiss_gesture_enabled",
        )
    }

    /// `animated` (default `true`).
    pub fn animated(&self) -> bool {
        self.typed_flag(sys::pathconfig_result_animated, "pathconfig_result_animated")
    }

    /// `historical_location` (default `false`); `true` for the built-in
    /// historical-location rules of the hotwire profiles.
    pub fn historical_location(&self) -> bool {
        self.typed_flag(sys::pathconfig_result_historical_location, "pathconfig_result_historical_location")
    }
}

/// A getter's status: FOUND → true, NOT_FOUND → false, a negated code → that error.
fn status(rc: c_int) -> Result<bool, Error> {
    match rc {
        sys::PATHCONFIG_FOUND => Ok(true),
        sys::PATHCONFIG_NOT_FOUND => Ok(false),
        rc if rc < 0 => Err(Error::last_or(-rc)),
        rc => Err(Error::new(ErrorCode::Internal, format!("unexpected getter status {rc}"))),
    }
}

impl Drop for Properties {
    fn drop(&mut self) {
        // SAFETY: this value owns the result and frees it exactly once; no
        // borrow of `self` (and so no string borrowed from it) outlives this.
        unsafe { sys::pathconfig_result_free(self.raw.as_ptr()) }
    }
}

impl Binding for Properties {
    type Raw = *mut sys::pathconfig_result;

    unsafe fn from_raw(raw: *mut sys::pathconfig_result) -> Properties {
        Properties { raw: NonNull::new(raw).expect("Properties::from_raw: NULL result") }
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

/// The keys of a [`Properties`], borrowed from it ([`Properties::keys`]).
#[derive(Clone)]
pub struct Keys<'a> {
    props: &'a Properties,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Keys<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.front == self.back {
            return None;
        }
        self.front += 1;
        Some(self.props.key_at(self.front - 1))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Keys<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some(self.props.key_at(self.back))
    }
}

impl ExactSizeIterator for Keys<'_> {}
impl FusedIterator for Keys<'_> {}

impl fmt::Debug for Keys<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// `(key, value JSON)` pairs of a [`Properties`], borrowed from it ([`Properties::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    keys: Keys<'a>,
}

impl<'a> Iter<'a> {
    fn pair(&self, key: &'a str) -> (&'a str, &'a str) {
        let props = self.keys.props;
        let value = props
            .get_json(key)
            .unwrap_or_else(|e| panic!("pathconfig_result_get_json failed: {e}"))
            // A key the result lists is always found (a key with an embedded
            // NUL cannot be asked for through the C API: show it as null).
            .unwrap_or("null");
        (key, value)
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let key = self.keys.next()?;
        Some(self.pair(key))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.keys.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let key = self.keys.next_back()?;
        Some(self.pair(key))
    }
}

impl ExactSizeIterator for Iter<'_> {}
impl FusedIterator for Iter<'_> {}
