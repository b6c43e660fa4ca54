//! The TGSI text parser: Mesa's grammar (tgsi_text.c `translate`), case-insensitive, with
//! error recovery (an error skips to the next line so every error in a file is reported) and a
//! span on every node. The documented extensions each produce a warning naming the standard form.
//!
//! One file per part of the grammar: statements and header here, declarations in `decl.rs`,
//! instructions and operands in `inst.rs`, immediates and properties in `imm.rs`.

mod decl;
mod imm;
mod inst;

use super::lexer::{is_ws, scan_trivia, Cursor};
use crate::diag::Diagnostic;
use crate::ir::{Processor, Shader, Span, Statement};

/// Diagnostic codes of the parser. `docs/language.md` lists them with examples.
pub mod codes {
    /// Missing or unknown processor header.
    pub const HEADER: &str = "P001";
    /// Something other than what the grammar allows at this point.
    pub const SYNTAX: &str = "P002";
    /// A word that is not an opcode (or a gap in the opcode numbering).
    pub const OPCODE: &str = "P003";
    /// A word that is not a register file.
    pub const FILE: &str = "P004";
    /// A register file that existed in old Mesa and was removed (IMMX, TEMPX, PRED).
    pub const REMOVED_FILE: &str = "P005";
    /// A malformed number or a number out of range.
    pub const NUMBER: &str = "P006";
    /// `IMM[n]` whose index is not the running immediate count.
    pub const IMM_INDEX: &str = "P007";
    /// Unknown property or property value.
    pub const PROPERTY: &str = "P008";
    /// More operands than the opcode takes.
    pub const OPERANDS: &str = "P009";
    /// A malformed swizzle or write mask.
    pub const SWIZZLE: &str = "P010";
    /// An immediate with the wrong number of values.
    pub const IMM_COUNT: &str = "P011";
    /// A declaration attribute that is not allowed here (e.g. a semantic on a vertex input).
    pub const DCL_ATTR: &str = "P012";

    /// Warning: carriage returns (CRLF line ends).
    pub const CRLF: &str = "P101";
    /// Warning: `;` comments.
    pub const COMMENT: &str = "P102";
    /// Warning: one-letter source swizzle, replicated to four.
    pub const SHORT_SWIZZLE: &str = "P103";
    /// Warning: a blank between the sign and the number of an indirect offset.
    pub const OFFSET_BLANK: &str = "P104";
    /// Warning: `IMM` without its index.
    pub const IMM_NO_INDEX: &str = "P105";
    /// Warning: a legacy opcode removed from TGSI.
    pub const LEGACY_OPCODE: &str = "P106";
    /// Warning: a legacy register file name (RES).
    pub const LEGACY_FILE: &str = "P107";
    /// Warning: an SVIEW declaration with two or three return types (Mesa keeps the first only).
    pub const SVIEW_TYPES: &str = "P108";
    /// Warning: a FLT32 value written with four decimals (tgsi_dump's `%10.4f`) that no binary32
    /// value has exactly: the dump has rounded it.
    pub const FOUR_DECIMALS: &str = "P109";
}

/// An explanation added to "found X" when X is a well-known foreign construct.
pub(crate) fn hint_for(found: &str) -> &'static str {
    if found.starts_with("`%") {
        " (a printf placeholder: this text is a C format template, not TGSI until formatted)"
    } else {
        ""
    }
}

/// Parse state. Errors travel as `Err(Diagnostic)` to the statement loop, which records them
/// and skips to the next line; warnings go straight into `diags`.
pub(crate) struct Parser<'a> {
    pub(crate) cur: Cursor<'a>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) shader: Shader,
    /// Size of `[]` in declarations (GS_INPUT_PRIMITIVE vertex count, 32 for tessellation).
    pub(crate) implied_array_size: u32,
    /// IMM statements seen, including ones with errors (so one bad IMM does not make every
    /// later `IMM[n]` look misnumbered).
    pub(crate) imm_count: u32,
    /// P109 is given once per text, at the first rounded value.
    pub(crate) warned_four_decimals: bool,
}

pub(crate) type PResult<T> = Result<T, Diagnostic>;

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser {
            cur: Cursor::new(text),
            diags: Vec::new(),
            shader: Shader::new(Processor::Fragment),
            implied_array_size: 0,
            imm_count: 0,
            warned_four_decimals: false,
        }
    }

    /// Parses the whole text. Returns the shader (always built, possibly partial) and the
    /// diagnostics in source order.
    pub(crate) fn run(mut self) -> (Shader, Vec<Diagnostic>) {
        // One statement per line is the norm: size the lists once instead of growing them
        // (on large texts regrowth and its page faults cost more than the parsing).
        let lines = self.cur.text.bytes().filter(|&b| b == b'\n').count() + 1;
        self.shader.instructions.reserve(lines);
        self.shader.order.reserve(lines);
        self.trivia_warnings();
        self.cur.skip_ws();
        self.header();
        loop {
            self.cur.skip_ws();
            if self.cur.at_end() {
                break;
            }
            let start = self.cur.pos;
            self.cur.last_end = start;
            if let Err(d) = self.statement(start) {
                let resume = self.cur.next_line_start((d.span.start as usize).max(start));
                self.diags.push(d);
                let resume =
                    self.skip_continuation_lines(resume.max(start + 1).min(self.cur.len()));
                self.cur.commit(resume);
            }
        }
        crate::sort::sort_by(&mut self.diags, |a, b| a.span.start.cmp(&b.span.start));
        (self.shader, self.diags)
    }

    /// After an error, lines that start with `{`, `}` or `,` continue the broken statement
    /// (e.g. the values of a removed `IMMX` array): skip them rather than report each.
    fn skip_continuation_lines(&self, mut pos: usize) -> usize {
        loop {
            let p = self.cur.ws_end(pos);
            match self.cur.text.as_bytes().get(p) {
                Some(b'{') | Some(b'}') | Some(b',') => pos = self.cur.next_line_start(p),
                _ => return pos,
            }
        }
    }

    fn trivia_warnings(&mut self) {
        let t = scan_trivia(self.cur.text);
        if let Some(p) = t.first_cr {
            self.diags.push(Diagnostic::warning(
                codes::CRLF,
                format!(
                    "carriage return (CRLF line ends, {} in this text): Mesa's parser accepts only LF line ends",
                    t.cr_count
                ),
                Span::new(p, p + 1),
            ));
        }
        if let Some(p) = t.first_comment {
            self.diags.push(Diagnostic::warning(
                codes::COMMENT,
                format!(
                    "`;` comment ({} in this text): comments are a playground extension; standard TGSI has none",
                    t.comment_count
                ),
                Span::new(p, self.cur.next_line_start(p).saturating_sub(1).max(p + 1)),
            ));
        }
    }

    /// The processor header. On failure, records an error and goes on as a fragment shader so
    /// that the rest of the text is still checked.
    fn header(&mut self) {
        let start = self.cur.pos;
        let word = self.cur.word_at(start);
        if let Some(s) = word {
            let w = self.cur.slice(s);
            if let Some(p) = Processor::from_name(w) {
                self.cur.commit(s.end as usize);
                self.shader.processor = p;
                self.shader.header_span = s;
                if matches!(p, Processor::TessCtrl | Processor::TessEval) {
                    self.implied_array_size = 32;
                }
                if let Err(d) = self.end_of_statement(|| "the processor header".into()) {
                    let resume = self.cur.next_line_start(d.span.start as usize);
                    self.diags.push(d);
                    self.cur.commit(resume);
                }
                return;
            }
        }
        let (span, found) = self.cur.describe_at(start);
        let mut d = Diagnostic::error(
            codes::HEADER,
            format!("expected the processor header (FRAG, VERT, GEOM, TESS_CTRL, TESS_EVAL or COMP), found {}", found),
            span,
        );
        // A header-like word (FRAG1.1, FRAGMENT, …) or a stray character is skipped with its
        // line; any other word is parsed as the first statement.
        let header_like = word.is_some_and(|s| {
            let w = self.cur.slice(s).to_ascii_uppercase();
            ["FRAG", "VERT", "GEOM", "TESS", "COMP"].iter().any(|p| w.starts_with(p))
        });
        if word.is_none() || header_like {
            let resume = self.cur.next_line_start(start);
            self.cur.commit(resume);
        } else {
            d.message.push_str(" (the first word of a shader names its stage)");
        }
        self.diags.push(d);
    }

    /// One statement: `N:` label and instruction, DCL, IMM, PROPERTY or instruction.
    fn statement(&mut self, start: usize) -> PResult<()> {
        if self.cur.peek().is_some_and(|b| b.is_ascii_digit()) {
            let number = self.statement_number()?;
            self.cur.skip_ws();
            if let Some(w) = self.cur.peek_word() {
                if ["DCL", "IMM", "PROPERTY"].iter().any(|k| w.eq_ignore_ascii_case(k)) {
                    let (span, found) = self.cur.describe_at(self.cur.pos);
                    return Err(Diagnostic::error(
                        codes::SYNTAX,
                        format!("expected an instruction after the statement number, found {}: numbers `N:` only go before instructions", found),
                        span,
                    ));
                }
            }
            return self.instruction(start, Some(number));
        }
        let word = self.cur.peek_word().unwrap_or("");
        if word.eq_ignore_ascii_case("DCL") {
            self.cur.word();
            self.declaration(start)
        } else if word.eq_ignore_ascii_case("IMM") {
            self.cur.word();
            self.immediate(start)
        } else if word.eq_ignore_ascii_case("PROPERTY") {
            self.cur.word();
            self.property(start)
        } else {
            self.instruction(start, None)
        }
    }

    /// `N:` before an instruction (kept in the IR, ignored by everything else).
    fn statement_number(&mut self) -> PResult<u32> {
        let Some((v, span)) = self.cur.digits() else {
            return Err(self.expected("a statement number"));
        };
        let n = u32::try_from(v).map_err(|_| {
            Diagnostic::error(codes::NUMBER, "statement number does not fit in 32 bits", span)
        })?;
        self.cur.skip_ws();
        if !self.cur.eat(b':') {
            return Err(self.expected("`:` after the statement number (as in `  0: MOV …`)"));
        }
        Ok(n)
    }

    /// Checks that the statement ends here (whitespace, a comment or the end of the text).
    /// `what` names the statement in the error message ("the `MOV` instruction").
    pub(crate) fn end_of_statement(&mut self, what: impl FnOnce() -> String) -> PResult<()> {
        match self.cur.peek() {
            None => Ok(()),
            Some(b) if is_ws(b) => Ok(()),
            Some(_) => {
                Err(self.expected_code(codes::SYNTAX, &format!("a new line after {}", what())))
            }
        }
    }

    pub(crate) fn push_statement(&mut self, st: Statement) {
        self.shader.order.push(st);
    }

    // ---- diagnostics helpers ----

    /// "expected WHAT, found X" at the next token; when the next token is on a later line than
    /// the last one read, the error is placed at the end of the statement's line instead and X
    /// is "end of line".
    pub(crate) fn expected(&self, what: &str) -> Diagnostic {
        self.expected_code(codes::SYNTAX, what)
    }

    pub(crate) fn expected_code(&self, code: &'static str, what: &str) -> Diagnostic {
        let (span, found) = self.found();
        Diagnostic::error(
            code,
            format!("expected {}, found {}{}", what, found, hint_for(&found)),
            span,
        )
    }

    /// What stands next (after whitespace), as (span, description), with the end-of-line rule.
    pub(crate) fn found(&self) -> (Span, String) {
        if self.next_is_on_new_line() {
            let at = self.cur.last_end.min(self.cur.pos);
            return (Span::new(at, at), "end of line".to_string());
        }
        self.cur.describe_at(self.cur.ws_end(self.cur.pos))
    }

    /// True when the next token (after whitespace) lies on a later line than the last token read.
    pub(crate) fn next_is_on_new_line(&self) -> bool {
        let p = self.cur.ws_end(self.cur.pos);
        self.cur.newline_between(self.cur.last_end.min(self.cur.pos), p)
    }

    /// Skips whitespace and expects `c`.
    pub(crate) fn expect_char(&mut self, c: u8, what: &str) -> PResult<()> {
        let save = self.cur.pos;
        self.cur.skip_ws();
        if self.cur.eat(c) {
            Ok(())
        } else {
            self.cur.pos = save;
            Err(self.expected(what))
        }
    }

    /// An unsigned decimal that fits in 32 bits, after optional whitespace.
    pub(crate) fn uint(&mut self, what: &str) -> PResult<(u32, Span)> {
        let save = self.cur.pos;
        self.cur.skip_ws();
        match self.cur.digits() {
            Some((v, span)) => {
                if self.cur.peek().is_some_and(super::lexer::is_word_byte) {
                    let end = self.cur.word_at(span.start as usize).map_or(span.end, |s| s.end);
                    let s = Span::new(span.start as usize, end as usize);
                    return Err(Diagnostic::error(
                        codes::NUMBER,
                        format!("expected {}, found `{}`", what, self.cur.slice(s)),
                        s,
                    ));
                }
                let v = u32::try_from(v).map_err(|_| {
                    Diagnostic::error(
                        codes::NUMBER,
                        format!("`{}` does not fit in 32 bits", self.cur.slice(span)),
                        span,
                    )
                })?;
                Ok((v, span))
            }
            None => {
                self.cur.pos = save;
                Err(self.expected(what))
            }
        }
    }

    pub(crate) fn warn(&mut self, code: &'static str, message: String, span: Span) {
        self.diags.push(Diagnostic::warning(code, message, span));
    }

    /// Peeks `, WORD` after whitespace without moving: the word and its span.
    pub(crate) fn peek_comma_word(&self) -> Option<(&'a str, Span)> {
        let p = self.cur.ws_end(self.cur.pos);
        if self.cur.text.as_bytes().get(p) != Some(&b',') {
            return None;
        }
        let q = self.cur.ws_end(p + 1);
        let s = self.cur.word_at(q)?;
        Some((self.cur.slice(s), s))
    }

    /// True when a `,` follows (after whitespace).
    pub(crate) fn comma_follows(&self) -> bool {
        self.cur.peek_past_ws() == Some(b',')
    }
}
