//! Image filters (nearest, bilinear, trilinear in 3D) and mip-level selection, following
//! softpipe's `img_filter_*` and `mip_filter_*` (docs/textures.md "How a sample is computed"):
//! bilinear is `lerp(wy, lerp(wx, t00, t10), lerp(wx, t01, t11))` with `lerp(a, v0, v1) =
//! v0 + a·(v1 − v0)`; texels outside the image read the border colour.

use super::image::Dim;
use super::sampler::{Filter, MipFilter, SamplerState, TextureUnit, Wrap};
use super::trace::{LevelTaps, Tap};
use super::wrap;

/// softpipe's lerp (two roundings, not fused).
#[inline(always)]
pub fn lerp(a: f32, v0: f32, v1: f32) -> f32 {
    v0 + a * (v1 - v0)
}

/// [`lerp`] of each channel.
#[inline(always)]
fn lerp4(a: f32, v0: [f32; 4], v1: [f32; 4]) -> [f32; 4] {
    [lerp(a, v0[0], v1[0]), lerp(a, v0[1], v1[1]), lerp(a, v0[2], v1[2]), lerp(a, v0[3], v1[3])]
}

/// softpipe's bilinear blend of the texels at (x0, y0), (x1, y0), (x0, y1) and (x1, y1), each
/// channel: `lerp(wy, lerp(wx, t00, t10), lerp(wx, t01, t11))`.
#[inline(always)]
pub fn bilerp(wx: f32, wy: f32, [t00, t10, t01, t11]: [[f32; 4]; 4]) -> [f32; 4] {
    lerp4(wy, lerp4(wx, t00, t10), lerp4(wx, t01, t11))
}

/// Where to sample within a level: face coordinates, slice and texel offsets.
#[derive(Clone, Copy, Debug, Default)]
pub struct Point {
    pub s: f32,
    pub t: f32,
    /// r for 3D textures.
    pub r: f32,
    /// Slice for arrays and cubes (layer, face or 6·layer + face).
    pub slice: i32,
    pub offset: [i32; 3],
}

/// Taps collected by one image filter (at most 8, for trilinear 3D).
#[derive(Clone, Copy, Debug, Default)]
pub struct Taps {
    pub n: usize,
    pub tap: [Tap; 8],
}

impl Taps {
    fn push(&mut self, t: Tap) {
        if let Some(slot) = self.tap.get_mut(self.n) {
            *slot = t;
            self.n += 1;
        }
    }
    pub fn as_slice(&self) -> &[Tap] {
        self.tap.get(..self.n).unwrap_or(&[])
    }
}

/// Where an image filter puts the texels it reads: [`Taps`] when the sample is traced,
/// [`NoTaps`] otherwise (nothing kept, and the taps' weights are never computed).
pub trait TapSink {
    fn record(&mut self, tap: Tap);
}

impl TapSink for Taps {
    #[inline]
    fn record(&mut self, tap: Tap) {
        self.push(tap);
    }
}

/// Keeps no taps: an untraced sample.
pub struct NoTaps;

impl TapSink for NoTaps {
    #[inline(always)]
    fn record(&mut self, _: Tap) {}
}

/// Reads one texel of a level, or the border colour when (x, y, z) is outside.
/// For normalised formats the border colour is first clamped to [0, 1], as softpipe does.
#[inline]
pub fn texel(
    unit: &TextureUnit,
    sampler: &SamplerState,
    level: u32,
    x: i32,
    y: i32,
    z: i32,
) -> ([f32; 4], bool) {
    match unit.texture.level(level).and_then(|l| l.value(x, y, z)) {
        Some(v) => (v, false),
        None => (border_color(unit, sampler), true),
    }
}

pub(super) fn border_color(unit: &TextureUnit, sampler: &SamplerState) -> [f32; 4] {
    use super::format::Kind;
    match unit.texture.format.kind() {
        Kind::Unorm8 | Kind::Srgb8 | Kind::Unorm16 => {
            sampler.border_color.map(|c| c.clamp(0.0, 1.0))
        }
        _ => sampler.border_color,
    }
}

/// The wrapped texel coordinate of every axis for this level, by `normalized` or `unnormalized`
/// (nearest: an index; linear: two indices and a weight); axes the texture does not have take
/// `fixed` of 0 (y of a 1-D texture) or of the array slice (z of anything but 3-D).
/// One axis' wrap — (mode, coordinate, size, texel offset) → index or footprint — given as the
/// function itself (a type of its own, so that the call is direct and inlined).
#[inline]
fn per_axis<T>(
    unit: &TextureUnit,
    sampler: &SamplerState,
    level: u32,
    p: &Point,
    (normalized, unnormalized): (
        impl Fn(Wrap, f32, u32, i32) -> T,
        impl Fn(Wrap, f32, u32, i32) -> T,
    ),
    fixed: impl Fn(i32) -> T,
) -> [T; 3] {
    let (w, h, d) = unit.texture.level_size(level);
    let dim = unit.texture.dim;
    let pick = |axis: usize, c: f32, size: u32| {
        let off = p.offset.get(axis).copied().unwrap_or(0);
        let mode = sampler.wrap.get(axis).copied().unwrap_or(Wrap::Repeat);
        if sampler.normalized_coords {
            normalized(mode, c, size, off)
        } else {
            unnormalized(mode, c, size, off)
        }
    };
    let x = pick(0, p.s, w);
    let y = if dim.is_1d() { fixed(0) } else { pick(1, p.t, h) };
    let z = if dim == Dim::D3 { pick(2, p.r, d) } else { fixed(p.slice) };
    [x, y, z]
}

/// Nearest texel indices per axis for this level.
#[inline]
fn nearest_index(
    unit: &TextureUnit,
    sampler: &SamplerState,
    level: u32,
    p: &Point,
) -> (i32, i32, i32) {
    let [x, y, z] =
        per_axis(unit, sampler, level, p, (wrap::nearest, wrap::nearest_unnormalized), |i| i);
    (x, y, z)
}

/// Linear texel indices and weights per axis.
#[inline]
fn linear_index(
    unit: &TextureUnit,
    sampler: &SamplerState,
    level: u32,
    p: &Point,
) -> [(i32, i32, f32); 3] {
    per_axis(unit, sampler, level, p, (wrap::linear, wrap::linear_unnormalized), |i| (i, i, 0.0))
}

/// Samples one level with the given image filter; records the texels read in `taps`.
#[inline]
pub fn image_filter<S: TapSink>(
    unit: &TextureUnit,
    sampler: &SamplerState,
    filter: Filter,
    level: u32,
    p: &Point,
    taps: &mut S,
) -> [f32; 4] {
    match filter {
        Filter::Nearest => {
            let (x, y, z) = nearest_index(unit, sampler, level, p);
            let (v, border) = texel(unit, sampler, level, x, y, z);
            taps.record(Tap { x, y, z, weight: 1.0, border, value: v });
            v
        }
        Filter::Linear => {
            let [(x0, x1, wx), (y0, y1, wy), (z0, z1, wz)] = linear_index(unit, sampler, level, p);
            let mut read = |x: i32, y: i32, z: i32, weight: f32| {
                let (v, border) = texel(unit, sampler, level, x, y, z);
                taps.record(Tap { x, y, z, weight, border, value: v });
                v
            };
            if unit.texture.dim.is_1d() {
                let (a, b) = (read(x0, y0, z0, 1.0 - wx), read(x1, y0, z0, wx));
                return lerp4(wx, a, b);
            }
            let mut slice = |z: i32, zw: f32| {
                let t00 = read(x0, y0, z, (1.0 - wx) * (1.0 - wy) * zw);
                let t10 = read(x1, y0, z, wx * (1.0 - wy) * zw);
                let t01 = read(x0, y1, z, (1.0 - wx) * wy * zw);
                let t11 = read(x1, y1, z, wx * wy * zw);
                bilerp(wx, wy, [t00, t10, t01, t11])
            };
            if unit.texture.dim == Dim::D3 {
                let a = slice(z0, 1.0 - wz);
                let b = slice(z1, wz);
                lerp4(wz, a, b)
            } else {
                slice(z0, 1.0)
            }
        }
    }
}

/// The 2×2 footprint of a gather, in GL order (i0 j1, i1 j1, i1 j0, i0 j0), one component.
pub fn gather_footprint(
    unit: &TextureUnit,
    sampler: &SamplerState,
    level: u32,
    p: &Point,
    taps: &mut Taps,
) -> [[f32; 4]; 4] {
    let [(x0, x1, _), (y0, y1, _), (z, _, _)] = linear_index(unit, sampler, level, p);
    [(x0, y1), (x1, y1), (x1, y0), (x0, y0)].map(|(x, y)| {
        let (v, border) = texel(unit, sampler, level, x, y, z);
        taps.push(Tap { x, y, z, weight: 0.25, border, value: v });
        v
    })
}

/// Which level(s) a lane reads and with what weight, from its clamped LOD (docs/textures.md "How a sample is computed": Levels).
/// Returns (level, weight) pairs, absolute level indices, and whether the mag filter applies.
pub fn choose_levels(
    unit: &TextureUnit,
    sampler: &SamplerState,
    lod: f32,
    gather: bool,
) -> ([(u32, f32); 2], usize, bool) {
    let first = unit.view.first_level;
    let last = unit.view.last_level.max(first);
    let mip = if unit.texture.format.is_integer() && sampler.mip_filter == MipFilter::Linear {
        MipFilter::Nearest
    } else {
        sampler.mip_filter
    };
    if lod <= 0.0 && !gather {
        return ([(first, 1.0), (first, 0.0)], 1, true);
    }
    let at = |offset: i64| {
        i64::from(first).saturating_add(offset).clamp(i64::from(first), i64::from(last)) as u32
    };
    match mip {
        MipFilter::None => ([(first, 1.0), (first, 0.0)], 1, false),
        // (int)(lod + 0.5): C truncation toward zero
        MipFilter::Nearest => ([(at((lod + 0.5) as i64), 1.0), (first, 0.0)], 1, false),
        MipFilter::Linear => {
            let level0 = i64::from(first).saturating_add(lod as i64);
            if level0 >= i64::from(last) {
                ([(last, 1.0), (last, 0.0)], 1, false)
            } else {
                let blend = wrap::frac(lod);
                let l0 = at(lod as i64);
                ([(l0, 1.0 - blend), (at((lod as i64).saturating_add(1)), blend)], 2, false)
            }
        }
    }
}

/// The image filter a level is read with: the sampler's mag or min filter, nearest for integer
/// formats (which are never blended).
#[inline]
pub fn image_filter_for(unit: &TextureUnit, sampler: &SamplerState, magnified: bool) -> Filter {
    match (magnified, unit.texture.format.is_integer()) {
        (_, true) => Filter::Nearest,
        (true, false) => sampler.mag_filter,
        (false, false) => sampler.min_filter,
    }
}

/// Samples a lane: chooses levels, filters each, blends, and records a per-level trace when
/// `trace` is given.
pub fn mip_filter(
    unit: &TextureUnit,
    sampler: &SamplerState,
    lod: f32,
    p: &Point,
    trace: Option<&mut Vec<LevelTaps>>,
    face: Option<u32>,
) -> ([f32; 4], bool) {
    let (levels, n, magnified) = choose_levels(unit, sampler, lod, false);
    let filter = image_filter_for(unit, sampler, magnified);
    let mut out = [[0f32; 4]; 2];
    if let Some(t) = trace {
        let mut all_taps = [Taps::default(); 2];
        for i in 0..n.min(2) {
            out[i] = image_filter(unit, sampler, filter, levels[i].0, p, &mut all_taps[i]);
        }
        for i in 0..n.min(2) {
            t.push(LevelTaps {
                level: levels[i].0,
                weight: levels[i].1,
                face,
                taps: all_taps[i].as_slice().to_vec(),
            });
        }
    } else {
        for i in 0..n.min(2) {
            out[i] = image_filter(unit, sampler, filter, levels[i].0, p, &mut NoTaps);
        }
    }
    let color = if n == 2 {
        let blend = levels[1].1;
        lerp4(blend, out[0], out[1])
    } else {
        out[0]
    };
    (color, magnified)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::format::Format;
    use crate::texture::image::Texture;

    /// 2x1 R32F texture [0, 1] with levels, linear filtering.
    fn unit_r32f(values: &[f32], w: u32, h: u32) -> TextureUnit {
        let mut t =
            Texture::new(Dim::D2, Format::R32F, w, h, 1, 1, 1).unwrap_or_else(|e| panic!("{e}"));
        for (i, v) in values.iter().enumerate() {
            t.levels[0].set(i as u32 % w, i as u32 / w, 0, [v.to_bits(), 0, 0, 1f32.to_bits()]);
        }
        TextureUnit::new(t, SamplerState::default())
    }

    #[test]
    fn bilinear_by_hand() {
        // 2x2 texels 0, 1 (bottom row), 2, 3 (top row); clamp to edge.
        let mut u = unit_r32f(&[0.0, 1.0, 2.0, 3.0], 2, 2);
        u.sampler.wrap = [super::super::sampler::Wrap::ClampToEdge; 3];
        // (s, t) = (0.5, 0.5): u = 1 − 0.5 = 0.5 → texels 0 and 1, weights 0.5 each, both axes
        let p = Point { s: 0.5, t: 0.5, ..Point::default() };
        let mut taps = Taps::default();
        let v = image_filter(&u, &u.sampler, Filter::Linear, 0, &p, &mut taps);
        assert_eq!(v[0], 1.5); // (0 + 1 + 2 + 3) / 4
        assert_eq!(taps.n, 4);
        // s = 0.625: u = 1.25 − 0.5 = 0.75 → 0.25·x0 + 0.75·x1; t = 0.25 → u = 0 → row 0 only
        let p = Point { s: 0.625, t: 0.25, ..Point::default() };
        let v = image_filter(&u, &u.sampler, Filter::Linear, 0, &p, &mut Taps::default());
        assert_eq!(v[0], 0.75);
    }

    #[test]
    fn border_colour_outside() {
        let mut u = unit_r32f(&[1.0, 1.0], 2, 1);
        u.sampler.wrap = [super::super::sampler::Wrap::ClampToBorder; 3];
        u.sampler.border_color = [0.25, 0.5, 0.75, 1.0];
        let p = Point { s: -0.75, t: 0.5, ..Point::default() };
        let mut taps = Taps::default();
        let v = image_filter(&u, &u.sampler, Filter::Nearest, 0, &p, &mut taps);
        assert_eq!(v, [0.25, 0.5, 0.75, 1.0]);
        assert!(taps.tap[0].border);
    }

    #[test]
    fn level_choice_rules() {
        let mut t =
            Texture::new(Dim::D2, Format::R8, 8, 8, 1, 1, 4).unwrap_or_else(|e| panic!("{e}"));
        t.generate_mipmaps(4);
        let mut u = TextureUnit::new(t, SamplerState::default());
        u.sampler.mip_filter = MipFilter::Nearest;
        // (int)(lod + 0.5): 1.49 → 1, 1.5 → 2, clamped to the last level 3
        assert_eq!(choose_levels(&u, &u.sampler, 1.49, false).0[0].0, 1);
        assert_eq!(choose_levels(&u, &u.sampler, 1.5, false).0[0].0, 2);
        assert_eq!(choose_levels(&u, &u.sampler, 9.0, false).0[0].0, 3);
        assert!(choose_levels(&u, &u.sampler, 0.0, false).2); // magnified
        u.sampler.mip_filter = MipFilter::Linear;
        let (l, n, _) = choose_levels(&u, &u.sampler, 1.25, false);
        assert_eq!((n, l[0], l[1]), (2, (1, 0.75), (2, 0.25)));
        let (l, n, _) = choose_levels(&u, &u.sampler, 3.0, false);
        assert_eq!((n, l[0].0), (1, 3));
    }
}
