//! [`Value`] and [`Map`]: property values as Rust values (what
//! `serde_json::Value` would be, without the dependency: the crate builds
//! offline, from std alone).
//!
//! A result's top-level values come from the C API's typed getters
//! (`pathconfig_result_type` says which); only arrays and objects are read
//! from their JSON text, with the small parser below.

use std::fmt;
use std::ops::Index;

use crate::error::{Error, ErrorCode};
use crate::json;

/// A JSON value, typed: what [`Properties::value`](crate::Properties::value)
/// and [`Properties::map`](crate::Properties::map) give.
///
/// Numbers are [`Int`](Value::Int) when written without fraction or exponent
/// and within `i64` (`PATHCONFIG_TYPE_INT`), else [`Float`](Value::Float).
/// Objects keep their key order ([`Map`]). `Display` writes compact JSON.
///
/// ```
/// use pathconfig::{Map, Value};
///
/// let value = Value::from_json(r#"{"retry": 3, "ratio": 1.5, "tags": ["a", null], "on": true}"#)?;
/// assert_eq!(value["retry"], Value::Int(3));
/// assert_eq!(value["ratio"].as_f64(), Some(1.5));
/// assert_eq!(value["tags"][0].as_str(), Some("a"));
/// assert!(value["tags"][1].is_null());
/// assert_eq!(value.to_string(), r#"{"retry":3,"ratio":1.5,"tags":["a",null],"on":true}"#);
///
/// let mut map = Map::new();
/// map.insert("token", "abc\", \"X-Admin\": \"true");
/// assert_eq!(Value::from(map).to_string(), r#"{"token":"abc\", \"X-Admin\": \"true"}"#);
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number written without fraction or exponent that fits in `i64`.
    Int(i64),
    /// Any other number, as the nearest `f64`.
    Float(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in order.
    Object(Map),
}

static NULL: Value = Value::Null;

impl Value {
    /// Parses JSON text (one value, surrounding whitespace allowed).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Json`] with the line and column (in characters) of the
    /// first thing that is not JSON.
    pub fn from_json(text: &str) -> Result<Value, Error> {
        let mut parser = Parser { text, at: 0, depth: 0 };
        parser.space();
        let value = parser.value()?;
        parser.space();
        if parser.at != text.len() {
            return Err(parser.error("trailing characters after the JSON value"));
        }
        Ok(value)
    }

    /// Compact JSON text (`Display` writes the same).
    pub fn to_json(&self) -> String {
        self.to_string()
    }

    /// True for [`Value::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is an [`Int`](Value::Int).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// Any number as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(n) => Some(*n as f64),
            Value::Float(x) => Some(*x),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member `key` of an object; `None` for a missing key or another type.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|m| m.get(key))
    }
}

/// `value["key"]`: the member, or `Null` when missing or not an object.
impl Index<&str> for Value {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

/// `value[i]`: the element, or `Null` when out of range or not an array.
impl Index<usize> for Value {
    type Output = Value;

    fn index(&self, i: usize) -> &Value {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_value(&mut out, self);
        f.write_str(&out)
    }
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => out.push_str(&n.to_string()),
        // Debug keeps a fraction or exponent ("1.0", "1e300"): valid JSON.
        Value::Float(x) if x.is_finite() => out.push_str(&format!("{x:?}")),
        Value::Float(_) => out.push_str("null"),
        Value::String(s) => json::write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json::write_string(out, key);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<i32> for Value {
    fn from(n: i32) -> Value {
        Value::Int(n.into())
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Float(x)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

/// The members of a JSON object in their order: what
/// [`Properties::map`](crate::Properties::map) gives (the properties'
/// key order is the order of the rules that set them). Looking a key up is
/// a linear scan, which beats hashing for the few keys properties have;
/// collect into a `HashMap` or `BTreeMap` for many.
///
/// ```
/// use std::collections::HashMap;
/// use pathconfig::{Map, Value};
///
/// let map: Map = [("b", Value::Int(1)), ("a", Value::Bool(true))].into_iter().collect();
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(map["a"], Value::Bool(true));
/// let hashed: HashMap<String, Value> = map.into_iter().collect();
/// assert_eq!(hashed["b"], Value::Int(1));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Map {
    entries: Vec<(String, Value)>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Map {
        Map { entries: Vec::with_capacity(n) }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there is no member.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` is a member (with any value, `null` included).
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` to `value`: in its place when it is a member, last
    /// otherwise; the previous value.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) -> Option<Value> {
        let key = key.into();
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, slot)) => Some(std::mem::replace(slot, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// Removes `key`, keeping the order of the others; its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.remove(at).1)
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// `(key, value)` pairs, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&str, &Value)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }
}

impl Index<&str> for Map {
    type Output = Value;

    /// The value of `key`, `Null` when it is missing.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Map {
        let mut map = Map::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::from("{");
        for (i, (key, value)) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::write_string(&mut out, key);
            out.push(':');
            write_value(&mut out, value);
        }
        out.push('}');
        f.write_str(&out)
    }
}

impl Map {
    /// Adds a member read from the C API (keys are unique there).
    pub(crate) fn push(&mut self, key: String, value: Value) {
        self.entries.push((key, value));
    }
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

/// The deepest nesting parsed (the library's documents are shallower).
const MAX_DEPTH: usize = 512;

struct Parser<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        let before = &self.text[..self.at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        Error::new(ErrorCode::Json, what.to_string()).at(line, column)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("invalid literal"))
        }
    }

    fn value(&mut self) -> Result<Value, Error> {
        match self.peek() {
            Some(b'n') => self.literal("null", Value::Null),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'[') => self.nested(|p| p.array()),
            Some(b'{') => self.nested(|p| p.object()),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of JSON text")),
        }
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<Value, Error>) -> Result<Value, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("JSON nested too deeply"));
        }
        let value = f(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Result<Value, Error> {
        self.at += 1; // '['
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.space();
            items.push(self.value()?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self) -> Result<Value, Error> {
        self.at += 1; // '{'
        let mut map = Map::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key"));
            }
            let key = self.string()?;
            self.space();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':'"));
            }
            self.at += 1;
            self.space();
            let value = self.value()?;
            // A repeated key keeps its first place and its last value.
            map.insert(key, value);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(map));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn number(&mut self) -> Result<Value, Error> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                p.at += 1;
            }
            p.at > from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let int_start = self.at;
        if !digits(self) || (bytes[int_start] == b'0' && self.at - int_start > 1) {
            return Err(self.error("invalid number"));
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            integral = false;
            if !digits(self) {
                return Err(self.error("invalid number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            integral = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !digits(self) {
                return Err(self.error("invalid number"));
            }
        }
        let text = &self.text[start..self.at];
        if integral {
            if let Ok(n) = text.parse::<i64>() {
                return Ok(Value::Int(n));
            }
        }
        text.parse::<f64>().map(Value::Float).map_err(|_| self.error("invalid number"))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let hex = self.text.get(self.at..self.at + 4).ok_or_else(|| self.error("invalid \\u escape"))?;
        let n = u32::from_str_radix(hex, 16).map_err(|_| self.error("invalid \\u escape"))?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.error("invalid \\u escape"));
        }
        self.at += 4;
        Ok(n)
    }

    fn string(&mut self) -> Result<String, Error> {
        self.at += 1; // '"'
        let mut out = String::new();
        loop {
            let rest = &self.text[self.at..];
            let run = rest.find(|c: char| c == '"' || c == '\\' || c < ' ').unwrap_or(rest.len());
            out.push_str(&rest[..run]);
            self.at += run;
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escape = self.peek().ok_or_else(|| self.error("unexpected end of JSON text"))?;
                    self.at += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{08}'),
                        b'f' => out.push('\u{0c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) && self.text[self.at..].starts_with("\\u") {
                                let save = self.at;
                                self.at += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                } else {
                                    self.at = save;
                                    0xFFFD
                                }
                            } else {
                                hi
                            };
                            // A lone surrogate cannot be a Rust char: U+FFFD.
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_back() {
        for text in [
            "null",
            "true",
            "[]",
            "{}",
            r#"{"a":[1,-2,3.5,1e3,"x\"\\\n\u0001"],"b":{"c":null}}"#,
            "9223372036854775807",
            "\"é\\u2028\"",
        ] {
            let value = Value::from_json(text).unwrap();
            assert_eq!(Value::from_json(&value.to_json()).unwrap(), value, "{text}");
        }
        assert_eq!(Value::from_json("9223372036854775808").unwrap(), Value::Float(9223372036854775808.0));
        assert_eq!(Value::from_json("-0").unwrap(), Value::Int(0));
        assert_eq!(Value::from_json("2.50").unwrap(), Value::Float(2.5));
        assert_eq!(Value::from_json(r#""\ud83d\ude00""#).unwrap(), Value::String("😀".into()));
        assert_eq!(Value::from_json(r#""\ud800""#).unwrap(), Value::String("\u{fffd}".into()));
        assert_eq!(Value::from_json(" [ 1 , {\"k\" : false} ] ").unwrap().to_json(), r#"[1,{"k":false}]"#);
    }

    #[test]
    fn errors_say_where() {
        let err = Value::from_json("{\"a\":\n  tru}").unwrap_err();
        assert_eq!((err.code(), err.line(), err.column()), (ErrorCode::Json, Some(2), Some(3)));
        for bad in ["", "01", "1.", "[1,]", "{\"a\" 1}", "\"a", "\"\\x\"", "nul", "[1] 2", "\"\u{1}\""] {
            assert_eq!(Value::from_json(bad).unwrap_err().code(), ErrorCode::Json, "{bad:?}");
        }
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert!(Value::from_json(&deep).unwrap_err().message().contains("deeply"));
    }

    #[test]
    fn maps_keep_order() {
        let mut map = Map::new();
        assert_eq!(map.insert("b", 1), None);
        map.insert("a", true);
        assert_eq!(map.insert("b", "two"), Some(Value::Int(1)));
        assert_eq!(map.to_string(), r#"{"b":"two","a":true}"#);
        assert_eq!(map.remove("b"), Some(Value::String("two".into())));
        assert_eq!(map.keys().collect::<Vec<_>>(), ["a"]);
        assert!(map["missing"].is_null());
        assert_eq!(Value::Float(f64::NAN).to_json(), "null");
        assert_eq!(Value::Float(1.0).to_json(), "1.0");
    }
}
