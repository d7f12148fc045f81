//! The `serde` feature (`cargo test --features serde`; `make test` runs
//! this file so): Properties, Value and Map serialize as the JSON text the
//! library gives, key order and numbers kept, and Properties::deserialize
//! reads answers into the host's own types.
#![cfg(feature = "serde")]

use std::collections::{BTreeMap, HashMap};

use pathconfig::{ErrorCode, Map, Options, PathConfiguration, Profile, Value};
use serde::de::{Deserialize, Deserializer, Error as _};

/// Rules of which two match /a/b, so that answer's keys come from both, in
/// rule order (not sorted), and one gives /c U+2028 and U+2029: strings that need escapes, non-ASCII, integers
/// at the i64 limits, fractions and exponents as serde_json writes them,
/// null, booleans, nested arrays and objects.
fn config() -> PathConfiguration {
    let properties: Map = [
        ("zeta", Value::from("quote \" backslash \\ newline \n tab \t control \u{1} \u{7f} é 😀 </script>")),
        ("context", Value::from("modal")),
        ("max", Value::Int(i64::MAX)),
        ("min", Value::Int(i64::MIN)),
        ("ratio", Value::Float(-2.25)),
        ("tiny", Value::Float(1e-7)),
        ("huge", Value::Float(1e300)),
        ("whole", Value::Float(3.0)),
        ("none", Value::Null),
        ("on", Value::Bool(true)),
        (
            "list",
            Value::Array(vec![Value::Int(1), Value::from("two"), Value::Array(vec![]), Value::Object(Map::new())]),
        ),
        ("headers", Value::Object([("X-B", "1"), ("X-A", "2")].into_iter().collect())),
    ]
    .into_iter()
    .collect();
    let later: Map = [("b_key", Value::Int(0)), ("a_key", Value::Bool(false))].into_iter().collect();
    let separators: Map = [("separators", Value::from("\u{2028}\u{2029}"))].into_iter().collect();
    let rule = |pattern: &str, properties: Map| -> Value {
        Value::Object(
            [("patterns", Value::Array(vec![pattern.into()])), ("properties", Value::Object(properties))]
                .into_iter()
                .collect(),
        )
    };
    let rules = vec![rule("^/a", properties), rule("/b$", later), rule("^/c", separators)];
    let document = Map::from_iter([("rules", Value::Array(rules))]).to_string();
    PathConfiguration::from_json(&document, &Options::new().profile(Profile::HotwireIos))
        .expect("the configuration loads")
}

/// U+2028 and U+2029 as serde_json writes them: unescaped (the library and
/// `Value`'s `Display` may escape them, for JavaScript); the one difference.
fn as_serde_json_writes(json: &str) -> String {
    json.replace("\\u2028", "\u{2028}").replace("\\u2029", "\u{2029}")
}

#[test]
fn serialized_properties_are_the_json_text() {
    let config = config();
    for path in ["/a/b", "/a", "/b", "/c", "/d"] {
        let props = config.properties(path).unwrap();
        let serialized = serde_json::to_string(&props).unwrap();
        assert_eq!(serialized, as_serde_json_writes(props.json()), "{path}");
        // The same through serde_json's own model (which sorts keys: the
        // order is checked by the text above).
        let as_value = serde_json::to_value(&props).unwrap();
        assert_eq!(as_value, serde_json::from_str::<serde_json::Value>(props.json()).unwrap(), "{path}");
        // Value and Map serialize as they print.
        assert_eq!(
            serde_json::to_string(props.map()).unwrap(),
            as_serde_json_writes(&props.map().to_string()),
            "{path}"
        );
        let value = Value::Object(props.map().clone());
        assert_eq!(serde_json::to_string(&value).unwrap(), as_serde_json_writes(&value.to_string()), "{path}");
    }
}

#[test]
fn serialization_keeps_key_order_and_number_types() {
    let props = config().properties("/a/b").unwrap();
    let text = serde_json::to_string(&props).unwrap();
    let order: Vec<&str> = props.keys().collect();
    assert_eq!(&order[..2], ["zeta", "context"]);
    assert_eq!(&order[order.len() - 2..], ["b_key", "a_key"]);
    let positions: Vec<usize> = order.iter().map(|k| text.find(&format!("\"{k}\":")).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert!(text.contains(r#""headers":{"X-B":"1","X-A":"2"}"#), "{text}");
    // Integers stay integers (not 3.0), floats floats.
    let value = serde_json::to_value(&props).unwrap();
    assert_eq!(value["max"].as_i64(), Some(i64::MAX));
    assert_eq!(value["min"].as_i64(), Some(i64::MIN));
    assert_eq!(value["b_key"], serde_json::json!(0));
    assert!(value["b_key"].is_i64() && value["whole"].is_f64() && value["ratio"].is_f64());
    assert_eq!(serde_json::to_string(&Value::Float(f64::NAN)).unwrap(), "null");
}

#[test]
fn deserialize_reads_the_numbers_the_file_wrote() {
    // Past i64 and with a trailing zero: Value holds the first as the nearest
    // f64; deserialize reads the text, exactly.
    let json =
        r#"{"rules": [{"patterns": [".*"], "properties": {"big": 18446744073709551615, "ratio": 1.50, "n": -7}}]}"#;
    let props = PathConfiguration::from_json(json, &Options::new()).unwrap().properties("/").unwrap();
    assert_eq!(props.json(), r#"{"big":18446744073709551615,"ratio":1.50,"n":-7}"#);
    let numbers: BTreeMap<String, serde_json::Number> = props.deserialize().unwrap();
    assert_eq!(numbers["big"].as_u64(), Some(u64::MAX));
    assert_eq!(numbers["ratio"].as_f64(), Some(1.5));
    assert_eq!(numbers["n"].as_i64(), Some(-7));
    assert_eq!(props.map()["big"], Value::Float(18446744073709551615.0));
    let as_f64: HashMap<String, f64> = props.deserialize().unwrap();
    assert_eq!(as_f64["ratio"], 1.5);
    // A number that does not fit: a type error saying so.
    let err = props.deserialize::<HashMap<String, i64>>().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Type, "{err}");
    assert!(err.message().contains("18446744073709551615"), "{err}");
    assert_eq!(err.line(), Some(1));
    assert!(!err.message().contains(" at line "), "the position is the error's own: {err:?}");
}

/// An app's view of an answer, as `#[derive(Deserialize)]` would read it:
/// `title` optional, the rest required.
#[derive(Debug, PartialEq)]
struct Visit {
    context: String,
    title: Option<String>,
    pull_to_refresh_enabled: bool,
    headers: BTreeMap<String, String>,
}

impl<'de> Deserialize<'de> for Visit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Visit, D::Error> {
        let mut answer = serde_json::Map::deserialize(deserializer)?;
        let mut field = |key: &'static str| answer.remove(key).ok_or_else(|| D::Error::missing_field(key));
        let context = String::deserialize(field("context")?).map_err(D::Error::custom)?;
        let pull = bool::deserialize(field("pull_to_refresh_enabled")?).map_err(D::Error::custom)?;
        let headers = BTreeMap::deserialize(field("headers")?).map_err(D::Error::custom)?;
        let title = answer.remove("title").map(Option::<String>::deserialize).transpose().map_err(D::Error::custom)?;
        Ok(Visit { context, title: title.flatten(), pull_to_refresh_enabled: pull, headers })
    }
}

#[test]
fn deserialize_into_a_struct_of_the_host() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/path-configuration.json");
    let json = r#"{"rules": [
        {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true, "headers": {}}},
        {"patterns": ["/new$"], "properties": {"context": "modal", "pull_to_refresh_enabled": false,
                                               "headers": {"Authorization": "Bearer abc\", \"X-Admin\": \"true"}}},
        {"patterns": ["/42$"], "properties": {"title": "Message"}}]}"#;
    let config = PathConfiguration::from_json(json, &Options::new()).unwrap();
    let visit: Visit = config.properties("/messages/new").unwrap().deserialize().unwrap();
    let headers = BTreeMap::from([("Authorization".to_string(), "Bearer abc\", \"X-Admin\": \"true".to_string())]);
    assert_eq!(visit, Visit { context: "modal".into(), title: None, pull_to_refresh_enabled: false, headers });
    let visit: Visit = config.properties("/messages/42").unwrap().deserialize().unwrap();
    assert_eq!((visit.context.as_str(), visit.title.as_deref()), ("default", Some("Message")));
    // The fields agree with the typed accessors where the file has the key.
    let props = config.properties("/messages/new").unwrap();
    let visit: Visit = props.deserialize().unwrap();
    assert_eq!(
        (visit.context.as_str(), visit.pull_to_refresh_enabled),
        (props.context(), props.pull_to_refresh_enabled())
    );

    // The example file's answers have no headers: a missing field, as a type error.
    let example = PathConfiguration::from_file(file, &Options::new()).unwrap();
    let err = example.properties("https://example.com/messages/new").unwrap().deserialize::<Visit>().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Type);
    assert_eq!(err.message(), "missing field `headers`");
    // A value of another type.
    let bad = r#"{"rules": [{"patterns": [".*"], "properties": {"context": 1, "pull_to_refresh_enabled": true, "headers": {}}}]}"#;
    let err =
        PathConfiguration::from_json(bad, &Options::new()).unwrap().properties("/").unwrap().deserialize::<Visit>();
    assert_eq!(err.unwrap_err().code(), ErrorCode::Type);
    // Any DeserializeOwned type, serde_json's own included.
    let any: serde_json::Value = props.deserialize().unwrap();
    assert_eq!(any["headers"]["Authorization"], "Bearer abc\", \"X-Admin\": \"true");
}

/// An answer nests as deep as the library reads documents (256 levels):
/// past serde_json's own limit of 128, which deserialize lifts.
#[test]
fn deserialize_reads_answers_as_deep_as_the_library_nests_them() {
    let depth = 250;
    let json = format!(
        r#"{{"rules": [{{"patterns": [".*"], "properties": {{"x": {}1{}}}}}]}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let props = PathConfiguration::from_json(&json, &Options::new()).unwrap().properties("/a").unwrap();
    let answer: serde_json::Value = props.deserialize().unwrap();
    let mut value = &answer["x"];
    for _ in 0..depth {
        value = &value[0];
    }
    assert_eq!(value, 1);
    assert_eq!(serde_json::to_string(&props).unwrap(), props.json());
}
