//! Every read path against the JSON text, on random configurations: random
//! rules with random values (strings with quotes, backslashes, controls and
//! non-ASCII, integers at and past the i64 range, fractions and exponents,
//! null, nested arrays and objects, the typed keys with good and bad
//! values), under every profile, looked up on random paths. For each
//! answer: the keys, `iter`, the raw getters, `value()`, the native map
//! (`map()`) and the typed accessors agree with `json()` (and with each
//! other); the documents are built as `Value`s, never as text.

mod support;

use pathconfig::{Map, Options, PathConfiguration, Profile, TypedKey, TypedKind, TypedValue, Value};
use support::{check_consistent, typed_value, Json};

/// xorshift64*: a fixed seed, so a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const PIECES: [&str; 14] =
    ["a", "Z", "é", "\"", "\\", "\n", "\u{1}", "😀", "}", "{", " ", "\u{2028}", "\", \"X-Admin\": \"true", "/"];
const KEYS: [&str; 12] = [
    "context",
    "presentation",
    "modal_style",
    "pull_to_refresh_enabled",
    "view_controller",
    "title",
    "animated",
    "flow",
    "headers",
    "n",
    "k\"ey",
    "ключ",
];
const TYPED_WORDS: [&str; 8] = ["modal", "default", "pop", "POP", "replace_root", "true", "FALSE", "page_sheet"];
const PATTERNS: [&str; 6] = ["^/a", "/b", ".*", "x$", "^/a/b", "\\d"];
const PATHS: [&str; 8] = ["/a", "/a/b", "/b/x", "/c", "/ax", "/a/b/x?q=1", "/1", "/"];

fn random_string(rng: &mut Rng) -> String {
    (0..rng.below(6)).map(|_| *rng.pick(&PIECES)).collect()
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 2 { 9 } else { 11 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => Value::Int(*rng.pick(&[0, -1, 7, i64::MAX, i64::MIN])),
        3 => Value::Float(*rng.pick(&[0.5, -2.25, 1e300, 9223372036854775808.0, 1e-7])),
        4 | 5 => Value::String(random_string(rng)),
        6..=8 => Value::from(*rng.pick(&TYPED_WORDS)),
        9 => Value::Array((0..rng.below(3)).map(|_| random_value(rng, depth + 1)).collect()),
        _ => Value::Object(
            (0..rng.below(3)).map(|_| (rng.pick(&KEYS).to_string(), random_value(rng, depth + 1))).collect(),
        ),
    }
}

fn random_document(rng: &mut Rng) -> String {
    let rules: Vec<Value> = (0..1 + rng.below(4))
        .map(|_| {
            let patterns: Vec<Value> = (0..1 + rng.below(2)).map(|_| Value::from(*rng.pick(&PATTERNS))).collect();
            let properties: Map =
                (0..rng.below(5)).map(|_| (rng.pick(&KEYS).to_string(), random_value(rng, 0))).collect();
            let rule: Map =
                [("patterns", Value::Array(patterns)), ("properties", Value::Object(properties))].into_iter().collect();
            Value::Object(rule)
        })
        .collect();
    Map::from_iter([("rules", Value::Array(rules))]).to_string()
}

#[test]
fn every_read_path_agrees_with_the_json_text() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut answers, mut loaded) = (0, 0);
    for round in 0..120 {
        let document = random_document(&mut rng);
        for &profile in Profile::all() {
            let config = match PathConfiguration::from_json(&document, &Options::new().profile(profile)) {
                Ok(config) => config,
                // The Android profiles refuse what their apps refuse (a nested
                // value under turbo-android, say): a schema error, never more.
                Err(e) => {
                    assert_eq!(e.code(), pathconfig::ErrorCode::Schema, "{profile} {document}: {e}");
                    assert_eq!(profile.platform(), "android", "{profile} {document}: {e}");
                    continue;
                }
            };
            loaded += 1;
            for path in PATHS {
                let props = config.properties(path).unwrap_or_else(|e| panic!("{profile} {path}: {e}"));
                let context = format!("round {round}, {profile}, {path}, {document}");
                check_consistent(&props, &context);
                // The native map is the JSON text, and prints as it.
                let parsed = Value::from_json(props.json()).unwrap();
                assert_eq!(parsed, Value::Object(props.map().clone()), "{context}");
                assert_eq!(Value::from_json(&props.map().to_string()).unwrap(), parsed, "{context}");
                // Typed reads: by name and through the accessors alike, an
                // enum's value one the catalog allows.
                for key in TypedKey::all() {
                    let by_name = typed_value(&props, key.name());
                    let raw = props.get_json(key.name()).unwrap();
                    let raw_is_bool = matches!(raw, Some("true" | "false"));
                    let raw_is_none = matches!(raw, None | Some("null"));
                    // Where the app crashes reading the key, read against the
                    // JSON text: only an Android app, a boolean from a value
                    // that is no JSON boolean, a string from a missing one.
                    // The bare hotwire-android (1.3.1) crashes on every such
                    // boolean, turbo-android on a missing uri.
                    let must_crash = (profile == Profile::HotwireAndroid
                        && key.kind() == TypedKind::Bool
                        && !raw_is_bool
                        && !raw_is_none)
                        || (profile == Profile::TurboAndroid && key.name() == "uri" && raw_is_none);
                    if by_name.get("crash").is_some() {
                        assert_eq!(profile.platform(), "android", "{context}: {key} crashes");
                        if key.kind() == TypedKind::Bool {
                            assert!(!raw_is_bool && !raw_is_none, "{context}: {key} crashes on {raw:?}");
                        } else {
                            assert!(raw_is_none, "{context}: {key} crashes on {raw:?}");
                        }
                        continue;
                    }
                    assert!(!must_crash, "{context}: {key} should crash the app, read {by_name:?}");
                    if key.kind() == TypedKind::Enum {
                        let allowed = key.values(profile).unwrap();
                        let Json::String(value) = &by_name else { panic!("{context}: {key} = {by_name:?}") };
                        assert!(allowed.contains(&value.as_str()), "{context}: {key} = {value:?}, not in {allowed:?}");
                    }
                    if let (TypedKind::Bool, TypedValue::Bool(b)) = (key.kind(), props.typed(key.name()).unwrap()) {
                        assert_eq!(by_name, Json::Bool(b), "{context}: {key}");
                    }
                }
                answers += 1;
            }
        }
    }
    assert!(loaded >= 120 * 3, "most configurations load: {loaded}");
    eprintln!("{answers} answers of {loaded} random configurations agree on every read path");
}
