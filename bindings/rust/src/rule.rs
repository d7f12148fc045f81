//! [`RuleSpec`]: a rule added from code
//! ([`PathConfiguration::add_rule`](crate::PathConfiguration::add_rule),
//! `pathconfig_add_rule`), and how its closures cross the boundary: boxed as
//! the rule's context, called through `extern "C"` trampolines that never
//! unwind, dropped when the library frees the context.
//!
//! A failure of a closure (an `Err`, or a panic, caught as git2-rs's
//! `panic::wrap` does) is recorded with `pathconfig_request_fail` and the
//! trampoline returns -1: the lookup then fails with
//! [`ErrorCode::Callback`](crate::ErrorCode::Callback), quoting the message,
//! and is not memoised. Unlike the loader's callback, whose panic has no
//! caller to go to until `load` or `refresh` returns, a rule's closure runs
//! inside the lookup that called it, so its panic becomes that lookup's error.

use std::ffi::{c_int, c_void, CString};
use std::fmt;
use std::ptr::{self, NonNull};

use crate::error::{self, Error};
use crate::json;
use crate::method::Method;
use crate::panic::{self, PanicPayload};
use crate::request::{Edit, Request};
use crate::sys;
use crate::util;

/// A predicate, its error turned into the message the lookup reports.
type Predicate = Box<dyn Fn(&Request<'_>) -> Result<bool, String> + Send + Sync>;

/// A configurer, its error turned into the message the lookup reports.
type Configurer = Box<dyn Fn(&Request<'_>, &mut Edit<'_>) -> Result<(), String> + Send + Sync>;

/// A rule to add to a configuration from code, as Siesta's
/// `Service.configure(...)` adds one: a builder of the rule's JSON (the keys
/// of a document's rule) and, optionally, two closures.
///
/// - [`patterns`](Self::patterns), [`globs`](Self::globs): what it matches
///   (a regex found anywhere in the matched string; a glob matched against
///   the whole URL, relative to the [base URL](crate::Options::base_url)).
///   A rule needs patterns, globs or a predicate;
/// - [`methods`](Self::methods): the HTTP methods it applies to (any when
///   unset);
/// - [`properties`](Self::properties): fixed values, as a JSON object;
/// - [`description`](Self::description): shown by explain and in messages;
/// - [`predicate`](Self::predicate): decides per request whether the rule
///   applies (refining its patterns or globs, if any);
/// - [`configurer`](Self::configurer): changes the properties merged so far,
///   reading whatever the host holds at that moment (an auth token).
///
/// Only what is set is sent; the library checks it when the rule is added.
///
/// ```
/// use pathconfig::{Method, RuleSpec};
///
/// let rule = RuleSpec::new().globs(["/users/*"]).methods([Method::Post, Method::Put]).properties(r#"{"retryTime": 5}"#);
/// assert_eq!(rule.to_json(), r#"{"globs":["/users/*"],"methods":["POST","PUT"],"properties":{"retryTime": 5}}"#);
/// ```
///
/// A predicate is a closure returning `bool`; a configurer edits the
/// properties through typed setters. Neither needs type annotations:
///
/// ```
/// use pathconfig::{Options, PathConfiguration, RuleSpec};
///
/// let config = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new())?;
/// config.add_rule(
///     RuleSpec::new()
///         .predicate(|req| req.url().ends_with("/x"))
///         .configurer(|_req, edit| edit.set_bool("special", true)),
/// )?;
/// assert_eq!(config.properties("https://example.com/x")?.json(), r#"{"special":true}"#);
/// assert_eq!(config.properties("https://example.com/y")?.json(), "{}");
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// The closures are `Fn + Send + Sync + 'static`: a lookup runs them on the
/// thread that resolves, possibly on several threads at once, never while
/// the library holds a lock (they may call any method of the configuration,
/// this one included). They run once per method and URL until the results
/// are dropped ([`PathConfiguration::invalidate`], or adding a rule). They
/// are dropped, once, when the configuration is: when its last clone is
/// dropped (so a closure that owns a clone of its own configuration keeps
/// both alive for ever), or by [`add_rule`](crate::PathConfiguration::add_rule)
/// when the rule is refused.
///
/// A closure that is not `Sync` (a `Cell` counter, say) is refused at
/// compile time; use an atomic or a `Mutex`:
///
/// ```compile_fail
/// use std::cell::Cell;
/// use pathconfig::{Request, RuleSpec};
///
/// let calls = Cell::new(0);
/// RuleSpec::new().predicate(move |_: &Request| {
///     calls.set(calls.get() + 1);
///     true
/// });
/// ```
///
/// [`PathConfiguration::invalidate`]: crate::PathConfiguration::invalidate
#[derive(Default)]
pub struct RuleSpec {
    patterns: Option<Vec<String>>,
    globs: Option<Vec<String>>,
    methods: Option<Vec<Method>>,
    description: Option<String>,
    properties: Option<String>,
    predicate: Option<Predicate>,
    configurer: Option<Configurer>,
}

impl RuleSpec {
    /// An empty rule (`{}`): give it patterns, globs or a predicate.
    pub fn new() -> RuleSpec {
        RuleSpec::default()
    }

    /// Adds regular expressions (`"patterns"`), in the profile's dialect,
    /// searched anywhere in the matched string (the whole URL under the
    /// `siesta` profile).
    pub fn patterns<I, S>(mut self, patterns: I) -> RuleSpec
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.patterns.get_or_insert_with(Vec::new).extend(patterns.into_iter().map(Into::into));
        self
    }

    /// Adds Siesta globs (`"globs"`), matched against the whole URL: `*`
    /// within one path segment, `**` across segments, `?` one character
    /// other than `/`; the query string is ignored. A glob without a scheme
    /// is relative to the [base URL](crate::Options::base_url).
    pub fn globs<I, S>(mut self, globs: I) -> RuleSpec
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.globs.get_or_insert_with(Vec::new).extend(globs.into_iter().map(Into::into));
        self
    }

    /// Adds HTTP methods the rule applies to (`"methods"`); without any, it
    /// applies to every method.
    pub fn methods(mut self, methods: impl IntoIterator<Item = Method>) -> RuleSpec {
        self.methods.get_or_insert_with(Vec::new).extend(methods);
        self
    }

    /// Free text (`"description"`), shown by explain and in error messages.
    pub fn description(mut self, description: impl Into<String>) -> RuleSpec {
        self.description = Some(description.into());
        self
    }

    /// The rule's fixed values (`"properties"`): `json_object`, JSON text of
    /// an object, written into the rule as given. The library parses it when
    /// the rule is added ([`ErrorCode::Json`](crate::ErrorCode::Json) or
    /// [`Schema`](crate::ErrorCode::Schema) when it is not an object, with a
    /// position in [`to_json`](Self::to_json)'s text).
    pub fn properties(mut self, json_object: impl Into<String>) -> RuleSpec {
        self.properties = Some(json_object.into());
        self
    }

    /// Decides, for each request the patterns or globs (if any) match,
    /// whether the rule applies. A panic fails the lookup with
    /// [`ErrorCode::Callback`](crate::ErrorCode::Callback), quoting its
    /// message; [`try_predicate`](Self::try_predicate) is for a predicate
    /// that can fail.
    pub fn predicate<F>(mut self, predicate: F) -> RuleSpec
    where
        F: Fn(&Request<'_>) -> bool + Send + Sync + 'static,
    {
        self.predicate = Some(Box::new(move |request| Ok(predicate(request))));
        self
    }

    /// [`predicate`](Self::predicate) for a closure that can fail: an `Err`
    /// (its `Display` text) fails the lookup with
    /// [`ErrorCode::Callback`](crate::ErrorCode::Callback).
    pub fn try_predicate<F, E>(mut self, predicate: F) -> RuleSpec
    where
        F: Fn(&Request<'_>) -> Result<bool, E> + Send + Sync + 'static,
        E: fmt::Display,
    {
        self.predicate = Some(Box::new(move |request| predicate(request).map_err(|e| e.to_string())));
        self
    }

    /// Changes the properties merged so far (this rule's fixed
    /// [`properties`](Self::properties) included) when the rule applies,
    /// through [`Edit`]'s typed setters. An `Err` (its `Display` text; the
    /// setters' own errors pass through with `?`) or a panic fails the
    /// lookup with [`ErrorCode::Callback`](crate::ErrorCode::Callback).
    pub fn configurer<F, E>(mut self, configurer: F) -> RuleSpec
    where
        F: Fn(&Request<'_>, &mut Edit<'_>) -> Result<(), E> + Send + Sync + 'static,
        E: fmt::Display,
    {
        self.configurer = Some(Box::new(move |request, edit| configurer(request, edit).map_err(|e| e.to_string())));
        self
    }

    /// The rule's JSON, as `pathconfig_add_rule` receives it: only the keys
    /// set, in the order `patterns`, `globs`, `methods`, `description`,
    /// `properties` (written as given).
    pub fn to_json(&self) -> String {
        let mut members = Vec::new();
        for (key, list) in [("patterns", &self.patterns), ("globs", &self.globs)] {
            if let Some(list) = list {
                members.push((key.to_string(), json::string_array(list)));
            }
        }
        if let Some(methods) = &self.methods {
            let names: Vec<String> = methods.iter().map(|m| m.as_str().to_string()).collect();
            members.push(("methods".to_string(), json::string_array(&names)));
        }
        if let Some(description) = &self.description {
            let mut text = String::new();
            json::write_string(&mut text, description);
            members.push(("description".to_string(), text));
        }
        if let Some(properties) = &self.properties {
            members.push(("properties".to_string(), properties.clone()));
        }
        json::object(&members)
    }
}

impl fmt::Debug for RuleSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuleSpec")
            .field("json", &self.to_json())
            .field("predicate", &self.predicate.is_some())
            .field("configurer", &self.configurer.is_some())
            .finish()
    }
}

/// A rule's closures, as the library holds them: the context of
/// `pathconfig_add_rule`.
struct Closures {
    predicate: Option<Predicate>,
    configurer: Option<Configurer>,
}

/// Adds `rule` at the end of the configuration's rules; its index.
///
/// # Safety
///
/// `raw` is a live configuration.
pub(crate) unsafe fn add(raw: NonNull<sys::pathconfig>, rule: RuleSpec) -> Result<usize, Error> {
    let json = util::cstring(&rule.to_json())?;
    let RuleSpec { predicate, configurer, .. } = rule;
    let predicate_fn: sys::pathconfig_rule_fn = predicate.as_ref().map(|_| predicate_trampoline as _);
    let configurer_fn: sys::pathconfig_rule_fn = configurer.as_ref().map(|_| configurer_trampoline as _);
    let has_closures = predicate.is_some() || configurer.is_some();
    let context: *mut Closures =
        if has_closures { Box::into_raw(Box::new(Closures { predicate, configurer })) } else { ptr::null_mut() };
    let free_context: Option<unsafe extern "C" fn(*mut c_void)> = has_closures.then_some(free_closures);
    let mut err = error::blank();
    let mut index: usize = 0;
    // SAFETY: `raw` is live (this function's contract); `json` is
    // NUL-terminated, `index` and `err` writable, all alive across the call. The
    // trampolines and `free_closures` match the header's function types and
    // never unwind. From here on the library owns `context` (a Closures made
    // by Box::into_raw, or NULL with no callbacks) and frees it through
    // `free_closures` exactly once: when the configuration is freed, or
    // before returning if it refuses the rule.
    let rc = unsafe {
        sys::pathconfig_add_rule(
            raw.as_ptr(),
            json.as_ptr(),
            predicate_fn,
            configurer_fn,
            context.cast(),
            free_context,
            &mut index,
            &mut err,
        )
    };
    if rc == sys::PATHCONFIG_OK {
        Ok(index)
    } else {
        Err(Error::from_raw(&err))
    }
}

/// The `pathconfig_rule_fn` of every predicate. Never unwinds.
unsafe extern "C" fn predicate_trampoline(context: *mut c_void, request: *mut sys::pathconfig_request) -> c_int {
    // SAFETY: the library passes the context `add` gave it, alive until
    // `free_closures`, which never runs during a call; only shared references
    // are made (the closures are Sync: calls may overlap on several threads).
    let closures = unsafe { &*context.cast::<Closures>() };
    call(request, |request| {
        let predicate = closures.predicate.as_ref().ok_or("no predicate was given")?;
        // SAFETY: `request` is this running call's request; the Request
        // lives only inside this closure.
        predicate(&unsafe { Request::from_raw(request) }).map(c_int::from)
    })
}

/// The `pathconfig_rule_fn` of every configurer. Never unwinds.
unsafe extern "C" fn configurer_trampoline(context: *mut c_void, request: *mut sys::pathconfig_request) -> c_int {
    // SAFETY: as in `predicate_trampoline`.
    let closures = unsafe { &*context.cast::<Closures>() };
    call(request, |request| {
        let configurer = closures.configurer.as_ref().ok_or("no configurer was given")?;
        // SAFETY: `request` is this running configurer's request; the
        // Request and Edit live only inside this closure.
        let (view, mut edit) = unsafe { (Request::from_raw(request), Edit::from_raw(request)) };
        configurer(&view, &mut edit).map(|()| 0)
    })
}

/// Runs a closure for the library: its value, or -1 after telling the
/// library why (an `Err`'s message, or the message of a caught panic).
fn call<F>(request: *mut sys::pathconfig_request, f: F) -> c_int
where
    F: FnOnce(NonNull<sys::pathconfig_request>) -> Result<c_int, String>,
{
    let Some(request) = NonNull::new(request) else { return -1 };
    let message = match panic::catch(|| f(request)) {
        Ok(Ok(value)) => return value,
        Ok(Err(message)) => message,
        Err(payload) => panicked(payload),
    };
    // A NUL cannot cross as C text: shown as U+FFFD.
    let message = CString::new(message.replace('\0', "\u{fffd}")).unwrap_or_default();
    // SAFETY: `request` is the running call's request and `message` a
    // NUL-terminated string the library copies.
    unsafe { sys::pathconfig_request_fail(request.as_ptr(), message.as_ptr()) };
    -1
}

/// A caught panic as the lookup's message; the payload is dropped here.
fn panicked(payload: PanicPayload) -> String {
    let message = format!("panicked: {}", panic::message(&payload));
    panic::discard(payload);
    message
}

/// The `free_context` of every rule with closures: drops them (a panic in a
/// capture's `Drop` is caught and discarded). Never unwinds.
unsafe extern "C" fn free_closures(context: *mut c_void) {
    // SAFETY: `context` is a Closures from `add`; the library calls this
    // once, when no call of them runs or will run.
    let closures = unsafe { Box::from_raw(context.cast::<Closures>()) };
    if let Err(payload) = panic::drop_caught(closures) {
        panic::discard(payload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_only_what_is_set() {
        assert_eq!(RuleSpec::new().to_json(), "{}");
        let rule = RuleSpec::new()
            .patterns(["^/a"])
            .patterns(vec![String::from("/b$")])
            .globs(["**"])
            .methods([Method::Get])
            .description("say \"hi\"")
            .properties("{\"k\":[1,{}]}");
        assert_eq!(
            rule.to_json(),
            r#"{"patterns":["^/a","/b$"],"globs":["**"],"methods":["GET"],"description":"say \"hi\"","properties":{"k":[1,{}]}}"#
        );
        assert_eq!(RuleSpec::new().methods(Vec::new()).to_json(), r#"{"methods":[]}"#);
        let propfind = Method::parse("propfind").unwrap();
        assert_eq!(
            RuleSpec::new().methods([propfind, Method::Delete]).to_json(),
            r#"{"methods":["PROPFIND","DELETE"]}"#
        );
    }

    #[test]
    fn debug_shows_the_json_and_which_closures() {
        let rule = RuleSpec::new().globs(["**"]).configurer(|_, _| Ok::<(), String>(()));
        assert_eq!(
            format!("{rule:?}"),
            r#"RuleSpec { json: "{\"globs\":[\"**\"]}", predicate: false, configurer: true }"#
        );
    }
}
