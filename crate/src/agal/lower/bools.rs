//! Integer booleans in the export. Mesa's TGSI computes conditions with FSLT/FSGE/FSEQ/FSNE
//! (all-ones or zero bits) and combines them with AND/OR/XOR/NOT and UCMP. AGAL has only floats,
//! so while a TEMP component holds such a boolean (tracked in program order, through IF/ELSE) it
//! is kept as 1.0 / 0.0 instead, and the operations become float ones: and → min, or → max,
//! xor → sne, not → 1 − x, AND with a value → multiply, UCMP → blend. Any other use of a boolean
//! (as a number or as bits) is refused.

use super::operands::{ONE, ZERO};
use super::Lower;
use crate::agal::bytecode::*;
use crate::ir::{File, Instruction as TgsiIns, SrcOperand};
use crate::opcode::Opcode as O;
use std::collections::HashMap;

/// What a TEMP component holds at a point of the program: a boolean, or a boolean on some
/// paths only. Absent means a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Mixed,
}

/// Kinds of TEMP components (index, channel) at the current instruction, with the states saved
/// at open IFs.
#[derive(Clone, Debug, Default)]
pub struct Bools {
    state: State,
    /// Per open IF: the state before it and, after ELSE, the state at the end of its first branch.
    stack: Vec<(State, Option<State>)>,
}

type State = HashMap<(u32, u8), Kind>;

impl Bools {
    fn get(&self, c: &(u32, u8)) -> Option<Kind> {
        self.state.get(c).copied()
    }
    fn is_bool(&self, c: &(u32, u8)) -> bool {
        self.get(c) == Some(Kind::Bool)
    }

    /// Records the effect of a lowered instruction.
    pub fn step(&mut self, ins: &TgsiIns) {
        let merge = |a: &State, b: &State| {
            let mut out = HashMap::new();
            for k in a.keys().chain(b.keys()) {
                let kind = if a.get(k) == b.get(k) {
                    a.get(k).copied().unwrap_or(Kind::Mixed)
                } else {
                    Kind::Mixed
                };
                out.insert(*k, kind);
            }
            out
        };
        match ins.opcode {
            O::IF | O::UIF => self.stack.push((self.state.clone(), None)),
            O::ELSE => {
                if let Some(top) = self.stack.last_mut() {
                    top.1 = Some(std::mem::replace(&mut self.state, top.0.clone()));
                }
            }
            O::ENDIF => {
                if let Some((pre, then)) = self.stack.pop() {
                    self.state = merge(then.as_ref().unwrap_or(&pre), &self.state);
                }
            }
            _ => {}
        }
        let Some(d) = ins.dst.first() else { return };
        let Ok(index) = u32::try_from(d.reg.index.offset) else {
            return;
        };
        if d.reg.file != File::Temp || d.reg.index.indirect.is_some() {
            return;
        }
        let kinds: Vec<(u8, bool)> = (0..4)
            .filter(|&lane| d.write_mask.has(lane))
            .map(|lane| (lane as u8, produces_bool(ins, lane, self)))
            .collect();
        for (lane, b) in kinds {
            if b {
                self.state.insert((index, lane), Kind::Bool);
            } else {
                self.state.remove(&(index, lane));
            }
        }
    }
}

fn comp_of(s: &SrcOperand, lane: usize) -> Option<(u32, u8)> {
    let direct =
        s.reg.file == File::Temp && s.reg.index.indirect.is_none() && !s.negate && !s.absolute;
    let index = u32::try_from(s.reg.index.offset).ok()?;
    direct.then_some((index, s.swizzle.0[lane & 3] & 3))
}

fn src_is_bool(b: &Bools, s: Option<&SrcOperand>, lane: usize) -> bool {
    s.and_then(|s| comp_of(s, lane)).is_some_and(|c| b.is_bool(&c))
}

/// Whether lane `lane` of the instruction's result is an integer boolean.
fn produces_bool(ins: &TgsiIns, lane: usize, b: &Bools) -> bool {
    let s = |i: usize| ins.src.get(i);
    match ins.opcode {
        O::FSLT | O::FSGE | O::FSEQ | O::FSNE => true,
        O::AND | O::OR | O::XOR => src_is_bool(b, s(0), lane) && src_is_bool(b, s(1), lane),
        O::NOT => src_is_bool(b, s(0), lane),
        O::MOV => !ins.saturate && src_is_bool(b, s(0), lane),
        O::UCMP => src_is_bool(b, s(1), lane) && src_is_bool(b, s(2), lane),
        _ => false,
    }
}

impl Lower<'_> {
    /// Whether lane x of the operand reads a boolean.
    pub fn bools_read(&self, s: &SrcOperand) -> bool {
        src_is_bool(&self.bools, Some(s), 0)
    }
}

/// Opcodes that read booleans correctly.
fn reads_bools(op: O) -> bool {
    matches!(op, O::AND | O::OR | O::XOR | O::NOT | O::UCMP | O::MOV | O::IF | O::UIF)
}

/// True (after reporting) when the instruction reads a boolean as a number or as bits, with a
/// modifier, where only some paths made it a boolean, or a MOV copies one out of TEMP.
pub fn misuse(l: &mut Lower, ins: &TgsiIns) -> bool {
    let name = ins.opcode.name();
    let op = ins.opcode;
    // Lanes read: the written ones for component-wise opcodes, x for IF/UIF, else all.
    let lanes = match (ins.opcode.info().output, ins.dst.first()) {
        (crate::opcode::OutputMode::Component, Some(d)) => d.write_mask.0,
        (_, None) if matches!(op, O::IF | O::UIF) => 0x1,
        _ => 0xF,
    };
    let to_temp = ins.dst.first().is_some_and(|d| d.reg.file == File::Temp);
    for s in &ins.src {
        let plain = SrcOperand { negate: false, absolute: false, ..*s };
        let found = (0..4)
            .filter(|&lane| lanes & (1 << lane) != 0)
            .find_map(|lane| comp_of(&plain, lane).and_then(|c| l.bools.get(&c).map(|k| (c, k))));
        let Some(((t, c), kind)) = found else {
            continue;
        };
        let ok = kind == Kind::Bool
            && reads_bools(ins.opcode)
            && !s.negate
            && !s.absolute
            && (op != O::MOV || to_temp);
        if !ok {
            let what = if kind == Kind::Mixed {
                "holds a comparison result on some paths and a number on others"
            } else {
                "holds an integer boolean (all-ones bits) from a comparison, kept as 1.0/0.0 in AGAL"
            };
            let msg = format!(
                "TEMP[{}].{} {}; {} cannot use it this way",
                t,
                ['x', 'y', 'z', 'w'][c as usize & 3],
                what,
                name
            );
            l.refuse(s.span, msg);
            return true;
        }
    }
    false
}

fn tdest(index: u16, mask: u8) -> Dest {
    Dest { reg: RegType::Temporary, index, mask }
}

fn tsrc(index: u16) -> Source {
    Source::direct(RegType::Temporary, index, SWIZZLE_IDENTITY)
}

/// `Some(true)` when every lane in `lanes` of the operand is a boolean, `Some(false)` when none
/// is, `None` for a mix.
fn kind(l: &Lower, s: &SrcOperand, lanes: u8) -> Option<bool> {
    let flags: Vec<bool> = (0..4)
        .filter(|&x| lanes & (1 << x) != 0)
        .map(|x| src_is_bool(&l.bools, Some(s), x))
        .collect();
    if flags.iter().all(|&f| f) {
        Some(true)
    } else if flags.iter().all(|&f| !f) {
        Some(false)
    } else {
        None
    }
}

/// Lowers FSLT…FSNE, AND, OR, XOR, NOT and UCMP; refuses the forms AGAL cannot express.
pub fn lower(l: &mut Lower, ins: &TgsiIns) {
    let name = ins.opcode.name();
    let op = ins.opcode;
    let Some(dst) = ins.dst.first().copied() else {
        return;
    };
    let Some(d) = l.dst(&dst) else { return };
    let m = d.mask;
    let srcs: Vec<SrcOperand> = ins.src.clone();
    let kinds: Vec<Option<bool>> = srcs.iter().map(|s| kind(l, s, m)).collect();
    let is_bool = |i: usize| kinds.get(i) == Some(&Some(true));
    let produces = match op {
        O::FSLT | O::FSGE | O::FSEQ | O::FSNE => true,
        O::NOT => is_bool(0),
        O::UCMP => is_bool(1) && is_bool(2),
        _ => is_bool(0) && is_bool(1),
    };
    if produces && dst.reg.file != File::Temp {
        return l.refuse(ins.opcode_span, "booleans from comparisons can only be kept in TEMP registers (AGAL holds them as 1.0/0.0)");
    }
    let get = |l: &mut Lower, i: usize| srcs.get(i).and_then(|s| l.src(s, m, false));
    match op {
        O::FSLT | O::FSGE | O::FSEQ | O::FSNE => {
            let (Some(a), Some(b)) = (get(l, 0), get(l, 1)) else { return };
            let op = match op {
                O::FSLT => opc::SLT,
                O::FSGE => opc::SGE,
                O::FSEQ => opc::SEQ,
                _ => opc::SNE,
            };
            l.emit(op, Some(d), Some(a), Some(b));
        }
        O::AND | O::OR | O::XOR => match (kinds.first().copied().flatten(), kinds.get(1).copied().flatten()) {
            (Some(true), Some(true)) => {
                let (Some(a), Some(b)) = (get(l, 0), get(l, 1)) else { return };
                let op = match op {
                    O::AND => opc::MIN,
                    O::OR => opc::MAX,
                    _ => opc::SNE,
                };
                l.emit(op, Some(d), Some(a), Some(b));
            }
            (Some(x), Some(y)) if op == O::AND && x != y => {
                // bits & all-ones = value, & 0 = +0: value · b, then + 0 turns a −0 into +0.
                let (Some(a), Some(b)) = (get(l, 0), get(l, 1)) else { return };
                let Some(t) = l.scratch() else { return };
                l.emit(opc::MUL, Some(tdest(t, m)), Some(a), Some(b));
                let zero = l.special(ZERO);
                l.emit(opc::ADD, Some(d), Some(tsrc(t)), Some(zero));
            }
            _ => l.refuse(ins.opcode_span, format!("{} of values that are not comparison results is a bitwise operation; AGAL registers hold only floats", name)),
        },
        O::NOT => match kinds.first().copied().flatten() {
            Some(true) => {
                let Some(a) = get(l, 0) else { return };
                let one = l.special(ONE);
                l.emit(opc::SUB, Some(d), Some(one), Some(a));
            }
            _ => l.refuse(ins.opcode_span, "NOT of a value that is not a comparison result is a bitwise operation; AGAL registers hold only floats"),
        },
        _ => ucmp(l, ins, d, &srcs, &kinds),
    }
}

/// 1.0 where the bits of `c` are not zero, else 0.0, into temporary `t`: `c ≠ 0` or `1/c < 0`
/// (the second catches −0.0, whose bits are not zero though it equals 0).
pub fn nonzero_bits(l: &mut Lower, c: Source, m: u8, t: u16) -> Option<Source> {
    let u = l.scratch()?;
    let zero = l.special(ZERO);
    l.emit(opc::SNE, Some(tdest(t, m)), Some(c), Some(zero));
    l.emit(opc::RCP, Some(tdest(u, m)), Some(c), None);
    l.emit(opc::SLT, Some(tdest(u, m)), Some(tsrc(u)), Some(zero));
    l.emit(opc::MAX, Some(tdest(t, m)), Some(tsrc(t)), Some(tsrc(u)));
    Some(tsrc(t))
}

/// UCMP c, x, y = c ≠ 0 ? x : y, as x·c + y·(1 − c) with c a 1.0/0.0 boolean (a float condition
/// is turned into one by [`nonzero_bits`]; exact for finite x and y up to the sign of a zero
/// result).
fn ucmp(l: &mut Lower, ins: &TgsiIns, d: Dest, srcs: &[SrcOperand], kinds: &[Option<bool>]) {
    let m = d.mask;
    if srcs.len() < 3 || kinds.iter().any(|k| k.is_none()) {
        return l.refuse(ins.opcode_span, "UCMP mixes boolean and other channels in one operand");
    }
    if kinds.get(1) != kinds.get(2) {
        // TGSI would copy the all-ones bits of one and the number of the other.
        return l.refuse(ins.opcode_span, "UCMP selects between a comparison result and a number");
    }
    let (Some(c), Some(x), Some(y)) =
        (l.src(&srcs[0], m, false), l.src(&srcs[1], m, false), l.src(&srcs[2], m, false))
    else {
        return;
    };
    let (Some(tc), Some(tx), Some(ty)) = (l.scratch(), l.scratch(), l.scratch()) else {
        return;
    };
    let cond = if kinds.first() == Some(&Some(true)) {
        c
    } else {
        match nonzero_bits(l, c, m, tc) {
            Some(t) => t,
            None => return,
        }
    };
    let one = l.special(ONE);
    l.emit(opc::MUL, Some(tdest(tx, m)), Some(x), Some(cond));
    l.emit(opc::SUB, Some(tdest(ty, m)), Some(one), Some(cond));
    l.emit(opc::MUL, Some(tdest(ty, m)), Some(y), Some(tsrc(ty)));
    l.emit(opc::ADD, Some(d), Some(tsrc(tx)), Some(tsrc(ty)));
}
