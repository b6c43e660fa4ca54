//! Decimal text to IEEE-754 bits, correctly rounded (ties to even), as glibc's `strtof`/`strtod`
//! (which Mesa's `tgsi_text.c` `parse_float` calls) and Rust's `str::parse` give them.
//!
//! The engine has its own parser because core's (Eisel–Lemire) brings a 10 KB table of powers of
//! five into every WebAssembly build, a twentieth of the widget's budget. Exactness comes from a
//! small big-integer division instead: numbers whose digits and power of ten fit the format's own
//! arithmetic take one IEEE multiplication or division (Clinger's fast path); the rest are
//! divided out exactly to 60 bits plus a sticky bit and rounded once ([`round_to_ieee`], which
//! `number`'s hex floats share).
//! Tests (`tests/native/front/decimal.rs`) compare every result with `str::parse`.

/// Significant digits kept; the rest only tell whether anything nonzero follows. A halfway point
/// between two doubles has at most 767 significant digits, so 800 decide every rounding.
const MAX_DIGITS: usize = 800;

/// An IEEE binary format: its fraction bits and exponent bits.
#[derive(Clone, Copy)]
struct Format {
    mant_bits: u32,
    exp_bits: u32,
    /// Powers of ten an exact fast path may use: 10^n is exact in the format for n ≤ this
    /// (5^10 < 2^24, 5^22 < 2^53).
    exact_pow10: i64,
    /// 10^this is above the largest finite value (3.4e38, 1.8e308): at least that rounds to ∞.
    overflow_pow10: i64,
    /// 10^this is below half the smallest subnormal (7.0e-46, 2.5e-324): less rounds to 0.
    underflow_pow10: i64,
}

const F32: Format = Format {
    mant_bits: 23,
    exp_bits: 8,
    exact_pow10: 10,
    overflow_pow10: 39,
    underflow_pow10: -46,
};
const F64: Format = Format {
    mant_bits: 52,
    exp_bits: 11,
    exact_pow10: 22,
    overflow_pow10: 309,
    underflow_pow10: -325,
};

/// An unsigned decimal float body (`digits [. digits] [e [+-] digits]` or `. digits [...]`, at
/// least one mantissa digit, nothing else) to f32 bits; `None` if the text is not one.
pub fn f32_bits(body: &str) -> Option<u32> {
    decimal_bits(body.as_bytes(), F32).map(|b| b as u32)
}

/// As [`f32_bits`], to f64 bits.
pub fn f64_bits(body: &str) -> Option<u64> {
    decimal_bits(body.as_bytes(), F64)
}

/// `str::parse::<f32>`'s grammar and result: an optional sign, then a decimal float, `inf`,
/// `infinity` or `nan` (any case).
pub fn parse_f32(text: &str) -> Option<f32> {
    parse_bits(text, F32).map(|bits| f32::from_bits(bits as u32))
}

/// `str::parse::<f64>`'s grammar and result (see [`parse_f32`]).
pub fn parse_f64(text: &str) -> Option<f64> {
    parse_bits(text, F64).map(f64::from_bits)
}

/// A number's optional sign, and the rest: (whether it is `-`, the text after the sign).
pub(super) fn split_sign(text: &str) -> (bool, &str) {
    let (negative, rest) = sign(text.as_bytes());
    // The sign is one ASCII byte: what follows starts on a character boundary.
    (negative, &text[text.len() - rest.len()..])
}

/// [`split_sign`] of bytes (a mantissa's or an exponent's).
fn sign(b: &[u8]) -> (bool, &[u8]) {
    match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, b),
    }
}

fn parse_bits(text: &str, f: Format) -> Option<u64> {
    let (negative, body) = split_sign(text);
    let exponent_ones = ((1u64 << f.exp_bits) - 1) << f.mant_bits;
    let bits = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        exponent_ones
    } else if body.eq_ignore_ascii_case("nan") {
        // The quiet NaN Rust's parser gives: the top fraction bit set.
        exponent_ones | 1 << (f.mant_bits - 1)
    } else {
        decimal_bits(body.as_bytes(), f)?
    };
    Some(bits | (negative as u64) << (f.mant_bits + f.exp_bits))
}

/// A decimal's significant digits (values 0–9, no leading zeros, no trailing zeros unless
/// digits past [`MAX_DIGITS`] were dropped, in which case a last `1` stands for them) and the
/// power of ten they are scaled by.
struct Decimal {
    digits: Vec<u8>,
    exp10: i64,
}

/// Exponents are read up to this size: far past any format's range, far from `i64`'s limits.
const EXP_CAP: i64 = 1 << 40;

fn scan(b: &[u8]) -> Option<Decimal> {
    let mut digits = Vec::new();
    let mut exp10: i64 = 0;
    let (mut any, mut in_fraction, mut dropped_nonzero) = (false, false, false);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            any = true;
            if in_fraction {
                exp10 -= 1;
            }
            if digits.is_empty() && c == b'0' {
                // A leading zero: no digit, its place is in exp10 already.
            } else if digits.len() < MAX_DIGITS {
                digits.push(c - b'0');
            } else {
                exp10 += 1;
                dropped_nonzero |= c != b'0';
            }
        } else if c == b'.' && !in_fraction {
            in_fraction = true;
        } else {
            break;
        }
        i += 1;
    }
    if !any {
        return None;
    }
    exp10 += exponent_suffix(&b[i..], b'e')?;
    if dropped_nonzero {
        // Below every kept digit: on the same side of each halfway point as the dropped ones.
        digits.push(1);
        exp10 -= 1;
    } else {
        while digits.last() == Some(&0) {
            digits.pop();
            exp10 += 1;
        }
    }
    Some(Decimal { digits, exp10 })
}

/// What follows a float's mantissa, `rest`: nothing (exponent 0), or `marker` (`e` for decimal
/// floats, `p` for hex floats, either case) and then [`exponent`]'s `[+-]digits` to the end.
pub(super) fn exponent_suffix(rest: &[u8], marker: u8) -> Option<i64> {
    match rest.split_first() {
        None => Some(0),
        Some((m, digits)) if m | 0x20 == marker => exponent(digits),
        Some(_) => None,
    }
}

/// An exponent's `[+-]digits` to the end of `b`, saturated far past any format's range.
fn exponent(b: &[u8]) -> Option<i64> {
    let (negative, digits) = sign(b);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let e = digits.iter().fold(0i64, |e, &d| (e * 10 + (d - b'0') as i64).min(EXP_CAP));
    Some(if negative { -e } else { e })
}

fn decimal_bits(b: &[u8], f: Format) -> Option<u64> {
    let Decimal { digits, exp10 } = scan(b)?;
    let n = digits.len() as i64;
    if n == 0 || n + exp10 <= f.underflow_pow10 {
        return Some(0);
    }
    if n - 1 + exp10 >= f.overflow_pow10 {
        return Some(((1u64 << f.exp_bits) - 1) << f.mant_bits);
    }
    if let Some(bits) = fast_path(&digits, exp10, f) {
        return Some(bits);
    }
    Some(exact(&digits, exp10, f))
}

/// The digits as an integer below 2^(mant_bits+1) and a power of ten exact in the format: one
/// correctly rounded IEEE operation gives the correctly rounded result.
fn fast_path(digits: &[u8], exp10: i64, f: Format) -> Option<u64> {
    if digits.len() > 19 || exp10.abs() > f.exact_pow10 {
        return None;
    }
    let m = digits.iter().fold(0u64, |m, &d| m * 10 + d as u64);
    if m > 1u64 << (f.mant_bits + 1) {
        return None;
    }
    let up = exp10 >= 0;
    if f.mant_bits == F32.mant_bits {
        let p = (0..exp10.abs()).fold(1.0f32, |p, _| p * 10.0);
        let v = m as f32;
        Some((if up { v * p } else { v / p }).to_bits() as u64)
    } else {
        let p = (0..exp10.abs()).fold(1.0f64, |p, _| p * 10.0);
        let v = m as f64;
        Some((if up { v * p } else { v / p }).to_bits())
    }
}

/// The quotient is worked out to 60 or 61 bits before rounding: more than any format's precision
/// plus a guard bit, so with the sticky bit the one rounding is exact.
const QUOTIENT_BITS: u64 = 60;

/// digits · 10^exp10 as num / den, divided out to a 60-bit quotient q and exponent k
/// (value = (q + fraction) · 2^k), then rounded once.
fn exact(digits: &[u8], exp10: i64, f: Format) -> u64 {
    let mut num = Big::from_digits(digits);
    let mut den = Big::one();
    if exp10 >= 0 {
        num.mul_pow10(exp10 as u64);
    } else {
        den.mul_pow10(exp10.unsigned_abs());
    }
    // num / den lies in [2^(nb-db-1), 2^(nb-db+1)): scaled by 2^-k it lies in [2^59, 2^61).
    let k = num.bit_len() as i64 - den.bit_len() as i64 - QUOTIENT_BITS as i64;
    if k >= 0 {
        den.shl(k as u64);
    } else {
        num.shl(k.unsigned_abs());
    }
    let mut q = 0u64;
    den.shl(QUOTIENT_BITS + 1);
    for bit in (0..=QUOTIENT_BITS).rev() {
        den.shr1();
        if num.ge(&den) {
            num.sub(&den);
            q |= 1 << bit;
        }
    }
    round_to_ieee(q, !num.is_zero(), k, f.mant_bits, f.exp_bits)
}

/// `mant · 2^exp2` (plus a sticky "something nonzero below") rounded half-to-even to IEEE bits
/// (positive; subnormals and overflow to infinity handled).
pub(super) fn round_to_ieee(
    mant: u64,
    sticky: bool,
    exp2: i64,
    mant_bits: u32,
    exp_bits: u32,
) -> u64 {
    if mant == 0 {
        return 0;
    }
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let emin = 1 - bias;
    let inf = ((1u64 << exp_bits) - 1) << mant_bits;
    let msb = 63 - mant.leading_zeros() as i64;
    let e = msb + exp2;
    if e > bias {
        return inf;
    }
    let lsb_exp = e.max(emin) - mant_bits as i64;
    let shift = lsb_exp - exp2;
    let q: u64 = if shift <= 0 {
        mant << (-shift) as u32
    } else if shift > 100 {
        0
    } else {
        let m = mant as u128;
        let q = m >> shift;
        let rem = m & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rem > half || (rem == half && (sticky || q & 1 == 1));
        (q + up as u128) as u64
    };
    if e >= emin {
        (((e + bias - 1) as u64) << mant_bits) + q
    } else {
        q
    }
}

/// A non-negative integer, 32-bit limbs, least significant first, no zero limbs at the top.
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut big = Big(Vec::new());
        for chunk in digits.chunks(9) {
            let value = chunk.iter().fold(0u32, |v, &d| v * 10 + d as u32);
            big.mul_add(10u32.pow(chunk.len() as u32), value);
        }
        big
    }

    /// self = self · m + add.
    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = add as u64;
        for limb in self.0.iter_mut() {
            let v = *limb as u64 * m as u64 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut n: u64) {
        while n >= 9 {
            self.mul_add(1_000_000_000, 0);
            n -= 9;
        }
        self.mul_add(10u32.pow(n as u32), 0);
    }

    fn bit_len(&self) -> u64 {
        match self.0.last() {
            Some(top) => self.0.len() as u64 * 32 - top.leading_zeros() as u64,
            None => 0,
        }
    }

    fn shl(&mut self, bits: u64) {
        let (limbs, bits) = ((bits / 32) as usize, (bits % 32) as u32);
        if bits != 0 {
            let mut carry = 0u32;
            for limb in self.0.iter_mut() {
                let v = *limb;
                *limb = (v << bits) | carry;
                carry = v >> (32 - bits);
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    fn shr1(&mut self) {
        let mut carry = 0u32;
        for limb in self.0.iter_mut().rev() {
            let v = *limb;
            *limb = (v >> 1) | carry;
            carry = v << 31;
        }
        self.trim();
    }

    fn ge(&self, other: &Big) -> bool {
        if self.0.len() != other.0.len() {
            return self.0.len() > other.0.len();
        }
        for (a, b) in self.0.iter().rev().zip(other.0.iter().rev()) {
            if a != b {
                return a > b;
            }
        }
        true
    }

    /// self -= other, for self ≥ other.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0u64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let b = other.0.get(i).copied().unwrap_or(0) as u64 + borrow;
            let a = *limb as u64;
            *limb = a.wrapping_sub(b) as u32;
            borrow = (a < b) as u64;
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
}
