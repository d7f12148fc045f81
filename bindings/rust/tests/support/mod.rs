//! Test support: a small JSON reader/writer of the tests' own (independent
//! of the crate's [`pathconfig::Value`], which the differential checks hold
//! to it), the conformance files, and shared helpers.

#![allow(dead_code)]

pub mod nginx;

use std::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use pathconfig::{Options, Profile, Properties, TypedValue, Value};

/// A JSON value; objects keep their key order, numbers their text.
#[derive(Debug, Clone)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn parse(text: &str) -> Json {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value();
        p.ws();
        assert_eq!(p.i, p.s.len(), "trailing text in JSON at byte {}: {text}", p.i);
        v
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// `self[key]`, `Null` when absent.
    pub fn at(&self, key: &str) -> &Json {
        static NULL: Json = Json::Null;
        self.get(key).unwrap_or(&NULL)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> &[Json] {
        match self {
            Json::Array(a) => a,
            other => panic!("not an array: {}", other.to_json()),
        }
    }

    pub fn members(&self) -> &[(String, Json)] {
        match self {
            Json::Object(m) => m,
            other => panic!("not an object: {}", other.to_json()),
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// Compact JSON text, key order and number text kept.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::String(s) => write_string(out, s),
            Json::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, k);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Equality as JSON values: key order ignored, numbers compared by value.
impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Number(a), Json::Number(b)) => a == b || a.parse::<f64>().ok() == b.parse::<f64>().ok(),
            (Json::String(a), Json::String(b)) => a == b,
            (Json::Array(a), Json::Array(b)) => a == b,
            (Json::Object(a), Json::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.iter().any(|(k2, v2)| k == k2 && v == v2))
            }
            _ => false,
        }
    }
}

pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn expect(&mut self, b: u8) {
        self.ws();
        assert_eq!(self.s.get(self.i), Some(&b), "expected '{}' at byte {}", b as char, self.i);
        self.i += 1;
    }

    fn peek(&mut self) -> u8 {
        self.ws();
        *self.s.get(self.i).unwrap_or_else(|| panic!("unexpected end of JSON"))
    }

    fn value(&mut self) -> Json {
        match self.peek() {
            b'{' => {
                self.i += 1;
                let mut m = Vec::new();
                if self.peek() == b'}' {
                    self.i += 1;
                    return Json::Object(m);
                }
                loop {
                    self.ws();
                    let k = self.string();
                    self.expect(b':');
                    let v = self.value();
                    m.push((k, v));
                    match self.peek() {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return Json::Object(m);
                        }
                        c => panic!("unexpected '{}' at byte {}", c as char, self.i),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut a = Vec::new();
                if self.peek() == b']' {
                    self.i += 1;
                    return Json::Array(a);
                }
                loop {
                    a.push(self.value());
                    match self.peek() {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Json::Array(a);
                        }
                        c => panic!("unexpected '{}' at byte {}", c as char, self.i),
                    }
                }
            }
            b'"' => Json::String(self.string()),
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'n' => self.word("null", Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    self.i += 1;
                }
                assert!(self.i > start, "unexpected byte at {}", self.i);
                Json::Number(String::from_utf8(self.s[start..self.i].to_vec()).unwrap())
            }
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Json {
        assert!(self.s[self.i..].starts_with(w.as_bytes()), "bad literal at byte {}", self.i);
        self.i += w.len();
        v
    }

    fn string(&mut self) -> String {
        assert_eq!(self.s.get(self.i), Some(&b'"'), "expected a string at byte {}", self.i);
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let b = self.s[self.i];
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).expect("UTF-8 string"),
                b'\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    let c = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let mut code = self.hex4();
                            if (0xD800..0xDC00).contains(&code) && self.s[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                let lo = self.hex4();
                                code = 0x10000 + ((code - 0xD800) << 10) + (lo - 0xDC00);
                            }
                            char::from_u32(code).expect("valid \\u escape")
                        }
                        other => other as char,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(b),
            }
        }
    }

    fn hex4(&mut self) -> u32 {
        let h = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
        self.i += 4;
        u32::from_str_radix(h, 16).unwrap()
    }
}

/// The repository root (the crate is `<repo>/bindings/rust`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// `<repo>/Tests/Fixtures/conformance`; fails (never skips) when it is missing.
pub fn conformance_dir() -> PathBuf {
    let dir = repo_root().join("Tests/Fixtures/conformance");
    assert!(
        dir.join("ios.json").is_file() && dir.join("android.json").is_file(),
        "the conformance cases are missing: expected ios.json and android.json in {} \
         (in the repository). They are required; this test does not skip.",
        dir.display()
    );
    dir
}

pub fn load_conformance(name: &str) -> Json {
    let path = conformance_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Json::parse(&text)
}

/// `examples/path-configuration.json`.
pub fn example_config() -> PathBuf {
    repo_root().join("examples/path-configuration.json")
}

/// The profile a conformance file names.
pub fn profile(name: &str) -> Profile {
    Profile::named(name).unwrap_or_else(|| panic!("{name:?} is not a profile"))
}

/// Options for a conformance case: profile plus `options.matchQueryStrings`.
pub fn case_options(profile_name: &str, case: &Json) -> Options {
    let mut options = Options::new().profile(profile(profile_name));
    if let Some(on) = case.at("options").at("matchQueryStrings").as_bool() {
        options = options.match_query_strings(on);
    }
    options
}

/// The crate's convenience method for `key` (`props.context()`, ...), when
/// it has one: the methods are a convenience, `Properties::typed` reaches
/// every key the library lists.
pub fn convenience<'a>(props: &'a Properties, key: &str) -> Option<TypedValue<'a>> {
    Some(match key {
        "context" => TypedValue::Str(Some(props.context())),
        "presentation" => TypedValue::Str(Some(props.presentation())),
        "modal_style" => TypedValue::Str(Some(props.modal_style())),
        "query_string_presentation" => TypedValue::Str(Some(props.query_string_presentation())),
        "view_controller" => TypedValue::Str(props.view_controller()),
        "title" => TypedValue::Str(props.title()),
        "uri" => TypedValue::Str(props.uri()),
        "fallback_uri" => TypedValue::Str(props.fallback_uri()),
        "pull_to_refresh_enabled" => TypedValue::Bool(props.pull_to_refresh_enabled()),
        "modal_dismiss_gesture_enabled" => TypedValue::Bool(props.modal_dismiss_gesture_enabled()),
        "animated" => TypedValue::Bool(props.animated()),
        "historical_location" => TypedValue::Bool(props.historical_location()),
        _ => return None,
    })
}

/// A typed value read by name and, when the crate has one, through its
/// convenience method, which must agree; as JSON (`null` for no value).
/// Where the profile's app crashes reading the key ([`ErrorCode::Crash`]),
/// `{"crash": MESSAGE}`: every read by name returns the error again, and the
/// convenience method gives the key's default on Android (the only apps
/// that throw), without panicking.
///
/// [`ErrorCode::Crash`]: pathconfig::ErrorCode::Crash
pub fn typed_value(props: &Properties, key: &str) -> Json {
    let by_name = match props.typed(key) {
        Ok(value) => value,
        Err(e) if e.code() == pathconfig::ErrorCode::Crash => {
            let again = props.typed(key).expect_err("a crash is a crash every time");
            assert_eq!((again.code(), again.message()), (e.code(), e.message()), "typed({key}) again");
            assert!(e.message().starts_with(&format!("the app crashes reading \"{key}\": java.lang.")), "{e}");
            if let Some(by_method) = convenience(props, key) {
                let typed = pathconfig::TypedKey::named(key).unwrap();
                let defaults: Vec<TypedValue<'_>> = Profile::all()
                    .iter()
                    .filter(|p| p.platform() == "android")
                    .map(|&p| typed.default_value(p).unwrap())
                    .collect();
                assert!(
                    !defaults.is_empty() && defaults.iter().all(|d| *d == by_method),
                    "{key}: {by_method:?}, {defaults:?}"
                );
            }
            return Json::Object(vec![("crash".to_string(), Json::String(e.message().to_string()))]);
        }
        Err(e) => panic!("typed({key}): {e}"),
    };
    if let Some(by_method) = convenience(props, key) {
        assert_eq!(by_name, by_method, "typed({key}) vs its method");
    }
    match by_name {
        TypedValue::Bool(b) => Json::Bool(b),
        TypedValue::Str(s) => s.map_or(Json::Null, |s| Json::String(s.to_string())),
    }
}

/// A raw value as JSON (`null` when absent), via `get_json`.
pub fn raw_value(props: &Properties, key: &str) -> Json {
    props.get_json(key).unwrap_or_else(|e| panic!("get_json({key}): {e}")).map_or(Json::Null, Json::parse)
}

/// Checks that everything a `Properties` exposes agrees with its JSON text.
pub fn check_consistent(props: &Properties, context: &str) {
    let json = Json::parse(props.json());
    let members = json.members();
    assert_eq!(props.len(), members.len(), "{context}: len");
    assert_eq!(props.is_empty(), members.is_empty(), "{context}: is_empty");
    let keys: Vec<&str> = props.keys().collect();
    let expected_keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, expected_keys, "{context}: keys in order");
    let mut reversed: Vec<&str> = props.keys().rev().collect();
    reversed.reverse();
    assert_eq!(reversed, expected_keys, "{context}: keys from the back");
    for ((key, value), (k, v)) in props.iter().zip(members) {
        assert_eq!(key, k, "{context}: iter key");
        assert_eq!(&Json::parse(value), v, "{context}: iter value of {key}");
        assert!(props.contains_key(key).unwrap(), "{context}: contains_key({key})");
        // Each raw getter agrees with the JSON value or reports a type error.
        match v {
            Json::String(s) => assert_eq!(props.get_str(key).unwrap(), Some(s.as_str()), "{context}: get_str({key})"),
            Json::Bool(b) => assert_eq!(props.get_bool(key).unwrap(), Some(*b), "{context}: get_bool({key})"),
            Json::Number(n) => {
                assert_eq!(props.get_f64(key).unwrap(), n.parse::<f64>().ok(), "{context}: get_f64({key})")
            }
            _ => assert_eq!(
                props.get_str(key).unwrap_err().code(),
                pathconfig::ErrorCode::Type,
                "{context}: get_str({key}) on a non-string"
            ),
        }
    }
    assert!(!props.contains_key("\u{1}no such key\u{1}").unwrap(), "{context}: contains_key(absent)");

    // The native map (built from the C API's types and getters) and each
    // value() (parsed from get_json) hold what the JSON text holds.
    let map = props.map();
    assert_eq!(map.len(), members.len(), "{context}: map len");
    for ((key, value), (k, v)) in map.iter().zip(members) {
        assert_eq!(key, k, "{context}: map key order");
        assert_same(value, v, &format!("{context}: map()[{key}]"));
        let one = props.value(key).unwrap().unwrap_or_else(|| panic!("{context}: value({key}) absent"));
        assert_same(&one, v, &format!("{context}: value({key})"));
    }
}

/// `value` (the crate's) holds what `json` (the tests' parser's) does:
/// strings, booleans, null, arrays and objects in order, numbers as
/// integers when written so and within i64, else as the nearest f64.
pub fn assert_same(value: &Value, json: &Json, context: &str) {
    match (value, json) {
        (Value::Null, Json::Null) => {}
        (Value::Bool(a), Json::Bool(b)) => assert_eq!(a, b, "{context}"),
        (Value::String(a), Json::String(b)) => assert_eq!(a, b, "{context}"),
        (Value::Int(a), Json::Number(text)) => assert_eq!(Some(*a), text.parse::<i64>().ok(), "{context}: {text}"),
        (Value::Float(a), Json::Number(text)) => {
            assert!(text.parse::<i64>().is_err(), "{context}: {text} read as a float");
            assert_eq!(Some(*a), text.parse::<f64>().ok(), "{context}: {text}");
        }
        (Value::Array(a), Json::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{context}: array length");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert_same(x, y, &format!("{context}[{i}]"));
            }
        }
        (Value::Object(a), Json::Object(b)) => {
            // A repeated key keeps its first place and its last value.
            let mut expected: Vec<(&str, &Json)> = Vec::new();
            for (k, v) in b {
                match expected.iter_mut().find(|(ek, _)| ek == k) {
                    Some(slot) => slot.1 = v,
                    None => expected.push((k, v)),
                }
            }
            assert_eq!(a.len(), expected.len(), "{context}: object size");
            for ((ka, va), (kb, vb)) in a.iter().zip(expected) {
                assert_eq!(ka, kb, "{context}: key order");
                assert_same(va, vb, &format!("{context}.{ka}"));
            }
        }
        _ => panic!("{context}: {value:?} is not {}", json.to_json()),
    }
}

/// Runs `check` on every case, collects every failure, and fails once with all of them.
pub fn run_all(cases: &[Json], check: impl Fn(&Json)) -> usize {
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(case))) {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!(
                "case {i} ({}; input {}): {why}",
                case.at("source").to_json(),
                case.at("input").to_json()
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    cases.len()
}
