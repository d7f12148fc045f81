//! Request rules through the crate: methods, rules added from code with
//! their closures (what they see, what they change, how they fail, when
//! they run and when they are dropped), invalidate, and the auth token
//! example end to end.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread;

use pathconfig::{Edit, ErrorCode, Merge, Method, Options, PathConfiguration, Profile, Request, RuleSpec, Value};
use support::{raw_value, Json};

const BASE: &str = "https://api.example.com";

fn api(document: &str) -> PathConfiguration {
    let options = Options::new().profile(Profile::Siesta).base_url(BASE).merge(Merge::Deep);
    PathConfiguration::from_json(document, &options).unwrap()
}

/// A counter a closure bumps and the test reads.
fn counter() -> (Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    (Arc::clone(&calls), calls)
}

fn calls(counter: &AtomicUsize) -> usize {
    counter.load(Ordering::SeqCst)
}

// ---------------------------------------------------------------------------
// The auth token example
// ---------------------------------------------------------------------------

/// The rule of Siesta's README: every request to the API carries the
/// current token, read when the lookup runs.
fn add_token_rule(config: &PathConfiguration, token: &Arc<RwLock<String>>, runs: &Arc<AtomicUsize>) -> usize {
    let (token, runs) = (Arc::clone(token), Arc::clone(runs));
    config
        .add_rule(RuleSpec::new().globs(["**"]).description("auth token").configurer(move |_req, edit| {
            runs.fetch_add(1, Ordering::SeqCst);
            edit.set_header("X-HappyApp-Auth-Token", &token.read().unwrap())
        }))
        .unwrap()
}

fn headers(config: &PathConfiguration, url: &str, method: &str) -> Json {
    let props = config.request_properties(url, Method::parse(method).unwrap());
    raw_value(&props.unwrap_or_else(|e| panic!("{method} {url}: {e}")), "headers")
}

#[test]
fn auth_token_end_to_end() {
    let config = api(r#"{"rules": [{"globs": ["**"], "properties": {"headers": {"Accept": "application/json"}}}]}"#);
    let token = Arc::new(RwLock::new(String::from("t1")));
    let (runs, count) = counter();
    assert_eq!(add_token_rule(&config, &token, &runs), 1, "after the document's one rule");

    // Merged deep: the document's header stays, the token joins it.
    let want = Json::parse(r#"{"Accept": "application/json", "X-HappyApp-Auth-Token": "t1"}"#);
    for url in ["/users/1", "users/1", "https://api.example.com/users/1", "HTTPS://API.EXAMPLE.COM/users/1?q=1", "/"] {
        for method in ["GET", "POST", "delete"] {
            assert_eq!(headers(&config, url, method), want, "{method} {url}");
        }
    }

    // Never sent anywhere else: not a host that only starts with the API's,
    // not one behind user information, not another scheme or port.
    for url in [
        "https://api.example.com.evil.com/",
        "https://api.example.com.evil.com/users/1",
        "https://api.example.com@evil.com/",
        "https://api.example.com@evil.com/users/1",
        "https://evil.com/api.example.com/users/1",
        "http://api.example.com/users/1",
        "https://api.example.com:8443/users/1",
    ] {
        let props = config.properties(url).unwrap();
        assert!(!props.json().contains("X-HappyApp-Auth-Token"), "{url}: {}", props.json());
        assert_eq!(props.json(), "{}", "{url}: no rule applies");
    }

    // The token changes: lookups keep the memoised value until invalidate.
    let before = calls(&count);
    *token.write().unwrap() = String::from("t2");
    assert_eq!(headers(&config, "/users/1", "GET").at("X-HappyApp-Auth-Token").as_str(), Some("t1"));
    assert_eq!(calls(&count), before, "memoised: the configurer did not run");
    config.invalidate();
    assert_eq!(headers(&config, "/users/1", "GET").at("X-HappyApp-Auth-Token").as_str(), Some("t2"));
    assert_eq!(headers(&config, "/users/1", "POST").at("X-HappyApp-Auth-Token").as_str(), Some("t2"));
    assert_eq!(calls(&count), before + 2, "once per method and URL after invalidate");
    assert_eq!(headers(&config, "/users/1", "GET").at("Accept").as_str(), Some("application/json"));
    assert_eq!(calls(&count), before + 2);

    // A token with characters JSON escapes travels intact.
    *token.write().unwrap() = String::from("a\"b\\c\u{e9}");
    config.invalidate();
    assert_eq!(headers(&config, "/x", "GET").at("X-HappyApp-Auth-Token").as_str(), Some("a\"b\\c\u{e9}"));
}

/// Hostile tokens: set as a header, each arrives as exactly one header
/// holding exactly that value (no header of its own, nothing cut), whatever
/// JSON would have made of it pasted into text.
#[test]
fn hostile_tokens_arrive_as_one_header() {
    let config = api(r#"{"rules": []}"#);
    let token = Arc::new(RwLock::new(String::new()));
    let (runs, _) = counter();
    add_token_rule(&config, &token, &runs);
    for hostile in [
        r#"abc", "X-Admin": "true"#,
        r#"abc"}, "X-Admin": {"a": "true"#,
        "back\\slash\\",
        "new\nline\r\n",
        "}",
        "{\"",
        "\u{e9}t\u{e9} \u{1F600} \u{2028}",
        "\u{1}\u{1f}",
        "",
    ] {
        *token.write().unwrap() = hostile.to_string();
        config.invalidate();
        let props = config.properties("/users/1").unwrap();
        let headers = props.value("headers").unwrap().expect("headers");
        let headers = headers.as_object().expect("an object");
        assert_eq!(headers.len(), 1, "{hostile:?}: {}", props.json());
        assert_eq!(headers["X-HappyApp-Auth-Token"], Value::from(hostile), "{hostile:?}");
        assert_eq!(props.keys().collect::<Vec<_>>(), ["headers"], "{hostile:?}: no key of its own");
        // Every read path agrees.
        assert_eq!(raw_value(&props, "headers").at("X-HappyApp-Auth-Token").as_str(), Some(hostile));
        assert_eq!(props.map()["headers"]["X-HappyApp-Auth-Token"].as_str(), Some(hostile));
    }
}

/// The typed setters, each in its place in the key order.
#[test]
fn typed_setters() {
    let config =
        api(r#"{"rules": [{"globs": ["**"], "properties": {"a": 1, "headers": "not an object", "gone": null}}]}"#);
    config
        .add_rule(RuleSpec::new().globs(["**"]).configurer(|_req, edit| {
            edit.set_string("a", "text")?;
            edit.set_i64("i", i64::MIN)?;
            edit.set_f64("f", 0.25)?;
            edit.set_bool("b", false)?;
            edit.set_header("X-One", "1")?;
            edit.set_header("X-Two", "2")?;
            edit.remove("gone")?;
            edit.remove("never there")
        }))
        .unwrap();
    let props = config.properties("/p").unwrap();
    assert_eq!(
        props.json(),
        r#"{"a":"text","headers":{"X-One":"1","X-Two":"2"},"i":-9223372036854775808,"f":0.25,"b":false}"#
    );
    assert_eq!(props.get_i64("i").unwrap(), Some(i64::MIN));
    assert_eq!(props.value("f").unwrap(), Some(Value::Float(0.25)));
}

/// A predicate is a closure returning bool, with no annotation at the call site.
#[test]
fn a_predicate_needs_no_annotations() {
    let config = api(r#"{"rules": []}"#);
    config.add_rule(RuleSpec::new().predicate(|req| req.url().ends_with("/x")).properties(r#"{"x": true}"#)).unwrap();
    assert_eq!(config.properties("/a/x").unwrap().json(), r#"{"x":true}"#);
    assert_eq!(config.properties("/a/y").unwrap().json(), "{}");
}

#[test]
fn a_clone_sees_rules_and_invalidation() {
    let config = api(r#"{"rules": []}"#);
    let clone = config.clone();
    let token = Arc::new(RwLock::new(String::from("one")));
    let (runs, _) = counter();
    add_token_rule(&clone, &token, &runs);
    assert_eq!(headers(&config, "/a", "GET").at("X-HappyApp-Auth-Token").as_str(), Some("one"));
    *token.write().unwrap() = String::from("two");
    clone.invalidate();
    assert_eq!(headers(&config, "/a", "GET").at("X-HappyApp-Auth-Token").as_str(), Some("two"));
}

// ---------------------------------------------------------------------------
// Methods, and what a closure sees
// ---------------------------------------------------------------------------

#[test]
fn method_filters() {
    let config = api(r#"{"rules": [{"globs": ["/users/*"], "methods": ["GET"], "properties": {"read": true}},
                      {"patterns": ["/users/"], "properties": {"any": true}}]}"#);
    config
        .add_rule(
            RuleSpec::new().globs(["/users/*"]).methods([Method::Post, Method::Put]).properties(r#"{"write": true}"#),
        )
        .unwrap();
    let keys = |method: &str| {
        let props = config.request_properties("/users/7", Method::parse(method).unwrap()).unwrap();
        props.keys().map(str::to_owned).collect::<Vec<_>>()
    };
    assert_eq!(keys("GET"), ["read", "any"]);
    assert_eq!(keys("get"), ["read", "any"], "methods compare upper-cased");
    assert_eq!(keys("POST"), ["any", "write"]);
    assert_eq!(keys("Put"), ["any", "write"]);
    assert_eq!(keys("DELETE"), ["any"]);
    assert_eq!(keys("PROPFIND"), ["any"], "any token is a method");
    assert_eq!(
        config.properties("/users/7").unwrap().json(),
        config.request_properties("/users/7", Method::Get).unwrap().json()
    );
    assert_eq!(config.properties("/users/7").unwrap().json(), r#"{"read":true,"any":true}"#);

    // A method that is not a token never reaches the library.
    for bad in ["", "GE T", "GET\n", "P(ST", "G\0T"] {
        assert_eq!(Method::parse(bad).unwrap_err().code(), ErrorCode::Argument, "{bad:?}");
    }
    assert_eq!(config.request_properties("/users/\0", Method::Get).unwrap_err().code(), ErrorCode::Argument);
}

/// A relative input's `?` is part of its path, encoded as Siesta's
/// `resource(_:)` encodes it; the absolute URL carries a query; a base URL's
/// host beyond ASCII is IDNA-encoded (issue 27, items 4 and 6).
#[test]
fn relative_inputs_resolve_as_siesta_resource() {
    let document = r#"{"rules": [{"globs": ["/items"], "properties": {"m": true}}]}"#;
    let config = api(document);
    assert_eq!(config.properties("/items?x=1").unwrap().json(), "{}");
    let explain = Json::parse(&config.explain("/items?x=1").unwrap());
    assert_eq!(explain.at("url").as_str(), Some("https://api.example.com/items%3Fx=1"));
    assert_eq!(config.properties("https://api.example.com/items?x=1").unwrap().json(), r#"{"m":true}"#);
    let options = Options::new().profile(Profile::Siesta).base_url("https://bücher.de");
    let config = PathConfiguration::from_json(document, &options).unwrap();
    assert_eq!(config.properties("https://xn--bcher-kva.de/items").unwrap().json(), r#"{"m":true}"#);
    let explain = Json::parse(&config.explain("/items").unwrap());
    assert_eq!(explain.at("url").as_str(), Some("https://xn--bcher-kva.de/items"));
}

#[test]
fn explain_a_request() {
    let config = api(r#"{"rules": [{"globs": ["**"], "description": "all", "properties": {"a": 1}}]}"#);
    let index = config
        .add_rule(
            RuleSpec::new()
                .globs(["/users/*"])
                .methods([Method::Post])
                .description("writes")
                .configurer(|_, edit| edit.set_i64("b", 2)),
        )
        .unwrap();
    config.add_rule(RuleSpec::new().predicate(|r| r.url().ends_with("/1"))).unwrap();
    let explain = Json::parse(&config.explain_request("/users/1", Method::Post).unwrap());
    assert_eq!(explain.at("input").as_str(), Some("/users/1"));
    assert_eq!(explain.at("method").as_str(), Some("POST"));
    assert_eq!(explain.at("url").as_str(), Some("https://api.example.com/users/1"));
    assert_eq!(explain.at("properties"), &Json::parse(r#"{"a": 1, "b": 2}"#));
    let rules = explain.at("rules").as_array();
    assert_eq!(rules.len(), 3, "{}", explain.to_json());
    assert_eq!((rules[0].at("glob").as_str(), rules[0].at("from_code").as_bool()), (Some("**"), None));
    assert_eq!(rules[1].at("index").as_f64(), Some(index as f64));
    assert_eq!(rules[1].at("glob").as_str(), Some("/users/*"));
    assert_eq!(rules[1].at("description").as_str(), Some("writes"));
    assert_eq!((rules[1].at("from_code").as_bool(), rules[1].at("configurer").as_bool()), (Some(true), Some(true)));
    assert_eq!(rules[2].at("predicate").as_bool(), Some(true));
    // GET leaves the POST rule out.
    let explain = Json::parse(&config.explain("/users/1").unwrap());
    assert_eq!(explain.at("method").as_str(), Some("GET"));
    assert_eq!(explain.at("rules").as_array().len(), 2);
}

#[test]
fn closures_see_the_request() {
    let config = api(r#"{"rules": [{"globs": ["**"], "properties": {"fixed": {"x": 1}}}]}"#);
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let (in_predicate, in_configurer) = (Arc::clone(&seen), Arc::clone(&seen));
    config
        .add_rule(
            RuleSpec::new()
                .globs(["/items/**"])
                .properties(r#"{"own": true}"#)
                .predicate(move |r| {
                    in_predicate.lock().unwrap().push(format!("predicate {} {}", r.method(), r.url()));
                    r.method() != Method::Head
                })
                .configurer(move |r, edit| {
                    in_configurer.lock().unwrap().push(format!("configurer {:?} {}", r, edit.properties()));
                    edit.replace(r#"{"replaced": [1, 2]}"#)?;
                    in_configurer.lock().unwrap().push(format!("after set {}", edit.properties()));
                    edit.merge(r#"{"more": null, "n": 1.50}"#)
                }),
        )
        .unwrap();
    let props = config.request_properties("/items/a b/é?q=1", Method::Post).unwrap();
    assert_eq!(props.json(), r#"{"replaced":[1,2],"n":1.50}"#);
    assert_eq!(config.request_properties("/items/1", Method::Head).unwrap().json(), r#"{"fixed":{"x":1}}"#);
    assert_eq!(config.properties("/other").unwrap().json(), r#"{"fixed":{"x":1}}"#, "the glob comes first");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            // A relative input is a path, as in Siesta's resource(_:): its "?" is encoded too.
            "predicate POST https://api.example.com/items/a%20b/%C3%A9%3Fq=1",
            r#"configurer Request { method: "POST", url: "https://api.example.com/items/a%20b/%C3%A9%3Fq=1" } {"fixed":{"x":1},"own":true}"#,
            r#"after set {"replaced":[1,2]}"#,
            "predicate HEAD https://api.example.com/items/1",
        ]
    );
}

#[test]
fn a_bad_edit_changes_nothing() {
    let config = api(r#"{"rules": []}"#);
    let errors: Arc<Mutex<Vec<(ErrorCode, String)>>> = Arc::default();
    let record = Arc::clone(&errors);
    config
        .add_rule(RuleSpec::new().globs(["**"]).properties(r#"{"k": 1}"#).configurer(
            move |_: &Request, edit: &mut Edit| {
                for (patch, set) in [("{", false), ("[1]", false), ("3", true), ("{\"a\":\0}", true)] {
                    let e = if set { edit.replace(patch) } else { edit.merge(patch) }.unwrap_err();
                    record.lock().unwrap().push((e.code(), patch.to_string()));
                }
                for e in [
                    edit.set_f64("k", f64::NAN).unwrap_err(),
                    edit.set_f64("k", f64::INFINITY).unwrap_err(),
                    edit.set_string("k", "a\0b").unwrap_err(),
                    edit.set_header("X-\0", "v").unwrap_err(),
                    edit.remove("k\0").unwrap_err(),
                ] {
                    record.lock().unwrap().push((e.code(), "setter".to_string()));
                }
                Ok::<_, pathconfig::Error>(())
            },
        ))
        .unwrap();
    assert_eq!(config.properties("/x").unwrap().json(), r#"{"k":1}"#);
    let codes: Vec<ErrorCode> = errors.lock().unwrap().iter().map(|(c, _)| *c).collect();
    assert_eq!(
        codes,
        [
            ErrorCode::Json,
            ErrorCode::Argument,
            ErrorCode::Argument,
            ErrorCode::Argument,
            ErrorCode::Argument,
            ErrorCode::Argument,
            ErrorCode::Argument,
            ErrorCode::Argument,
            ErrorCode::Argument
        ]
    );
}

// ---------------------------------------------------------------------------
// Failures
// ---------------------------------------------------------------------------

/// A configurer that fails on "/fail" and panics on "/panic", counting its runs.
fn failing_rule(runs: Arc<AtomicUsize>) -> RuleSpec {
    RuleSpec::new().globs(["**"]).description("flaky").configurer(move |r: &Request, edit: &mut Edit| {
        runs.fetch_add(1, Ordering::SeqCst);
        if r.url().ends_with("/fail") {
            return Err(format!("no token for {}", r.url()));
        }
        if r.url().ends_with("/panic") {
            panic!("boom at {}", r.url());
        }
        edit.set_bool("ok", true).map_err(|e| e.to_string())
    })
}

#[test]
fn a_failing_configurer_fails_the_lookup_and_is_not_memoised() {
    let config = api(r#"{"rules": [{"globs": ["**"], "properties": {"doc": 1}}]}"#);
    let (runs, count) = counter();
    let index = config.add_rule(failing_rule(runs)).unwrap();

    let e = config.properties("/fail").unwrap_err();
    assert_eq!(e.code(), ErrorCode::Callback, "{e}");
    assert_eq!(e.raw_code(), 15);
    assert_eq!(e.rule_index(), Some(index));
    assert_eq!(
        e.message(),
        format!("rule {index} (\"flaky\"): the configurer failed: no token for https://api.example.com/fail")
    );

    let e = config.properties("/panic").unwrap_err();
    assert_eq!(e.code(), ErrorCode::Callback, "{e}");
    assert_eq!(e.rule_index(), Some(index));
    assert!(e.message().contains("panicked: boom at https://api.example.com/panic"), "{e}");

    // Not memoised: each lookup runs the configurer again and fails again.
    assert_eq!(calls(&count), 2);
    for (i, url) in ["/fail", "/panic", "/fail"].into_iter().enumerate() {
        assert_eq!(config.request_properties(url, Method::Get).unwrap_err().code(), ErrorCode::Callback);
        assert_eq!(calls(&count), 3 + i);
    }
    // Every lookup reports it: explain, other methods.
    assert_eq!(config.explain("/panic").unwrap_err().code(), ErrorCode::Callback);
    assert_eq!(config.explain_request("/fail", Method::Put).unwrap_err().rule_index(), Some(index));

    // The configuration is intact, and a good lookup is memoised.
    let before = calls(&count);
    assert_eq!(config.properties("/fine").unwrap().json(), r#"{"doc":1,"ok":true}"#);
    assert_eq!(config.properties("/fine").unwrap().json(), r#"{"doc":1,"ok":true}"#);
    assert_eq!(calls(&count), before + 1);
}

#[test]
fn a_failing_predicate_fails_the_lookup() {
    let config = api(r#"{"rules": []}"#);
    let index = config
        .add_rule(RuleSpec::new().try_predicate(|r| match r.url().rsplit('/').next() {
            Some("fail") => Err(std::io::Error::other("disk on fire")),
            Some("panic") => panic!("predicate panicked"),
            Some("message") => std::panic::panic_any(7_u32),
            Some("nul") => Err(std::io::Error::other("x\0y")),
            _ => Ok(true),
        }))
        .unwrap();
    let e = config.properties("/fail").unwrap_err();
    assert_eq!((e.code(), e.rule_index()), (ErrorCode::Callback, Some(index)));
    assert!(e.message().contains("disk on fire"), "{e}");
    let e = config.properties("/panic").unwrap_err();
    assert!(e.message().contains("panicked: predicate panicked"), "{e}");
    let e = config.properties("/message").unwrap_err();
    assert!(e.message().contains("panicked: Box<dyn Any>"), "{e}");
    let e = config.properties("/nul").unwrap_err();
    assert!(e.message().ends_with("the predicate failed: x\u{fffd}y"), "a NUL cannot cross as C text: {e}");
    assert_eq!(config.properties("/fine").unwrap().json(), "{}");
}

#[test]
fn refused_rules() {
    let config = api(r#"{"rules": [{"globs": ["**"], "properties": {}}]}"#);
    let refused = |rule: RuleSpec| config.add_rule(rule).unwrap_err();
    assert_eq!(refused(RuleSpec::new().properties("{}")).code(), ErrorCode::Schema, "no patterns, globs or predicate");
    let e = refused(RuleSpec::new().patterns(["/a", "(["]));
    assert_eq!((e.code(), e.pattern_index()), (ErrorCode::Regex, Some(1)));
    assert_eq!(refused(RuleSpec::new().globs(["**"]).properties("[1]")).code(), ErrorCode::Schema);
    let e = refused(RuleSpec::new().globs(["**"]).properties("{"));
    assert_eq!(e.code(), ErrorCode::Json);
    assert_eq!(e.line(), Some(1), "a position in the rule's JSON: {e}");
    // Strings are written as JSON (a NUL escaped); the properties' text is passed as given.
    assert_eq!(refused(RuleSpec::new().globs(["**"]).properties("{\"a\": \"\0\"}")).code(), ErrorCode::Argument);
    // Nothing was added: the next rule takes the next index.
    assert_eq!(config.add_rule(RuleSpec::new().globs(["/a"])).unwrap(), 1);
}

// ---------------------------------------------------------------------------
// Lifetimes of the closures
// ---------------------------------------------------------------------------

/// Counts its drops.
struct DropCounter(Arc<AtomicUsize>);

impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn closures_are_dropped_once_with_the_last_clone() {
    let captured = Arc::new(());
    let (drops, dropped) = counter();
    let config = api(r#"{"rules": []}"#);
    {
        let (in_predicate, in_configurer) = (Arc::clone(&captured), Arc::clone(&captured));
        let counter = DropCounter(drops);
        config
            .add_rule(
                RuleSpec::new().globs(["**"]).predicate(move |_| Arc::strong_count(&in_predicate) > 1).configurer(
                    move |_: &Request, edit: &mut Edit| {
                        let _keep = (&in_configurer, &counter);
                        edit.merge(r#"{"ran": true}"#)
                    },
                ),
            )
            .unwrap();
    }
    assert_eq!(Arc::strong_count(&captured), 3, "both closures are alive in the configuration");
    assert_eq!(config.properties("/a").unwrap().json(), r#"{"ran":true}"#);
    let clone = config.clone();
    drop(config);
    assert_eq!(Arc::strong_count(&captured), 3, "a clone still holds the rule");
    assert_eq!(calls(&dropped), 0);
    assert_eq!(clone.properties("/b").unwrap().json(), r#"{"ran":true}"#);
    drop(clone);
    assert_eq!(Arc::strong_count(&captured), 1, "dropped with the last clone");
    assert_eq!(calls(&dropped), 1, "exactly once");
}

#[test]
fn a_refused_rule_drops_its_closures_before_returning() {
    let config = api(r#"{"rules": []}"#);
    let captured = Arc::new(());
    let (drops, dropped) = counter();
    for (i, rule) in [
        RuleSpec::new().globs(["**"]).properties("{"), // refused by the library
        RuleSpec::new().globs(["**"]).properties("{\"\0\": 1}"), // refused before the call
        RuleSpec::new().patterns(["(["]),
    ]
    .into_iter()
    .enumerate()
    {
        let (keep, counter) = (Arc::clone(&captured), DropCounter(Arc::clone(&drops)));
        let rule = rule.configurer(move |_: &Request, _: &mut Edit| {
            let _keep = (&keep, &counter);
            Ok::<_, String>(())
        });
        assert!(config.add_rule(rule).is_err());
        assert_eq!(Arc::strong_count(&captured), 1, "rule {i}");
        assert_eq!(calls(&dropped), i + 1, "rule {i}: dropped exactly once");
    }
    drop(config);
    assert_eq!(calls(&dropped), 3);
}

#[test]
fn a_panicking_drop_does_not_cross_into_c() {
    struct Bomb;
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("drop panicked");
        }
    }
    let config = api(r#"{"rules": []}"#);
    let bomb = Bomb;
    let (keep, _) = counter();
    let witness = DropCounter(Arc::clone(&keep));
    config
        .add_rule(RuleSpec::new().globs(["**"]).configurer(move |_: &Request, _: &mut Edit| {
            let _keep = (&bomb, &witness);
            Ok::<_, String>(())
        }))
        .unwrap();
    config.properties("/a").unwrap();
    drop(config); // the library frees the rule; the panic is caught in free_context
    assert_eq!(Arc::strong_count(&keep), 1, "the other captures were dropped too");
}

// ---------------------------------------------------------------------------
// Calling back, and threads
// ---------------------------------------------------------------------------

#[test]
fn a_closure_may_call_its_configuration() {
    let config = api(r#"{"rules": [{"globs": ["/base/*"], "properties": {"from_base": true}}]}"#);
    // The closure reaches its configuration through a slot cleared at the
    // end: owning a clone for good would keep both alive for ever.
    let slot: Arc<Mutex<Option<PathConfiguration>>> = Arc::new(Mutex::new(Some(config.clone())));
    let inner = Arc::clone(&slot);
    config
        .add_rule(RuleSpec::new().globs(["/derived/*"]).configurer(move |r: &Request, edit: &mut Edit| {
            let me = inner.lock().unwrap().clone().expect("configuration");
            let name = r.url().rsplit('/').next().unwrap().to_string();
            let base = me.properties(&format!("/base/{name}")).map_err(|e| e.to_string())?;
            me.invalidate(); // allowed inside a callback
            edit.merge(base.json()).map_err(|e| e.to_string())
        }))
        .unwrap();
    assert_eq!(config.properties("/derived/x").unwrap().json(), r#"{"from_base":true}"#);
    slot.lock().unwrap().take();
}

#[test]
fn lookups_invalidations_and_new_rules_on_many_threads() {
    let config = api(r#"{"rules": []}"#);
    let token = Arc::new(RwLock::new(String::from("0")));
    let (runs, count) = counter();
    add_token_rule(&config, &token, &runs);
    let workers: Vec<_> = (0..4)
        .map(|t| {
            let (config, token) = (config.clone(), Arc::clone(&token));
            thread::spawn(move || {
                for i in 0..100 {
                    let url = format!("/t{t}/{}", i % 7);
                    let headers = headers(&config, &url, if i % 2 == 0 { "GET" } else { "POST" });
                    assert!(headers.at("X-HappyApp-Auth-Token").as_str().is_some(), "{url}: {}", headers.to_json());
                    if i % 10 == 0 {
                        *token.write().unwrap() = format!("{t}-{i}");
                        config.invalidate();
                    }
                    if i % 25 == 0 {
                        config.add_rule(RuleSpec::new().globs([format!("/t{t}/*")]).properties("{}")).unwrap();
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert!(calls(&count) >= 4 * 7, "each thread's URLs ran the configurer: {}", calls(&count));
    // After the last invalidate, the current token.
    *token.write().unwrap() = String::from("last");
    config.invalidate();
    assert_eq!(headers(&config, "/t0/1", "GET").at("X-HappyApp-Auth-Token").as_str(), Some("last"));
}

#[test]
fn configurations_and_rules_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<PathConfiguration>();
    send_sync::<RuleSpec>();
    let rule = RuleSpec::new().globs(["**"]).configurer(|_: &Request, edit: &mut Edit| edit.merge(r#"{"t": 1}"#));
    let config = api(r#"{"rules": []}"#);
    let added = thread::scope(|s| s.spawn(|| config.add_rule(rule)).join().unwrap()).unwrap();
    assert_eq!(added, 0);
    assert_eq!(thread::spawn(move || config.properties("/a").unwrap().json().to_owned()).join().unwrap(), r#"{"t":1}"#);
}
