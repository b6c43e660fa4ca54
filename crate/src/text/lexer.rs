//! The character-level scanner under the parser.
//!
//! TGSI text has no real tokens in Mesa's parser (`tgsi_text.c` reads characters), and some of
//! its words start with digits (`2D`, `1D_ARRAY`), so the parser works on a [`Cursor`] that reads
//! words, numbers and punctuation on demand. Whitespace is blank, tab, newline and — as
//! documented extensions — carriage return and `;` comments to the end of the line. Newlines are
//! plain whitespace, as in Mesa: a statement may span lines and a line may hold several statements.

use crate::ir::Span;

/// The comment character of the extension. It never appears in valid TGSI text.
pub const COMMENT: u8 = b';';

/// `[A-Za-z0-9_]`: the characters of a word (Mesa's `is_digit_alpha_underscore`).
pub fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whitespace in the broad sense: what [`Cursor::skip_ws`] skips (or starts skipping).
pub fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | COMMENT)
}

/// A position in the source plus the end of the last token read.
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    pub text: &'a str,
    bytes: &'a [u8],
    pub pos: usize,
    /// End of the last token consumed (whitespace does not count). Errors found after a line
    /// break are reported here, at the end of the statement's line, as "found end of line".
    pub last_end: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, bytes: text.as_bytes(), pos: 0, last_end: 0 }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    /// Moves to `pos`, counting everything up to it as consumed.
    pub fn commit(&mut self, pos: usize) {
        self.pos = pos;
        self.last_end = pos;
    }

    /// Consumes `b` if it is the next byte (no whitespace skipped).
    pub fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.commit(self.pos + 1);
            true
        } else {
            false
        }
    }

    /// Skips whitespace, line ends (LF, CR) and `;` comments.
    pub fn skip_ws(&mut self) {
        self.pos = self.ws_end(self.pos);
    }

    /// Skips whitespace and returns the next byte.
    pub fn skip_ws_peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.peek()
    }

    /// Where the whitespace starting at `pos` ends.
    pub fn ws_end(&self, mut pos: usize) -> usize {
        let b = self.bytes;
        while pos < b.len() {
            match b[pos] {
                b' ' | b'\t' | b'\n' | b'\r' => pos += 1,
                COMMENT => {
                    while pos < b.len() && b[pos] != b'\n' {
                        pos += 1;
                    }
                }
                _ => break,
            }
        }
        pos
    }

    /// The next byte after whitespace, without moving.
    pub fn peek_past_ws(&self) -> Option<u8> {
        self.bytes.get(self.ws_end(self.pos)).copied()
    }

    /// The span of the word (`[A-Za-z0-9_]+`) starting at `pos`, if any.
    pub fn word_at(&self, pos: usize) -> Option<Span> {
        let b = self.bytes;
        let mut end = pos;
        while end < b.len() && is_word_byte(b[end]) {
            end += 1;
        }
        (end > pos).then(|| Span::new(pos, end))
    }

    /// Reads a word at the cursor (no whitespace skipped).
    pub fn word(&mut self) -> Option<Span> {
        let s = self.word_at(self.pos)?;
        self.commit(s.end as usize);
        Some(s)
    }

    /// The word at the cursor, without moving.
    pub fn peek_word(&self) -> Option<&'a str> {
        self.word_at(self.pos).map(|s| self.slice(s))
    }

    /// Reads decimal digits. The value saturates at `u64::MAX`; callers check their range.
    pub fn digits(&mut self) -> Option<(u64, Span)> {
        let b = self.bytes;
        let start = self.pos;
        let mut end = start;
        let mut v: u64 = 0;
        while end < b.len() && b[end].is_ascii_digit() {
            v = v.saturating_mul(10).saturating_add((b[end] - b'0') as u64);
            end += 1;
        }
        if end == start {
            return None;
        }
        self.commit(end);
        Some((v, Span::new(start, end)))
    }

    pub fn slice(&self, span: Span) -> &'a str {
        &self.text[span.start as usize..span.end as usize]
    }

    /// True when a line feed lies in `a..b`.
    pub fn newline_between(&self, a: usize, b: usize) -> bool {
        let b = b.min(self.bytes.len());
        a < b && self.bytes[a..b].contains(&b'\n')
    }

    /// The offset just after the line feed at or after `pos` (or the end of the text).
    pub fn next_line_start(&self, pos: usize) -> usize {
        match self.bytes.get(pos..).and_then(|s| s.iter().position(|&c| c == b'\n')) {
            Some(i) => pos + i + 1,
            None => self.bytes.len(),
        }
    }

    /// The span and a short quoted description of what stands at `pos` (a word, a number, a
    /// character), for "expected …, found …" messages.
    pub fn describe_at(&self, pos: usize) -> (Span, String) {
        let b = self.bytes;
        if pos >= b.len() {
            return (Span::new(b.len(), b.len()), "end of file".to_string());
        }
        // A word, extended over any non-ASCII letters in it (`TÉMP` is shown whole).
        let mut end = pos;
        while end < b.len() && (is_word_byte(b[end]) || b[end] >= 0x80) {
            end += 1;
        }
        while end > pos && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        if end > pos && self.text[pos..end].chars().all(|c| c.is_alphanumeric() || c == '_') {
            let s = Span::new(pos, end);
            let w = self.slice(s);
            let shown: String = if w.chars().count() > 40 {
                format!("{}…", w.chars().take(40).collect::<String>())
            } else {
                w.to_string()
            };
            return (s, format!("`{}`", shown));
        }
        let ch = self.text[pos..].chars().next().unwrap_or('?');
        let end = pos + ch.len_utf8();
        let shown = match ch {
            '\0' => "a NUL character".to_string(),
            '\u{feff}' => "a byte-order mark (U+FEFF)".to_string(),
            '\u{a0}' => "a non-breaking space (U+00A0)".to_string(),
            c if c.is_control() => format!("the control character U+{:04X}", c as u32),
            c if c.is_whitespace() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}') => {
                format!("the invisible character U+{:04X}", c as u32)
            }
            c => format!("`{}`", c),
        };
        (Span::new(pos, end), shown)
    }
}

/// Where the text uses the whitespace extensions (carriage returns, `;` comments): the parser
/// reports one warning for each kind, at its first use.
#[derive(Clone, Copy, Debug, Default)]
pub struct Trivia {
    pub first_cr: Option<usize>,
    pub cr_count: usize,
    pub first_comment: Option<usize>,
    pub comment_count: usize,
}

/// Scans the whole text once for carriage returns and comments.
pub fn scan_trivia(text: &str) -> Trivia {
    let b = text.as_bytes();
    let mut t = Trivia::default();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' => {
                t.first_cr.get_or_insert(i);
                t.cr_count += 1;
            }
            COMMENT => {
                t.first_comment.get_or_insert(i);
                t.comment_count += 1;
                while i < b.len() && b[i] != b'\n' {
                    if b[i] == b'\r' {
                        t.first_cr.get_or_insert(i);
                        t.cr_count += 1;
                    }
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_numbers_and_whitespace() {
        let mut c = Cursor::new("  DCL TEMP[12] ; note\r\n2D_ARRAY");
        c.skip_ws();
        let w = c.word().unwrap();
        assert_eq!(c.slice(w), "DCL");
        c.skip_ws();
        assert_eq!(c.peek_word(), Some("TEMP"));
        c.word();
        assert!(c.eat(b'['));
        assert_eq!(c.digits().unwrap().0, 12);
        assert!(c.eat(b']'));
        let before = c.pos;
        c.skip_ws();
        assert!(c.newline_between(before, c.pos));
        assert_eq!(c.peek_word(), Some("2D_ARRAY"));
        let t = scan_trivia(c.text);
        assert_eq!((t.cr_count, t.comment_count), (1, 1));
    }

    #[test]
    fn describes_what_is_found() {
        let c = Cursor::new("MOV ,");
        assert_eq!(c.describe_at(0).1, "`MOV`");
        assert_eq!(c.describe_at(4).1, "`,`");
        assert_eq!(c.describe_at(5).1, "end of file");
    }
}
