//! [`Options`]: how a configuration is loaded, serialised to the C API's
//! options JSON.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorCode};
use crate::json;

/// The app whose reading of the file is reproduced.
///
/// The profile decides the string the patterns see for a URL, whether query
/// strings are matched by default, case sensitivity, the built-in rules and
/// the typed accessors' defaults (see the README's profile table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// `"hotwire-ios"`: Hotwire Native iOS (the library's default).
    #[default]
    HotwireIos,
    /// `"turbo-ios"`: Turbo iOS 7.
    TurboIos,
    /// `"hotwire-android"`: Hotwire Native Android.
    HotwireAndroid,
    /// `"turbo-android"`: Turbo Android.
    TurboAndroid,
}

impl Profile {
    /// Every profile, in the library's order.
    pub const ALL: [Profile; 4] =
        [Profile::HotwireIos, Profile::TurboIos, Profile::HotwireAndroid, Profile::TurboAndroid];

    /// The name the C API uses, e.g. `"hotwire-ios"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::HotwireIos => "hotwire-ios",
            Profile::TurboIos => "turbo-ios",
            Profile::HotwireAndroid => "hotwire-android",
            Profile::TurboAndroid => "turbo-android",
        }
    }

    /// True for the two Android profiles.
    pub fn is_android(self) -> bool {
        matches!(self, Profile::HotwireAndroid | Profile::TurboAndroid)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses a profile name; an unknown one is an [`ErrorCode::Options`] error
/// worded as the library words it.
impl FromStr for Profile {
    type Err = Error;

    fn from_str(s: &str) -> Result<Profile, Error> {
        Profile::ALL.into_iter().find(|p| p.as_str() == s).ok_or_else(|| {
            Error::new(
                ErrorCode::Options,
                format!(
                    "unknown profile {}; expected one of hotwire-ios, turbo-ios, hotwire-android, turbo-android",
                    string_literal(s)
                ),
            )
        })
    }
}

/// The regex engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    /// `"pcre2"`: the default, and the only backend built into the C library.
    #[default]
    Pcre2,
    /// `"foundation"`: NSRegularExpression, available to Swift callers only;
    /// loading with it through the C library fails with [`ErrorCode::Backend`].
    Foundation,
}

impl Backend {
    /// The name the C API uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Pcre2 => "pcre2",
            Backend::Foundation => "foundation",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Backend {
    type Err = Error;

    fn from_str(s: &str) -> Result<Backend, Error> {
        match s {
            "pcre2" => Ok(Backend::Pcre2),
            "foundation" => Ok(Backend::Foundation),
            _ => Err(Error::new(
                ErrorCode::Options,
                format!("unknown backend {}; expected pcre2 or foundation", string_literal(s)),
            )),
        }
    }
}

/// How to load a configuration: a builder, turned into the C API's options
/// JSON by [`to_json`](Options::to_json). Only what is set is sent; the rest
/// keeps the library's defaults.
///
/// ```
/// use pathconfig::{Options, Profile};
///
/// let options = Options::new().profile(Profile::TurboIos).match_query_strings(true);
/// assert_eq!(options.to_json(), r#"{"profile":"turbo-ios","match_query_strings":true}"#);
/// assert_eq!(Options::new().to_json(), "{}");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    profile: Option<Profile>,
    match_query_strings: Option<bool>,
    backend: Option<Backend>,
    lenient: Option<bool>,
    raw: Vec<(String, String)>,
}

impl Options {
    /// The library's defaults: profile `hotwire-ios`, the profile's query
    /// matching, `pcre2`, strict patterns.
    pub fn new() -> Options {
        Options::default()
    }

    /// The app whose reading of the file is reproduced (`"profile"`).
    pub fn profile(mut self, profile: Profile) -> Options {
        self.profile = Some(profile);
        self
    }

    /// Whether `?query` is appended to URL paths before matching
    /// (`"match_query_strings"`): `true`, `false`, or `None` for the profile's
    /// default (on for every profile but `turbo-ios`).
    pub fn match_query_strings(mut self, on: impl Into<Option<bool>>) -> Options {
        self.match_query_strings = on.into();
        self
    }

    /// The regex engine (`"backend"`).
    pub fn backend(mut self, backend: Backend) -> Options {
        self.backend = Some(backend);
        self
    }

    /// `false` (the default): an invalid pattern fails the load. `true`: it is
    /// skipped with a warning (see [`PathConfiguration::warnings`]), as the
    /// apps do.
    ///
    /// [`PathConfiguration::warnings`]: crate::PathConfiguration::warnings
    pub fn lenient(mut self, lenient: bool) -> Options {
        self.lenient = Some(lenient);
        self
    }

    /// Adds `"key": value_json` as written, after the typed options: for an
    /// option of a newer library this crate has no setter for yet. `key` is
    /// escaped; `value_json` must be JSON text and is not checked here (the
    /// library rejects a bad one with [`ErrorCode::Options`] at load time).
    pub fn raw_option(mut self, key: &str, value_json: &str) -> Options {
        self.raw.push((key.to_string(), value_json.to_string()));
        self
    }

    /// The options object the C API takes, compact, e.g.
    /// `{"profile":"turbo-ios","lenient":true}`.
    pub fn to_json(&self) -> String {
        json::object(&self.members())
    }

    /// The members of [`to_json`](Self::to_json)'s object, in order, as
    /// (key, JSON text of the value): the loader's options extend them.
    pub(crate) fn members(&self) -> Vec<(String, String)> {
        let mut members = Vec::new();
        if let Some(p) = self.profile {
            members.push(("profile".to_string(), string_literal(p.as_str())));
        }
        if let Some(on) = self.match_query_strings {
            members.push(("match_query_strings".to_string(), on.to_string()));
        }
        if let Some(b) = self.backend {
            members.push(("backend".to_string(), string_literal(b.as_str())));
        }
        if let Some(on) = self.lenient {
            members.push(("lenient".to_string(), on.to_string()));
        }
        members.extend(self.raw.iter().cloned());
        members
    }

    /// True when nothing is set (the library's defaults; NULL is passed).
    pub(crate) fn is_default(&self) -> bool {
        *self == Options::default()
    }
}

pub(crate) fn string_literal(s: &str) -> String {
    let mut out = String::new();
    json::write_string(&mut out, s);
    out
}
