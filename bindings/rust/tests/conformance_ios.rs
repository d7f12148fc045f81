//! Every case of Tests/Fixtures/conformance/ios.json through the crate.

mod support;

use pathconfig::{ErrorCode, Options, PathConfiguration, WarningKind};
use support::{case_options, check_consistent, load_conformance, run_all, typed_value, Json};

fn profile_of(case: &Json) -> &'static str {
    match case.at("library").as_str() {
        Some("turbo-ios") => "turbo-ios",
        Some("hotwire-native-ios") => "hotwire-ios",
        other => panic!("unknown library {other:?}"),
    }
}

fn fixture_text(doc: &Json, case: &Json) -> String {
    let name = case.at("fixture").as_str().expect("fixture name");
    doc.at("fixtures").get(name).unwrap_or_else(|| panic!("no fixture {name}")).to_json()
}

#[test]
fn ios_cases() {
    let doc = load_conformance("ios.json");
    let cases = doc.at("cases").as_array();
    assert!(!cases.is_empty(), "ios.json has no cases");
    let n = run_all(cases, |case| {
        let profile = profile_of(case);
        let config = PathConfiguration::from_json(&fixture_text(&doc, case), &case_options(profile, case))
            .unwrap_or_else(|e| panic!("load: {e}"));
        assert_eq!(config.profile(), profile);
        let builtins = if case.at("append_default_rules").as_bool() == Some(true) { 3 } else { 0 };
        assert_eq!(config.rule_count(), config.document_rule_count() + builtins, "built-in rules");

        let input = case.at("input").as_str().expect("input");
        let props = config.properties(input).unwrap_or_else(|e| panic!("properties: {e}"));
        assert_eq!(Json::parse(props.json()), *case.at("expected_properties"), "properties: got {}", props.json());
        assert_eq!(
            config.matched_string(input).unwrap(),
            case.at("matched_string").as_str().unwrap(),
            "matched string"
        );
        check_consistent(&props, input);

        if let Some(typed) = case.get("expected_typed") {
            for (key, want) in typed.members() {
                assert_eq!(typed_value(&props, key), *want, "typed {key}");
            }
        }
        if let Some(accessor) = case.get("expected_string_accessor") {
            for (key, want) in accessor.members() {
                // The apps' String subscript: the string, or nil for anything else.
                let got = match props.get_str(key) {
                    Ok(Some(s)) => Json::String(s.to_string()),
                    Ok(None) => Json::Null,
                    Err(e) if e.code() == ErrorCode::Type => Json::Null,
                    Err(e) => panic!("get_str({key}): {e}"),
                };
                assert_eq!(got, *want, "string accessor {key}");
            }
        }
        if let Some(want) = case.get("expected_rule_match").and_then(Json::as_bool) {
            let explain = Json::parse(&config.explain(input).unwrap());
            assert_eq!(explain.at("input").as_str(), Some(input));
            assert_eq!(explain.at("matched_string"), case.at("matched_string"));
            assert_eq!(explain.at("properties"), case.at("expected_properties"));
            let matched = explain
                .at("rules")
                .as_array()
                .iter()
                .any(|r| r.at("index").as_f64() == Some(0.0) && r.at("builtin").as_bool() != Some(true));
            assert_eq!(matched, want, "rule 0 matches: explain = {}", explain.to_json());
        }
    });
    eprintln!("ios.json: {n} cases passed");
}

#[test]
fn ios_settings_cases() {
    let doc = load_conformance("ios.json");
    let cases = doc.at("settings_cases").as_array();
    assert!(!cases.is_empty(), "ios.json has no settings_cases");
    let n = run_all(cases, |case| {
        let profile = profile_of(case);
        let text = fixture_text(&doc, case);
        let loaded = PathConfiguration::from_json(&text, &Options::new().profile(support::profile(profile)));
        if !case.at("expected_error").is_null() {
            let err = loaded.expect_err("the fixture must be rejected");
            assert!(matches!(err.code(), ErrorCode::Schema | ErrorCode::Json), "error code {:?}: {err}", err.code());
            assert!(!err.message().is_empty());
            return;
        }
        let config = loaded.unwrap_or_else(|e| panic!("load: {e}"));
        assert_eq!(Json::parse(config.settings()), *case.at("expected_settings"), "settings");

        let source = case.at("source").as_str().unwrap();
        let document_only = ["test_json_", "Loader", "Decoder"].iter().any(|s| source.contains(s));
        let count = if document_only { config.document_rule_count() } else { config.rule_count() };
        assert_eq!(
            Some(count as f64),
            case.at("expected_rule_count").as_f64(),
            "rule count (document only: {document_only})"
        );

        // A settings value that is not an object is ignored, with a warning.
        let settings = Json::parse(&text);
        if matches!(settings.get("settings"), Some(s) if !matches!(s, Json::Object(_))) {
            let warnings = config.warnings().unwrap();
            assert!(warnings.iter().any(|w| w.kind == WarningKind::IgnoredSettings), "warnings: {warnings:?}");
        }
    });
    eprintln!("ios.json settings_cases: {n} cases passed");
}
