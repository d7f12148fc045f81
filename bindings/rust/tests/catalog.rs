//! What the library lists about itself, reached through the crate.
//!
//! Every test walks the library's own lists (never a copy), so a profile,
//! backend, typed key or warning kind added to the library is tested here
//! without an edit, and fails here when the crate does not pass it through.

mod support;

use std::ffi::CStr;

use pathconfig::{sys, ErrorCode, Options, PathConfiguration, Profile, TypedKey, TypedKind, TypedValue, WarningKind};
use support::{convenience, Json};

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
            assert_eq!(props.typed(key.name()).unwrap(), default, "{profile} {key}");
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
                TypedValue::Bool(b) => vec![((!b).to_string(), TypedValue::Bool(!b))],
                TypedValue::Str(_) if key.kind() == TypedKind::Enum => key
                    .values(profile)
                    .unwrap()
                    .into_iter()
                    .map(|v| (format!("\"{v}\""), TypedValue::Str(Some(v))))
                    .collect(),
                TypedValue::Str(_) => vec![("\"some text\"".to_string(), TypedValue::Str(Some("some text")))],
            };
            for (json_value, expected) in written {
                let doc = format!(r#"{{"rules": [{{"patterns": [".*"], "properties": {{"{key}": {json_value}}}}}]}}"#);
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
    let e = TypedKey::all()[0].values("ios").unwrap_err();
    assert_eq!(e.code(), ErrorCode::Argument, "a platform is not a profile: {e}");
    assert!(TypedKey::all()[0].default_value("nope").is_err());
    assert_eq!(TypedKey::named("colour"), None);
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
    let json = Json::parse(&config.warnings_json().unwrap());
    assert_eq!(json.as_array().len(), warnings.len());
    for (w, j) in warnings.iter().zip(json.as_array()) {
        let number = |key: &str| j.at(key).as_f64();
        assert_eq!(Some(w.kind.as_str()), j.at("kind").as_str());
        assert_eq!(Some(w.message.as_str()), j.at("message").as_str());
        assert_eq!(w.line.map(f64::from), number("line"));
        assert_eq!(w.column.map(f64::from), number("column"));
        assert_eq!(w.rule_index.map(|n| n as f64), number("rule_index"));
        assert_eq!(w.pattern_index.map(|n| n as f64), number("pattern_index"));
    }
    assert!(PathConfiguration::from_json(RULES, &Options::new()).unwrap().warnings().unwrap().is_empty());
}
