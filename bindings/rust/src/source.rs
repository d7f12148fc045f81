//! What a [`Loader`] reads and how: the [`Source`]s of its
//! chain and the [`LoaderOptions`], serialised to the C API's
//! `sources_json` and `options_json`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, ErrorCode};
use crate::event::SourceKind;
use crate::json;
use crate::options::{string_literal, Options};
#[cfg(doc)]
use crate::{Loader, LoaderEvent};

// ---------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------

/// One place a [`Loader`] reads a configuration from.
///
/// - [`Source::file`]: a JSON file, read each time the chain runs;
/// - [`Source::data`]: the configuration itself (e.g. bundled with the app),
///   with a name for events;
/// - [`Source::server`]: an `http://` or `https://` URL, downloaded, cached
///   on disk when the loader has a [cache directory](LoaderOptions::cache_dir),
///   with extra request [headers](Source::header).
///
/// ```
/// use pathconfig::Source;
///
/// let source = Source::server("https://example.com/path-configuration.json").header("Accept", "application/json");
/// assert_eq!(
///     source.to_json()?,
///     r#"{"server":"https://example.com/path-configuration.json","headers":{"Accept":"application/json"}}"#
/// );
/// assert_eq!(Source::data("{\"rules\": []}", "bundled").to_json()?, r#"{"data":"{\"rules\": []}","name":"bundled"}"#);
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    spec: Spec,
    headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Spec {
    File(PathBuf),
    Data { text: String, name: String },
    Server(String),
}

impl Source {
    /// A JSON file (`{"file": PATH}`), read each time the chain runs.
    pub fn file(path: impl Into<PathBuf>) -> Source {
        Source { spec: Spec::File(path.into()), headers: Vec::new() }
    }

    /// The configuration as JSON text (`{"data": TEXT, "name": NAME}`);
    /// `name` stands for it in events ([`LoaderEvent::location`]).
    pub fn data(text: impl Into<String>, name: impl Into<String>) -> Source {
        Source { spec: Spec::Data { text: text.into(), name: name.into() }, headers: Vec::new() }
    }

    /// A server copy (`{"server": URL}`): an absolute `http://` or `https://`
    /// URL (anything else fails [`Loader::new`] with [`ErrorCode::Options`]).
    pub fn server(url: impl Into<String>) -> Source {
        Source { spec: Spec::Server(url.into()), headers: Vec::new() }
    }

    /// Adds a request header, sent in the order added (servers may reject
    /// requests without `Accept`). For server sources only: the library
    /// rejects headers on another source, and a name or value it cannot send,
    /// with [`ErrorCode::Options`] when the loader is created.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Source {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// [`SourceKind::File`], [`Data`](SourceKind::Data) or [`Server`](SourceKind::Server).
    pub fn kind(&self) -> SourceKind {
        match self.spec {
            Spec::File(_) => SourceKind::File,
            Spec::Data { .. } => SourceKind::Data,
            Spec::Server(_) => SourceKind::Server,
        }
    }

    /// The source object the C API takes, compact.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a file path that is not UTF-8 or contains
    /// a NUL byte (the C API takes UTF-8 paths).
    pub fn to_json(&self) -> Result<String, Error> {
        let mut members = Vec::new();
        match &self.spec {
            Spec::File(path) => members.push(("file".to_string(), string_literal(utf8_path(path, "file")?))),
            Spec::Data { text, name } => {
                members.push(("data".to_string(), string_literal(text)));
                members.push(("name".to_string(), string_literal(name)));
            }
            Spec::Server(url) => members.push(("server".to_string(), string_literal(url))),
        }
        if !self.headers.is_empty() {
            let headers: Vec<(String, String)> =
                self.headers.iter().map(|(name, value)| (name.clone(), string_literal(value))).collect();
            members.push(("headers".to_string(), json::object(&headers)));
        }
        Ok(json::object(&members))
    }
}

/// The JSON array of sources the C API takes.
pub(crate) fn sources_json(sources: &[Source]) -> Result<String, Error> {
    let items = sources.iter().map(Source::to_json).collect::<Result<Vec<_>, _>>()?;
    Ok(format!("[{}]", items.join(",")))
}

/// `path` as UTF-8 without NUL bytes, or an [`ErrorCode::Argument`] error naming `what`.
fn utf8_path<'a>(path: &'a Path, what: &str) -> Result<&'a str, Error> {
    let text = path.to_str().ok_or_else(|| {
        Error::new(ErrorCode::Argument, format!("{what} path is not valid UTF-8: {}", path.display()))
    })?;
    if text.contains('\0') {
        return Err(Error::new(ErrorCode::Argument, format!("{what} path contains a NUL byte: {}", path.display())));
    }
    Ok(text)
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// How a [`Loader`] loads and downloads: the load [`Options`] (applied to
/// every source) plus the loader's own, serialised to the C API's options
/// JSON by [`to_json`](LoaderOptions::to_json). Only what is set is sent.
///
/// ```
/// use std::time::Duration;
/// use pathconfig::LoaderOptions;
///
/// let options = LoaderOptions::new()
///     .profile(pathconfig::Profile::TurboAndroid)
///     .cache_dir("/var/cache/app")
///     .timeout(Duration::from_secs(10))
///     .refresh_interval(Duration::from_secs(15 * 60))
///     .user_agent("MyApp/2.1 \"beta\"");
/// assert_eq!(
///     options.to_json()?,
///     r#"{"profile":"turbo-android","cache_dir":"/var/cache/app","timeout_ms":10000,"refresh_interval_ms":900000,"user_agent":"MyApp/2.1 \"beta\""}"#
/// );
/// assert_eq!(LoaderOptions::new().to_json()?, "{}");
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoaderOptions {
    options: Options,
    cache_dir: Option<PathBuf>,
    timeout: Option<Duration>,
    max_body_bytes: Option<u64>,
    refresh_interval: Option<Duration>,
    user_agent: Option<String>,
    ca_file: Option<PathBuf>,
    follow_redirects_to_other_hosts: Option<bool>,
}

impl LoaderOptions {
    /// The library's defaults: the load defaults, no cache, a 30 s timeout,
    /// an 8 MiB body limit, no polling, `User-Agent: libpathconfig/VERSION`,
    /// the system's CA certificates, no redirect to another host.
    pub fn new() -> LoaderOptions {
        LoaderOptions::default()
    }

    /// Replaces the load options (every one of [`Options`]), which apply to
    /// every source.
    pub fn load_options(mut self, options: Options) -> LoaderOptions {
        self.options = options;
        self
    }

    /// The load options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// [`Options::profile`] for every source.
    pub fn profile(mut self, profile: crate::Profile) -> LoaderOptions {
        self.options = self.options.profile(profile);
        self
    }

    /// [`Options::match_query_strings`] for every source.
    pub fn match_query_strings(mut self, on: impl Into<Option<bool>>) -> LoaderOptions {
        self.options = self.options.match_query_strings(on);
        self
    }

    /// [`Options::backend`] for every source.
    pub fn backend(mut self, backend: impl AsRef<str>) -> LoaderOptions {
        self.options = self.options.backend(backend);
        self
    }

    /// [`Options::lenient`] for every source.
    pub fn lenient(mut self, lenient: bool) -> LoaderOptions {
        self.options = self.options.lenient(lenient);
        self
    }

    /// [`Options::raw_option`]: `"key": value_json` as written, for an
    /// option of a newer library (checked by the library, not here).
    pub fn raw_option(mut self, key: &str, value_json: &str) -> LoaderOptions {
        self.options = self.options.raw_option(key, value_json);
        self
    }

    /// `"cache_dir"`: where server copies are kept, one file per URL
    /// (created, mode 0700, when missing). Default: no cache.
    pub fn cache_dir(mut self, dir: impl Into<PathBuf>) -> LoaderOptions {
        self.cache_dir = Some(dir.into());
        self
    }

    /// `"timeout_ms"`: the longest one download may take, connecting
    /// included (default 30 s). Sent in whole milliseconds, rounded up; zero
    /// is rejected by the library ([`ErrorCode::Options`]).
    pub fn timeout(mut self, timeout: Duration) -> LoaderOptions {
        self.timeout = Some(timeout);
        self
    }

    /// `"max_body_bytes"`: the largest body accepted (default 8388608); zero
    /// is rejected by the library.
    pub fn max_body_bytes(mut self, bytes: u64) -> LoaderOptions {
        self.max_body_bytes = Some(bytes);
        self
    }

    /// `"refresh_interval_ms"`: [`Loader::load`] starts a thread that
    /// refreshes at this interval until the loader is dropped (default: no
    /// polling). Whole milliseconds, rounded up; zero is rejected.
    pub fn refresh_interval(mut self, interval: Duration) -> LoaderOptions {
        self.refresh_interval = Some(interval);
        self
    }

    /// `"user_agent"`: the `User-Agent` header (default
    /// `libpathconfig/VERSION`); control characters are rejected.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> LoaderOptions {
        self.user_agent = Some(user_agent.into());
        self
    }

    /// `"ca_file"`: a PEM file of CA certificates to trust for HTTPS instead
    /// of the system's.
    pub fn ca_file(mut self, path: impl Into<PathBuf>) -> LoaderOptions {
        self.ca_file = Some(path.into());
        self
    }

    /// `"follow_redirects_to_other_hosts"`: whether a download follows a
    /// redirect to another host (default false: the download fails with
    /// reason `HttpStatus`, naming the target). Redirects on the same host
    /// are followed, at most 5; from https to http never.
    pub fn follow_redirects_to_other_hosts(mut self, follow: bool) -> LoaderOptions {
        self.follow_redirects_to_other_hosts = Some(follow);
        self
    }

    /// The options object the C API takes, compact: the load options'
    /// members, then the loader's.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] for a `cache_dir` or `ca_file` path that is
    /// not UTF-8 or contains a NUL byte.
    pub fn to_json(&self) -> Result<String, Error> {
        let mut members = self.options.members();
        let mut add = |key: &str, value: String| members.push((key.to_string(), value));
        if let Some(dir) = &self.cache_dir {
            add("cache_dir", string_literal(utf8_path(dir, "cache_dir")?));
        }
        if let Some(timeout) = self.timeout {
            add("timeout_ms", millis(timeout).to_string());
        }
        if let Some(bytes) = self.max_body_bytes {
            add("max_body_bytes", bytes.to_string());
        }
        if let Some(interval) = self.refresh_interval {
            add("refresh_interval_ms", millis(interval).to_string());
        }
        if let Some(agent) = &self.user_agent {
            add("user_agent", string_literal(agent));
        }
        if let Some(file) = &self.ca_file {
            add("ca_file", string_literal(utf8_path(file, "ca_file")?));
        }
        if let Some(follow) = self.follow_redirects_to_other_hosts {
            add("follow_redirects_to_other_hosts", follow.to_string());
        }
        Ok(json::object(&members))
    }

    /// True when nothing is set (NULL is passed).
    pub(crate) fn is_default(&self) -> bool {
        *self == LoaderOptions::default()
    }
}

/// Load options alone, the loader's own at their defaults.
impl From<Options> for LoaderOptions {
    fn from(options: Options) -> LoaderOptions {
        LoaderOptions::new().load_options(options)
    }
}

/// Whole milliseconds, rounded up (so 1 µs is 1 ms, and only zero is zero).
fn millis(d: Duration) -> u128 {
    d.as_nanos().div_ceil(1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    #[test]
    fn sources_are_escaped() {
        let sources = [
            Source::file("/data/we\"ird\\dir/é.json"),
            Source::data("{\"rules\": []}\n", "a\tb"),
            Source::server("https://h/p.json?a=\"1\"").header("Accept", "application/json").header("X-Q", "\"\\\u{1}"),
        ];
        assert_eq!(
            sources_json(&sources).unwrap(),
            concat!(
                r#"[{"file":"/data/we\"ird\\dir/é.json"},"#,
                r#"{"data":"{\"rules\": []}\n","name":"a\tb"},"#,
                r#"{"server":"https://h/p.json?a=\"1\"","headers":{"Accept":"application/json","X-Q":"\"\\\u0001"}}]"#
            )
        );
        assert_eq!(sources_json(&[]).unwrap(), "[]");
    }

    #[test]
    fn bad_paths_are_argument_errors() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let not_utf8 = Path::new(OsStr::from_bytes(b"/tmp/\xff.json"));
        assert_eq!(Source::file(not_utf8).to_json().unwrap_err().code(), ErrorCode::Argument);
        assert_eq!(Source::file("/tmp/a\0b").to_json().unwrap_err().code(), ErrorCode::Argument);
        assert_eq!(LoaderOptions::new().cache_dir(not_utf8).to_json().unwrap_err().code(), ErrorCode::Argument);
        assert_eq!(LoaderOptions::new().ca_file("a\0b").to_json().unwrap_err().code(), ErrorCode::Argument);
    }

    #[test]
    fn options_extend_the_load_options() {
        let options = LoaderOptions::from(Options::new().lenient(true).raw_option("x", "1"))
            .cache_dir("/c")
            .timeout(Duration::from_micros(1500))
            .max_body_bytes(1024)
            .refresh_interval(Duration::from_secs(60))
            .user_agent("ua\n")
            .ca_file("/etc/ca.pem")
            .follow_redirects_to_other_hosts(true);
        assert_eq!(
            options.to_json().unwrap(),
            r#"{"lenient":true,"x":1,"cache_dir":"/c","timeout_ms":2,"max_body_bytes":1024,"refresh_interval_ms":60000,"user_agent":"ua\n","ca_file":"/etc/ca.pem","follow_redirects_to_other_hosts":true}"#
        );
        assert_eq!(millis(Duration::ZERO), 0);
        assert_eq!(millis(Duration::from_nanos(1)), 1);
        assert_eq!(millis(Duration::from_millis(5)), 5);
        assert_eq!(millis(Duration::MAX), 18446744073709551616000);
        assert!(LoaderOptions::new().is_default() && !LoaderOptions::new().lenient(false).is_default());
        assert_eq!(
            LoaderOptions::new().profile(Profile::TurboIos).options(),
            &Options::new().profile(Profile::TurboIos)
        );
    }
}
