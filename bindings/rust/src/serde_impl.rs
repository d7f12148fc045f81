//! The `serde` feature: [`Properties`], [`Value`] and [`Map`] as
//! `serde::Serialize`, and [`Properties::deserialize`] into any
//! `serde::de::DeserializeOwned` type.

use serde::de::DeserializeOwned;
use serde::ser::{Serialize, Serializer};

use crate::error::{Error, ErrorCode};
use crate::properties::Properties;
use crate::value::{Map, Value};

/// As its JSON: `Int` as `i64`, `Float` as `f64` (a serializer such as
/// serde_json writes a non-finite one as `null`, as `Display` does),
/// `Object` as a map in key order.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(n) => serializer.serialize_i64(*n),
            Value::Float(x) => serializer.serialize_f64(*x),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => serializer.collect_seq(items),
            Value::Object(map) => map.serialize(serializer),
        }
    }
}

/// A map, its members in order.
impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// The native map ([`Properties::map`], worked out once per answer): keys in
/// the order of [`json`](Properties::json), numbers as [`Value`] has them
/// (an integer within `i64` stays one; any other number is the nearest
/// `f64`). `serde_json::to_string` of it is the JSON text wherever that text
/// writes its numbers as serde_json does; [`json`](Properties::json) is the
/// text exactly as the file wrote it.
impl Serialize for Properties {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.map().serialize(serializer)
    }
}

impl Properties {
    /// The answer as a `T`: a struct of your own (`#[derive(Deserialize)]`),
    /// a `HashMap`, a `serde_json::Value`... Read by serde_json from the
    /// answer's [`json`](Self::json) text, which the library keeps exactly
    /// as the file wrote it: no number is rounded on the way (an integer
    /// past `i64` still reads as a `u64` or `i128`, `1.50` as `1.5`), and
    /// nothing is built in between. The typed keys come as the file has them
    /// (or not at all); the typed accessors ([`context`](Self::context),
    /// ...) are what apply the profile's defaults.
    ///
    /// ```
    /// use serde::de::{Deserialize, Deserializer, Error as _};
    /// use pathconfig::{Options, PathConfiguration};
    ///
    /// #[derive(Debug, PartialEq)]
    /// struct Visit {
    ///     context: String,
    ///     title: Option<String>,
    ///     retry: u32,
    /// }
    ///
    /// // What #[derive(Deserialize)] (serde's "derive" feature) writes for
    /// // you, by hand here: this crate's tests build without serde_derive.
    /// impl<'de> Deserialize<'de> for Visit {
    ///     fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Visit, D::Error> {
    ///         let answer = serde_json::Map::deserialize(deserializer)?;
    ///         let field = |key: &'static str| answer.get(key).ok_or_else(|| D::Error::missing_field(key));
    ///         Ok(Visit {
    ///             context: field("context")?.as_str().ok_or_else(|| D::Error::custom("context: not a string"))?.into(),
    ///             title: answer.get("title").and_then(|t| t.as_str()).map(String::from),
    ///             retry: u32::deserialize(field("retry")?).map_err(D::Error::custom)?,
    ///         })
    ///     }
    /// }
    ///
    /// let json = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal", "retry": 3}}]}"#;
    /// let config = PathConfiguration::from_json(json, &Options::new())?;
    /// let visit: Visit = config.properties("/messages/new")?.deserialize()?;
    /// assert_eq!(visit, Visit { context: "modal".into(), title: None, retry: 3 });
    ///
    /// // The answer of /messages has no context: a missing field.
    /// let err = config.properties("/messages")?.deserialize::<Visit>().unwrap_err();
    /// assert_eq!(err.code(), pathconfig::ErrorCode::Type);
    /// assert!(err.message().contains("missing field `context`"), "{err}");
    ///
    /// // Serialize: the answer as JSON, in its key order.
    /// let props = config.properties("/messages/new")?;
    /// assert_eq!(serde_json::to_string(&props).unwrap(), props.json());
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Type`] when the answer does not fit `T` (a missing
    /// field, a value of another type), with serde_json's message and the
    /// line and column in [`json`](Self::json) where it stopped.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let mut reader = serde_json::Deserializer::from_str(self.json());
        // serde_json stops at 128 levels; the library's answers nest up to its
        // own limit (256), so no limit of serde_json's applies.
        reader.disable_recursion_limit();
        T::deserialize(&mut reader).and_then(|value| reader.end().map(|()| value)).map_err(|e| {
            let (line, column) = (e.line(), e.column());
            // serde_json's message without its " at line L column C" (the
            // error's own line and column say where).
            let message = e.to_string();
            let message = message.strip_suffix(&format!(" at line {line} column {column}")).unwrap_or(&message);
            let code = if e.is_data() { ErrorCode::Type } else { ErrorCode::Json };
            Error::new(code, message).at(line, column)
        })
    }
}
