//! [`PathConfiguration`]: a loaded configuration (`pathconfig *`).

use std::ffi::{c_char, CString};
use std::fmt;
use std::path::Path;
use std::ptr::{self, NonNull};

use crate::catalog::Profile;
use crate::error::{self, Error, ErrorCode};
use crate::method::Method;
use crate::options::Options;
use crate::properties::Properties;
use crate::rule::{self, RuleSpec};
use crate::sys;
use crate::util::{self, Binding};
use crate::value::Value;
use crate::warning::Warning;

/// A loaded path configuration: shared, cheap to clone, immutable but for
/// the rules added from code.
///
/// Load it once with [`from_json`](Self::from_json) or
/// [`from_file`](Self::from_file), then ask for the [`properties`](Self::properties)
/// of each URL (a GET request), or of a request with another HTTP method
/// ([`request_properties`](Self::request_properties)). Lookups that match the
/// same rules share one result inside the library.
///
/// Rules may be added from code ([`add_rule`](Self::add_rule), with a
/// [`RuleSpec`] whose closures decide per request or change the properties,
/// as Siesta's `Service.configure(...)` does); their results stay memoised
/// until [`invalidate`](Self::invalidate).
///
/// `Clone` adds a reference to the same C handle (`pathconfig_retain`), so a
/// rule added through one clone is seen by all; dropping the last clone frees
/// it (`pathconfig_release`), and with it the rules' closures. A
/// [`Properties`] does not borrow its configuration and may outlive it.
///
/// ```
/// use pathconfig::{Options, PathConfiguration, Profile};
///
/// let json = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
/// let config = PathConfiguration::from_json(json, &Options::new().profile(Profile::TurboIos))?;
/// assert_eq!(config.profile(), Profile::TurboIos);
/// let props = config.properties("https://example.com/messages/new")?;
/// assert_eq!(props.context(), "modal");
/// assert_eq!(props.json(), r#"{"context":"modal"}"#);
/// assert_eq!(config.properties("/messages")?.json(), "{}");
/// # Ok::<(), pathconfig::Error>(())
/// ```
pub struct PathConfiguration {
    raw: NonNull<sys::pathconfig>,
}

// SAFETY: (Send) the handle is a reference-counted, thread-safe object that
// is not tied to the thread that made it; retain/release are atomic, so the
// reference this value owns may be released from any thread (and with it the
// rules' closures, which are Send for that reason).
unsafe impl Send for PathConfiguration {}
// SAFETY: (Sync) every method takes `&self` and calls functions the header
// documents as safe on one handle from any number of threads at once ("A
// configuration is immutable: any number of threads may use one handle at
// once, and retain/release are atomic"; pathconfig/rules.h: "Adding rules,
// invalidating and resolving may happen on any threads at once"); the
// library's lookup cache is internally synchronised. The rules' closures may
// run on several threads at once, so they are Sync. Per-call error state is
// thread-local, and each method reads it on the thread that made the call.
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
    /// not UTF-8 or contains a NUL. Every error names the file
    /// ([`Error::path`]; `Display` prints `PATH:LINE:COLUMN: MESSAGE`).
    pub fn from_file(path: impl AsRef<Path>, options: &Options) -> Result<PathConfiguration, Error> {
        let path = path.as_ref();
        PathConfiguration::load_file(path, options).map_err(|e| e.with_path(path))
    }

    fn load_file(path: &Path, options: &Options) -> Result<PathConfiguration, Error> {
        let text = path.to_str().ok_or_else(|| Error::new(ErrorCode::Argument, "path is not valid UTF-8"))?;
        let text = util::cstring(text)?;
        let options = options_cstring(options)?;
        let mut err = error::blank();
        // SAFETY: `text` and `options` (or NULL) are NUL-terminated strings
        // and `err` a writable pathconfig_error, all alive across the call and
        // not retained.
        let raw = unsafe { sys::pathconfig_load_file(text.as_ptr(), opt_ptr(&options), &mut err) };
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
    /// absolute URL, or a path: resolved against the
    /// [base URL](Options::base_url) when there is one, else matched as
    /// given), for a GET request: `request_properties(url_or_path, Method::Get)`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] when `url_or_path` contains a NUL;
    /// [`ErrorCode::Limit`] when it is longer than
    /// [`max_url_bytes`](Options::max_url_bytes); [`ErrorCode::Url`] for a
    /// URL the profile's app crashes on; [`ErrorCode::Callback`] when a
    /// closure of a rule added from code fails (see [`add_rule`](Self::add_rule)).
    pub fn properties(&self, url_or_path: &str) -> Result<Properties, Error> {
        self.resolve(url_or_path, &Method::Get)
    }

    /// The merged properties for a request with an HTTP [`Method`]: rules
    /// whose [`methods`](RuleSpec::methods) leave it out do not apply.
    ///
    /// ```
    /// use pathconfig::{Method, Options, PathConfiguration, Profile};
    ///
    /// let json = r#"{"rules": [{"globs": ["/users/*"], "methods": ["POST"], "properties": {"retryTime": 5}}]}"#;
    /// let options = Options::new().profile(Profile::Siesta).base_url("https://api.example.com");
    /// let config = PathConfiguration::from_json(json, &options)?;
    /// assert_eq!(config.request_properties("/users/1", Method::Post)?.get_i64("retryTime")?, Some(5));
    /// assert_eq!(config.request_properties("https://api.example.com/users/1", "post".parse()?)?.json(), r#"{"retryTime":5}"#);
    /// assert_eq!(config.properties("/users/1")?.json(), "{}");
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`properties`](Self::properties).
    pub fn request_properties(&self, url_or_path: &str, method: Method) -> Result<Properties, Error> {
        self.resolve(url_or_path, &method)
    }

    fn resolve(&self, url_or_path: &str, method: &Method) -> Result<Properties, Error> {
        // SAFETY: self.ptr() is a live handle; the URL is NUL-terminated and
        // the method NULL (GET) or NUL-terminated, both alive across the
        // call. `err` is NULL: no struct to clear on every lookup; a failure
        // is read from the thread's last error, right after the call.
        let raw = util::with_cstr(url_or_path, |url| unsafe {
            sys::pathconfig_resolve(self.ptr(), url, method.as_ptr(), ptr::null_mut())
        })?;
        Properties::resolved(raw)
    }

    /// Why `url_or_path` resolves as it does for a GET request, as a JSON
    /// object: `input`, `method`, `url`, `matched_string`, `rules` (each
    /// `index`, and `pattern` or `glob` with `pattern_index`, or
    /// `predicate: true`; `description` when the rule has one,
    /// `builtin: true` for a profile's rule), `properties`, and
    /// `limit_exceeded` when a search ran out of its budget. Never memoised:
    /// the rules' closures run again. [`Value::from_json`] reads it.
    pub fn explain(&self, url_or_path: &str) -> Result<String, Error> {
        self.explain_request(url_or_path, Method::Get)
    }

    /// [`explain`](Self::explain) for a request with an HTTP [`Method`].
    ///
    /// # Errors
    ///
    /// As [`request_properties`](Self::request_properties).
    pub fn explain_request(&self, url_or_path: &str, method: Method) -> Result<String, Error> {
        let url = util::cstring(url_or_path)?;
        let mut err = error::blank();
        // SAFETY: as in `resolve`; the returned string is the caller's and
        // take_string frees it right after this call.
        let json = unsafe { sys::pathconfig_explain(self.ptr(), url.as_ptr(), method.as_ptr(), &mut err) };
        if json.is_null() {
            return Err(Error::from_raw(&err));
        }
        // SAFETY: a non-NULL string the caller frees, not freed yet.
        unsafe { util::take_string(json, "pathconfig_explain") }
    }

    /// Adds `rule` after every rule this configuration has (the document's,
    /// the profile's built-ins, those added before), as Siesta's
    /// `Service.configure(...)` does, and drops the memoised results; the
    /// rule's index (explain reports it). Every clone of this configuration
    /// sees it.
    ///
    /// When the rule applies to a lookup, its fixed
    /// [`properties`](RuleSpec::properties) are merged into the result (by
    /// the [`merge`](Options::merge) option), then its
    /// [`configurer`](RuleSpec::configurer) may change them. A closure that
    /// returns `Err` or panics fails that lookup with
    /// [`ErrorCode::Callback`] (its [`rule_index`](Error::rule_index) is the
    /// rule's; its message quotes the closure's error or the panic's
    /// message), and the failure is not memoised.
    ///
    /// The auth token example of Siesta's README:
    ///
    /// ```
    /// use std::sync::{Arc, RwLock};
    /// use pathconfig::{Merge, Options, PathConfiguration, Profile, RuleSpec};
    ///
    /// let options = Options::new().profile(Profile::Siesta).base_url("https://api.example.com").merge(Merge::Deep);
    /// let api = PathConfiguration::from_json(r#"{"rules": [{"globs": ["**"], "properties": {"headers": {"Accept": "application/json"}}}]}"#, &options)?;
    /// let token = Arc::new(RwLock::new(String::from("t1")));
    /// let current = Arc::clone(&token);
    /// api.add_rule(RuleSpec::new().globs(["**"]).description("auth token").configurer(move |_req, edit| {
    ///     edit.set_header("X-HappyApp-Auth-Token", &current.read().unwrap())
    /// }))?;
    /// let headers = |url: &str| api.properties(url).and_then(|p| p.get_json("headers").map(|h| h.map(str::to_owned)));
    /// assert_eq!(headers("/users/1")?.as_deref(), Some(r#"{"Accept":"application/json","X-HappyApp-Auth-Token":"t1"}"#));
    /// assert_eq!(headers("https://api.example.com.evil.com/")?, None);
    ///
    /// *token.write().unwrap() = String::from("t2");
    /// assert!(headers("/users/1")?.unwrap().contains("t1")); // memoised
    /// api.invalidate();
    /// assert!(headers("/users/1")?.unwrap().contains("t2"));
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// For the rule's JSON ([`RuleSpec::to_json`]): [`ErrorCode::Json`] or
    /// [`Schema`](ErrorCode::Schema) (with line and column in that text),
    /// [`Regex`](ErrorCode::Regex) for a pattern,
    /// [`Limit`](ErrorCode::Limit); [`ErrorCode::Argument`] for a string
    /// with a NUL. The closures are dropped before this returns.
    pub fn add_rule(&self, rule: RuleSpec) -> Result<usize, Error> {
        // SAFETY: self.raw is a live handle for the whole call.
        unsafe { rule::add(self.raw, rule) }
    }

    /// Drops every memoised result, so that the next lookup of each URL runs
    /// the rules' predicates and configurers again (Siesta's
    /// `invalidateConfiguration()`), e.g. after the auth token changed. A
    /// lookup that starts after this returns never returns a result computed
    /// before it.
    pub fn invalidate(&self) {
        // SAFETY: self.raw is a live handle; the call fails only for NULL.
        let rc = unsafe { sys::pathconfig_invalidate(self.raw.as_ptr()) };
        debug_assert_eq!(rc, 0, "pathconfig_invalidate on a live handle");
    }

    /// The string the patterns see for `url_or_path` under this
    /// configuration's profile and options (e.g. `"/messages/new?x=1"`);
    /// `""` for a URL the profile's app crashes on.
    pub fn matched_string(&self, url_or_path: &str) -> Result<String, Error> {
        let url = util::cstring(url_or_path)?;
        let mut err = error::blank();
        // SAFETY: a live handle, a NUL-terminated string and a writable
        // error, alive across the call; the result is the caller's and
        // take_string frees it right after.
        let text = unsafe { sys::pathconfig_matched_string(self.ptr(), url.as_ptr(), &mut err) };
        if text.is_null() {
            return Err(Error::from_raw(&err));
        }
        // SAFETY: a non-NULL string the caller frees, not freed yet.
        unsafe { util::take_string(text, "pathconfig_matched_string") }
    }

    /// The document's top-level `settings` as a JSON object (`"{}"` when
    /// absent or not an object); [`Value::from_json`] reads it.
    pub fn settings(&self) -> &str {
        // SAFETY: self.ptr() is a live handle; the text is borrowed from it.
        let p = unsafe { sys::pathconfig_settings(self.ptr()) };
        self.borrowed(p, "pathconfig_settings")
    }

    /// Every option in effect, defaults written out, as a JSON object, e.g.
    /// `{"profile":"hotwire-ios","match_query_strings":true,...}`: loading
    /// the same document with these options gives the same configuration.
    pub fn options(&self) -> &str {
        // SAFETY: self.ptr() is a live handle; the text is borrowed from it.
        let p = unsafe { sys::pathconfig_options(self.ptr()) };
        self.borrowed(p, "pathconfig_options")
    }

    /// A text borrowed from the configuration ("made on first call"):
    /// NULL only when the library cannot allocate it.
    fn borrowed(&self, p: *const std::ffi::c_char, what: &str) -> &str {
        let err = if p.is_null() { Some(Error::last()) } else { None };
        // SAFETY: `p` is NULL or a NUL-terminated text borrowed from the
        // configuration, valid while `self` holds its reference.
        match unsafe { util::borrowed_str(p, what) } {
            Ok(Some(s)) => s,
            Ok(None) => panic!("{what} failed: {}", err.map_or_else(String::new, |e| e.to_string())),
            Err(e) => panic!("{e}"),
        }
    }

    /// What the load noticed but accepted: duplicate keys, patterns skipped
    /// by a [lenient](Options::lenient) load, settings ignored, rules that
    /// are not portable. The library never prints them.
    pub fn warnings(&self) -> Result<Vec<Warning>, Error> {
        // SAFETY: self.ptr() is a live handle for the whole call.
        unsafe { Warning::read_all(self.ptr()) }
    }

    /// The number of rules: the document's, the profile's built-in rules
    /// (`hotwire-ios` and `hotwire-android` append three), and those added
    /// from code so far (numbered after the others).
    pub fn rule_count(&self) -> usize {
        // SAFETY: self.ptr() is a live handle.
        unsafe { sys::pathconfig_rule_count(self.ptr()) }
    }

    /// The number of rules the document itself has.
    pub fn document_rule_count(&self) -> usize {
        // SAFETY: self.ptr() is a live handle.
        unsafe { sys::pathconfig_document_rule_count(self.ptr()) }
    }

    /// The profile the configuration was loaded with, as
    /// [`options`](Self::options) reports it: the app, also when the options
    /// named one of its releases (`"hotwire-ios@1.2.2"` is
    /// [`Profile::HotwireIos`]; [`version`](Self::version) gives `"1.2.2"`).
    ///
    /// # Panics
    ///
    /// When the library reports an app this crate does not know (a newer
    /// library, loaded with a profile named through
    /// [`Options::raw_option`]).
    pub fn profile(&self) -> Profile {
        let name = self.profile_option();
        let app = name.split_once('@').map_or(name.as_str(), |(app, _)| app);
        Profile::named(app)
            .unwrap_or_else(|| panic!("pathconfig_options names the profile {name:?}, unknown to this crate"))
    }

    /// The release of the profile's app the configuration was loaded with,
    /// as the options named it after `@` (`"1.2.2"`, `"main"`), or `None`
    /// for the bare app, which reads as its latest stable release
    /// ([`Profile::default_release`]). See [`Options::version`].
    ///
    /// ```
    /// use pathconfig::{Options, PathConfiguration, Profile};
    ///
    /// let options = Options::new().profile(Profile::HotwireAndroid).version("1.1.3");
    /// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &options)?;
    /// assert_eq!(config.profile(), Profile::HotwireAndroid);
    /// assert_eq!(config.version().as_deref(), Some("1.1.3"));
    /// assert!(config.options().contains(r#""profile":"hotwire-android@1.1.3""#));
    /// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new())?;
    /// assert_eq!(config.version(), None);
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    pub fn version(&self) -> Option<String> {
        self.profile_option().split_once('@').map(|(_, version)| version.to_string())
    }

    /// `"profile"` of [`options`](Self::options), as the library reports it.
    fn profile_option(&self) -> String {
        let options = Value::from_json(self.options()).unwrap_or_else(|e| panic!("pathconfig_options: {e}"));
        options["profile"].as_str().unwrap_or("").to_string()
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
            .field("profile", &self.profile_option())
            .field("rule_count", &self.rule_count())
            .field("document_rule_count", &self.document_rule_count())
            .finish()
    }
}
