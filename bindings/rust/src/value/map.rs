//! [`Map`]: the members of a JSON object in their order.

use std::fmt;
use std::ops::Index;

use super::{write_value, Value, NULL};
use crate::json;

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

#[cfg(test)]
mod tests {
    use super::*;

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
