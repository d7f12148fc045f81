//! What the library knows, asked once per process: its [`Profile`]s, the
//! [`backends`] built in and the [`TypedKey`]s (kind, allowed values and
//! default per profile).
//!
//! Nothing here is written down in Rust: a profile, backend or typed key
//! added to the library is listed here, loads through [`Options`] and reads
//! through [`Properties::typed`] without a change to this crate.
//!
//! [`Options`]: crate::Options
//! [`Properties::typed`]: crate::Properties::typed

use std::ffi::{c_char, c_int, CStr};
use std::fmt;
use std::sync::OnceLock;

use crate::error::Error;
use crate::sys;
use crate::util;

/// A static string the library returned for a valid index.
fn listed(p: *const c_char, what: &str) -> &'static str {
    assert!(!p.is_null(), "{what} failed: {}", Error::last());
    // SAFETY: the catalog functions return static, NUL-terminated strings
    // ("static; never free it"): valid for the life of the process.
    let text = unsafe { CStr::from_ptr(p) };
    text.to_str().unwrap_or_else(|e| panic!("{what} returned text that is not UTF-8: {e}"))
}

/// A profile the library knows: the app whose reading of the file is
/// reproduced (see the README's profile table). Compares equal to its name.
///
/// ```
/// use pathconfig::Profile;
///
/// let default = Profile::all()[0];
/// assert_eq!(default, "hotwire-ios");
/// assert_eq!(Profile::named("turbo-android").map(|p| p.platform()), Some("android"));
/// assert!(Profile::named("android").is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    name: &'static str,
    platform: &'static str,
}

impl Profile {
    /// Every profile the library has, the default first
    /// (`pathconfig_profile_count`, `_name`, `_platform`).
    pub fn all() -> &'static [Profile] {
        static ALL: OnceLock<Vec<Profile>> = OnceLock::new();
        ALL.get_or_init(|| {
            // SAFETY: no arguments; indexes below the count are valid.
            let n = unsafe { sys::pathconfig_profile_count() };
            (0..n)
                .map(|i| Profile {
                    // SAFETY: i < pathconfig_profile_count().
                    name: listed(unsafe { sys::pathconfig_profile_name(i) }, "pathconfig_profile_name"),
                    // SAFETY: as above.
                    platform: listed(unsafe { sys::pathconfig_profile_platform(i) }, "pathconfig_profile_platform"),
                })
                .collect()
        })
    }

    /// The profile called `name`, if the library has one.
    pub fn named(name: &str) -> Option<Profile> {
        Profile::all().iter().copied().find(|p| p.name == name)
    }

    /// The name options take, e.g. `"hotwire-ios"`.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The platform whose typed accessors and defaults the profile uses:
    /// `"ios"` or `"android"`.
    pub fn platform(self) -> &'static str {
        self.platform
    }
}

/// The library's default profile (the first it lists).
impl Default for Profile {
    fn default() -> Profile {
        Profile::all()[0]
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl AsRef<str> for Profile {
    fn as_ref(&self) -> &str {
        self.name
    }
}

impl PartialEq<str> for Profile {
    fn eq(&self, other: &str) -> bool {
        self.name == other
    }
}

impl PartialEq<&str> for Profile {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

/// The regex backends built into the library, the default first
/// (`pathconfig_backend_count`, `_name`): what [`Options::backend`] takes.
///
/// ```
/// assert_eq!(pathconfig::backends()[0], "pcre2");
/// ```
///
/// [`Options::backend`]: crate::Options::backend
pub fn backends() -> &'static [&'static str] {
    static ALL: OnceLock<Vec<&'static str>> = OnceLock::new();
    ALL.get_or_init(|| {
        // SAFETY: no arguments; indexes below the count are valid.
        let n = unsafe { sys::pathconfig_backend_count() };
        // SAFETY: i < pathconfig_backend_count().
        (0..n).map(|i| listed(unsafe { sys::pathconfig_backend_name(i) }, "pathconfig_backend_name")).collect()
    })
}

/// How a [`TypedKey`] is read: a `PATHCONFIG_TYPED_*` constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TypedKind {
    /// `PATHCONFIG_TYPED_STRING`: any string, or none.
    String,
    /// `PATHCONFIG_TYPED_BOOL`: a boolean.
    Bool,
    /// `PATHCONFIG_TYPED_ENUM`: one of the key's [values](TypedKey::values).
    Enum,
    /// A kind this crate does not know (from a newer library), by number.
    Unknown(i32),
}

impl TypedKind {
    fn from_raw(kind: c_int) -> TypedKind {
        match kind {
            sys::PATHCONFIG_TYPED_STRING => TypedKind::String,
            sys::PATHCONFIG_TYPED_BOOL => TypedKind::Bool,
            sys::PATHCONFIG_TYPED_ENUM => TypedKind::Enum,
            other => TypedKind::Unknown(other),
        }
    }
}

/// A typed value: what [`Properties::typed`] and [`TypedKey::default_value`]
/// give.
///
/// [`Properties::typed`]: crate::Properties::typed
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypedValue<'a> {
    /// A string or enum key's value; `None` when it has no value and no default.
    Str(Option<&'a str>),
    /// A bool key's value.
    Bool(bool),
}

/// A well-known property key that the typed accessors read with the
/// profile's defaults, as the library lists it (`pathconfig_typed_key_*`).
///
/// ```
/// use pathconfig::{TypedKey, TypedKind, TypedValue};
///
/// let key = TypedKey::named("view_controller").expect("a typed key");
/// assert_eq!(key.kind(), TypedKind::String);
/// assert_eq!(key.default_value("hotwire-ios")?, TypedValue::Str(Some("web")));
/// assert_eq!(key.default_value("hotwire-android")?, TypedValue::Str(None));
/// assert!(TypedKey::named("presentation").unwrap().values("hotwire-android")?.contains(&"push"));
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypedKey {
    index: usize,
    name: &'static str,
    kind: TypedKind,
}

impl TypedKey {
    /// Every typed key, in the library's order.
    pub fn all() -> &'static [TypedKey] {
        static ALL: OnceLock<Vec<TypedKey>> = OnceLock::new();
        ALL.get_or_init(|| {
            // SAFETY: no arguments; indexes below the count are valid.
            let n = unsafe { sys::pathconfig_typed_key_count() };
            (0..n)
                .map(|index| TypedKey {
                    index,
                    // SAFETY: index < pathconfig_typed_key_count().
                    name: listed(unsafe { sys::pathconfig_typed_key_name(index) }, "pathconfig_typed_key_name"),
                    // SAFETY: as above; a valid index never gives a negative code.
                    kind: TypedKind::from_raw(unsafe { sys::pathconfig_typed_key_kind(index) }),
                })
                .collect()
        })
    }

    /// The typed key called `name`, if the library has one.
    pub fn named(name: &str) -> Option<TypedKey> {
        TypedKey::all().iter().copied().find(|k| k.name == name)
    }

    /// The key, e.g. `"presentation"`.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// How it is read.
    pub fn kind(self) -> TypedKind {
        self.kind
    }

    /// The values an enum key allows under `profile`, in lower case as the
    /// accessors return them (empty for the other kinds).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) for a profile the
    /// library does not have, with its message.
    pub fn values(self, profile: impl AsRef<str>) -> Result<Vec<&'static str>, Error> {
        let profile = util::cstring(profile.as_ref())?;
        // SAFETY: a valid index and a NUL-terminated profile name.
        let n = unsafe { sys::pathconfig_typed_key_value_count(self.index, profile.as_ptr()) };
        if n == 0 {
            if let Some(err) = Error::last_if_set() {
                return Err(err);
            }
        }
        let value = |j| {
            // SAFETY: j < the count the library just gave for this key and profile.
            let p = unsafe { sys::pathconfig_typed_key_value(self.index, profile.as_ptr(), j) };
            listed(p, "pathconfig_typed_key_value")
        };
        Ok((0..n).map(value).collect())
    }

    /// What the accessor gives under `profile` when the key is missing,
    /// mistyped or unknown.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) for a profile the
    /// library does not have.
    pub fn default_value(self, profile: impl AsRef<str>) -> Result<TypedValue<'static>, Error> {
        let profile = util::cstring(profile.as_ref())?;
        if self.kind == TypedKind::Bool {
            // SAFETY: a valid index and a NUL-terminated profile name.
            let rc = unsafe { sys::pathconfig_typed_key_default_bool(self.index, profile.as_ptr()) };
            return if rc < 0 { Err(Error::last_or(-rc)) } else { Ok(TypedValue::Bool(rc != 0)) };
        }
        // SAFETY: as above; the result is static or NULL.
        let p = unsafe { sys::pathconfig_typed_key_default_string(self.index, profile.as_ptr()) };
        if p.is_null() {
            return match Error::last_if_set() {
                None => Ok(TypedValue::Str(None)),
                Some(err) => Err(err),
            };
        }
        Ok(TypedValue::Str(Some(listed(p, "pathconfig_typed_key_default_string"))))
    }
}

impl fmt::Display for TypedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
