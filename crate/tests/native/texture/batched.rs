//! The interpreter samples [`SAMPLE_BATCH`] quads at a time (`TextureHooks::get_samples_batch`),
//! and `Bindings` answers a batch from one prepared unit per run of quads naming the same view
//! and sampler (its λ shape and last mip level worked out once). Over batches of quads at
//! different scales (so that neighbouring quads share their λ, or do not), several units and
//! samplers, an indirect sampler index changing from quad to quad and an unbound index, every
//! sampling opcode must give what sampling the quads one by one gives, bit for bit.

use crate::support::{compile, Asked};
use tgsi::exec::{Batch, Constants, Machine, TextureHooks, SAMPLE_BATCH};
use tgsi::texture::bind::Bindings;
use tgsi::texture::sampler::{Filter, MipFilter, SamplerState, Wrap};
use tgsi::texture::{Dim, Format, Texture, TextureUnit};

/// Units 0–2 (unit 3 is left unbound): a mipmapped RGBA8 picture with trilinear filtering and
/// REPEAT, the same picture with nearest filtering and CLAMP_TO_EDGE, and a 5×3 float texture
/// with linear filtering and MIRRORED_REPEAT.
fn bindings() -> Bindings {
    let mut picture = Texture::new(Dim::D2, Format::Rgba8, 32, 32, 1, 1, 6).unwrap();
    let mut seed = 0x2545_f491_u32;
    for v in picture.levels[0].texels.iter_mut() {
        *v = [0; 4].map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            ((seed % 256) as f32 / 255.0).to_bits()
        });
    }
    picture.generate_mipmaps(6);
    let mut float = Texture::new(Dim::D2, Format::Rgba32F, 5, 3, 1, 1, 1).unwrap();
    for (i, v) in float.levels[0].texels.iter_mut().enumerate() {
        *v = [i as f32 * 0.75 - 3.0, 1.0 / (i as f32 + 0.5), -(i as f32), 2.0].map(f32::to_bits);
    }
    let state = |filter: Filter, mip: MipFilter, wrap: Wrap| SamplerState {
        mag_filter: filter,
        min_filter: filter,
        mip_filter: mip,
        wrap: [wrap; 3],
        ..SamplerState::default()
    };
    let mut b = Bindings::new();
    b.bind(
        0,
        TextureUnit::new(picture.clone(), state(Filter::Linear, MipFilter::Linear, Wrap::Repeat)),
    );
    b.bind(
        1,
        TextureUnit::new(picture, state(Filter::Nearest, MipFilter::Nearest, Wrap::ClampToEdge)),
    );
    b.bind(
        2,
        TextureUnit::new(float, state(Filter::Linear, MipFilter::None, Wrap::MirroredRepeat)),
    );
    b
}

/// Quad `q`'s IN[0] (s, t, r, q/bias/lod per lane) and IN[1] (its unit index in x): a 2×2
/// footprint at a scale that stays the same for five quads at a time, so that some neighbours
/// share their λ and some do not.
fn inputs(q: usize) -> ([[f32; 4]; 4], [[f32; 4]; 4]) {
    let scale = [1.0 / 64.0, 1.0 / 16.0, 0.3, 1.0 / 128.0, 2.0][(q / 5) % 5];
    let (x, y) = ((q % 7) as f32 * 0.13 - 0.2, (q / 7) as f32 * 0.11);
    let lanes = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)];
    let lod = [0.0, 1.5, -0.5, 3.0][q % 4];
    let coords = lanes.map(|(dx, dy)| [x + dx * scale, y + dy * scale, 0.25, lod + dx]);
    let unit = [0.0, 0.0, 1.0, 2.0, 3.0, 1.0][q % 6];
    (coords, [[unit, 0.0, 0.0, 0.0]; 4])
}

/// Runs `body` over `nq` quads with the given hooks; OUT[0]'s bits, quad by quad.
fn run(body: &str, nq: usize, hooks: &mut dyn TextureHooks) -> Vec<[[u32; 4]; 4]> {
    let text = format!(
        "FRAG\nDCL IN[0..1], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0..3]\n\
         DCL SVIEW[0..3], 2D, FLOAT\nDCL TEMP[0..1]\nDCL ADDR[0]\n{body}\nEND\n"
    );
    let shader = tgsi::text::parse(&text).shader.unwrap_or_else(|| panic!("{text}"));
    let program = compile(&shader).unwrap_or_else(|d| panic!("{text}\n{}", d.message));
    let mut batch = Batch::new(&program, nq);
    for q in 0..nq {
        let (coords, unit) = inputs(q);
        batch.set_input_f32(0, q, coords);
        batch.set_input_f32(1, q, unit);
    }
    Machine::new()
        .run_with(&program, &mut batch, &Constants::new(), hooks)
        .unwrap_or_else(|e| panic!("{text}\n{}", e.diagnostic.message));
    (0..nq).map(|q| [0, 1, 2, 3].map(|l| batch.output_f32(0, q, l).map(f32::to_bits))).collect()
}

#[test]
fn sampling_a_batch_at_once_gives_each_quads_own_samples() {
    let indirect = "F2U TEMP[1].x, IN[1].xxxx\nUARL ADDR[0].x, TEMP[1].xxxx\n";
    let bodies = [
        "TEX OUT[0], IN[0], SAMP[0], 2D".to_string(),
        "TXB OUT[0], IN[0], SAMP[0], 2D".to_string(),
        "TXL OUT[0], IN[0], SAMP[0], 2D".to_string(),
        "TXP OUT[0], IN[0], SAMP[2], 2D".to_string(),
        "TXD OUT[0], IN[0], IN[0].wwww, IN[0].zwzw, SAMP[0], 2D".to_string(),
        "TG4 OUT[0], IN[0], IN[1].yyyy, SAMP[1], 2D".to_string(),
        "TEX OUT[0], IN[0], SAMP[1], 2D".to_string(),
        format!("{indirect}TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D"),
        format!("{indirect}TXL OUT[0], IN[0], SAMP[ADDR[0].x], 2D"),
        // The SAMPLE family: view and sampler apart (view 0 read with unit 1's sampler state).
        "SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[1]".to_string(),
        "SAMPLE_L OUT[0], IN[0], SVIEW[2], SAMP[0], IN[0].wwww".to_string(),
        format!("{indirect}SAMPLE OUT[0], IN[0], SVIEW[ADDR[0].x], SAMP[0]"),
    ];
    // Three batches (the last one short) and a batch of one quad.
    for nq in [2 * SAMPLE_BATCH + 7, 1] {
        for body in &bodies {
            let batched = run(body, nq, &mut bindings());
            // The same bindings, answering quad by quad (the trait's own way).
            let mut one_by_one = Asked { quad_by_quad: true, ..Asked::new(bindings()) };
            let one_by_one = run(body, nq, &mut one_by_one);
            assert_eq!(batched, one_by_one, "{body} over {nq} quads");
            // Something was sampled: not every quad's colour is zero.
            assert!(
                batched.iter().any(|quad| quad.iter().flatten().any(|&bits| bits != 0)),
                "{body}: nothing was sampled"
            );
        }
    }
}
