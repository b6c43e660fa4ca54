//! `text::decimal` against core's `str::parse`, an independent correctly rounded parser
//! (Eisel–Lemire with a big-decimal fallback): every result must be the same bits.

use crate::rng::Rng;
use tgsi::text::decimal::{f32_bits, f64_bits, parse_f32, parse_f64};

fn agree(text: &str) {
    let ours = parse_f32(text).map(f32::to_bits);
    let core = text.parse::<f32>().ok().map(f32::to_bits);
    assert_eq!(ours, core, "f32 of {text:?}");
    let ours = parse_f64(text).map(f64::to_bits);
    let core = text.parse::<f64>().ok().map(f64::to_bits);
    assert_eq!(ours, core, "f64 of {text:?}");
}

/// `n` random decimal digits.
fn digits(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| char::from(b'0' + rng.below(10) as u8)).collect()
}

#[test]
fn the_grammar_is_str_parse_s() {
    for text in [
        "",
        ".",
        "e5",
        "1e",
        "1e+",
        "1e-",
        "+",
        "-",
        "+.5",
        "-.5",
        "1.",
        ".5",
        "1.e3",
        ".5e-3",
        "5.e",
        "1e5.5",
        "1.2.3",
        "--1",
        "+-1",
        "1_0",
        " 1",
        "1 ",
        "0x10",
        "1e+-2",
        "inf",
        "INF",
        "-inf",
        "+Infinity",
        "infinit",
        "infinityy",
        "nan",
        "NaN",
        "-nan",
        "+nan",
        "nan(1)",
        "1f",
        "1d",
        "1E5",
        "1e05",
        "٣",
        "1\u{0}",
        "e",
        ".e1",
        "0",
        "-0",
        "+0.0",
        "00000",
        "000.000e5",
        "0e99999999999999999999",
        "1e0000000000000000000000000001",
    ] {
        agree(text);
    }
}

#[test]
fn range_ends_and_known_hard_cases_round_as_str_parse_does() {
    for text in [
        // f32: the largest finite value, the halfway point to infinity and just below it.
        "3.4028234663852886e38",
        "3.4028235677973366e38",
        "3.4028235677973362e38",
        "3.4028235677973366163e38",
        "340282356779733661637539395458142568448",
        "340282356779733661637539395458142568447",
        // f32 subnormals: the smallest, half of it (a tie to zero), just above half.
        "1.401298464324817e-45",
        "7.006492321624085354618647916449580656401e-46",
        "7.006492321624085354618647916449580656402e-46",
        "1.1754942107e-38",
        "1.17549435082228750797e-38",
        // f64: the largest finite value, its halfway point to infinity, the smallest values.
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.797693134862315807937289714053034150799e308",
        "1.7976931348623159e308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        // Ties where rounding twice (to f64, then f32) would be wrong.
        "1.00000005960464477539062500000001",
        "1.000000059604644775390625",
        "1.00000017881393432617187499",
        // Clinger's fast path at its edges.
        "16777216",
        "16777217",
        "16777218e10",
        "16777217e-10",
        "9007199254740993",
        "9007199254740992e22",
        "9007199254740993e-22",
        "1e10",
        "1e-10",
        "1e22",
        "1e23",
        "123456789012345678901234567890",
        "0.1",
        "0.2",
        "0.3",
        "3.14159265358979323846",
        "1e-400",
        "1e400",
        "1e-45",
        "1e-46",
        "1e38",
        "1e39",
    ] {
        agree(text);
    }
}

#[test]
fn random_decimals_round_as_str_parse_does() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..30_000 {
        let long = round % 100 == 0;
        let n = if long { 20 + rng.below(1200) } else { 1 + rng.below(25) };
        let mut text = digits(&mut rng, n);
        if rng.below(3) > 0 {
            let at = rng.below(n + 1);
            text.insert(at, '.');
        }
        if rng.below(4) > 0 {
            let wide = if rng.below(2) == 0 { 60 } else { 400 };
            let e = rng.below(2 * wide) as i64 - wide as i64;
            text.push_str(&format!("e{e}"));
        }
        agree(&text);
    }
}

/// A finite non-negative double's exact value as decimal digits and how many of them are
/// fraction digits (Rust's formatting with a precision prints the exact expansion).
fn exact(v: f64) -> (Vec<u8>, usize) {
    const FRACTION: usize = 1100;
    let text = format!("{v:.FRACTION$}");
    (text.bytes().filter(u8::is_ascii_digit).map(|c| c - b'0').collect(), FRACTION)
}

/// a + b exactly, on digit strings with the same number of fraction digits.
fn sum(a: (Vec<u8>, usize), b: (Vec<u8>, usize)) -> (Vec<u8>, usize) {
    let width = a.0.len().max(b.0.len()) + 1;
    let pad = |d: Vec<u8>| [vec![0; width - d.len()], d].concat();
    let (x, y) = (pad(a.0), pad(b.0));
    let mut out = vec![0u8; width];
    let mut carry = 0;
    for i in (0..width).rev() {
        let s = x[i] + y[i] + carry;
        out[i] = s % 10;
        carry = s / 10;
    }
    (out, a.1)
}

/// x / 2 exactly (one more fraction digit).
fn half(mut x: (Vec<u8>, usize)) -> (Vec<u8>, usize) {
    x.0.push(0);
    let mut rest = 0;
    for d in x.0.iter_mut() {
        let v = rest * 10 + *d;
        *d = v / 2;
        rest = v % 2;
    }
    (x.0, x.1 + 1)
}

fn text((digits, fraction): (Vec<u8>, usize)) -> String {
    let digits: String = digits.iter().map(|&d| char::from(b'0' + d)).collect();
    let (int, frac) = digits.split_at(digits.len() - fraction);
    format!("{int}.{frac}")
}

/// The halfway point itself, then a hair above it and a hair below it, which must round to
/// different neighbours in the format the point is between (`bits`).
fn around(mid: &str, bits: fn(&str) -> Option<u64>) {
    let trimmed = mid.trim_end_matches('0');
    let above = format!("{trimmed}1");
    let last = trimmed.as_bytes()[trimmed.len() - 1];
    let below = format!("{}{}9", &trimmed[..trimmed.len() - 1], char::from(last - 1));
    for text in [trimmed, &above, &below] {
        agree(text);
    }
    assert_ne!(bits(&above), bits(&below), "{mid} is not between two neighbours");
}

#[test]
fn halfway_points_between_neighbours_round_to_even_as_str_parse_does() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut f32s: Vec<u32> = vec![0, 1, 2, 0x007f_ffff, 0x0080_0000, 0x3f80_0000, 0x7f7f_ffff];
    f32s.extend((0..1500).map(|_| rng.below(0x7f80_0000) as u32));
    for bits in f32s {
        let (x, y) = (f32::from_bits(bits) as f64, f32::from_bits(bits + 1) as f64);
        let y = if y.is_infinite() { 2f64.powi(128) } else { y };
        around(&text(half(sum(exact(x), exact(y)))), |t| f32_bits(t).map(u64::from));
    }
    let mut f64s: Vec<u64> = vec![0, 1, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000];
    f64s.push(1f64.to_bits());
    f64s.extend((0..1500).map(|_| rng.next() % 0x7fef_ffff_ffff_ffff));
    for bits in f64s {
        let (x, y) = (f64::from_bits(bits), f64::from_bits(bits + 1));
        around(&text(half(sum(exact(x), exact(y)))), f64_bits);
    }
    // The largest double's halfway point to 2^1024, which is not a double: max + 2^970.
    around(&text(sum(exact(f64::MAX), exact(2f64.powi(970)))), f64_bits);
}
