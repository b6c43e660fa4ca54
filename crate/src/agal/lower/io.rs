//! Texture instructions, matrix patterns and the final copy of outputs to `op`, `oc`, `v` and
//! `fd` in the export (docs/agal.md "Sampler", "Opcodes", "Semantics" 3).

use super::instr::{scalar_of, texture_dim};
use super::layout::{binding, sampler_binding};
use super::Lower;
use crate::agal::bytecode::*;
use crate::diag::Diagnostic;
use crate::ir::{DclExtra, File, Instruction as TgsiIns, SemanticName, SrcOperand};
use crate::opcode::Opcode;

/// TEX, TXP, TXB and SAMPLE → tex with sampler flags from the target and the sampler state.
pub fn texture(l: &mut Lower, ins: &TgsiIns) {
    if l.kind == ShaderKind::Vertex {
        l.refuse(
            ins.opcode_span,
            "AGAL vertex programs cannot sample textures (vertex texture fetch needs AGAL 4)",
        );
        return;
    }
    let is_sample = ins.opcode == Opcode::SAMPLE;
    let (Some(coord), Some(unit)) = (ins.src.first().copied(), ins.src.get(1).copied()) else {
        l.refuse(ins.span, "missing operand");
        return;
    };
    let target = if is_sample {
        l.shader
            .declarations
            .iter()
            .find(|d| d.file == File::Sview && d.range.contains(unit.reg.index.offset))
            .and_then(|d| match &d.extra {
                DclExtra::SamplerView { target, .. } => Some(*target),
                _ => None,
            })
    } else {
        ins.texture
    };
    let dim = match texture_dim(target) {
        Ok(d) => d,
        Err(why) => return l.refuse(ins.opcode_span, why),
    };
    let state_unit = if is_sample {
        ins.src.get(2).map(|s| s.reg.index.offset).unwrap_or(0)
    } else {
        unit.reg.index.offset
    };
    let Ok(index) = u16::try_from(unit.reg.index.offset) else {
        return l.refuse(unit.span, "sampler index out of range");
    };
    if unit.reg.index.indirect.is_some() {
        return l.refuse(unit.span, "AGAL cannot select samplers indirectly");
    }
    let mut state = u32::try_from(state_unit)
        .ok()
        .and_then(|u| l.opts.samplers.get(&u).copied())
        .unwrap_or_default();
    if dim == 1 && state.wrap != 0 {
        // Flash requires clamp on cube samplers (#3662).
        l.diags.push(Diagnostic::warning(
            "A0202",
            "cube samplers must clamp in AGAL; the wrap mode is set to clamp",
            unit.span,
        ));
        state.wrap = 0;
    }
    let mut bias = 0i8;
    if ins.opcode == Opcode::TXB {
        match constant_w(l, &coord) {
            Some(b) if (b * 8.0).fract() == 0.0 && (-128.0..=127.0).contains(&(b * 8.0)) => bias = (b * 8.0) as i8,
            _ => {
                return l.refuse(
                    ins.opcode_span,
                    "TXB takes its bias from coord.w per pixel, but AGAL's bias is a constant in the sampler operand (a multiple of 1/8 from -16 to 15.875); only an immediate coord.w can be exported",
                )
            }
        }
    }
    let Some(d) = ins.dst.first().and_then(|d| l.dst(d)) else {
        return;
    };
    let lanes = if dim == 0 { 0b0011 } else { 0b0111 };
    let Some(mut c) = l.src(&coord, if ins.opcode == Opcode::TXP { 0xF } else { lanes }, false)
    else {
        return;
    };
    if ins.opcode == Opcode::TXP {
        // coord.xyz / coord.w, as TGSI's TXP.
        let Some(t) = l.scratch() else { return };
        l.emit(
            opc::DIV,
            Some(Dest { reg: RegType::Temporary, index: t, mask: 0b0111 }),
            Some(c),
            Some(scalar_of(c, 3)),
        );
        c = Source::direct(RegType::Temporary, t, SWIZZLE_IDENTITY);
    }
    let s = Sampler {
        index,
        bias,
        format: 0,
        dim,
        special: 0,
        wrap: state.wrap,
        mip: state.mip,
        filter: state.filter,
    };
    let source = if is_sample {
        format!("SVIEW[{}] + SAMP[{}]", index, state_unit)
    } else {
        format!("SAMP[{}]", index)
    };
    l.samplers.entry(index).or_insert((s, source));
    l.push(Instruction {
        op: opc::TEX,
        dest: Some(d),
        src1: Some(c),
        src2: None,
        sampler: Some(s),
    });
    if ins.saturate {
        l.emit(
            opc::SAT,
            Some(d),
            Some(Source::direct(RegType::Temporary, d.index, SWIZZLE_IDENTITY)),
            None,
        );
    }
}

/// The value of `coord.w` when the operand is an immediate.
fn constant_w(l: &Lower, coord: &SrcOperand) -> Option<f32> {
    if coord.reg.file != File::Imm || coord.reg.index.indirect.is_some() {
        return None;
    }
    let imm = l.shader.immediates.get(usize::try_from(coord.reg.index.offset).ok()?)?;
    let mut v = imm.f32s()[coord.swizzle.0[3] as usize & 3];
    if coord.absolute {
        v = v.abs();
    }
    if coord.negate {
        v = -v;
    }
    Some(v)
}

fn same_operand(a: &SrcOperand, b: &SrcOperand) -> bool {
    a.reg.file == b.reg.file
        && a.reg.index.offset == b.reg.index.offset
        && a.reg.index.indirect.is_none()
        && b.reg.index.indirect.is_none()
        && a.reg.dimension.map(|d| d.offset) == b.reg.dimension.map(|d| d.offset)
        && a.swizzle == b.swizzle
        && a.negate == b.negate
        && a.absolute == b.absolute
}

/// `CONST[n]` read plainly (no swizzle, modifier, indirection or second buffer): its `n`.
fn plain_const(s: &SrcOperand) -> Option<i64> {
    let plain = s.reg.file == File::Const
        && s.reg.index.indirect.is_none()
        && s.reg.dimension.is_none_or(|d| d.offset == 0 && d.indirect.is_none())
        && s.swizzle.is_identity()
        && !s.negate
        && !s.absolute;
    plain.then_some(s.reg.index.offset)
}

/// Recognises 3 or 4 consecutive DP4 (or 3 DP3) writing x, y, z(, w) of one register from one
/// vector and consecutive constants, and emits m44 / m34 / m33. Returns how many TGSI
/// instructions were consumed.
pub fn matrix_pattern(l: &mut Lower, start: usize) -> Option<usize> {
    let all = &l.shader.instructions;
    let first = all.get(start)?;
    let dp4 = first.opcode == Opcode::DP4;
    if !dp4 && first.opcode != Opcode::DP3 {
        return None;
    }
    let dst0 = *first.dst.first()?;
    if !matches!(dst0.reg.file, File::Temp | File::Out) || dst0.reg.index.indirect.is_some() {
        return None;
    }
    let (vector, base, swapped) =
        match (plain_const(first.src.get(1)?), plain_const(first.src.first()?)) {
            (Some(b), _) => (*first.src.first()?, b, false),
            (None, Some(b)) => (*first.src.get(1)?, b, true),
            _ => return None,
        };
    if vector.reg.file == dst0.reg.file && vector.reg.index.offset == dst0.reg.index.offset {
        return None;
    }
    let max_rows = if dp4 { 4 } else { 3 };
    let mut rows = 0;
    while rows < max_rows {
        let Some(ins) = all.get(start + rows) else {
            break;
        };
        let Some(d) = ins.dst.first() else { break };
        let (v, m) = if swapped {
            (ins.src.get(1), ins.src.first())
        } else {
            (ins.src.first(), ins.src.get(1))
        };
        let ok = ins.opcode == first.opcode
            && ins.saturate == first.saturate
            && d.reg.file == dst0.reg.file
            && d.reg.index.offset == dst0.reg.index.offset
            && d.reg.index.indirect.is_none()
            && d.write_mask.0 == 1 << rows
            && v.is_some_and(|v| same_operand(v, &vector))
            && m.and_then(plain_const) == Some(base + rows as i64);
        if !ok {
            break;
        }
        rows += 1;
    }
    if rows < 3 {
        return None;
    }
    let op = match (dp4, rows) {
        (true, 4) => opc::M44,
        (true, _) => opc::M34,
        _ => opc::M33,
    };
    let mut d = l.dst(&dst0)?;
    d.mask = if rows == 4 { 0xF } else { 0b0111 };
    let a = l.src(&vector, if dp4 { 0xF } else { 0b0111 }, false)?;
    let base = u16::try_from(base).ok()?;
    l.emit(op, Some(d), Some(a), Some(Source::direct(RegType::Constant, base, SWIZZLE_IDENTITY)));
    if first.saturate {
        l.emit(
            opc::SAT,
            Some(d),
            Some(Source::direct(RegType::Temporary, d.index, SWIZZLE_IDENTITY)),
            None,
        );
    }
    Some(rows)
}

/// Copies every written output to its AGAL register, once and in full (docs/agal.md "Semantics").
pub fn write_outputs(l: &mut Lower) {
    let decls: Vec<_> = l
        .shader
        .distinct_declarations()
        .into_iter()
        .filter(|d| d.file == File::Out)
        .cloned()
        .collect();
    for d in decls {
        let first = d.range.first;
        for i in first..=d.range.last.min(first.saturating_add(64)) {
            let Some(v) = l.virtual_of(File::Out, i) else {
                continue;
            };
            let Some(sem) = d.semantic else {
                l.refuse(d.span, format!("OUT[{}] has no semantic", i));
                continue;
            };
            let key = (sem.name, sem.index + (i - first));
            let src = Source::direct(RegType::Temporary, v, SWIZZLE_IDENTITY);
            let what = format!("OUT[{}] ({}[{}])", i, key.0.name(), key.1);
            let (dest, src) = match (l.kind, key.0) {
                (ShaderKind::Vertex, SemanticName::Position) => {
                    (Dest { reg: RegType::Output, index: 0, mask: 0xF }, src)
                }
                (ShaderKind::Vertex, SemanticName::Psize | SemanticName::EdgeFlag) => {
                    l.diags.push(Diagnostic::warning(
                        "A0203",
                        format!("{} is dropped: AGAL has no such output", what),
                        d.span,
                    ));
                    continue;
                }
                (ShaderKind::Vertex, _) => {
                    let Some(slot) = l.varying_slot(key, d.span) else {
                        continue;
                    };
                    (Dest { reg: RegType::Varying, index: slot, mask: 0xF }, src)
                }
                (ShaderKind::Fragment, SemanticName::Color) => {
                    let Ok(k) = u16::try_from(key.1) else {
                        continue;
                    };
                    (Dest { reg: RegType::Output, index: k, mask: 0xF }, src)
                }
                (ShaderKind::Fragment, SemanticName::Position) => {
                    // Depth is OUT.z in TGSI and fd.x in AGAL (AGAL 2 and later).
                    (
                        Dest { reg: RegType::Depth, index: 0, mask: 1 },
                        Source { swizzle: 0xAA, ..src },
                    )
                }
                _ => {
                    l.refuse(d.span, format!("{} has no AGAL output register", what));
                    continue;
                }
            };
            l.layout.outputs.push(binding(dest.reg, dest.index, l.kind, what));
            l.push(Instruction {
                op: opc::MOV,
                dest: Some(dest),
                src1: Some(src),
                src2: None,
                sampler: None,
            });
        }
    }
}

/// Fills the layout's constants, attributes, varyings and samplers.
pub fn fill_layout(l: &mut Lower) {
    let kind = l.kind;
    let reg = |i: u16| crate::agal::disasm::reg_text(RegType::Constant, i, kind);
    let mut consts = Vec::new();
    for d in l.shader.distinct_declarations().into_iter().filter(|d| d.file == File::Const) {
        for i in d.range.first..=d.range.last.min(d.range.first.saturating_add(1024)) {
            if let Ok(i) = u16::try_from(i) {
                consts.push(super::ConstSlot {
                    register: reg(i),
                    index: i,
                    source: format!("CONST[{}]", i),
                    values: None,
                });
            }
        }
    }
    for (r, slots) in l.pool.iter().enumerate() {
        let i = l.imm_base.saturating_add(r as u16);
        let labels: Vec<&str> = slots.iter().flatten().map(|(_, label)| label.as_str()).collect();
        let values = slots.clone().map(|s| s.map(|(b, _)| f32::from_bits(b)).unwrap_or(0.0));
        consts.push(super::ConstSlot {
            register: reg(i),
            index: i,
            source: labels.join(", "),
            values: Some(values),
        });
    }
    l.layout.constants = consts;
    if kind == ShaderKind::Vertex {
        for d in l.shader.distinct_declarations().into_iter().filter(|d| d.file == File::In) {
            for i in d.range.first..=d.range.last.min(d.range.first.saturating_add(64)) {
                let sem = d
                    .semantic
                    .map(|s| format!(" ({}[{}])", s.name.name(), s.index))
                    .unwrap_or_default();
                l.layout.attributes.push(binding(
                    RegType::Attribute,
                    i as u16,
                    kind,
                    format!("IN[{}]{}", i, sem),
                ));
            }
        }
    }
    let vars: Vec<_> = if kind == ShaderKind::Vertex {
        Vec::new()
    } else {
        l.varyings_used
            .iter()
            .map(|(&s, k)| binding(RegType::Varying, s, kind, format!("{}[{}]", k.0.name(), k.1)))
            .collect()
    };
    l.layout.varyings = vars;
    let samplers: Vec<_> =
        l.samplers.values().map(|(s, src)| sampler_binding(s, kind, src.clone())).collect();
    l.layout.samplers = samplers;
}
