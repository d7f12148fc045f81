//! The little JSON this crate writes: string literals, arrays of them and
//! objects for the options and rules it passes to the library, every value
//! escaped (never pasted into text). Reading is `value/parse.rs`'s, for the
//! nested arrays and objects of a result and the texts the library returns.

use std::fmt::Write;

/// Appends `s` as a JSON string literal.
pub(crate) fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A compact JSON object of `members` (key, JSON text of the value), keys
/// escaped, values written as given.
pub(crate) fn object(members: &[(String, String)]) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(&mut out, key);
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    out
}

/// A compact JSON array of string literals.
pub(crate) fn string_array(items: &[String]) -> String {
    let mut out = String::from("[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(&mut out, item);
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut s = String::new();
        write_string(&mut s, "a\"b\\c\n\u{1}\u{2028}é");
        assert_eq!(s, r#""a\"b\\c\n\u0001\u2028é""#);
    }

    #[test]
    fn objects_keep_member_order() {
        let members = [("b".to_string(), "1".to_string()), ("a\"".to_string(), "[true]".to_string())];
        assert_eq!(object(&members), r#"{"b":1,"a\"":[true]}"#);
        assert_eq!(object(&[]), "{}");
    }

    #[test]
    fn string_arrays() {
        assert_eq!(string_array(&["a\"".to_string(), "**".to_string()]), r#"["a\"","**"]"#);
        assert_eq!(string_array(&[]), "[]");
    }
}
