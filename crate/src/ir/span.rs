//! Source positions. Every IR node keeps the byte range of the text it came from so that
//! diagnostics, hover help and the editor can point at it exactly.

use serde::Serialize;

/// A half-open byte range `start..end` into the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

/// Maps byte offsets to 1-based line and column numbers (columns count characters, not bytes,
/// so that non-ASCII text still lines up in an editor). Built once per source text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    text: String,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        LineIndex { line_starts, text: text.to_string() }
    }

    /// 1-based (line, column) of a byte offset. Offsets past the end clamp to the end.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].chars().count() as u32 + 1;
        (line as u32 + 1, col)
    }

    /// Number of lines in the text.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let idx = LineIndex::new("FRAG\nDCL IN[0]\n");
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(5), (2, 1));
        assert_eq!(idx.line_col(9), (2, 5));
        assert_eq!(idx.line_col(1000), (3, 1));
    }
}
