//! Numbers in TGSI text: immediate values (decimal and hex floats, raw IEEE bits, C-style
//! integers) and the printf-compatible formatting the printers need.
//!
//! FLT32 values follow C's `strtof` (correct rounding, `inf`, `nan`, C99 hex floats) except for
//! one documented rule taken from Mesa ≤ 23.0 and virglrenderer: `0x` followed by exactly eight
//! hex digits (no `.`, no `p`) is the raw bit pattern, the form `tgsi_dump` writes with
//! `TGSI_DUMP_FLOAT_AS_HEX`. FLT64 has the same rule with sixteen digits.

use super::decimal::{self, split_sign};

/// The end of a number-like token starting at `pos`: an optional sign, then word characters and
/// dots, with a sign allowed right after a decimal exponent `e` or a hex exponent `p`.
pub fn scan_number(b: &[u8], pos: usize) -> usize {
    let mut i = pos;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let body = i;
    let hex = b.len() > body + 1 && b[body] == b'0' && (b[body + 1] | 0x20) == b'x';
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            i += 1;
        } else if (c == b'+' || c == b'-') && i > body {
            let prev = b[i - 1] | 0x20;
            if (hex && prev == b'p') || (!hex && prev == b'e') {
                i += 1;
            } else {
                break;
            }
        } else {
            break;
        }
    }
    i
}

/// Parses a FLT32 token to its bit pattern.
pub fn parse_f32(tok: &str) -> Result<u32, String> {
    let (neg, body) = split_sign(tok);
    let sign = if neg { 0x8000_0000u32 } else { 0 };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.len() == 8 && hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            let bits = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
            return Ok(bits ^ sign);
        }
        let bits = parse_hex_float(hex, 23, 8)
            .ok_or_else(|| format!("`{}` is not a valid hex float", tok))?;
        return Ok(bits as u32 | sign);
    }
    match body.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => return Ok(0x7f80_0000 | sign),
        "nan" => return Ok(0x7fc0_0000 | sign),
        _ => {}
    }
    let bits = decimal::f32_bits(body).ok_or_else(|| format!("`{}` is not a number", tok))?;
    Ok(bits | sign)
}

/// Parses a FLT64 token to its bit pattern (`0x` + sixteen hex digits = raw bits).
pub fn parse_f64(tok: &str) -> Result<u64, String> {
    let (neg, body) = split_sign(tok);
    let sign = if neg { 1u64 << 63 } else { 0 };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.len() == 16 && hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            let bits = u64::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
            return Ok(bits ^ sign);
        }
        let bits = parse_hex_float(hex, 52, 11)
            .ok_or_else(|| format!("`{}` is not a valid hex float", tok))?;
        return Ok(bits | sign);
    }
    match body.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => return Ok(0x7ff0_0000_0000_0000 | sign),
        "nan" => return Ok(0x7ff8_0000_0000_0000 | sign),
        _ => {}
    }
    let bits = decimal::f64_bits(body).ok_or_else(|| format!("`{}` is not a number", tok))?;
    Ok(bits | sign)
}

/// A C99 hex float body (after `0x`, without sign): `h*[.h*][p[+-]d+]`, correctly rounded to
/// an IEEE format with `mant_bits` fraction bits and `exp_bits` exponent bits.
fn parse_hex_float(s: &str, mant_bits: u32, exp_bits: u32) -> Option<u64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mant: u64 = 0;
    let mut exp2: i64 = 0;
    let mut sticky = false;
    let mut ndigits = 0; // significant digits kept
    let mut any = false;
    let mut seen_dot = false;
    while i < b.len() {
        let c = b[i];
        if c == b'.' {
            if seen_dot {
                return None;
            }
            seen_dot = true;
            i += 1;
            continue;
        }
        let Some(d) = (c as char).to_digit(16) else { break };
        any = true;
        if ndigits < 15 {
            if mant != 0 || d != 0 {
                mant = mant * 16 + d as u64;
                ndigits += 1;
            }
            if seen_dot {
                exp2 -= 4;
            }
        } else {
            sticky |= d != 0;
            if !seen_dot {
                exp2 += 4;
            }
        }
        i += 1;
    }
    if !any {
        return None;
    }
    exp2 += decimal::exponent_suffix(&b[i..], b'p')?;
    Some(decimal::round_to_ieee(mant, sticky, exp2, mant_bits, exp_bits))
}

/// An unsigned decimal integer (`parse_uint`: digits only).
pub fn parse_u32(tok: &str) -> Result<u32, String> {
    if tok.is_empty() || !tok.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("`{}` is not an unsigned integer", tok));
    }
    tok.parse::<u32>().map_err(|_| format!("`{}` does not fit in 32 bits", tok))
}

/// A signed decimal integer (`parse_int`: optional sign directly followed by digits).
pub fn parse_i32(tok: &str) -> Result<i32, String> {
    let (neg, body) = split_sign(tok);
    if body.is_empty() || !body.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("`{}` is not an integer", tok));
    }
    let v: i64 = body.parse::<i64>().map_err(|_| format!("`{}` does not fit in 32 bits", tok))?;
    let v = if neg { -v } else { v };
    i32::try_from(v).map_err(|_| format!("`{}` does not fit in 32 bits", tok))
}

/// A C `strtoull(…, 0)`-style magnitude: `0x` hex, leading-`0` octal or decimal.
fn parse_c_magnitude(body: &str) -> Option<u128> {
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u128::from_str_radix(digits, radix).ok()
}

/// A UINT64 value (`strtoull` with base 0; a leading `-` negates modulo 2^64 as in C).
pub fn parse_u64(tok: &str) -> Result<u64, String> {
    let (neg, body) = split_sign(tok);
    let m = parse_c_magnitude(body).ok_or_else(|| format!("`{}` is not an integer", tok))?;
    let v = u64::try_from(m).map_err(|_| format!("`{}` does not fit in 64 bits", tok))?;
    Ok(if neg { v.wrapping_neg() } else { v })
}

/// An INT64 value (`strtoll` with base 0).
pub fn parse_i64(tok: &str) -> Result<i64, String> {
    let (neg, body) = split_sign(tok);
    let m = parse_c_magnitude(body).ok_or_else(|| format!("`{}` is not an integer", tok))?;
    let v = if neg { -(m as i128) } else { m as i128 };
    i64::try_from(v).map_err(|_| format!("`{}` does not fit in 64 bits", tok))
}

/// C's `printf("%W.Pf", x)` as glibc prints it: exact decimal expansion rounded half to even,
/// `inf`/`-inf`/`nan`/`-nan`, right-aligned in `width`.
pub fn c_fixed(x: f64, width: usize, precision: usize) -> String {
    let s = if x.is_nan() {
        if x.is_sign_negative() {
            "-nan".to_string()
        } else {
            "nan".to_string()
        }
    } else if x.is_infinite() {
        if x < 0.0 {
            "-inf".to_string()
        } else {
            "inf".to_string()
        }
    } else {
        format!("{:.*}", precision, x)
    };
    format!("{:>width$}", s, width = width)
}

/// The shortest text that reads back as the same f32 bits; NaNs (whose payload decimal cannot
/// carry) as raw bits `0x%08x`.
pub fn f32_exact(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        format!("0x{:08x}", bits)
    } else {
        format!("{:?}", v)
    }
}

/// The shortest text that reads back as the same f64 bits; NaNs as raw bits `0x%016x`.
pub fn f64_exact(bits: u64) -> String {
    let v = f64::from_bits(bits);
    if v.is_nan() {
        format!("0x{:016x}", bits)
    } else {
        format!("{:?}", v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(tok: &str) -> u32 {
        parse_f32(tok).unwrap()
    }

    #[test]
    fn floats_decimal_special_raw_and_hex() {
        assert_eq!(f("1.0"), 1.0f32.to_bits());
        assert_eq!(f("-0.5"), (-0.5f32).to_bits());
        assert_eq!(f(".5"), 0.5f32.to_bits());
        assert_eq!(f("1e-3"), 1e-3f32.to_bits());
        assert_eq!(f("3."), 3.0f32.to_bits());
        assert_eq!(f("-0.0"), 0x8000_0000);
        assert_eq!(f("inf"), 0x7f80_0000);
        assert_eq!(f("-INF"), 0xff80_0000);
        assert_eq!(f("NaN"), 0x7fc0_0000);
        assert_eq!(f("0x3f800000"), 0x3f80_0000);
        assert_eq!(f("0x10"), 16.0f32.to_bits());
        assert_eq!(f("0x1.8p1"), 3.0f32.to_bits());
        assert_eq!(f("0x1p-149"), 1);
        assert_eq!(f("0x1p-150"), 0); // ties to even
        assert_eq!(f("0x1.8p-149"), 2);
        assert_eq!(f("0x1p128"), 0x7f80_0000);
        // Exponents past any range saturate (by hand: 2^(10^20) is infinite, 2^-(10^20) zero).
        assert_eq!(f("0x1p+100000000000000000000"), 0x7f80_0000);
        assert_eq!(f("0x1p-100000000000000000000"), 0);
        assert!(parse_f32("0x1p").is_err(), "no exponent digits");
        assert_eq!(f("0x1.fffffep127"), f32::MAX.to_bits());
        assert_eq!(f("0x1.ffffffp127"), 0x7f80_0000);
        assert_eq!(f("0x1.000001p0"), 1.0f32.to_bits()); // half, even → down
        assert_eq!(f("0x1.0000011p0"), 1.0f32.to_bits() + 1); // above half → up
        assert_eq!(f("0x1.0000030p0"), 1.0f32.to_bits() + 2); // half, odd → up
        assert!(parse_f32("1.0.0").is_err());
        assert!(parse_f32("abc").is_err());
        assert!(parse_f32("1e").is_err());
        assert_eq!(parse_f64("0x3ff0000000000000").unwrap(), 1.0f64.to_bits());
        assert_eq!(parse_f64("0x1.8p1").unwrap(), 3.0f64.to_bits());
        assert_eq!(parse_f64("-2.5").unwrap(), (-2.5f64).to_bits());
    }

    #[test]
    fn scanning_stops_at_the_right_place() {
        let s = b"-1.5e+3, 0x1p-2}";
        assert_eq!(scan_number(s, 0), 7);
        assert_eq!(scan_number(s, 9), 15);
        assert_eq!(scan_number(b"0x1e+5", 0), 4);
    }

    #[test]
    fn integers() {
        assert_eq!(parse_u32("4294967295"), Ok(u32::MAX));
        assert!(parse_u32("4294967296").is_err());
        assert!(parse_u32("-1").is_err());
        assert_eq!(parse_i32("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_u64("0x10"), Ok(16));
        assert_eq!(parse_u64("010"), Ok(8));
        assert_eq!(parse_u64("-1"), Ok(u64::MAX));
        assert_eq!(parse_i64("-9223372036854775808"), Ok(i64::MIN));
        assert!(parse_i64("9223372036854775808").is_err());
    }

    #[test]
    fn printf_fixed_matches_glibc() {
        assert_eq!(c_fixed(0.00609756f32 as f64, 10, 4), "    0.0061");
        assert_eq!(c_fixed(1.0, 10, 4), "    1.0000");
        assert_eq!(c_fixed(-0.0, 10, 4), "   -0.0000");
        assert_eq!(c_fixed(0.00005, 10, 4), "    0.0001"); // 0.00005 is above the tie in binary
        assert_eq!(c_fixed(0.125, 10, 2), "      0.12"); // exact tie → even
        assert_eq!(c_fixed(0.375, 10, 2), "      0.38");
        assert_eq!(c_fixed(f64::INFINITY, 10, 4), "       inf");
        assert_eq!(c_fixed(-f64::NAN, 10, 4), "      -nan");
        assert_eq!(c_fixed(123456789.0, 10, 4), "123456789.0000");
    }

    #[test]
    fn exact_text_round_trips() {
        for bits in [
            0u32,
            0x8000_0000,
            1,
            0x3dcc_cccd,
            0x7f7f_ffff,
            0x7f80_0000,
            0x7fc0_0001,
            0xffc0_0000,
            0x0080_0000,
        ] {
            assert_eq!(f(&f32_exact(bits)), bits, "{}", f32_exact(bits));
        }
    }
}
