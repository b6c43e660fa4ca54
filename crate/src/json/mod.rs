//! A small JSON reader that knows where each value is: the vertices file (`render::vertices`)
//! reports every problem at its line and column. It reads values in place (no tree): the
//! caller walks objects and arrays with callbacks, takes the strings and numbers it wants and
//! skips the rest, so reading a file costs no more memory than what the caller keeps.
//! [`tree`] builds a whole value with it, for texture descriptions (`texture::desc`).
//!
//! Errors are `R006` diagnostics whose span points into the text; nesting deeper than
//! `limits::MAX_JSON_DEPTH` is `R007`.

use crate::diag::Diagnostic;
use crate::ir::Span;
use crate::limits::MAX_JSON_DEPTH;

pub mod tree;

/// Diagnostic code of a file that is not JSON or not the expected shape.
pub const BAD_FILE: &str = "R006";
/// Diagnostic code of a file beyond one of the limits.
pub const OVER_LIMIT: &str = "R007";

/// What kind of value starts at the reader's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Object => "an object",
            Kind::Array => "a list",
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Bool => "true or false",
            Kind::Null => "null",
        }
    }
}

/// A position in a JSON text.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// An `R006` error at `span`.
pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error(BAD_FILE, message, span)
}

impl<'a> Reader<'a> {
    /// A reader at byte `at` of `text`.
    pub fn at(text: &'a str, at: usize) -> Reader<'a> {
        Reader { text, pos: at.min(text.len()), depth: 0 }
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.byte(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// The span of the character at the position (empty at the end of the text).
    fn here(&self) -> Span {
        let len =
            self.text.get(self.pos..).and_then(|s| s.chars().next()).map_or(0, char::len_utf8);
        Span::new(self.pos, self.pos + len)
    }

    fn unexpected(&self, wanted: &str) -> Diagnostic {
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            Some(c) => {
                error(format!("expected {wanted}, found '{}'", c.escape_default()), self.here())
            }
            None => error(format!("expected {wanted}, found the end of the file"), self.here()),
        }
    }

    /// The kind of the next value (after white space), or an error if none starts here.
    pub fn peek(&mut self) -> Result<Kind, Diagnostic> {
        self.skip_space();
        match self.byte() {
            Some(b'{') => Ok(Kind::Object),
            Some(b'[') => Ok(Kind::Array),
            Some(b'"') => Ok(Kind::String),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            Some(b't' | b'f') => Ok(Kind::Bool),
            Some(b'n') => Ok(Kind::Null),
            _ => Err(self.unexpected("a value")),
        }
    }

    /// After the last value: only white space may follow.
    pub fn end(&mut self) -> Result<(), Diagnostic> {
        self.skip_space();
        if self.pos < self.text.len() {
            return Err(self.unexpected("the end of the file"));
        }
        Ok(())
    }

    fn expect(&mut self, byte: u8, wanted: &str) -> Result<(), Diagnostic> {
        self.skip_space();
        if self.byte() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    fn enter(&mut self) -> Result<(), Diagnostic> {
        if self.depth >= MAX_JSON_DEPTH {
            return Err(Diagnostic::error(
                OVER_LIMIT,
                format!("lists and objects are nested deeper than {MAX_JSON_DEPTH} levels"),
                self.here(),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Reads an object: `each(reader, key, key span)` is called for every member and must read
    /// (or skip) its value. Returns the object's span.
    pub fn object(
        &mut self,
        mut each: impl FnMut(&mut Reader<'a>, &str, Span) -> Result<(), Diagnostic>,
    ) -> Result<Span, Diagnostic> {
        self.skip_space();
        let start = self.pos;
        self.expect(b'{', "an object ('{')")?;
        self.enter()?;
        self.skip_space();
        if self.byte() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                self.skip_space();
                if self.byte() != Some(b'"') {
                    return Err(self.unexpected("a member name in double quotes"));
                }
                let (key, key_span) = self.string()?;
                self.expect(b':', "':' after the member name")?;
                each(self, &key, key_span)?;
                self.skip_space();
                match self.byte() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or '}'")),
                }
            }
        }
        self.depth -= 1;
        Ok(Span::new(start, self.pos))
    }

    /// Reads a list: `each(reader, index)` is called for every element and must read (or skip)
    /// it. Returns the list's span.
    pub fn array(
        &mut self,
        mut each: impl FnMut(&mut Reader<'a>, usize) -> Result<(), Diagnostic>,
    ) -> Result<Span, Diagnostic> {
        self.skip_space();
        let start = self.pos;
        self.expect(b'[', "a list ('[')")?;
        self.enter()?;
        self.skip_space();
        if self.byte() == Some(b']') {
            self.pos += 1;
        } else {
            let mut index = 0;
            loop {
                each(self, index)?;
                index += 1;
                self.skip_space();
                match self.byte() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or ']'")),
                }
            }
        }
        self.depth -= 1;
        Ok(Span::new(start, self.pos))
    }

    /// Reads a string (escapes decoded) and its span, quotes included.
    pub fn string(&mut self) -> Result<(String, Span), Diagnostic> {
        self.skip_space();
        let start = self.pos;
        self.expect(b'"', "a string")?;
        let mut out = String::new();
        loop {
            let Some(c) = self.text.get(self.pos..).and_then(|s| s.chars().next()) else {
                return Err(error("this string has no closing '\"'", Span::new(start, self.pos)));
            };
            match c {
                '"' => {
                    self.pos += 1;
                    return Ok((out, Span::new(start, self.pos)));
                }
                '\\' => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                c if (c as u32) < 0x20 => {
                    return Err(error(
                        "a control character inside a string (write it as an escape)",
                        self.here(),
                    ))
                }
                c => {
                    out.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// One escape after its backslash.
    fn escape(&mut self) -> Result<char, Diagnostic> {
        let at = self.pos.saturating_sub(1);
        let simple = match self.byte() {
            Some(b'"') => Some('"'),
            Some(b'\\') => Some('\\'),
            Some(b'/') => Some('/'),
            Some(b'b') => Some('\u{8}'),
            Some(b'f') => Some('\u{c}'),
            Some(b'n') => Some('\n'),
            Some(b'r') => Some('\r'),
            Some(b't') => Some('\t'),
            Some(b'u') => None,
            _ => {
                // The span ends after the whole character that follows the backslash, or at
                // the end of the input when nothing does (a span past the input, or inside a
                // character, has no line and column to show).
                let next = self.here();
                let message = if next.end > next.start {
                    "unknown escape in a string"
                } else {
                    "this string has no closing '\"'"
                };
                return Err(error(message, Span::new(at, next.end as usize)));
            }
        };
        self.pos += 1;
        if let Some(c) = simple {
            return Ok(c);
        }
        let first = self.hex4(at)?;
        if (0xD800..0xDC00).contains(&first) {
            // A high surrogate must be followed by the escape of a low one.
            if self.text.get(self.pos..self.pos + 2) == Some("\\u") {
                self.pos += 2;
                let second = self.hex4(at)?;
                if (0xDC00..0xE000).contains(&second) {
                    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    return char::from_u32(code)
                        .ok_or_else(|| error("bad \\u escape", Span::new(at, self.pos)));
                }
            }
            return Err(error("unpaired surrogate in a \\u escape", Span::new(at, self.pos)));
        }
        char::from_u32(first)
            .ok_or_else(|| error("unpaired surrogate in a \\u escape", Span::new(at, self.pos)))
    }

    fn hex4(&mut self, at: usize) -> Result<u32, Diagnostic> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| error("\\u needs four hex digits", Span::new(at, self.pos)))?;
        self.pos += 4;
        u32::from_str_radix(digits, 16)
            .map_err(|_| error("\\u needs four hex digits", Span::new(at, self.pos)))
    }

    /// Reads a number and returns its text as written (JSON's grammar) and span.
    pub fn number(&mut self) -> Result<(&'a str, Span), Diagnostic> {
        self.skip_space();
        let start = self.pos;
        let digits = |r: &mut Reader| -> usize {
            let from = r.pos;
            while matches!(r.byte(), Some(b'0'..=b'9')) {
                r.pos += 1;
            }
            r.pos - from
        };
        if self.byte() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        let n = digits(self);
        let bad = |r: &Reader| {
            error("not a number as JSON writes them", Span::new(start, r.pos.max(start + 1)))
        };
        if n == 0 || (n > 1 && self.text.as_bytes().get(int_start) == Some(&b'0')) {
            return Err(bad(self));
        }
        if self.byte() == Some(b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Err(bad(self));
            }
        }
        if matches!(self.byte(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.byte(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(bad(self));
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        Ok((text, Span::new(start, self.pos)))
    }

    pub(crate) fn word(&mut self, word: &str) -> Result<(), Diagnostic> {
        if self.text.get(self.pos..).is_some_and(|s| s.starts_with(word)) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.unexpected("a value"))
        }
    }

    /// Reads `true` or `false`.
    pub fn boolean(&mut self) -> Result<bool, Diagnostic> {
        self.skip_space();
        match self.byte() {
            Some(b't') => self.word("true").map(|_| true),
            _ => self.word("false").map(|_| false),
        }
    }

    /// Reads any value without keeping it; returns its span.
    pub fn skip(&mut self) -> Result<Span, Diagnostic> {
        let kind = self.peek()?;
        let start = self.pos;
        match kind {
            Kind::Object => return self.object(|r, _, _| r.skip().map(|_| ())),
            Kind::Array => return self.array(|r, _| r.skip().map(|_| ())),
            Kind::String => {
                self.string()?;
            }
            Kind::Number => {
                self.number()?;
            }
            Kind::Bool => {
                self.boolean()?;
            }
            Kind::Null => self.word("null")?,
        }
        Ok(Span::new(start, self.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_objects_and_lists_with_spans() {
        // "b" starts at byte 33: ` {` (2), `"a": ` (5), `[1, -2.5e3, ` (12), the string
        // `"x\u00e9\n"` (12), `], ` (3).
        let text = r#" {"a": [1, -2.5e3, "x\u00e9\n"], "b": {"c": null, "d": true}} "#;
        let mut seen = Vec::new();
        let mut r = Reader::at(text, 0);
        r.object(|r, key, span| {
            seen.push(format!("{key}@{}", span.start));
            match key {
                "a" => r
                    .array(|r, i| {
                        match r.peek()? {
                            Kind::Number => seen.push(format!("{i}:{}", r.number()?.0)),
                            _ => seen.push(format!("{i}:{:?}", r.string()?.0)),
                        }
                        Ok(())
                    })
                    .map(|_| ()),
                _ => r.skip().map(|_| ()),
            }
        })
        .unwrap();
        r.end().unwrap();
        assert_eq!(seen, ["a@2", "0:1", "1:-2.5e3", "2:\"xé\\n\"", "b@33"]);
    }

    #[test]
    fn errors_point_at_the_problem() {
        // The error's span starts at byte 9, the '}' where a value should be.
        let text = "{\"a\": [1,}";
        let e = Reader::at(text, 0).skip().unwrap_err();
        assert_eq!((e.code, e.span.start), (BAD_FILE, 9));
        for bad in ["01", "-", "1.", "1e", "+1", "\"\\q\"", "\"abc", "[1 2]", "{\"a\" 1}", "nul"] {
            assert!(Reader::at(bad, 0).skip().is_err(), "{bad}");
        }
        let deep = "[".repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(Reader::at(&deep, 0).skip().unwrap_err().code, OVER_LIMIT);
        let ok = format!("{}{}", "[".repeat(MAX_JSON_DEPTH), "]".repeat(MAX_JSON_DEPTH));
        assert!(Reader::at(&ok, 0).skip().is_ok());
        // A surrogate pair is one character; a lone half is an error.
        assert_eq!(Reader::at("\"\\ud83d\\ude00\"", 0).string().unwrap().0, "😀");
        assert!(Reader::at("\"\\ud83d\"", 0).string().is_err());
    }

    /// An escape's error span stays inside the input and on character boundaries (found by the
    /// `vertices_json` fuzz target: a backslash as the last byte gave the span 59..61 in 60
    /// bytes, which no line and column can show).
    #[test]
    fn escape_errors_span_whole_characters_inside_the_input() {
        let at_end = "[\"ab\\";
        let e = Reader::at(at_end, 0).skip().unwrap_err();
        assert_eq!((e.span.start, e.span.end), (4, 5), "{}", e.message);
        assert!(e.message.contains("no closing"), "{}", e.message);
        // `\é`: the span holds the backslash and both bytes of the é.
        let wide = "\"\\\u{e9}\"";
        let e = Reader::at(wide, 0).string().unwrap_err();
        assert_eq!((e.span.start, e.span.end), (1, 4), "{}", e.message);
        assert!(wide.is_char_boundary(e.span.end as usize));
    }
}
