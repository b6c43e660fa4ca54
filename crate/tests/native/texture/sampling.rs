//! Hand-computed sampling expectations for every target, LOD rule and offset, plus hostile
//! input. Textures hold R32F values that are exact binary fractions, so every expected value
//! below is worked out in the comments next to it.

use tgsi::ir::TextureTarget;
use tgsi::texture::bind::Bindings;
use tgsi::texture::fetch;
use tgsi::texture::sample::{gather_component, query_lod, sample_quad, Control, Request};
use tgsi::texture::sampler::{CompareFunc, Filter, MipFilter, SamplerState, Wrap};
use tgsi::texture::trace::{LodSource, SampleTrace};
use tgsi::texture::{Dim, Format, Texture, TextureUnit};

const Z: [f32; 4] = [0.0; 4];

/// An R32F texture whose texel (level, x, y, slice) holds `f(level, x, y, slice)`.
fn r32f(
    dim: Dim,
    w: u32,
    h: u32,
    d: u32,
    layers: u32,
    levels: u32,
    f: impl Fn(u32, u32, u32, u32) -> f32,
) -> Texture {
    let mut t =
        Texture::new(dim, Format::R32F, w, h, d, layers, levels).unwrap_or_else(|e| panic!("{e}"));
    for (l, level) in t.levels.iter_mut().enumerate() {
        let (lw, lh, ls) = (level.width, level.height, level.slices);
        for z in 0..ls {
            for y in 0..lh {
                for x in 0..lw {
                    level.set(x, y, z, [f(l as u32, x, y, z).to_bits(), 0, 0, 1f32.to_bits()]);
                }
            }
        }
    }
    t
}

fn nearest() -> SamplerState {
    SamplerState {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        ..SamplerState::default()
    }
}

/// Red channel of a sample where all four lanes use the same coordinates (λ = −127: mag).
fn red_at(u: &TextureUnit, c: [f32; 5], control: Control) -> f32 {
    let coords = c.map(|v| [v; 4]);
    sample_quad(u, &u.sampler, &Request::new(coords, control), None)[0][0]
}

#[test]
fn target_1d_nearest_and_linear() {
    let mut u = TextureUnit::new(r32f(Dim::D1, 4, 1, 1, 1, 1, |_, x, _, _| x as f32), nearest());
    // s = 0.6 → 0.6·4 = 2.4 → texel 2
    assert_eq!(red_at(&u, [0.6, 0.0, 0.0, 0.0, 0.0], Control::Implicit), 2.0);
    u.sampler.mag_filter = Filter::Linear;
    // s = 0.5 → u = 2 − 0.5 = 1.5 → texels 1, 2 at weight 0.5 → 1.5
    assert_eq!(red_at(&u, [0.5, 0.0, 0.0, 0.0, 0.0], Control::Implicit), 1.5);
}

#[test]
fn target_1d_array_layer_from_t() {
    let u = TextureUnit::new(
        r32f(Dim::D1Array, 2, 1, 1, 3, 1, |_, x, _, z| 10.0 * z as f32 + x as f32),
        nearest(),
    );
    // s = 0.75 → texel 1; layer round(1.6) = 2 → 21
    assert_eq!(red_at(&u, [0.75, 1.6, 0.0, 0.0, 0.0], Control::Implicit), 21.0);
}

#[test]
fn target_2d_array_layer_rounds_and_clamps() {
    let u = TextureUnit::new(
        r32f(Dim::D2Array, 1, 1, 1, 3, 1, |_, _, _, z| 10.0 * (z + 1) as f32),
        nearest(),
    );
    let layer = |r: f32| red_at(&u, [0.5, 0.5, r, 0.0, 0.0], Control::Implicit);
    assert_eq!(layer(1.49), 20.0); // floor(1.99) = 1
    assert_eq!(layer(1.5), 30.0); // floor(2.0) = 2
    assert_eq!(layer(-3.0), 10.0); // clamped to 0
    assert_eq!(layer(1e9), 30.0); // clamped to 2
    assert_eq!(layer(f32::NAN), 10.0); // NaN floors to 0 (defined here, UB in C)
}

#[test]
fn target_3d_trilinear_centre_is_mean() {
    let mut u = TextureUnit::new(
        r32f(Dim::D3, 2, 2, 2, 1, 1, |_, x, y, z| (x + 2 * y + 4 * z) as f32),
        nearest(),
    );
    u.sampler.mag_filter = Filter::Linear;
    // centre (0.5, 0.5, 0.5): every axis weight 0.5 → mean of 0..7 = 3.5
    assert_eq!(red_at(&u, [0.5, 0.5, 0.5, 0.0, 0.0], Control::Implicit), 3.5);
    // nearest at r = 0.9 → slice 1: x = 0, y = 0 → 4
    u.sampler.mag_filter = Filter::Nearest;
    assert_eq!(red_at(&u, [0.1, 0.1, 0.9, 0.0, 0.0], Control::Implicit), 4.0);
}

#[test]
fn target_cube_faces_and_cube_array_layers() {
    let u =
        TextureUnit::new(r32f(Dim::Cube, 2, 2, 1, 1, 1, |_, _, _, face| face as f32), nearest());
    let dirs = [
        [1.0, 0.2, 0.1],
        [-1.0, 0.2, 0.1],
        [0.1, 1.0, 0.2],
        [0.1, -1.0, 0.2],
        [0.1, 0.2, 1.0],
        [0.1, 0.2, -1.0],
    ];
    for (face, d) in dirs.iter().enumerate() {
        assert_eq!(
            red_at(&u, [d[0], d[1], d[2], 0.0, 0.0], Control::Implicit),
            face as f32,
            "{d:?}"
        );
    }
    // cube array: layer from c0, slice = 6·layer + face
    let a = TextureUnit::new(r32f(Dim::CubeArray, 2, 2, 1, 2, 1, |_, _, _, s| s as f32), nearest());
    assert_eq!(red_at(&a, [0.0, -1.0, 0.2, 1.0, 0.0], Control::Implicit), 9.0); // 6 + 3 (−Y)
    assert_eq!(red_at(&a, [0.0, -1.0, 0.2, 7.0, 0.0], Control::Implicit), 9.0); // layer clamped to 1
}

#[test]
fn target_rect_uses_texel_coordinates() {
    let u = TextureUnit::new(
        r32f(Dim::Rect, 4, 2, 1, 1, 1, |_, x, y, _| (x + 10 * y) as f32),
        nearest(),
    );
    assert!(!u.sampler.normalized_coords);
    // (2.5, 1.5) → texel (2, 1) → 12; beyond the edge clamps: (9, −3) → (3, 0) → 3
    assert_eq!(red_at(&u, [2.5, 1.5, 0.0, 0.0, 0.0], Control::Implicit), 12.0);
    assert_eq!(red_at(&u, [9.0, -3.0, 0.0, 0.0, 0.0], Control::Implicit), 3.0);
}

#[test]
fn target_buffer_fetch_and_size() {
    let u =
        TextureUnit::new(r32f(Dim::Buffer, 5, 1, 1, 1, 1, |_, x, _, _| x as f32 * 2.0), nearest());
    let r = fetch::fetch_quad(&u, [0, 4, 9, -9], Z.map(|_| 0), [0; 4], [3; 4], [0; 3]);
    // clamped to 0..4; the LOD is ignored for buffers
    assert_eq!(r[0].map(f32::from_bits), [0.0, 8.0, 8.0, 0.0]);
    assert_eq!(fetch::dims(&u, 0), [5, 0, 0, 1]);
}

#[test]
fn msaa_single_sample_answers_consistently() {
    let u = TextureUnit::new(
        r32f(Dim::D2Msaa, 2, 2, 1, 1, 1, |_, x, y, _| (1 + x + 2 * y) as f32),
        nearest(),
    );
    // SAMPLE_I_MS: sample 0 reads the texel, other samples read zeros
    let r = fetch::fetch_quad(&u, [1; 4], [1; 4], [0; 4], [0, 1, 3, 0], [0; 3]);
    assert_eq!(r[0].map(f32::from_bits), [4.0, 0.0, 0.0, 4.0]);
    assert_eq!(fetch::sample_count(&u), 1);
    assert_eq!(fetch::sample_position(0), [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(fetch::sample_position(3), [0.0; 4]);
}

/// 16×16, 5 levels, texel value = 100·level + x (so the level shows in the hundreds).
fn mip_unit(mip: MipFilter) -> TextureUnit {
    let mut s = nearest();
    s.mip_filter = mip;
    s.wrap = [Wrap::ClampToEdge; 3];
    TextureUnit::new(r32f(Dim::D2, 16, 16, 1, 1, 5, |l, x, _, _| 100.0 * l as f32 + x as f32), s)
}

#[test]
fn implicit_lod_from_the_quad() {
    let u = mip_unit(MipFilter::Nearest);
    // s changes by 1/8 per pixel along the bottom row: ρ = 1/8 · 16 = 2 → λ = 1 → level 1.
    // s = 0.0 / 0.125: level 1 is 8 wide → texels 0 and 1 → 100, 101
    let s = [0.0, 0.125, 0.0, 0.125];
    let out = sample_quad(&u, &u.sampler, &Request::new([s, Z, Z, Z, Z], Control::Implicit), None);
    assert_eq!(out[0], [100.0, 101.0, 100.0, 101.0]);
    // TXB +1: λ = 2 → level 2 (4 wide): s = 0.125 → texel 0 → 200
    let bias = [1.0; 4];
    let out = sample_quad(&u, &u.sampler, &Request::new([s, Z, Z, Z, bias], Control::Bias), None);
    assert_eq!(out[0], [200.0, 200.0, 200.0, 200.0]);
}

#[test]
fn explicit_lod_nearest_and_linear_mip() {
    let u = mip_unit(MipFilter::Nearest);
    // (int)(2.6 + 0.5) = 3 → level 3; s = 0 → texel 0 → 300
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 2.6], Control::Explicit), 300.0);
    // (int)(2.5 + 0.5) = 3 as well (GL would pick 2 at exactly .5)
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 2.5], Control::Explicit), 300.0);
    let u = mip_unit(MipFilter::Linear);
    // 2.25 → levels 2 and 3 blended 0.25: 200 + 0.25·(300 − 200) = 225
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 2.25], Control::Explicit), 225.0);
    // past the last level: level 4 only
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 9.0], Control::Explicit), 400.0);
}

#[test]
fn sampler_lod_range_bias_and_base_level() {
    let mut u = mip_unit(MipFilter::Nearest);
    u.sampler.max_lod = 1.0;
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 3.0], Control::Explicit), 100.0); // clamped to 1
    u.sampler.max_lod = 1000.0;
    u.sampler.lod_bias = 2.0;
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 1.0], Control::Explicit), 300.0); // 1 + 2
                                                                                 // TEX_LZ: λ = sampler bias = 2 → level 2
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 0.0], Control::Zero), 200.0);
    u.sampler.lod_bias = 0.0;
    // view base level 1: LOD 0 reads level 1; TXQ level 0 reports level 1's size
    u.view.first_level = 1;
    u.normalize_view();
    assert_eq!(red_at(&u, [0.0, 0.0, 0.0, 0.0, 0.0], Control::Explicit), 100.0);
    assert_eq!(fetch::dims(&u, 0), [8, 8, 0, 4]);
}

#[test]
fn magnification_uses_the_mag_filter() {
    let mut u = mip_unit(MipFilter::None);
    u.sampler.mag_filter = Filter::Linear;
    u.sampler.min_filter = Filter::Nearest;
    // LOD −1 (≤ 0): linear mag at s = 0.5 on 16 texels: u = 7.5 → 7.5
    assert_eq!(red_at(&u, [0.5, 0.5, 0.0, 0.0, -1.0], Control::Explicit), 7.5);
    // LOD 1 (> 0, no mipmaps): nearest min at level 0: floor(8) = 8
    assert_eq!(red_at(&u, [0.5, 0.5, 0.0, 0.0, 1.0], Control::Explicit), 8.0);
}

#[test]
fn txd_lod_per_lane_versus_tex_per_quad() {
    let u = mip_unit(MipFilter::Nearest);
    // TXD: d/dx of s per lane = 1/16, 1/8, 1/4, 1/2 → ρ = 1, 2, 4, 8 → levels 0..3
    let mut req = Request::new([Z; 5], Control::Gradients);
    req.derivs[0][0] = [1.0 / 16.0, 0.125, 0.25, 0.5];
    req.target = Some(TextureTarget::Tex2D);
    let mut trace = SampleTrace::default();
    let out = sample_quad(&u, &u.sampler, &req, Some(&mut trace));
    assert_eq!(out[0], [0.0, 100.0, 200.0, 300.0]);
    assert_eq!(trace.lod_source, LodSource::Gradients);
    assert_eq!(trace.lanes.clone().map(|l| l.levels[0].level), [0, 1, 2, 3]);
    // the wording quoted in docs/textures.md
    assert_eq!(
        trace.describe()[1],
        "pixel 1: λ 1 from this pixel's explicit derivatives → LOD 1: level 1 ×1 (texels (0,0) ×1) → (100, 0, 0, 1)"
    );
    // TEX over the same lanes: one λ for the quad (bottom row difference only)
    let s = [0.0, 0.0, 0.0, 0.25]; // lane 3 − lane 2 = 1/4 → ρ = 4 → level 2 for all
    let mut trace = SampleTrace::default();
    let out = sample_quad(
        &u,
        &u.sampler,
        &Request::new([s, Z, Z, Z, Z], Control::Implicit),
        Some(&mut trace),
    );
    assert_eq!(out[0], [200.0, 200.0, 200.0, 201.0]);
    assert_eq!(trace.lod_source, LodSource::Implicit);
    assert!(trace.lanes.iter().all(|l| l.lod == 2.0 && l.levels[0].taps.len() == 1));
}

#[test]
fn txd_coordinate_form_must_match_and_offsets_are_4_bit() {
    let vol = TextureUnit::new(r32f(Dim::D3, 2, 2, 2, 1, 1, |_, _, _, _| 5.0), nearest());
    let mut req = Request::new([[0.5; 4]; 5], Control::Gradients);
    req.target = Some(TextureTarget::Tex2D);
    let mut trace = SampleTrace::default();
    assert_eq!(sample_quad(&vol, &vol.sampler, &req, Some(&mut trace)), [[0.0; 4]; 4]);
    assert!(trace.mismatch.is_some());
    // array forms may be used with non-array textures when the dimension matches
    let flat = TextureUnit::new(r32f(Dim::D2, 16, 1, 1, 1, 1, |_, x, _, _| x as f32), nearest());
    req.target = Some(TextureTarget::Array2D);
    // offset 9 = 0b1001 → −7 in 4 bits: s = 0.5 → texel 8 − 7 = 1
    req.offsets = [9, 0, 0];
    assert_eq!(sample_quad(&flat, &flat.sampler, &req, None)[0][0], 1.0);
    // TEX uses the offset as given: texel 8 + 3 = 11
    let mut tex = Request::new([[0.5; 4]; 5], Control::Implicit);
    tex.offsets = [3, 0, 0];
    assert_eq!(sample_quad(&flat, &flat.sampler, &tex, None)[0][0], 11.0);
}

#[test]
fn texel_offsets_on_fetch_and_linear() {
    let mut u =
        TextureUnit::new(r32f(Dim::D2, 4, 4, 1, 1, 1, |_, x, y, _| (x + 10 * y) as f32), nearest());
    // TXF (1, 1) + offset (1, −1) = (2, 0) → 2
    let r = fetch::fetch_quad(&u, [1; 4], [1; 4], [0; 4], [0; 4], [1, -1, 0]);
    assert_eq!(f32::from_bits(r[0][0]), 2.0);
    // linear repeat with offset 1 in x: s = 0.25 → u = 0.5 → texels 0, 1 shifted to 1, 2 → 1.5
    u.sampler.mag_filter = Filter::Linear;
    u.sampler.wrap = [Wrap::Repeat, Wrap::ClampToEdge, Wrap::Repeat];
    let mut req = Request::new([[0.25; 4], [0.0; 4], Z, Z, Z], Control::Implicit);
    req.offsets = [1, 0, 0];
    assert_eq!(sample_quad(&u, &u.sampler, &req, None)[0][0], 1.5);
}

#[test]
fn shadow_reference_comes_from_the_right_component() {
    let mut s = nearest();
    s.compare = Some(CompareFunc::LessEqual);
    let depth = |dim: Dim, layers: u32| {
        let mut t = Texture::new(dim, Format::Depth32F, 2, 2, 1, layers, 1)
            .unwrap_or_else(|e| panic!("{e}"));
        for l in t.levels.iter_mut() {
            for v in l.texels.iter_mut() {
                *v = [0.5f32.to_bits(), 0, 0, 1f32.to_bits()];
            }
        }
        TextureUnit::new(t, s)
    };
    // 2D: ref in r. 0.25 ≤ 0.5 → 1; 0.75 → 0; result (k, k, k, 1)
    let d2 = depth(Dim::D2, 1);
    assert_eq!(red_at(&d2, [0.5, 0.5, 0.25, 0.9, 0.9], Control::Implicit), 1.0);
    assert_eq!(red_at(&d2, [0.5, 0.5, 0.75, 0.0, 0.0], Control::Implicit), 0.0);
    // 2D array and cube: ref in c0
    let arr = depth(Dim::D2Array, 2);
    assert_eq!(red_at(&arr, [0.5, 0.5, 1.0, 0.25, 0.9], Control::Implicit), 1.0);
    let cube = depth(Dim::Cube, 1);
    assert_eq!(red_at(&cube, [1.0, 0.0, 0.0, 0.75, 0.0], Control::Implicit), 0.0);
    // cube array: ref in c1
    let ca = depth(Dim::CubeArray, 1);
    assert_eq!(red_at(&ca, [1.0, 0.0, 0.0, 0.0, 0.25], Control::Implicit), 1.0);
    let full = sample_quad(
        &d2,
        &d2.sampler,
        &Request::new([[0.5; 4], [0.5; 4], [0.25; 4], Z, Z], Control::Implicit),
        None,
    );
    assert_eq!([full[0][0], full[1][0], full[2][0], full[3][0]], [1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn gather_order_and_view_swizzle() {
    // 2×2: bottom row 1, 2; top row 3, 4. Gather at the centre returns (i0 j1, i1 j1, i1 j0,
    // i0 j0) = (3, 4, 2, 1).
    let mut u = TextureUnit::new(
        r32f(Dim::D2, 2, 2, 1, 1, 1, |_, x, y, _| (1 + x + 2 * y) as f32),
        nearest(),
    );
    let out = sample_quad(
        &u,
        &u.sampler,
        &Request::new([[0.5; 4], [0.5; 4], Z, Z, Z], Control::Gather(0)),
        None,
    );
    assert_eq!([out[0][0], out[1][0], out[2][0], out[3][0]], [3.0, 4.0, 2.0, 1.0]);
    // gathering component 3 (alpha) of R32F gives the format's 1
    let out = sample_quad(
        &u,
        &u.sampler,
        &Request::new([[0.5; 4], [0.5; 4], Z, Z, Z], Control::Gather(3)),
        None,
    );
    assert_eq!(out[0][0], 1.0);
    // view swizzle (A, ZERO, R, ONE) on a filtered sample of texel value 1
    u.view.swizzle = [
        tgsi::texture::sampler::Swizzle::A,
        tgsi::texture::sampler::Swizzle::Zero,
        tgsi::texture::sampler::Swizzle::R,
        tgsi::texture::sampler::Swizzle::One,
    ];
    let out = sample_quad(
        &u,
        &u.sampler,
        &Request::new([[0.25; 4], [0.25; 4], Z, Z, Z], Control::Implicit),
        None,
    );
    assert_eq!([out[0][0], out[1][0], out[2][0], out[3][0]], [1.0, 0.0, 1.0, 1.0]);
}

#[test]
fn lodq_reports_used_level_and_lambda() {
    let mut u = mip_unit(MipFilter::Linear);
    u.sampler.lod_bias = 0.5;
    // ρ = 1/8·16 = 2 → λ = 1, + bias 0.5 = 1.5
    let s = [0.0, 0.125, 0.0, 0.125];
    let r = query_lod(&u, &u.sampler, &[s, Z, Z, Z, Z]);
    assert_eq!((r[0][0], r[1][0]), (1.5, 1.5));
    u.sampler.mip_filter = MipFilter::Nearest;
    assert_eq!(query_lod(&u, &u.sampler, &[s, Z, Z, Z, Z])[0][0], 2.0); // (int)(1.5 + 0.5)
}

#[test]
fn hostile_inputs_give_defined_results() {
    let hostile =
        [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e30, -1e30, f32::MAX, f32::MIN_POSITIVE];
    for dim in [
        Dim::D1,
        Dim::D2,
        Dim::D3,
        Dim::Cube,
        Dim::Rect,
        Dim::D1Array,
        Dim::D2Array,
        Dim::CubeArray,
    ] {
        let w = 4;
        for mip in [MipFilter::None, MipFilter::Nearest, MipFilter::Linear] {
            for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::ClampToBorder, Wrap::MirroredRepeat]
            {
                let mut s = nearest();
                s.mag_filter = Filter::Linear;
                s.min_filter = Filter::Linear;
                s.mip_filter = mip;
                s.wrap = [wrap; 3];
                let u = TextureUnit::new(r32f(dim, w, w, w, 3, 3, |l, x, _, _| (l + x) as f32), s);
                for &v in &hostile {
                    for control in [
                        Control::Implicit,
                        Control::Bias,
                        Control::Explicit,
                        Control::Gradients,
                        Control::Gather(2),
                    ] {
                        let mut req = Request::new([[v, 0.5, v, 0.25]; 5], control);
                        req.derivs = [[[v; 4]; 2]; 3];
                        req.offsets = [-128, 127, 5];
                        let _ =
                            sample_quad(&u, &u.sampler, &req, Some(&mut SampleTrace::default()));
                    }
                    let _ = query_lod(&u, &u.sampler, &[[v; 4]; 5]);
                }
                let big = [i32::MIN, i32::MAX, -1, 1 << 30];
                let _ = fetch::fetch_quad(&u, big, big, big, big, [-128, 127, -128]);
                for level in [i32::MIN, -1, 2, 3, i32::MAX] {
                    let _ = fetch::dims(&u, level);
                }
            }
        }
    }
    // huge LOD ranges with a non-zero base level
    let mut u = mip_unit(MipFilter::Nearest);
    u.view.first_level = 1;
    u.sampler.max_lod = f32::MAX;
    u.sampler.min_lod = -f32::MAX;
    u.normalize_view();
    for mip in [MipFilter::Nearest, MipFilter::Linear, MipFilter::None] {
        u.sampler.mip_filter = mip;
        for lod in [f32::MAX, -f32::MAX, 1e30, f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
            assert!(red_at(&u, [0.0, 0.0, 0.0, 0.0, lod], Control::Explicit).is_finite());
            let _ =
                sample_quad(&u, &u.sampler, &Request::new([[lod; 4]; 5], Control::Gather(0)), None);
        }
    }
    // unbound units answer zeros
    let mut b = Bindings::new();
    assert_eq!(b.sample(7, 7, &Request::new([Z; 5], Control::Implicit)), [[0.0; 4]; 4]);
    assert_eq!(b.get_dims(3, 0), [0; 4]);
    assert_eq!(b.get_texel(3, [0; 4], [0; 4], [0; 4], [0; 4], [0; 3]), [[0; 4]; 4]);
}

#[test]
fn bindings_take_sampler_state_from_the_sampler_index() {
    // SAMPLE with SVIEW[0] and SAMP[1]: the texture of unit 0 with unit 1's linear filter
    let mut b = Bindings::new();
    b.bind(0, TextureUnit::new(r32f(Dim::D1, 2, 1, 1, 1, 1, |_, x, _, _| x as f32), nearest()));
    let linear = SamplerState { wrap: [Wrap::ClampToEdge; 3], ..SamplerState::default() };
    b.bind(1, TextureUnit::new(r32f(Dim::D1, 1, 1, 1, 1, 1, |_, _, _, _| 9.0), linear));
    let coords = [[0.5; 4], Z, Z, Z, Z];
    // nearest on unit 0: s = 0.5 → texel 1; with sampler 1 (linear): u = 0.5 → 0.5
    assert_eq!(b.sample(0, 0, &Request::new(coords, Control::Implicit))[0][0], 1.0);
    assert_eq!(b.sample(0, 1, &Request::new(coords, Control::Implicit))[0][0], 0.5);
    // traces are recorded up to the limit
    b.record_traces(1);
    let _ = b.sample(0, 0, &Request::new(coords, Control::Implicit));
    let _ = b.sample(0, 0, &Request::new(coords, Control::Implicit));
    assert_eq!(b.trace.as_ref().map(Vec::len), Some(1));
    assert_eq!(gather_component([f32::from_bits(2), 0.0, 0.0, 0.0]), 2);
}
