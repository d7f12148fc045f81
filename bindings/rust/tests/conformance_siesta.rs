//! Tests/Fixtures/conformance/siesta.json through the crate: every pattern case,
//! the ordering cases that choose and merge plain values, and the cases
//! about memoising and invalidation, as
//! Tests/PathConfigurationTests/Siesta/SiestaConformanceTests.swift maps
//! them onto rules (the other ordering cases pin Siesta's request pipeline,
//! not rule selection).

mod support;

use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use pathconfig::{Merge, Method, Options, PathConfiguration, Profile, Properties, RuleSpec};
use support::{load_conformance, raw_value, run_all, Json};

/// The properties a matching rule gives in the pattern cases.
const HIT: &str = r#"{"hit": true}"#;

/// Siesta's `Configuration()` defaults, applied to every resource.
const DEFAULTS: &str = r#"{"expirationTime": 30, "retryTime": 1, "headers": {}}"#;

fn siesta_options(base_url: Option<&str>) -> Options {
    let options = Options::new().profile(Profile::Siesta);
    match base_url {
        Some(url) => options.base_url(url),
        None => options,
    }
}

/// A rule from code applying when the URL equals `url` (`configure(resource)`).
fn resource_rule(url: &str) -> RuleSpec {
    let url = url.to_string();
    RuleSpec::new().predicate(move |request| request.url() == url)
}

/// A rule from code applying when the URL ends with "foo" (the spec's predicate).
fn suffix_rule() -> RuleSpec {
    RuleSpec::new().predicate(|request| request.url().ends_with("foo"))
}

/// Whether a pattern case's rule applies to its URL, through the document
/// (`patterns`/`globs` in the JSON) or from code (a `RuleSpec`).
fn hit(c: &Json, from_code: bool) -> bool {
    let base_url = c.at("baseURL").as_str();
    let pattern = c.at("pattern").as_str().unwrap_or("");
    let url = c.at("url").as_str().expect("url");
    let case_insensitive =
        matches!(c.at("regex_options"), Json::Array(o) if o.iter().any(|o| o.as_str() == Some("caseInsensitive")));
    let (key, pattern) = match c.at("pattern_kind").as_str() {
        Some("glob") => ("globs", pattern.to_string()),
        Some("regex") => ("patterns", format!("{}{pattern}", if case_insensitive { "(?i)" } else { "" })),
        Some("resource") => ("", pattern.to_string()),
        Some("predicate") => ("", String::new()),
        other => panic!("unknown pattern kind {other:?}"),
    };
    let config = if key.is_empty() || from_code {
        let config = PathConfiguration::from_json(r#"{"rules": []}"#, &siesta_options(base_url)).unwrap();
        let rule = match (c.at("pattern_kind").as_str(), key) {
            (Some("resource"), _) => resource_rule(&pattern),
            (Some("predicate"), _) => suffix_rule(),
            (_, "globs") => RuleSpec::new().globs([pattern.as_str()]),
            _ => RuleSpec::new().patterns([pattern.as_str()]),
        };
        assert_eq!(config.add_rule(rule.properties(HIT)).unwrap(), 0, "the first rule's index");
        config
    } else {
        let mut rule = String::from("{\"");
        rule.push_str(key);
        rule.push_str("\": [");
        support::write_string(&mut rule, &pattern);
        rule.push_str("], \"properties\": ");
        rule.push_str(HIT);
        rule.push('}');
        PathConfiguration::from_json(&format!("{{\"rules\": [{rule}]}}"), &siesta_options(base_url))
            .unwrap_or_else(|e| panic!("load {rule}: {e}"))
    };
    let props = config.properties(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let hit = match props.get_bool("hit").unwrap() {
        Some(true) => true,
        None => false,
        Some(false) => panic!("hit is false"),
    };
    // explain agrees, and names the glob or pattern (or the predicate) that matched.
    let explain = Json::parse(&config.explain(url).unwrap());
    assert_eq!(explain.at("url").as_str().map(|u| !u.is_empty()), Some(true), "{}", explain.to_json());
    let rules = explain.at("rules").as_array();
    assert_eq!(rules.len(), usize::from(hit), "explain: {}", explain.to_json());
    if let Some(rule) = rules.first() {
        match key {
            "globs" => assert_eq!(rule.at("glob").as_str(), Some(pattern.as_str())),
            "patterns" => assert_eq!(rule.at("pattern").as_str(), Some(pattern.as_str())),
            _ => assert_eq!(rule.at("predicate").as_bool(), Some(true)),
        }
        assert_eq!(rule.at("from_code").as_bool() == Some(true), key.is_empty() || from_code);
    }
    hit
}

#[test]
fn pattern_cases() {
    let doc = load_conformance("siesta.json");
    let cases = doc.at("pattern_cases").as_array();
    assert_eq!(cases.len(), 97, "siesta.json pattern_cases");
    let n = run_all(cases, |c| {
        let expected = c.at("matches").as_bool().expect("matches");
        let url = c.at("url").to_json();
        assert_eq!(hit(c, false), expected, "{url}: in the document");
        assert_eq!(hit(c, true), expected, "{url}: from code");
    });
    eprintln!("siesta.json: {n} pattern cases passed");
}

/// The ordering cases whose entries set plain values (no steps, no pipeline).
fn value_cases(doc: &Json) -> Vec<&Json> {
    let plain = ["expirationTime", "retryTime", "headers"];
    doc.at("ordering_cases")
        .as_array()
        .iter()
        .filter(|c| {
            c.get("steps").is_none()
                && c.at("entries").as_array().iter().all(|e| {
                    matches!(e.at("methods"), Json::Null | Json::Array(_))
                        && e.at("sets")
                            .members()
                            .iter()
                            .all(|(k, v)| plain.contains(&k.as_str()) && v.as_str().is_none())
                })
        })
        .collect()
}

/// A Siesta service: the siesta profile under `base_url`, merged deep, with
/// the defaults as the first rule.
fn service(base_url: &str) -> PathConfiguration {
    let options = siesta_options(Some(base_url)).merge(Merge::Deep);
    let config = PathConfiguration::from_json(r#"{"rules": []}"#, &options).unwrap();
    let defaults = RuleSpec::new().description("Siesta defaults").predicate(|_| true).properties(DEFAULTS);
    config.add_rule(defaults).unwrap();
    config
}

/// One `configure(...)` entry as a rule from code.
fn entry_rule(e: &Json) -> RuleSpec {
    let pattern = e.at("pattern").as_str().unwrap_or("");
    let rule = match e.at("pattern_kind").as_str() {
        Some("global") => RuleSpec::new().globs(["**"]),
        Some("glob") => RuleSpec::new().globs([pattern]),
        Some("resource") => resource_rule(pattern),
        Some("predicate") => suffix_rule(),
        other => panic!("unknown entry kind {other:?}"),
    };
    let rule = match e.get("methods") {
        Some(Json::Array(methods)) => rule.methods(methods.iter().map(|m| Method::parse(m.as_str().unwrap()).unwrap())),
        _ => rule,
    };
    let rule = match e.at("description").as_str() {
        Some(d) => rule.description(d),
        None => rule,
    };
    rule.properties(e.at("sets").to_json())
}

#[test]
fn ordering_cases_with_plain_values() {
    let doc = load_conformance("siesta.json");
    assert_eq!(doc.at("ordering_cases").as_array().len(), 33, "siesta.json ordering_cases");
    let cases: Vec<Json> = value_cases(&doc).into_iter().cloned().collect();
    assert_eq!(cases.len(), 17, "the ordering cases about choosing and merging values");
    let n = run_all(&cases, |c| {
        let config = service(c.at("baseURL").as_str().unwrap());
        for (i, e) in c.at("entries").as_array().iter().enumerate() {
            assert_eq!(config.add_rule(entry_rule(e)).unwrap(), i + 1, "rule index");
        }
        let (url, method) = (c.at("url").as_str().unwrap(), c.at("method").as_str().unwrap());
        let props = config
            .request_properties(url, Method::parse(method).unwrap())
            .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        let why = format!("{method} {url}: {}", props.json());
        for (key, expected) in c.at("expected").members() {
            match key.as_str() {
                "request_headers_include" => {
                    for (name, value) in expected.members() {
                        assert_eq!(raw_value(&props, "headers").at(name), value, "header {name}: {why}");
                    }
                }
                "loadIfNeeded_at_t+2s_loads" => {
                    // Data (or an error) from t = 1000 is reloaded at t = 1002 when
                    // the configured age limit is under 2 s: the entry's value rules.
                    for e in c.at("entries").as_array() {
                        for (name, value) in e.at("sets").members() {
                            assert_eq!(raw_value(&props, name), *value, "{name}: {why}");
                            assert_eq!(value.as_f64().unwrap() < 2.0, expected.as_bool().unwrap(), "{why}");
                        }
                    }
                }
                _ => assert_eq!(raw_value(&props, key), *expected, "{key}: {why}"),
            }
        }
    });
    eprintln!("siesta.json: {n} ordering cases with plain values passed");
}

/// The cases that number their steps ("changes when service config added"):
/// each step's entries extend the last's; adding a rule drops the memoised
/// result of the same lookup.
#[test]
fn a_rule_added_later_drops_memoised_results() {
    let doc = load_conformance("siesta.json");
    let mut steps: Vec<&Json> =
        doc.at("ordering_cases").as_array().iter().filter(|c| c.get("step").is_some()).collect();
    steps.sort_by(|a, b| a.at("step").as_f64().partial_cmp(&b.at("step").as_f64()).unwrap());
    assert_eq!(steps.len(), 3, "the numbered steps");
    let config = service(steps[0].at("baseURL").as_str().unwrap());
    let mut added = 0;
    for c in steps {
        let entries = c.at("entries").as_array();
        for e in &entries[added..] {
            config.add_rule(entry_rule(e)).unwrap();
        }
        added = entries.len();
        let (url, method) = (c.at("url").as_str().unwrap(), c.at("method").as_str().unwrap());
        let props = config.request_properties(url, Method::parse(method).unwrap()).unwrap();
        for (key, expected) in c.at("expected").members() {
            assert_eq!(raw_value(&props, key), *expected, "step {}: {}", c.at("step").to_json(), props.json());
        }
    }
}

fn ordering_case<'a>(doc: &'a Json, source_suffix: &str) -> &'a Json {
    let cases = doc.at("ordering_cases").as_array();
    let found: Vec<&Json> =
        cases.iter().filter(|c| c.at("source").as_str().is_some_and(|s| s.ends_with(source_suffix))).collect();
    assert_eq!(found.len(), 1, "one case from {source_suffix}");
    found[0]
}

fn expiration_time(props: &Properties) -> Json {
    raw_value(props, "expirationTime")
}

/// ServiceSpec "changes when invalidateConfiguration() called": a configurer
/// reads a host variable; its value is memoised until invalidate. The
/// case's steps are played as written.
#[test]
fn invalidate_case_steps() {
    let doc = load_conformance("siesta.json");
    let c = ordering_case(&doc, "changes when invalidateConfiguration() called");
    let config = service(c.at("baseURL").as_str().unwrap());
    let x = Arc::new(AtomicI64::new(0));
    let read = Arc::clone(&x);
    config
        .add_rule(
            RuleSpec::new()
                .globs(["**"])
                .configurer(move |_, edit| edit.set_i64("expirationTime", read.load(Ordering::SeqCst))),
        )
        .unwrap();
    let url = c.at("url").as_str().unwrap();
    let mut reads = 0;
    for step in c.at("steps").as_array() {
        let action = step.at("do").as_str().unwrap();
        if let Some(value) = action.strip_prefix("set x=") {
            x.store(value.parse().unwrap(), Ordering::SeqCst);
        } else if action == "read" {
            let props = config.properties(url).unwrap();
            assert_eq!(expiration_time(&props), *step.at("expect").at("expirationTime"), "{}", step.to_json());
            reads += 1;
        } else if action == "invalidateConfiguration()" {
            config.invalidate();
        } else {
            panic!("unknown step {action}");
        }
    }
    assert_eq!(reads, 3);
    assert_eq!(expiration_time(&config.properties(url).unwrap()), *c.at("expected").at("expirationTime"));
}

/// RequestSpec "repeated() picks up header config changes": the header the
/// configurer sets follows the host's value after invalidate.
#[test]
fn repeated_request_picks_up_header_changes() {
    let doc = load_conformance("siesta.json");
    let c = ordering_case(&doc, "repeated()/picks up header config changes");
    let (name, value) = &c.at("expected").at("repeated_request_header").members()[0];
    let config = service(c.at("baseURL").as_str().unwrap());
    let flavor: Arc<Mutex<Option<String>>> = Arc::default();
    let (read, header) = (Arc::clone(&flavor), name.clone());
    config
        .add_rule(RuleSpec::new().globs(["**"]).configurer(move |_, edit| match read.lock().unwrap().as_deref() {
            None => Ok(()),
            Some(f) => edit.set_header(&header, f),
        }))
        .unwrap();
    let url = c.at("url").as_str().unwrap();
    let header_value = || raw_value(&config.properties(url).unwrap(), "headers").at(name).clone();
    assert_eq!(header_value(), Json::Null, "flavor=nil; originalRequest()");
    *flavor.lock().unwrap() = value.as_str().map(str::to_string);
    assert_eq!(header_value(), Json::Null, "memoised until invalidateConfiguration()");
    config.invalidate();
    assert_eq!(header_value(), *value, "repeated() after invalidateConfiguration()");
}

/// ServiceSpec "is not computed when traversing resources but not using
/// them": only a lookup runs the configurer.
#[test]
fn configuration_is_computed_only_by_a_lookup() {
    let doc = load_conformance("siesta.json");
    let c = ordering_case(&doc, "is not computed when traversing resources but not using them");
    let config = service(c.at("baseURL").as_str().unwrap());
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    config
        .add_rule(RuleSpec::new().globs(["**"]).configurer(move |_, _| {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok::<_, String>(())
        }))
        .unwrap();
    let url = c.at("url").as_str().unwrap();
    assert_eq!(config.matched_string(url).unwrap(), url, "the siesta profile matches the whole URL");
    let expected = c.at("expected").at("configurer_invocations").as_f64().unwrap() as usize;
    assert_eq!(calls.load(Ordering::SeqCst), expected);
    config.properties(url).unwrap();
    config.properties(url).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), expected + 1, "one lookup computes it, the next is memoised");
}
