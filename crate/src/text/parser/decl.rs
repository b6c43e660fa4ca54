//! `DCL` statements (tgsi_text.c `parse_declaration`). Attributes are read in Mesa's order: ARRAY,
//! the per-file part (IMAGE/SVIEW/BUFFER/MEMORY attributes, or LOCAL and a semantic), STREAM
//! (geometry outputs), interpolation, location, INVARIANT.

use super::inst::is_format_name;
use super::{codes, PResult, Parser};
use crate::diag::Diagnostic;
use crate::ir::*;

/// A declaration bracket as written.
#[derive(Clone, Copy)]
struct DclBracket {
    range: Option<(u32, u32)>,
    span: Span,
}

impl<'a> Parser<'a> {
    pub(super) fn declaration(&mut self, start: usize) -> PResult<()> {
        let processor = self.shader.processor;
        self.cur.skip_ws();
        let file = self.register_file()?;
        self.expect_char(b'[', "`[` after the register file")?;
        let first = self.dcl_bracket()?;
        // GEOM and TESS_EVAL inputs and TESS_CTRL inputs and outputs: the first of two brackets
        // is the vertex index, implied by the primitive; Mesa drops it.
        let vertex_dim = (file == File::In
            && matches!(
                processor,
                Processor::Geometry | Processor::TessEval | Processor::TessCtrl
            ))
            || (file == File::Out && processor == Processor::TessCtrl);
        let mut decl = Declaration::new(file, 0, 0);
        if self.cur.peek_past_ws() == Some(b'[') {
            self.cur.skip_ws();
            self.cur.eat(b'[');
            let second = self.dcl_bracket()?;
            decl.range = self.resolve_range(second)?;
            decl.dimension = if vertex_dim {
                DclDimension::Implied
            } else {
                DclDimension::Range(self.resolve_range(first)?)
            };
        } else {
            decl.range = self.resolve_range(first)?;
        }
        decl.usage_mask = self.opt_write_mask()?;

        if let Some((w, s)) = self.peek_comma_word() {
            if w.eq_ignore_ascii_case("ARRAY") {
                self.cur.commit(s.end as usize);
                self.expect_char(b'(', "`(` after ARRAY")?;
                decl.array_id = Some(self.signed_int("an array id")?);
                self.expect_char(b')', "`)` after the array id")?;
            }
        }

        let vs_input = file == File::In && processor == Processor::Vertex;
        if !vs_input {
            self.file_attributes(&mut decl)?;
            if file == File::Out && processor == Processor::Geometry {
                if let Some((w, s)) = self.peek_comma_word() {
                    if w.eq_ignore_ascii_case("STREAM") {
                        self.cur.commit(s.end as usize);
                        decl.stream = Some(self.stream()?);
                    }
                }
            }
            if let Some((w, s)) = self.peek_comma_word() {
                if let Some(i) = Interp::from_name(w) {
                    self.cur.commit(s.end as usize);
                    decl.interp = Some(i);
                }
            }
            if let Some((w, s)) = self.peek_comma_word() {
                if let Some(l) = Location::from_name(w) {
                    self.cur.commit(s.end as usize);
                    decl.location = Some(l);
                }
            }
            if let Some((w, s)) = self.peek_comma_word() {
                if w.eq_ignore_ascii_case("INVARIANT") {
                    self.cur.commit(s.end as usize);
                    decl.invariant = true;
                }
            }
        }
        if self.comma_follows() {
            return Err(self.bad_attribute(&decl, vs_input));
        }
        self.end_of_statement(|| "the declaration".into())?;
        decl.span = Span::new(start, self.cur.last_end);
        self.push_statement(Statement::Declaration(self.shader.declarations.len()));
        self.shader.declarations.push(decl);
        Ok(())
    }

    /// The inside of a declaration bracket (`[` already read): `a`, `a..b` or empty, then `]`.
    /// An empty bracket gives `range: None`.
    fn dcl_bracket(&mut self) -> PResult<DclBracket> {
        let open = self.cur.last_end.saturating_sub(1);
        let mut range = None;
        if self.cur.peek_past_ws() != Some(b']') {
            let (first, _) = self.uint("a register index or range `a..b`")?;
            let mut last = first;
            self.cur.skip_ws();
            if self.cur.peek() == Some(b'.') && self.cur.peek_at(1) == Some(b'.') {
                self.cur.commit(self.cur.pos + 2);
                last = self.uint("the last index of the range after `..`")?.0;
            }
            range = Some((first, last));
        }
        self.expect_char(b']', if range.is_some() { "`]` or `..`" } else { "`]`" })?;
        Ok(DclBracket { range, span: Span::new(open, self.cur.last_end) })
    }

    /// An empty `[]` means 0..size-1 of the implied array size (GS_INPUT_PRIMITIVE, or 32 in
    /// tessellation shaders).
    fn resolve_range(&self, b: DclBracket) -> PResult<DclRange> {
        if let Some((first, last)) = b.range {
            return Ok(DclRange { first, last, span: b.span });
        }
        if self.implied_array_size == 0 {
            return Err(Diagnostic::error(
                codes::SYNTAX,
                "an empty `[]` needs an implied size (a geometry shader after PROPERTY GS_INPUT_PRIMITIVE, or a tessellation shader): write the register index or range",
                b.span,
            ));
        }
        Ok(DclRange { first: 0, last: self.implied_array_size - 1, span: b.span })
    }

    /// `parse_int`: an optional sign then digits.
    fn signed_int(&mut self, what: &str) -> PResult<i64> {
        self.cur.skip_ws();
        let neg = self.cur.eat(b'-');
        if !neg {
            self.cur.eat(b'+');
        }
        let (v, span) = self.cur.digits().ok_or_else(|| self.expected(what))?;
        if v > i32::MAX as u64 {
            return Err(Diagnostic::error(
                codes::NUMBER,
                format!("{} does not fit in 32 bits", what),
                span,
            ));
        }
        Ok(if neg { -(v as i64) } else { v as i64 })
    }

    /// `(a, b, c, d)` after STREAM.
    fn stream(&mut self) -> PResult<[u32; 4]> {
        self.expect_char(b'(', "`(` after STREAM")?;
        let mut s = [0u32; 4];
        for (i, v) in s.iter_mut().enumerate() {
            if i > 0 {
                self.expect_char(b',', "`,` and the next stream number (STREAM takes four)")?;
            }
            *v = self.uint("a stream number")?.0;
        }
        self.expect_char(b')', "`)` after the four stream numbers")?;
        Ok(s)
    }

    /// The attributes that depend on the register file.
    fn file_attributes(&mut self, decl: &mut Declaration) -> PResult<()> {
        match decl.file {
            File::Image => {
                if !self.comma_follows() {
                    return Ok(());
                }
                self.comma();
                let target = self.texture_target()?;
                let (mut format, mut writable, mut raw) = (None, false, false);
                while let Some((w, s)) = self.peek_comma_word() {
                    if w.eq_ignore_ascii_case("RAW") {
                        raw = true;
                    } else if w.eq_ignore_ascii_case("WR") {
                        writable = true;
                    } else if is_format_name(w) {
                        format = Some(w.to_ascii_uppercase());
                    } else {
                        break;
                    }
                    self.cur.commit(s.end as usize);
                }
                decl.extra = DclExtra::Image { target, format, writable, raw };
            }
            File::Sview => {
                if !self.comma_follows() {
                    return Ok(());
                }
                self.comma();
                let target = self.texture_target()?;
                let what = "a return type (FLOAT, UNORM, SNORM, SINT or UINT)";
                if !self.comma_follows() {
                    return Err(self.expected(&format!("`,` and {}", what)));
                }
                self.comma();
                let start = self.cur.pos;
                let Some(first) = self.cur.peek_word().and_then(ReturnType::from_name) else {
                    return Err(self.expected(what));
                };
                self.cur.word();
                let mut types = vec![first];
                while types.len() < 4 {
                    let Some((w, s)) = self.peek_comma_word() else { break };
                    let Some(t) = ReturnType::from_name(w) else { break };
                    types.push(t);
                    self.cur.commit(s.end as usize);
                }
                let return_types = if types.len() == 4 {
                    [types[0], types[1], types[2], types[3]]
                } else {
                    [first; 4]
                };
                if types.len() == 2 || types.len() == 3 {
                    self.warn(
                        codes::SVIEW_TYPES,
                        format!(
                            "{} return types given: Mesa keeps only the first unless all four are given, so this reads as `{}`; write one type or four",
                            types.len(),
                            first.name()
                        ),
                        Span::new(start, self.cur.last_end),
                    );
                }
                decl.extra = DclExtra::SamplerView { target, return_types };
            }
            File::Buffer => {
                let mut atomic = false;
                if let Some((w, s)) = self.peek_comma_word() {
                    if w.eq_ignore_ascii_case("ATOMIC") {
                        atomic = true;
                        self.cur.commit(s.end as usize);
                    }
                }
                decl.extra = DclExtra::Buffer { atomic };
            }
            File::Memory => {
                let mut kind = MemoryKind::Global;
                if let Some((w, s)) = self.peek_comma_word() {
                    if let Some(k) = MemoryKind::from_name(w) {
                        kind = k;
                        self.cur.commit(s.end as usize);
                    }
                }
                decl.extra = DclExtra::Memory { kind };
            }
            _ => {
                if let Some((w, s)) = self.peek_comma_word() {
                    if w.eq_ignore_ascii_case("LOCAL") {
                        decl.local = true;
                        self.cur.commit(s.end as usize);
                    }
                }
                if let Some((w, s)) = self.peek_comma_word() {
                    if let Some(name) = SemanticName::from_name(w) {
                        self.cur.commit(s.end as usize);
                        let mut index = 0;
                        if self.cur.peek_past_ws() == Some(b'[') {
                            self.cur.skip_ws();
                            self.cur.eat(b'[');
                            index = self.uint("a semantic index")?.0;
                            self.expect_char(b']', "`]` after the semantic index")?;
                        }
                        decl.semantic = Some(Semantic {
                            name,
                            index,
                            span: Span::new(s.start as usize, self.cur.last_end),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads the `,` that [`Parser::comma_follows`] saw, and the whitespace after it.
    fn comma(&mut self) {
        self.cur.skip_ws();
        self.cur.eat(b',');
        self.cur.skip_ws();
    }

    /// The error for a `, WORD` that could not be read as a declaration attribute.
    fn bad_attribute(&self, decl: &Declaration, vs_input: bool) -> Diagnostic {
        let p = self.cur.ws_end(self.cur.pos);
        let q = self.cur.ws_end(p + 1);
        let (span, found) = self.cur.describe_at(q);
        let span = if span.is_empty() { Span::new(p, p + 1) } else { span };
        let word = self.cur.word_at(q).map(|s| self.cur.slice(s)).unwrap_or("");
        if vs_input {
            return Diagnostic::error(
                codes::DCL_ATTR,
                format!(
                    "vertex shader inputs take no semantic, interpolation or other attribute (only `, ARRAY(n)`), found {}: Mesa rejects them; write `DCL IN[{}]`",
                    found, decl.range.first
                ),
                span,
            );
        }
        if decl.file == File::Image && ReturnType::from_name(word).is_some() {
            return Diagnostic::error(
                codes::DCL_ATTR,
                format!(
                    "{} is a return type, which images do not have: `DCL RES[n], target, type` is the pre-2012 form of a sampler view; write `DCL SVIEW[{}], …, {}`",
                    found, decl.range.first, word.to_ascii_uppercase()
                ),
                span,
            );
        }
        let known = SemanticName::from_name(word).is_some()
            || Interp::from_name(word).is_some()
            || Location::from_name(word).is_some()
            || ["INVARIANT", "LOCAL", "ARRAY", "STREAM"]
                .iter()
                .any(|k| word.eq_ignore_ascii_case(k));
        let msg = if known {
            format!(
                "{} is out of place or not allowed for {} here: declaration attributes go in the order ARRAY(n), LOCAL, semantic, STREAM (geometry outputs), interpolation, location, INVARIANT",
                found,
                decl.file.name()
            )
        } else {
            format!(
                "expected a semantic (POSITION, COLOR, GENERIC[n], …), an interpolation (CONSTANT, LINEAR, PERSPECTIVE, COLOR), a location (CENTER, CENTROID, SAMPLE) or INVARIANT, found {}{}",
                found,
                super::hint_for(&found)
            )
        };
        Diagnostic::error(codes::DCL_ATTR, msg, span)
    }
}
