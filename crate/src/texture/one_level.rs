//! The common case of [`super::sample_quad`] without its per-lane machinery: an ordinary 2-D
//! texture with normalised coordinates, no depth comparison, no texel offset, and all four
//! lanes reading the same single mip level with the same filter (a magnified texture, or one
//! without mipmaps: TEX on a picture). It takes the general path's own steps — the level and
//! filter from [`filter::choose_levels`], the wrapped indices and weights from [`wrap::linear`]
//! or [`wrap::nearest`] per lane and axis, softpipe's [`bilerp`] — so it gives the same bits; what
//! it leaves out is the per-lane dispatch (shape, offsets, taps, the level looked up for each
//! texel, the level chosen again for each pixel), and REPEAT and CLAMP_TO_EDGE get a bilinear
//! loop of their own with the wrap inlined. Traced samples take the general path, which records
//! the taps; `tests` below compare the two over many quads and states.

use super::filter::{self, bilerp, border_color};
use super::image::Dim;
use super::sample::{clamp_lambda, Control, Request};
use super::sampler::{Filter, SamplerState, Swizzle, TextureUnit, Wrap};
use super::wrap;

/// The level a λ chose last ([`one_level`] for a quad whose four lanes share it), kept by
/// `sample::Prepared` for one unit and sampler state: the choice depends on nothing else.
#[derive(Clone, Copy, Debug, Default)]
pub struct LevelCache {
    last: Option<(u32, Option<(u32, bool)>)>,
}

/// `rgba[channel][lane]` of the quad at the request's `s` and `t` (per lane), when this path
/// takes the quad; `None` sends it down the general path. `offsets` are the request's texel
/// offsets as the filters take them (`sample::lane_offsets`).
#[inline]
pub fn sample(
    unit: &TextureUnit,
    sampler: &SamplerState,
    req: &Request,
    offsets: [i32; 3],
    lambdas: [f32; 4],
    levels: &mut LevelCache,
) -> Option<[[f32; 4]; 4]> {
    if unit.texture.dim != Dim::D2
        || !sampler.normalized_coords
        || sampler.compare.is_some()
        || matches!(req.control, Control::Gather(_))
        || offsets != [0; 3]
    {
        return None;
    }
    let [s, t, ..] = &req.coords;
    let shared = lambdas.iter().all(|l| l.to_bits() == lambdas[0].to_bits());
    let chosen = match levels.last {
        Some((bits, chosen)) if shared && bits == lambdas[0].to_bits() => chosen,
        _ => {
            let chosen = one_level(unit, sampler, lambdas);
            if shared {
                levels.last = Some((lambdas[0].to_bits(), chosen));
            }
            chosen
        }
    };
    let (level, magnified) = chosen?;
    let texels = unit.texture.level(level)?;
    let (w, h, _) = unit.texture.level_size(level);
    let [wrap_s, wrap_t, _] = sampler.wrap;
    let border = border_color(unit, sampler);
    let read = |x: i32, y: i32| texels.value(x, y, 0).unwrap_or(border);
    let rgba = match filter::image_filter_for(unit, sampler, magnified) {
        Filter::Nearest => {
            let mut rgba = [[0f32; 4]; 4];
            for lane in 0..4 {
                let x = wrap::nearest(wrap_s, s[lane], w, 0);
                let y = wrap::nearest(wrap_t, t[lane], h, 0);
                let v = read(x, y);
                for c in 0..4 {
                    rgba[c][lane] = v[c];
                }
            }
            rgba
        }
        Filter::Linear => {
            // The common wrap modes get their own copy of the loop, their wrap inlined.
            let wrap = |mode: Wrap| move |c: f32, size: u32| wrap::linear(mode, c, size, 0);
            let size = [w, h];
            match [wrap_s, wrap_t] {
                [Wrap::Repeat, Wrap::Repeat] => {
                    let repeat = |c: f32, size: u32| wrap::linear(Wrap::Repeat, c, size, 0);
                    bilinear(read, size, [s, t], [repeat, repeat])
                }
                [Wrap::ClampToEdge, Wrap::ClampToEdge] => {
                    let clamp = |c: f32, size: u32| wrap::linear(Wrap::ClampToEdge, c, size, 0);
                    bilinear(read, size, [s, t], [clamp, clamp])
                }
                [a, b] => bilinear(read, size, [s, t], [wrap(a), wrap(b)]),
            }
        }
    };
    // Here rather than in `swizzle_channels`: the widget's engine (without this path) has no
    // bytes to spare for the check.
    if unit.view.swizzle == Swizzle::IDENTITY {
        return Some(rgba);
    }
    Some(unit.swizzle_channels(rgba, [0.0; 4], [unit.one(); 4]))
}

/// The level all four lanes read and whether it is magnified, or `None` when a lane blends
/// two levels or the lanes differ. The implicit LOD is one λ for the quad: then one choice.
#[inline]
fn one_level(unit: &TextureUnit, sampler: &SamplerState, lambdas: [f32; 4]) -> Option<(u32, bool)> {
    let choose = |lambda: f32| {
        let (levels, n, magnified) =
            filter::choose_levels(unit, sampler, clamp_lambda(sampler, lambda), false);
        (n == 1).then_some((levels[0].0, magnified))
    };
    let first = choose(lambdas[0])?;
    for &l in &lambdas[1..] {
        if l.to_bits() != lambdas[0].to_bits() && choose(l)? != first {
            return None;
        }
    }
    Some(first)
}

/// Bilinear filtering of four lanes at one level of a 2-D texture (`read`: its texel or the
/// border colour), lane by lane with the four channels together:
/// `lerp(wy, lerp(wx, t00, t10), lerp(wx, t01, t11))`.
#[inline]
fn bilinear<F: Fn(f32, u32) -> (i32, i32, f32)>(
    read: impl Fn(i32, i32) -> [f32; 4],
    [w, h]: [u32; 2],
    [s, t]: [&[f32; 4]; 2],
    [wrap_s, wrap_t]: [F; 2],
) -> [[f32; 4]; 4] {
    let mut rgba = [[0f32; 4]; 4];
    for lane in 0..4 {
        let (x0, x1, wx) = wrap_s(s[lane], w);
        let (y0, y1, wy) = wrap_t(t[lane], h);
        let color = bilerp(wx, wy, [read(x0, y0), read(x1, y0), read(x0, y1), read(x1, y1)]);
        for c in 0..4 {
            rgba[c][lane] = color[c];
        }
    }
    rgba
}

#[cfg(test)]
mod tests {
    use super::super::format::Format;
    use super::super::image::Texture;
    use super::super::sample::{lane_offsets, sample_quad, Request};
    use super::super::sampler::{MipFilter, Swizzle, WRAP_NAMES};
    use super::super::trace::SampleTrace;
    use super::*;

    /// xorshift64*: a seeded sequence, the same on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())]
        }
        fn unit(&mut self) -> f32 {
            (self.next() >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// Values where filtering and wrapping have their edge cases.
    const SPECIAL: [f32; 14] = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        1e-40,
        -1e-40,
        f32::MAX,
        -1e30,
        1.0,
        -1.0,
        0.5,
        0.999_999_94,
        2.000_000_2,
    ];

    /// Textures of several shapes: a mipmapped power-of-two RGBA8 one, a 3x5 float one holding
    /// special values, an integer one, and a single texel.
    fn textures(rng: &mut Rng) -> Vec<Texture> {
        let mut out = Vec::new();
        let mut rgba8 = Texture::new(Dim::D2, Format::Rgba8, 8, 8, 1, 1, 4).unwrap();
        for v in rgba8.levels[0].texels.iter_mut() {
            *v = [0; 4].map(|_| (rng.below(256) as f32 / 255.0).to_bits());
        }
        rgba8.generate_mipmaps(4);
        out.push(rgba8);
        let mut float = Texture::new(Dim::D2, Format::Rgba32F, 3, 5, 1, 1, 1).unwrap();
        for v in float.levels[0].texels.iter_mut() {
            *v = [0; 4].map(|_| {
                if rng.below(3) == 0 {
                    rng.pick(&SPECIAL).to_bits()
                } else {
                    (rng.unit() * 8.0 - 4.0).to_bits()
                }
            });
        }
        out.push(float);
        let mut int = Texture::new(Dim::D2, Format::Rgba32Ui, 4, 2, 1, 1, 2).unwrap();
        for v in int.levels.iter_mut().flat_map(|l| l.texels.iter_mut()) {
            *v = [0; 4].map(|_| rng.next() as u32);
        }
        out.push(int);
        let mut one = Texture::new(Dim::D2, Format::R32F, 1, 1, 1, 1, 1).unwrap();
        one.levels[0].texels[0] = [0.25f32.to_bits(), 0, 0, 1f32.to_bits()];
        out.push(one);
        out
    }

    fn sampler(rng: &mut Rng) -> SamplerState {
        let wraps: Vec<Wrap> = WRAP_NAMES.iter().map(|&(mode, _, _)| mode).collect();
        let s = rng.pick(&wraps);
        let t = if rng.below(2) == 0 { s } else { rng.pick(&wraps) };
        let filters = [Filter::Nearest, Filter::Linear];
        SamplerState {
            mag_filter: rng.pick(&filters),
            min_filter: rng.pick(&filters),
            mip_filter: rng.pick(&[MipFilter::None, MipFilter::Nearest, MipFilter::Linear]),
            wrap: [s, t, Wrap::Repeat],
            border_color: [0.25, 1.5, -0.5, f32::NAN],
            lod_bias: rng.pick(&[0.0, 0.0, 1.5, -2.0]),
            min_lod: rng.pick(&[-1000.0, 0.0, 1.0]),
            max_lod: rng.pick(&[1000.0, 0.0, 2.0]),
            ..SamplerState::default()
        }
    }

    /// A quad's coordinates: a base point and its neighbours one step apart (as a triangle
    /// gives them), with now and then a special value in a lane.
    fn coords(rng: &mut Rng) -> [[f32; 4]; 5] {
        let mut c = [[0f32; 4]; 5];
        for axis in 0..2 {
            let base = rng.unit() * 6.0 - 3.0;
            let step = rng.pick(&[0.0, 1.0 / 512.0, 1.0 / 64.0, 0.1, 1.0, -0.03]);
            let other = rng.pick(&[0.0, 1.0 / 256.0, 0.2]);
            let (dx, dy) = if axis == 0 { (step, other) } else { (other, step) };
            c[axis] = [base, base + dx, base + dy, base + dx + dy];
            if rng.below(4) == 0 {
                c[axis][rng.below(4)] = rng.pick(&SPECIAL);
            }
        }
        // The bias or explicit LOD.
        c[4] = [0; 4].map(|_| rng.pick(&[0.0, 0.5, 1.0, 2.5, -1.0, f32::NAN]));
        c
    }

    #[test]
    fn the_one_level_path_gives_the_general_paths_bits() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let controls =
            [Control::Implicit, Control::Implicit, Control::Bias, Control::Explicit, Control::Zero];
        let (mut taken, mut cases) = (0, 0);
        for texture in textures(&mut rng) {
            let mut unit = TextureUnit::new(texture, SamplerState::default());
            for _ in 0..3000 {
                let state = sampler(&mut rng);
                unit.view.swizzle = if rng.below(3) == 0 {
                    [Swizzle::B, Swizzle::One, Swizzle::R, Swizzle::Zero]
                } else {
                    Swizzle::IDENTITY
                };
                let req = Request::new(coords(&mut rng), rng.pick(&controls));
                let lambdas = super::super::sample::lambda_per_lane(&unit, &state, &req);
                let mut levels = LevelCache::default();
                let fast = sample(&unit, &state, &req, lane_offsets(&req), lambdas, &mut levels);
                // Again with the level the first call left in the cache: the same answer.
                let again = sample(&unit, &state, &req, lane_offsets(&req), lambdas, &mut levels);
                // A traced sample takes the general path.
                let general = sample_quad(&unit, &state, &req, Some(&mut SampleTrace::default()));
                let untraced = sample_quad(&unit, &state, &req, None);
                cases += 1;
                // A NaN in both may differ in payload and sign: which NaN an operation returns
                // when an operand is NaN and another invalid depends on the machine
                // instruction's operand order, which LLVM may commute differently in the two
                // paths (as between the interpreter's own paths, `exec::fast_vs_general`).
                let bits = |v: [[f32; 4]; 4]| {
                    v.map(|c| c.map(|x| if x.is_nan() { f32::NAN.to_bits() } else { x.to_bits() }))
                };
                assert_eq!(bits(untraced), bits(general), "{state:?} {req:?}");
                assert_eq!(fast.map(bits), again.map(bits), "{state:?} {req:?}");
                if let Some(fast) = fast {
                    taken += 1;
                    assert_eq!(bits(fast), bits(general), "{state:?} {req:?}");
                }
            }
        }
        // Most quads read one level (magnified, or without mipmaps), so the path is exercised.
        assert!(taken * 2 > cases, "the one-level path took {taken} of {cases} quads");
    }

    #[test]
    fn the_path_leaves_what_it_does_not_take_to_the_general_one() {
        let texture = Texture::new(Dim::D2, Format::Rgba8, 4, 4, 1, 1, 3).unwrap();
        let unit = TextureUnit::new(texture, SamplerState::default());
        let st = [[0.1, 0.2, 0.3, 0.4]; 2];
        let take = |state: &SamplerState, control: Control, offsets: [i8; 3], lambdas| {
            let mut req = Request::new([st[0], st[1], [0.0; 4], [0.0; 4], [0.0; 4]], control);
            req.offsets = offsets;
            sample(&unit, state, &req, lane_offsets(&req), lambdas, &mut LevelCache::default())
                .is_some()
        };
        let plain = SamplerState::default();
        assert!(take(&plain, Control::Implicit, [0; 3], [0.5; 4]));
        // Texel offsets, depth comparison, gathers.
        assert!(!take(&plain, Control::Implicit, [1, 0, 0], [0.5; 4]));
        let compare = SamplerState {
            compare: Some(super::super::sampler::CompareFunc::Less),
            ..SamplerState::default()
        };
        assert!(!take(&compare, Control::Implicit, [0; 3], [0.5; 4]));
        assert!(!take(&plain, Control::Gather(0), [0; 3], [0.5; 4]));
        // Two levels blended (linear mipmapping between levels 0 and 1), or lanes on two levels.
        let mip = SamplerState { mip_filter: MipFilter::Linear, ..SamplerState::default() };
        assert!(!take(&mip, Control::Implicit, [0; 3], [0.5; 4]));
        let nearest = SamplerState { mip_filter: MipFilter::Nearest, ..SamplerState::default() };
        assert!(take(&nearest, Control::Explicit, [0; 3], [1.0, 1.2, 0.9, 1.4]));
        assert!(!take(&nearest, Control::Explicit, [0; 3], [1.0, 1.2, 0.9, 1.6]));
    }
}
