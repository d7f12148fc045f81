//! [`Warning`]: what a load noticed but accepted (`pathconfig_warnings`).

use std::fmt;

use crate::error::{Error, ErrorCode};
use crate::json::{self, Value};

/// What kind of thing a [`Warning`] is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// `"duplicate-key"`: a key repeated in one object; the first value is kept.
    DuplicateKey,
    /// `"skipped-pattern"`: an invalid pattern skipped by a
    /// [lenient](crate::Options::lenient) load.
    SkippedPattern,
    /// `"ignored-settings"`: a `settings` that is not an object.
    IgnoredSettings,
    /// A kind this crate does not know yet (from a newer library), as named.
    Other(String),
}

impl WarningKind {
    fn from_name(name: &str) -> WarningKind {
        match name {
            "duplicate-key" => WarningKind::DuplicateKey,
            "skipped-pattern" => WarningKind::SkippedPattern,
            "ignored-settings" => WarningKind::IgnoredSettings,
            other => WarningKind::Other(other.to_string()),
        }
    }

    /// The library's name for the kind, e.g. `"duplicate-key"`.
    pub fn as_str(&self) -> &str {
        match self {
            WarningKind::DuplicateKey => "duplicate-key",
            WarningKind::SkippedPattern => "skipped-pattern",
            WarningKind::IgnoredSettings => "ignored-settings",
            WarningKind::Other(name) => name,
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One warning of a load, parsed from the library's JSON
/// ([`PathConfiguration::warnings`](crate::PathConfiguration::warnings)).
///
/// `Display` prints `LINE:COLUMN: MESSAGE` when there is a position.
///
/// ```
/// use pathconfig::{Options, PathConfiguration, WarningKind};
///
/// let json = r#"{"rules": [{"patterns": ["(["], "properties": {}}]}"#;
/// let config = PathConfiguration::from_json(json, &Options::new().lenient(true))?;
/// let warnings = config.warnings()?;
/// assert_eq!(warnings[0].kind, WarningKind::SkippedPattern);
/// assert_eq!((warnings[0].rule_index, warnings[0].pattern_index), (Some(0), Some(0)));
/// # Ok::<(), pathconfig::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// What it is about.
    pub kind: WarningKind,
    /// Human readable, without the position.
    pub message: String,
    /// 1-based line in the document, when known.
    pub line: Option<u32>,
    /// 1-based column in the document (Unicode scalars), when known.
    pub column: Option<u32>,
    /// 0-based index of the rule concerned, when any.
    pub rule_index: Option<usize>,
    /// 0-based index of the pattern within that rule, when any.
    pub pattern_index: Option<usize>,
}

impl Warning {
    /// Parses the array `pathconfig_warnings` returns.
    pub(crate) fn parse_list(text: &str) -> Result<Vec<Warning>, Error> {
        let bad = |why: String| {
            Error::new(ErrorCode::Internal, format!("pathconfig_warnings returned unexpected JSON ({why}): {text}"))
        };
        let Value::Array(items) = json::parse(text).map_err(bad)? else {
            return Err(bad("not an array".into()));
        };
        items
            .iter()
            .map(|item| {
                let kind =
                    item.get("kind").and_then(Value::as_str).ok_or_else(|| bad("a warning without a kind".into()))?;
                let number = |key: &str| item.get(key).and_then(Value::as_u64);
                Ok(Warning {
                    kind: WarningKind::from_name(kind),
                    message: item.get("message").and_then(Value::as_str).unwrap_or_default().to_string(),
                    line: number("line").and_then(|n| u32::try_from(n).ok()),
                    column: number("column").and_then(|n| u32::try_from(n).ok()),
                    rule_index: number("rule_index").and_then(|n| usize::try_from(n).ok()),
                    pattern_index: number("pattern_index").and_then(|n| usize::try_from(n).ok()),
                })
            })
            .collect()
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, "{line}:{column}: ")?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_field() {
        let list = Warning::parse_list(
            r#"[{"kind":"duplicate-key","message":"m","line":2,"column":7,"rule_index":null,"pattern_index":null},{"kind":"future-kind","message":"n","line":null,"column":null,"rule_index":3,"pattern_index":0}]"#,
        )
        .unwrap();
        assert_eq!(list[0].kind, WarningKind::DuplicateKey);
        assert_eq!((list[0].line, list[0].column, list[0].rule_index), (Some(2), Some(7), None));
        assert_eq!(list[0].to_string(), "2:7: m");
        assert_eq!(list[1].kind, WarningKind::Other("future-kind".into()));
        assert_eq!((list[1].rule_index, list[1].pattern_index), (Some(3), Some(0)));
        assert_eq!(list[1].to_string(), "n");
        assert!(Warning::parse_list("[]").unwrap().is_empty());
        assert_eq!(Warning::parse_list("{}").unwrap_err().code(), ErrorCode::Internal);
    }
}
