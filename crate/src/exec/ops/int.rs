//! Integer and unsigned arithmetic, comparisons, bitwise and bitfield ops, conversions and
//! address loads (`tgsi.rst` "Integer ISA", tgsi_exec results for division by zero and shift
//! masking, tgsi_exec.c `micro_idiv`, `micro_udiv`, `micro_shl`).

use super::lane;
use super::{comp1, comp2, comp3, Shape};
use crate::exec::program::Inst;
use crate::exec::regs::{Io, Res};
use crate::opcode::Opcode as O;

/// Component-wise op of two sources on SIMD integer vectors.
#[inline(always)]
fn icomp2(
    inst: &Inst,
    io: &mut Io,
    res: &mut Res,
    f: impl Fn(wide::i32x4, wide::i32x4) -> wide::i32x4,
) -> Shape {
    let m = super::mask(inst);
    for c in 0..4 {
        if m >> c & 1 != 0 {
            let (a, b) = (io.src(inst, 0, c), io.src(inst, 1, c));
            crate::exec::lanes::imap2(res[c], a, b, &f);
        }
    }
    Shape::PerChannel
}

#[inline(always)]
fn i(x: u32) -> i32 {
    x as i32
}

/// SHL, ISHR, USHR: the shift count is taken modulo 32 (tgsi_exec masks it to 5 bits).
#[inline]
pub fn shl(a: u32, b: u32) -> u32 {
    a << (b & 31)
}

#[inline]
pub fn ishr(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}

#[inline]
pub fn ushr(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

/// F2I: truncation with GPU-style saturation — NaN → 0, out of range → INT_MIN / INT_MAX
/// (tgsi_exec's C cast leaves these undefined).
#[inline]
pub fn f2i(x: f32) -> i32 {
    x as i32
}

/// F2U: NaN and negatives → 0, too large → UINT_MAX.
#[inline]
pub fn f2u(x: f32) -> u32 {
    x as u32
}

/// IDIV: division by zero gives 0 (tgsi_exec); INT_MIN / −1 wraps to INT_MIN (C leaves it
/// undefined; GPUs wrap).
#[inline]
pub fn idiv(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

/// MOD (signed remainder): by zero gives all ones (tgsi_exec); INT_MIN % −1 = 0.
#[inline]
pub fn imod(a: i32, b: i32) -> u32 {
    if b == 0 {
        u32::MAX
    } else {
        a.wrapping_rem(b) as u32
    }
}

/// UBFE as tgsi_exec: offset and width masked to 5 bits.
#[inline]
pub fn ubfe(v: u32, offset: u32, width: u32) -> u32 {
    let (o, w) = (offset & 31, width & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (v << (32 - w - o)) >> (32 - w)
    } else {
        v >> o
    }
}

/// IBFE as tgsi_exec (sign-extending).
#[inline]
pub fn ibfe(v: u32, offset: u32, width: u32) -> u32 {
    let (o, w) = (offset & 31, width & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (((v << (32 - w - o)) as i32) >> (32 - w)) as u32
    } else {
        ((v as i32) >> o) as u32
    }
}

/// BFI as tgsi_exec: offset and width masked to 5 bits.
#[inline]
pub fn bfi(base: u32, insert: u32, offset: u32, width: u32) -> u32 {
    let (o, w) = (offset & 31, width & 31);
    let mask = ((1u32 << w).wrapping_sub(1)) << o;
    ((insert << o) & mask) | (base & !mask)
}

/// Index of the highest bit that differs from the sign bit; −1 for 0 and −1.
#[inline]
pub fn imsb(x: u32) -> u32 {
    let v = if (x as i32) < 0 { !x } else { x };
    if v == 0 {
        u32::MAX
    } else {
        31 - v.leading_zeros()
    }
}

#[inline]
pub fn umsb(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        31 - x.leading_zeros()
    }
}

#[inline]
pub fn lsb(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        x.trailing_zeros()
    }
}

pub fn run(inst: &Inst, io: &mut Io, res: &mut Res) -> Option<Shape> {
    Some(match inst.op {
        O::UADD => comp2(inst, io, res, lane::uadd),
        O::UMUL => comp2(inst, io, res, lane::umul),
        O::UMAD => comp3(inst, io, res, |a, b, c| a.wrapping_mul(b).wrapping_add(c)),
        O::IMUL_HI => comp2(inst, io, res, |a, b| ((i(a) as i64 * i(b) as i64) >> 32) as u32),
        O::UMUL_HI => comp2(inst, io, res, |a, b| ((a as u64 * b as u64) >> 32) as u32),
        O::IDIV => comp2(inst, io, res, |a, b| idiv(i(a), i(b)) as u32),
        O::UDIV => comp2(inst, io, res, |a, b| a.checked_div(b).unwrap_or(u32::MAX)),
        O::MOD => comp2(inst, io, res, |a, b| imod(i(a), i(b))),
        O::UMOD => comp2(inst, io, res, |a, b| if b == 0 { u32::MAX } else { a % b }),
        O::INEG => comp1(inst, io, res, |a| i(a).wrapping_neg() as u32),
        O::IABS => comp1(inst, io, res, |a| i(a).wrapping_abs() as u32),
        O::ISSG => comp1(inst, io, res, |a| i(a).signum() as u32),
        O::IMIN => comp2(inst, io, res, lane::imin),
        O::IMAX => comp2(inst, io, res, lane::imax),
        O::UMIN => comp2(inst, io, res, lane::umin),
        O::UMAX => comp2(inst, io, res, lane::umax),
        O::ISGE => icomp2(inst, io, res, lane::isge),
        O::ISLT => icomp2(inst, io, res, lane::islt),
        O::USEQ => icomp2(inst, io, res, lane::useq),
        O::USNE => icomp2(inst, io, res, lane::usne),
        O::USGE => comp2(inst, io, res, lane::usge),
        O::USLT => comp2(inst, io, res, lane::uslt),
        // Shift counts are masked to 5 bits (tgsi_exec, tgsi.rst).
        O::SHL => comp2(inst, io, res, shl),
        O::ISHR | O::SHR => comp2(inst, io, res, ishr),
        O::USHR => comp2(inst, io, res, ushr),
        O::AND => comp2(inst, io, res, lane::and),
        O::OR => comp2(inst, io, res, lane::or),
        O::XOR => comp2(inst, io, res, lane::xor),
        O::NOT => comp1(inst, io, res, lane::not),
        O::I2F => comp1(inst, io, res, lane::i2f),
        O::U2F => comp1(inst, io, res, lane::u2f),
        O::F2I => comp1(inst, io, res, |a| f2i(f32::from_bits(a)) as u32),
        O::F2U => comp1(inst, io, res, |a| f2u(f32::from_bits(a))),
        O::BFI => {
            let m = super::mask(inst);
            for c in 0..4 {
                if m >> c & 1 != 0 {
                    let (a, b, o, w) = (
                        io.src(inst, 0, c),
                        io.src(inst, 1, c),
                        io.src(inst, 2, c),
                        io.src(inst, 3, c),
                    );
                    for (q, out) in res[c].iter_mut().enumerate() {
                        for l in 0..4 {
                            let g =
                                |v: &[crate::exec::lanes::Lanes]| v.get(q).map_or(0, |x| x.0[l]);
                            out.0[l] = bfi(g(a), g(b), g(o), g(w));
                        }
                    }
                }
            }
            Shape::PerChannel
        }
        O::IBFE => comp3(inst, io, res, ibfe),
        O::UBFE => comp3(inst, io, res, ubfe),
        O::BREV => comp1(inst, io, res, u32::reverse_bits),
        O::POPC => comp1(inst, io, res, u32::count_ones),
        O::LSB => comp1(inst, io, res, lsb),
        O::IMSB => comp1(inst, io, res, imsb),
        O::UMSB => comp1(inst, io, res, umsb),
        // Address loads (tgsi_exec): ARL = (int)floor(x), ARR = (int)floor(x + 0.5), UARL moves.
        O::ARL => comp1(inst, io, res, |a| f2i(f32::from_bits(a).floor()) as u32),
        O::ARR => comp1(inst, io, res, |a| f2i((f32::from_bits(a) + 0.5).floor()) as u32),
        O::UARL => comp1(inst, io, res, |a| a),
        // Legacy ARA (2010 "Address Register Add", formula TBD there): dst + floor(src) per channel.
        O::ARA => {
            let m = super::mask(inst);
            let d = inst.dst[0];
            let as_src = crate::exec::program::Src {
                store: d.store,
                index: d.index,
                indirect: d.indirect,
                swizzle: [0, 1, 2, 3],
                ty: Some(crate::opcode::ValType::Int),
                ..Default::default()
            };
            for c in 0..4 {
                if m >> c & 1 != 0 {
                    let (cur, s) = (io.fetch(&as_src, c), io.src(inst, 0, c));
                    crate::exec::lanes::map2(res[c], cur, s, |a, b| {
                        a.wrapping_add(f2i(f32::from_bits(b).floor()) as u32)
                    });
                }
            }
            Shape::PerChannel
        }
        _ => return None,
    })
}
