//! Double-precision opcodes (`tgsi.rst` "Double ISA"): a double lives in a channel pair, low
//! word first — xy holds value 0 and zw value 1. Conversions read or write single channels as
//! the spec's formulas say (F2D reads x and y; D2F writes x and y).

use super::{tf, Shape};
use crate::exec::lanes::Lanes;
use crate::exec::program::Inst;
use crate::exec::regs::{Io, Res};
use crate::opcode::Opcode as O;

#[inline]
pub fn join(lo: u32, hi: u32) -> u64 {
    lo as u64 | (hi as u64) << 32
}

/// The value of pair `p` of source `i` for (quad, lane).
struct Pair<'a> {
    lo: &'a [Lanes],
    hi: &'a [Lanes],
}

impl Pair<'_> {
    #[inline]
    fn bits(&self, q: usize, l: usize) -> u64 {
        join(self.lo.get(q).map_or(0, |v| v.0[l]), self.hi.get(q).map_or(0, |v| v.0[l]))
    }
    #[inline]
    fn d(&self, q: usize, l: usize) -> f64 {
        f64::from_bits(self.bits(q, l))
    }
}

fn pair<'a>(io: &mut Io<'a>, inst: &Inst, i: usize, p: usize) -> Pair<'a> {
    Pair { lo: io.src(inst, i, 2 * p), hi: io.src(inst, i, 2 * p + 1) }
}

/// Writes a 64-bit value to result channels (2p, 2p+1).
#[inline]
fn put64(res: &mut Res, p: usize, q: usize, l: usize, v: u64) {
    if let Some(o) = res[2 * p].get_mut(q) {
        o.0[l] = v as u32;
    }
    if let Some(o) = res[2 * p + 1].get_mut(q) {
        o.0[l] = (v >> 32) as u32;
    }
}

#[inline]
fn put32(res: &mut Res, c: usize, q: usize, l: usize, v: u32) {
    if let Some(o) = res[c].get_mut(q) {
        o.0[l] = v;
    }
}

fn pairs_enabled(inst: &Inst) -> [bool; 2] {
    let m = super::mask(inst);
    [m & 3 != 0, m & 12 != 0]
}

/// Double → double (or → flag in channel 2p) over the enabled pairs.
fn each_pair(inst: &Inst, io: &mut Io, res: &mut Res, n: usize, f: impl Fn(&[f64; 3]) -> Out) {
    let nq = io.nq;
    for (p, on) in pairs_enabled(inst).into_iter().enumerate() {
        if !on {
            continue;
        }
        let srcs: [Option<Pair>; 3] =
            std::array::from_fn(|i| if i < n { Some(pair(io, inst, i, p)) } else { None });
        for q in 0..nq {
            for l in 0..4 {
                let v: [f64; 3] =
                    std::array::from_fn(|i| srcs[i].as_ref().map_or(0.0, |s| s.d(q, l)));
                match f(&v) {
                    Out::D(d) => put64(res, p, q, l, d.to_bits()),
                    Out::Flag(b) => {
                        put32(res, 2 * p, q, l, tf(b));
                        put32(res, 2 * p + 1, q, l, 0);
                    }
                }
            }
        }
    }
}

enum Out {
    D(f64),
    Flag(bool),
}

/// glibc's `fmin` on x86-64 (tgsi_exec's DMIN): a NaN operand gives the other; otherwise
/// `a < b ? a : b`, so equal zeros give the second operand.
fn dmin(a: f64, b: f64) -> f64 {
    if b.is_nan() || (!a.is_nan() && a < b) {
        a
    } else {
        b
    }
}

/// glibc's `fmax` likewise (tgsi_exec's DMAX).
fn dmax(a: f64, b: f64) -> f64 {
    if b.is_nan() || (!a.is_nan() && a > b) {
        a
    } else {
        b
    }
}

/// Round half to even for doubles.
fn round_even(x: f64) -> f64 {
    x.round_ties_even()
}

fn ssg(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

pub fn run(inst: &Inst, io: &mut Io, res: &mut Res) -> Option<Shape> {
    use Out::{Flag, D};
    match inst.op {
        O::DADD => each_pair(inst, io, res, 2, |v| D(v[0] + v[1])),
        O::DMUL => each_pair(inst, io, res, 2, |v| D(v[0] * v[1])),
        O::DDIV => each_pair(inst, io, res, 2, |v| D(v[0] / v[1])),
        O::DMAD => each_pair(inst, io, res, 3, |v| D(v[0] * v[1] + v[2])),
        O::DFMA => each_pair(inst, io, res, 3, |v| D(v[0].mul_add(v[1], v[2]))),
        O::DMIN => each_pair(inst, io, res, 2, |v| D(dmin(v[0], v[1]))),
        O::DMAX => each_pair(inst, io, res, 2, |v| D(dmax(v[0], v[1]))),
        // tgsi_exec: `d >= 0 ? d : -d` (so −0 stays −0 and a NaN's sign flips).
        O::DABS => each_pair(inst, io, res, 1, |v| D(if v[0] >= 0.0 { v[0] } else { -v[0] })),
        O::DNEG => each_pair(inst, io, res, 1, |v| D(-v[0])),
        O::DRCP => each_pair(inst, io, res, 1, |v| D(1.0 / v[0])),
        O::DSQRT => each_pair(inst, io, res, 1, |v| D(v[0].sqrt())),
        O::DRSQ => each_pair(inst, io, res, 1, |v| D(1.0 / v[0].sqrt())),
        O::DFRAC => each_pair(inst, io, res, 1, |v| D(v[0] - v[0].floor())),
        O::DTRUNC => each_pair(inst, io, res, 1, |v| D(v[0].trunc())),
        O::DCEIL => each_pair(inst, io, res, 1, |v| D(v[0].ceil())),
        O::DFLR => each_pair(inst, io, res, 1, |v| D(v[0].floor())),
        O::DROUND => each_pair(inst, io, res, 1, |v| D(round_even(v[0]))),
        O::DSSG => each_pair(inst, io, res, 1, |v| D(ssg(v[0]))),
        O::DSEQ => each_pair(inst, io, res, 2, |v| Flag(v[0] == v[1])),
        O::DSNE => each_pair(inst, io, res, 2, |v| Flag(v[0] != v[1])),
        O::DSLT => each_pair(inst, io, res, 2, |v| Flag(v[0] < v[1])),
        O::DSGE => each_pair(inst, io, res, 2, |v| Flag(v[0] >= v[1])),
        O::DLDEXP => {
            // dst.xy = src0.xy · 2^src1.x ; dst.zw = src0.zw · 2^src1.z
            let nq = io.nq;
            for (p, on) in pairs_enabled(inst).into_iter().enumerate() {
                if !on {
                    continue;
                }
                let a = pair(io, inst, 0, p);
                let e = io.src(inst, 1, 2 * p);
                for q in 0..nq {
                    for l in 0..4 {
                        let n = e.get(q).map_or(0, |v| v.0[l] as i32);
                        put64(res, p, q, l, ldexp(a.d(q, l), n).to_bits());
                    }
                }
            }
        }
        O::DFRACEXP => {
            // As softpipe runs what nir_to_tgsi emits for frexp(): dst0 = the significand in
            // [0.5, 1) as a double, dst1 = the exponent as a 32-bit integer in both channels of
            // the pair (tests/double-cases/ldexp_frexp). tgsi.rst's 2010 text has them swapped.
            let nq = io.nq;
            for p in 0..2 {
                let a = pair(io, inst, 0, p);
                for q in 0..nq {
                    for l in 0..4 {
                        let (m, e) = frexp(a.d(q, l));
                        put64(res, p, q, l, m.to_bits());
                        for c in [4 + 2 * p, 5 + 2 * p] {
                            if let Some(o) = res[c].get_mut(q) {
                                o.0[l] = e as u32;
                            }
                        }
                    }
                }
            }
        }
        O::F2D | O::I2D | O::U2D => {
            let nq = io.nq;
            for (p, on) in pairs_enabled(inst).into_iter().enumerate() {
                if !on {
                    continue;
                }
                let s = io.src(inst, 0, p);
                for q in 0..nq {
                    for l in 0..4 {
                        let x = s.get(q).map_or(0, |v| v.0[l]);
                        let d = match inst.op {
                            O::F2D => f32::from_bits(x) as f64,
                            O::I2D => x as i32 as f64,
                            _ => x as f64,
                        };
                        put64(res, p, q, l, d.to_bits());
                    }
                }
            }
        }
        O::D2F | O::D2I | O::D2U => {
            let nq = io.nq;
            let m = super::mask(inst);
            for p in 0..2 {
                if m >> p & 1 == 0 {
                    continue;
                }
                let a = pair(io, inst, 0, p);
                for q in 0..nq {
                    for l in 0..4 {
                        let d = a.d(q, l);
                        let v = match inst.op {
                            O::D2F => (d as f32).to_bits(),
                            // GPU-like saturation, NaN → 0 (as F2I).
                            O::D2I => d as i32 as u32,
                            _ => d as u32,
                        };
                        put32(res, p, q, l, v);
                    }
                }
            }
        }
        _ => return None,
    }
    Some(Shape::PerChannel)
}

/// x · 2^n, exact unless the result over/underflows.
pub fn ldexp(x: f64, n: i32) -> f64 {
    let mut v = x;
    let mut n = n.clamp(-2200, 2200);
    while n > 1000 {
        v *= 2f64.powi(1000);
        n -= 1000;
    }
    while n < -1000 {
        v *= 2f64.powi(-1000);
        n += 1000;
    }
    v * 2f64.powi(n)
}

/// frexp: (m, e) with x = m · 2^e and 0.5 ≤ |m| < 1 (m = x, e = 0 for 0, inf, NaN).
pub fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, exp - 1022)
}
