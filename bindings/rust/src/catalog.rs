//! What the library knows, asked once per process: its [`Profile`]s and
//! their apps' [`Release`] lines, the [`backends`] built in and the
//! [`TypedKey`]s (kind, allowed values and default per profile).
//!
//! Backends and typed keys are not written down in Rust: one added to the
//! library is listed here and reads through [`Properties::typed`] without a
//! change to this crate. Profiles are an enum ([`Profile`]), so that a
//! misspelt one does not compile; the tests hold it to the library's list.
//!
//! [`Options`]: crate::Options
//! [`Properties::typed`]: crate::Properties::typed

use std::ffi::{c_char, c_int, CStr};
use std::fmt;
use std::str::FromStr;
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

/// A profile: the app whose reading of the file is reproduced (see the
/// README's profile table), as [`Options::profile`] takes it. An enum, so
/// that a misspelt profile does not compile; the names are the library's
/// (`pathconfig_profile_name`), and the crate's tests check that
/// [`Profile::all`] lists exactly the library's catalog, in its order.
///
/// ```
/// use pathconfig::Profile;
///
/// assert_eq!(Profile::default(), Profile::HotwireIos);
/// assert_eq!(Profile::TurboAndroid.name(), "turbo-android");
/// assert_eq!(Profile::TurboAndroid.platform(), "android");
/// assert_eq!("siesta".parse::<Profile>()?, Profile::Siesta);
/// assert!("android".parse::<Profile>().is_err());
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// ```compile_fail
/// let _ = pathconfig::Profile::HotwireIOS;
/// ```
///
/// [`Options::profile`]: crate::Options::profile
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Profile {
    /// `hotwire-ios` (the library's default): Hotwire Native iOS.
    #[default]
    HotwireIos,
    /// `turbo-ios`: Turbo iOS 7.
    TurboIos,
    /// `hotwire-android`: Hotwire Native Android.
    HotwireAndroid,
    /// `turbo-android`: Turbo Android 7.
    TurboAndroid,
    /// `siesta`: Siesta's service configuration (patterns over the whole URL).
    Siesta,
}

/// Each profile and its name, in the library's catalog order (checked by
/// tests/catalog.rs against `pathconfig_profile_name`).
const PROFILES: [(Profile, &str); 5] = [
    (Profile::HotwireIos, "hotwire-ios"),
    (Profile::TurboIos, "turbo-ios"),
    (Profile::HotwireAndroid, "hotwire-android"),
    (Profile::TurboAndroid, "turbo-android"),
    (Profile::Siesta, "siesta"),
];

impl Profile {
    /// Every profile, the default first, in the library's order.
    pub fn all() -> &'static [Profile] {
        const ALL: [Profile; 5] = {
            let mut all = [Profile::HotwireIos; 5];
            let mut i = 0;
            while i < 5 {
                all[i] = PROFILES[i].0;
                i += 1;
            }
            all
        };
        &ALL
    }

    /// The profile called `name` (as options take it), if there is one.
    pub fn named(name: &str) -> Option<Profile> {
        PROFILES.iter().find(|(_, n)| *n == name).map(|(p, _)| *p)
    }

    /// The name options take, e.g. `"hotwire-ios"`.
    pub fn name(self) -> &'static str {
        PROFILES.iter().find(|(p, _)| *p == self).map_or("", |(_, n)| n)
    }

    /// The platform whose typed accessors and defaults the profile uses, as
    /// the library says (`pathconfig_profile_platform`): `"ios"` or
    /// `"android"`.
    pub fn platform(self) -> &'static str {
        static PLATFORMS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
        let platforms = PLATFORMS.get_or_init(|| {
            // SAFETY: no arguments; indexes below the count are valid.
            let n = unsafe { sys::pathconfig_profile_count() };
            (0..n)
                .map(|i| {
                    (
                        // SAFETY: i < pathconfig_profile_count().
                        listed(unsafe { sys::pathconfig_profile_name(i) }, "pathconfig_profile_name"),
                        // SAFETY: as above.
                        listed(unsafe { sys::pathconfig_profile_platform(i) }, "pathconfig_profile_platform"),
                    )
                })
                .collect()
        });
        let name = self.name();
        platforms.iter().find(|(n, _)| *n == name).map_or("", |(_, platform)| platform)
    }
}

/// One release line of a profile's app, as the library lists it
/// (`pathconfig_profile_release_*`): a run of tagged releases that read a
/// configuration alike, or the app's main branch (docs/app-versions.md).
///
/// ```
/// use pathconfig::Profile;
///
/// let lines = Profile::HotwireIos.release_lines();
/// let bare = &lines[Profile::HotwireIos.default_release_index()];
/// assert_eq!(bare.name(), "hotwire-ios@1.2.0");
/// assert_eq!(bare.version(), "1.2.0");
/// assert!(bare.tags().contains(&"1.2.2"));
/// assert_eq!(lines.last().unwrap().name(), "hotwire-ios@main");
/// assert!(lines.last().unwrap().tags().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Release {
    name: &'static str,
    tags: Vec<&'static str>,
    commit: &'static str,
}

impl Release {
    /// The name options take for the line: the app, `@` and the line's first
    /// tag (`"hotwire-ios@1.2.0"`), or `"APP@main"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The part of [`name`](Self::name) after `@`: the line's first tag, or
    /// `"main"`; what [`Options::version`](crate::Options::version) takes.
    pub fn version(&self) -> &'static str {
        self.name.split_once('@').map_or("", |(_, v)| v)
    }

    /// Every tag of the line, oldest first (empty for the main branch); each
    /// names the line in [`Options::version`](crate::Options::version) too.
    pub fn tags(&self) -> &[&'static str] {
        &self.tags
    }

    /// The upstream commit (abbreviated) that made the line read files as it
    /// does; for the main branch, the commit it models.
    pub fn commit(&self) -> &'static str {
        self.commit
    }
}

/// One profile's release lines, their names, and the index of the one its
/// bare name reads as.
struct ReleaseLines {
    lines: Vec<Release>,
    names: Vec<&'static str>,
    default: usize,
}

/// By profile, in the library's order: its [`ReleaseLines`].
fn release_catalog() -> &'static [ReleaseLines] {
    static ALL: OnceLock<Vec<ReleaseLines>> = OnceLock::new();
    ALL.get_or_init(|| {
        // SAFETY: no arguments; indexes below the counts are valid.
        let n = unsafe { sys::pathconfig_profile_count() };
        (0..n)
            .map(|i| {
                // SAFETY: i < pathconfig_profile_count().
                let count = unsafe { sys::pathconfig_profile_release_count(i) };
                let lines: Vec<Release> = (0..count)
                    .map(|j| {
                        // SAFETY: i and j below their counts; the strings are static.
                        let (name, tags, commit) = unsafe {
                            (
                                sys::pathconfig_profile_release_name(i, j),
                                sys::pathconfig_profile_release_tags(i, j),
                                sys::pathconfig_profile_release_commit(i, j),
                            )
                        };
                        Release {
                            name: listed(name, "pathconfig_profile_release_name"),
                            tags: listed(tags, "pathconfig_profile_release_tags").split_whitespace().collect(),
                            commit: listed(commit, "pathconfig_profile_release_commit"),
                        }
                    })
                    .collect();
                let names = lines.iter().map(Release::name).collect();
                // SAFETY: i < pathconfig_profile_count().
                let default = unsafe { sys::pathconfig_profile_default_release(i) };
                ReleaseLines { lines, names, default }
            })
            .collect()
    })
}

impl Profile {
    /// The profile's place in the library's catalog.
    fn catalog_index(self) -> Option<usize> {
        profile_names().iter().position(|n| *n == self.name())
    }

    /// The release lines of the profile's app, in the library's order: oldest
    /// first, the main branch last (since libpathconfig 1.1.0).
    pub fn release_lines(self) -> &'static [Release] {
        self.catalog_entry().map_or(&[], |entry| entry.lines.as_slice())
    }

    fn catalog_entry(self) -> Option<&'static ReleaseLines> {
        self.catalog_index().and_then(|i| release_catalog().get(i))
    }

    /// The names of the profile's release lines
    /// ([`release_lines`](Self::release_lines)' [`Release::name`]), as the
    /// library lists them: `["hotwire-ios@1.0.0", "hotwire-ios@1.2.0",
    /// "hotwire-ios@main"]`. Each, and any tag of its line, is a version
    /// [`Options::version`](crate::Options::version) takes.
    ///
    /// ```
    /// use pathconfig::{Options, PathConfiguration, Profile};
    ///
    /// for &profile in Profile::all() {
    ///     for line in profile.release_lines() {
    ///         let options = Options::new().profile(profile).version(line.version());
    ///         let config = PathConfiguration::from_json(r#"{"rules": []}"#, &options)?;
    ///         assert_eq!(config.version().as_deref(), Some(line.version()));
    ///     }
    ///     assert_eq!(profile.releases().len(), profile.release_lines().len());
    /// }
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    pub fn releases(self) -> &'static [&'static str] {
        self.catalog_entry().map_or(&[], |entry| entry.names.as_slice())
    }

    /// The index in [`release_lines`](Self::release_lines) of the line the
    /// bare profile reads as (`pathconfig_profile_default_release`): the
    /// app's latest stable release.
    pub fn default_release_index(self) -> usize {
        self.catalog_entry().map_or(0, |entry| entry.default)
    }

    /// The name of the line the bare profile reads as, e.g.
    /// `"hotwire-ios@1.2.0"`.
    pub fn default_release(self) -> &'static str {
        self.release_lines().get(self.default_release_index()).map_or("", Release::name)
    }
}

/// The names the library itself lists (`pathconfig_profile_count`,
/// `_name`), in its order: what [`Profile::all`] must equal.
pub fn profile_names() -> Vec<&'static str> {
    // SAFETY: no arguments; indexes below the count are valid.
    let n = unsafe { sys::pathconfig_profile_count() };
    // SAFETY: i < pathconfig_profile_count().
    (0..n).map(|i| listed(unsafe { sys::pathconfig_profile_name(i) }, "pathconfig_profile_name")).collect()
}

impl FromStr for Profile {
    type Err = Error;

    /// The profile called `name`; [`ErrorCode::Options`](crate::ErrorCode::Options)
    /// naming the profiles there are otherwise.
    fn from_str(name: &str) -> Result<Profile, Error> {
        Profile::named(name).ok_or_else(|| {
            let names: Vec<&str> = PROFILES.iter().map(|(_, n)| *n).collect();
            Error::new(
                crate::ErrorCode::Options,
                format!("unknown profile {name:?}; the profiles are {}", names.join(", ")),
            )
        })
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl AsRef<str> for Profile {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

impl PartialEq<str> for Profile {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for Profile {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
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
/// use pathconfig::{Profile, TypedKey, TypedKind, TypedValue};
///
/// let key = TypedKey::named("view_controller").expect("a typed key");
/// assert_eq!(key.kind(), TypedKind::String);
/// assert_eq!(key.default_value(Profile::HotwireIos)?, TypedValue::Str(Some("web")));
/// assert_eq!(key.default_value(Profile::HotwireAndroid)?, TypedValue::Str(None));
/// assert!(TypedKey::named("presentation").unwrap().values(Profile::HotwireAndroid)?.contains(&"push"));
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypedKey {
    key: c_int,
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
            let n = c_int::try_from(n).unwrap_or(c_int::MAX);
            (0..n)
                .map(|key| TypedKey {
                    key,
                    // SAFETY: key < pathconfig_typed_key_count().
                    name: listed(unsafe { sys::pathconfig_typed_key_name(key) }, "pathconfig_typed_key_name"),
                    // SAFETY: as above.
                    kind: TypedKind::from_raw(unsafe { sys::pathconfig_typed_key_kind(key) }),
                })
                .collect()
        })
    }

    /// The typed key called `name`, if the library has one.
    pub fn named(name: &str) -> Option<TypedKey> {
        TypedKey::all().iter().copied().find(|k| k.name == name)
    }

    /// The key's number: its `PATHCONFIG_KEY_*` constant, its index in
    /// [`all`](Self::all).
    pub fn raw(self) -> i32 {
        self.key
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
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) when the library
    /// refuses the profile (one newer than it).
    pub fn values(self, profile: Profile) -> Result<Vec<&'static str>, Error> {
        let profile = util::cstring(profile.name())?;
        // SAFETY: a valid index and a NUL-terminated profile name.
        let n = unsafe { sys::pathconfig_typed_key_value_count(self.key, profile.as_ptr()) };
        if n == 0 {
            if let Some(err) = Error::last_if_set() {
                return Err(err);
            }
        }
        let value = |j| {
            // SAFETY: j < the count the library just gave for this key and profile.
            let p = unsafe { sys::pathconfig_typed_key_value(self.key, profile.as_ptr(), j) };
            listed(p, "pathconfig_typed_key_value")
        };
        Ok((0..n).map(value).collect())
    }

    /// What the accessor gives under `profile` when the key is missing,
    /// mistyped or unknown.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) when the library
    /// refuses the profile (one newer than it).
    pub fn default_value(self, profile: Profile) -> Result<TypedValue<'static>, Error> {
        let profile = util::cstring(profile.name())?;
        if self.kind == TypedKind::Bool {
            // SAFETY: a valid index and a NUL-terminated profile name.
            let rc = unsafe { sys::pathconfig_typed_key_default_bool(self.key, profile.as_ptr()) };
            // 0 is also the answer to a failure: the last error tells them apart.
            return match (rc, Error::last_if_set()) {
                (0, Some(err)) => Err(err),
                _ => Ok(TypedValue::Bool(rc != 0)),
            };
        }
        // SAFETY: as above; the result is static or NULL.
        let p = unsafe { sys::pathconfig_typed_key_default_string(self.key, profile.as_ptr()) };
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
