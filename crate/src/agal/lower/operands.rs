//! Operand translation of the export: TGSI registers to AGAL registers (virtual temporaries until
//! allocation), swizzles, and the `-x` / `|x|` modifiers, which AGAL lacks and which become
//! `neg` / `abs` into a scratch temporary.

use super::Lower;
use crate::agal::bytecode::*;
use crate::ir::{DstOperand, File, ImmType, RegRef, SemanticName, SrcOperand, CHANNEL_NAMES};

/// Component of the internal constant register holding 0, 1, −1 (`Lower::special`).
pub const ZERO: u8 = 0;
pub const ONE: u8 = 1;
pub const MINUS_ONE: u8 = 2;

/// Swizzle byte from TGSI's four channel numbers (docs/agal.md "Operands": lane i in bits
/// 2i..2i+1).
pub fn swizzle_byte(s: [u8; 4]) -> u8 {
    (0..4).fold(0u8, |b, i| b | ((s[i] & 3) << (2 * i)))
}

/// A replicated swizzle `.cccc`.
pub fn replicate(c: u8) -> u8 {
    (c & 3) * 0x55
}

impl Lower<'_> {
    /// A fresh scratch temporary (virtual).
    pub fn scratch(&mut self) -> Option<u16> {
        self.new_virtual()
    }

    /// The internal constant 0, 1 or −1 as a replicated scalar source, packed with the
    /// immediates.
    pub fn special(&mut self, c: u8) -> Source {
        let v: f32 = match c {
            ZERO => 0.0,
            ONE => 1.0,
            _ => -1.0,
        };
        let (reg, slots) = self.pack(&[(v.to_bits(), format!("{} (internal)", v))]);
        let slot = slots.first().copied().unwrap_or(0);
        Source::direct(RegType::Constant, self.imm_base.saturating_add(reg), replicate(slot))
    }

    /// Places values (bits, label) in the constant pool that follows CONST: into the first
    /// register that already holds them or has room, else a new one. Returns the register's
    /// offset in the pool and the slot of each value.
    pub fn pack(&mut self, values: &[(u32, String)]) -> (u16, Vec<u8>) {
        let fits = |reg: &[Option<(u32, String)>; 4]| {
            let mut missing: Vec<u32> = values
                .iter()
                .map(|(b, _)| *b)
                .filter(|b| !reg.iter().flatten().any(|(x, _)| x == b))
                .collect();
            missing.sort_unstable();
            missing.dedup();
            missing.len() <= reg.iter().filter(|s| s.is_none()).count()
        };
        let r = match self.pool.iter().position(fits) {
            Some(r) => r,
            None => {
                self.pool.push([None, None, None, None]);
                self.pool.len() - 1
            }
        };
        let mut slots = Vec::with_capacity(values.len());
        if let Some(reg) = self.pool.get_mut(r) {
            for (bits, label) in values {
                let at = match reg.iter().position(|s| s.as_ref().is_some_and(|(b, _)| b == bits)) {
                    Some(i) => i,
                    None => {
                        let free = reg.iter().position(|s| s.is_none()).unwrap_or(0) & 3;
                        reg[free] = Some((*bits, label.clone()));
                        free
                    }
                };
                slots.push(at as u8);
            }
        }
        (u16::try_from(r).unwrap_or(u16::MAX), slots)
    }

    /// An immediate operand: its values for the lanes in `lanes` (after `|x|` and `-`, which
    /// are folded into the bits) packed into the pool, with a swizzle picking them.
    fn immediate(&mut self, op: &SrcOperand, swz: [u8; 4], lanes: u8) -> Option<Source> {
        let i = self.index_of(&op.reg)?;
        let Some(imm) = self.shader.immediates.get(i as usize) else {
            return self.refuse_none(op.reg.span, format!("IMM[{}] is not declared", i));
        };
        // 32-bit immediates are uploaded bit for bit; Mesa writes float constants as UINT32
        // bit patterns, which float instructions read as floats.
        if !matches!(imm.ty, ImmType::Flt32 | ImmType::Uint32 | ImmType::Int32) {
            let msg = format!(
                "IMM[{}]: {} immediates are 64-bit; AGAL registers hold 32-bit floats",
                i,
                imm.ty.name()
            );
            return self.refuse_none(op.reg.span, msg);
        }
        let bits_all = imm.bits;
        let mut values: Vec<(u32, String)> = Vec::new();
        let mut lane_value = [0usize; 4];
        let first = (0..4).find(|l| lanes & (1 << l) != 0).unwrap_or(0);
        for (lane, slot) in lane_value.iter_mut().enumerate() {
            let l = if lanes & (1 << lane) != 0 { lane } else { first };
            let c = (swz[l] & 3) as usize;
            let mut bits = bits_all[c];
            let mut label = format!("IMM[{}].{}", i, CHANNEL_NAMES[c]);
            if op.absolute {
                bits &= 0x7FFF_FFFF;
                label = format!("|{}|", label);
            }
            if op.negate {
                bits ^= 0x8000_0000;
                label = format!("-{}", label);
            }
            *slot = match values.iter().position(|(b, _)| *b == bits) {
                Some(p) => p,
                None => {
                    values.push((bits, label));
                    values.len() - 1
                }
            };
        }
        let (reg, slots) = self.pack(&values);
        let swizzle = (0..4).fold(0u8, |acc, lane| {
            acc | (slots.get(lane_value[lane]).copied().unwrap_or(0) << (2 * lane))
        });
        Some(Source::direct(RegType::Constant, self.imm_base.saturating_add(reg), swizzle))
    }

    fn index_of(&mut self, r: &RegRef) -> Option<u16> {
        if r.index.indirect.is_some() {
            return None;
        }
        u16::try_from(r.index.offset).ok()
    }

    /// The AGAL register a TGSI register reads from; `None` after reporting why not.
    fn read_reg(&mut self, r: &RegRef) -> Option<(RegType, u16, Option<IndexReg>)> {
        let what = format!("{}[{}]", r.file.name(), r.index.offset);
        if r.dimension.is_some_and(|d| d.offset != 0 || d.indirect.is_some())
            && r.file == File::Const
        {
            return self.refuse_none(
                r.span,
                format!(
                    "{}: AGAL has one constant bank; constant buffers other than 0 cannot be read",
                    what
                ),
            );
        }
        if r.file != File::Const && r.index.indirect.is_some() {
            return self
                .refuse_none(r.span, format!("{}: AGAL reads only constants indirectly", what));
        }
        match r.file {
            File::Temp => {
                let i = self.index_of(r)?;
                Some((RegType::Temporary, self.temp_virtual(File::Temp, i as u32)?, None))
            }
            File::Out => {
                let i = self.index_of(r)?;
                Some((RegType::Temporary, self.temp_virtual(File::Out, i as u32)?, None))
            }
            File::Addr => {
                self.refuse_none(r.span, "ADDR registers can only be used as indices in AGAL")
            }
            File::In => {
                let i = self.index_of(r)?;
                match self.kind {
                    ShaderKind::Vertex => Some((RegType::Attribute, i, None)),
                    ShaderKind::Fragment => {
                        let v = self.fragment_input(i as u32, r.span)?;
                        Some((RegType::Varying, v, None))
                    }
                }
            }
            File::Imm => self.refuse_none(r.span, "immediates are read through the constant pool"),
            File::Const => {
                match r.index.indirect {
                    None => Some((RegType::Constant, self.index_of(r)?, None)),
                    Some(addr) => {
                        if self.kind == ShaderKind::Fragment {
                            return self.refuse_none(r.span, format!("{}: AGAL fragment programs cannot address constants indirectly", what));
                        }
                        if !(0..=255).contains(&r.index.offset) {
                            return self.refuse_none(
                            r.span,
                            format!("CONST[ADDR+{}]: AGAL's indirect offset is an unsigned byte (0 to 255)", r.index.offset),
                        );
                        }
                        if addr.file != File::Addr {
                            return self.refuse_none(
                                r.span,
                                "the index of an indirect constant read must be an ADDR register",
                            );
                        }
                        let v = self.temp_virtual(File::Addr, addr.index)?;
                        Some((
                            RegType::Constant,
                            r.index.offset as u16,
                            Some(IndexReg {
                                reg: RegType::Temporary,
                                index: v,
                                component: addr.component & 3,
                            }),
                        ))
                    }
                }
            }
            other => self.refuse_none(
                r.span,
                format!("{} registers have no AGAL counterpart", other.name()),
            ),
        }
    }

    /// A source operand for result lanes `lanes`. With `scalar`, the swizzle replicates the
    /// first channel (TGSI scalar opcodes read `src.x` and replicate, docs/agal.md "Semantics"
    /// positional lanes).
    pub fn src(&mut self, op: &SrcOperand, lanes: u8, scalar: bool) -> Option<Source> {
        let mut swz = op.swizzle.0;
        if scalar {
            swz = [swz[0]; 4];
        }
        if op.reg.file == File::Imm && op.reg.index.indirect.is_none() {
            return self.immediate(op, swz, if lanes == 0 { 0xF } else { lanes });
        }
        let (reg, index, indirect) = self.read_reg(&op.reg)?;
        let mut s = Source { reg, index, swizzle: swizzle_byte(swz), indirect };
        let lanes = if lanes == 0 { 0xF } else { lanes };
        if op.absolute {
            let t = self.scratch()?;
            self.emit(
                opc::ABS,
                Some(Dest { reg: RegType::Temporary, index: t, mask: lanes }),
                Some(s),
                None,
            );
            s = Source::direct(RegType::Temporary, t, SWIZZLE_IDENTITY);
        }
        if op.negate {
            let t = self.scratch()?;
            self.emit(
                opc::NEG,
                Some(Dest { reg: RegType::Temporary, index: t, mask: lanes }),
                Some(s),
                None,
            );
            s = Source::direct(RegType::Temporary, t, SWIZZLE_IDENTITY);
        }
        Some(s)
    }

    /// Same operand without its negation (for `add` → `sub`).
    pub fn src_unnegated(&mut self, op: &SrcOperand, lanes: u8) -> Option<Source> {
        let mut o = *op;
        o.negate = false;
        self.src(&o, lanes, false)
    }

    /// A destination: TEMP, OUT (kept in a virtual temporary until the end) or ADDR.
    pub fn dst(&mut self, op: &DstOperand) -> Option<Dest> {
        let r = &op.reg;
        if r.index.indirect.is_some() {
            return self.refuse_none(
                op.span,
                "AGAL cannot write registers indirectly (only constant reads may be indirect)",
            );
        }
        let index = match r.file {
            File::Temp | File::Out | File::Addr => {
                let i = u32::try_from(r.index.offset).ok();
                match i {
                    Some(i) => self.temp_virtual(r.file, i)?,
                    None => return self.refuse_none(op.span, "negative register index"),
                }
            }
            other => {
                return self.refuse_none(
                    op.span,
                    format!("{} registers cannot be written in AGAL", other.name()),
                )
            }
        };
        Some(Dest { reg: RegType::Temporary, index, mask: op.write_mask.0 & 0xF })
    }

    /// The varying slot of fragment input `IN[i]`.
    fn fragment_input(&mut self, i: u32, span: crate::ir::Span) -> Option<u16> {
        let decl = self
            .shader
            .declarations
            .iter()
            .find(|d| d.file == File::In && d.range.contains(i as i64));
        let Some(sem) = decl.and_then(|d| d.semantic) else {
            return self.refuse_none(
                span,
                format!("IN[{}] has no semantic; AGAL links varyings by semantic", i),
            );
        };
        if matches!(sem.name, SemanticName::Position | SemanticName::Face) {
            return self.refuse_none(
                span,
                format!(
                    "IN[{}] is {}: AGAL fragment programs have no {} input",
                    i,
                    sem.name.name(),
                    sem.name.name()
                ),
            );
        }
        let key = (sem.name, sem.index + (i - decl.map(|d| d.range.first).unwrap_or(i)));
        self.varying_slot(key, span)
    }
}
