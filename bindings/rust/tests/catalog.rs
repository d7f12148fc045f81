//! What the library lists about itself, reached through the crate.
//!
//! Every test walks the library's own lists (never a copy), so a profile,
//! backend, typed key or warning kind added to the library is tested here
//! without an edit, and fails here when the crate does not pass it through.

mod support;

use std::ffi::CStr;

use pathconfig::{
    sys, ErrorCode, Map, Options, PathConfiguration, Profile, TypedKey, TypedKind, TypedValue, Value, WarningKind,
};
use support::convenience;

const RULES: &str = r#"{"rules": []}"#;

/// `pathconfig_warning_kind_name(1)`, `(2)`, ... until the library has no more.
fn library_warning_kinds() -> Vec<(i32, &'static str)> {
    let mut kinds = Vec::new();
    for kind in 1.. {
        // SAFETY: any number may be passed; the result is NULL or static.
        let p = unsafe { sys::pathconfig_warning_kind_name(kind) };
        if p.is_null() {
            break;
        }
        // SAFETY: a static NUL-terminated string.
        kinds.push((kind, unsafe { CStr::from_ptr(p) }.to_str().unwrap()));
    }
    kinds
}

#[test]
fn the_lists_are_the_librarys() {
    // SAFETY: no arguments.
    let (profiles, backends, keys) = unsafe {
        (sys::pathconfig_profile_count(), sys::pathconfig_backend_count(), sys::pathconfig_typed_key_count())
    };
    assert_eq!((Profile::all().len(), pathconfig::backends().len(), TypedKey::all().len()), (profiles, backends, keys));
    assert!(profiles > 0 && backends > 0 && keys > 0);
    for p in Profile::all() {
        assert!(["ios", "android"].contains(&p.platform()), "{p}: {}", p.platform());
    }
    assert_eq!(pathconfig::backends()[0], "pcre2", "the default first");
    assert_eq!(Profile::default().name(), Profile::all()[0].name());
}

/// The Profile enum is the library's catalog exactly: the same names, in the
/// same order (the default first), each parsing back to its variant.
#[test]
fn the_profile_enum_is_the_catalog() {
    let names: Vec<&str> = Profile::all().iter().map(|p| p.name()).collect();
    assert_eq!(names, pathconfig::profile_names());
    for &profile in Profile::all() {
        assert_eq!(profile.name().parse::<Profile>().unwrap(), profile);
        assert_eq!(profile.to_string(), profile.name());
    }
}

#[test]
fn every_profile_and_backend_loads() {
    for &profile in Profile::all() {
        let config = PathConfiguration::from_json(RULES, &Options::new().profile(profile)).unwrap();
        assert_eq!(config.profile(), profile);
    }
    assert_eq!(PathConfiguration::from_json(RULES, &Options::new()).unwrap().profile(), Profile::default());
    for backend in pathconfig::backends() {
        let json = r#"{"rules": [{"patterns": ["^/a"], "properties": {"k": 1}}]}"#;
        let config = PathConfiguration::from_json(json, &Options::new().backend(backend)).unwrap();
        assert_eq!(config.properties("/a").unwrap().get_i64("k").unwrap(), Some(1), "{backend}");
    }
}

#[test]
fn every_typed_key_gives_its_default_under_every_profile() {
    for &profile in Profile::all() {
        let config = PathConfiguration::from_json(RULES, &Options::new().profile(profile)).unwrap();
        let props = config.properties("/nothing").unwrap();
        for &key in TypedKey::all() {
            assert!(!matches!(key.kind(), TypedKind::Unknown(_)), "{key}: a kind this crate does not know");
            let default = key.default_value(profile).unwrap();
            if (profile, key.name()) == (Profile::TurboAndroid, "uri") {
                // turbo-android reads a missing uri with Uri.parse(null): the
                // app crashes (docs/app-versions.md); the accessor gives the default.
                let e = props.typed(key.name()).unwrap_err();
                assert_eq!(e.code(), ErrorCode::Crash, "{profile} {key}: {e}");
                assert!(e.message().contains("java.lang.NullPointerException"), "{e}");
                assert_eq!(props.typed_str(key.name()).unwrap_err().code(), ErrorCode::Crash);
            } else {
                assert_eq!(props.typed(key.name()).unwrap(), default, "{profile} {key}");
            }
            if let Some(by_method) = convenience(&props, key.name()) {
                assert_eq!(by_method, default, "{profile} {key}: its convenience method");
            }
            let values = key.values(profile).unwrap();
            match (key.kind(), default) {
                (TypedKind::Enum, TypedValue::Str(Some(d))) => assert!(values.contains(&d), "{key}: {d} in {values:?}"),
                (TypedKind::Bool, TypedValue::Bool(_)) | (TypedKind::String, TypedValue::Str(_)) => {
                    assert!(values.is_empty(), "{key}: values only for enums")
                }
                other => panic!("{profile} {key}: kind and default disagree: {other:?}"),
            }
        }
    }
}

#[test]
fn every_typed_value_reads_back() {
    for &profile in Profile::all() {
        for &key in TypedKey::all() {
            let written: Vec<(String, TypedValue<'_>)> = match key.default_value(profile).unwrap() {
                TypedValue::Bool(b) => vec![(Value::Bool(!b).to_json(), TypedValue::Bool(!b))],
                TypedValue::Str(_) if key.kind() == TypedKind::Enum => key
                    .values(profile)
                    .unwrap()
                    .into_iter()
                    .map(|v| (Value::from(v).to_json(), TypedValue::Str(Some(v))))
                    .collect(),
                TypedValue::Str(_) => vec![(Value::from("some text").to_json(), TypedValue::Str(Some("some text")))],
            };
            for (json_value, expected) in written {
                let value = Value::from_json(&json_value).unwrap();
                let rule: Map = [
                    ("patterns", Value::Array(vec![".*".into()])),
                    ("properties", Map::from_iter([(key.name(), value)]).into()),
                ]
                .into_iter()
                .collect();
                let doc = Map::from_iter([("rules", Value::Array(vec![rule.into()]))]).to_string();
                let config = PathConfiguration::from_json(&doc, &Options::new().profile(profile)).unwrap();
                let props = config.properties("/x").unwrap();
                assert_eq!(props.typed(key.name()).unwrap(), expected, "{profile} {key} = {json_value}");
                if let Some(by_method) = convenience(&props, key.name()) {
                    assert_eq!(by_method, expected, "{profile} {key}: its convenience method");
                }
            }
        }
    }
}

#[test]
fn unknown_names_are_the_librarys_errors() {
    let config = PathConfiguration::from_json(RULES, &Options::new()).unwrap();
    let props = config.properties("/").unwrap();
    let e = props.typed("colour").unwrap_err();
    assert_eq!(e.code(), ErrorCode::Argument);
    for key in TypedKey::all() {
        assert!(e.message().contains(key.name()), "the library's message lists {key}: {e}");
    }
    let e = "ios".parse::<Profile>().unwrap_err();
    assert_eq!(e.code(), ErrorCode::Options, "a platform is not a profile: {e}");
    assert!(e.message().contains("hotwire-ios"), "{e}");
    assert_eq!(TypedKey::named("colour"), None);
    // The key numbers are the header's PATHCONFIG_KEY_* constants.
    assert_eq!(TypedKey::named("context").unwrap().raw(), sys::PATHCONFIG_KEY_CONTEXT);
    assert_eq!(TypedKey::named("historical_location").unwrap().raw(), sys::PATHCONFIG_KEY_HISTORICAL_LOCATION);
    for (i, key) in TypedKey::all().iter().enumerate() {
        assert_eq!(key.raw() as usize, i);
    }
}

#[test]
fn every_warning_kind_reaches_rust() {
    let kinds = library_warning_kinds();
    assert!(!kinds.is_empty());
    for &(raw, name) in &kinds {
        let kind = WarningKind::from_raw(raw);
        assert!(!matches!(kind, WarningKind::Unknown(_)), "warning kind {raw} ({name}) has no WarningKind variant");
        assert_eq!((kind.raw(), kind.as_str()), (raw, name));
    }
    let past = kinds.len() as i32 + 1;
    assert_eq!(WarningKind::from_raw(past), WarningKind::Unknown(past));
    assert_eq!(WarningKind::Unknown(past).as_str(), "unknown");

    // One of each kind, read through the structs, agreeing with the JSON form.
    let doc = "{\"settings\": [1],\n \"rules\": [{\"patterns\": [\"([\", \"^/a\"], \"properties\": {\"k\": 1, \"k\": 2}},\n                {\"globs\": [\"/b/*\"], \"properties\": {}}]}";
    let config = PathConfiguration::from_json(doc, &Options::new().lenient(true)).unwrap();
    let warnings = config.warnings().unwrap();
    let mut seen: Vec<i32> = warnings.iter().map(|w| w.kind.raw()).collect();
    seen.sort_unstable();
    assert_eq!(seen, kinds.iter().map(|&(raw, _)| raw).collect::<Vec<_>>(), "{warnings:?}");
    let skipped = warnings.iter().find(|w| w.kind == WarningKind::SkippedPattern).unwrap();
    assert_eq!((skipped.rule_index, skipped.pattern_index, skipped.line), (Some(0), Some(0), Some(2)), "{skipped}");
    assert!(skipped.to_string().starts_with("2:"), "{skipped}");
    let duplicate = warnings.iter().find(|w| w.kind == WarningKind::DuplicateKey).unwrap();
    assert!(duplicate.message.contains('k'), "{duplicate}");
    assert!(PathConfiguration::from_json(RULES, &Options::new()).unwrap().warnings().unwrap().is_empty());
}
