//! Every case of Tests/Fixtures/conformance/android.json through the crate.

mod support;

use pathconfig::{ErrorCode, Options, PathConfiguration, Profile, TypedKey};
use support::{case_options, check_consistent, load_conformance, raw_value, run_all, typed_value, Json};

fn profile_of(case: &Json) -> &'static str {
    match case.at("implementation").as_str() {
        Some("hotwire-native-android") => "hotwire-android",
        Some("turbo-android") => "turbo-android",
        other => panic!("unknown implementation {other:?}"),
    }
}

#[test]
fn android_cases() {
    let doc = load_conformance("android.json");
    let cases = doc.at("cases").as_array();
    assert!(!cases.is_empty(), "android.json has no cases");
    let settings_cases = cases.iter().filter(|case| case.at("kind").as_str() == Some("settings")).count();
    let lookup_cases = cases.len() - settings_cases;
    run_all(cases, |case| {
        let is_settings = case.at("kind").as_str() == Some("settings");
        let profile = profile_of(case);
        let name = case.at("fixture").as_str().expect("fixture");
        let fixture = doc.at("fixtures").get(name).unwrap_or_else(|| panic!("no fixture {name}"));
        let config = PathConfiguration::from_json(&fixture.to_json(), &case_options(profile, case))
            .unwrap_or_else(|e| panic!("load: {e}"));
        assert_eq!(config.profile(), profile);
        let builtins = if profile == "hotwire-android" { 3 } else { 0 };
        assert_eq!(config.rule_count(), config.document_rule_count() + builtins, "built-in rules");

        if is_settings {
            let settings = Json::parse(config.settings());
            let expected = case.at("expected_setting");
            match expected.at("assertion").as_str() {
                Some("size") => {
                    assert_eq!(Some(settings.members().len() as f64), expected.at("value").as_f64(), "settings size")
                }
                Some("value") => {
                    let key = expected.at("key").as_str().expect("key");
                    assert_eq!(settings.at(key), expected.at("value"), "settings[{key}]");
                }
                other => panic!("unknown assertion {other:?}"),
            }
            return;
        }

        let input = case.at("input").as_str().expect("input");
        let props = config.properties(input).unwrap_or_else(|e| panic!("properties: {e}"));
        assert_eq!(Json::parse(props.json()), *case.at("expected_properties"), "properties: got {}", props.json());
        assert_eq!(
            config.matched_string(input).unwrap(),
            case.at("matched_string").as_str().unwrap(),
            "matched string"
        );
        check_consistent(&props, input);

        // Some cases only assert that the lookup succeeds (no expected_property).
        let Some(expected) = case.get("expected_property") else { return };
        let key = expected.at("key").as_str().expect("expected_property.key");
        let typed = TypedKey::named(key).is_some();
        let value = if typed { typed_value(&props, key) } else { raw_value(&props, key) };
        assert_eq!(value, *expected.at("value"), "{} value of {key}", if typed { "typed" } else { "raw" });
        assert_eq!(raw_value(&props, key), *expected.at("raw_value"), "raw value of {key}");
    });
    assert!(settings_cases > 0 && lookup_cases > 0);
    eprintln!("android.json: {} cases passed ({lookup_cases} lookups, {settings_cases} settings)", cases.len());
}

/// The raw non-JSON bodies the loader tests use are rejected, with a position.
/// Gson's lenient reader takes a leading bare word (`Not a valid ...`,
/// `malformed-json`) for a string, and the app's adapter refuses a string where
/// the document's object should be before it reads any further: a schema error
/// at 1:1, as Gson's own first error is a type error. Any other body is a JSON
/// error.
#[test]
fn android_invalid_fixtures() {
    let doc = load_conformance("android.json");
    let invalid = doc.at("invalid_fixtures").members();
    assert!(!invalid.is_empty());
    for (name, body) in invalid {
        let body = body.as_str().expect("raw body");
        for profile in [Profile::HotwireAndroid, Profile::TurboAndroid] {
            let err = PathConfiguration::from_json(body, &Options::new().profile(profile))
                .expect_err(&format!("{name} must be rejected"));
            let bare_word = body.starts_with(|c: char| c.is_ascii_alphabetic());
            assert_eq!(err.code(), if bare_word { ErrorCode::Schema } else { ErrorCode::Json }, "{name}: {err}");
            assert!(err.to_string().contains("ignores the whole file"), "{name}: {err}");
            assert_eq!(err.line(), Some(1), "{name}: {err}");
            if bare_word {
                assert_eq!(err.column(), Some(1), "{name}: {err}");
            } else {
                assert!(err.column().is_some(), "{name}: {err}");
            }
        }
    }
}
