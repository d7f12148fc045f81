//! [`Request`] and [`Edit`]: one lookup as a rule's closures see it (the
//! `pathconfig_request *` of `pathconfig/rules.h`), borrowed for one call.

use std::ffi::{c_char, c_int};
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::error::Error;
use crate::sys;
use crate::util;

/// The lookup a [rule's](crate::RuleSpec) predicate or configurer is called
/// for: its URL and HTTP method. Borrowed for the call only.
///
/// ```
/// use pathconfig::{Options, PathConfiguration, Request, RuleSpec};
///
/// let options = Options::new().profile("siesta").base_url("https://api.example.com");
/// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &options)?;
/// config.add_rule(
///     RuleSpec::new()
///         .predicate(|request: &Request| Ok::<_, pathconfig::Error>(request.method() == "DELETE"))
///         .properties(r#"{"confirm": true}"#),
/// )?;
/// assert_eq!(config.request_properties("/users/1", "delete")?.json(), r#"{"confirm":true}"#);
/// assert_eq!(config.request_properties("/users/1", "GET")?.json(), "{}");
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

    /// The HTTP method, upper-cased (`"GET"` for the lookups that name none).
    pub fn method(&self) -> &str {
        // SAFETY: as in `url`.
        borrowed(unsafe { sys::pathconfig_request_method(self.raw.as_ptr()) }, "pathconfig_request_method")
    }
}

impl fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request").field("method", &self.method()).field("url", &self.url()).finish()
    }
}

/// The properties a configurer works on: those merged so far, this rule's
/// fixed `properties` included, as JSON text. A configurer reads them with
/// [`properties`](Self::properties) and changes them with
/// [`merge`](Self::merge) or [`set`](Self::set); what they hold when it
/// returns `Ok` is the lookup's result so far. The crate parses no JSON: the
/// library does.
///
/// ```
/// use pathconfig::{Edit, Options, PathConfiguration, Request, RuleSpec};
///
/// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new().profile("siesta"))?;
/// config.add_rule(
///     RuleSpec::new()
///         .globs(["**"])
///         .properties(r#"{"headers": {"Accept": "application/json"}, "retryTime": 1}"#)
///         .configurer(|_: &Request, edit: &mut Edit| {
///             assert_eq!(edit.properties(), r#"{"headers":{"Accept":"application/json"},"retryTime":1}"#);
///             edit.merge(r#"{"headers": {"X-Token": "t"}, "retryTime": null}"#) // RFC 7396
///         }),
/// )?;
/// let props = config.properties("https://example.com/a")?;
/// assert_eq!(props.json(), r#"{"headers":{"Accept":"application/json","X-Token":"t"}}"#);
/// # Ok::<(), pathconfig::Error>(())
/// ```
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
    /// [`merge`](Self::merge) or [`set`](Self::set), the changed ones.
    pub fn properties(&self) -> &str {
        // SAFETY: self.raw is the running configurer's request (from_raw's contract).
        borrowed(unsafe { sys::pathconfig_request_properties(self.raw.as_ptr()) }, "pathconfig_request_properties")
    }

    /// Applies `json_patch`, a JSON object, as a JSON Merge Patch (RFC 7396):
    /// nested objects merge key by key, `null` removes a key, anything else
    /// replaces the value (`{"headers": {"X-Token": "t"}}` sets one header
    /// and keeps the others).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Json`](crate::ErrorCode::Json) when `json_patch` is not
    /// JSON, [`ErrorCode::Argument`](crate::ErrorCode::Argument) when it is
    /// not an object or contains a NUL; the properties are then unchanged.
    pub fn merge(&mut self, json_patch: &str) -> Result<(), Error> {
        self.change(json_patch, sys::pathconfig_request_merge_properties)
    }

    /// Replaces the properties with `json_object`, a JSON object.
    ///
    /// # Errors
    ///
    /// As [`merge`](Self::merge).
    pub fn set(&mut self, json_object: &str) -> Result<(), Error> {
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
        match unsafe { f(self.raw.as_ptr(), json.as_ptr()) } {
            0 => Ok(()),
            _ => Err(Error::last()),
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
