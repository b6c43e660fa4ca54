//! Instructions and their operands (tgsi_text.c `parse_instruction`).

use super::{codes, PResult, Parser};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::opcode::{OpInfo, Opcode, F_BRANCH, F_MEMORY, F_TEX, F_TEX_OFFSETS};
use crate::text::lexer::is_word_byte;
use std::sync::OnceLock;

/// Opcode names (upper case, each once) with their opcodes, gaps excluded, sorted by name for
/// a binary search. Built once. (A hash map did the same with about 1 KB more of the widget's
/// engine: its own copies of the table code and the hasher.)
fn opcode_names() -> &'static [(&'static str, Opcode)] {
    static NAMES: OnceLock<Vec<(&'static str, Opcode)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<(&'static str, Opcode)> = Opcode::all().map(|o| (o.name(), o)).collect();
        crate::sort::sort_by(&mut names, |a, b| a.0.cmp(b.0));
        names
    })
}

fn find_opcode(upper: &str) -> Option<Opcode> {
    let names = opcode_names();
    let at = names.binary_search_by(|(name, _)| (*name).cmp(upper)).ok()?;
    names.get(at).map(|(_, op)| *op)
}

/// An opcode word with its optional `_SAT` and `_PRECISE` suffixes (in that order), as Mesa's
/// `match_inst`: whole-name matches win (`TEX_LZ` is an opcode, not TEX + suffix).
pub(crate) fn lookup_opcode(word: &str) -> Option<(Opcode, bool, bool)> {
    let mut buf = [0u8; 40];
    if word.len() > buf.len() {
        return None;
    }
    let buf = &mut buf[..word.len()];
    buf.copy_from_slice(word.as_bytes());
    buf.make_ascii_uppercase();
    let upper = std::str::from_utf8(buf).ok()?;
    if let Some(op) = find_opcode(upper) {
        return Some((op, false, false));
    }
    let mut base = upper;
    let precise = match base.strip_suffix("_PRECISE") {
        Some(b) => {
            base = b;
            true
        }
        None => false,
    };
    let sat = match base.strip_suffix("_SAT") {
        Some(b) => {
            base = b;
            true
        }
        None => false,
    };
    if !(sat || precise) {
        return None;
    }
    find_opcode(base).map(|op| (op, sat, precise))
}

/// "1 destination and 2 sources, then a texture target".
pub(crate) fn operand_summary(info: &OpInfo) -> String {
    fn n(k: u8, one: &str, many: &str) -> String {
        format!("{} {}", k, if k == 1 { one } else { many })
    }
    let mut parts = Vec::new();
    if info.num_dst > 0 {
        parts.push(n(info.num_dst, "destination", "destinations"));
    }
    if info.num_src > 0 {
        parts.push(n(info.num_src, "source", "sources"));
    }
    // At most two parts; `join` on `String`s would be its own copy of the library's join.
    let mut s = match parts.as_slice() {
        [] => "no operands".to_string(),
        [one] => one.clone(),
        [a, b, ..] => format!("{a} and {b}"),
    };
    if info.has(F_TEX) {
        s.push_str(", then a texture target");
    }
    s
}

impl<'a> Parser<'a> {
    pub(super) fn instruction(&mut self, start: usize, number: Option<u32>) -> PResult<()> {
        let Some(wspan) = self.cur.word_at(self.cur.pos) else {
            let what = if number.is_some() {
                "an opcode"
            } else {
                "a statement (DCL, IMM, PROPERTY or an instruction)"
            };
            let mut d = self.expected(what);
            let rest = &self.cur.text[self.cur.pos..];
            if rest.starts_with('#') || rest.starts_with("//") || rest.starts_with("/*") {
                d.message.push_str(": TGSI has no comments or preprocessor lines (this playground reads `;` to the end of the line as a comment)");
            }
            return Err(d);
        };
        let word = self.cur.slice(wspan);
        let Some((op, saturate, precise)) = lookup_opcode(word) else {
            return Err(self.unknown_opcode(word, wspan));
        };
        self.cur.commit(wspan.end as usize);
        let info = op.info();
        if info.is_legacy() {
            self.warn(
                codes::LEGACY_OPCODE,
                format!(
                    "`{}` is a legacy opcode, removed from TGSI: {}",
                    info.name, info.replacement
                ),
                wspan,
            );
        }
        let mut inst = Instruction::new(op);
        inst.saturate = saturate;
        inst.precise = precise;
        inst.number = number;
        inst.opcode_span = wspan;

        let ndst = info.num_dst as usize;
        let nsrc = info.num_src as usize;
        inst.dst.reserve_exact(ndst);
        inst.src.reserve_exact(nsrc);
        let total = ndst + nsrc + info.has(F_TEX) as usize;
        for i in 0..total {
            if i > 0 {
                if !self.comma_follows() {
                    return Err(self.missing_operand(info, i, true));
                }
                self.cur.skip_ws();
                self.cur.eat(b',');
            }
            let kind = if i < ndst {
                OperandKind::Dst
            } else if i < ndst + nsrc {
                OperandKind::Src
            } else {
                OperandKind::Target
            };
            if self.cur.peek_past_ws().is_none()
                || (self.next_is_on_new_line() && !self.operand_starts_next(kind))
            {
                // Mesa lets an operand follow on the next line; anything else there is the
                // next statement, and this instruction lacks its operands.
                return Err(self.missing_operand(info, i, false));
            }
            self.cur.skip_ws();
            if i < ndst {
                inst.dst.push(self.dst_operand()?);
            } else if i < ndst + nsrc {
                inst.src.push(self.src_operand()?);
            } else {
                inst.texture = Some(self.texture_target()?);
            }
        }

        if info.has(F_TEX) || info.has(F_TEX_OFFSETS) {
            while inst.tex_offsets.len() < 4 {
                let Some((w, _)) = self.peek_comma_word() else { break };
                if !self.is_file_word(w) {
                    break;
                }
                self.cur.skip_ws();
                self.cur.eat(b',');
                self.cur.skip_ws();
                inst.tex_offsets.push(self.tex_offset()?);
            }
        }

        if info.has(F_MEMORY) {
            while self.comma_follows() {
                self.cur.skip_ws();
                self.cur.eat(b',');
                self.cur.skip_ws();
                let what = "a memory qualifier (COHERENT, RESTRICT, VOLATILE, STREAM_CACHE_POLICY), a texture target or a PIPE_FORMAT_… name";
                let Some(s) = self.cur.word_at(self.cur.pos) else {
                    return Err(self.expected(what));
                };
                let w = self.cur.slice(s);
                if let Some(q) = MemoryQualifier::from_name(w) {
                    inst.memory_qualifiers |= 1 << q.index();
                } else if let Some(t) = TextureTarget::from_name(w) {
                    inst.texture = Some(t);
                } else if is_format_name(w) {
                    inst.memory_format = Some(w.to_ascii_uppercase());
                } else {
                    return Err(self.expected(what));
                }
                self.cur.commit(s.end as usize);
            }
        }

        if self.cur.peek_past_ws() == Some(b':') {
            if !info.has(F_BRANCH) {
                let p = self.cur.ws_end(self.cur.pos);
                return Err(Diagnostic::error(
                    codes::SYNTAX,
                    format!(
                        "`{}` takes no `:label`; only IF, UIF, ELSE, CAL, BGNLOOP and ENDLOOP have branch labels",
                        info.name
                    ),
                    Span::new(p, p + 1),
                ));
            }
            self.cur.skip_ws();
            self.cur.eat(b':');
            inst.label = Some(self.uint("a label (an instruction number) after `:`")?.0);
        }

        if self.comma_follows() {
            let p = self.cur.ws_end(self.cur.pos);
            return Err(Diagnostic::error(
                codes::OPERANDS,
                format!("too many operands: `{}` takes {}", info.name, operand_summary(info)),
                Span::new(p, p + 1),
            ));
        }
        self.end_of_statement(|| format!("the `{}` instruction", info.name))?;
        inst.span = Span::new(start, self.cur.last_end);
        self.push_statement(Statement::Instruction(self.shader.instructions.len()));
        self.shader.instructions.push(inst);
        Ok(())
    }

    /// True when what follows can begin an operand of this kind (a register file word, `-` or
    /// `|` for sources, a target name for the texture target).
    fn operand_starts_next(&self, kind: OperandKind) -> bool {
        let p = self.cur.ws_end(self.cur.pos);
        let word = self.cur.word_at(p).map(|s| self.cur.slice(s));
        match (self.cur.text.as_bytes().get(p), kind) {
            (Some(b'-') | Some(b'|'), OperandKind::Src) => true,
            (_, OperandKind::Target) => word.is_some_and(|w| TextureTarget::from_name(w).is_some()),
            _ => word.is_some_and(|w| self.is_file_word(w)),
        }
    }

    /// The error for operand `i` missing (`need_comma`: the `,` before it is missing too).
    fn missing_operand(&self, info: &OpInfo, i: usize, need_comma: bool) -> Diagnostic {
        let ndst = info.num_dst as usize;
        let nsrc = info.num_src as usize;
        let which = if i < ndst {
            "a destination operand".to_string()
        } else if i < ndst + nsrc {
            if nsrc > 1 {
                format!("source operand {}", i - ndst + 1)
            } else {
                "a source operand".to_string()
            }
        } else {
            "a texture target".to_string()
        };
        let what = if need_comma { format!("`,` and {}", which) } else { which };
        let (span, found) = self.found();
        let mut msg = format!(
            "`{}` takes {}: expected {}, found {}",
            info.name,
            operand_summary(info),
            what,
            found
        );
        if matches!(info.name, "EMIT" | "ENDPRIM") {
            msg.push_str(
                " (the vertex stream, e.g. `IMM[0].xxxx` holding UINT32 0; older Mesa took none)",
            );
        }
        Diagnostic::error(codes::SYNTAX, msg, span)
    }

    fn unknown_opcode(&self, word: &str, span: Span) -> Diagnostic {
        let upper = word.to_ascii_uppercase();
        let msg = if self.is_file_word(word) {
            format!(
                "expected an instruction, found the register `{}`: does the instruction before take this many operands, or is a `,` missing?",
                word
            )
        } else if Processor::from_name(word).is_some() {
            format!("`{}` is a processor header; a shader has exactly one, on its first line", word)
        } else if upper
            .strip_prefix("UNK")
            .and_then(|n| n.parse::<u16>().ok())
            .is_some_and(Opcode::is_unused_number)
        {
            format!("`{}` is an unused opcode number, not an instruction", word)
        } else {
            let mut m =
                format!("unknown opcode `{}`: expected an instruction, DCL, IMM or PROPERTY", word);
            if let Some(s) = Opcode::one_edit_away(&upper) {
                m.push_str(&format!(" (did you mean `{}`?)", s));
            }
            m
        };
        Diagnostic::error(codes::OPCODE, msg, span)
    }

    fn is_file_word(&self, w: &str) -> bool {
        File::from_name(w).is_some() || LEGACY_FILES.iter().any(|k| w.eq_ignore_ascii_case(k))
    }

    /// A register file name (legacy `RES` is read as IMAGE with a warning).
    pub(crate) fn register_file(&mut self) -> PResult<File> {
        let what = "a register file (TEMP, IN, OUT, CONST, IMM, SAMP, SVIEW, ADDR, SV, IMAGE, BUFFER, MEMORY, CONSTBUF or HWATOMIC)";
        let Some(s) = self.cur.word_at(self.cur.pos) else { return Err(self.expected(what)) };
        let w = self.cur.slice(s);
        if let Some(f) = File::from_name(w).filter(|&f| f != File::Null) {
            self.cur.commit(s.end as usize);
            return Ok(f);
        }
        let upper = w.to_ascii_uppercase();
        let file = match upper.as_str() {
            "NULL" => {
                return Err(Diagnostic::error(
                    codes::FILE,
                    "the NULL register file cannot be written in TGSI text",
                    s,
                ));
            }
            "RES" => {
                self.warn(
                    codes::LEGACY_FILE,
                    "`RES` is the legacy name of the IMAGE register file (renamed in 2014): write `IMAGE`".to_string(),
                    s,
                );
                File::Image
            }
            "IMMX" => {
                return Err(Diagnostic::error(
                    codes::REMOVED_FILE,
                    "the IMMX register file (immediate arrays) was removed from TGSI in 2013: write one `IMM[n] FLT32 {…}` per element and index them as `IMM[ADDR[0].x+n]`",
                    s,
                ));
            }
            "TEMPX" => {
                return Err(Diagnostic::error(
                    codes::REMOVED_FILE,
                    "the TEMPX register file (temporary arrays) was removed from TGSI in 2013: declare `DCL TEMP[a..b], ARRAY(1)` and index it as `TEMP[ADDR[0].x+a](1)`",
                    s,
                ));
            }
            "RGLOBAL" | "RLOCAL" | "RPRIVATE" | "RINPUT" => {
                return Err(Diagnostic::error(
                    codes::REMOVED_FILE,
                    format!(
                        "`{}` is a compute resource of 2012's TGSI, removed since: declare `DCL MEMORY[n], {}` and use `MEMORY[n]`",
                        w,
                        match upper.as_str() {
                            "RGLOBAL" => "GLOBAL",
                            "RLOCAL" => "SHARED",
                            "RPRIVATE" => "PRIVATE",
                            _ => "INPUT",
                        }
                    ),
                    s,
                ));
            }
            "PRED" => {
                return Err(Diagnostic::error(
                    codes::REMOVED_FILE,
                    "the PRED register file (predicates) was removed from TGSI in 2014: compute a condition and branch with IF/UIF",
                    s,
                ));
            }
            _ => match File::from_name(w) {
                Some(f) => f,
                None => {
                    let (span, found) = self.cur.describe_at(s.start as usize);
                    return Err(Diagnostic::error(
                        codes::FILE,
                        format!("expected {}, found {}", what, found),
                        span,
                    ));
                }
            },
        };
        self.cur.commit(s.end as usize);
        Ok(file)
    }

    /// `FILE[index]` or `FILE[dim][index]`, each bracket direct or indirect.
    pub(crate) fn register(&mut self) -> PResult<RegRef> {
        let start = self.cur.pos;
        let file = self.register_file()?;
        self.expect_char(b'[', "`[` after the register file")?;
        let first = self.bracket()?;
        let (dimension, index) = if self.cur.peek_past_ws() == Some(b'[') {
            self.cur.skip_ws();
            self.cur.eat(b'[');
            (Some(first), self.bracket()?)
        } else {
            (None, first)
        };
        Ok(RegRef { file, dimension, index, span: Span::new(start, self.cur.last_end) })
    }

    /// The inside of `[…]` (the `[` is already read), the `]`, and an optional `(array id)`.
    fn bracket(&mut self) -> PResult<Bracket> {
        let open = self.cur.last_end.saturating_sub(1);
        let mut b = Bracket { offset: 0, indirect: None, array_id: 0, span: Span::default() };
        match self.cur.peek_past_ws() {
            Some(c) if c.is_ascii_digit() => {
                b.offset = self.uint("a register index")?.0 as i64;
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                self.cur.skip_ws();
                b.indirect = Some(self.indirect_address()?);
                b.offset = self.indirect_offset()?;
            }
            Some(b'-') => {
                let p = self.cur.ws_end(self.cur.pos);
                return Err(Diagnostic::error(
                    codes::NUMBER,
                    "register indices cannot be negative",
                    Span::new(p, p + 1),
                ));
            }
            _ => {
                return Err(
                    self.expected("a register index or an address register such as `ADDR[0].x`")
                )
            }
        }
        self.expect_char(b']', "`]`")?;
        if self.cur.peek() == Some(b'(') {
            self.cur.eat(b'(');
            b.array_id = self.uint("an array id")?.0;
            self.expect_char(b')', "`)` after the array id")?;
        }
        b.span = Span::new(open, self.cur.last_end);
        Ok(b)
    }

    /// `ADDR[i]` with an optional `.c` component.
    fn indirect_address(&mut self) -> PResult<IndirectAddr> {
        let start = self.cur.pos;
        let file = self.register_file()?;
        self.expect_char(b'[', "`[` after the address register file")?;
        let index = self.uint("the address register index")?.0;
        self.expect_char(b']', "`]` after the address register index")?;
        let mut component = 0;
        if self.cur.peek_past_ws() == Some(b'.') {
            self.cur.skip_ws();
            self.cur.eat(b'.');
            self.cur.skip_ws();
            let what = "the address component `x`, `y`, `z` or `w`";
            let Some(s) = self.cur.word_at(self.cur.pos) else { return Err(self.expected(what)) };
            let w = self.cur.slice(s);
            match channels(w) {
                Some((c, 1)) => component = c[0],
                _ => {
                    return Err(Diagnostic::error(
                        codes::SWIZZLE,
                        format!("an address register gives one component: expected `x`, `y`, `z` or `w`, found `{}`", w),
                        s,
                    ))
                }
            }
            self.cur.commit(s.end as usize);
        }
        Ok(IndirectAddr { file, index, component, span: Span::new(start, self.cur.last_end) })
    }

    /// The `+N` / `-N` after an address register (0 when absent). A blank between the sign and
    /// the number (`ADDR[0].x + 3`, rejected by Mesa since 2012) is accepted with a warning.
    fn indirect_offset(&mut self) -> PResult<i64> {
        let p = self.cur.ws_end(self.cur.pos);
        let bytes = self.cur.text.as_bytes();
        let Some(&sign) = bytes.get(p).filter(|&&c| c == b'+' || c == b'-') else { return Ok(0) };
        self.cur.commit(p + 1);
        if !self.cur.peek().is_some_and(|c| c.is_ascii_digit()) {
            let q = self.cur.ws_end(self.cur.pos);
            if bytes.get(q).is_some_and(|c| c.is_ascii_digit()) && !self.cur.newline_between(p, q) {
                let end = self.cur.word_at(q).map_or(q + 1, |s| s.end as usize);
                let num = &self.cur.text[q..end];
                self.warn(
                    codes::OFFSET_BLANK,
                    format!(
                        "blank between the sign and the offset (accepted by Mesa before 2012): write `{}{}`",
                        sign as char, num
                    ),
                    Span::new(p, end),
                );
                self.cur.pos = q;
            }
        }
        let (v, span) = self
            .cur
            .digits()
            .ok_or_else(|| self.expected("a number after the sign of the offset"))?;
        if self.cur.peek().is_some_and(is_word_byte) {
            return Err(self.expected("`]`"));
        }
        if v > i32::MAX as u64 {
            return Err(Diagnostic::error(
                codes::NUMBER,
                "the offset does not fit in 32 bits",
                span,
            ));
        }
        Ok(if sign == b'-' { -(v as i64) } else { v as i64 })
    }

    fn dst_operand(&mut self) -> PResult<DstOperand> {
        let start = self.cur.pos;
        if matches!(self.cur.peek(), Some(b'-') | Some(b'|')) {
            return Err(Diagnostic::error(
                codes::SYNTAX,
                "a destination operand takes no `-` or `|…|` modifier (use `_SAT` on the opcode to clamp)",
                Span::new(start, start + 1),
            ));
        }
        let reg = self.register()?;
        let write_mask = self.opt_write_mask()?;
        Ok(DstOperand { reg, write_mask, span: Span::new(start, self.cur.last_end) })
    }

    fn src_operand(&mut self) -> PResult<SrcOperand> {
        let start = self.cur.pos;
        if self.cur.peek() == Some(b'+') {
            return Err(Diagnostic::error(
                codes::SYNTAX,
                "`+` is not a source modifier: a source takes `-` (negate) and `|…|` (absolute value)",
                Span::new(start, start + 1),
            ));
        }
        let negate = self.cur.eat(b'-');
        if negate {
            self.cur.skip_ws();
        }
        let absolute = self.cur.eat(b'|');
        if absolute {
            self.cur.skip_ws();
        }
        let reg = self.register()?;
        let swizzle = self.opt_swizzle()?;
        if absolute {
            self.expect_char(b'|', "`|` closing the absolute value")?;
        }
        Ok(SrcOperand { reg, swizzle, negate, absolute, span: Span::new(start, self.cur.last_end) })
    }

    /// Reads `.` and the letters after it when a `.` follows; returns the letters' span.
    fn dot_letters(&mut self, what: &str) -> PResult<Option<Span>> {
        if self.cur.peek_past_ws() != Some(b'.') {
            return Ok(None);
        }
        self.cur.skip_ws();
        self.cur.eat(b'.');
        self.cur.skip_ws();
        match self.cur.word_at(self.cur.pos) {
            Some(s) => {
                self.cur.commit(s.end as usize);
                Ok(Some(s))
            }
            None => Err(self.expected_code(codes::SWIZZLE, what)),
        }
    }

    /// `.xz` etc.: a subset of xyzw in order; xyzw when absent.
    pub(crate) fn opt_write_mask(&mut self) -> PResult<WriteMask> {
        let what = "write mask letters (a subset of `xyzw`, in that order)";
        let Some(s) = self.dot_letters(what)? else { return Ok(WriteMask::XYZW) };
        let w = self.cur.slice(s);
        let Some((chans, n)) = channels(w) else {
            return Err(Diagnostic::error(
                codes::SWIZZLE,
                format!("expected {}, found `.{}`", what, w),
                s,
            ));
        };
        let mut mask = 0u8;
        let mut ordered = true;
        let mut last: i32 = -1;
        for &c in &chans[..n] {
            if (c as i32) <= last {
                ordered = false;
            }
            last = c as i32;
            mask |= 1 << c;
        }
        if !ordered {
            let fixed = WriteMask(mask).suffix();
            return Err(Diagnostic::error(
                codes::SWIZZLE,
                format!("write mask letters go in the order x, y, z, w, each once: write `{}` instead of `.{}`", fixed, w),
                s,
            ));
        }
        Ok(WriteMask(mask))
    }

    /// `.xyzw`-style source swizzle: four letters, or one letter replicated (with a warning).
    fn opt_swizzle(&mut self) -> PResult<Swizzle> {
        let what = "swizzle letters (four of `x`, `y`, `z`, `w`)";
        let Some(s) = self.dot_letters(what)? else { return Ok(Swizzle::IDENTITY) };
        let w = self.cur.slice(s);
        let letters_ok = w.bytes().all(|c| channel(c).is_some());
        if !letters_ok {
            return Err(Diagnostic::error(
                codes::SWIZZLE,
                format!("swizzle letters are `x`, `y`, `z` and `w`: found `.{}`", w),
                s,
            ));
        }
        let (chans, n) = channels(w).unwrap_or(([0; 4], w.len()));
        match n {
            4 => Ok(Swizzle(chans)),
            1 => {
                let l = w.to_ascii_lowercase();
                self.warn(
                    codes::SHORT_SWIZZLE,
                    format!("one-letter source swizzle `.{}` is read as `.{}`; standard TGSI needs all four letters", w, l.repeat(4)),
                    s,
                );
                Ok(Swizzle([chans[0]; 4]))
            }
            _ => Err(Diagnostic::error(
                codes::SWIZZLE,
                format!(
                    "a source swizzle has four letters (or one, replicated): found `.{}`; write e.g. `.{}`",
                    w,
                    pad_swizzle(&w.to_ascii_lowercase())
                ),
                s,
            )),
        }
    }

    pub(crate) fn texture_target(&mut self) -> PResult<TextureTarget> {
        let what =
            "a texture target (1D, 2D, 3D, CUBE, RECT, SHADOW2D, 2D_ARRAY, CUBEARRAY, BUFFER, …)";
        let Some(s) = self.cur.word_at(self.cur.pos) else { return Err(self.expected(what)) };
        match TextureTarget::from_name(self.cur.slice(s)) {
            Some(t) => {
                self.cur.commit(s.end as usize);
                Ok(t)
            }
            None => Err(self.expected(what)),
        }
    }

    /// `FILE[i]` with an optional three-letter swizzle: a texel offset of a texture instruction.
    fn tex_offset(&mut self) -> PResult<TexOffset> {
        let start = self.cur.pos;
        let file = self.register_file()?;
        self.expect_char(b'[', "`[` after the register file")?;
        let (i, _) = self.uint("a register index")?;
        self.expect_char(b']', "`]`")?;
        let reg = RegRef {
            file,
            dimension: None,
            index: Bracket::direct(i as i64),
            span: Span::new(start, self.cur.last_end),
        };
        let mut swizzle = [0, 1, 2];
        if let Some(s) = self.dot_letters("three swizzle letters")? {
            let w = self.cur.slice(s);
            match channels(w) {
                Some((c, 3)) => swizzle = [c[0], c[1], c[2]],
                _ => {
                    return Err(Diagnostic::error(
                        codes::SWIZZLE,
                        format!("a texel offset swizzle has three letters of `x`, `y`, `z`, `w`: found `.{}`", w),
                        s,
                    ))
                }
            }
        }
        Ok(TexOffset { reg, swizzle, span: Span::new(start, self.cur.last_end) })
    }
}

#[derive(Clone, Copy)]
enum OperandKind {
    Dst,
    Src,
    Target,
}

/// Register file names of old Mesa that are recognised to give a precise diagnostic.
const LEGACY_FILES: &[&str] =
    &["RES", "IMMX", "TEMPX", "PRED", "RGLOBAL", "RLOCAL", "RPRIVATE", "RINPUT"];

/// `x`/`y`/`z`/`w` (any case) → 0..3.
fn channel(c: u8) -> Option<u8> {
    match c | 0x20 {
        b'x' => Some(0),
        b'y' => Some(1),
        b'z' => Some(2),
        b'w' => Some(3),
        _ => None,
    }
}

/// The channels of a swizzle word, up to four letters (`None` for anything else).
fn channels(w: &str) -> Option<([u8; 4], usize)> {
    let b = w.as_bytes();
    if b.len() > 4 {
        return None;
    }
    let mut out = [0u8; 4];
    for (o, &c) in out.iter_mut().zip(b) {
        *o = channel(c)?;
    }
    Some((out, b.len()))
}

/// `xy` → `xyyy` (the last letter repeated), for suggestions.
fn pad_swizzle(s: &str) -> String {
    let mut out: String = s.chars().take(4).collect();
    let last = out.chars().last().unwrap_or('x');
    while out.chars().count() < 4 {
        out.push(last);
    }
    out
}

/// `PIPE_FORMAT_…` (any case): the format names of Gallium.
pub(crate) fn is_format_name(w: &str) -> bool {
    w.len() > 12 && w[..12].eq_ignore_ascii_case("PIPE_FORMAT_")
}
