//! Float arithmetic, comparisons, transcendental functions and the float legacy opcodes, with
//! tgsi_exec's exact formulas (tgsi_exec.c's `micro_*` functions, `tgsi.rst` "Core ISA",
//! the 2010 edition of tgsi.rst for the legacy ones).

use super::lane;
use super::{comp1, comp2, comp3, mask, repl1f, Shape};
use crate::exec::lanes::{fmap1, fmap2, from_fv, fv, vmap2, vmap3, Lanes};
use crate::exec::program::Inst;
use crate::exec::regs::{Io, Res};
use crate::opcode::Opcode as O;

/// tgsi_exec's LG2: `logf(x) * 1.442695f` (not log2f), with glibc's `logf`
/// (`exp_log::ln`). The literal is tgsi_exec's, kept as written so results stay bit-exact.
#[inline]
pub fn lg2(x: f32) -> f32 {
    super::exp_log::ln(x) * LOG2_E_AS_WRITTEN
}

/// [`lg2`] inside softpipe's draw call, where DAZ reads a denormal argument of glibc's `logf`
/// as zero after its normalisation (`exp_log::ln_daz`; docs/interpreter.md "Denormals").
#[inline]
pub fn lg2_daz(x: f32) -> f32 {
    super::exp_log::ln_daz(x) * LOG2_E_AS_WRITTEN
}

/// tgsi_exec's `1.442695f` in `micro_lg2`.
#[allow(clippy::approx_constant)]
const LOG2_E_AS_WRITTEN: f32 = 1.442695;

/// tgsi_exec's EX2: `powf(2, x)`, with glibc's `powf` (`exp_log::pow`).
#[inline]
pub fn ex2(x: f32) -> f32 {
    super::exp_log::pow(2.0, x)
}

pub use super::trig::{cos, sin};

/// SIN or COS (`trig::sin`, `trig::cos`) over the batch: the branch-free formula for every lane
/// (a loop the compiler vectorises), then the rare lanes outside its range out of line.
fn sin_cos_lanes(inst: &Inst, io: &mut Io, res: &mut Res, cos: bool) -> Shape {
    let a = io.src(inst, 0, 0);
    fmap1(res[0], a, |x| super::trig::reduced_value(x, cos));
    for (out, x) in res[0].iter_mut().zip(a) {
        for l in 0..4 {
            let v = f32::from_bits(x.0[l]);
            if !super::trig::reduced(v) {
                out.0[l] = super::trig::outside(v, cos).to_bits();
            }
        }
    }
    Shape::Replicated
}

/// tgsi_exec's POW: `powf(x, y)`, with glibc's `powf` (`exp_log::pow`).
#[inline]
pub fn pow(x: f32, y: f32) -> f32 {
    super::exp_log::pow(x, y)
}

/// [`pow`] inside softpipe's draw call, where DAZ reads a subnormal base as 2^-150
/// (`exp_log::pow_daz`; docs/interpreter.md "Denormals").
#[inline]
pub fn pow_daz(x: f32, y: f32) -> f32 {
    super::exp_log::pow_daz(x, y)
}

/// Round half to even (tgsi_exec's ROUND).
#[inline]
pub fn round_even(x: f32) -> f32 {
    x.round_ties_even()
}

#[inline(always)]
fn fbits(f: impl Fn(f32) -> f32) -> impl Fn(u32) -> u32 {
    move |a| f(f32::from_bits(a)).to_bits()
}

#[inline(always)]
fn fbits2(f: impl Fn(f32, f32) -> f32) -> impl Fn(u32, u32) -> u32 {
    move |a, b| f(f32::from_bits(a), f32::from_bits(b)).to_bits()
}

#[inline(always)]
fn fbits3(f: impl Fn(f32, f32, f32) -> f32) -> impl Fn(u32, u32, u32) -> u32 {
    move |a, b, c| f(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)).to_bits()
}

/// Sign: 1, −1 or 0 (NaN gives 0, as `x > 0 ? 1 : x < 0 ? -1 : 0`).
#[inline]
pub fn ssg(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Sum of products of the first `n` channels of src0 and src1 (tgsi_exec's MUL then MADs,
/// each rounded), plus optional extra terms.
fn dot(inst: &Inst, io: &mut Io, res: &mut Res, n: usize) {
    let out = &mut *res[0];
    let (a, b) = (io.src(inst, 0, 0), io.src(inst, 1, 0));
    if inst.ftz {
        // Each product and partial sum flushed (the draw stages' FTZ, `lane::mad_ftz`).
        fmap2(out, a, b, lane::mul_ftz);
        for c in 1..n {
            let (a, b) = (io.src(inst, 0, c), io.src(inst, 1, c));
            for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
                for l in 0..4 {
                    let f = |v: u32| f32::from_bits(v);
                    o.0[l] = lane::mad_ftz(f(a.0[l]), f(b.0[l]), f(o.0[l])).to_bits();
                }
            }
        }
        return;
    }
    vmap2(out, a, b, lane::mul);
    for c in 1..n {
        let (a, b) = (io.src(inst, 0, c), io.src(inst, 1, c));
        for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
            *o = from_fv(lane::dot_step(fv(o), fv(a), fv(b)));
        }
    }
}

fn add_into(out: &mut [Lanes], v: &[Lanes]) {
    fmap_inplace(out, v, |a, b| a + b);
}

fn fmap_inplace(out: &mut [Lanes], v: &[Lanes], f: impl Fn(f32, f32) -> f32) {
    for (o, v) in out.iter_mut().zip(v) {
        for l in 0..4 {
            o.0[l] = f(f32::from_bits(o.0[l]), f32::from_bits(v.0[l])).to_bits();
        }
    }
}

/// Fills every enabled result channel with a constant.
fn konst(res: &mut Res, c: usize, v: f32) {
    res[c].fill(Lanes::splat_f(v));
}

/// fminf as glibc computes it on x86-64 (one lane of [`lane::min`]).
#[inline(always)]
pub fn fmin(a: f32, b: f32) -> f32 {
    lane::min(a, b)
}

/// fmaxf as glibc computes it on x86-64 (one lane of [`lane::max`]).
#[inline(always)]
pub fn fmax(a: f32, b: f32) -> f32 {
    lane::max(a, b)
}

#[inline(always)]
fn vcomp2(
    inst: &Inst,
    io: &mut Io,
    res: &mut Res,
    f: impl Fn(wide::f32x4, wide::f32x4) -> wide::f32x4,
) -> Shape {
    let m = mask(inst);
    for c in 0..4 {
        if m >> c & 1 != 0 {
            let (a, b) = (io.src(inst, 0, c), io.src(inst, 1, c));
            vmap2(res[c], a, b, &f);
        }
    }
    Shape::PerChannel
}

#[inline(always)]
fn vcomp3(
    inst: &Inst,
    io: &mut Io,
    res: &mut Res,
    f: impl Fn(wide::f32x4, wide::f32x4, wide::f32x4) -> wide::f32x4,
) -> Shape {
    let m = mask(inst);
    for c in 0..4 {
        if m >> c & 1 != 0 {
            let (a, b, d) = (io.src(inst, 0, c), io.src(inst, 1, c), io.src(inst, 2, c));
            vmap3(res[c], a, b, d, &f);
        }
    }
    Shape::PerChannel
}

pub fn run(inst: &Inst, io: &mut Io, res: &mut Res) -> Option<Shape> {
    Some(match inst.op {
        O::MOV => comp1(inst, io, res, |a| a),
        O::ADD => vcomp2(inst, io, res, lane::add),
        O::SUB => vcomp2(inst, io, res, lane::sub),
        O::MUL if inst.ftz => comp2(inst, io, res, fbits2(lane::mul_ftz)),
        O::MIN if inst.ftz => comp2(inst, io, res, fbits2(lane::min_draw)),
        O::MAX if inst.ftz => comp2(inst, io, res, fbits2(lane::max_draw)),
        O::MAD if inst.ftz => comp3(inst, io, res, fbits3(lane::mad_ftz)),
        O::MUL => vcomp2(inst, io, res, lane::mul),
        O::DIV => vcomp2(inst, io, res, lane::div),
        O::MAD => vcomp3(inst, io, res, lane::mad),
        O::FMA => comp3(inst, io, res, fbits3(fma)),
        O::LRP => vcomp3(inst, io, res, |a, b, c| a * (b - c) + c),
        O::MIN => vcomp2(inst, io, res, lane::min),
        O::MAX => vcomp2(inst, io, res, lane::max),
        O::SLT => vcomp2(inst, io, res, lane::slt),
        O::SGE => vcomp2(inst, io, res, lane::sge),
        O::SEQ => vcomp2(inst, io, res, lane::seq),
        O::SNE => vcomp2(inst, io, res, lane::sne),
        O::SGT => vcomp2(inst, io, res, lane::sgt),
        O::SLE => vcomp2(inst, io, res, lane::sle),
        O::FSEQ => vcomp2(inst, io, res, lane::fseq),
        O::FSNE => vcomp2(inst, io, res, lane::fsne),
        O::FSLT => vcomp2(inst, io, res, lane::fslt),
        O::FSGE => vcomp2(inst, io, res, lane::fsge),
        O::FRC => comp1(inst, io, res, fbits(|a| a - a.floor())),
        O::FLR => comp1(inst, io, res, fbits(f32::floor)),
        O::CEIL => comp1(inst, io, res, fbits(f32::ceil)),
        O::TRUNC => comp1(inst, io, res, fbits(f32::trunc)),
        O::ROUND => comp1(inst, io, res, fbits(round_even)),
        O::SSG => comp1(inst, io, res, fbits(ssg)),
        O::ABS => comp1(inst, io, res, |a| a & 0x7fff_ffff),
        O::CMP => comp3(inst, io, res, |a, b, c| if f32::from_bits(a) < 0.0 { b } else { c }),
        O::UCMP => comp3(inst, io, res, |a, b, c| if a != 0 { b } else { c }),
        O::LDEXP => comp2(inst, io, res, |a, b| ldexp(f32::from_bits(a), b as i32).to_bits()),
        // Legacy (2010): CND picks src0 where src2 > 0.5; CLAMP; SAD.
        O::CND => comp3(inst, io, res, |a, b, c| if f32::from_bits(c) > 0.5 { a } else { b }),
        O::CLAMP => comp3(
            inst,
            io,
            res,
            fbits3(|x, lo, hi| {
                if x < lo {
                    lo
                } else if x > hi {
                    hi
                } else {
                    x
                }
            }),
        ),
        O::SAD => comp3(inst, io, res, fbits3(|a, b, c| (a - b).abs() + c)),

        O::RCP => repl1f(inst, io, res, |x| 1.0 / x),
        O::RSQ => repl1f(inst, io, res, |x| 1.0 / x.sqrt()),
        O::SQRT => repl1f(inst, io, res, f32::sqrt),
        O::EX2 => repl1f(inst, io, res, ex2),
        O::LG2 if inst.libm_daz => repl1f(inst, io, res, lg2_daz),
        O::LG2 => repl1f(inst, io, res, lg2),
        O::SIN => sin_cos_lanes(inst, io, res, false),
        O::COS => sin_cos_lanes(inst, io, res, true),
        O::POW => {
            let (a, b) = (io.src(inst, 0, 0), io.src(inst, 1, 0));
            fmap2(res[0], a, b, if inst.libm_daz { pow_daz } else { pow });
            Shape::Replicated
        }
        O::RCC => repl1f(inst, io, res, rcc),
        O::SFL => {
            konst(res, 0, 0.0);
            Shape::Replicated
        }
        O::STR => {
            konst(res, 0, 1.0);
            Shape::Replicated
        }
        O::DP2 => {
            dot(inst, io, res, 2);
            Shape::Replicated
        }
        O::DP3 => {
            dot(inst, io, res, 3);
            Shape::Replicated
        }
        O::DP4 => {
            dot(inst, io, res, 4);
            Shape::Replicated
        }
        O::DPH => {
            dot(inst, io, res, 3);
            let w = io.src(inst, 1, 3);
            add_into(res[0], w);
            Shape::Replicated
        }
        O::DP2A => {
            dot(inst, io, res, 2);
            let z = io.src(inst, 2, 0);
            add_into(res[0], z);
            Shape::Replicated
        }
        O::NRM4 => {
            // 2010 text: the vector scaled to unit length, replicated from x.
            let (x, y, z, w) =
                (io.src(inst, 0, 0), io.src(inst, 0, 1), io.src(inst, 0, 2), io.src(inst, 0, 3));
            for (q, o) in res[0].iter_mut().enumerate() {
                for l in 0..4 {
                    let g = |v: &[Lanes]| f32::from_bits(v[q].0[l]);
                    let len2 = g(x) * g(x) + g(y) * g(y) + g(z) * g(z) + g(w) * g(w);
                    o.0[l] = (g(x) * (1.0 / len2.sqrt())).to_bits();
                }
            }
            Shape::Replicated
        }
        O::LIT | O::EXP | O::LOG | O::DST | O::XPD | O::SCS | O::RFL | O::X2D | O::NRM => {
            channel_op(inst, io, res)
        }
        _ => return None,
    })
}

/// FMA: a · b + c with one rounding (`mul_add`: the CPU's fused instruction or libm's `fmaf`,
/// both exact).
#[inline]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// x · 2^n without overflow in the intermediate power (scales in steps).
pub fn ldexp(x: f32, n: i32) -> f32 {
    let mut v = x as f64;
    let n = n.clamp(-400, 400);
    v *= 2f64.powi(n);
    v as f32
}

/// RCC (2010): 1/x clamped away from zero and infinity, keeping the sign.
pub fn rcc(x: f32) -> f32 {
    let r = 1.0 / x;
    if r > 0.0 {
        r.clamp(5.42101e-20, 1.884467e19)
    } else {
        r.clamp(-1.884467e19, -5.42101e-20)
    }
}

/// LIT's z: `powf(max(y, 0), clamp(w, ±128))` when 0 < x, else 0 (tgsi_exec: w clamped with
/// fminf/fmaxf).
pub fn lit_z(x: f32, y: f32, w: f32) -> f32 {
    let w = fmax(fmin(w, 128.0), -128.0);
    if 0.0 < x {
        pow(fmax(y, 0.0), w)
    } else {
        0.0
    }
}

/// Opcodes whose channels each have their own formula.
fn channel_op(inst: &Inst, io: &mut Io, res: &mut Res) -> Shape {
    let m = mask(inst);
    let nq = io.nq;
    let s0: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 0, c));
    let two = matches!(inst.op, O::DST | O::XPD | O::RFL | O::X2D);
    let s1: [&[Lanes]; 4] =
        if two { std::array::from_fn(|c| io.src(inst, 1, c)) } else { [&[]; 4] };
    let s2: [&[Lanes]; 4] =
        if inst.op == O::X2D { std::array::from_fn(|c| io.src(inst, 2, c)) } else { [&[]; 4] };
    for q in 0..nq {
        for l in 0..4 {
            let a = |c: usize| s0[c].get(q).map_or(0.0, |v| f32::from_bits(v.0[l]));
            let b = |c: usize| s1[c].get(q).map_or(0.0, |v| f32::from_bits(v.0[l]));
            let d = |c: usize| s2[c].get(q).map_or(0.0, |v| f32::from_bits(v.0[l]));
            let out: [f32; 4] = match inst.op {
                O::LIT => {
                    // tgsi_exec: w clamped to ±128 with fminf/fmaxf; z only when 0 < x.
                    [1.0, fmax(a(0), 0.0), lit_z(a(0), a(1), a(3)), 1.0]
                }
                O::EXP => {
                    let f = a(0).floor();
                    [ex2(f), a(0) - f, ex2(a(0)), 1.0]
                }
                O::LOG => {
                    let ax = a(0).abs();
                    let z = lg2(ax);
                    let x = z.floor();
                    [x, ax / ex2(x), z, 1.0]
                }
                O::DST => [1.0, a(1) * b(1), a(2), b(3)],
                O::XPD => [
                    a(1) * b(2) - b(1) * a(2),
                    a(2) * b(0) - b(2) * a(0),
                    a(0) * b(1) - b(0) * a(1),
                    1.0,
                ],
                O::SCS => [cos(a(0)), sin(a(0)), 0.0, 1.0],
                O::RFL => {
                    let k = 2.0 * (a(0) * b(0) + a(1) * b(1) + a(2) * b(2))
                        / (a(0) * a(0) + a(1) * a(1) + a(2) * a(2));
                    [k * a(0) - b(0), k * a(1) - b(1), k * a(2) - b(2), 1.0]
                }
                O::X2D => {
                    let x = a(0) + b(0) * d(0) + b(1) * d(1);
                    let y = a(1) + b(0) * d(2) + b(1) * d(3);
                    [x, y, x, y]
                }
                // NRM: unit-length xyz (the 2010 text forgets the square root; Mesa took it).
                _ => {
                    let inv = 1.0 / (a(0) * a(0) + a(1) * a(1) + a(2) * a(2)).sqrt();
                    [a(0) * inv, a(1) * inv, a(2) * inv, 1.0]
                }
            };
            for c in 0..4 {
                if m >> c & 1 != 0 {
                    if let Some(o) = res[c].get_mut(q) {
                        o.0[l] = out[c].to_bits();
                    }
                }
            }
        }
    }
    Shape::PerChannel
}
