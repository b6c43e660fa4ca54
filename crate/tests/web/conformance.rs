//! Conformance with softpipe in the browser: every corpus shader, rendered by the engine's
//! interpreter compiled to wasm with the case's constants and samplers (the native test
//! `conformance::softpipe_corpus` does the same natively), gives softpipe's `.f32` pixels bit
//! for bit. The ones that matter most here go through SIN, COS, EX2, LG2 and POW, which the
//! engine computes itself with glibc's formulas (`exec/ops/trig.rs`, `exec/ops/exp_log.rs`):
//! the wasm build's own libm is another algorithm, a last bit apart from softpipe's.

use tgsi::render::job::{prepare, run};
use wasm_bindgen_test::*;

#[path = "../common/corpus_inputs.rs"]
mod corpus_inputs;
use corpus_inputs::{corpus_request, corpus_textures};

macro_rules! corpus_file {
    ($name:literal, $ext:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/softpipe/", $name, $ext)
    };
}

macro_rules! case {
    ($name:literal) => {
        (
            $name,
            include_str!(corpus_file!($name, ".tgsi")),
            include_str!(corpus_file!($name, ".vs.tgsi")),
            include_str!(corpus_file!($name, ".json")),
            include_bytes!(corpus_file!($name, ".f32")).as_slice(),
        )
    };
}

#[wasm_bindgen_test]
fn corpus_shaders_give_softpipes_bits_in_the_browser() {
    let cases = [
        case!("00_inputs"),
        case!("01_arith"),
        case!("02_minmax_clamp_mix"),
        case!("03_trig"),
        case!("04_exp_log_pow"),
        case!("06_rounding"),
        case!("07_compare_select"),
        case!("08_if_else"),
        case!("09_for_loop"),
        case!("11_while_dynamic"),
        case!("12_int_arith"),
        case!("13_uint_arith"),
        case!("14_bit_ops"),
        case!("16_float_bits"),
        case!("17_derivatives"),
        case!("19_discard"),
        case!("20_tex_nearest"),
        case!("21_tex_linear"),
        case!("23_func_call"),
        case!("24_fragcoord"),
        case!("25_uniforms"),
        case!("26_mandelbrot"),
        case!("28_matrix"),
        case!("29_swizzle_writemask"),
        case!("32_bool_logic"),
    ];
    for (name, fs, vs, json, f32s) in cases {
        let json: serde_json::Value = serde_json::from_str(json).expect("json");
        let req = corpus_request(fs, vs, &json);
        let (w, h) = (req.width, req.height);
        let (job, diags) = prepare(&req);
        let messages: Vec<&str> = diags.iter().map(|d| d.diagnostic.message.as_str()).collect();
        let job = job.unwrap_or_else(|| panic!("{name}: {messages:?}"));
        let out = run(&job, None, &mut corpus_textures(&json), job.default_budget())
            .unwrap_or_else(|d| panic!("{name}: {}", d.diagnostic.message));
        let ours = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes());
        let theirs = tgsi::render::image_io::f32_pixels(f32s);
        assert_eq!(theirs.len(), (w * h) as usize, "{name}");
        // Every differing channel: (x, y from the bottom, channel, our bits, softpipe's bits).
        let mut differ = Vec::new();
        for y in 0..h {
            for x in 0..w {
                // Ours: row 0 = top. Mesa's: row 0 = bottom.
                let a = ours[(y * w + x) as usize];
                let b = theirs[((h - 1 - y) * w + x) as usize];
                for c in 0..4 {
                    if a[c].to_bits() != b[c].to_bits() {
                        let bits = (a[c].to_bits(), b[c].to_bits());
                        differ.push(format!(
                            "({x}, {}, {c}: {:#x} vs {:#x})",
                            h - 1 - y,
                            bits.0,
                            bits.1
                        ));
                    }
                }
            }
        }
        let first: Vec<&String> = differ.iter().take(8).collect();
        assert!(
            differ.is_empty(),
            "{name}: {} channels differ from softpipe's: {first:?}",
            differ.len()
        );
    }
}

macro_rules! denormal_file {
    ($name:literal, $ext:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/denormal-cases/", $name, $ext)
    };
}

macro_rules! denormal_case {
    ($name:literal) => {
        (
            $name,
            include_str!(denormal_file!($name, ".tgsi")),
            include_str!(denormal_file!($name, ".vs.tgsi")),
            include_str!(denormal_file!($name, ".json")),
            include_str!(denormal_file!($name, ".vertices.json")),
            include_bytes!(denormal_file!($name, ".f32")).as_slice(),
        )
    };
}

/// Softpipe's denormal flushing in a fragment shader drawn as a quad inside the view (shaded
/// inside the draw call, docs/interpreter.md "Denormals"), in the browser: the `fsq_*` oracle
/// cases of `tests/denormal-cases/`, bit for bit (the native `denormals` tests run them all,
/// with both engines).
#[wasm_bindgen_test]
fn fragment_shaders_of_a_draw_inside_the_view_flush_denormals_in_the_browser() {
    let cases = [
        denormal_case!("fsq_arith"),
        denormal_case!("fsq_compare"),
        denormal_case!("fsq_pow_trig"),
        denormal_case!("fsq_transcendental"),
        denormal_case!("fsq_underflow"),
    ];
    for (name, fs, vs, json, vertices, f32s) in cases {
        let json: serde_json::Value = serde_json::from_str(json).expect("json");
        let req = tgsi::render::job::Request {
            fs,
            vs: Some(vs),
            vertices: Some(vertices),
            width: 4,
            height: 2,
            constants: corpus_inputs::constants_of(&json),
            ..Default::default()
        };
        let (job, diags) = prepare(&req);
        let job = job.unwrap_or_else(|| panic!("{name}: {:?}", diags.first()));
        let out = run(&job, None, &mut tgsi::texture::bind::Bindings::new(), job.default_budget())
            .unwrap_or_else(|d| panic!("{name}: {}", d.diagnostic.message));
        let ours = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes());
        let theirs = tgsi::render::image_io::f32_pixels(f32s);
        for y in 0..2 {
            for x in 0..4 {
                // Ours: row 0 = top. Mesa's: row 0 = bottom.
                let (a, b) = (ours[y * 4 + x], theirs[(1 - y) * 4 + x]);
                assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "{name}: column {x} row {y}");
            }
        }
    }
}
