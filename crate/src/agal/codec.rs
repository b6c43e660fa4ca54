//! Encoding programs to bytes and decoding bytes back (docs/agal.md "The bytecode"). The decoder
//! accepts only what the encoder can produce, so `encode(decode(b)) == b` for every accepted input;
//! anything else is rejected with the byte offset, the reason and, where Flash has one, its error
//! number.

use super::bytecode::*;
use serde::Serialize;

/// Header size: magic, version u32, program-id tag, program type (docs/agal.md "Layout").
pub const HEADER_LEN: usize = 7;
/// Token size (docs/agal.md "Layout").
pub const TOKEN_LEN: usize = 24;

/// Why bytes are not an AGAL program.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecodeError {
    /// Byte offset of the offending field.
    pub offset: usize,
    /// `A` + Flash error number where Flash has one, else an `A0…` code of ours.
    pub code: &'static str,
    pub message: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: {} [{}]", self.offset, self.message, self.code)
    }
}

/// Serialises a program (docs/agal.md "The bytecode"). Fields an opcode does not use are written as
/// zeros (docs/agal.md "Layout").
pub fn encode(p: &Program) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + TOKEN_LEN * p.code.len());
    out.push(0xA0);
    out.extend_from_slice(&p.version.to_le_bytes());
    out.push(0xA1);
    out.push(p.kind.code());
    for ins in &p.code {
        out.extend_from_slice(&encode_token(ins));
    }
    out
}

/// The 24 bytes of one instruction.
pub fn encode_token(ins: &Instruction) -> [u8; TOKEN_LEN] {
    let mut t = [0u8; TOKEN_LEN];
    t[0..4].copy_from_slice(&(ins.op as u32).to_le_bytes());
    if let Some(d) = ins.dest {
        t[4..6].copy_from_slice(&d.index.to_le_bytes());
        t[6] = d.mask & 0xF;
        t[7] = d.reg.code();
    }
    if let Some(s) = ins.src1 {
        t[8..16].copy_from_slice(&encode_source(&s));
    }
    if let Some(s) = ins.src2 {
        t[16..24].copy_from_slice(&encode_source(&s));
    }
    if let Some(s) = ins.sampler {
        t[16..24].copy_from_slice(&encode_sampler(&s));
    }
    t
}

fn encode_source(s: &Source) -> [u8; 8] {
    let mut b = [0u8; 8];
    match s.indirect {
        None => b[0..2].copy_from_slice(&s.index.to_le_bytes()),
        Some(ir) => {
            b[0..2].copy_from_slice(&ir.index.to_le_bytes());
            b[2] = s.index as u8;
            b[5] = ir.reg.code();
            b[6] = ir.component & 3;
            b[7] = 0x80;
        }
    }
    b[3] = s.swizzle;
    b[4] = s.reg.code();
    b
}

fn encode_sampler(s: &Sampler) -> [u8; 8] {
    let mut b = [0u8; 8];
    b[0..2].copy_from_slice(&s.index.to_le_bytes());
    b[2] = s.bias as u8;
    b[4] = RegType::Sampler.code();
    b[5] = (s.dim << 4) | (s.format & 0xF);
    b[6] = (s.wrap << 4) | (s.special & 0xF);
    b[7] = (s.filter << 4) | (s.mip & 0xF);
    b
}

fn err(offset: usize, code: &'static str, message: impl Into<String>) -> DecodeError {
    DecodeError { offset, code, message: message.into() }
}

/// Parses bytes into a program. Never panics; the first problem found is returned.
pub fn decode(bytes: &[u8]) -> Result<Program, DecodeError> {
    if bytes.len() < HEADER_LEN + TOKEN_LEN {
        return Err(err(
            bytes.len(),
            "A3615",
            format!(
                "program size {} is below the minimum of {} bytes (header and one token)",
                bytes.len(),
                HEADER_LEN + TOKEN_LEN
            ),
        ));
    }
    if bytes[0] != 0xA0 {
        return Err(err(0, "A3612", format!("magic byte is 0x{:02x}, expected 0xa0", bytes[0])));
    }
    let version = u32::from_le_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
    if !(1..=3).contains(&version) {
        return Err(err(
            1,
            "A3617",
            format!("AGAL version {} is not defined (1, 2 or 3)", version),
        ));
    }
    if bytes[5] != 0xA1 {
        return Err(err(
            5,
            "A3618",
            format!("program-type tag is 0x{:02x}, expected 0xa1", bytes[5]),
        ));
    }
    let kind = match bytes[6] {
        0 => ShaderKind::Vertex,
        1 => ShaderKind::Fragment,
        other => {
            return Err(err(
                6,
                "A3619",
                format!("program type {} is neither 0 (vertex) nor 1 (fragment)", other),
            ))
        }
    };
    let body = &bytes[HEADER_LEN..];
    if !body.len().is_multiple_of(TOKEN_LEN) {
        let last = HEADER_LEN + body.len() / TOKEN_LEN * TOKEN_LEN;
        return Err(err(
            last,
            "A0001",
            format!(
                "truncated token: {} bytes left over after the last whole 24-byte token",
                body.len() % TOKEN_LEN
            ),
        ));
    }
    let mut code = Vec::with_capacity(body.len() / TOKEN_LEN);
    for (i, chunk) in body.chunks_exact(TOKEN_LEN).enumerate() {
        let mut t = [0u8; TOKEN_LEN];
        t.copy_from_slice(chunk);
        code.push(decode_token(&t, HEADER_LEN + i * TOKEN_LEN)?);
    }
    Ok(Program { version, kind, code })
}

fn u16_at(t: &[u8; TOKEN_LEN], at: usize) -> u16 {
    u16::from_le_bytes([t[at], t[at + 1]])
}

fn all_zero(t: &[u8; TOKEN_LEN], range: std::ops::Range<usize>) -> Option<usize> {
    range.into_iter().find(|&i| t[i] != 0)
}

/// Decodes one token starting at file offset `base`.
pub fn decode_token(t: &[u8; TOKEN_LEN], base: usize) -> Result<Instruction, DecodeError> {
    let raw_op = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    let info = u8::try_from(raw_op).ok().and_then(op_info).ok_or_else(|| {
        err(base, "A3620", format!("opcode 0x{:x} is not an AGAL opcode", raw_op))
    })?;
    let mut ins = Instruction { op: info.code, dest: None, src1: None, src2: None, sampler: None };
    if info.dest {
        ins.dest = Some(decode_dest(t, base)?);
    } else if let Some(i) = all_zero(t, 4..8) {
        return Err(err(
            base + i,
            "A3627",
            format!("{} has no destination, but the destination field is not zero", info.name),
        ));
    }
    if info.sources >= 1 {
        ins.src1 = Some(decode_source(t, 8, base)?);
    } else if let Some(i) = all_zero(t, 8..16) {
        return Err(err(
            base + i,
            "A3636",
            format!("{} has no source 1, but that field is not zero", info.name),
        ));
    }
    if info.sampler {
        ins.sampler = Some(decode_sampler(t, base)?);
    } else if info.sources >= 2 {
        ins.src2 = Some(decode_source(t, 16, base)?);
    } else if let Some(i) = all_zero(t, 16..24) {
        return Err(err(
            base + i,
            "A3636",
            format!("{} has no source 2, but that field is not zero", info.name),
        ));
    }
    Ok(ins)
}

fn reg_type(code: u8, offset: usize) -> Result<RegType, DecodeError> {
    RegType::from_code(code)
        .ok_or_else(|| err(offset, "A3655", format!("register type {} is unknown", code)))
}

fn decode_dest(t: &[u8; TOKEN_LEN], base: usize) -> Result<Dest, DecodeError> {
    if t[6] & 0xF0 != 0 {
        return Err(err(base + 6, "A3654", "reserved bits of the write-mask byte are not zero"));
    }
    if t[7] & 0xF0 != 0 {
        return Err(err(
            base + 7,
            "A3654",
            "reserved bits of the destination type byte are not zero",
        ));
    }
    let mask = t[6] & 0xF;
    if mask == 0 {
        return Err(err(base + 6, "A3653", "write mask is zero"));
    }
    Ok(Dest { reg: reg_type(t[7], base + 7)?, index: u16_at(t, 4), mask })
}

fn decode_source(t: &[u8; TOKEN_LEN], at: usize, base: usize) -> Result<Source, DecodeError> {
    let off = base + at;
    if t[at + 4] & 0xF0 != 0
        || t[at + 5] & 0xF0 != 0
        || t[at + 6] & 0xFC != 0
        || t[at + 7] & 0x7F != 0
    {
        return Err(err(off + 4, "A3654", "reserved bits of a source operand are not zero"));
    }
    let reg = reg_type(t[at + 4], off + 4)?;
    let swizzle = t[at + 3];
    if t[at + 7] & 0x80 == 0 {
        if t[at + 2] != 0 || t[at + 5] != 0 || t[at + 6] != 0 {
            return Err(err(
                off + 2,
                "A3643",
                "indirect-addressing fields are set on a direct source",
            ));
        }
        return Ok(Source { reg, index: u16_at(t, at), swizzle, indirect: None });
    }
    let ireg = reg_type(t[at + 5], off + 5)?;
    Ok(Source {
        reg,
        index: t[at + 2] as u16,
        swizzle,
        indirect: Some(IndexReg { reg: ireg, index: u16_at(t, at), component: t[at + 6] & 3 }),
    })
}

fn decode_sampler(t: &[u8; TOKEN_LEN], base: usize) -> Result<Sampler, DecodeError> {
    let off = base + 16;
    if t[19] != 0 {
        return Err(err(off + 3, "A3654", "reserved byte of the sampler operand is not zero"));
    }
    if t[20] != RegType::Sampler.code() {
        return Err(err(
            off + 4,
            "A3693",
            format!("sampler operand has register type {}, expected 5 (sampler)", t[20]),
        ));
    }
    let s = Sampler {
        index: u16_at(t, 16),
        bias: t[18] as i8,
        format: t[21] & 0xF,
        dim: t[21] >> 4,
        special: t[22] & 0xF,
        wrap: t[22] >> 4,
        mip: t[23] & 0xF,
        filter: t[23] >> 4,
    };
    let check = |v: u8, names: &[&str], at: usize, code: &'static str, what: &str| {
        if (v as usize) < names.len() {
            Ok(())
        } else {
            Err(err(off + at, code, format!("sampler {} value {} is unknown", what, v)))
        }
    };
    check(s.format, FORMAT_NAMES, 5, "A3763", "format")?;
    check(s.dim, DIM_NAMES, 5, "A3664", "dimension")?;
    check(s.special, &["", "", "", "", "", "", "", ""], 6, "A3668", "special-flag")?;
    check(s.wrap, WRAP_NAMES, 6, "A3667", "wrap")?;
    check(s.mip, MIP_NAMES, 7, "A3666", "mipmap")?;
    check(s.filter, FILTER_NAMES, 7, "A3665", "filter")?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn decodes_relative_source_of_section_11() {
        // docs/agal.md "Operands": `mov vt0, vc[va0.x+5]`, source 1 = 00 00 05 e4 01 00 00 80.
        let mut b = hex("a0 01000000 a1 00");
        b.extend(hex("00000000 00000f02 000005e401000080 0000000000000000"));
        let p = decode(&b).unwrap();
        let s = p.code[0].src1.unwrap();
        assert_eq!(s.index, 5);
        assert_eq!(s.indirect, Some(IndexReg { reg: RegType::Attribute, index: 0, component: 0 }));
        assert_eq!(encode(&p), b);
    }

    #[test]
    fn rejects_nonzero_unused_fields() {
        let mut b = hex("a0 01000000 a1 01");
        b.extend(hex("27000000 00000001 0000000002000000 0000000000000000"));
        let e = decode(&b).unwrap_err();
        assert_eq!((e.offset, e.code), (7 + 7, "A3627"));
    }
}
