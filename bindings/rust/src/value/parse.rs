//! The JSON parser behind [`Value::from_json`]: one value, numbers read as
//! [`Value`] has them, line and column of the first thing that is not JSON.

use super::{Map, Value};
use crate::error::{Error, ErrorCode};

/// Parses JSON text (one value, surrounding whitespace allowed).
pub(super) fn parse(text: &str) -> Result<Value, Error> {
    let mut parser = Parser { text, at: 0, depth: 0 };
    parser.space();
    let value = parser.value()?;
    parser.space();
    if parser.at != text.len() {
        return Err(parser.error("trailing characters after the JSON value"));
    }
    Ok(value)
}

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
}
