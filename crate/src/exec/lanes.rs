//! The lane vector: one channel of one register for the four lanes of a 2x2 quad
//! (lane 0 = top-left, 1 = top-right, 2 = bottom-left, 3 = bottom-right; tgsi_exec.h `TILE_*`).
//!
//! The bits are typeless; every operation reinterprets them as f32, i32 or u32. The type is a plain
//! 16-byte-aligned `[u32; 4]`: the interpreter runs each decoded instruction over a whole batch of
//! quads, so its loops walk contiguous arrays of these and the compiler turns them into SSE
//! (native) or simd128 (wasm) code without intrinsics, and per-lane IEEE semantics stay exact and
//! obvious. `docs/interpreter.md` reports the measured throughput.

/// Four 32-bit lanes of one channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Lanes(pub [u32; 4]);

impl Lanes {
    pub const ZERO: Lanes = Lanes([0; 4]);
    pub const ONES: Lanes = Lanes([u32::MAX; 4]);

    pub fn splat(bits: u32) -> Lanes {
        Lanes([bits; 4])
    }
    pub fn splat_f(v: f32) -> Lanes {
        Lanes([v.to_bits(); 4])
    }
    pub fn from_f32(v: [f32; 4]) -> Lanes {
        Lanes(v.map(f32::to_bits))
    }
    pub fn from_i32(v: [i32; 4]) -> Lanes {
        Lanes(v.map(|x| x as u32))
    }
    pub fn f32s(self) -> [f32; 4] {
        self.0.map(f32::from_bits)
    }
    pub fn i32s(self) -> [i32; 4] {
        self.0.map(|x| x as i32)
    }
    /// A lane mask (all ones per active lane) from 4 bits (bit i = lane i).
    /// Spelled out lane by lane: as an array `map` it was not inlined, and building the helper
    /// masks of a batch through it was 15 % of a compiled 01_arith frame.
    #[inline]
    pub fn from_bits4(bits: u8) -> Lanes {
        let b = bits as u32;
        let lane = |i: u32| (b >> i & 1).wrapping_neg();
        Lanes([lane(0), lane(1), lane(2), lane(3)])
    }
    /// Bit i set when lane i is non-zero: one vector compare and the lanes' sign bits
    /// (`movmskps` natively, `i32x4.bitmask` in wasm), no branch per lane (a batch's kill and
    /// helper masks go through it; lane by lane it cost about 5 ns a quad in the page's engine).
    #[inline]
    pub fn bits4(self) -> u8 {
        use wide::{i32x4, CmpEq};
        (!iv(&self).cmp_eq(i32x4::ZERO)).move_mask() as u8
    }
}

/// The lanes of a slice of quads as one flat slice of `u32` (quad-major, lane-minor), so that
/// plain scalar loops over it vectorize at the machine's full width (the fast kernels).
#[inline(always)]
pub fn flat(l: &[Lanes]) -> &[u32] {
    // SAFETY: `Lanes` is `#[repr(C)]` around `[u32; 4]` (16 bytes, no padding, alignment 16 ≥
    // 4), so `len` quads are exactly `4 * len` initialised, aligned `u32`s; the result borrows
    // `l` for its lifetime.
    unsafe { std::slice::from_raw_parts(l.as_ptr().cast::<u32>(), l.len() * 4) }
}

/// [`flat`] for writing.
#[inline(always)]
pub fn flat_mut(l: &mut [Lanes]) -> &mut [u32] {
    // SAFETY: as in `flat`; the unique borrow of `l` moves to the result, and every `u32` bit
    // pattern is a valid `Lanes` lane.
    unsafe { std::slice::from_raw_parts_mut(l.as_mut_ptr().cast::<u32>(), l.len() * 4) }
}

/// The bytes of a slice of quads, lane by lane in the host's byte order: WebAssembly memory's
/// order (little-endian) on every host the compiling tier runs on (`jit::stage_in`).
#[cfg(target_endian = "little")]
#[inline(always)]
pub fn bytes(l: &[Lanes]) -> &[u8] {
    // SAFETY: as in `flat`: `16 * len` initialised bytes, borrowed for `l`'s lifetime.
    unsafe { std::slice::from_raw_parts(l.as_ptr().cast::<u8>(), l.len() * 16) }
}

/// The quads of a byte slice that starts 16-byte aligned and holds whole quads (a compiled
/// form's memory, `jit::native`); None otherwise.
#[cfg(target_endian = "little")]
pub fn from_bytes(b: &[u8]) -> Option<&[Lanes]> {
    if !whole_quads(b) {
        return None;
    }
    // SAFETY: the start is aligned for `Lanes` and the length is whole quads (checked above);
    // every bit pattern is a valid `Lanes` (`#[repr(C)]` around `[u32; 4]`); the result borrows
    // `b` for its lifetime.
    Some(unsafe { std::slice::from_raw_parts(b.as_ptr().cast::<Lanes>(), b.len() / 16) })
}

/// [`from_bytes`] for writing.
#[cfg(target_endian = "little")]
pub fn from_bytes_mut(b: &mut [u8]) -> Option<&mut [Lanes]> {
    if !whole_quads(b) {
        return None;
    }
    // SAFETY: as in `from_bytes`; the unique borrow of `b` moves to the result.
    Some(unsafe { std::slice::from_raw_parts_mut(b.as_mut_ptr().cast::<Lanes>(), b.len() / 16) })
}

/// `b` starts aligned for [`Lanes`] and holds whole quads: what viewing it as quads needs.
fn whole_quads(b: &[u8]) -> bool {
    (b.as_ptr() as usize).is_multiple_of(std::mem::align_of::<Lanes>())
        && b.len().is_multiple_of(16)
}

/// [`bytes`] for writing.
#[cfg(target_endian = "little")]
#[inline(always)]
pub fn bytes_mut(l: &mut [Lanes]) -> &mut [u8] {
    // SAFETY: as in `flat_mut`; every byte pattern is a valid lane.
    unsafe { std::slice::from_raw_parts_mut(l.as_mut_ptr().cast::<u8>(), l.len() * 16) }
}

/// Lane-wise map of one slice into another.
#[inline(always)]
pub fn map1(out: &mut [Lanes], a: &[Lanes], f: impl Fn(u32) -> u32) {
    for (o, a) in out.iter_mut().zip(a) {
        for i in 0..4 {
            o.0[i] = f(a.0[i]);
        }
    }
}

#[inline(always)]
pub fn map2(out: &mut [Lanes], a: &[Lanes], b: &[Lanes], f: impl Fn(u32, u32) -> u32) {
    for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
        for i in 0..4 {
            o.0[i] = f(a.0[i], b.0[i]);
        }
    }
}

#[inline(always)]
pub fn map3(
    out: &mut [Lanes],
    a: &[Lanes],
    b: &[Lanes],
    c: &[Lanes],
    f: impl Fn(u32, u32, u32) -> u32,
) {
    for (((o, a), b), c) in out.iter_mut().zip(a).zip(b).zip(c) {
        for i in 0..4 {
            o.0[i] = f(a.0[i], b.0[i], c.0[i]);
        }
    }
}

#[inline(always)]
pub fn fmap1(out: &mut [Lanes], a: &[Lanes], f: impl Fn(f32) -> f32) {
    map1(out, a, |x| f(f32::from_bits(x)).to_bits())
}

#[inline(always)]
pub fn fmap2(out: &mut [Lanes], a: &[Lanes], b: &[Lanes], f: impl Fn(f32, f32) -> f32) {
    map2(out, a, b, |x, y| f(f32::from_bits(x), f32::from_bits(y)).to_bits())
}

#[inline(always)]
pub fn fmap3(
    out: &mut [Lanes],
    a: &[Lanes],
    b: &[Lanes],
    c: &[Lanes],
    f: impl Fn(f32, f32, f32) -> f32,
) {
    map3(out, a, b, c, |x, y, z| {
        f(f32::from_bits(x), f32::from_bits(y), f32::from_bits(z)).to_bits()
    })
}

/// One quad's lanes as a SIMD float vector (SSE natively, simd128 on wasm).
#[inline(always)]
pub fn fv(l: &Lanes) -> wide::f32x4 {
    wide::f32x4::from(l.f32s())
}

#[inline(always)]
pub fn from_fv(v: wide::f32x4) -> Lanes {
    Lanes::from_f32(v.to_array())
}

/// Lane-wise float op on whole SIMD vectors (for the ops whose vector form is bit-identical to
/// the scalar IEEE operation: add, sub, mul, div, and the explicit min/max below).
#[inline(always)]
pub fn vmap2(
    out: &mut [Lanes],
    a: &[Lanes],
    b: &[Lanes],
    f: impl Fn(wide::f32x4, wide::f32x4) -> wide::f32x4,
) {
    for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
        *o = from_fv(f(fv(a), fv(b)));
    }
}

#[inline(always)]
pub fn vmap3(
    out: &mut [Lanes],
    a: &[Lanes],
    b: &[Lanes],
    c: &[Lanes],
    f: impl Fn(wide::f32x4, wide::f32x4, wide::f32x4) -> wide::f32x4,
) {
    for (((o, a), b), c) in out.iter_mut().zip(a).zip(b).zip(c) {
        *o = from_fv(f(fv(a), fv(b), fv(c)));
    }
}

/// One quad's lanes as a SIMD signed-integer vector.
#[inline(always)]
pub fn iv(l: &Lanes) -> wide::i32x4 {
    wide::i32x4::from(l.i32s())
}

/// Lane-wise integer op on whole SIMD vectors (comparisons give ~0 / 0 masks directly).
#[inline(always)]
pub fn imap2(
    out: &mut [Lanes],
    a: &[Lanes],
    b: &[Lanes],
    f: impl Fn(wide::i32x4, wide::i32x4) -> wide::i32x4,
) {
    for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
        *o = Lanes::from_i32(f(iv(a), iv(b)).to_array());
    }
}

/// Writes `src` into `dst` in the lanes where `mask` is all ones.
#[inline(always)]
pub fn blend(dst: &mut [Lanes], src: &[Lanes], mask: &[Lanes]) {
    for ((d, s), m) in dst.iter_mut().zip(src).zip(mask) {
        let (dv, sv, mv) = (wide::u32x4::from(d.0), wide::u32x4::from(s.0), wide::u32x4::from(m.0));
        *d = Lanes(((sv & mv) | (dv & !mv)).to_array());
    }
}

/// True when every lane of every quad is zero.
#[inline]
pub fn all_zero(m: &[Lanes]) -> bool {
    m.iter().all(|l| (l.0[0] | l.0[1] | l.0[2] | l.0[3]) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_round_trip_through_bits() {
        assert_eq!(Lanes::from_bits4(0b0101).0, [u32::MAX, 0, u32::MAX, 0]);
        assert_eq!(Lanes::from_bits4(0b1010).bits4(), 0b1010);
        for b in 0..16u8 {
            assert_eq!(Lanes::from_bits4(b).bits4(), b);
            // Bits above lane 3 name no lane.
            assert_eq!(Lanes::from_bits4(b | 0xF0), Lanes::from_bits4(b));
        }
    }

    /// Any non-zero lane counts, whatever its bits (not only the sign bit `move_mask` reads).
    #[test]
    fn bits4_sets_a_bit_for_each_non_zero_lane() {
        let values = [0u32, 1, 0x8000_0000, 0x7fff_ffff, u32::MAX, 0x0001_0000];
        for a in values {
            for b in values {
                for (c, d) in [(0, 5), (u32::MAX, 0), (2, 0x4000_0000)] {
                    let m = Lanes([a, b, c, d]);
                    let expected = (a != 0) as u8
                        | ((b != 0) as u8) << 1
                        | ((c != 0) as u8) << 2
                        | ((d != 0) as u8) << 3;
                    assert_eq!(m.bits4(), expected, "{:x?}", m.0);
                }
            }
        }
    }

    #[test]
    fn blend_keeps_masked_lanes() {
        let mut d = [Lanes([1, 2, 3, 4])];
        blend(&mut d, &[Lanes([9, 9, 9, 9])], &[Lanes::from_bits4(0b0110)]);
        assert_eq!(d[0].0, [1, 9, 9, 4]);
    }
}
