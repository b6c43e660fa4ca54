//! Wrap modes: from a coordinate to texel indices (softpipe's `wrap_nearest_*` and
//! `wrap_linear_*`, docs/textures.md "How a sample is computed"). Indices outside `0..size` mean
//! "border texel"; [`super::filter`] reads the border colour for them.

use super::sampler::Wrap;

/// floor as an i32 (saturating; NaN gives 0 — the C original is undefined there).
#[inline]
pub fn ifloor(f: f32) -> i32 {
    f.floor() as i32
}

/// Fractional part `f − floor(f)`, in [0, 1) for finite f.
#[inline]
pub fn frac(f: f32) -> f32 {
    f - f.floor()
}

/// Repeat an index into 0..size (Euclidean remainder: defined for any i). For a power-of-two
/// size that is the index's low bits (two's complement); indices already in range, or one
/// period below it (a coordinate just under 0), need no division either.
#[inline]
fn repeat(i: i32, size: i32) -> i32 {
    let n = size.max(1);
    if n & (n - 1) == 0 {
        i & (n - 1)
    } else if (0..n).contains(&i) {
        i
    } else if (-n..0).contains(&i) {
        i + n
    } else {
        i.rem_euclid(n)
    }
}

/// The index after `i`, itself already in 0..size, repeated.
#[inline]
fn repeat_next(i: i32, size: i32) -> i32 {
    if i + 1 >= size {
        0
    } else {
        i + 1
    }
}

/// Nearest texel index for normalised coordinate `s` (offset in texels).
#[inline]
pub fn nearest(wrap: Wrap, s: f32, size: u32, offset: i32) -> i32 {
    let n = size.max(1) as i32;
    let fsize = size.max(1) as f32;
    match wrap {
        Wrap::Repeat => repeat(ifloor(s * fsize).saturating_add(offset), n),
        // CLAMP and CLAMP_TO_EDGE pick the same texel (GL_CLAMP differs only when filtering).
        Wrap::Clamp | Wrap::ClampToEdge => clamp_index(s * fsize + offset as f32, fsize, n),
        // The mirror-clamp modes mirror once about 0, then clamp (`wrap_nearest_mirror_clamp*`).
        Wrap::MirrorClamp => clamp_index((s * fsize + offset as f32).abs(), fsize, n),
        Wrap::MirrorClampToEdge => {
            let u = (s * fsize + offset as f32).abs();
            if u < 0.5 {
                0
            } else if u > fsize - 0.5 {
                n - 1
            } else {
                ifloor(u)
            }
        }
        Wrap::MirrorClampToBorder => {
            // |u| ≥ 0, so only the upper border is reachable; u in [size, size + 0.5] floors
            // to size, also a border texel.
            let u = (s * fsize + offset as f32).abs();
            if u > fsize + 0.5 {
                n
            } else {
                ifloor(u)
            }
        }
        Wrap::ClampToBorder => {
            let u = s * fsize + offset as f32;
            if u <= -1.0 {
                -1
            } else if u >= fsize {
                n
            } else {
                ifloor(u)
            }
        }
        Wrap::MirroredRepeat => {
            let min = 1.0 / (2.0 * fsize);
            let max = 1.0 - min;
            let s = s + offset as f32 / fsize;
            let mut u = frac(s);
            if ifloor(s) & 1 != 0 {
                u = 1.0 - u;
            }
            if u < min {
                0
            } else if u > max {
                n - 1
            } else {
                ifloor(u * fsize)
            }
        }
    }
}

/// The two texel indices and the weight of the second for linear filtering.
#[inline]
pub fn linear(wrap: Wrap, s: f32, size: u32, offset: i32) -> (i32, i32, f32) {
    let n = size.max(1) as i32;
    let fsize = size.max(1) as f32;
    match wrap {
        Wrap::Repeat => {
            let u = s * fsize - 0.5;
            let i0 = repeat(ifloor(u).saturating_add(offset), n);
            (i0, repeat_next(i0, n), frac(u))
        }
        Wrap::ClampToEdge => {
            let u = clamp(s * fsize + offset as f32, 0.0, fsize) - 0.5;
            let i0 = ifloor(u);
            (i0.max(0), (i0 + 1).min(n - 1), frac(u))
        }
        Wrap::ClampToBorder => {
            let u = clamp(s * fsize + offset as f32, -1.0, fsize + 0.5) - 0.5;
            let i0 = ifloor(u);
            (i0, i0 + 1, frac(u))
        }
        // Legacy CLAMP: the coordinate clamps to [0, size] but the indices do not, so at the
        // edges half of the border texel is blended in (`wrap_linear_clamp`).
        Wrap::Clamp => {
            let u = clamp(s * fsize + offset as f32, 0.0, fsize) - 0.5;
            let i0 = ifloor(u);
            (i0, i0 + 1, frac(u))
        }
        Wrap::MirrorClamp => {
            let u = (s * fsize + offset as f32).abs().min(fsize) - 0.5;
            let i0 = ifloor(u);
            (i0, i0 + 1, frac(u))
        }
        Wrap::MirrorClampToEdge => {
            let u = (s * fsize + offset as f32).abs().min(fsize) - 0.5;
            let i0 = ifloor(u);
            (i0.max(0), (i0 + 1).min(n - 1), frac(u))
        }
        Wrap::MirrorClampToBorder => {
            let u = clamp((s * fsize + offset as f32).abs(), -0.5, fsize + 0.5) - 0.5;
            let i0 = ifloor(u);
            (i0, i0 + 1, frac(u))
        }
        Wrap::MirroredRepeat => {
            // In a mirrored period the texels run backwards: the second index is the one to
            // the left and the weight is measured from the right (softpipe's ordering, which
            // rounds differently from mirroring the coordinate first).
            let s = s + offset as f32 / fsize;
            let mirrored = ifloor(s) & 1 != 0;
            let f = frac(s);
            let u = if mirrored { (1.0 - f) * fsize + 0.5 } else { f * fsize - 0.5 };
            let mut i0 = ifloor(u);
            let mut i1 = if mirrored { i0 - 1 } else { i0 + 1 };
            if i0 < 0 {
                i0 += 1;
            }
            if i0 >= n {
                i0 = n - 1;
            }
            if i1 >= n {
                i1 = n - 1;
            }
            if i1 < 0 {
                i1 += 1;
            }
            (i0, i1, if mirrored { frac(1.0 - u) } else { frac(u) })
        }
    }
}

/// Nearest index for unnormalised (RECT) coordinates: clamp modes only, as softpipe
/// (`wrap_nearest_unorm_*`); repeat and mirror modes (invalid in GL) act as clamp to edge.
pub fn nearest_unnormalized(wrap: Wrap, s: f32, size: u32, offset: i32) -> i32 {
    let n = size.max(1) as i32;
    match wrap {
        Wrap::ClampToBorder => ifloor(clamp(s + offset as f32, -0.5, n as f32 + 0.5)),
        // Legacy CLAMP clamps the index, not the coordinate (`wrap_nearest_unorm_clamp`).
        Wrap::Clamp => ifloor(s).saturating_add(offset).clamp(0, n - 1),
        _ => ifloor(clamp(s + offset as f32, 0.5, n as f32 - 0.5)),
    }
}

/// Linear indices and weight for unnormalised (RECT) coordinates (`wrap_linear_unorm_*`).
pub fn linear_unnormalized(wrap: Wrap, s: f32, size: u32, offset: i32) -> (i32, i32, f32) {
    let n = size.max(1) as i32;
    match wrap {
        // Legacy CLAMP: the half-texel shift comes before the clamp to [0, size − 1], and the
        // second index is not capped (`wrap_linear_unorm_clamp`).
        Wrap::Clamp => {
            let u = clamp(s + offset as f32 - 0.5, 0.0, n as f32 - 1.0);
            let i0 = ifloor(u);
            (i0, i0 + 1, frac(u))
        }
        Wrap::ClampToBorder => {
            let u = clamp(s + offset as f32, -0.5, n as f32 + 0.5) - 0.5;
            let i0 = ifloor(u);
            (i0, (i0 + 1).min(n - 1), frac(u))
        }
        _ => {
            let u = clamp(s + offset as f32, 0.5, n as f32 - 0.5) - 0.5;
            let i0 = ifloor(u);
            (i0, (i0 + 1).min(n - 1), frac(u))
        }
    }
}

/// The CLAMP / CLAMP_TO_EDGE nearest rule on a texel coordinate u (`wrap_nearest_clamp`).
fn clamp_index(u: f32, fsize: f32, n: i32) -> i32 {
    if u <= 0.0 {
        0
    } else if u >= fsize {
        n - 1
    } else {
        ifloor(u)
    }
}

/// Gallium's CLAMP (NaN passes through, and then floors to 0 in [`ifloor`]).
fn clamp(v: f32, lo: f32, hi: f32) -> f32 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// Array layer from a float coordinate: nearest layer, clamped (softpipe's `coord_to_layer`).
pub fn layer(coord: f32, layers: u32) -> i32 {
    ifloor(coord + 0.5).clamp(0, layers.max(1) as i32 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 4 texels: texel i covers s in [i/4, (i+1)/4).
    /// The division-free paths give the Euclidean remainder, the definition of REPEAT.
    #[test]
    fn repeat_is_the_euclidean_remainder() {
        for size in [1, 2, 3, 4, 5, 7, 8, 64, 100, 4096] {
            for i in (-3 * size - 2..3 * size + 2).chain([i32::MIN, i32::MIN + 1, i32::MAX]) {
                let r = i.rem_euclid(size);
                assert_eq!(repeat(i, size), r, "{i} mod {size}");
                assert_eq!(
                    repeat_next(r, size),
                    (i64::from(r) + 1).rem_euclid(i64::from(size)) as i32
                );
            }
        }
    }

    #[test]
    fn nearest_modes_by_hand() {
        assert_eq!(nearest(Wrap::Repeat, 0.3, 4, 0), 1); // 1.2 → 1
        assert_eq!(nearest(Wrap::Repeat, -0.1, 4, 0), 3); // −0.4 → −1 → 3
        assert_eq!(nearest(Wrap::Repeat, 0.3, 4, 3), 0); // 1 + 3 = 4 → 0
        assert_eq!(nearest(Wrap::ClampToEdge, 1.7, 4, 0), 3);
        assert_eq!(nearest(Wrap::ClampToEdge, -0.2, 4, 0), 0);
        assert_eq!(nearest(Wrap::ClampToBorder, -0.2, 4, 0), -1); // −0.8 → floor −1: border
        assert_eq!(nearest(Wrap::ClampToBorder, 1.2, 4, 0), 4);
        assert_eq!(nearest(Wrap::ClampToBorder, 0.99, 4, 0), 3);
        // mirrored: s = 1.3 is in an odd period → 1 − 0.3 = 0.7 → texel 2
        assert_eq!(nearest(Wrap::MirroredRepeat, 1.3, 4, 0), 2);
        assert_eq!(nearest(Wrap::MirroredRepeat, 0.3, 4, 0), 1);
    }

    #[test]
    fn linear_modes_by_hand() {
        // s = 0.5 on 4 texels: u = 2 − 0.5 = 1.5 → texels 1, 2, weight 0.5
        assert_eq!(linear(Wrap::Repeat, 0.5, 4, 0), (1, 2, 0.5));
        // s = 0: u = −0.5 → floor −1 → repeat 3, next 0, weight 0.5
        assert_eq!(linear(Wrap::Repeat, 0.0, 4, 0), (3, 0, 0.5));
        assert_eq!(linear(Wrap::ClampToEdge, 0.0, 4, 0), (0, 0, 0.5));
        assert_eq!(linear(Wrap::ClampToEdge, 1.0, 4, 0), (3, 3, 0.5));
        // border: s = 0 → u = −0.5 → (−1, 0), weight 0.5: half border colour
        assert_eq!(linear(Wrap::ClampToBorder, 0.0, 4, 0), (-1, 0, 0.5));
        // far outside clamps to −1 − 0.5 = −1.5 → (−2, −1) weight 0.5: all border
        assert_eq!(linear(Wrap::ClampToBorder, -5.0, 4, 0), (-2, -1, 0.5));
        // mirrored s = 1.125 → odd period, frac 0.125 → u = 0.875·4 + 0.5 = 4 → i0 = 4 → 3,
        // i1 = 3 − … = 3; weight frac(1 − 4) = 0
        assert_eq!(linear(Wrap::MirroredRepeat, 1.125, 4, 0), (3, 3, 0.0));
        // mirrored s = 1.25: u = 0.75·4 + 0.5 = 3.5 → (3, 2), weight frac(1 − 3.5) = 0.5
        assert_eq!(linear(Wrap::MirroredRepeat, 1.25, 4, 0), (3, 2, 0.5));
        // unmirrored s = 0.25: u = 1 − 0.5 = 0.5 → (0, 1), 0.5
        assert_eq!(linear(Wrap::MirroredRepeat, 0.25, 4, 0), (0, 1, 0.5));
    }

    // Legacy GL_CLAMP, derived by hand from sp_tex_sample.c's `wrap_nearest_clamp` /
    // `wrap_linear_clamp` (the oracle's core context has no GL_CLAMP): u = s·size + offset.
    #[test]
    fn gl_clamp_by_hand() {
        // nearest: u ≤ 0 → 0, u ≥ size → size − 1, else ⌊u⌋ (as clamp to edge)
        assert_eq!(nearest(Wrap::Clamp, -0.3, 4, 0), 0);
        assert_eq!(nearest(Wrap::Clamp, 0.6, 4, 0), 2); // 2.4
        assert_eq!(nearest(Wrap::Clamp, 1.0, 4, 0), 3); // u = 4 ≥ size
        assert_eq!(nearest(Wrap::Clamp, 0.5, 4, 1), 3); // 2 + 1
                                                        // linear: u = clamp(s·size, 0, size) − 0.5; indices NOT clamped, so the edges blend
                                                        // half of the border texel: s = 0 → u = −0.5 → (−1, 0), weight 0.5
        assert_eq!(linear(Wrap::Clamp, 0.0, 4, 0), (-1, 0, 0.5));
        assert_eq!(linear(Wrap::Clamp, -3.0, 4, 0), (-1, 0, 0.5));
        // s = 1 (and beyond) → u = 3.5 → (3, 4 = border), weight 0.5
        assert_eq!(linear(Wrap::Clamp, 1.0, 4, 0), (3, 4, 0.5));
        assert_eq!(linear(Wrap::Clamp, 7.0, 4, 0), (3, 4, 0.5));
        // inside: s = 0.4375 → u = 1.75 − 0.5 = 1.25 → (1, 2), weight 0.25
        assert_eq!(linear(Wrap::Clamp, 0.4375, 4, 0), (1, 2, 0.25));
        // RECT (`wrap_*_unorm_clamp`): nearest clamps the index; linear shifts by half a
        // texel, clamps to [0, size − 1] and leaves the second index uncapped.
        assert_eq!(nearest_unnormalized(Wrap::Clamp, 9.5, 4, 0), 3);
        assert_eq!(nearest_unnormalized(Wrap::Clamp, -2.0, 4, 0), 0);
        assert_eq!(linear_unnormalized(Wrap::Clamp, 0.0, 4, 0), (0, 1, 0.0));
        assert_eq!(linear_unnormalized(Wrap::Clamp, 2.25, 4, 0), (1, 2, 0.75));
        assert_eq!(linear_unnormalized(Wrap::Clamp, 9.0, 4, 0), (3, 4, 0.0));
    }

    // The mirror-clamp modes by hand (oracle cases in tests/texture-cases/wrap_mirror_*).
    #[test]
    fn mirror_clamp_modes_by_hand() {
        // |−0.3·4| = 1.2 → 1 for all three
        for w in [Wrap::MirrorClamp, Wrap::MirrorClampToEdge, Wrap::MirrorClampToBorder] {
            assert_eq!(nearest(w, -0.3, 4, 0), 1, "{w:?}");
        }
        assert_eq!(nearest(Wrap::MirrorClamp, -2.0, 4, 0), 3);
        assert_eq!(nearest(Wrap::MirrorClampToEdge, -2.0, 4, 0), 3);
        assert_eq!(nearest(Wrap::MirrorClampToBorder, -2.0, 4, 0), 4); // border
        assert_eq!(nearest(Wrap::MirrorClampToBorder, -1.05, 4, 0), 4); // u = 4.2 floors to 4
                                                                        // linear at s = −1: u = min(4, 4) − 0.5 = 3.5 → (3, 4); to-edge caps 4 → 3
        assert_eq!(linear(Wrap::MirrorClamp, -1.0, 4, 0), (3, 4, 0.5));
        assert_eq!(linear(Wrap::MirrorClampToEdge, -1.0, 4, 0), (3, 3, 0.5));
        // s = 0: u = −0.5 → (−1, 0) for mirror clamp (border blend), (0, 0) to edge
        assert_eq!(linear(Wrap::MirrorClamp, 0.0, 4, 0), (-1, 0, 0.5));
        assert_eq!(linear(Wrap::MirrorClampToEdge, 0.0, 4, 0), (0, 0, 0.5));
        // to border far out: u = 4.5 − 0.5 = 4 → (4, 5), all border
        assert_eq!(linear(Wrap::MirrorClampToBorder, -3.0, 4, 0), (4, 5, 0.0));
    }

    #[test]
    fn rect_coordinates_are_texels() {
        assert_eq!(nearest_unnormalized(Wrap::ClampToEdge, 2.7, 4, 0), 2);
        assert_eq!(nearest_unnormalized(Wrap::Repeat, 9.0, 4, 0), 3);
        assert_eq!(linear_unnormalized(Wrap::ClampToEdge, 2.0, 4, 0), (1, 2, 0.5));
        // clamped into [0.5, 3.5] first: s = 9 → u = 3 → (3, 3 (capped)), weight 0
        assert_eq!(linear_unnormalized(Wrap::ClampToEdge, 9.0, 4, 0), (3, 3, 0.0));
    }

    #[test]
    fn hostile_coordinates_are_defined() {
        for s in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e30, -1e30] {
            for &(w, _, _) in super::super::sampler::WRAP_NAMES {
                let i = nearest(w, s, 4, 7);
                assert!((-1..=4).contains(&i), "{w:?} {s} → {i}");
                let (a, b, _) = linear(w, s, 4, -8);
                // border texels may sit past either edge (−2, −1 and size, size + 1)
                assert!((-2..=5).contains(&a) && (-2..=5).contains(&b), "{w:?} {s} → {a} {b}");
            }
        }
        assert_eq!(layer(f32::NAN, 3), 0);
        assert_eq!(layer(1.5, 3), 2);
        assert_eq!(layer(99.0, 3), 2);
    }
}
