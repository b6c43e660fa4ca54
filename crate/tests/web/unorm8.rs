//! The float-to-byte conversion of the page's RGBA8 framebuffer: in WebAssembly `unorm8_quad`
//! has a form of its own (floor and a 2^23 bias instead of a truncating conversion), which must
//! give `unorm8`'s bytes for every bit pattern a shader can write.

use tgsi::render::framebuffer::{unorm8, unorm8_quad};
use wasm_bindgen_test::*;

/// Special values and every rounding step: NaNs of both signs and payloads, ±0, ±∞,
/// denormals, the clamps' edges and their neighbours, each k/255 and (k + 0.5)/255 with the
/// floats one step either side (the +0.5 rounds there), and pseudo-random bit patterns.
fn patterns() -> Vec<u32> {
    let mut bits: Vec<u32> = vec![
        0x7fc0_0000, // quiet NaN
        0xffc0_0000, // negative quiet NaN
        0x7f80_0001, // signalling NaN
        0xff80_0001,
        0x7fff_ffff,
        0x0000_0000, // +0
        0x8000_0000, // −0
        0x7f80_0000, // +∞
        0xff80_0000, // −∞
        0x0000_0001, // smallest denormal
        0x8000_0001,
        0x007f_ffff, // largest denormal
        0x0080_0000, // smallest normal
        0x3f7f_ffff, // 0.99999994
        0x3f80_0000, // 1
        0x3f80_0001, // 1.0000001
        0xbf80_0000, // −1
        0x4b00_0000, // 2^23
        0x4f00_0000, // 2^31
        0x7f7f_ffff, // largest float
        0x3eff_ffff, // just under 0.5
        0x3f00_0000, // 0.5
    ];
    for k in 0..=255u32 {
        for v in [k as f32 / 255.0, (k as f32 + 0.5) / 255.0] {
            let b = v.to_bits();
            bits.extend([b.wrapping_sub(1), b, b + 1]);
        }
    }
    let mut x = 0x9e37_79b9u32;
    for _ in 0..4096 {
        // xorshift32
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        bits.push(x);
        // and a float in [0.5, 1.5): mostly the converting range
        bits.push((f32::from_bits(0x3f80_0000 | (x >> 9)) - 0.5).to_bits());
    }
    bits
}

#[wasm_bindgen_test]
fn unorm8_quad_gives_unorm8_of_every_channel_and_lane() {
    let bits = patterns();
    // Each quad takes sixteen consecutive patterns, so each value is seen in a different
    // channel and lane across the shifts, and a swapped byte would show.
    for shift in [0, 5, 11] {
        for chunk in bits[shift..].chunks_exact(16) {
            let quad: [[u32; 4]; 4] =
                std::array::from_fn(|c| std::array::from_fn(|l| chunk[c * 4 + l]));
            let want = quad.map(|c| c.map(|b| unorm8(f32::from_bits(b))));
            assert_eq!(unorm8_quad(quad), want, "{quad:x?}");
        }
    }
    // By hand: NaN → 0, −1 → 0, 0.5 → round(127.5 + 0.5) = 128, 2 → 255.
    let quad = [[0x7fc0_0000, 0xbf80_0000, 0x3f00_0000, 0x4000_0000]; 4];
    assert_eq!(unorm8_quad(quad), [[0, 0, 128, 255]; 4]);
}
