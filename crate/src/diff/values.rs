//! The values `tgsi diff` feeds both shaders: a seeded generator (the same seed gives the same
//! trials on every machine) that mixes ordinary numbers with the bit patterns where two
//! formulas part ways — NaN, ±0, ±Inf, denormals, the largest floats and integer edges.

/// A small seeded generator (SplitMix64: every seed, 0 included, gives a full-period stream).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0); the tiny bias of a modulo does not matter here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// The special bit patterns, each with the name a report gives it.
pub const SPECIAL: &[(u32, &str)] = &[
    (0x0000_0000, "+0"),
    (0x8000_0000, "-0 (also INT_MIN)"),
    (0x3f80_0000, "1.0"),
    (0xbf80_0000, "-1.0"),
    (0x3f00_0000, "0.5"),
    (0x4000_0000, "2.0"),
    (0x7fc0_0000, "NaN"),
    (0xffc0_0000, "-NaN"),
    (0x7f80_0001, "signalling NaN"),
    (0x7f80_0000, "+Inf"),
    (0xff80_0000, "-Inf"),
    (0x0000_0001, "smallest denormal (also int 1)"),
    (0x8000_0001, "-smallest denormal"),
    (0x007f_ffff, "largest denormal"),
    (0x0080_0000, "smallest normal"),
    (0x7f7f_ffff, "FLT_MAX"),
    (0xff7f_ffff, "-FLT_MAX"),
    (0x7149_f2ca, "1e30"),
    (0x7fff_ffff, "INT_MAX"),
    (0xffff_ffff, "-1 as an integer (UINT_MAX)"),
    (0x0000_0002, "int 2"),
    (0x0000_0003, "int 3"),
    (0x0000_001f, "int 31"),
    (0x0000_0020, "int 32"),
    (0x4b00_0000, "2^23"),
    (0x4f00_0000, "2^31"),
    (0xcf00_0000, "-2^31"),
    (0x3fc0_0000, "1.5"),
    (0xbfc0_0000, "-1.5"),
    (0x3eff_ffff, "largest float below 0.5"),
];

/// The name of a special pattern, if `bits` is one.
pub fn special_name(bits: u32) -> Option<&'static str> {
    SPECIAL.iter().find(|(b, _)| *b == bits).map(|(_, n)| *n)
}

/// One channel's value: a special pattern one time in three, else an ordinary float in
/// [-4, 4), a float of any exponent, a small integer or any 32 bits.
pub fn pick(rng: &mut Rng) -> u32 {
    match rng.below(12) {
        0..=3 => SPECIAL[rng.below(SPECIAL.len() as u64) as usize].0,
        4..=7 => ordinary(rng),
        8 => {
            // Any finite float: a random sign, exponent and mantissa.
            let bits = rng.next_u64() as u32;
            if (bits >> 23) & 0xff == 0xff {
                bits & !(1 << 30)
            } else {
                bits
            }
        }
        9 | 10 => (rng.below(64) as i32 - 32) as u32,
        _ => rng.next_u64() as u32,
    }
}

/// An ordinary float in [-4, 4) with a few fractional bits (what a picture's inputs hold).
pub fn ordinary(rng: &mut Rng) -> u32 {
    let steps = rng.below(1 << 16) as f32;
    (steps / 8192.0 - 4.0).to_bits()
}

/// A quad's worth of one register: `[lane][channel]`.
pub fn quad(rng: &mut Rng) -> [[u32; 4]; 4] {
    let mut v = [[0u32; 4]; 4];
    for lane in &mut v {
        for c in lane.iter_mut() {
            *c = pick(rng);
        }
    }
    v
}

/// Whether two results mean the same: equal bits, or two NaNs of any sign and payload unless
/// `exact_nan` (Mesa's front ends do not promise a NaN's payload, and a NaN is a NaN to the
/// code that reads it).
pub fn same(a: u32, b: u32, exact_nan: bool) -> bool {
    a == b || (!exact_nan && f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

/// The distance in units in the last place between two finite floats of the same sign, or
/// `None` (signs differ, or a NaN or infinity is involved).
pub fn ulps(a: u32, b: u32) -> Option<u32> {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if !fa.is_finite() || !fb.is_finite() || (a ^ b) >> 31 != 0 {
        return None;
    }
    Some((a & 0x7fff_ffff).abs_diff(b & 0x7fff_ffff))
}

/// How far apart two results are, for a map: 0 the same ([`same`]), the ulps between two
/// finite floats of one sign (at least 1), and `u32::MAX` when a sign, an infinity or a NaN
/// differs.
pub fn distance(a: u32, b: u32, exact_nan: bool) -> u32 {
    if same(a, b, exact_nan) {
        0
    } else {
        ulps(a, b).map_or(u32::MAX, |u| u.max(1))
    }
}

/// Bits as a reader wants to see them: the float, the signed integer and the hex.
pub fn describe(bits: u32) -> String {
    format!("0x{bits:08x} (float {}, int {})", float_text(f32::from_bits(bits)), bits as i32)
}

/// A float short enough to read: plain between 1e-4 and 1e7, else with an exponent.
pub fn float_text(f: f32) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f == 0.0 || f.is_infinite() || (1e-4..1e7).contains(&f.abs()) {
        format!("{f}")
    } else {
        format!("{f:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_values_and_another_seed_others() {
        let draw = |seed| {
            let mut r = Rng::new(seed);
            (0..64).map(|_| pick(&mut r)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    #[test]
    fn every_special_pattern_turns_up_within_a_few_thousand_picks() {
        let mut r = Rng::new(1);
        let seen: std::collections::HashSet<u32> = (0..5000).map(|_| pick(&mut r)).collect();
        for (bits, name) in SPECIAL {
            assert!(seen.contains(bits), "{name} never picked");
        }
    }

    #[test]
    fn nans_are_the_same_unless_asked_and_zeros_of_two_signs_are_not() {
        assert!(same(0x7fc0_0000, 0xffc0_0001, false));
        assert!(!same(0x7fc0_0000, 0xffc0_0001, true));
        assert!(!same(0x0000_0000, 0x8000_0000, false));
        // 1.0 and the next float up: one ulp; 1.0 and 2.0: 2^23 ulps (hand-counted).
        assert_eq!(ulps(0x3f80_0000, 0x3f80_0001), Some(1));
        assert_eq!(ulps(1.0f32.to_bits(), 2.0f32.to_bits()), Some(1 << 23));
        assert_eq!(ulps(1.0f32.to_bits(), (-1.0f32).to_bits()), None);
    }
}
