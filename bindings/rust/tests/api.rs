//! The safe API beyond the conformance cases: options, accessors, iteration,
//! inspection, versions.

mod support;

use pathconfig::{sys, Binding, ErrorCode, Merge, Options, PathConfiguration, Profile, Value};
use support::Json;

fn example(options: &Options) -> PathConfiguration {
    PathConfiguration::from_file(support::example_config(), options).expect("examples/path-configuration.json")
}

#[test]
fn library_and_header_versions_agree() {
    assert_eq!(pathconfig::version(), pathconfig::HEADER_VERSION);
    assert_eq!(pathconfig::version_number(), sys::PATHCONFIG_VERSION_NUMBER);
    assert_eq!(
        sys::PATHCONFIG_VERSION_NUMBER,
        sys::PATHCONFIG_VERSION_MAJOR * 1_000_000
            + sys::PATHCONFIG_VERSION_MINOR * 1000
            + sys::PATHCONFIG_VERSION_PATCH
    );
    assert_eq!(
        sys::PATHCONFIG_VERSION,
        format!(
            "{}.{}.{}",
            sys::PATHCONFIG_VERSION_MAJOR,
            sys::PATHCONFIG_VERSION_MINOR,
            sys::PATHCONFIG_VERSION_PATCH
        )
    );
    // The crate is released at the library's version (`make check-version` checks the same).
    assert_eq!(
        env!("CARGO_PKG_VERSION"),
        pathconfig::HEADER_VERSION,
        "bindings/rust/Cargo.toml's version is not PATHCONFIG_VERSION of include/pathconfig/common.h"
    );
}

#[test]
fn options_serialise_to_the_c_options_json() {
    assert_eq!(Options::new().to_json(), "{}");
    let all = Options::new()
        .profile(Profile::HotwireAndroid)
        .match_query_strings(false)
        .backend("pcre2")
        .lenient(true)
        .raw_option("future \"opt\"\n", r#"{"a":[1]}"#);
    assert_eq!(
        all.to_json(),
        r#"{"profile":"hotwire-android","match_query_strings":false,"backend":"pcre2","lenient":true,"future \"opt\"\n":{"a":[1]}}"#
    );
    // Valid JSON, keys in order.
    let parsed = Json::parse(&all.to_json());
    let keys: Vec<&str> = parsed.members().iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["profile", "match_query_strings", "backend", "lenient", "future \"opt\"\n"]);
    // Setting twice keeps the last value; None resets to the profile's default.
    let o = Options::new().match_query_strings(true).match_query_strings(None).lenient(false);
    assert_eq!(o.to_json(), r#"{"lenient":false}"#);
    assert_eq!(o.clone(), o);
    assert_ne!(o, Options::new());
    let o = Options::new().merge(Merge::Deep).result_cache_size(0).max_url_bytes(100).merge(Merge::Shallow);
    assert_eq!(o.to_json(), r#"{"merge":"shallow","result_cache_size":0,"max_url_bytes":100}"#);
}

/// What the configuration reports it was loaded with: every option, the
/// defaults written out, and the same configuration when loaded with them.
#[test]
fn options_in_effect() {
    let options = Options::new().profile(Profile::TurboIos).merge(Merge::Deep).result_cache_size(7).max_url_bytes(99);
    let config = rules_only(&options);
    let effect = Value::from_json(config.options()).unwrap();
    assert_eq!(effect["profile"], Value::from("turbo-ios"));
    assert_eq!(effect["merge"], Value::from("deep"));
    assert_eq!(effect["result_cache_size"], Value::Int(7));
    assert_eq!(effect["max_url_bytes"], Value::Int(99));
    assert_eq!(effect["match_query_strings"], Value::Bool(false), "turbo-ios's default, written out");
    assert_eq!(config.profile(), Profile::TurboIos);
    let long = format!("/{}", "a".repeat(99));
    assert_eq!(config.properties(&long).unwrap_err().code(), ErrorCode::Limit);
    let defaults = Value::from_json(rules_only(&Options::new()).options()).unwrap();
    assert_eq!(defaults["profile"], Value::from("hotwire-ios"));
    assert_eq!(defaults["merge"], Value::from("shallow"));
    // Loading with the reported options gives the same options.
    let again = PathConfiguration::from_json(RULES, &Options::new().raw_option("x", "1")).unwrap_err();
    assert_eq!(again.code(), ErrorCode::Options, "an unknown option is refused: {again}");
}

#[test]
fn the_example_configuration() {
    let config = example(&Options::new());
    assert_eq!(config.profile(), "hotwire-ios");
    assert_eq!(config.document_rule_count(), 5);
    assert_eq!(config.rule_count(), 8);

    let new = config.properties("https://example.com/messages/new").unwrap();
    assert_eq!(new.json(), r#"{"context":"modal","pull_to_refresh_enabled":false}"#);
    assert_eq!(new.context(), "modal");
    assert!(!new.pull_to_refresh_enabled());
    assert_eq!(new.presentation(), "default");
    assert_eq!(new.modal_style(), "large");
    assert_eq!(new.query_string_presentation(), "default");
    assert_eq!(new.view_controller(), Some("web"), "iOS default");
    assert_eq!((new.title(), new.uri(), new.fallback_uri()), (None, None, None));
    assert!(new.modal_dismiss_gesture_enabled() && new.animated() && !new.historical_location());

    let msg = config.properties("https://example.com/messages/42").unwrap();
    assert_eq!(msg.view_controller(), Some("message"));
    assert_eq!(msg.title(), Some("Message"));
    assert_eq!(msg.keys().collect::<Vec<_>>(), ["context", "pull_to_refresh_enabled", "view_controller", "title"]);

    let sign_in = config.properties("/sign_in").unwrap();
    assert_eq!(sign_in.presentation(), "replace_root");
    assert_eq!(sign_in.get_str("flow").unwrap(), Some("authentication"));

    let recede = config.properties("https://example.com/recede_historical_location").unwrap();
    assert_eq!(recede.presentation(), "pop");
    assert!(recede.historical_location());
    let explain = Json::parse(&config.explain("/recede_historical_location").unwrap());
    let rules = explain.at("rules").as_array();
    assert!(rules.iter().any(|r| r.at("builtin").as_bool() == Some(true)), "{}", explain.to_json());
    assert_eq!(rules[0].at("description").as_str(), Some("Every page: pushed, pull to refresh"));

    let settings = Json::parse(config.settings());
    assert_eq!(settings.at("tabs").as_array().len(), 2);
    assert_eq!(settings.at("feature_flags").at("new_composer").as_bool(), Some(true));
    assert!(config.warnings().unwrap().is_empty());

    // The same document from memory gives the same results.
    let text = std::fs::read_to_string(support::example_config()).unwrap();
    let from_text = PathConfiguration::from_json(&text, &Options::new()).unwrap();
    assert_eq!(
        from_text.properties("/messages/42/edit").unwrap().json(),
        config.properties("/messages/42/edit").unwrap().json()
    );
}

/// The example's rules, without its settings (turbo-android rejects nested settings values).
const RULES: &str = r#"{"rules": [
    {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
    {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "pull_to_refresh_enabled": false}},
    {"patterns": ["/sign_in$", "/sign_up$"], "properties": {"flow": "authentication", "presentation": "replace_root"}},
    {"patterns": ["^/messages/\\d+$"], "properties": {"view_controller": "message", "title": "Message"}},
    {"patterns": ["\\.pdf$", ".*\\?.*open_in_external_browser=true.*"], "properties": {"open_in_external_browser": true}}
]}"#;

fn rules_only(options: &Options) -> PathConfiguration {
    PathConfiguration::from_json(RULES, options).unwrap()
}

#[test]
fn turbo_android_rejects_nested_settings() {
    let e = PathConfiguration::from_file(support::example_config(), &Options::new().profile(Profile::TurboAndroid))
        .unwrap_err();
    assert_eq!((e.code(), e.line()), (ErrorCode::Schema, Some(3)), "{e}");
    assert!(e.message().contains("tabs"), "{e}");
}

#[test]
fn profiles_read_the_same_file_differently() {
    let url = "https://example.com/Messages/New/?open_in_external_browser=true#top";
    let matched: Vec<String> = [
        Options::new().profile(Profile::HotwireIos).version("main"),
        Options::new().profile(Profile::HotwireIos),
        Options::new().profile(Profile::TurboIos),
        Options::new().profile(Profile::HotwireAndroid),
        Options::new().profile(Profile::TurboAndroid),
    ]
    .iter()
    .map(|options| rules_only(options).matched_string(url).unwrap())
    .collect();
    assert_eq!(
        matched,
        [
            "/Messages/New/?open_in_external_browser=true", // hotwire-ios@main: trailing slash kept, query on
            "/Messages/New?open_in_external_browser=true",  // hotwire-ios (1.2): url.path drops the slash, query on
            "/Messages/New",                                // turbo-ios: one trailing slash dropped, query off
            "/Messages/New/?open_in_external_browser=true", // android: path + query, always
            "/Messages/New/?open_in_external_browser=true",
        ]
    );
    let turbo_ios_q = rules_only(&Options::new().profile(Profile::TurboIos).match_query_strings(true));
    assert_eq!(turbo_ios_q.matched_string(url).unwrap(), "/Messages/New?open_in_external_browser=true");

    // Case: iOS is case-sensitive, Android is not.
    let turbo_ios = rules_only(&Options::new().profile(Profile::TurboIos));
    assert_eq!(turbo_ios.properties("/Messages/New").unwrap().context(), "default");
    let turbo_android = rules_only(&Options::new().profile(Profile::TurboAndroid));
    assert_eq!(turbo_android.properties("/Messages/New").unwrap().context(), "modal");

    // Android defaults and readings.
    let android = rules_only(&Options::new().profile(Profile::HotwireAndroid));
    let p = android.properties("https://example.com/recede_historical_location").unwrap();
    assert_eq!(p.get_str("presentation").unwrap(), Some("POP"), "raw value as the built-in rule writes it");
    assert_eq!(p.presentation(), "pop", "typed: lower case");
    assert_eq!(p.view_controller(), None, "no Android default");
    let empty =
        PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new().profile(Profile::HotwireAndroid)).unwrap();
    assert!(!empty.properties("/x").unwrap().pull_to_refresh_enabled(), "Android default: false");
    let empty = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new().profile(Profile::HotwireIos)).unwrap();
    assert!(empty.properties("/x").unwrap().pull_to_refresh_enabled(), "iOS default: true");

    // turbo-android keeps every value as a string; typed bools read "true"/"false".
    let p = turbo_android.properties("/messages/new").unwrap();
    assert_eq!(p.get_str("pull_to_refresh_enabled").unwrap(), Some("false"));
    assert_eq!(p.get_bool("pull_to_refresh_enabled").unwrap_err().code(), ErrorCode::Type);
    assert!(!p.pull_to_refresh_enabled());
    assert_eq!(turbo_android.rule_count(), turbo_android.document_rule_count());
}

#[test]
fn iteration_is_tied_to_the_result() {
    let json = r#"{"rules": [
        {"patterns": [".*"], "properties": {"a": 1, "b": "two", "c": null}},
        {"patterns": ["x"], "properties": {"d": {"nested": [true]}, "a": 10}}
    ]}"#;
    let config = PathConfiguration::from_json(json, &Options::new().profile(Profile::TurboIos)).unwrap();
    let props = config.properties("/x").unwrap();
    assert_eq!(props.json(), r#"{"a":10,"b":"two","c":null,"d":{"nested":[true]}}"#);
    let keys = props.keys();
    assert_eq!(keys.len(), 4);
    assert_eq!(format!("{keys:?}"), r#"["a", "b", "c", "d"]"#);
    assert_eq!(props.keys().rev().collect::<Vec<_>>(), ["d", "c", "b", "a"]);
    let pairs: Vec<(&str, &str)> = (&props).into_iter().collect();
    assert_eq!(pairs, [("a", "10"), ("b", "\"two\""), ("c", "null"), ("d", r#"{"nested":[true]}"#)]);
    let mut it = props.iter();
    assert_eq!(it.len(), 4);
    assert_eq!(it.next_back(), Some(("d", r#"{"nested":[true]}"#)));
    assert_eq!(it.next(), Some(("a", "10")));
    assert_eq!(it.len(), 2);
    assert!(props.contains_key("c").unwrap(), "a null value is still a key");
    assert_eq!(props.get_str("c").unwrap_err().code(), ErrorCode::Type, "null is not a string");
    assert_eq!(props.get_json("c").unwrap(), Some("null"));
    assert_eq!(props.get_json("zzz").unwrap(), None);
    assert!(format!("{props:?}").contains(r#""a":10"#));
    assert_eq!(props.to_string(), props.json(), "Display is the JSON text");

    let empty = config.properties("/").unwrap();
    assert_eq!(empty.json(), r#"{"a":1,"b":"two","c":null}"#);
    let none = PathConfiguration::from_json(r#"{"rules": []}"#, &Options::new()).unwrap().properties("/a").unwrap();
    assert!(none.is_empty());
    assert_eq!(none.json(), "{}");
    assert_eq!(none.keys().next(), None);
    assert_eq!(none.iter().count(), 0);
}

/// Bad input loses nothing: a string holding U+0000 comes back whole.
#[test]
fn strings_keep_an_embedded_nul() {
    let json = r#"{"rules": [{"patterns": [".*"], "properties": {"z": "a\u0000b\u00e9", "e": ""}}]}"#;
    let config = PathConfiguration::from_json(json, &Options::new()).unwrap();
    let props = config.properties("/").unwrap();
    assert_eq!(props.get_str("z").unwrap(), Some("a\0bé"));
    assert_eq!(props.get_str("e").unwrap(), Some(""));
    assert_eq!(props.get_json("z").unwrap(), Some(r#""a\u0000bé""#));
}

#[test]
fn numbers_keep_their_text_and_range() {
    let json = r#"{"rules": [{"patterns": [".*"], "properties":
        {"big": 9223372036854775807, "bigger": 9223372036854775808, "neg": -3, "exp": 1e3, "dec": 2.50}}]}"#;
    let props = PathConfiguration::from_json(json, &Options::new()).unwrap().properties("/").unwrap();
    assert_eq!(props.get_i64("big").unwrap(), Some(i64::MAX));
    assert_eq!(props.get_i64("bigger").unwrap_err().code(), ErrorCode::Type);
    assert_eq!(props.get_f64("bigger").unwrap(), Some(9223372036854775808.0));
    assert_eq!(props.get_i64("neg").unwrap(), Some(-3));
    assert_eq!(props.get_i64("exp").unwrap_err().code(), ErrorCode::Type);
    assert_eq!(props.get_f64("exp").unwrap(), Some(1000.0));
    assert_eq!(props.get_json("dec").unwrap(), Some("2.50"));
}

#[test]
fn clone_shares_the_handle() {
    let config = example(&Options::new());
    let copy = config.clone();
    assert_eq!(copy.raw(), config.raw(), "pathconfig_retain returns the same handle");
    assert!(!config.raw().is_null());
    drop(config);
    assert_eq!(copy.properties("/messages/new").unwrap().context(), "modal");
    let debug = format!("{copy:?}");
    assert!(debug.contains("hotwire-ios") && debug.contains("rule_count: 8"), "{debug}");
    let props = copy.properties("/").unwrap();
    assert!(!props.raw().is_null());
}

/// The native map is worked out once per answer: results of the same answer
/// (the same id) share it, a clone of a result shares it, another answer
/// has its own; every one holds what the JSON text holds.
#[test]
fn the_native_map_is_made_once_per_answer() {
    let config = rules_only(&Options::new().profile(Profile::TurboIos).result_cache_size(0));
    let a = config.properties("/a/new").unwrap();
    let b = config.properties("/b/new").unwrap();
    assert_eq!(a.id(), b.id(), "the same rules matched");
    assert!(std::ptr::eq(a.map(), b.map()), "one map for one answer");
    assert!(std::ptr::eq(a.map(), a.clone().map()));
    let other = config.properties("/sign_in").unwrap();
    assert_ne!(other.id(), a.id());
    assert_eq!(other.map()["flow"], Value::from("authentication"));
    assert_eq!(a.map()["context"], Value::from("modal"));
    assert_eq!(a.map().to_string(), a.json());
    // On another thread, the same answer's map, built there.
    let id = a.id();
    let map = a.map().clone();
    std::thread::spawn(move || {
        let c = config.properties("/c/edit").unwrap();
        assert_eq!((c.id(), c.map()), (id, &map));
    })
    .join()
    .unwrap();
}
