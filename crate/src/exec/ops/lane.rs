//! The lane-wise formulas, each written once and used by both the general path (`float.rs`,
//! `int.rs`, on `wide` vectors of 4 lanes) and the fast kernels (`fast.rs`, on one lane at a
//! time in loops LLVM vectorizes). A formula is generic over [`Floats`] / [`Ints`], which
//! `f32`/`u32` (one lane) and `f32x4`/`i32x4` (a quad) implement, so the two paths cannot
//! disagree. Semantics: tgsi_exec.c's `micro_*` functions and tgsi.rst (non-fused MAD; glibc's
//! fminf/fmaxf for MIN/MAX; 1.0/0.0 for the SLT family, ~0/0 for FSLT and the integer
//! comparisons).

use std::ops::{Add, Div, Mul, Sub};
use wide::{f32x4, i32x4, CmpEq, CmpGe, CmpGt, CmpLe, CmpLt, CmpNe};

/// Float lanes: one `f32` or four in an `f32x4`.
pub trait Floats:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The result of a comparison, lane by lane.
    type Truth: Copy + std::ops::BitOr<Output = Self::Truth>;
    fn lt(self, o: Self) -> Self::Truth;
    fn le(self, o: Self) -> Self::Truth;
    fn gt(self, o: Self) -> Self::Truth;
    fn ge(self, o: Self) -> Self::Truth;
    fn eq(self, o: Self) -> Self::Truth;
    fn ne(self, o: Self) -> Self::Truth;
    /// `t ? a : b` per lane.
    fn select(t: Self::Truth, a: Self, b: Self) -> Self;
    /// 1.0 where `t`, else 0.0.
    fn one_if(t: Self::Truth) -> Self;
    /// All bits set where `t`, else 0 (as float lanes holding integer truth).
    fn ones_if(t: Self::Truth) -> Self;
}

impl Floats for f32 {
    type Truth = bool;
    #[inline(always)]
    fn lt(self, o: f32) -> bool {
        self < o
    }
    #[inline(always)]
    fn le(self, o: f32) -> bool {
        self <= o
    }
    #[inline(always)]
    fn gt(self, o: f32) -> bool {
        self > o
    }
    #[inline(always)]
    fn ge(self, o: f32) -> bool {
        self >= o
    }
    #[inline(always)]
    fn eq(self, o: f32) -> bool {
        self == o
    }
    #[inline(always)]
    fn ne(self, o: f32) -> bool {
        self != o
    }
    #[inline(always)]
    fn select(t: bool, a: f32, b: f32) -> f32 {
        if t {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn one_if(t: bool) -> f32 {
        f32::from_bits(if t { 0x3f80_0000 } else { 0 })
    }
    #[inline(always)]
    fn ones_if(t: bool) -> f32 {
        f32::from_bits(truth(t))
    }
}

impl Floats for f32x4 {
    type Truth = f32x4;
    #[inline(always)]
    fn lt(self, o: f32x4) -> f32x4 {
        self.cmp_lt(o)
    }
    #[inline(always)]
    fn le(self, o: f32x4) -> f32x4 {
        self.cmp_le(o)
    }
    #[inline(always)]
    fn gt(self, o: f32x4) -> f32x4 {
        self.cmp_gt(o)
    }
    #[inline(always)]
    fn ge(self, o: f32x4) -> f32x4 {
        self.cmp_ge(o)
    }
    #[inline(always)]
    fn eq(self, o: f32x4) -> f32x4 {
        self.cmp_eq(o)
    }
    #[inline(always)]
    fn ne(self, o: f32x4) -> f32x4 {
        self.cmp_ne(o)
    }
    #[inline(always)]
    fn select(t: f32x4, a: f32x4, b: f32x4) -> f32x4 {
        t.blend(a, b)
    }
    #[inline(always)]
    fn one_if(t: f32x4) -> f32x4 {
        t & f32x4::splat(1.0)
    }
    #[inline(always)]
    fn ones_if(t: f32x4) -> f32x4 {
        t
    }
}

/// TGSI integer truth of one lane: ~0 or 0.
#[inline(always)]
pub fn truth(b: bool) -> u32 {
    0u32.wrapping_sub(b as u32)
}

// ---- float formulas --------------------------------------------------------------------------

#[inline(always)]
pub fn add<T: Floats>(a: T, b: T) -> T {
    a + b
}
#[inline(always)]
pub fn sub<T: Floats>(a: T, b: T) -> T {
    a - b
}
#[inline(always)]
pub fn mul<T: Floats>(a: T, b: T) -> T {
    a * b
}
#[inline(always)]
pub fn div<T: Floats>(a: T, b: T) -> T {
    a / b
}
/// Not fused: the product and the sum are each rounded, as tgsi_exec.
#[inline(always)]
pub fn mad<T: Floats>(a: T, b: T, c: T) -> T {
    a * b + c
}
/// One term of a dot product: `a·b + acc`, product and sum each rounded (tgsi_exec's MAD).
#[inline(always)]
pub fn dot_step<T: Floats>(acc: T, a: T, b: T) -> T {
    a * b + acc
}
/// Flush to zero of a denormal result (x86 FTZ): a zero of the same sign.
#[inline(always)]
pub fn ftz(x: f32) -> f32 {
    f32::from_bits(crate::exec::program::flush_denormal(x.to_bits()))
}
/// A product under x86 FTZ, which detects tininess before rounding: a product whose exact
/// value lies below the smallest normal (2^-126) becomes ±0 even when it rounds up to
/// 2^-126. Measured with softpipe's vertex stage (`tests/denormal-cases/vs_arith`). The f64
/// product of two binary32 values is exact.
#[inline]
pub fn mul_ftz(a: f32, b: f32) -> f32 {
    let r = a * b;
    if r.to_bits() & 0x7fff_ffff == 0x0080_0000
        && (a as f64 * b as f64).abs() < f64::from(f32::MIN_POSITIVE)
    {
        return f32::from_bits(r.to_bits() & 0x8000_0000);
    }
    ftz(r)
}
/// [`mad`] under FTZ: the product is flushed before the sum, then the sum.
#[inline]
pub fn mad_ftz(a: f32, b: f32, c: f32) -> f32 {
    ftz(mul_ftz(a, b) + c)
}
/// MIN as the draw stages' JIT code computes it (vertex, geometry, tessellation; measured in
/// `tests/denormal-cases/vs_compare`): a NaN operand gives the other one, and equal operands
/// (−0 and +0) give the first — glibc's fminf gives the second.
#[inline]
pub fn min_draw(a: f32, b: f32) -> f32 {
    if a.is_nan() || b < a {
        b
    } else {
        a
    }
}
/// MAX in the draw stages, as [`min_draw`].
#[inline]
pub fn max_draw(a: f32, b: f32) -> f32 {
    if a.is_nan() || b > a {
        b
    } else {
        a
    }
}
/// glibc's fminf: `a < b ? a : b`, a NaN operand gives the other one.
#[inline(always)]
pub fn min<T: Floats>(a: T, b: T) -> T {
    T::select(a.lt(b) | b.ne(b), a, b)
}
/// glibc's fmaxf: `a > b ? a : b`, a NaN operand gives the other one.
#[inline(always)]
pub fn max<T: Floats>(a: T, b: T) -> T {
    T::select(a.gt(b) | b.ne(b), a, b)
}
#[inline(always)]
pub fn slt<T: Floats>(a: T, b: T) -> T {
    T::one_if(a.lt(b))
}
#[inline(always)]
pub fn sge<T: Floats>(a: T, b: T) -> T {
    T::one_if(a.ge(b))
}
#[inline(always)]
pub fn seq<T: Floats>(a: T, b: T) -> T {
    T::one_if(a.eq(b))
}
#[inline(always)]
pub fn sne<T: Floats>(a: T, b: T) -> T {
    T::one_if(a.ne(b))
}
#[inline(always)]
pub fn sgt<T: Floats>(a: T, b: T) -> T {
    T::one_if(a.gt(b))
}
#[inline(always)]
pub fn sle<T: Floats>(a: T, b: T) -> T {
    T::one_if(a.le(b))
}
#[inline(always)]
pub fn fslt<T: Floats>(a: T, b: T) -> T {
    T::ones_if(a.lt(b))
}
#[inline(always)]
pub fn fsge<T: Floats>(a: T, b: T) -> T {
    T::ones_if(a.ge(b))
}
#[inline(always)]
pub fn fseq<T: Floats>(a: T, b: T) -> T {
    T::ones_if(a.eq(b))
}
#[inline(always)]
pub fn fsne<T: Floats>(a: T, b: T) -> T {
    T::ones_if(a.ne(b))
}

// ---- integer formulas ------------------------------------------------------------------------

/// Integer lanes: one `u32` or four in an `i32x4` (bits; signed or unsigned per formula).
pub trait Ints: Copy {
    /// Signed `a >= b`, `a < b`; bitwise `a == b`, as integer truth (~0 / 0).
    fn ige(self, o: Self) -> Self;
    fn ilt(self, o: Self) -> Self;
    fn ieq(self, o: Self) -> Self;
    fn not(self) -> Self;
}

impl Ints for u32 {
    #[inline(always)]
    fn ige(self, o: u32) -> u32 {
        truth(self as i32 >= o as i32)
    }
    #[inline(always)]
    fn ilt(self, o: u32) -> u32 {
        truth((self as i32) < o as i32)
    }
    #[inline(always)]
    fn ieq(self, o: u32) -> u32 {
        truth(self == o)
    }
    #[inline(always)]
    fn not(self) -> u32 {
        !self
    }
}

impl Ints for i32x4 {
    #[inline(always)]
    fn ige(self, o: i32x4) -> i32x4 {
        !self.cmp_lt(o)
    }
    #[inline(always)]
    fn ilt(self, o: i32x4) -> i32x4 {
        self.cmp_lt(o)
    }
    #[inline(always)]
    fn ieq(self, o: i32x4) -> i32x4 {
        self.cmp_eq(o)
    }
    #[inline(always)]
    fn not(self) -> i32x4 {
        !self
    }
}

#[inline(always)]
pub fn isge<T: Ints>(a: T, b: T) -> T {
    a.ige(b)
}
#[inline(always)]
pub fn islt<T: Ints>(a: T, b: T) -> T {
    a.ilt(b)
}
#[inline(always)]
pub fn useq<T: Ints>(a: T, b: T) -> T {
    a.ieq(b)
}
#[inline(always)]
pub fn usne<T: Ints>(a: T, b: T) -> T {
    a.ieq(b).not()
}
#[inline(always)]
pub fn usge(a: u32, b: u32) -> u32 {
    truth(a >= b)
}
#[inline(always)]
pub fn uslt(a: u32, b: u32) -> u32 {
    truth(a < b)
}
#[inline(always)]
pub fn uadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}
#[inline(always)]
pub fn umul(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}
#[inline(always)]
pub fn imin(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}
#[inline(always)]
pub fn imax(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}
#[inline(always)]
pub fn umin(a: u32, b: u32) -> u32 {
    a.min(b)
}
#[inline(always)]
pub fn umax(a: u32, b: u32) -> u32 {
    a.max(b)
}
#[inline(always)]
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}
#[inline(always)]
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}
#[inline(always)]
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}
#[inline(always)]
pub fn not(a: u32) -> u32 {
    !a
}
/// Signed integer to float, rounded to nearest even.
#[inline(always)]
pub fn i2f(a: u32) -> u32 {
    (a as i32 as f32).to_bits()
}
/// Unsigned integer to float, rounded to nearest even.
#[inline(always)]
pub fn u2f(a: u32) -> u32 {
    (a as f32).to_bits()
}
