//! Instruction lowering of the export: one TGSI instruction becomes one or more AGAL
//! instructions on virtual temporaries. Results equal TGSI's: scalar opcodes replicate `src.x`,
//! compositions keep tgsi_exec's order of operations (`tgsi_exec.c` `micro_*`), and the
//! lane-positional swizzles of docs/agal.md "Semantics" 1 are preserved (TGSI swizzles are
//! positional too).

use super::operands::{replicate, MINUS_ONE, ONE, ZERO};
use super::Lower;
use crate::agal::bytecode::*;
use crate::ir::{File, Instruction as TgsiIns, SrcOperand, TextureTarget};
use crate::opcode::{Family, Opcode, Opcode as O, OutputMode, ValType};

const fn tdest(index: u16, mask: u8) -> Dest {
    Dest { reg: RegType::Temporary, index, mask }
}

const fn tsrc(index: u16) -> Source {
    Source { reg: RegType::Temporary, index, swizzle: SWIZZLE_IDENTITY, indirect: None }
}

/// Lowers every instruction up to END, then copies the outputs to their AGAL registers.
pub fn lower_all(l: &mut Lower) {
    let count = l.shader.instructions.len();
    let mut i = 0;
    while i < count {
        l.current = Some(i);
        let Some(ins) = l.shader.instructions.get(i) else {
            break;
        };
        if ins.opcode == Opcode::END
            || (ins.opcode == Opcode::RET && next_is_end(l, i) && at_top_level(l, i))
        {
            // A RET of main directly before END ends the program too.
            break;
        }
        if let Some(used) = super::io::matrix_pattern(l, i) {
            for k in i..i + used {
                if let Some(done) = l.shader.instructions.get(k) {
                    l.bools.step(done);
                }
            }
            i += used;
            continue;
        }
        lower_one(l, ins);
        l.bools.step(ins);
        i += 1;
    }
    l.current = None;
    super::io::write_outputs(l);
}

/// No IF is open before instruction `i` and no subroutine has begun.
fn at_top_level(l: &Lower, i: usize) -> bool {
    let mut depth = 0i64;
    for ins in l.shader.instructions.iter().take(i) {
        match ins.opcode {
            O::IF | O::UIF | O::BGNLOOP | O::BGNSUB | O::SWITCH => depth += 1,
            O::ENDIF | O::ENDLOOP | O::ENDSUB | O::ENDSWITCH => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

fn next_is_end(l: &Lower, i: usize) -> bool {
    l.shader.instructions.get(i + 1).is_none_or(|n| n.opcode == Opcode::END)
}

/// Why an opcode is refused, in words.
fn refusal(ins: &TgsiIns) -> String {
    let op = ins.opcode;
    match op {
        O::BGNLOOP | O::ENDLOOP | O::BRK | O::CONT | O::BREAKC => "AGAL has no loops".into(),
        O::CAL | O::RET | O::BGNSUB | O::ENDSUB | O::CALLNZ => "AGAL has no subroutines or early returns".into(),
        O::SWITCH | O::CASE | O::DEFAULT | O::ENDSWITCH => "AGAL has no switch statement".into(),
        O::TXL | O::TXD | O::TXF | O::TXQ | O::TXL2 | O::TXB2 | O::TEX2 | O::TG4 | O::LODQ | O::TEX_LZ | O::TXF_LZ | O::SAMPLE_L | O::SAMPLE_D | O::SAMPLE_B => {
            "AGAL's tex has no explicit level of detail, derivatives, texel fetch, gather or size query".into()
        }
        O::SAMPLE_C | O::SAMPLE_C_LZ => "AGAL has no depth-comparison sampling".into(),
        O::DDX_FINE | O::DDY_FINE => "AGAL's ddx/ddy give one derivative per quad (coarse); fine derivatives cannot be expressed".into(),
        O::EMIT | O::ENDPRIM => "AGAL has no geometry stage".into(),
        O::MEMBAR | O::BARRIER | O::IMG2HND | O::SAMP2HND => "AGAL has no buffers, images or atomics".into(),
        _ => refusal_by_kind(op),
    }
}

/// The words for an opcode no case above names, from what the table says it computes: its
/// family and its value types.
fn refusal_by_kind(op: Opcode) -> String {
    let info = op.info();
    /// The kind of number a value type holds: 32-bit float, integer (any width), or double.
    fn kind(t: ValType) -> u8 {
        match t {
            ValType::Float | ValType::Untyped => 0,
            ValType::Int | ValType::Uint | ValType::Int64 | ValType::Uint64 => 1,
            ValType::Double => 2,
        }
    }
    let srcs: Vec<u8> = (0..info.num_src as usize).map(|k| kind(info.src_type(k))).collect();
    let dst = kind(info.dst_type);
    // F2I, I2F, F2U64, D2I64, …: every source one kind of number, the result another.
    let converts = srcs.first().is_some_and(|&k| k != dst && srcs.iter().all(|&s| s == k));
    let integers = dst == 1 || srcs.contains(&1);
    const INTEGERS: &str =
        "AGAL registers hold only floats; integer and bitwise operations cannot be expressed";
    const CONVERSIONS: &str =
        "AGAL registers hold only floats; conversions between number types cannot be expressed";
    match info.family {
        Family::Double => "AGAL has no double precision".into(),
        Family::Memory => "AGAL has no buffers, images or atomics".into(),
        Family::Quad => "AGAL has no cross-lane operations".into(),
        Family::Interpolation => {
            "AGAL interpolates varyings itself; explicit interpolation cannot be expressed".into()
        }
        // A float comparison giving a ~0 / 0 mask (FSLT, …) is an integer result.
        Family::Float if dst == 1 => INTEGERS.into(),
        Family::Int | Family::Int64 | Family::Float if converts => CONVERSIONS.into(),
        Family::Int | Family::Int64 | Family::Float if integers => INTEGERS.into(),
        _ => format!("AGAL has no instruction or sequence for {}", info.name),
    }
}

/// The AGAL instruction an opcode maps to one to one: the table's `agal` column.
pub fn agal_op(op: Opcode) -> Option<u8> {
    op_by_name(op.info().agal).map(|i| i.code)
}

fn lower_one(l: &mut Lower, ins: &TgsiIns) {
    let op = ins.opcode;
    let s = |i: usize| ins.src.get(i).copied();
    // One-to-one opcodes: the AGAL instruction is the table's `agal` column
    // (`opcode.rs`); the TGSI output mode says how it is applied.
    let info = op.info();
    let mapped = agal_op(op);
    let scalar1 = mapped.filter(|_| info.output == OutputMode::Replicated && info.num_src == 1);
    let direct2 = mapped
        .filter(|_| info.output == OutputMode::Component && info.num_src == 2 && op != O::ADD);
    if super::bools::misuse(l, ins) {
        return;
    }
    match op {
        O::NOP => {}
        O::FSLT | O::FSGE | O::FSEQ | O::FSNE | O::AND | O::OR | O::XOR | O::NOT | O::UCMP => {
            super::bools::lower(l, ins)
        }
        O::MOV | O::FRC | O::ABS | O::DDX | O::DDY => {
            unary(l, ins, mapped.unwrap_or(opc::MOV), false);
        }
        _ if scalar1.is_some() => unary(l, ins, scalar1.unwrap_or(opc::MOV), true),
        _ if direct2.is_some() => binary(l, ins, direct2.unwrap_or(opc::MUL), false),
        O::ADD => add(l, ins),
        O::SGT => binary(l, ins, opc::SLT, true),
        O::SLE => binary(l, ins, opc::SGE, true),
        O::POW => binary_scalar(l, ins, mapped.unwrap_or(opc::POW)),
        O::DP3 => binary_fixed(l, ins, mapped.unwrap_or(opc::DP3), 0b0111),
        O::DP4 => binary_fixed(l, ins, mapped.unwrap_or(opc::DP4), 0xF),
        O::DP2 => dp2(l, ins),
        O::MAD | O::LRP => mad_lrp(l, ins, op == O::LRP),
        O::FLR | O::CEIL => floor_ceil(l, ins, op == O::CEIL),
        O::SSG => ssg(l, ins),
        O::CMP => cmp(l, ins),
        O::XPD | O::NRM => xpd_nrm(l, ins, op == O::XPD),
        O::DST | O::DPH | O::SCS => legacy_channels(l, ins, op),
        O::KILL_IF | O::KIL => kill_if(l, ins),
        O::KILL | O::KILP => {
            let m1 = l.special(MINUS_ONE);
            l.emit(opc::KIL, None, Some(m1), None);
        }
        O::TEX | O::TXP | O::TXB | O::SAMPLE => super::io::texture(l, ins),
        O::IF | O::UIF => {
            let Some(src) = s(0) else { return };
            let Some(mut c) = l.src(&src, 1, true) else {
                return;
            };
            if c.reg == RegType::Constant {
                // A constant condition is rejected by Flash (#3758): go through a temporary.
                let Some(t) = l.scratch() else { return };
                l.emit(opc::MOV, Some(tdest(t, 0xF)), Some(c), None);
                c = Source { swizzle: 0, ..tsrc(t) };
            }
            // ife…ifl need replicated swizzles (#3703); a modifier temporary is read as `.x`.
            let mut c = scalar_of(c, 0);
            // UIF tests bits: −0.0 is true. Booleans (1.0/0.0) and IF's float test need nothing.
            let boolean = src.reg.file == File::Temp && l.bools_read(&src);
            if op == O::UIF && !boolean {
                let Some(t) = l.scratch() else { return };
                let Some(b) = super::bools::nonzero_bits(l, c, 1, t) else {
                    return;
                };
                c = scalar_of(b, 0);
            }
            let zero = l.special(ZERO);
            l.push(Instruction {
                op: opc::INE,
                dest: None,
                src1: Some(c),
                src2: Some(zero),
                sampler: None,
            });
        }
        O::ELSE => {
            l.push(Instruction { op: opc::ELS, dest: None, src1: None, src2: None, sampler: None })
        }
        O::ENDIF => {
            l.push(Instruction { op: opc::EIF, dest: None, src1: None, src2: None, sampler: None })
        }
        O::ARL => {
            // The index register is floored when used (docs/agal.md "Operands"), as ARL floors.
            if ins.dst.first().is_some_and(|d| d.reg.file == File::Addr) {
                unary(l, ins, opc::MOV, false);
            } else {
                l.refuse(ins.span, "ARL must write an ADDR register");
            }
        }
        _ => {
            let why = refusal(ins);
            l.refuse(ins.opcode_span, why);
        }
    }
}

/// Destination mask, or None (after reporting) when the instruction has no destination.
fn dest_of(l: &mut Lower, ins: &TgsiIns) -> Option<Dest> {
    match ins.dst.first() {
        Some(d) => l.dst(d),
        None => l.refuse_none(ins.span, "missing destination"),
    }
}

/// `_SAT`: clamp the destination in place (destinations are temporaries until the end).
fn saturate(l: &mut Lower, ins: &TgsiIns, d: Dest) {
    if ins.saturate {
        l.emit(opc::SAT, Some(d), Some(tsrc(d.index)), None);
    }
}

fn unary(l: &mut Lower, ins: &TgsiIns, op: u8, scalar: bool) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some(a) = ins.src.first().and_then(|s| l.src(s, d.mask, scalar)) else {
        return;
    };
    l.emit(op, Some(d), Some(a), None);
    saturate(l, ins, d);
}

fn two_sources(l: &mut Lower, ins: &TgsiIns, lanes: u8, scalar: bool) -> Option<(Source, Source)> {
    let (Some(x), Some(y)) = (ins.src.first().copied(), ins.src.get(1).copied()) else {
        return l.refuse_none(ins.span, "missing source operand");
    };
    Some((l.src(&x, lanes, scalar)?, l.src(&y, lanes, scalar)?))
}

/// Component-wise two-source opcode; `swap` exchanges the sources (SGT, SLE).
fn binary(l: &mut Lower, ins: &TgsiIns, op: u8, swap: bool) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some((a, b)) = two_sources(l, ins, d.mask, false) else {
        return;
    };
    let (a, b) = if swap { (b, a) } else { (a, b) };
    l.emit(op, Some(d), Some(a), Some(b));
    saturate(l, ins, d);
}

fn binary_scalar(l: &mut Lower, ins: &TgsiIns, op: u8) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some((a, b)) = two_sources(l, ins, d.mask, true) else {
        return;
    };
    l.emit(op, Some(d), Some(a), Some(b));
    saturate(l, ins, d);
}

/// dp3/dp4: the sources are read on fixed lanes, the result is replicated.
fn binary_fixed(l: &mut Lower, ins: &TgsiIns, op: u8, lanes: u8) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some((a, b)) = two_sources(l, ins, lanes, false) else {
        return;
    };
    l.emit(op, Some(d), Some(a), Some(b));
    saturate(l, ins, d);
}

/// ADD with one negated source becomes sub (exact: a + (−b) = a − b).
fn add(l: &mut Lower, ins: &TgsiIns) {
    let Some(d) = dest_of(l, ins) else { return };
    let (Some(x), Some(y)) = (ins.src.first().copied(), ins.src.get(1).copied()) else {
        l.refuse(ins.span, "missing source operand");
        return;
    };
    let (op, a, b) = match (x.negate, y.negate) {
        (false, true) => (opc::SUB, l.src(&x, d.mask, false), l.src_unnegated(&y, d.mask)),
        (true, false) => (opc::SUB, l.src(&y, d.mask, false), l.src_unnegated(&x, d.mask)),
        _ => (opc::ADD, l.src(&x, d.mask, false), l.src(&y, d.mask, false)),
    };
    let (Some(a), Some(b)) = (a, b) else { return };
    l.emit(op, Some(d), Some(a), Some(b));
    saturate(l, ins, d);
}

/// DP2 = x0·y0 + x1·y1, as mul then add of the two products (the interpreter's order).
fn dp2(l: &mut Lower, ins: &TgsiIns) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some((a, b)) = two_sources(l, ins, 0b0011, false) else {
        return;
    };
    let Some(t) = l.scratch() else { return };
    l.emit(opc::MUL, Some(tdest(t, 0b0011)), Some(a), Some(b));
    l.emit(
        opc::ADD,
        Some(d),
        Some(Source { swizzle: replicate(0), ..tsrc(t) }),
        Some(Source { swizzle: replicate(1), ..tsrc(t) }),
    );
    saturate(l, ins, d);
}

/// MAD = a·b + c; LRP = a·(b − c) + c (tgsi_exec's formula).
fn mad_lrp(l: &mut Lower, ins: &TgsiIns, lrp: bool) {
    let Some(d) = dest_of(l, ins) else { return };
    let srcs: Vec<SrcOperand> = ins.src.iter().take(3).copied().collect();
    if srcs.len() < 3 {
        l.refuse(ins.span, "missing source operand");
        return;
    }
    let m = d.mask;
    let Some(a) = l.src(&srcs[0], m, false) else {
        return;
    };
    let Some(b) = l.src(&srcs[1], m, false) else {
        return;
    };
    // MAD's negated addend becomes sub (exact: t + (−c) = t − c). Not for LRP, which also
    // subtracts c from b.
    let negated = srcs[2].negate && !lrp;
    let Some(c) = (if negated { l.src_unnegated(&srcs[2], m) } else { l.src(&srcs[2], m, false) })
    else {
        return;
    };
    let Some(t) = l.scratch() else { return };
    if lrp {
        l.emit(opc::SUB, Some(tdest(t, m)), Some(b), Some(c));
        l.emit(opc::MUL, Some(tdest(t, m)), Some(a), Some(tsrc(t)));
    } else {
        l.emit(opc::MUL, Some(tdest(t, m)), Some(a), Some(b));
    }
    l.emit(if negated { opc::SUB } else { opc::ADD }, Some(d), Some(tsrc(t)), Some(c));
    saturate(l, ins, d);
}

/// floor(x) = x − frc(x); ceil(x) = −floor(−x).
fn floor_ceil(l: &mut Lower, ins: &TgsiIns, ceil: bool) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some(mut x) = ins.src.first().and_then(|s| l.src(s, d.mask, false)) else {
        return;
    };
    let (Some(t), Some(f)) = (l.scratch(), l.scratch()) else {
        return;
    };
    if ceil {
        l.emit(opc::NEG, Some(tdest(t, d.mask)), Some(x), None);
        x = tsrc(t);
    }
    l.emit(opc::FRC, Some(tdest(f, d.mask)), Some(x), None);
    if ceil {
        l.emit(opc::SUB, Some(tdest(t, d.mask)), Some(x), Some(tsrc(f)));
        l.emit(opc::NEG, Some(d), Some(tsrc(t)), None);
    } else {
        l.emit(opc::SUB, Some(d), Some(x), Some(tsrc(f)));
    }
    saturate(l, ins, d);
}

/// sign(x) = (0 < x) − (x < 0), with slt (AGAL's sgn is missing from Adobe's documentation and
/// rejected by Ruffle, docs/agal.md "Opcodes").
fn ssg(l: &mut Lower, ins: &TgsiIns) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some(x) = ins.src.first().and_then(|s| l.src(s, d.mask, false)) else {
        return;
    };
    let (Some(p), Some(n)) = (l.scratch(), l.scratch()) else {
        return;
    };
    let zero = l.special(ZERO);
    l.emit(opc::SLT, Some(tdest(p, d.mask)), Some(zero), Some(x));
    l.emit(opc::SLT, Some(tdest(n, d.mask)), Some(x), Some(zero));
    l.emit(opc::SUB, Some(d), Some(tsrc(p)), Some(tsrc(n)));
    saturate(l, ins, d);
}

/// CMP = a < 0 ? b : c, as b·(a < 0) + c·(a ≥ 0): exact for finite b and c (a product with an
/// infinite b or c gives NaN instead; the sign of a zero result may differ).
fn cmp(l: &mut Lower, ins: &TgsiIns) {
    let Some(d) = dest_of(l, ins) else { return };
    let srcs: Vec<SrcOperand> = ins.src.iter().take(3).copied().collect();
    if srcs.len() < 3 {
        l.refuse(ins.span, "missing source operand");
        return;
    }
    let m = d.mask;
    let Some(a) = l.src(&srcs[0], m, false) else {
        return;
    };
    let Some(b) = l.src(&srcs[1], m, false) else {
        return;
    };
    let Some(c) = l.src(&srcs[2], m, false) else {
        return;
    };
    let (Some(lt), Some(ge)) = (l.scratch(), l.scratch()) else {
        return;
    };
    let zero = l.special(ZERO);
    l.emit(opc::SLT, Some(tdest(lt, m)), Some(a), Some(zero));
    l.emit(opc::SGE, Some(tdest(ge, m)), Some(a), Some(zero));
    l.emit(opc::MUL, Some(tdest(lt, m)), Some(b), Some(tsrc(lt)));
    l.emit(opc::MUL, Some(tdest(ge, m)), Some(c), Some(tsrc(ge)));
    l.emit(opc::ADD, Some(d), Some(tsrc(lt)), Some(tsrc(ge)));
    saturate(l, ins, d);
}

/// Legacy XPD (cross product) and NRM (normalise xyz); both set w = 1.
fn xpd_nrm(l: &mut Lower, ins: &TgsiIns, xpd: bool) {
    let Some(d) = dest_of(l, ins) else { return };
    let xyz = Dest { mask: d.mask & 0b0111, ..d };
    if xyz.mask != 0 {
        if xpd {
            let Some((a, b)) = two_sources(l, ins, 0b0111, false) else {
                return;
            };
            l.emit(opc::CRS, Some(xyz), Some(a), Some(b));
        } else {
            let Some(a) = ins.src.first().and_then(|s| l.src(s, 0b0111, false)) else {
                return;
            };
            l.emit(opc::NRM, Some(xyz), Some(a), None);
        }
    }
    if d.mask & 0b1000 != 0 {
        let one = l.special(ONE);
        l.emit(opc::MOV, Some(Dest { mask: 0b1000, ..d }), Some(one), None);
    }
    saturate(l, ins, d);
}

/// Legacy per-channel opcodes, built in a scratch register then copied (the sources may be the
/// destination): DST = (1, a.y·b.y, a.z, b.w); DPH = a.xyz·b.xyz + b.w; SCS = (cos a.x, sin a.x,
/// 0, 1) (the 2010 edition of tgsi.rst).
fn legacy_channels(l: &mut Lower, ins: &TgsiIns, op: Opcode) {
    let Some(d) = dest_of(l, ins) else { return };
    let Some(t) = l.scratch() else { return };
    let lane = |c: u8| tdest(t, 1 << c);
    match op {
        O::DST => {
            let Some((a, b)) = two_sources(l, ins, 0b1110, false) else {
                return;
            };
            let one = l.special(ONE);
            l.emit(opc::MOV, Some(lane(0)), Some(one), None);
            l.emit(opc::MUL, Some(lane(1)), Some(a), Some(b));
            l.emit(opc::MOV, Some(lane(2)), Some(a), None);
            l.emit(opc::MOV, Some(lane(3)), Some(b), None);
        }
        O::DPH => {
            let Some((a, b)) = two_sources(l, ins, 0xF, false) else {
                return;
            };
            l.emit(opc::DP3, Some(tdest(t, 0xF)), Some(a), Some(b));
            l.emit(opc::ADD, Some(tdest(t, 0xF)), Some(tsrc(t)), Some(scalar_of(b, 3)));
        }
        _ => {
            let Some(a) = ins.src.first().and_then(|s| l.src(s, 0b0011, true)) else {
                return;
            };
            let (zero, one) = (l.special(ZERO), l.special(ONE));
            l.emit(opc::COS, Some(lane(0)), Some(a), None);
            l.emit(opc::SIN, Some(lane(1)), Some(a), None);
            l.emit(opc::MOV, Some(lane(2)), Some(zero), None);
            l.emit(opc::MOV, Some(lane(3)), Some(one), None);
        }
    }
    l.emit(opc::MOV, Some(d), Some(tsrc(t)), None);
    saturate(l, ins, d);
}

/// KILL_IF: one kil per distinct component of the swizzle, each a replicated scalar (docs/agal.md
/// "Opcodes").
fn kill_if(l: &mut Lower, ins: &TgsiIns) {
    let Some(mut op) = ins.src.first().copied() else {
        return;
    };
    let mut comps = 0u8;
    for c in op.swizzle.0 {
        comps |= 1 << (c & 3);
    }
    // Read the distinct components in place so a modifier is applied once per component.
    op.swizzle = crate::ir::Swizzle::IDENTITY;
    let Some(x) = l.src(&op, comps, false) else {
        return;
    };
    for c in 0..4u8 {
        if comps & (1 << c) != 0 {
            l.emit(
                opc::KIL,
                None,
                Some(Source { swizzle: replicate(x.lane(c as usize) as u8), ..x }),
                None,
            );
        }
    }
}

/// Replicated swizzle of the first lane, for a source already translated.
pub fn scalar_of(s: Source, lane: usize) -> Source {
    Source { swizzle: replicate(s.lane(lane) as u8), ..s }
}

/// Texture target → AGAL dimension (docs/agal.md "Sampler"), or the reason it is refused.
pub fn texture_dim(t: Option<TextureTarget>) -> Result<u8, &'static str> {
    match t {
        Some(TextureTarget::Tex2D) | Some(TextureTarget::Tex1D) => Ok(0),
        Some(TextureTarget::Cube) => Ok(1),
        Some(TextureTarget::Tex3D) => Ok(2),
        Some(TextureTarget::Rect) | Some(TextureTarget::ShadowRect) => Err("AGAL textures use normalized coordinates; RECT targets cannot be sampled"),
        Some(t) if t.is_shadow() => Err("AGAL has no depth-comparison (shadow) sampling"),
        Some(_) => Err("AGAL samples only 2D, cube and 3D textures (no arrays, buffers or multisampled textures)"),
        None => Err("the texture target is missing"),
    }
}
