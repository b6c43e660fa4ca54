//! IEEE 754 binary16 ("half") conversions, the one definition used by PK2H/UP2H, half-float
//! texture formats and half-float image and buffer formats.
//!
//! `from_f32` rounds to nearest, ties to even; overflow gives ±infinity; NaN stays NaN with the
//! quiet bit set and the top 9 bits of its payload kept (what x86's `vcvtps2ph` does, which
//! Mesa's `_mesa_float_to_half` uses on CPUs with F16C, like softpipe on this machine).
//! `to_f32` is exact.

/// binary32 → binary16, round to nearest even.
pub fn from_f32(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        // Infinity, or NaN: quiet bit set, payload truncated to the half's 9 remaining bits.
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) as u16 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal half (or zero): shift the full significand into place with rounding.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 == 1);
    // A carry out of the mantissa correctly bumps the exponent (up to infinity).
    sign | (half + round as u32) as u16
}

/// binary16 → binary32 (exact; NaN payloads move to the top of the f32 payload).
pub fn to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m · 2^-24, exact in f32.
            let v = m as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        (31, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected bits worked out by hand from the binary16 layout (1 sign, 5 exponent bits with
    /// bias 15, 10 fraction bits).
    #[test]
    fn rounding_edges_by_hand() {
        let cases: &[(u32, u16)] = &[
            (0x0000_0000, 0x0000),                      // +0
            (0x8000_0000, 0x8000),                      // -0 keeps its sign
            (1.0f32.to_bits(), 0x3c00),                 // 2^0: exponent 15
            ((-2.0f32).to_bits(), 0xc000),              // sign, exponent 16
            (65504.0f32.to_bits(), 0x7bff),             // largest half
            (65519.0f32.to_bits(), 0x7bff),             // below the midpoint to 65536: stays
            (65520.0f32.to_bits(), 0x7c00),             // the midpoint rounds to even = overflow
            (6.103_515_6e-5f32.to_bits(), 0x0400),      // smallest normal half 2^-14
            (2f32.powi(-24).to_bits(), 0x0001),         // smallest subnormal
            (2f32.powi(-25).to_bits(), 0x0000),         // half of it: tie, rounds to even (0)
            ((3.0 * 2f32.powi(-25)).to_bits(), 0x0002), // 1.5 units: tie, rounds to even (2)
            (2f32.powi(-26).to_bits(), 0x0000),         // below half a unit
            // 1 + 2^-11 is a tie between 0x3c00 and 0x3c01: even wins.
            ((1.0 + 2f32.powi(-11)).to_bits(), 0x3c00),
            // 1 + 3·2^-11 is a tie between 0x3c01 and 0x3c02: even wins.
            ((1.0 + 3.0 * 2f32.powi(-11)).to_bits(), 0x3c02),
            (0x7f80_0000, 0x7c00), // +inf
            (0xff80_0000, 0xfc00), // -inf
            (0x7fc0_0000, 0x7e00), // quiet NaN
            (0x7f80_0001, 0x7e00), // signalling NaN: quieted, low payload lost
            (0xffc0_2000, 0xfe01), // payload bit 13 → half bit 0, sign kept
        ];
        for &(f, h) in cases {
            assert_eq!(from_f32(f32::from_bits(f)), h, "{f:#010x}");
        }
    }

    #[test]
    fn every_half_round_trips() {
        for h in 0..=u16::MAX {
            let f = to_f32(h);
            if f.is_nan() {
                // NaNs come back quiet with their payload.
                assert_eq!(from_f32(f), h | 0x200, "{h:#06x}");
            } else {
                assert_eq!(from_f32(f), h, "{h:#06x}");
            }
        }
        assert_eq!(to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(to_f32(0x7bff), 65504.0);
    }
}
