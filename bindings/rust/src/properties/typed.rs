//! The typed accessors of a [`Properties`]: the well-known keys
//! ([`TypedKey::all`]) as the profile's app reads them, defaults applied
//! ([`context`](Properties::context), ..., [`typed`](Properties::typed)).

use std::ffi::{c_int, CStr};
use std::sync::OnceLock;

use super::Properties;
use crate::catalog::{Profile, TypedKey, TypedKind, TypedValue};
use crate::error::{Error, ErrorCode};
use crate::sys;
use crate::util;

impl Properties {
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
