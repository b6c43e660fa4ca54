//! LG2, EX2 and POW as softpipe computes them. tgsi_exec calls the C library: LG2 is
//! `logf(x) · 1.442695f`, EX2 `powf(2, x)`, POW `powf(x, y)` (tgsi_exec.c `micro_lg2`,
//! `micro_exp2`, `micro_pow`), on Mesa's platform glibc's. This module computes what glibc's `logf`
//! and `powf` compute, for every argument, so that both hosts of the engine give softpipe's bits
//! (the wasm build's own libm is another algorithm, a last bit apart for about one result in
//! twenty).
//!
//! The method (glibc's, from Arm's optimized routines), all in double precision:
//! - `ln x`: `x = 2^k · z` with `z` in [0.7, 1.4); the top four bits of `z`'s significand pick a
//!   table entry `c` near `z` (its `1/c` and `ln c`); with `r = z·(1/c) − 1`,
//!   `ln x = k·ln 2 + ln c + log1p(r)`, `log1p(r)` a degree-4 polynomial.
//! - `x^y = 2^(y·log2 x)`: `log2 x` the same way with a degree-5 polynomial (and a `log2 c`
//!   table), then `2^t = 2^(j/32) · 2^u` with `j` the nearest multiple of 1/32 (by adding
//!   1.5·2^47) and `2^u` a degree-3 polynomial; `2^(j/32)` from a 32-entry table whose
//!   exponent field gets `j`'s integer part.
//! - glibc's x86-64 build picks a variant with fused multiply-adds on processors that have
//!   them (the oracle's and any current one), where every `a·b + c` of the formula is rounded
//!   once. [`madd`] does the same where the build has fused multiply-adds; elsewhere (wasm has
//!   none) each product is rounded on its own: the double-precision results then differ in
//!   their last bits, but not once the `f32` result is rounded from them — both ways checked
//!   for every `f32` argument of `ln` and `2^x` and 200 million `x^y` pairs (the tests below).
//! - Special cases as glibc: `ln` of 0 is −∞, of a negative number or NaN a NaN, subnormals
//!   are normalised first; `pow` follows C's rules for zeros, infinities, NaNs and negative
//!   bases with integer exponents, with overflow to ±∞ and underflow to ±0.

/// `1/c` for the 16 subintervals of [0.7, 1.4) (shared by `ln` and `log2`).
const INV_C: [u64; 16] = [
    0x3ff661ec79f8f3be,
    0x3ff571ed4aaf883d,
    0x3ff49539f0f010b0,
    0x3ff3c995b0b80385,
    0x3ff30d190c8864a5,
    0x3ff25e227b0b8ea0,
    0x3ff1bb4a4a1a343f,
    0x3ff12358f08ae5ba,
    0x3ff0953f419900a7,
    0x3ff0000000000000,
    0x3fee608cfd9a47ac,
    0x3feca4b31f026aa0,
    0x3feb2036576afce6,
    0x3fe9c2d163a1aa2d,
    0x3fe886e6037841ed,
    0x3fe767dcf5534862,
];

/// `ln c` for each entry of [`INV_C`].
const LN_C: [u64; 16] = [
    0xbfd57bf7808caade,
    0xbfd2bef0a7c06ddb,
    0xbfd01eae7f513a67,
    0xbfcb31d8a68224e9,
    0xbfc6574f0ac07758,
    0xbfc1aa2bc79c8100,
    0xbfba4e76ce8c0e5e,
    0xbfb1973c5a611ccc,
    0xbfa252f438e10c1e,
    0x0000000000000000,
    0x3faaa5aa5df25984,
    0x3fbc5e53aa362eb4,
    0x3fc526e57720db08,
    0x3fcbc2860d224770,
    0x3fd1058bc8a07ee1,
    0x3fd4043057b6ee09,
];

/// `log2 c` for each entry of [`INV_C`].
const LOG2_C: [u64; 16] = [
    0xbfdefec65b963019,
    0xbfdb0b6832d4fca4,
    0xbfd7418b0a1fb77b,
    0xbfd39de91a6dcf7b,
    0xbfd01d9bf3f2b631,
    0xbfc97c1d1b3b7af0,
    0xbfc2f9e393af3c9f,
    0xbfb960cbbf788d5c,
    0xbfaa6f9db6475fce,
    0x0000000000000000,
    0x3fb338ca9f24f53d,
    0x3fc476a9543891ba,
    0x3fce840b4ac4e4d2,
    0x3fd40645f0c6651c,
    0x3fd88e9c2c1b9ff8,
    0x3fdce0a44eb17bcc,
];

/// `log1p(r) ≈ r + A0·r⁴ + A1·r³ + A2·r²` (glibc's `logf` coefficients, highest first).
const LN_POLY: [u64; 3] = [0xbfd00ea348b88334, 0x3fd5575b0be00b6a, 0xbfdffffef20a4123];

/// `log1p(r)/ln 2 ≈ B0·r⁵ + … + B4·r` (glibc's `powf` coefficients, highest first).
const LOG2_POLY: [u64; 5] = [
    0x3fd27616c9496e0b,
    0xbfd71969a075c67a,
    0x3fdec70a6ca7badd,
    0xbfe7154748bef6c8,
    0x3ff71547652ab82b,
];

/// `2^u ≈ 1 + C2·u + C1·u² + C0·u³` for |u| ≤ 1/64 (glibc's coefficients).
const EXP2_POLY: [u64; 3] = [0x3fac6af84b912394, 0x3fcebfce50fac4f3, 0x3fe62e42ff0c52d6];

/// Entry `i`: the bits of 2^(i/32) rounded to double, minus `i << 47`, so that adding
/// `j << 47` for `j ≡ i (mod 32)` gives 2^(j/32) (the integer part lands in the exponent).
const EXP2_TABLE: [u64; 32] = [
    0x3ff0000000000000,
    0x3fefd9b0d3158574,
    0x3fefb5586cf9890f,
    0x3fef9301d0125b51,
    0x3fef72b83c7d517b,
    0x3fef54873168b9aa,
    0x3fef387a6e756238,
    0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715,
    0x3feef1a7373aa9cb,
    0x3feedea64c123422,
    0x3feece086061892d,
    0x3feebfdad5362a27,
    0x3feeb42b569d4f82,
    0x3feeab07dd485429,
    0x3feea47eb03a5585,
    0x3feea09e667f3bcd,
    0x3fee9f75e8ec5f74,
    0x3feea11473eb0187,
    0x3feea589994cce13,
    0x3feeace5422aa0db,
    0x3feeb737b0cdc5e5,
    0x3feec49182a3f090,
    0x3feed503b23e255d,
    0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47,
    0x3fef199bdd85529c,
    0x3fef3720dcef9069,
    0x3fef5818dcfba487,
    0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da,
    0x3fefd0765b6e4540,
];

/// Adding it rounds to a multiple of 1/32 (its unit in the last place), the multiple's
/// numerator in the low bits.
const EXP2_SHIFT: f64 = 1.5 * (1u64 << 47) as f64;
/// `y·log2 x` above this (just under 128) overflows `f32`.
const OVERFLOW_BOUND: u64 = 0x405fffffffd1d571;
/// Added to the table index's bits it sets the result's sign (bit 63 after the shift by 47).
const NEGATIVE: u64 = 1 << 16;
/// The start of the first of the 16 subintervals, as `f32` bits (about 0.7).
const OFFSET: u32 = 0x3f33_0000;

#[inline(always)]
fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// `a·b + c`: rounded once where the processor has fused multiply-adds and the build uses them
/// (natively, tuned for the building CPU), as glibc's fused variant does; else each product
/// rounded on its own. Both give glibc's `f32` results (module comment, tests).
#[inline(always)]
fn madd(a: f64, b: f64, c: f64) -> f64 {
    if cfg!(target_feature = "fma") {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// The result of an invalid operation: glibc's `(x − x) / (x − x)` (the default NaN for a
/// number, a NaN argument's own, quieted).
#[allow(clippy::eq_op)]
fn invalid(x: f32) -> f32 {
    (x - x) / (x - x)
}

/// `x = 2^k · z`: the table index, `k` and `z` for the bits `ix` of a positive normal number
/// (or, in `pow`, a normalised subnormal whose exponent field went below zero).
#[inline(always)]
fn split(ix: u32) -> (usize, i32, f64) {
    let tmp = ix.wrapping_sub(OFFSET);
    let i = ((tmp >> 19) % 16) as usize;
    let top = tmp & 0xff80_0000;
    let z = f32::from_bits(ix.wrapping_sub(top)) as f64;
    (i, (top as i32) >> 23, z)
}

/// The bits of a positive subnormal's value times 2^23, with the exponent field lowered by 23
/// again (it wraps below zero; [`split`] reads it as a negative `k`).
#[inline(always)]
fn normalised(x: f32) -> u32 {
    ((x * 8_388_608.0).to_bits() & 0x7fff_ffff).wrapping_sub(23 << 23)
}

/// What [`normalised`] gives with the x86 DAZ bit set (the stages that flush denormals,
/// `exec::program::Denormals`): the product `x·2^23` reads `x` as zero, so every subnormal
/// normalises to the same bits, which [`split`] reads as 2^-150. Measured with the softpipe
/// oracle: LG2 of any subnormal gives −150 in the vertex stage and in a fragment shader run
/// inside the draw call (`tests/denormal-cases/vs_transcendental`, `fsq_transcendental`), and
/// POW(2^-127, 0.5) gives 2^-75 there (`fsq_pow_trig`).
const NORMALISED_UNDER_DAZ: u32 = 0u32.wrapping_sub(23 << 23);

/// glibc's `logf`.
pub fn ln(x: f32) -> f32 {
    ln_with(x, false)
}

/// glibc's `logf` with the DAZ bit set ([`NORMALISED_UNDER_DAZ`]).
pub fn ln_daz(x: f32) -> f32 {
    ln_with(x, true)
}

/// One body for both (the flag is read only on the subnormal path).
fn ln_with(x: f32, daz: bool) -> f32 {
    let mut ix = x.to_bits();
    if ix == 0x3f80_0000 {
        return 0.0;
    }
    if ix.wrapping_sub(0x0080_0000) >= 0x7f80_0000 - 0x0080_0000 {
        // Zero, subnormal, negative, infinite or NaN.
        if ix << 1 == 0 {
            return f32::NEG_INFINITY;
        }
        if ix == 0x7f80_0000 {
            return x;
        }
        if ix & 0x8000_0000 != 0 || ix << 1 >= 0xff00_0000 {
            return invalid(x);
        }
        ix = if daz { NORMALISED_UNDER_DAZ } else { normalised(x) };
    }
    let (i, k, z) = split(ix);
    let r = madd(z, d(INV_C[i]), -1.0);
    let y0 = madd(k as f64, std::f64::consts::LN_2, d(LN_C[i]));
    let r2 = r * r;
    let y = madd(d(LN_POLY[1]), r, d(LN_POLY[2]));
    let y = madd(d(LN_POLY[0]), r2, y);
    madd(y, r2, y0 + r) as f32
}

/// `log2` of the positive number with bits `ix` (normalised by [`normalised`] if it was
/// subnormal), in double precision: `pow`'s first half.
#[inline(always)]
fn log2_wide(ix: u32) -> f64 {
    let (i, k, z) = split(ix);
    let r = madd(z, d(INV_C[i]), -1.0);
    let y0 = d(LOG2_C[i]) + k as f64;
    let r2 = r * r;
    let y = madd(d(LOG2_POLY[0]), r, d(LOG2_POLY[1]));
    let p = madd(d(LOG2_POLY[2]), r, d(LOG2_POLY[3]));
    let r4 = r2 * r2;
    let q = madd(d(LOG2_POLY[4]), r, y0);
    let q = madd(p, r2, q);
    madd(y, r4, q)
}

/// `2^t` for |t| < 150 (`pow`'s second half), negated when `sign` is [`NEGATIVE`].
#[inline(always)]
fn exp2_wide(t: f64, sign: u64) -> f64 {
    let shifted = t + EXP2_SHIFT;
    let j = shifted.to_bits();
    let u = t - (shifted - EXP2_SHIFT);
    let scale = EXP2_TABLE[(j % 32) as usize].wrapping_add(j.wrapping_add(sign) << 47);
    let z = madd(d(EXP2_POLY[0]), u, d(EXP2_POLY[1]));
    let y = madd(d(EXP2_POLY[2]), u, 1.0);
    madd(z, u * u, y) * f64::from_bits(scale)
}

/// 0 when the finite, non-zero `f32` with bits `iy` is not an integer, 1 when it is an odd
/// one, 2 when an even one.
fn integer_kind(iy: u32) -> u8 {
    let e = (iy >> 23 & 0xff) as i32;
    if e < 0x7f {
        return 0;
    }
    if e > 0x7f + 23 {
        return 2;
    }
    let unit = 1u32 << (0x7f + 23 - e);
    if iy & (unit - 1) != 0 {
        0
    } else if iy & unit != 0 {
        1
    } else {
        2
    }
}

/// Zero, infinite or NaN.
fn zero_inf_nan(i: u32) -> bool {
    (i << 1).wrapping_sub(1) >= 0xff00_0000 - 1
}

fn signaling(x: f32) -> bool {
    (x.to_bits() ^ 0x0040_0000) << 1 > 0x7fc0_0000 << 1
}

/// ±∞ (overflow) or ±0 (underflow) through glibc's own products, sign from `sign`.
fn overflow_or_underflow(sign: u64, tiny: f32) -> f32 {
    let t = if sign != 0 { -tiny } else { tiny };
    std::hint::black_box(t) * tiny
}

/// glibc's `powf`.
pub fn pow(x: f32, y: f32) -> f32 {
    pow_with(x, y, false)
}

/// glibc's `powf` with the DAZ bit set: a subnormal `x` normalises as
/// [`NORMALISED_UNDER_DAZ`], and `y`, whose bits the special cases read, is zero once widened
/// to `f64`. The caller flushes a subnormal result.
pub fn pow_daz(x: f32, y: f32) -> f32 {
    pow_with(x, y, true)
}

/// One body for both, as [`ln_with`].
fn pow_with(x: f32, y: f32, daz: bool) -> f32 {
    let mut sign = 0u64;
    let mut ix = x.to_bits();
    let iy = y.to_bits();
    if ix.wrapping_sub(0x0080_0000) >= 0x7f80_0000 - 0x0080_0000 || zero_inf_nan(iy) {
        if zero_inf_nan(iy) {
            if iy << 1 == 0 {
                return if signaling(x) { x + y } else { 1.0 };
            }
            if ix == 0x3f80_0000 {
                return if signaling(y) { x + y } else { 1.0 };
            }
            if ix << 1 > 0xff00_0000 || iy << 1 > 0xff00_0000 {
                return x + y;
            }
            if ix << 1 == 0x7f00_0000 {
                return 1.0;
            }
            if (ix << 1 < 0x7f00_0000) == (iy & 0x8000_0000 == 0) {
                return 0.0;
            }
            return y * y;
        }
        if zero_inf_nan(ix) {
            let mut x2 = x * x;
            if ix & 0x8000_0000 != 0 && integer_kind(iy) == 1 {
                x2 = -x2;
            }
            return if iy & 0x8000_0000 != 0 { 1.0 / x2 } else { x2 };
        }
        // Finite and non-zero, subnormal or negative.
        if ix & 0x8000_0000 != 0 {
            match integer_kind(iy) {
                0 => return invalid(x),
                1 => sign = NEGATIVE,
                _ => {}
            }
            ix &= 0x7fff_ffff;
        }
        if ix < 0x0080_0000 {
            ix = if daz { NORMALISED_UNDER_DAZ } else { normalised(x) };
        }
    }
    let y = if daz { f32::from_bits(crate::exec::program::flush_denormal(y.to_bits())) } else { y };
    let t = y as f64 * log2_wide(ix);
    if (t.to_bits() >> 47 & 0xffff) >= 126f64.to_bits() >> 47 {
        // |y·log2 x| ≥ 126.
        if t > d(OVERFLOW_BOUND) {
            return overflow_or_underflow(sign, f32::from_bits(0x7000_0000)); // 2^97
        }
        if t <= -150.0 {
            return overflow_or_underflow(sign, f32::from_bits(0x1000_0000)); // 2^-95
        }
        if t < -149.0 {
            return overflow_or_underflow(sign, f32::from_bits(0x1a20_0000)); // 1.25·2^-75
        }
    }
    exp2_wide(t, sign) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the host's `logf`/`powf` are glibc's fused variant (Mesa's platform on a current
    /// x86-64 processor), which this module reproduces.
    fn host_is_glibc_fma() -> bool {
        #[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
        return is_x86_feature_detected!("fma") && is_x86_feature_detected!("avx2");
        #[allow(unreachable_code)]
        false
    }

    /// Bit patterns spread over every binade of both signs, with the special values.
    fn spread(step: u32) -> impl Iterator<Item = f32> {
        let specials = [0, 1, 0x007f_ffff, 0x0080_0000, 0x3f80_0000, 0x7f7f_ffff, 0x7f80_0000];
        let specials = specials.into_iter().chain([0x7fc0_0000, 0x7f80_0001, 0x7fa0_0000]);
        let both = specials.flat_map(|b| [b, b | 0x8000_0000]);
        both.chain((0..=u32::MAX / step).map(move |k| k.wrapping_mul(step))).map(f32::from_bits)
    }

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// On glibc's fused variant, `ln` and `pow` give the host's `logf` and `powf` bits for
    /// every argument tried (NaNs: both NaN). Elsewhere, within one ulp of them.
    #[test]
    fn glibcs_results() {
        let glibc = host_is_glibc_fma();
        let close = |a: f32, b: f32| {
            same(a, b) || (!glibc && (a.to_bits() as i64 - b.to_bits() as i64).abs() <= 1)
        };
        for x in spread(1999) {
            assert!(close(ln(x), x.ln()), "ln {x:e} ({:#x})", x.to_bits());
            assert!(close(pow(2.0, x), 2f32.powf(x)), "2^{x:e} ({:#x})", x.to_bits());
        }
        let bases: Vec<f32> = spread(2_900_017).collect();
        let exponents: Vec<f32> =
            spread(3_100_019).chain([0.5, 2.0, 3.0, -1.0, -2.0, 2.4]).collect();
        for &x in &bases {
            for &y in &exponents {
                assert!(
                    close(pow(x, y), x.powf(y)),
                    "{x:e}^{y:e} ({:#x}, {:#x})",
                    x.to_bits(),
                    y.to_bits()
                );
            }
        }
    }

    /// Every `f32` through `ln` and `2^x`, on glibc's fused variant (a release build:
    /// `cargo test --release --lib -- --ignored every_argument_gives_glibcs`).
    #[test]
    #[ignore]
    fn every_argument_gives_glibcs_bits() {
        if !host_is_glibc_fma() {
            return;
        }
        let mut differ = (0u64, 0u64);
        for b in 0..=u32::MAX {
            let x = f32::from_bits(b);
            differ.0 += u64::from(!same(ln(x), x.ln()));
            differ.1 += u64::from(!same(pow(2.0, x), 2f32.powf(x)));
        }
        assert_eq!(differ, (0, 0), "ln, 2^x");
    }

    #[test]
    #[ignore]
    fn random_pow_pairs() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut differ = 0u64;
        for _ in 0..200_000_000u64 {
            let v = next();
            let x = f32::from_bits((v as u32) & 0x7fff_ffff);
            // Exponents of moderate size, where results are neither 0 nor infinite.
            let y = f32::from_bits(
                ((v >> 32) as u32 & 0x807f_ffff) | (((v >> 55) as u32 % 12 + 120) << 23),
            );
            if !same(pow(x, y), x.powf(y)) {
                differ += 1;
            }
        }
        assert_eq!(differ, 0);
    }

    /// Entry i of the table and i << 47 give 2^(i/32) (within the host's `exp2` error: the
    /// entries are the correctly rounded values).
    #[test]
    fn the_exp2_table() {
        for (i, &t) in EXP2_TABLE.iter().enumerate() {
            let v = f64::from_bits(t + ((i as u64) << 47));
            let exact = (i as f64 / 32.0).exp2();
            assert!((v.to_bits() as i64 - exact.to_bits() as i64).abs() <= 1, "entry {i}");
            assert!((1.0..2.0).contains(&v));
        }
    }

    /// Hand-checked values: exact powers, C's special cases, the sign of odd powers of
    /// negative bases, overflow and underflow.
    #[test]
    fn special_arguments() {
        let nan = f32::NAN;
        let cases: &[(f32, f32, f32)] = &[
            (2.0, 10.0, 1024.0),
            (2.0, -1.0, 0.5),
            (4.0, 0.5, 2.0),
            (-2.0, 3.0, -8.0),
            (-2.0, 2.0, 4.0),
            (-0.0, 3.0, -0.0),
            (-0.0, -3.0, f32::NEG_INFINITY),
            (0.0, -2.0, f32::INFINITY),
            (1.0, nan, 1.0),
            (nan, 0.0, 1.0),
            (0.5, f32::INFINITY, 0.0),
            (0.5, f32::NEG_INFINITY, f32::INFINITY),
            (-1.0, f32::INFINITY, 1.0),
            (2.0, 128.0, f32::INFINITY),
            (-2.0, 129.0, f32::NEG_INFINITY),
            (2.0, -150.0, 0.0),
            (2.0, -149.0, f32::from_bits(1)),
            (-2.0, -151.0, -0.0),
        ];
        for &(x, y, want) in cases {
            assert_eq!(pow(x, y).to_bits(), want.to_bits(), "{x}^{y}");
        }
        assert!(pow(-2.0, 0.5).is_nan() && pow(nan, 1.0).is_nan() && pow(2.0, nan).is_nan());
        assert_eq!(ln(1.0).to_bits(), 0);
        assert_eq!(ln(0.0), f32::NEG_INFINITY);
        assert_eq!(ln(-0.0), f32::NEG_INFINITY);
        assert_eq!(ln(f32::INFINITY), f32::INFINITY);
        assert!(ln(-1.0).is_nan() && ln(nan).is_nan() && ln(f32::NEG_INFINITY).is_nan());
        // ln 2^-149 = -149·ln 2 = -103.27893…
        assert_eq!(ln(f32::from_bits(1)), -103.278_93);
    }

    #[test]
    fn constants() {
        assert_eq!(EXP2_SHIFT.to_bits(), 0x42e8_0000_0000_0000);
        assert_eq!(std::f64::consts::LN_2.to_bits(), 0x3fe6_2e42_fefa_39ef);
    }
}
