//! [`Value`] and [`Map`]: property values as Rust values (what
//! `serde_json::Value` would be, keeping the keys' order with std alone:
//! why, measured, in the crate's docs, "Why its own Value").
//!
//! A result's top-level values come from the C API's typed getters
//! (`pathconfig_result_type` says which); only arrays and objects are read
//! from their JSON text. This file holds the value type (accessors,
//! indexing, compact JSON writing, conversions); `map.rs` the ordered
//! [`Map`] of an object; `parse.rs` the small JSON parser behind
//! [`Value::from_json`].

use std::fmt;
use std::ops::Index;

use crate::error::Error;
use crate::json;

mod map;
mod parse;

pub use map::Map;

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
    /// [`ErrorCode::Json`](crate::ErrorCode::Json) with the line and column (in characters) of the
    /// first thing that is not JSON.
    pub fn from_json(text: &str) -> Result<Value, Error> {
        parse::parse(text)
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
