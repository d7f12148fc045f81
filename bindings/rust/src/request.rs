//! [`Request`] and [`Edit`]: one lookup as a rule's closures see it (the
//! `pathconfig_request *` of `pathconfig/rules.h`), borrowed for one call.

use std::ffi::{c_char, c_int};
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::error::Error;
use crate::method::Method;
use crate::sys;
use crate::util;

/// The lookup a [rule's](crate::RuleSpec) predicate or configurer is called
/// for: its URL and HTTP method. Borrowed for the call only.
///
/// ```
/// use pathconfig::{Method, Options, PathConfiguration, Profile, RuleSpec};
///
/// let options = Options::new().profile(Profile::Siesta).base_url("https://api.example.com");
/// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &options)?;
/// config.add_rule(
///     RuleSpec::new()
///         .predicate(|request| request.method() == Method::Delete)
///         .properties(r#"{"confirm": true}"#),
/// )?;
/// assert_eq!(config.request_properties("/users/1", Method::Delete)?.json(), r#"{"confirm":true}"#);
/// assert_eq!(config.request_properties("/users/1", Method::Get)?.json(), "{}");
/// # Ok::<(), pathconfig::Error>(())
/// ```
pub struct Request<'call> {
    raw: NonNull<sys::pathconfig_request>,
    _call: PhantomData<&'call sys::pathconfig_request>,
}

impl Request<'_> {
    /// Wraps the request a callback received.
    ///
    /// # Safety
    ///
    /// `raw` is the request of a running callback; the value does not outlive
    /// that call.
    pub(crate) unsafe fn from_raw(raw: NonNull<sys::pathconfig_request>) -> Self {
        Request { raw, _call: PhantomData }
    }

    /// The URL as a request would be made: an input without a scheme
    /// resolved against the [base URL](crate::Options::base_url), the scheme
    /// lower-cased, characters a URL may not hold percent-encoded, a host
    /// beyond ASCII IDNA-encoded (`"https://api.example.com/users/1"`; the C
    /// header's `pathconfig_request_url` says exactly).
    pub fn url(&self) -> &str {
        // SAFETY: self.raw is the running callback's request (from_raw's contract).
        borrowed(unsafe { sys::pathconfig_request_url(self.raw.as_ptr()) }, "pathconfig_request_url")
    }

    /// The HTTP method ([`Method::Get`] for the lookups that name none).
    pub fn method(&self) -> Method {
        // SAFETY: as in `url`.
        let name = borrowed(unsafe { sys::pathconfig_request_method(self.raw.as_ptr()) }, "pathconfig_request_method");
        // The library took the method as a token: it parses again.
        Method::parse(name).unwrap_or_else(|e| panic!("pathconfig_request_method returned {name:?}: {e}"))
    }
}

impl fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = self.method();
        f.debug_struct("Request").field("method", &method.as_str()).field("url", &self.url()).finish()
    }
}

/// The properties a configurer works on: those merged so far, this rule's
/// fixed `properties` included. A configurer changes them with the typed
/// setters ([`set_string`](Self::set_string), [`set_i64`](Self::set_i64),
/// [`set_f64`](Self::set_f64), [`set_bool`](Self::set_bool),
/// [`set_header`](Self::set_header), [`remove`](Self::remove)), which take
/// values, never JSON text: a token such as `abc", "X-Admin": "true` is
/// stored as that string, in one header. What the properties hold when the
/// configurer returns `Ok` is the lookup's result so far.
///
/// ```
/// use pathconfig::{Options, PathConfiguration, Profile, RuleSpec};
///
/// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new().profile(Profile::Siesta))?;
/// config.add_rule(
///     RuleSpec::new()
///         .globs(["**"])
///         .properties(r#"{"headers": {"Accept": "application/json"}, "retryTime": 1}"#)
///         .configurer(|_req, edit| {
///             assert_eq!(edit.properties(), r#"{"headers":{"Accept":"application/json"},"retryTime":1}"#);
///             edit.set_header("X-Token", "abc\", \"X-Admin\": \"true")?;
///             edit.set_i64("retryTime", 3)?;
///             edit.remove("retryTime")?;
///             edit.set_string("flow", "authentication")
///         }),
/// )?;
/// let props = config.properties("https://example.com/a")?;
/// let headers = props.value("headers")?.unwrap();
/// assert_eq!(headers["X-Token"].as_str(), Some("abc\", \"X-Admin\": \"true"));
/// assert_eq!(headers.as_object().unwrap().len(), 2);
/// assert_eq!(props.get_str("flow")?, Some("authentication"));
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// For a host that holds a whole JSON document, [`merge`](Self::merge)
/// applies it as a JSON Merge Patch and [`replace`](Self::replace) replaces
/// the properties with it; never build that text by pasting values into it.
pub struct Edit<'call> {
    raw: NonNull<sys::pathconfig_request>,
    _call: PhantomData<&'call mut sys::pathconfig_request>,
}

impl Edit<'_> {
    /// Wraps the request a configurer received.
    ///
    /// # Safety
    ///
    /// `raw` is the request of a running configurer; the value does not
    /// outlive that call.
    pub(crate) unsafe fn from_raw(raw: NonNull<sys::pathconfig_request>) -> Self {
        Edit { raw, _call: PhantomData }
    }

    /// The properties merged so far, as a compact JSON object; after a
    /// change, the changed ones.
    pub fn properties(&self) -> &str {
        // SAFETY: self.raw is the running configurer's request (from_raw's contract).
        borrowed(unsafe { sys::pathconfig_request_properties(self.raw.as_ptr()) }, "pathconfig_request_properties")
    }

    /// Sets `key` to the string `value` (a key that exists keeps its place;
    /// a new one goes last).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) when `key` or
    /// `value` contains a NUL byte; the properties are then unchanged.
    pub fn set_string(&mut self, key: &str, value: &str) -> Result<(), Error> {
        let (key, value) = (util::cstring(key)?, util::cstring(value)?);
        // SAFETY: the running configurer's request and two NUL-terminated
        // strings the library copies.
        self.status(unsafe { sys::pathconfig_request_set_string(self.raw.as_ptr(), key.as_ptr(), value.as_ptr()) })
    }

    /// Sets `key` to the integer `value`.
    ///
    /// # Errors
    ///
    /// As [`set_string`](Self::set_string).
    pub fn set_i64(&mut self, key: &str, value: i64) -> Result<(), Error> {
        let key = util::cstring(key)?;
        // SAFETY: the running configurer's request and a NUL-terminated key.
        self.status(unsafe { sys::pathconfig_request_set_int64(self.raw.as_ptr(), key.as_ptr(), value) })
    }

    /// Sets `key` to the number `value`.
    ///
    /// # Errors
    ///
    /// As [`set_string`](Self::set_string), and
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) for a value that
    /// is not finite (JSON has no NaN or infinity).
    pub fn set_f64(&mut self, key: &str, value: f64) -> Result<(), Error> {
        let key = util::cstring(key)?;
        // SAFETY: the running configurer's request and a NUL-terminated key.
        self.status(unsafe { sys::pathconfig_request_set_double(self.raw.as_ptr(), key.as_ptr(), value) })
    }

    /// Sets `key` to `true` or `false`.
    ///
    /// # Errors
    ///
    /// As [`set_string`](Self::set_string).
    pub fn set_bool(&mut self, key: &str, value: bool) -> Result<(), Error> {
        let key = util::cstring(key)?;
        // SAFETY: the running configurer's request and a NUL-terminated key.
        self.status(unsafe { sys::pathconfig_request_set_bool(self.raw.as_ptr(), key.as_ptr(), c_int::from(value)) })
    }

    /// Sets one HTTP header: the string `value` under `name` in the object
    /// `headers` (Siesta's request headers), keeping the other headers;
    /// `headers` is made an object first when it is absent or not one.
    ///
    /// # Errors
    ///
    /// As [`set_string`](Self::set_string).
    pub fn set_header(&mut self, name: &str, value: &str) -> Result<(), Error> {
        let (name, value) = (util::cstring(name)?, util::cstring(value)?);
        // SAFETY: the running configurer's request and two NUL-terminated
        // strings the library copies.
        self.status(unsafe { sys::pathconfig_request_set_header(self.raw.as_ptr(), name.as_ptr(), value.as_ptr()) })
    }

    /// Removes `key` (`Ok` also when it was absent).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) when `key`
    /// contains a NUL byte.
    pub fn remove(&mut self, key: &str) -> Result<(), Error> {
        let key = util::cstring(key)?;
        // SAFETY: the running configurer's request and a NUL-terminated key.
        self.status(unsafe { sys::pathconfig_request_remove(self.raw.as_ptr(), key.as_ptr()) })
    }

    /// Applies `json_patch`, a JSON object the host holds as text, as a JSON
    /// Merge Patch (RFC 7396): nested objects merge key by key, `null`
    /// removes a key, anything else replaces the value. Never build the text
    /// from values: use the setters.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Json`](crate::ErrorCode::Json) when `json_patch` is not
    /// JSON, [`ErrorCode::Argument`](crate::ErrorCode::Argument) when it is
    /// not an object or contains a NUL; the properties are then unchanged.
    pub fn merge(&mut self, json_patch: &str) -> Result<(), Error> {
        self.change(json_patch, sys::pathconfig_request_merge_properties)
    }

    /// Replaces the properties with `json_object`, a JSON object the host
    /// holds as text.
    ///
    /// # Errors
    ///
    /// As [`merge`](Self::merge).
    pub fn replace(&mut self, json_object: &str) -> Result<(), Error> {
        self.change(json_object, sys::pathconfig_request_set_properties)
    }

    fn change(
        &mut self,
        json: &str,
        f: unsafe extern "C" fn(*mut sys::pathconfig_request, *const c_char) -> c_int,
    ) -> Result<(), Error> {
        let json = util::cstring(json)?;
        // SAFETY: `f` is pathconfig_request_merge_properties or
        // _set_properties, which take the running configurer's request
        // (self.raw) and a NUL-terminated string they copy.
        self.status(unsafe { f(self.raw.as_ptr(), json.as_ptr()) })
    }

    /// A setter's status as a `Result` (the error read on this thread, right
    /// after the call).
    fn status(&self, rc: c_int) -> Result<(), Error> {
        match rc {
            sys::PATHCONFIG_OK => Ok(()),
            rc => Err(Error::last_or(rc)),
        }
    }
}

impl fmt::Debug for Edit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Edit").field("properties", &self.properties()).finish()
    }
}

/// A string a request function returned, borrowed until the callback returns
/// (which outlives any borrow of the `Request` or `Edit` it came from).
///
/// # Panics
///
/// When the library returned NULL, which it does only when it cannot
/// allocate the string (the trampoline turns the panic into the lookup's
/// failure).
fn borrowed<'a>(p: *const c_char, what: &str) -> &'a str {
    let err = if p.is_null() { Some(Error::last()) } else { None };
    // SAFETY: `p` is NULL or a string the library keeps, unchanged, until
    // the running callback returns; no `Request` or `Edit` lives longer.
    match unsafe { util::borrowed_str(p, what) } {
        Ok(Some(s)) => s,
        Ok(None) => panic!("{what} failed: {}", err.map_or_else(String::new, |e| e.to_string())),
        Err(e) => panic!("{e}"),
    }
}
