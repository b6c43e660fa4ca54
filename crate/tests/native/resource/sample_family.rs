//! The SAMPLE family, GATHER4 and the view queries on the interpreter with textures bound
//! through `texture::bind::Bindings`. The texture holds R32F values 100·level + x, so each
//! expectation names the level and texel read (nearest filtering, clamp to edge).

use crate::support::compile;
use tgsi::exec::{Batch, Constants, Machine};
use tgsi::texture::bind::Bindings;
use tgsi::texture::sampler::{CompareFunc, Filter, MipFilter, SamplerState, Wrap};
use tgsi::texture::{Dim, Format, Texture, TextureUnit};

fn mip2d(compare: Option<CompareFunc>) -> TextureUnit {
    let mut t =
        Texture::new(Dim::D2, Format::R32F, 16, 16, 1, 1, 5).unwrap_or_else(|e| panic!("{e}"));
    for (l, level) in t.levels.iter_mut().enumerate() {
        let (w, h) = (level.width, level.height);
        for y in 0..h {
            for x in 0..w {
                level.set(x, y, 0, [(100.0 * l as f32 + x as f32).to_bits(), 0, 0, 1f32.to_bits()]);
            }
        }
    }
    let s = SamplerState {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mip_filter: MipFilter::Nearest,
        wrap: [Wrap::ClampToEdge; 3],
        compare,
        ..SamplerState::default()
    };
    TextureUnit::new(t, s)
}

fn run(decls: &str, body: &str, input: [[f32; 4]; 4], b: &mut Bindings) -> [[f32; 4]; 4] {
    let text = format!(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n{decls}\n{body}\nEND\n"
    );
    let parsed = tgsi::text::parse(&text);
    let shader = parsed.shader.unwrap_or_else(|| panic!("{text}\n{:?}", parsed.diagnostics));
    let program = compile(&shader).unwrap_or_else(|d| panic!("{}", d.message));
    let mut batch = Batch::new(&program, 1);
    batch.set_input_f32(0, 0, input);
    Machine::new()
        .run_with(&program, &mut batch, &Constants::new(), b)
        .unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
    [0, 1, 2, 3].map(|l| batch.output_f32(0, 0, l))
}

const D: &str =
    "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] FLT32 {2.0, 1.0, 0.25, 0.0}";

/// Texel x = 3 of every level: s = 3.5 / 16 at level 0, and the same texel fraction higher up
/// clamps to the level's width.
const AT_3: [[f32; 4]; 4] = [[3.5 / 16.0, 0.5, 0.0, 0.0]; 4];

#[test]
fn sample_l_and_sample_b_choose_levels() {
    let mut b = Bindings::new();
    b.bind(0, mip2d(None));
    // SAMPLE_L with LOD 2: level 2 is 4 wide; s·4 = 0.875 → texel 0: 200
    let out = run(D, "SAMPLE_L OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx", AT_3, &mut b);
    assert_eq!(out[0][0], 200.0);
    // SAMPLE: all lanes equal → λ ≤ 0 → level 0, texel 3
    let out = run(D, "SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]", AT_3, &mut b);
    assert_eq!(out[0][0], 3.0);
    // SAMPLE_B: equal coordinates in the quad give λ = log2(0) = −∞; −∞ + 1 is still level 0
    let out = run(D, "SAMPLE_B OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].yyyy", AT_3, &mut b);
    assert_eq!(out[0][0], 3.0);
    // SAMPLE_D with d/dx = (2/16, 0): λ = log2(2) = 1 → level 1 (8 wide): s·8 = 1.75 → 101
    let decls = format!("{D}\nIMM[1] FLT32 {{0.125, 0.0, 0.0, 0.0}}");
    let out =
        run(&decls, "SAMPLE_D OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[1], IMM[0].wwww", AT_3, &mut b);
    assert_eq!(out[0][0], 101.0);
}

#[test]
fn sample_swizzles_by_the_view_operand() {
    let mut b = Bindings::new();
    b.bind(0, mip2d(None));
    // R32F reads (v, 0, 0, 1); SVIEW[0].wxyz gives (1, v, 0, 0)
    let out = run(D, "SAMPLE OUT[0], IN[0], SVIEW[0].wxyz, SAMP[0]", AT_3, &mut b);
    assert_eq!(out[0], [1.0, 3.0, 0.0, 0.0]);
}

#[test]
fn sample_c_compares_with_src3() {
    let mut b = Bindings::new();
    b.bind(0, mip2d(Some(CompareFunc::LessEqual)));
    // Texel 3 holds 3.0: reference 2.0 ≤ 3 → 1; reference 4.0 → 0
    let decls = format!("{D}\nIMM[1] FLT32 {{4.0, 0.0, 0.0, 0.0}}");
    let out = run(&decls, "SAMPLE_C OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx", AT_3, &mut b);
    assert_eq!(out[0][0], 1.0);
    let out =
        run(&decls, "SAMPLE_C_LZ OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[1].xxxx", AT_3, &mut b);
    assert_eq!(out[0][0], 0.0);
}

#[test]
fn sample_i_sviewinfo_txqs_sample_info_and_pos() {
    let mut b = Bindings::new();
    b.bind(0, mip2d(None));
    let decls = "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] INT32 {5, 0, 0, 1}\nIMM[1] INT32 {9, 0, 0, 0}";
    // SAMPLE_I at (5, 0), level 1: 105
    let out = run(decls, "SAMPLE_I OUT[0], IMM[0], SVIEW[0]", [[0.0; 4]; 4], &mut b);
    assert_eq!(out[0][0], 105.0);
    // SVIEWINFO level 1: 8×8, 5 levels; level 9 is out of range: sizes 0, still 5 levels
    let out = run(
        decls,
        "SVIEWINFO TEMP[0], IMM[0].wwww, SVIEW[0]\nU2F OUT[0], TEMP[0]",
        [[0.0; 4]; 4],
        &mut b,
    );
    assert_eq!(out[0], [8.0, 8.0, 0.0, 5.0]);
    let out = run(
        decls,
        "SVIEWINFO TEMP[0], IMM[1].xxxx, SVIEW[0]\nU2F OUT[0], TEMP[0]",
        [[0.0; 4]; 4],
        &mut b,
    );
    assert_eq!(out[0], [0.0, 0.0, 0.0, 5.0]);
    // One sample per texel; the render target's single sample sits at the centre.
    let out = run(
        decls,
        "TXQS TEMP[0].x, SAMP[0], 2D\nU2F OUT[0].x, TEMP[0].xxxx",
        [[0.0; 4]; 4],
        &mut b,
    );
    assert_eq!(out[0][0], 1.0);
    let out = run(
        decls,
        "SAMPLE_INFO TEMP[0], SVIEW[0], IMM[0].yyyy\nU2F OUT[0], TEMP[0]",
        [[0.0; 4]; 4],
        &mut b,
    );
    assert_eq!(out[0], [1.0, 0.0, 0.0, 0.0]);
    let out = run(decls, "SAMPLE_POS OUT[0], TEMP[0], IMM[0].yyyy", [[0.0; 4]; 4], &mut b);
    assert_eq!(out[0], [0.5, 0.5, 0.0, 0.0]);
}

#[test]
fn gather4_takes_its_component_from_the_view_swizzle() {
    let mut t =
        Texture::new(Dim::D2, Format::Rgba32F, 2, 2, 1, 1, 1).unwrap_or_else(|e| panic!("{e}"));
    // texel (x, y) = (x + 2y, 10 + x + 2y, 20 + …, 30 + …)
    for y in 0..2u32 {
        for x in 0..2u32 {
            let v = (x + 2 * y) as f32;
            t.levels[0].set(x, y, 0, [v, 10.0 + v, 20.0 + v, 30.0 + v].map(f32::to_bits));
        }
    }
    let s = SamplerState { wrap: [Wrap::ClampToEdge; 3], ..SamplerState::default() };
    let mut b = Bindings::new();
    b.bind(0, TextureUnit::new(t, s));
    // At the centre the 2×2 footprint is the whole texture; tgsi.rst order (−,+), (+,+), (+,−),
    // (−,−) = texels (0,1), (1,1), (1,0), (0,0).
    let centre = [[0.5, 0.5, 0.0, 0.0]; 4];
    let out = run(D, "GATHER4 OUT[0], IN[0], SVIEW[0], SAMP[0]", centre, &mut b);
    assert_eq!(out[0], [2.0, 3.0, 1.0, 0.0]);
    let out = run(D, "GATHER4 OUT[0], IN[0], SVIEW[0].yyyy, SAMP[0]", centre, &mut b);
    assert_eq!(out[0], [12.0, 13.0, 11.0, 10.0]);
}

#[test]
fn lod_matches_lodq() {
    let mut b = Bindings::new();
    b.bind(0, mip2d(None));
    // Neighbouring pixels 2 texels apart in s: λ = log2(2) = 1, nearest mip → level 1.
    let quad = [
        [0.0, 0.0, 0.0, 0.0],
        [0.125, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [0.125, 0.0, 0.0, 0.0],
    ];
    let lod = run(D, "LOD OUT[0], IN[0], SVIEW[0], SAMP[0]", quad, &mut b);
    let lodq = run(D, "LODQ OUT[0], IN[0], SAMP[0], 2D", quad, &mut b);
    assert_eq!(lod, lodq);
    assert_eq!(lod[0][..2], [1.0, 1.0]);
}

/// SAMPLE_C on a 2D-array view: three coordinates (s, t, layer), so the reference src3.x goes
/// to c0, not r (exec_sample's switch by coordinate count). A 4x4 R32F array of two layers
/// holding 10·layer + x; lane 0 at texel x = 1 of layer 1 (value 11), nearest.
#[test]
fn sample_c_on_an_array_puts_the_reference_after_the_layer() {
    let mut t =
        Texture::new(Dim::D2Array, Format::R32F, 4, 4, 1, 2, 1).unwrap_or_else(|e| panic!("{e}"));
    for level in t.levels.iter_mut() {
        for z in 0..level.slices {
            for y in 0..level.height {
                for x in 0..level.width {
                    let v = 10.0 * z as f32 + x as f32;
                    level.set(x, y, z, [v.to_bits(), 0, 0, 1f32.to_bits()]);
                }
            }
        }
    }
    let s = SamplerState {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mip_filter: MipFilter::None,
        wrap: [Wrap::ClampToEdge; 3],
        compare: Some(CompareFunc::LessEqual),
        ..SamplerState::default()
    };
    let mut b = Bindings::new();
    b.bind(0, TextureUnit::new(t, s));
    let decls = "DCL SAMP[0]\nDCL SVIEW[0], 2D_ARRAY, FLOAT\nIMM[0] FLT32 {10.5, 12.0, 0.0, 0.0}";
    // s = 1.5 / 4 → x = 1, layer 1: texel 11. Reference 10.5 ≤ 11 → 1; reference 12 → 0 (a
    // reference read from r or c1 instead would be t = 0.5 or 0, both ≤ 11 → 1).
    let at = [[1.5 / 4.0, 0.5, 1.0, 0.0]; 4];
    let out = run(decls, "SAMPLE_C OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx", at, &mut b);
    assert_eq!(out[0][0], 1.0);
    let out = run(decls, "SAMPLE_C OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].yyyy", at, &mut b);
    assert_eq!(out[0][0], 0.0);
}
