//! 64-bit integer opcodes (`tgsi.rst` "64-bit Integer ISA"): values in channel pairs like
//! doubles; shift counts masked to 6 bits; division by zero gives all ones (UDIV's rule widened,
//! documented) and signed division by zero gives 0 (IDIV's rule). Source negate/abs act on the
//! whole 64-bit value.

use super::{tf, Shape};
use crate::exec::lanes::Lanes;
use crate::exec::program::Inst;
use crate::exec::regs::{Io, Res};
use crate::opcode::{Opcode as O, ValType};

struct Pair<'a> {
    lo: &'a [Lanes],
    hi: &'a [Lanes],
    neg: bool,
    abs: bool,
}

impl Pair<'_> {
    #[inline]
    fn get(&self, q: usize, l: usize) -> u64 {
        let v = self.lo.get(q).map_or(0, |v| v.0[l]) as u64
            | (self.hi.get(q).map_or(0, |v| v.0[l]) as u64) << 32;
        let mut v = v as i64;
        if self.abs {
            v = v.wrapping_abs();
        }
        if self.neg {
            v = v.wrapping_neg();
        }
        v as u64
    }
}

fn pair<'a>(io: &mut Io<'a>, inst: &Inst, i: usize, p: usize) -> Pair<'a> {
    let s = inst.src.get(i).copied().unwrap_or_default();
    Pair {
        lo: io.fetch_raw(&s, 2 * p),
        hi: io.fetch_raw(&s, 2 * p + 1),
        neg: s.negate,
        abs: s.absolute,
    }
}

#[inline]
fn put(res: &mut Res, c: usize, q: usize, l: usize, v: u32) {
    if let Some(o) = res[c].get_mut(q) {
        o.0[l] = v;
    }
}

enum Out {
    V(u64),
    Flag(bool),
}

fn each_pair(inst: &Inst, io: &mut Io, res: &mut Res, n: usize, f: impl Fn(u64, u64, u32) -> Out) {
    let nq = io.nq;
    let m = super::mask(inst);
    for p in 0..2 {
        if m >> (2 * p) & 3 == 0 {
            continue;
        }
        let a = pair(io, inst, 0, p);
        let b = if n > 1 { Some(pair(io, inst, 1, p)) } else { None };
        // Shift counts: src1.x for the first value, src1.y for the second.
        let count = if inst.src.get(1).and_then(|s| s.ty) == Some(ValType::Uint) {
            Some(io.src(inst, 1, p))
        } else {
            None
        };
        for q in 0..nq {
            for l in 0..4 {
                let x = a.get(q, l);
                let y = b.as_ref().map_or(0, |b| b.get(q, l));
                let k = count.and_then(|c| c.get(q)).map_or(0, |v| v.0[l]);
                match f(x, y, k) {
                    Out::V(v) => {
                        put(res, 2 * p, q, l, v as u32);
                        put(res, 2 * p + 1, q, l, (v >> 32) as u32);
                    }
                    Out::Flag(t) => {
                        put(res, 2 * p, q, l, tf(t));
                        put(res, 2 * p + 1, q, l, 0);
                    }
                }
            }
        }
    }
}

/// 32-bit → 64-bit conversions read src.x (value 0) and src.y (value 1).
fn widen(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(u32) -> u64) {
    let nq = io.nq;
    let m = super::mask(inst);
    for p in 0..2 {
        if m >> (2 * p) & 3 == 0 {
            continue;
        }
        let s = io.src(inst, 0, p);
        for q in 0..nq {
            for l in 0..4 {
                let v = f(s.get(q).map_or(0, |v| v.0[l]));
                put(res, 2 * p, q, l, v as u32);
                put(res, 2 * p + 1, q, l, (v >> 32) as u32);
            }
        }
    }
}

/// 64-bit → 32-bit conversions write dst.x (value 0) and dst.y (value 1).
fn narrow(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(u64) -> u32) {
    let nq = io.nq;
    let m = super::mask(inst);
    for p in 0..2 {
        if m >> p & 1 == 0 {
            continue;
        }
        let a = pair(io, inst, 0, p);
        for q in 0..nq {
            for l in 0..4 {
                put(res, p, q, l, f(a.get(q, l)));
            }
        }
    }
}

/// Double-pair → 64-bit integer (D2I64/D2U64), pair to pair.
fn from_double(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(f64) -> u64) {
    each_pair(inst, io, res, 1, |a, _, _| Out::V(f(f64::from_bits(a))));
}

pub fn run(inst: &Inst, io: &mut Io, res: &mut Res) -> Option<Shape> {
    use Out::{Flag, V};
    let s = |x: u64| x as i64;
    match inst.op {
        O::U64ADD => each_pair(inst, io, res, 2, |a, b, _| V(a.wrapping_add(b))),
        O::U64MUL => each_pair(inst, io, res, 2, |a, b, _| V(a.wrapping_mul(b))),
        O::U64DIV => each_pair(inst, io, res, 2, |a, b, _| V(a.checked_div(b).unwrap_or(u64::MAX))),
        O::U64MOD => {
            each_pair(inst, io, res, 2, |a, b, _| V(if b == 0 { u64::MAX } else { a % b }))
        }
        O::I64DIV => each_pair(inst, io, res, 2, |a, b, _| {
            V(if b == 0 { 0 } else { s(a).wrapping_div(s(b)) as u64 })
        }),
        O::I64MOD => each_pair(inst, io, res, 2, |a, b, _| {
            V(if b == 0 { u64::MAX } else { s(a).wrapping_rem(s(b)) as u64 })
        }),
        O::U64MIN => each_pair(inst, io, res, 2, |a, b, _| V(a.min(b))),
        O::U64MAX => each_pair(inst, io, res, 2, |a, b, _| V(a.max(b))),
        O::I64MIN => each_pair(inst, io, res, 2, |a, b, _| V(s(a).min(s(b)) as u64)),
        O::I64MAX => each_pair(inst, io, res, 2, |a, b, _| V(s(a).max(s(b)) as u64)),
        O::I64ABS => each_pair(inst, io, res, 1, |a, _, _| V(s(a).wrapping_abs() as u64)),
        O::I64NEG => each_pair(inst, io, res, 1, |a, _, _| V(s(a).wrapping_neg() as u64)),
        O::I64SSG => each_pair(inst, io, res, 1, |a, _, _| V(s(a).signum() as u64)),
        O::U64SEQ => each_pair(inst, io, res, 2, |a, b, _| Flag(a == b)),
        O::U64SNE => each_pair(inst, io, res, 2, |a, b, _| Flag(a != b)),
        O::U64SLT => each_pair(inst, io, res, 2, |a, b, _| Flag(a < b)),
        O::U64SGE => each_pair(inst, io, res, 2, |a, b, _| Flag(a >= b)),
        O::I64SLT => each_pair(inst, io, res, 2, |a, b, _| Flag(s(a) < s(b))),
        O::I64SGE => each_pair(inst, io, res, 2, |a, b, _| Flag(s(a) >= s(b))),
        O::U64SHL => each_pair(inst, io, res, 1, |a, _, k| V(a << (k & 63))),
        O::U64SHR => each_pair(inst, io, res, 1, |a, _, k| V(a >> (k & 63))),
        O::I64SHR => each_pair(inst, io, res, 1, |a, _, k| V((s(a) >> (k & 63)) as u64)),
        O::I2I64 => widen(inst, io, res, |x| x as i32 as i64 as u64),
        O::U2I64 => widen(inst, io, res, |x| x as u64),
        O::F2I64 => widen(inst, io, res, |x| f32::from_bits(x) as i64 as u64),
        O::F2U64 => widen(inst, io, res, |x| f32::from_bits(x) as u64),
        O::U642F => narrow(inst, io, res, |v| (v as f32).to_bits()),
        O::I642F => narrow(inst, io, res, |v| (v as i64 as f32).to_bits()),
        O::U642D => each_pair(inst, io, res, 1, |a, _, _| V((a as f64).to_bits())),
        O::I642D => each_pair(inst, io, res, 1, |a, _, _| V((a as i64 as f64).to_bits())),
        O::D2I64 => from_double(inst, io, res, |d| d as i64 as u64),
        O::D2U64 => from_double(inst, io, res, |d| d as u64),
        _ => return None,
    }
    Some(Shape::PerChannel)
}
