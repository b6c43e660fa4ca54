//! SIN and COS (`tgsi.rst` "SIN", "COS": `dst = sin(src.x)`, replicated). tgsi_exec calls
//! `sinf`/`cosf` (tgsi_exec.c `micro_sin`, `micro_cos`), on Mesa's platform glibc's. For every
//! finite argument this module computes what glibc's `sinf` and `cosf` compute: below 120 in
//! magnitude their fast path (one multiply-subtract range reduction and a polynomial in double
//! precision, with glibc's constants), from 120 on their large-argument path (the argument's
//! significand times 192 bits of 2/π in integer arithmetic, then the same polynomials); for
//! infinities and NaN, glibc's NaN. No libm is called.
//!
//! The fast path is written once, in [`reduce`] and [`from_reduced`], over [`Arith64`]: the
//! interpreter runs it on one `f64` per lane ([`Scalar`]); the compiling tier emits the same
//! operations on `f64x2` pairs of lanes (`jit/codegen/trig.rs`), and calls [`sin`] or [`cos`]
//! through its import for a quad with an argument of 120 or more. The large-argument reduction
//! is the interpreter's alone; its result goes through the same [`from_reduced`]. Both give the
//! same bits because every step is one IEEE double operation (never fused) or a bit operation,
//! with nothing left to a library. On
//! either host, then, the interpreter's SIN is glibc's (the engine's wasm build used to take
//! Rust's libm, a different algorithm: last bits apart from softpipe, which hash-like shaders
//! such as `fract(sin(x)·43758.5)` turn into visibly different pixels).
//!
//! The steps, for `x` (the `f32` argument, exactly as a double):
//! - the quadrant `n = ⌊(trunc(x · 2^24·2/π) + 2^23) / 2^24⌋` (glibc's scaled conversion, which
//!   rounds to nearest) and the reduced argument `r = x − n·π/2`, `|r| ≤ π/4`, rounded once
//!   (π/2 being the double nearest to it);
//! - `sin x = [S(r), C(r), −S(r), −C(r)][n mod 4]`, and `cos x` takes the entry `n + 1`;
//!   `S(r) = r + r³·s1 + r⁷·(s2 + r²·s3)` and `C(r) = c0 + r²·c1 + r⁴·c2 + r⁶·(c3 + r²·c4)`,
//!   each product and sum rounded, in that order;
//! - `sin ±0 = ±0` (glibc returns `x` for sine and 1 for cosine below 2^-12 in magnitude; the
//!   polynomials round to the same there, but for the sign of −0).
//!
//! glibc's x86-64 build picks a variant with fused multiply-adds on processors that have them;
//! there the reduction is one fused operation, which the formula reproduces exactly (splitting
//! π/2 so that both of its products are exact). The polynomials' products and sums are fused
//! there too, which changes the double result in its last bits; over every finite `f32`
//! (4 278 190 080 arguments, sine and cosine, on such a machine) no result rounds to another
//! `f32` for it: this module gives glibc's bits for all of them. The tests compare a sample
//! with the host's `sinf`.

/// Arguments below this magnitude use [`reduce`] (and the compiled module's SIMD form of it);
/// finite ones from here on the large-argument reduction.
pub const REDUCED_BELOW: f32 = 120.0;

/// 2/π·2^24 rounded to double.
const TWO_OVER_PI_2P24: f64 = f64::from_bits(0x4164_5f30_6dc9_c883);
/// π/2 rounded to double, split in a head with 46 significant bits and the 7-bit rest: for
/// the quadrants of `|x| < 120` (`|n| < 128`) both products with `n` are exact.
const HALF_PI_HEAD: f64 = f64::from_bits(0x3ff9_21fb_5444_2d00);
const HALF_PI_TAIL: f64 = f64::from_bits(0x3cf8_0000_0000_0000);
/// 1.5·2^52: adding it to an integer-valued `|y| < 2^51` leaves `y` in the low mantissa bits,
/// two's complement modulo 2^52 (so the low two bits are `y mod 4`).
const INT_BITS: f64 = 6755399441055744.0;

/// glibc's polynomial coefficients (`__sincosf_table`): s1, s2, s3 and c0, …, c4.
const S: [f64; 3] = [
    f64::from_bits(0xbfc5_5554_5995_a603),
    f64::from_bits(0x3f81_1076_0523_0bc4),
    f64::from_bits(0xbf29_94eb_3774_cf24),
];
const C: [f64; 5] = [
    1.0,
    f64::from_bits(0xbfdf_ffff_fd0c_621c),
    f64::from_bits(0x3fa5_5553_e106_8f19),
    f64::from_bits(0xbf56_c087_e89a_359d),
    f64::from_bits(0x3ef9_9343_027b_f8c3),
];

/// 2/π in binary: its first 192 bits after the point (hexadecimal 0.a2f9836e4e44…).
const TWO_OVER_PI_BITS: [u8; 24] = [
    0xa2, 0xf9, 0x83, 0x6e, 0x4e, 0x44, 0x15, 0x29, 0xfc, 0x27, 0x57, 0xd1, 0xf5, 0x34, 0xdd, 0xc0,
    0xdb, 0x62, 0x95, 0x99, 0x3c, 0x43, 0x90, 0x41,
];
/// glibc's table for reducing large arguments: entry `k` is the 32 bits of 2/π that end at bit
/// `8·(k + 1)` after the point (the first three entries have fewer).
const TWO_OVER_PI_WINDOWS: [u32; 24] = {
    let mut t = [0u32; 24];
    let mut k: usize = 0;
    while k < 24 {
        let mut b = k.saturating_sub(3);
        while b <= k {
            t[k] = t[k] << 8 | TWO_OVER_PI_BITS[b] as u32;
            b += 1;
        }
        k += 1;
    }
    t
};
/// 2π·2^-64: one unit of the reduction's 2.62 fixed-point fraction of a turn, in radians.
const PI63: f64 = f64::from_bits(0x3c19_21fb_5444_2d18);

/// glibc's reduction of a finite `|x| ≥ 120` (its `reduce_large`): the product of the
/// argument's 24-bit significand with the bits of 2/π around its exponent gives `|x|·2/π`
/// modulo 4 exactly in 2.62 fixed point; the nearest quadrant `n` and the rest as radians.
fn reduce_large(x: f32) -> (f64, u32) {
    let xi = x.to_bits();
    let window = &TWO_OVER_PI_WINDOWS[(xi >> 26 & 15) as usize..];
    let m = ((xi & 0xff_ffff) | 0x80_0000) << (xi >> 23 & 7);
    let high = m.wrapping_mul(window[0]) as u64;
    let middle = m as u64 * window[4] as u64;
    let low = m as u64 * window[8] as u64;
    let fraction = ((low >> 32) | high << 32).wrapping_add(middle);
    let n = fraction.wrapping_add(1 << 61) >> 62;
    let rest = fraction.wrapping_sub(n << 62) as i64;
    (rest as f64 * PI63, n as u32)
}

/// [`reduce`] for a finite `|x| ≥ 120`: glibc's large-argument path. `cos(−x) = cos x` and
/// `sin(−x) = −sin x`: the sign of `x` flips the quadrant's sign for sine.
fn reduce_large_argument(x: f32, cos: bool) -> Reduced<f64> {
    let (r, n) = reduce_large(x);
    let q = if cos { n.wrapping_add(1) } else { n } as u64;
    let flip = (x.is_sign_negative() && !cos) as u64;
    Reduced { r, r2: r * r, odd: f64::from_bits(q & 1), half: f64::from_bits((q & 2) ^ flip << 1) }
}

/// The operations [`reduce`] and [`from_reduced`] are written in: IEEE double arithmetic and
/// operations on a double's 64 bits, on whatever holds the values (one `f64`, or the local of a
/// compiled module holding two).
pub trait Arith64 {
    type V: Copy;
    fn constant(&mut self, c: f64) -> Self::V;
    fn add(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn sub(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn mul(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Rounded toward zero, and toward −∞, to an integer.
    fn trunc(&mut self, a: Self::V) -> Self::V;
    fn floor(&mut self, a: Self::V) -> Self::V;
    /// The bits of `a` and `m`.
    fn and_bits(&mut self, a: Self::V, m: u64) -> Self::V;
    /// The bits of `a` shifted left by `s`.
    fn shl_bits(&mut self, a: Self::V, s: u32) -> Self::V;
    fn xor_bits(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// `a` where the bits of `m` are not all zero, else `b`.
    fn select_nonzero(&mut self, m: Self::V, a: Self::V, b: Self::V) -> Self::V;
    /// `a` where `x` is ±0, else `b`.
    fn select_zero(&mut self, x: Self::V, a: Self::V, b: Self::V) -> Self::V;
}

/// `sin x` (or `cos x`) from its reduced argument ([`reduce`]), `x` a double holding the
/// `f32` argument, to be rounded to `f32`: both polynomials, the one the quadrant picks, its
/// sign. See the module's text for the steps.
pub fn from_reduced<A: Arith64>(a: &mut A, x: A::V, red: &Reduced<A::V>, cos: bool) -> A::V {
    let s = sine_poly(a, red);
    let c = cosine_poly(a, red);
    let v = a.select_nonzero(red.odd, c, s);
    finish(a, x, red, v, cos)
}

/// The reduced argument: `r`, `r²`, and of the quadrant (`n`, or `n + 1` for cos) the bits that
/// pick the polynomial (`odd`) and the sign (`half`).
pub struct Reduced<V> {
    pub r: V,
    pub r2: V,
    pub odd: V,
    pub half: V,
}

/// The first step: the quadrant and the reduced argument of `x`, a double holding an `f32` of
/// magnitude below [`REDUCED_BELOW`].
pub fn reduce<A: Arith64>(a: &mut A, x: A::V, cos: bool) -> Reduced<A::V> {
    let k = a.constant(TWO_OVER_PI_2P24);
    let scaled = a.mul(x, k);
    let scaled = a.trunc(scaled);
    let k = a.constant(8388608.0);
    let n = a.add(scaled, k);
    let k = a.constant(1.0 / 16777216.0);
    let n = a.mul(n, k);
    let n = a.floor(n);
    // x − n·π/2 rounded once (glibc's x86-64 build fuses it): x − n·head is exact (Sterbenz).
    let k = a.constant(HALF_PI_HEAD);
    let nh = a.mul(n, k);
    let r = a.sub(x, nh);
    let k = a.constant(HALF_PI_TAIL);
    let nt = a.mul(n, k);
    let r = a.sub(r, nt);
    let r2 = a.mul(r, r);
    // The quadrant (n + 1 for cos) picks the polynomial and the sign.
    let q = if cos {
        let one = a.constant(1.0);
        a.add(n, one)
    } else {
        n
    };
    let k = a.constant(INT_BITS);
    let q = a.add(q, k);
    let odd = a.and_bits(q, 1);
    let half = a.and_bits(q, 2);
    Reduced { r, r2, odd, half }
}

/// `S(r) = r + r³·s1 + r⁷·(s2 + r²·s3)`.
pub fn sine_poly<A: Arith64>(a: &mut A, red: &Reduced<A::V>) -> A::V {
    let (r, r2) = (red.r, red.r2);
    let r3 = a.mul(r, r2);
    let k = a.constant(S[2]);
    let t = a.mul(r2, k);
    let k = a.constant(S[1]);
    let tail = a.add(k, t);
    let r7 = a.mul(r3, r2);
    let k = a.constant(S[0]);
    let t = a.mul(r3, k);
    let head = a.add(r, t);
    let t = a.mul(r7, tail);
    a.add(head, t)
}

/// `C(r) = c0 + r²·c1 + r⁴·c2 + r⁶·(c3 + r²·c4)`.
pub fn cosine_poly<A: Arith64>(a: &mut A, red: &Reduced<A::V>) -> A::V {
    let r2 = red.r2;
    let r4 = a.mul(r2, r2);
    let k = a.constant(C[4]);
    let t = a.mul(r2, k);
    let k = a.constant(C[3]);
    let tail = a.add(k, t);
    let k = a.constant(C[1]);
    let t = a.mul(r2, k);
    let k = a.constant(C[0]);
    let head = a.add(k, t);
    let r6 = a.mul(r4, r2);
    let k = a.constant(C[2]);
    let t = a.mul(r4, k);
    let head = a.add(head, t);
    let t = a.mul(r6, tail);
    a.add(head, t)
}

/// The last step of [`from_reduced`]: the sign of the quadrant on `v` (the polynomial `odd`
/// picks), and sin(±0) = ±0. (glibc returns `x` for sine and 1 for cosine below 2^-12; there the
/// polynomials round to the same `f32`, except that the sine polynomial of −0 is +0.)
pub fn finish<A: Arith64>(a: &mut A, x: A::V, red: &Reduced<A::V>, v: A::V, cos: bool) -> A::V {
    let sign = a.shl_bits(red.half, 62);
    let v = a.xor_bits(v, sign);
    if cos {
        v
    } else {
        a.select_zero(x, x, v)
    }
}

/// [`Arith64`] on one double (the interpreter's lanes).
pub struct Scalar;

impl Arith64 for Scalar {
    type V = f64;
    fn constant(&mut self, c: f64) -> f64 {
        c
    }
    fn add(&mut self, a: f64, b: f64) -> f64 {
        a + b
    }
    fn sub(&mut self, a: f64, b: f64) -> f64 {
        a - b
    }
    fn mul(&mut self, a: f64, b: f64) -> f64 {
        a * b
    }
    fn and_bits(&mut self, a: f64, m: u64) -> f64 {
        f64::from_bits(a.to_bits() & m)
    }
    fn trunc(&mut self, a: f64) -> f64 {
        a.trunc()
    }
    fn floor(&mut self, a: f64) -> f64 {
        a.floor()
    }
    fn shl_bits(&mut self, a: f64, s: u32) -> f64 {
        f64::from_bits(a.to_bits() << s)
    }
    fn xor_bits(&mut self, a: f64, b: f64) -> f64 {
        f64::from_bits(a.to_bits() ^ b.to_bits())
    }
    fn select_nonzero(&mut self, m: f64, a: f64, b: f64) -> f64 {
        if m.to_bits() != 0 {
            a
        } else {
            b
        }
    }
    fn select_zero(&mut self, x: f64, a: f64, b: f64) -> f64 {
        if x == 0.0 {
            a
        } else {
            b
        }
    }
}

/// Whether [`reduce`] takes `x` (its magnitude is below [`REDUCED_BELOW`]; not NaN).
#[inline]
pub fn reduced(x: f32) -> bool {
    x.abs() < REDUCED_BELOW
}

/// tgsi_exec's SIN.
#[inline]
pub fn sin(x: f32) -> f32 {
    sin_or_cos(x, false)
}

/// tgsi_exec's COS.
#[inline]
pub fn cos(x: f32) -> f32 {
    sin_or_cos(x, true)
}

/// SIN or COS of ±∞ or NaN: glibc's `(x − x) / (x − x)`, a NaN (the default NaN for an
/// infinity; a NaN argument's own, quieted).
#[allow(clippy::eq_op)]
fn invalid(x: f32) -> f32 {
    (x - x) / (x - x)
}

/// One copy for the scalar callers (SCS, the module's import, the sphere mesh); the
/// interpreter's SIN and COS run over a batch in `float::sin_cos_lanes` instead.
#[inline(never)]
fn sin_or_cos(x: f32, cos: bool) -> f32 {
    if reduced(x) {
        reduced_value(x, cos)
    } else {
        outside(x, cos)
    }
}

/// The formula of [`reduce`] and [`from_reduced`] for one lane, without a branch (for loops
/// over many lanes, which the compiler then vectorises); meaningful only where [`reduced`].
#[inline]
pub fn reduced_value(x: f32, cos: bool) -> f32 {
    let red = reduce(&mut Scalar, x as f64, cos);
    from_reduced(&mut Scalar, x as f64, &red, cos) as f32
}

/// SIN or COS of the arguments [`reduced`] does not take: 120 or more in magnitude,
/// infinities and NaN. Rare, so out of line.
#[cold]
#[inline(never)]
pub fn outside(x: f32, cos: bool) -> f32 {
    if !x.is_finite() {
        return invalid(x);
    }
    let red = reduce_large_argument(x, cos);
    from_reduced(&mut Scalar, x as f64, &red, cos) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two finite floats.
    fn ulps(a: f32, b: f32) -> u32 {
        let key = |v: f32| {
            let b = v.to_bits();
            if b < 0x8000_0000 {
                b as i64
            } else {
                0x8000_0000 - b as i64
            }
        };
        (key(a) - key(b)).unsigned_abs() as u32
    }

    /// Arguments over every binade of finite floats (a spread of each, denser below the bound),
    /// and the floats nearest to the multiples of π/4 (where the reduced argument is smallest or
    /// the quadrant changes).
    fn arguments() -> Vec<f32> {
        let mut xs = Vec::new();
        let mut bits = 0u32;
        while bits < 0x7f80_0000 {
            xs.push(f32::from_bits(bits));
            bits += if bits < REDUCED_BELOW.to_bits() { 1009 } else { 4001 };
        }
        for k in 1..153 {
            let m = (k as f64 * std::f64::consts::FRAC_PI_4) as f32;
            for d in -3i32..=3 {
                xs.push(f32::from_bits(m.to_bits().wrapping_add_signed(d)));
            }
        }
        let negated: Vec<f32> = xs.iter().map(|x| -x).collect();
        xs.extend(negated);
        xs
    }

    /// Whether the host's `sinf` is glibc's variant with fused multiply-adds (Mesa's platform
    /// on a current x86-64 processor), which the formula reproduces.
    fn host_is_glibc_fma() -> bool {
        #[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
        return is_x86_feature_detected!("fma") && is_x86_feature_detected!("avx2");
        #[allow(unreachable_code)]
        false
    }

    /// On glibc's fused variant, the same bits as the host's `sinf`/`cosf` for every argument
    /// tried. Elsewhere (a libm with another algorithm), within one ulp of the host's
    /// double-precision functions rounded to `f32`.
    #[test]
    fn glibcs_results() {
        let xs = arguments();
        assert!(xs.len() > 2_500_000);
        let glibc = host_is_glibc_fma();
        let mut worst = (0, 0.0f32);
        for x in xs {
            let pairs = if glibc {
                [(sin(x), x.sin()), (cos(x), x.cos())]
            } else {
                [(sin(x), (x as f64).sin() as f32), (cos(x), (x as f64).cos() as f32)]
            };
            for (ours, host) in pairs {
                let d = ulps(ours, host);
                if d > worst.0 {
                    worst = (d, x);
                }
            }
        }
        let allowed = if glibc { 0 } else { 1 };
        assert!(worst.0 <= allowed, "{} ulp at {:e}", worst.0, worst.1);
    }

    /// Every finite argument (both signs), on glibc's fused variant: about 45 s in a release
    /// build (`cargo test --release --lib -- --ignored every_finite_argument`).
    #[test]
    #[ignore]
    fn every_finite_argument_gives_glibcs_bits() {
        if !host_is_glibc_fma() {
            return;
        }
        let mut differ = Vec::new();
        for bits in 0..0x7f80_0000 {
            for x in [f32::from_bits(bits), -f32::from_bits(bits)] {
                if sin(x).to_bits() != x.sin().to_bits() || cos(x).to_bits() != x.cos().to_bits() {
                    differ.push(x);
                }
            }
        }
        assert!(differ.is_empty(), "{} differ, the first {:e}", differ.len(), differ[0]);
    }

    /// The values the formula's steps give by hand: signs of zero kept, `sin x = x` and
    /// `cos x = 1` for tiny arguments, NaN for NaN and infinities; past the bound within one
    /// ulp of the host's double-precision functions (glibc's and Rust's reduce any argument
    /// exactly).
    #[test]
    fn special_arguments() {
        assert_eq!(sin(0.0).to_bits(), 0);
        assert_eq!(sin(-0.0).to_bits(), 0x8000_0000);
        assert_eq!(cos(0.0), 1.0);
        assert_eq!(cos(-0.0), 1.0);
        for x in [1e-4f32, -2e-4, f32::MIN_POSITIVE, 1e-45, -1e-40] {
            assert_eq!(sin(x).to_bits(), x.to_bits());
            assert_eq!(cos(x), 1.0);
        }
        // sin(π/2 as f32) rounds to 1, cos of it is the (negative) rest of π/2:
        // π/2 − 1.57079637 = −4.37e-8.
        assert_eq!(sin(std::f32::consts::FRAC_PI_2), 1.0);
        let c = cos(std::f32::consts::FRAC_PI_2);
        assert!((c - -4.371139e-8).abs() < 1e-14, "{c:e}");
        // glibc's NaNs: (x − x) / (x − x), the default NaN (x86: negative, quiet) for ±∞ and a
        // NaN argument quieted; on the host too when it is glibc.
        assert!(sin(f32::NAN).is_nan() && cos(f32::INFINITY).is_nan());
        for bits in [0x7f80_0000u32, 0xff80_0000, 0x7fc0_1234, 0x7f80_0001, 0xffc0_5678] {
            let x = f32::from_bits(bits);
            assert!(sin(x).is_nan() && cos(x).is_nan());
            if host_is_glibc_fma() {
                assert_eq!(sin(x).to_bits(), x.sin().to_bits(), "{bits:08x}");
                assert_eq!(cos(x).to_bits(), x.cos().to_bits(), "{bits:08x}");
            }
        }
        for x in [120.0f32, -120.0, 1371.4, -1e30, 3.0e38, f32::MAX] {
            assert!(ulps(sin(x), (x as f64).sin() as f32) <= 1, "sin {x:e}");
            assert!(ulps(cos(x), (x as f64).cos() as f32) <= 1, "cos {x:e}");
        }
        assert!(!reduced(f32::NAN) && !reduced(120.0) && reduced(119.99999));
    }

    /// The reduction's table: the bits of 2/π, checked against 2/π as a double (53 bits), and
    /// each entry the 32 bits that end 8 bits after the last one's.
    #[test]
    fn the_two_over_pi_windows() {
        let first: u64 = TWO_OVER_PI_BITS[..7].iter().fold(0, |a, &b| a << 8 | b as u64);
        // The first 56 bits against the double nearest 2/π scaled by 2^56 (53 significant
        // bits: within 8 of the truncated 56).
        let double = (2.0 / std::f64::consts::PI * (1u64 << 56) as f64) as u64;
        assert!(first.abs_diff(double) <= 8, "{first:x} {double:x}");
        assert_eq!(TWO_OVER_PI_WINDOWS[..4], [0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e]);
        for k in 4..24 {
            let expected = TWO_OVER_PI_WINDOWS[k - 1] << 8 | TWO_OVER_PI_BITS[k] as u32;
            assert_eq!(TWO_OVER_PI_WINDOWS[k], expected);
        }
        assert_eq!(PI63, 2.0 * std::f64::consts::PI / 2f64.powi(64));
    }

    /// The split of π/2: the parts add up to it exactly, and the head leaves room for a 7-bit
    /// quadrant.
    #[test]
    fn half_pi_split() {
        assert_eq!(HALF_PI_HEAD + HALF_PI_TAIL, std::f64::consts::FRAC_PI_2);
        assert_eq!(HALF_PI_HEAD.to_bits() & 0x7f, 0);
        assert_eq!(HALF_PI_TAIL, 3.0 / (1u64 << 49) as f64);
        assert!(REDUCED_BELOW as f64 * 2.0 / std::f64::consts::PI + 1.0 < 128.0);
    }
}
