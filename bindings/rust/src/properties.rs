//! [`Properties`]: the merged properties of one URL (`pathconfig_result *`).

use std::cell::RefCell;
use std::ffi::{c_char, c_double, c_int, CStr};
use std::fmt;
use std::iter::FusedIterator;
use std::ptr::{self, NonNull};
use std::sync::{Arc, OnceLock};

use crate::catalog::{Profile, TypedKey, TypedKind, TypedValue};
use crate::error::{Error, ErrorCode};
use crate::sys;
use crate::util::{self, Binding};
use crate::value::{Map, Value};

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
/// - the typed accessors: the well-known keys ([`TypedKey::all`]) as the
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
///   and [`typed_str`](Self::typed_str) return an [`ErrorCode::Crash`]
///   error, and the named accessors, which cannot, the default;
/// - the raw getters ([`get_str`](Self::get_str), [`get_bool`](Self::get_bool),
///   [`get_i64`](Self::get_i64), [`get_f64`](Self::get_f64),
///   [`get_json`](Self::get_json)): a value as the file wrote it, `Ok(None)`
///   when the key is absent, an [`ErrorCode::Type`] error when it holds
///   another JSON type;
/// - typed Rust values: [`value`](Self::value) for one key, a [`Value`];
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
    /// this thread through [`MAPS`]).
    map: OnceLock<Arc<Map>>,
}

/// Slots of each thread's cache of native maps, by answer id.
const MAP_SLOTS: usize = 512;

/// One slot of that cache: an answer's id and its map.
type MapSlot = Option<(u64, Arc<Map>)>;

thread_local! {
    /// The native maps this thread made, in a direct-mapped table indexed by
    /// the answer's id (ids are never reused, so a hit is always that
    /// answer's map): the map of an answer is built once, not per lookup.
    static MAPS: RefCell<Vec<MapSlot>> = const { RefCell::new(Vec::new()) };
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
        Keys { props: self, front: 0, back: self.len() }
    }

    /// `(key, value as compact JSON)` pairs, in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { keys: self.keys() }
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

    /// A string value, whole (U+0000 included); an [`ErrorCode::Type`]
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
    /// `i64`; any other number is an [`ErrorCode::Type`] error.
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

    /// The value of `key` as a Rust [`Value`] (`Ok(None)` when absent).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a key with a NUL byte.
    pub fn value(&self, key: &str) -> Result<Option<Value>, Error> {
        match self.get_json(key)? {
            Some(json) => Value::from_json(json).map(Some),
            None => Ok(None),
        }
    }

    /// Every key and value, in key order, as a [`Map`] of Rust [`Value`]s:
    /// the host's native map. It is worked out once per distinct answer
    /// (per thread: a cache keyed by [`id`](Self::id)), not per lookup, from
    /// the C API's count, keys, types (`pathconfig_result_type`) and typed
    /// getters, without parsing JSON (only nested arrays and objects are
    /// read from their text); clone it to own it.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use pathconfig::{Options, PathConfiguration, Value};
    ///
    /// let json = r#"{"rules": [{"patterns": [".*"], "properties": {"context": "modal", "retry": 3, "headers": {"A": "b"}}}]}"#;
    /// let props = PathConfiguration::from_json(json, &Options::new())?.properties("/x")?;
    /// let map = props.map();
    /// assert_eq!(map["context"].as_str(), Some("modal"));
    /// assert_eq!(map["headers"]["A"], Value::from("b"));
    /// assert_eq!(map.to_string(), props.json());
    /// let hashed: HashMap<String, Value> = map.clone().into_iter().collect();
    /// assert_eq!(hashed["retry"], Value::Int(3));
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    pub fn map(&self) -> &Map {
        self.map.get_or_init(|| {
            let id = self.id();
            let slot = (id % MAP_SLOTS as u64) as usize;
            let cached = MAPS.try_with(|maps| match maps.borrow().get(slot) {
                Some(Some((held, map))) if *held == id => Some(Arc::clone(map)),
                _ => None,
            });
            if let Ok(Some(map)) = cached {
                return map;
            }
            let map = Arc::new(self.build_map());
            // During the thread's teardown there is no cache: nothing is kept.
            let _ = MAPS.try_with(|maps| {
                let mut maps = maps.borrow_mut();
                if maps.is_empty() {
                    maps.resize(MAP_SLOTS, None);
                }
                maps[slot] = Some((id, Arc::clone(&map)));
            });
            map
        })
    }

    /// The native map, built from the C API (what [`map`](Self::map) caches).
    fn build_map(&self) -> Map {
        let n = self.len();
        let mut map = Map::with_capacity(n);
        for i in 0..n {
            let key = self.key_ptr(i);
            let name = self.required(key, "pathconfig_result_key");
            map.push(name.to_owned(), self.value_at(i, key));
        }
        map
    }

    /// The value of the i-th key (`key` is its name as the library gave it).
    fn value_at(&self, i: usize, key: *const c_char) -> Value {
        let res = self.ptr();
        // SAFETY: a live result and `i` below the count.
        let ty = unsafe { sys::pathconfig_result_type(res, i) };
        // Each getter below is called with a live result, `key` (the i-th key
        // as the library gave it, borrowed from `res`) and a writable out
        // parameter of the getter's type.
        let found = |rc: c_int| rc == sys::PATHCONFIG_OK;
        match ty {
            sys::PATHCONFIG_TYPE_BOOL => {
                let mut out: c_int = 0;
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_bool(res, key, &mut out) }) {
                    return Value::Bool(out != 0);
                }
            }
            sys::PATHCONFIG_TYPE_INT => {
                let mut out: i64 = 0;
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_int64(res, key, &mut out) }) {
                    return Value::Int(out);
                }
            }
            sys::PATHCONFIG_TYPE_DOUBLE => {
                let mut out: c_double = 0.0;
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_double(res, key, &mut out) }) {
                    return Value::Float(out);
                }
            }
            sys::PATHCONFIG_TYPE_STRING => {
                let (mut out, mut len): (*const c_char, usize) = (ptr::null(), 0);
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_string(res, key, &mut out, &mut len) }) {
                    // SAFETY: `len` bytes borrowed from the result, alive while `self` is.
                    match unsafe { util::borrowed_str_len(out, len, "pathconfig_result_get_string") } {
                        Ok(s) => return Value::String(s.to_owned()),
                        Err(e) => panic!("{e}"),
                    }
                }
            }
            sys::PATHCONFIG_TYPE_ARRAY | sys::PATHCONFIG_TYPE_OBJECT => {
                let mut out: *const c_char = ptr::null();
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_json(res, key, &mut out) }) {
                    let text = self.required(out, "pathconfig_result_get_json");
                    return Value::from_json(text).unwrap_or_else(|e| {
                        panic!("pathconfig_result_get_json returned JSON this crate cannot read: {e}")
                    });
                }
            }
            _ => {}
        }
        // JSON null, or a key the getters cannot be asked for (one holding
        // U+0000 ends early as a C string).
        Value::Null
    }

    /// The typed value of any [`TypedKey`] by name, as its kind reads it
    /// (`pathconfig_result_typed_bool` or `_typed_string`), defaults applied.
    /// Every key the library lists is reachable here, also one newer than
    /// this crate's accessors.
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
    /// message names the keys it has); [`ErrorCode::Crash`] where the
    /// profile's app throws reading the key, so that it has no value (the
    /// message names the exception; every read returns it again):
    ///
    /// ```
    /// use pathconfig::{ErrorCode, Options, PathConfiguration, Profile, TypedValue};
    ///
    /// let json = r#"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": "true"}}]}"#;
    /// let android = PathConfiguration::from_json(json, &Options::new().profile(Profile::HotwireAndroid))?;
    /// let props = android.properties("/a")?;
    /// let err = props.typed("pull_to_refresh_enabled").unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::Crash);
    /// assert!(err.message().contains("java.lang.ClassCastException"), "{err}");
    /// assert!(!props.pull_to_refresh_enabled()); // the accessor: the default
    /// // Before 1.2 the app keeps every value as a string: "true" is true.
    /// let older = Options::new().profile(Profile::HotwireAndroid).version("1.1.3");
    /// let props = PathConfiguration::from_json(json, &older)?.properties("/a")?;
    /// assert_eq!(props.typed("pull_to_refresh_enabled")?, TypedValue::Bool(true));
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    pub fn typed(&self, key: &str) -> Result<TypedValue<'_>, Error> {
        let key = typed_key(key)?;
        match key.kind() {
            TypedKind::Bool => Ok(TypedValue::Bool(self.typed_bool_checked(key.raw())?)),
            _ => Ok(TypedValue::Str(self.typed_str_checked(key.raw())?)),
        }
    }

    /// The typed value of an enum or string key by name, defaults applied;
    /// `Ok(None)` when the key has no value and no default.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a key that is not a [`TypedKey`],
    /// [`ErrorCode::Type`] for a bool key, [`ErrorCode::Crash`] where the
    /// profile's app throws reading the key (turbo-android's missing `uri`).
    pub fn typed_str(&self, key: &str) -> Result<Option<&str>, Error> {
        self.typed_str_checked(typed_key(key)?.raw())
    }

    /// The typed value of a bool key by name, defaults applied.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a key that is not a [`TypedKey`],
    /// [`ErrorCode::Type`] for an enum or string key, [`ErrorCode::Crash`]
    /// where the profile's app throws reading the key (hotwire-android 1.2
    /// and later on a string or a number).
    pub fn typed_bool(&self, key: &str) -> Result<bool, Error> {
        self.typed_bool_checked(typed_key(key)?.raw())
    }

    fn typed_str_checked(&self, key: c_int) -> Result<Option<&str>, Error> {
        // SAFETY: a live result; any key number is accepted.
        let p = unsafe { sys::pathconfig_result_typed_string(self.ptr(), key) };
        if p.is_null() {
            // NULL is "no value, no default" when the last error is clear.
            return match Error::last_if_set() {
                None => Ok(None),
                Some(err) => Err(err),
            };
        }
        self.borrowed(p, "pathconfig_result_typed_string")
    }

    fn typed_bool_checked(&self, key: c_int) -> Result<bool, Error> {
        // SAFETY: a live result; any key number is accepted.
        let rc = unsafe { sys::pathconfig_result_typed_bool(self.ptr(), key) };
        // 0 is also the answer to a failure: the last error tells them apart.
        match (rc, Error::last_if_set()) {
            (0, Some(err)) => Err(err),
            _ => Ok(rc != 0),
        }
    }

    /// An enum or string key's typed value: the fast path of the accessors
    /// (`key` is one of the header's string keys, so the call cannot fail
    /// on a live result but for want of memory, or where the app crashes
    /// reading the key: then the default).
    fn typed_string(&self, key: c_int) -> Option<&str> {
        // SAFETY: a live result and a PATHCONFIG_KEY_* constant.
        let p = unsafe { sys::pathconfig_result_typed_string(self.ptr(), key) };
        if p.is_null() {
            if let Some(err) = Error::last_if_set() {
                if err.code() == ErrorCode::Crash {
                    return match crash_default(key) {
                        Some(TypedValue::Str(s)) => s,
                        _ => None,
                    };
                }
                panic!("pathconfig_result_typed_string({key}) failed: {err}");
            }
            return None;
        }
        // SAFETY: a NUL-terminated string borrowed from the result (or
        // static, for an enum's value), valid while `self` holds its reference.
        let bytes = unsafe { CStr::from_ptr(p) }.to_bytes();
        debug_assert!(std::str::from_utf8(bytes).is_ok(), "pathconfig_result_typed_string: not UTF-8");
        // SAFETY: the header's promise, "every string in and out is
        // NUL-terminated UTF-8" (the library's strings are Swift Strings,
        // always valid UTF-8), not validated again on the typed accessors'
        // hot path (checked in debug builds, as the tests run).
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// A bool key's typed value: the fast path of the accessors (`key` is
    /// one of the header's bool keys: the call cannot fail on a live result
    /// but where the app crashes reading the key, which reads 0 with
    /// `PATHCONFIG_E_CRASH`: then the default).
    fn typed_flag(&self, key: c_int) -> bool {
        // SAFETY: a live result and a PATHCONFIG_KEY_* constant.
        let rc = unsafe { sys::pathconfig_result_typed_bool(self.ptr(), key) };
        if rc == 0 && last_code() == sys::PATHCONFIG_E_CRASH {
            return matches!(crash_default(key), Some(TypedValue::Bool(true)));
        }
        rc != 0
    }

    /// `context`: `"default"` or `"modal"` (default `"default"`).
    pub fn context(&self) -> &str {
        self.typed_string(sys::PATHCONFIG_KEY_CONTEXT).expect("context has a default")
    }

    /// `presentation`: `"default"`, `"pop"`, `"replace"`, `"refresh"`,
    /// `"clear_all"`, `"replace_root"`, `"none"`, and on Android `"push"`
    /// (default `"default"`).
    pub fn presentation(&self) -> &str {
        self.typed_string(sys::PATHCONFIG_KEY_PRESENTATION).expect("presentation has a default")
    }

    /// `modal_style`: `"medium"`, `"large"`, `"full"`, `"page_sheet"`,
    /// `"form_sheet"` (default `"large"`).
    pub fn modal_style(&self) -> &str {
        self.typed_string(sys::PATHCONFIG_KEY_MODAL_STYLE).expect("modal_style has a default")
    }

    /// `query_string_presentation`: `"default"` or `"replace"` (default `"default"`).
    pub fn query_string_presentation(&self) -> &str {
        self.typed_string(sys::PATHCONFIG_KEY_QUERY_STRING_PRESENTATION)
            .expect("query_string_presentation has a default")
    }

    /// `view_controller`: any string; default `"web"` on iOS, none on Android.
    pub fn view_controller(&self) -> Option<&str> {
        self.typed_string(sys::PATHCONFIG_KEY_VIEW_CONTROLLER)
    }

    /// `title`, when it is a string.
    pub fn title(&self) -> Option<&str> {
        self.typed_string(sys::PATHCONFIG_KEY_TITLE)
    }

    /// `uri` (Android's destination), when it is a string. Where
    /// turbo-android crashes reading a missing one, `None` (the default);
    /// [`typed_str`](Self::typed_str) gives the [`ErrorCode::Crash`] error.
    pub fn uri(&self) -> Option<&str> {
        self.typed_string(sys::PATHCONFIG_KEY_URI)
    }

    /// `fallback_uri` (Android), when it is a string.
    pub fn fallback_uri(&self) -> Option<&str> {
        self.typed_string(sys::PATHCONFIG_KEY_FALLBACK_URI)
    }

    /// `pull_to_refresh_enabled` (default `true` on iOS, `false` on Android).
    /// Like every bool accessor, the default where the app crashes reading
    /// the key (hotwire-android 1.2 and later on `"true"` or a number);
    /// [`typed_bool`](Self::typed_bool) gives the [`ErrorCode::Crash`] error.
    pub fn pull_to_refresh_enabled(&self) -> bool {
        self.typed_flag(sys::PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED)
    }

    /// `modal_dismiss_gesture_enabled` (default `true`).
    pub fn modal_dismiss_gesture_enabled(&self) -> bool {
        self.typed_flag(sys::PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED)
    }

    /// `animated` (default `true`).
    pub fn animated(&self) -> bool {
        self.typed_flag(sys::PATHCONFIG_KEY_ANIMATED)
    }

    /// `historical_location` (default `false`); `true` for the built-in
    /// historical-location rules of the hotwire profiles.
    pub fn historical_location(&self) -> bool {
        self.typed_flag(sys::PATHCONFIG_KEY_HISTORICAL_LOCATION)
    }
}

/// The calling thread's last error code (`pathconfig_last_error()->code`),
/// read without copying the struct.
fn last_code() -> c_int {
    // SAFETY: pathconfig_last_error never returns NULL; the struct is the
    // calling thread's and valid until its next call into the library.
    unsafe { (*sys::pathconfig_last_error()).code }
}

/// What a named accessor gives where the app crashes reading `key`: the
/// key's default on the app's platform, as the library's own accessors
/// give it. Only the Android apps throw (Java's `ClassCastException`,
/// `NullPointerException`), and every Android profile has the platform's
/// defaults: the default under the first Android profile of the catalog.
fn crash_default(key: c_int) -> Option<TypedValue<'static>> {
    static ANDROID: OnceLock<Option<Profile>> = OnceLock::new();
    let profile = (*ANDROID.get_or_init(|| Profile::all().iter().copied().find(|p| p.platform() == "android")))?;
    let key = *TypedKey::all().get(usize::try_from(key).ok()?)?;
    key.default_value(profile).ok()
}

/// The typed key called `name`, or an [`ErrorCode::Argument`] error naming
/// the keys the library lists.
fn typed_key(name: &str) -> Result<TypedKey, Error> {
    util::cstring(name)?; // a NUL is an argument error, as for every key
    TypedKey::named(name).ok_or_else(|| {
        let names: Vec<&str> = TypedKey::all().iter().map(|k| k.name()).collect();
        Error::new(ErrorCode::Argument, format!("{name:?} is not a typed key; the typed keys are {}", names.join(", ")))
    })
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

/// The keys of a [`Properties`], borrowed from it ([`Properties::keys`]).
#[derive(Clone)]
pub struct Keys<'a> {
    props: &'a Properties,
    front: usize,
    back: usize,
}

impl Keys<'_> {
    fn next_index(&mut self) -> Option<usize> {
        if self.front == self.back {
            return None;
        }
        self.front += 1;
        Some(self.front - 1)
    }

    fn next_back_index(&mut self) -> Option<usize> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some(self.back)
    }
}

impl<'a> Iterator for Keys<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let i = self.next_index()?;
        Some(self.props.key_at(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Keys<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.next_back_index()?;
        Some(self.props.key_at(i))
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
    fn pair(&self, i: usize) -> (&'a str, &'a str) {
        let props = self.keys.props;
        let key = props.key_ptr(i);
        let mut out: *const c_char = ptr::null();
        // SAFETY: a live result, the key as the library gave it (borrowed
        // from the result) and a writable pointer slot.
        let rc = unsafe { sys::pathconfig_result_get_json(props.ptr(), key, &mut out) };
        // A key the result lists is always found (one with an embedded NUL
        // cannot be asked for through the C API: shown as null).
        let value = if rc == sys::PATHCONFIG_OK { props.required(out, "pathconfig_result_get_json") } else { "null" };
        (props.required(key, "pathconfig_result_key"), value)
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.keys.next_index()?;
        Some(self.pair(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.keys.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.keys.next_back_index()?;
        Some(self.pair(i))
    }
}

impl ExactSizeIterator for Iter<'_> {}
impl FusedIterator for Iter<'_> {}
