//! A whole JSON value in memory, read with [`Reader`](super::Reader): texture descriptions are
//! looked up by key in any order, so they are read as a tree. Numbers keep JSON's three kinds
//! the way `serde_json` tells them apart (a whole number that fits `u64`, a negative one that
//! fits `i64`, anything else a double, correctly rounded by `text::decimal`).

use super::{error, Kind, Reader};
use crate::diag::Diagnostic;
use crate::text::decimal;

/// A JSON value.
#[derive(Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Object),
}

/// A JSON number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A whole number from 0 to `u64::MAX`.
    Unsigned(u64),
    /// A negative whole number from `i64::MIN`.
    Negative(i64),
    /// Anything else: a fraction, an exponent, `-0` or a whole number too big for the others.
    Double(f64),
}

/// A JSON object's members in the order written; a name given twice means its last value.
#[derive(Debug, PartialEq)]
pub struct Object(Vec<(String, Value)>);

impl Object {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl Number {
    /// The number as written in JSON (`text` is already JSON's number grammar); `None` beyond
    /// the range of a double.
    fn parse(text: &str) -> Option<Number> {
        if !text.contains(['.', 'e', 'E']) {
            if let Some(magnitude) = text.strip_prefix('-') {
                if let Ok(n) = magnitude.parse::<u64>() {
                    if n != 0 && n <= 1 << 63 {
                        return Some(Number::Negative(0i64.wrapping_sub_unsigned(n)));
                    }
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Some(Number::Unsigned(n));
            }
        }
        decimal::parse_f64(text).filter(|v| v.is_finite()).map(Number::Double)
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Number::Unsigned(n) => n as f64,
            Number::Negative(n) => n as f64,
            Number::Double(v) => v,
        }
    }

    pub fn as_i64(self) -> Option<i64> {
        match self {
            Number::Unsigned(n) => i64::try_from(n).ok(),
            Number::Negative(n) => Some(n),
            Number::Double(_) => None,
        }
    }
}

impl Value {
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(Number::Unsigned(n)) => Some(*n),
            _ => None,
        }
    }
}

/// Reads the whole of `text` as one JSON value (errors are `R006`/`R007` diagnostics with spans
/// into `text`).
pub fn parse(text: &str) -> Result<Value, Diagnostic> {
    let mut reader = Reader::at(text, 0);
    let value = reader.value()?;
    reader.end()?;
    Ok(value)
}

impl Reader<'_> {
    /// Reads one value and everything in it.
    pub fn value(&mut self) -> Result<Value, Diagnostic> {
        Ok(match self.peek()? {
            Kind::Object => {
                let mut members = Vec::new();
                self.object(|r, key, _| {
                    members.push((key.to_string(), r.value()?));
                    Ok(())
                })?;
                Value::Object(Object(members))
            }
            Kind::Array => {
                let mut items = Vec::new();
                self.array(|r, _| {
                    items.push(r.value()?);
                    Ok(())
                })?;
                Value::Array(items)
            }
            Kind::String => Value::String(self.string()?.0),
            Kind::Number => {
                let (text, span) = self.number()?;
                let number = Number::parse(text)
                    .ok_or_else(|| error("a number beyond the range of a double", span))?;
                Value::Number(number)
            }
            Kind::Bool => Value::Bool(self.boolean()?),
            Kind::Null => {
                self.word("null")?;
                Value::Null
            }
        })
    }
}

#[cfg(test)]
mod tests {
    //! `serde_json` (which texture descriptions were read with before) is the reference for what
    //! a value is; doubles are compared with `str::parse`, which rounds correctly.
    use super::*;

    fn same(ours: &Value, theirs: &serde_json::Value, text: &str) {
        match (ours, theirs) {
            (Value::Null, serde_json::Value::Null) => {}
            (Value::Bool(a), serde_json::Value::Bool(b)) => assert_eq!(a, b),
            (Value::String(a), serde_json::Value::String(b)) => assert_eq!(a, b),
            (Value::Array(a), serde_json::Value::Array(b)) => {
                assert_eq!(a.len(), b.len(), "{text}");
                a.iter().zip(b).for_each(|(x, y)| same(x, y, text));
            }
            (Value::Object(a), serde_json::Value::Object(b)) => {
                for (key, theirs) in b {
                    same(a.get(key).expect("a member serde_json has"), theirs, text);
                }
                assert!(a.0.iter().all(|(k, _)| b.contains_key(k)), "{text}");
            }
            (Value::Number(a), serde_json::Value::Number(b)) => {
                assert_eq!(ours.as_u64(), b.as_u64(), "u64 of {text}");
                assert_eq!(a.as_i64(), b.as_i64(), "i64 of {text}");
                assert_eq!(a.as_f64().is_sign_negative(), b.as_f64().unwrap().is_sign_negative());
            }
            _ => panic!("{text}: {ours:?} against {theirs:?}"),
        }
    }

    #[test]
    fn values_are_what_serde_json_reads() {
        for text in [
            r#"{"a": 1, "b": [true, false, null], "c": {"d": "x\u00e9\n"}, "e": -2.5e3}"#,
            "[0, -0, 1, -1, 18446744073709551615, 18446744073709551616, -9223372036854775808]",
            "[-9223372036854775809, 9223372036854775807, 9223372036854775808, 1.0, 1e2, -0.0]",
            r#"{"a": 1, "a": 2}"#,
            "[[[[]]], {}, \"\", 0.5]",
        ] {
            let ours = parse(text).unwrap();
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            same(&ours, &theirs, text);
        }
        // A name given twice: its last value, as serde_json keeps it.
        let twice = parse(r#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(twice.as_object().unwrap().get("a").unwrap().as_u64(), Some(2));
    }

    #[test]
    fn doubles_are_correctly_rounded() {
        for text in ["0.1", "-2.5e3", "3.4028235677973366e38", "2.4703282292062328e-324", "-0"] {
            let Value::Number(n) = parse(text).unwrap() else { panic!("{text}") };
            assert_eq!(n.as_f64().to_bits(), text.parse::<f64>().unwrap().to_bits(), "{text}");
        }
    }

    #[test]
    fn what_is_not_json_is_an_error_with_its_place() {
        for (text, at, message) in [
            ("", 0, "expected a value, found the end of the file"),
            ("{\"a\": 1,}", 8, "expected a member name in double quotes, found '}'"),
            ("[1 2]", 3, "expected ',' or ']', found '2'"),
            ("[1e400]", 1, "a number beyond the range of a double"),
            ("[-1e400]", 1, "a number beyond the range of a double"),
            ("[01]", 1, "not a number as JSON writes them"),
            ("{} x", 3, "expected the end of the file, found 'x'"),
        ] {
            let error = parse(text).unwrap_err();
            assert_eq!((error.span.start, error.message.as_str()), (at, message), "{text}");
        }
        let deep = "[".repeat(crate::limits::MAX_JSON_DEPTH + 1);
        assert_eq!(parse(&deep).unwrap_err().code, super::super::OVER_LIMIT);
    }
}
