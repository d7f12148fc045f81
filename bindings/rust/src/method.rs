//! [`Method`]: the HTTP method of a lookup, as an enum, so that a misspelt
//! verb is a compile error rather than a rule that never applies.

use std::ffi::{c_char, CStr, CString};
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorCode};

/// The HTTP method of a request lookup
/// ([`PathConfiguration::request_properties`](crate::PathConfiguration::request_properties),
/// [`RuleSpec::methods`](crate::RuleSpec::methods),
/// [`Request::method`](crate::Request::method)).
///
/// The common verbs are variants, so `Method::Psot` does not compile; any
/// other method (WebDAV's `PROPFIND`, say) is [`Method::Other`], made only by
/// the checked [`Method::parse`] (or `str::parse`), which refuses what is not
/// an HTTP token (RFC 9110) and upper-cases what it keeps, as the library
/// compares methods.
///
/// ```
/// use pathconfig::Method;
///
/// assert_eq!(Method::parse("post")?, Method::Post);
/// let propfind: Method = "PropFind".parse()?;
/// assert_eq!(propfind.as_str(), "PROPFIND");
/// assert!(matches!(propfind, Method::Other(_)));
/// assert!(Method::parse("GET /").is_err());
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// ```compile_fail
/// let _ = pathconfig::Method::Psot;
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Method {
    /// `GET`, what a lookup without a method is.
    Get,
    /// `HEAD`.
    Head,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `PATCH`.
    Patch,
    /// `DELETE`.
    Delete,
    /// `OPTIONS`.
    Options,
    /// `CONNECT`.
    Connect,
    /// `TRACE`.
    Trace,
    /// Any other method token, upper-cased (made by [`Method::parse`]).
    Other(ExtensionMethod),
}

/// A method token other than the common verbs, upper-cased: the payload of
/// [`Method::Other`]. It has no public constructor: [`Method::parse`] makes
/// it, after checking the token.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ExtensionMethod(CString);

impl ExtensionMethod {
    /// The method, e.g. `"PROPFIND"`.
    pub fn as_str(&self) -> &str {
        // Checked to be an ASCII token when made.
        self.0.to_str().unwrap_or_default()
    }
}

impl fmt::Debug for ExtensionMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The common verbs and their names: the one place they are spelt.
const VERBS: [(Method, &CStr); 9] = [
    (Method::Get, c"GET"),
    (Method::Head, c"HEAD"),
    (Method::Post, c"POST"),
    (Method::Put, c"PUT"),
    (Method::Patch, c"PATCH"),
    (Method::Delete, c"DELETE"),
    (Method::Options, c"OPTIONS"),
    (Method::Connect, c"CONNECT"),
    (Method::Trace, c"TRACE"),
];

/// An HTTP `tchar` (RFC 9110, section 5.6.2).
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

impl Method {
    /// The method named `token`, compared case-insensitively: one of the
    /// variants for a common verb, else [`Method::Other`].
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] when `token` is empty or holds a character
    /// an HTTP token may not (a space, `/`, a control, non-ASCII).
    pub fn parse(token: &str) -> Result<Method, Error> {
        if token.is_empty() || !token.bytes().all(is_tchar) {
            return Err(Error::new(ErrorCode::Argument, format!("{token:?} is not an HTTP method token")));
        }
        let upper = token.to_ascii_uppercase();
        if let Some((verb, _)) = VERBS.iter().find(|(_, name)| name.to_bytes() == upper.as_bytes()) {
            return Ok(verb.clone());
        }
        // A token has no NUL.
        Ok(Method::Other(ExtensionMethod(CString::new(upper).unwrap_or_default())))
    }

    /// The method as the library reports it, upper-cased, e.g. `"POST"`.
    pub fn as_str(&self) -> &str {
        match self {
            Method::Other(m) => m.as_str(),
            verb => VERBS.iter().find(|(v, _)| v == verb).and_then(|(_, name)| name.to_str().ok()).unwrap_or(""),
        }
    }

    /// The method as the C API takes it: NULL for `GET` (the library's
    /// default), else its NUL-terminated name, borrowed from `self`.
    pub(crate) fn as_ptr(&self) -> *const c_char {
        match self {
            Method::Get => std::ptr::null(),
            Method::Other(m) => m.0.as_ptr(),
            verb => VERBS.iter().find(|(v, _)| v == verb).map_or(std::ptr::null(), |(_, name)| name.as_ptr()),
        }
    }
}

impl FromStr for Method {
    type Err = Error;

    fn from_str(token: &str) -> Result<Method, Error> {
        Method::parse(token)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Method {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Method {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_round_trip_through_their_names() {
        for (verb, name) in &VERBS {
            let name = name.to_str().unwrap();
            assert_eq!(verb.as_str(), name);
            assert_eq!(&Method::parse(&name.to_ascii_lowercase()).unwrap(), verb);
        }
        assert!(Method::Get.as_ptr().is_null(), "GET is passed as NULL, the library's default");
        // SAFETY: a static C string.
        assert_eq!(unsafe { CStr::from_ptr(Method::Delete.as_ptr()) }, c"DELETE");
    }

    #[test]
    fn extension_methods_are_checked_tokens() {
        let m = Method::parse("m-search").unwrap();
        assert_eq!(m.as_str(), "M-SEARCH");
        assert_eq!(format!("{m:?}"), r#"Other("M-SEARCH")"#);
        // SAFETY: borrowed from `m`, alive here.
        assert_eq!(unsafe { CStr::from_ptr(m.as_ptr()) }, c"M-SEARCH");
        for bad in ["", "GET /", "P\0ST", "PÖST", "a\nb", "(x)", "x,y"] {
            assert_eq!(Method::parse(bad).unwrap_err().code(), ErrorCode::Argument, "{bad:?}");
        }
        assert_eq!(Method::parse("!#$%&'*+-.^_`|~09az").unwrap().as_str(), "!#$%&'*+-.^_`|~09AZ");
    }
}
