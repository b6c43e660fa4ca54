//! Assembler for the syntax of Adobe's AGALMiniAssembler (docs/agal.md "Operands", "Sampler",
//! "Assembler output"): one instruction per line, `//` comments, `op dest, src1, src2`,
//! `vc[va0.x+5]` indirect reads and `<…>` sampler options. It produces Adobe's bytes, and it
//! reports as errors what Adobe's assembler silently drops or mis-encodes (unknown opcodes,
//! negative or missing index parts, unknown sampler words, out-of-range biases).

use super::bytecode::*;
use crate::diag::Diagnostic;
use crate::ir::Span;

/// The result of assembling: the program (with the instructions that assembled) and, per
/// instruction, the span of its source line; `errors` is empty on success.
#[derive(Clone, Debug)]
pub struct Assembled {
    pub program: Program,
    pub spans: Vec<Span>,
    pub errors: Vec<Diagnostic>,
}

/// Adobe's own cap on instructions per program (2015 assembler, docs/agal.md "Limits per version").
const MAX_INSTRUCTIONS: usize = 4096;

/// Assembly register names: (name, type, allowed in vertex, allowed in fragment) (docs/agal.md
/// "Register types").
const REG_NAMES: &[(&str, RegType, bool, bool)] = &[
    ("va", RegType::Attribute, true, false),
    ("vc", RegType::Constant, true, false),
    ("vt", RegType::Temporary, true, false),
    ("vo", RegType::Output, true, false),
    ("op", RegType::Output, true, false),
    ("v", RegType::Varying, true, true),
    ("vi", RegType::Varying, true, true),
    ("i", RegType::Varying, true, true),
    ("fi", RegType::Varying, true, true),
    ("fc", RegType::Constant, false, true),
    ("ft", RegType::Temporary, false, true),
    ("fs", RegType::Sampler, false, true),
    ("fo", RegType::Output, false, true),
    ("oc", RegType::Output, false, true),
    ("fd", RegType::Depth, false, true),
    ("od", RegType::Depth, false, true),
    ("iid", RegType::InstanceId, true, false),
    ("vs", RegType::Sampler, true, false),
];

/// Assembles `text` as a program of `kind` and AGAL `version`.
pub fn assemble(text: &str, kind: ShaderKind, version: u32) -> Assembled {
    let mut out = Assembled {
        program: Program { version, kind, code: Vec::new() },
        spans: Vec::new(),
        errors: Vec::new(),
    };
    let mut start = 0usize;
    for raw in text.split_inclusive(['\n', '\r', '\x0b', '\x0c']) {
        let line_start = start;
        start += raw.len();
        let body = raw.trim_end_matches(['\n', '\r', '\x0b', '\x0c']);
        let body = match body.find("//") {
            Some(i) => &body[..i],
            None => body,
        };
        let lead = body.len() - body.trim_start().len();
        let line = body.trim();
        if line.is_empty() {
            continue;
        }
        let span = Span::new(line_start + lead, line_start + lead + line.len());
        if out.program.code.len() >= MAX_INSTRUCTIONS {
            out.errors.push(Diagnostic::error(
                "A0110",
                format!("too many instructions (the maximum is {})", MAX_INSTRUCTIONS),
                span,
            ));
            break;
        }
        let ctx = LineCtx { kind, version, base: line_start + lead, end: span.end as usize };
        match ctx.instruction(line) {
            Ok(ins) => {
                out.program.code.push(ins);
                out.spans.push(span);
            }
            Err(e) => out.errors.push(e),
        }
    }
    out
}

struct LineCtx {
    kind: ShaderKind,
    version: u32,
    /// Byte offset of the line's first character in the whole text.
    base: usize,
    /// Byte offset just past the line's last character.
    end: usize,
}

type R<T> = Result<T, Diagnostic>;

impl LineCtx {
    fn error(
        &self,
        code: &'static str,
        msg: impl Into<String>,
        at: usize,
        len: usize,
    ) -> Diagnostic {
        // At least one character wide, but never past the end of the line (an empty operand at
        // the end of a truncated line is an empty span there).
        let start = (self.base + at).min(self.end);
        let stop = (start + len.max(1)).min(self.end);
        Diagnostic::error(code, msg, Span::new(start, stop))
    }

    fn instruction(&self, line: &str) -> R<Instruction> {
        let name_len = line.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(line.len());
        let name = &line[..name_len];
        let info = match op_by_name(name) {
            Some(i) => i,
            None => {
                let hint = if name == "m43" {
                    " (AwayJS's spelling of m34)"
                } else if op_by_name(&name.to_ascii_lowercase()).is_some() {
                    " (opcodes are lower-case)"
                } else {
                    ""
                };
                return Err(self.error(
                    "A0101",
                    format!(
                        "unknown opcode '{}'{}; Adobe's assembler would silently drop this line",
                        name, hint
                    ),
                    0,
                    name_len,
                ));
            }
        };
        if info.min_version > self.version && info.min_version <= 2 {
            return Err(self.error(
                "A3726",
                format!("{} needs AGAL version 2 or later", info.name),
                0,
                name_len,
            ));
        }
        match (info.stage, self.kind) {
            (Stage::FragmentOnly, ShaderKind::Vertex) => {
                return Err(self.error(
                    "A3622",
                    format!("{} is only allowed in fragment programs", info.name),
                    0,
                    name_len,
                ))
            }
            (Stage::VertexOnly, ShaderKind::Fragment) => {
                return Err(self.error(
                    "A3803",
                    format!("{} is only allowed in vertex programs", info.name),
                    0,
                    name_len,
                ))
            }
            _ => {}
        }
        let mut rest = &line[name_len..];
        let mut rest_at = name_len;
        // Sampler options: from the first '<' to the last '>' (Adobe's `/<.*>/`).
        let mut options: Option<(&str, usize)> = None;
        if let Some(lt) = rest.find('<') {
            let Some(gt) = rest.rfind('>').filter(|&g| g > lt) else {
                return Err(self.error("A0108", "'<' without a closing '>'", rest_at + lt, 1));
            };
            options = Some((&rest[lt + 1..gt], rest_at + lt + 1));
            if !rest[gt + 1..].trim().is_empty() {
                return Err(self.error(
                    "A0102",
                    "unexpected text after the sampler options",
                    rest_at + gt + 1,
                    rest.len() - gt - 1,
                ));
            }
            rest = &rest[..lt];
        }
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            return Err(self.error(
                "A0101",
                format!("unknown opcode '{}'", line.split_whitespace().next().unwrap_or("")),
                0,
                name_len,
            ));
        }
        let trimmed = rest.trim_start();
        rest_at += rest.len() - trimmed.len();
        rest = trimmed.trim_end();
        let operands = split_operands(rest, rest_at);
        let expected = info.dest as usize + info.sources as usize + info.sampler as usize;
        if operands.len() != expected {
            return Err(self.error(
                "A0102",
                format!("{} takes {} operand(s), found {}", info.name, expected, operands.len()),
                0,
                line.len(),
            ));
        }
        if options.is_some() && !info.sampler {
            return Err(self.error(
                "A0108",
                format!("{} takes no sampler options", info.name),
                0,
                line.len(),
            ));
        }
        let mut ins =
            Instruction { op: info.code, dest: None, src1: None, src2: None, sampler: None };
        let mut it = operands.into_iter();
        if info.dest {
            if let Some((text, at)) = it.next() {
                ins.dest = Some(self.dest(text, at)?);
            }
        }
        for slot in 0..info.sources {
            if let Some((text, at)) = it.next() {
                let s = self.source(text, at)?;
                if slot == 0 {
                    ins.src1 = Some(s);
                } else {
                    ins.src2 = Some(s);
                }
            }
        }
        if info.sampler {
            if let Some((text, at)) = it.next() {
                ins.sampler = Some(self.sampler(text, at, options)?);
            }
        }
        Ok(ins)
    }

    /// Register name and number at the start of `text`; returns (type, number, rest).
    fn register<'a>(&self, text: &'a str, at: usize) -> R<(RegType, u16, &'a str)> {
        let name_len = text.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(text.len());
        let name = &text[..name_len];
        let Some(&(_, reg, in_vertex, in_fragment)) = REG_NAMES.iter().find(|r| r.0 == name) else {
            return Err(self.error(
                "A0103",
                format!("unknown register '{}'", text),
                at,
                text.len(),
            ));
        };
        match self.kind {
            ShaderKind::Vertex if !in_vertex => {
                return Err(self.error(
                    "A0104",
                    format!("register '{}' is only allowed in fragment programs", name),
                    at,
                    name_len,
                ))
            }
            ShaderKind::Fragment if !in_fragment => {
                return Err(self.error(
                    "A0104",
                    format!("register '{}' is only allowed in vertex programs", name),
                    at,
                    name_len,
                ))
            }
            _ => {}
        }
        let rest = &text[name_len..];
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let number: u16 = if digits == 0 {
            0
        } else {
            rest[..digits].parse().map_err(|_| {
                self.error(
                    "A0105",
                    format!("register number '{}' is too large", &rest[..digits]),
                    at + name_len,
                    digits,
                )
            })?
        };
        self.check_range(reg, number, name, at, name_len + digits)?;
        Ok((reg, number, &rest[digits..]))
    }

    fn check_range(&self, reg: RegType, number: u16, name: &str, at: usize, len: usize) -> R<()> {
        // Adobe's assembler never range-checks fd in AGAL1 (its range is -1 as a uint, docs/agal.md
        // "Limits per version").
        if reg == RegType::Depth && self.version <= 1 {
            return Ok(());
        }
        let count = limits(self.version).count(reg, self.kind);
        if number >= count {
            return Err(self.error(
                "A0105",
                format!(
                    "{}{} is out of range: AGAL {} {} programs have {} '{}' register(s)",
                    name,
                    number,
                    self.version,
                    self.kind.word(),
                    count,
                    name
                ),
                at,
                len,
            ));
        }
        Ok(())
    }

    fn dest(&self, text: &str, at: usize) -> R<Dest> {
        if text.contains('[') {
            return Err(self.error(
                "A0106",
                "a destination cannot be addressed indirectly",
                at,
                text.len(),
            ));
        }
        let (reg, index, rest) = self.register(text, at)?;
        let mask = match rest {
            "" => 0xF,
            _ => {
                let letters = self.suffix(rest, at + text.len() - rest.len())?;
                letters.iter().fold(0u8, |m, &c| m | (1 << c))
            }
        };
        Ok(Dest { reg, index, mask })
    }

    /// `.xyzw`-style suffix: 1 to 4 component letters, as numbers 0..3.
    fn suffix(&self, rest: &str, at: usize) -> R<Vec<u8>> {
        let bad = || {
            self.error(
                "A0107",
                format!("bad component suffix '{}' (expected '.' and 1 to 4 of x, y, z, w)", rest),
                at,
                rest.len(),
            )
        };
        let letters = rest.strip_prefix('.').ok_or_else(bad)?;
        if letters.is_empty() || letters.len() > 4 {
            return Err(bad());
        }
        letters.chars().map(|c| "xyzw".find(c).map(|i| i as u8).ok_or_else(bad)).collect()
    }

    fn swizzle(&self, rest: &str, at: usize) -> R<u8> {
        if rest.is_empty() {
            return Ok(SWIZZLE_IDENTITY);
        }
        let letters = self.suffix(rest, at)?;
        let last = letters.last().copied().unwrap_or(0);
        // A short swizzle repeats its last letter (docs/agal.md "Operands").
        Ok((0..4).fold(0u8, |s, i| s | (letters.get(i).copied().unwrap_or(last) << (2 * i))))
    }

    fn source(&self, text: &str, at: usize) -> R<Source> {
        let Some(open) = text.find('[') else {
            let (reg, index, rest) = self.register(text, at)?;
            let swizzle = self.swizzle(rest, at + text.len() - rest.len())?;
            return Ok(Source { reg, index, swizzle, indirect: None });
        };
        if self.kind == ShaderKind::Fragment {
            return Err(self.error(
                "A3639",
                "indirect addressing is only allowed in vertex programs",
                at,
                text.len(),
            ));
        }
        let name = &text[..open];
        if name != "vc" {
            return Err(self.error(
                "A3640",
                format!("indirect addressing reads only constants ('vc[…]'), not '{}'", name),
                at,
                text.len(),
            ));
        }
        let Some(close) = text.find(']') else {
            return Err(self.error("A0106", "'[' without a closing ']'", at + open, 1));
        };
        let inner: String = text[open + 1..close].chars().filter(|c| !c.is_whitespace()).collect();
        let inner_at = at + open + 1;
        let (index_part, offset) = match inner.find(['+', '-']) {
            Some(p) if inner[p..].starts_with('-') => {
                return Err(self.error(
                    "A0106",
                    "negative index offsets cannot be encoded (the offset is an unsigned byte, 0 to 255)",
                    inner_at,
                    close - open - 1,
                ))
            }
            Some(p) => {
                let digits = &inner[p + 1..];
                let value: u32 = digits
                    .parse()
                    .ok()
                    .filter(|_| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| self.error("A0106", format!("bad index offset '+{}'", digits), inner_at, close - open - 1))?;
                if value > 255 {
                    return Err(self.error("A0106", format!("index offset {} is out of range (0 to 255)", value), inner_at, close - open - 1));
                }
                (&inner[..p], value as u16)
            }
            None => (&inner[..], 0),
        };
        let (ireg, inum, irest) = self.register(index_part, inner_at)?;
        let comp = match irest {
            ".x" => 0,
            ".y" => 1,
            ".z" => 2,
            ".w" => 3,
            _ => {
                return Err(self.error(
                    "A0106",
                    format!("the index register needs exactly one component, as in 'vc[va0.x+5]' (found '{}')", index_part),
                    inner_at,
                    close - open - 1,
                ))
            }
        };
        let after = &text[close + 1..];
        let swizzle = self.swizzle(after, at + close + 1)?;
        Ok(Source {
            reg: RegType::Constant,
            index: offset,
            swizzle,
            indirect: Some(IndexReg { reg: ireg, index: inum, component: comp }),
        })
    }

    fn sampler(&self, text: &str, at: usize, options: Option<(&str, usize)>) -> R<Sampler> {
        let (reg, index, rest) = self.register(text, at)?;
        if reg != RegType::Sampler {
            return Err(self.error(
                "A3693",
                format!(
                    "the last operand of a texture instruction must be a sampler, not '{}'",
                    text
                ),
                at,
                text.len(),
            ));
        }
        if !rest.is_empty() {
            return Err(self.error(
                "A0107",
                format!("a sampler takes no suffix ('{}')", rest),
                at,
                text.len(),
            ));
        }
        let mut s = Sampler::new(index);
        let Some((opts, opts_at)) = options else {
            return Ok(s);
        };
        // Words are runs of [A-Za-z0-9_.+-]; anything else separates them (Adobe's option regex).
        let is_word = |c: char| c.is_ascii_alphanumeric() || "_.+-".contains(c);
        let mut pos = 0;
        for word in opts.split(|c: char| !is_word(c)) {
            let word_at = opts_at + pos;
            pos += word.len() + 1;
            if word.is_empty() {
                continue;
            }
            let find = |names: &[&str]| names.iter().position(|n| *n == word).map(|p| p as u8);
            if let Some(v) = find(DIM_NAMES) {
                s.dim = v;
            } else if let Some(v) = find(FORMAT_NAMES) {
                s.format = v;
            } else if let Some(v) = find(FILTER_NAMES) {
                s.filter = v;
            } else if let Some(v) = find(MIP_NAMES) {
                s.mip = v;
            } else if let Some(v) = find(WRAP_NAMES) {
                s.wrap = v;
            } else if let Some((bit, _)) = SPECIAL_NAMES.iter().find(|(_, n)| *n == word) {
                s.special |= bit;
            } else {
                match word {
                    "nomip" => s.mip = 0,
                    "wrap" => s.wrap = 1,
                    "dxt1" => s.format = 1,
                    "dxt5" => s.format = 2,
                    "depth" => s.special |= 4,
                    _ => s.bias = self.bias(word, word_at)?,
                }
            }
        }
        Ok(s)
    }

    /// LOD bias: Adobe writes `int(bias * 8)` into a signed byte (docs/agal.md "Sampler").
    fn bias(&self, word: &str, at: usize) -> R<i8> {
        let v =
            crate::text::decimal::parse_f64(word).filter(|v| v.is_finite()).ok_or_else(|| {
                self.error("A0108", format!("unknown sampler option '{}'", word), at, word.len())
            })?;
        let eighths = (v * 8.0).trunc();
        if !(-128.0..=127.0).contains(&eighths) {
            return Err(self.error(
                "A0108",
                format!("LOD bias {} is out of range (-16 to 15.875)", word),
                at,
                word.len(),
            ));
        }
        Ok(eighths as i8)
    }
}

/// Splits operands on commas outside brackets; each with its offset in the line.
fn split_operands(text: &str, at: usize) -> Vec<(&str, usize)> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(piece(text, start, i, at));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(piece(text, start, text.len(), at));
    out
}

fn piece(text: &str, start: usize, end: usize, at: usize) -> (&str, usize) {
    let raw = &text[start..end];
    let lead = raw.len() - raw.trim_start().len();
    (raw.trim(), at + start + lead)
}
