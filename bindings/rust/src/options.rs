//! [`Options`]: how a configuration is loaded, serialised to the C API's
//! options JSON.

use std::fmt;

use crate::catalog::Profile;
use crate::json;

/// How the properties of several matching rules combine (the `"merge"`
/// option).
///
/// ```compile_fail
/// let _ = pathconfig::Merge::Deeep;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Merge {
    /// `"shallow"` (the default, as the apps do): a later rule replaces whole
    /// top-level keys.
    #[default]
    Shallow,
    /// `"deep"`, as Siesta's configuration does: each rule's properties apply
    /// as a JSON Merge Patch (RFC 7396): nested objects merge, `null`
    /// removes a key.
    Deep,
}

impl Merge {
    /// The option's value, `"shallow"` or `"deep"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Merge::Shallow => "shallow",
            Merge::Deep => "deep",
        }
    }
}

impl fmt::Display for Merge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How to load a configuration: a builder, turned into the C API's options
/// JSON by [`to_json`](Options::to_json). Only what is set is sent; the rest
/// keeps the library's defaults. Names are checked by the library when it
/// loads (an unknown profile or backend is an
/// [`ErrorCode::Options`](crate::ErrorCode::Options) error in its words);
/// [`Profile::all`](crate::Profile::all) and [`backends`](crate::backends)
/// list the ones it has.
///
/// [`version`](Options::version) names a release of the profile's app
/// (`"profile":"APP@VERSION"`, docs/app-versions.md); without it the
/// profile reads as its app's latest stable release.
///
/// ```
/// use pathconfig::{Merge, Options, Profile};
///
/// let options = Options::new().profile(Profile::TurboIos).match_query_strings(true);
/// assert_eq!(options.to_json(), r#"{"profile":"turbo-ios","match_query_strings":true}"#);
/// let options = Options::new().profile(Profile::HotwireIos).version("1.2.2");
/// assert_eq!(options.to_json(), r#"{"profile":"hotwire-ios@1.2.2"}"#);
/// let options = Options::new().profile(Profile::Siesta).base_url("https://api.example.com").merge(Merge::Deep);
/// assert_eq!(options.to_json(), r#"{"profile":"siesta","base_url":"https://api.example.com","merge":"deep"}"#);
/// assert_eq!(Options::new().result_cache_size(0).to_json(), r#"{"result_cache_size":0}"#);
/// assert_eq!(Options::new().to_json(), "{}");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    profile: Option<Profile>,
    version: Option<String>,
    match_query_strings: Option<bool>,
    backend: Option<String>,
    lenient: Option<bool>,
    base_url: Option<String>,
    merge: Option<Merge>,
    result_cache_size: Option<usize>,
    max_url_bytes: Option<usize>,
    raw: Vec<(String, String)>,
}

impl Options {
    /// The library's defaults: its first profile (`hotwire-ios`), the
    /// profile's query matching, its first backend (`pcre2`), strict patterns.
    pub fn new() -> Options {
        Options::default()
    }

    /// The app whose reading of the file is reproduced (`"profile"`), as
    /// its latest stable release reads it unless [`version`](Self::version)
    /// names another.
    pub fn profile(mut self, profile: Profile) -> Options {
        self.profile = Some(profile);
        self
    }

    /// A release of the profile's app (since libpathconfig 1.1.0): any tag
    /// of the app (`"1.2.2"`, `"1.3.0-beta"`) or `"main"`, its main branch.
    /// The options then say `"profile":"APP@VERSION"`
    /// (`"hotwire-ios@1.2.2"`); without a [`profile`](Self::profile), the
    /// version applies to the default profile ([`Profile::default`],
    /// `hotwire-ios`). The library checks it when it loads: a version that is
    /// not a release of the app is an
    /// [`ErrorCode::Options`](crate::ErrorCode::Options) error whose message
    /// lists the app's releases. [`Profile::releases`] lists the release
    /// lines; [`PathConfiguration::version`] reads the version back.
    ///
    /// ```
    /// use pathconfig::{ErrorCode, Options, PathConfiguration, Profile};
    ///
    /// let json = r#"{"rules": [{"patterns": ["/numbers$"], "properties": {"view_controller": "numbers"}}]}"#;
    /// let url = "https://hotwire-native-demo.dev/numbers/";
    /// let released = PathConfiguration::from_json(json, &Options::new().profile(Profile::HotwireIos).version("1.2.2"))?;
    /// assert_eq!(released.properties(url)?.json(), r#"{"view_controller":"numbers"}"#); // url.path: no slash
    /// let main = PathConfiguration::from_json(json, &Options::new().version("main"))?; // hotwire-ios@main
    /// assert_eq!(main.properties(url)?.json(), "{}"); // the encoded path, its slash kept
    /// assert_eq!((main.profile(), main.version().as_deref()), (Profile::HotwireIos, Some("main")));
    ///
    /// let err = PathConfiguration::from_json(json, &Options::new().version("1.4.0")).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::Options);
    /// assert!(err.message().contains("its releases are 1.0.0"), "{err}");
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// [`Profile::default`]: crate::Profile::default
    /// [`Profile::releases`]: crate::Profile::releases
    /// [`PathConfiguration::version`]: crate::PathConfiguration::version
    pub fn version(mut self, version: &str) -> Options {
        self.version = Some(version.to_string());
        self
    }

    /// Whether `?query` is appended to URL paths before matching
    /// (`"match_query_strings"`): `true`, `false`, or `None` for the profile's
    /// default (on for every profile but `turbo-ios`).
    pub fn match_query_strings(mut self, on: impl Into<Option<bool>>) -> Options {
        self.match_query_strings = on.into();
        self
    }

    /// The regex engine (`"backend"`), one of [`backends`](crate::backends);
    /// a backend the library names but has not built in (`"foundation"`) is
    /// an [`ErrorCode::Backend`](crate::ErrorCode::Backend) error at load.
    pub fn backend(mut self, backend: impl AsRef<str>) -> Options {
        self.backend = Some(backend.as_ref().to_string());
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

    /// The URL that relative globs and inputs without a scheme resolve
    /// against (`"base_url"`): absolute, with a host and no query, fragment
    /// or user information, e.g. `"https://api.example.com/v1"`. A relative
    /// glob then never matches a URL on another scheme, host or port. An
    /// input is appended as Siesta's `resource(_:)` appends a path (its `?`
    /// is encoded: a query needs the absolute URL). The library checks it
    /// at load ([`ErrorCode::Options`](crate::ErrorCode::Options)).
    pub fn base_url(mut self, url: impl AsRef<str>) -> Options {
        self.base_url = Some(url.as_ref().to_string());
        self
    }

    /// How matching rules' properties combine (`"merge"`): [`Merge::Shallow`]
    /// (the default, as the apps do) or [`Merge::Deep`] (as Siesta does).
    pub fn merge(mut self, mode: Merge) -> Options {
        self.merge = Some(mode);
        self
    }

    /// Entries of the library's per-lookup result cache
    /// (`"result_cache_size"`, default 512); 0 turns it off (for honest
    /// benchmarks, and for hosts that never repeat a URL).
    pub fn result_cache_size(mut self, entries: usize) -> Options {
        self.result_cache_size = Some(entries);
        self
    }

    /// The longest URL or path a lookup takes, in bytes (`"max_url_bytes"`,
    /// default 65536): a longer one fails with
    /// [`ErrorCode::Limit`](crate::ErrorCode::Limit) before any pattern runs.
    pub fn max_url_bytes(mut self, bytes: usize) -> Options {
        self.max_url_bytes = Some(bytes);
        self
    }

    /// Adds `"key": value_json` as written, after the typed options: for an
    /// option of a newer library this crate has no setter for yet. `key` is
    /// escaped; `value_json` must be JSON text and is not checked here (the
    /// library rejects a bad one with [`ErrorCode::Options`] at load time).
    ///
    /// [`ErrorCode::Options`]: crate::ErrorCode::Options
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
        match (self.profile, &self.version) {
            (Some(p), None) => members.push(("profile".to_string(), string_literal(p.name()))),
            (p, Some(version)) => {
                let name = format!("{}@{version}", p.unwrap_or_default().name());
                members.push(("profile".to_string(), string_literal(&name)));
            }
            (None, None) => {}
        }
        if let Some(on) = self.match_query_strings {
            members.push(("match_query_strings".to_string(), on.to_string()));
        }
        if let Some(b) = &self.backend {
            members.push(("backend".to_string(), string_literal(b)));
        }
        if let Some(on) = self.lenient {
            members.push(("lenient".to_string(), on.to_string()));
        }
        if let Some(url) = &self.base_url {
            members.push(("base_url".to_string(), string_literal(url)));
        }
        if let Some(mode) = self.merge {
            members.push(("merge".to_string(), string_literal(mode.as_str())));
        }
        if let Some(n) = self.result_cache_size {
            members.push(("result_cache_size".to_string(), n.to_string()));
        }
        if let Some(n) = self.max_url_bytes {
            members.push(("max_url_bytes".to_string(), n.to_string()));
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
