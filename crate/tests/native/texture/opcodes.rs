//! Texture opcodes written in TGSI, run on the interpreter over one quad with textures bound
//! through `texture::bind::Bindings`. Textures hold R32F values 100·level + x (2D) or
//! 1000·level + slice (cube arrays), so each expectation names the level and texel read.

use crate::support::compile;
use tgsi::exec::{Batch, Constants, Machine};
use tgsi::texture::bind::Bindings;
use tgsi::texture::sampler::{Filter, MipFilter, SamplerState, Wrap};
use tgsi::texture::{Dim, Format, Texture, TextureUnit};

fn r32f(
    dim: Dim,
    w: u32,
    h: u32,
    layers: u32,
    levels: u32,
    f: impl Fn(u32, u32, u32) -> f32,
) -> Texture {
    let mut t =
        Texture::new(dim, Format::R32F, w, h, 1, layers, levels).unwrap_or_else(|e| panic!("{e}"));
    for (l, level) in t.levels.iter_mut().enumerate() {
        let (lw, lh, ls) = (level.width, level.height, level.slices);
        for z in 0..ls {
            for y in 0..lh {
                for x in 0..lw {
                    level.set(x, y, z, [f(l as u32, x, z).to_bits(), 0, 0, 1f32.to_bits()]);
                }
            }
        }
    }
    t
}

fn sampler(mip: MipFilter) -> SamplerState {
    SamplerState {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mip_filter: mip,
        wrap: [Wrap::ClampToEdge; 3],
        ..SamplerState::default()
    }
}

/// 16×16, 5 levels, value 100·level + x; nearest everything.
fn mip2d() -> TextureUnit {
    TextureUnit::new(
        r32f(Dim::D2, 16, 16, 1, 5, |l, x, _| 100.0 * l as f32 + x as f32),
        sampler(MipFilter::Nearest),
    )
}

/// Runs `body` (instructions after the declarations) on one quad whose IN[0] lanes are `input`;
/// returns OUT[0] per lane.
fn run(decls: &str, body: &str, input: [[f32; 4]; 4], bindings: &mut Bindings) -> [[f32; 4]; 4] {
    let text = format!(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n{decls}\n{body}\nEND\n"
    );
    let parsed = tgsi::text::parse(&text);
    let shader = parsed.shader.unwrap_or_else(|| panic!("{text}\n{:?}", parsed.diagnostics));
    let program = compile(&shader).unwrap_or_else(|d| panic!("{}", d.message));
    let mut batch = Batch::new(&program, 1);
    batch.set_input_f32(0, 0, input);
    let mut machine = Machine::new();
    machine
        .run_with(&program, &mut batch, &Constants::new(), bindings)
        .unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
    [0, 1, 2, 3].map(|l| batch.output_f32(0, 0, l))
}

fn one(unit: u32, t: TextureUnit) -> Bindings {
    let mut b = Bindings::new();
    b.bind(unit, t);
    b
}

const S2D: &str = "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]";

#[test]
fn tex_takes_one_lod_per_quad_and_txb_adds_the_bias() {
    let mut b = one(0, mip2d());
    // s = 0, 1/8 across the quad (bottom row too): ρ = 1/8·16 = 2 → level 1 (8 wide):
    // texel ⌊s·8⌋ = 0, 1 → 100, 101. w = 1 as TXB bias → level 2 (4 wide): 200, 200
    let s = [0.0, 0.125, 0.0, 0.125];
    let input = [0, 1, 2, 3].map(|l| [s[l], 0.0, 0.0, 1.0]);
    let out = run(S2D, "TEX OUT[0], IN[0], SAMP[0], 2D", input, &mut b);
    assert_eq!(out.map(|p| p[0]), [100.0, 101.0, 100.0, 101.0]);
    let out = run(S2D, "TXB OUT[0], IN[0], SAMP[0], 2D", input, &mut b);
    assert_eq!(out.map(|p| p[0]), [200.0; 4]);
}

#[test]
fn txl_tex_lz_and_txp() {
    let mut t = mip2d();
    t.sampler.lod_bias = 1.0;
    let mut b = one(0, t);
    // TXL: LOD in w per lane (+ sampler bias 1): 0 → 1, 1 → 2, 2 → 3, 9 → 4 (last)
    let input = [0.0, 1.0, 2.0, 9.0].map(|lod| [0.0, 0.0, 0.0, lod]);
    let out = run(S2D, "TXL OUT[0], IN[0], SAMP[0], 2D", input, &mut b);
    assert_eq!(out.map(|p| p[0]), [100.0, 200.0, 300.0, 400.0]);
    // TEX_LZ: LOD 0 + sampler bias 1 → level 1; s = 0.5 → texel 4 → 104
    let out = run(S2D, "TEX_LZ OUT[0], IN[0], SAMP[0], 2D", [[0.5, 0.5, 0.0, 1.0]; 4], &mut b);
    assert_eq!(out[0][0], 104.0);
    // TXP: (s, t) / q with q = 4: s = 2/4 = 0.5; all lanes equal → λ = −127 + bias → mag, level 0
    let out = run(S2D, "TXP OUT[0], IN[0], SAMP[0], 2D", [[2.0, 2.0, 0.0, 4.0]; 4], &mut b);
    assert_eq!(out[0][0], 8.0);
}

#[test]
fn txd_takes_derivatives_per_lane() {
    let mut b = one(0, mip2d());
    // d/dx of s per lane in IN[0].x: 1/16, 1/8, 1/4, 1/2 → ρ = 1, 2, 4, 8 → levels 0..3 at s = 0
    let decls = format!("{S2D}\nDCL TEMP[1]\nIMM[0] FLT32 {{0.0, 0.0, 0.0, 0.0}}");
    let body = "MOV TEMP[0], IN[0].xwww\nMOV TEMP[1], IMM[0]\nTXD OUT[0], IMM[0], TEMP[0], TEMP[1], SAMP[0], 2D";
    let input = [1.0 / 16.0, 0.125, 0.25, 0.5].map(|d| [d, 0.0, 0.0, 0.0]);
    let out = run(&decls, body, input, &mut b);
    assert_eq!(out.map(|p| p[0]), [0.0, 100.0, 200.0, 300.0]);
}

#[test]
fn txf_txf_lz_and_txq() {
    let mut b = one(0, mip2d());
    let decls = format!("{S2D}\nIMM[0] INT32 {{3, 0, 0, 1}}");
    // TXF at (3, 0) with LOD 1 (lane 0's LOD for the quad): 103
    let out = run(&decls, "TXF OUT[0], IMM[0], SAMP[0], 2D", [[0.0; 4]; 4], &mut b);
    assert_eq!(out[0][0], 103.0);
    let out = run(&decls, "TXF_LZ OUT[0], IMM[0], SAMP[0], 2D", [[0.0; 4]; 4], &mut b);
    assert_eq!(out[0][0], 3.0);
    // TXQ of level 2: 4×4, 5 levels (integers)
    let decls = format!("{S2D}\nIMM[0] INT32 {{2, 0, 0, 0}}");
    let out =
        run(&decls, "TXQ TEMP[0], IMM[0], SAMP[0], 2D\nI2F OUT[0], TEMP[0]", [[0.0; 4]; 4], &mut b);
    assert_eq!(out[0], [4.0, 4.0, 0.0, 5.0]);
}

/// 2×2 cube array, 2 layers, 2 levels: value 1000·level + 6·layer + face.
fn cube_array() -> TextureUnit {
    TextureUnit::new(
        r32f(Dim::CubeArray, 2, 2, 2, 2, |l, _, z| 1000.0 * l as f32 + z as f32),
        sampler(MipFilter::Nearest),
    )
}

const SCA: &str =
    "DCL SAMP[0]\nDCL SVIEW[0], CUBEARRAY, FLOAT\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}";

#[test]
fn cube_array_with_tex_txl2_and_txb2() {
    let mut b = one(0, cube_array());
    // direction −Y, layer 1 (src0.w): slice 6 + 3 = 9
    let input = [[0.0, -1.0, 0.2, 1.0]; 4];
    let out = run(SCA, "TEX OUT[0], IN[0], SAMP[0], CUBEARRAY", input, &mut b);
    assert_eq!(out[0][0], 9.0);
    // TXL2: LOD in src1.x = 1 → level 1: 1009
    let out = run(SCA, "TXL2 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], CUBEARRAY", input, &mut b);
    assert_eq!(out[0][0], 1009.0);
    // TXB2: implicit λ −127 (same direction in all lanes) + 1 → still ≤ 0: level 0
    let out = run(SCA, "TXB2 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], CUBEARRAY", input, &mut b);
    assert_eq!(out[0][0], 9.0);
}

#[test]
fn shadow_targets_read_their_reference() {
    let depth = |dim: Dim, layers: u32| {
        let t = r32f(dim, 2, 2, layers, 1, |_, _, _| 0.5);
        let t = Texture { format: Format::Depth32F, ..t };
        let mut s = sampler(MipFilter::None);
        s.compare = Some(tgsi::texture::sampler::CompareFunc::LessEqual);
        TextureUnit::new(t, s)
    };
    // SHADOW2D: reference in src0.z: 0.25 ≤ 0.5 → 1; 0.75 → 0
    let mut b = one(0, depth(Dim::D2, 1));
    let d = "DCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT";
    let out = run(
        d,
        "TEX OUT[0], IN[0], SAMP[0], SHADOW2D",
        [
            [0.5, 0.5, 0.25, 0.0],
            [0.5, 0.5, 0.75, 0.0],
            [0.5, 0.5, 0.25, 0.0],
            [0.5, 0.5, 0.75, 0.0],
        ],
        &mut b,
    );
    assert_eq!(out.map(|p| p[0]), [1.0, 0.0, 1.0, 0.0]);
    assert_eq!(out[0], [1.0, 1.0, 1.0, 1.0]);
    // SHADOWCUBE: reference in src0.w
    let mut b = one(0, depth(Dim::Cube, 1));
    let d = "DCL SAMP[0]\nDCL SVIEW[0], SHADOWCUBE, FLOAT";
    let out = run(d, "TEX OUT[0], IN[0], SAMP[0], SHADOWCUBE", [[1.0, 0.0, 0.0, 0.75]; 4], &mut b);
    assert_eq!(out[0][0], 0.0);
}

#[test]
fn shadow_cube_array_reads_layer_and_reference() {
    let mut t = cube_array();
    t.sampler.compare = Some(tgsi::texture::sampler::CompareFunc::LessEqual);
    let mut b = one(0, t);
    // TEX2 SHADOWCUBEARRAY: direction + layer 1 in src0, reference in src1.x.
    // Texel of −Y in layer 1 is 9: 8.5 ≤ 9 → 1, 9.5 → 0
    let d = "DCL SAMP[0]\nDCL SVIEW[0], SHADOWCUBEARRAY, FLOAT\nIMM[0] FLT32 {8.5, 9.5, 0.0, 0.0}";
    let out = run(
        d,
        "TEX2 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], SHADOWCUBEARRAY",
        [[0.0, -1.0, 0.2, 1.0]; 4],
        &mut b,
    );
    assert_eq!(out[0][0], 1.0);
    let out = run(
        d,
        "TEX2 OUT[0], IN[0], IMM[0].yyyy, SAMP[0], SHADOWCUBEARRAY",
        [[0.0, -1.0, 0.2, 1.0]; 4],
        &mut b,
    );
    assert_eq!(out[0][0], 0.0);
}

/// Texel offsets come from lane 0 of the offset register of each quad (tgsi_exec.c
/// `exec_tex` reads lane 0, and its machine holds one quad), not from the batch's first
/// quad: a batch of two quads whose offset registers differ.
#[test]
fn texel_offsets_are_each_quads_own() {
    let mut b = one(0, mip2d());
    let text = format!(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n{S2D}\n\
         IMM[0] INT32 {{3, 0, 0, 0}}\nF2I TEMP[0], IN[0]\n\
         TXF OUT[0], IMM[0], SAMP[0], 2D, TEMP[0].xyz\nEND\n"
    );
    let shader = tgsi::text::parse(&text).shader.unwrap_or_else(|| panic!("{text}"));
    let program = compile(&shader).unwrap_or_else(|d| panic!("{}", d.message));
    let mut batch = Batch::new(&program, 2);
    // Quad 0: x offsets 1 (lane 0), 5, 5, 5; quad 1: 4 (lane 0), 0, 0, 0.
    batch.set_input_f32(0, 0, [[1.0, 0.0, 0.0, 0.0], [5.0, 0.0, 0.0, 0.0], [5.0; 4], [5.0; 4]]);
    batch.set_input_f32(0, 1, [[4.0, 0.0, 0.0, 0.0], [0.0; 4], [0.0; 4], [0.0; 4]]);
    Machine::new()
        .run_with(&program, &mut batch, &Constants::new(), &mut b)
        .unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
    // Level 0 texel (3 + offset, 0) holds 3 + offset: quad 0 every lane 4, quad 1 every lane 7.
    for l in 0..4 {
        assert_eq!(batch.output_f32(0, 0, l)[0], 4.0, "quad 0 lane {l}");
        assert_eq!(batch.output_f32(0, 1, l)[0], 7.0, "quad 1 lane {l}");
    }
}
