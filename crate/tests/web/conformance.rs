//! Conformance with softpipe in the browser: every corpus shader, rendered by the engine's
//! interpreter compiled to wasm with the case's constants and samplers (the native test
//! `conformance::softpipe_corpus` does the same natively), gives softpipe's `.f32` pixels bit
//! for bit. The ones that matter most here go through SIN, COS, EX2, LG2 and POW, which the
//! engine computes itself with glibc's formulas (`exec/ops/trig.rs`, `exec/ops/exp_log.rs`):
//! the wasm build's own libm is another algorithm, a last bit apart from softpipe's. The small
//! oracle cases of `tests/denormal-cases/` (a draw inside the view flushing denormals),
//! `tests/double-cases/` and `tests/int64-cases/` run here too.

use tgsi::render::job::{prepare, run};
use wasm_bindgen_test::*;

#[path = "../common/corpus_inputs.rs"]
mod corpus_inputs;
#[path = "../common/small_case.rs"]
mod small_case;
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

/// One 4x2 oracle case of `tests/denormal-cases/`, `tests/double-cases/` or `tests/int64-cases/`: name, fragment and
/// vertex shader, constants, vertices (None: the `fullscreen` mesh) and softpipe's pixels.
type SmallCase =
    (&'static str, &'static str, &'static str, &'static str, Option<&'static str>, &'static [u8]);

macro_rules! small_case {
    ($dir:literal, $name:literal, $vertices:expr) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../tests/",
                $dir,
                "/",
                $name,
                ".tgsi"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../tests/",
                $dir,
                "/",
                $name,
                ".vs.tgsi"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../tests/",
                $dir,
                "/",
                $name,
                ".json"
            )),
            $vertices,
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../tests/",
                $dir,
                "/",
                $name,
                ".f32"
            ))
            .as_slice(),
        )
    };
}

/// Renders each case in the browser's engine and compares every channel with softpipe's bits,
/// except the `skips` (case, column, channel) that must differ (the native tests' lists).
fn small_cases_match(cases: &[SmallCase], skips: &[(&str, usize, usize)]) {
    for &(name, fs, vs, json, vertices, f32s) in cases {
        let json: serde_json::Value = serde_json::from_str(json).expect("json");
        let req = tgsi::render::job::Request {
            fs,
            vs: Some(vs),
            mesh: if vertices.is_some() { None } else { Some("fullscreen") },
            vertices,
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
        let differing = small_case::differing_channels(&ours, &theirs);
        for y in 0..2 {
            for x in 0..4 {
                for c in 0..4 {
                    let skipped = skips.contains(&(name, x, c));
                    let found = differing.iter().find(|d| (d.0, d.1, d.2) == (x, y, c));
                    assert_eq!(
                        found.is_some(),
                        skipped,
                        "{name}: column {x} row {y} channel {c}: (ours, softpipe) {:x?}",
                        found.map(|d| (d.3, d.4))
                    );
                }
            }
        }
    }
}

/// Softpipe's denormal flushing in a fragment shader drawn as a quad inside the view (shaded
/// inside the draw call, docs/interpreter.md "Denormals"), in the browser: `fsq_*` oracle cases
/// of `tests/denormal-cases/`, bit for bit (the native `denormals` tests run them all, with
/// both engines).
#[wasm_bindgen_test]
fn fragment_shaders_of_a_draw_inside_the_view_flush_denormals_in_the_browser() {
    macro_rules! quad {
        ($name:literal) => {
            small_case!(
                "denormal-cases",
                $name,
                Some(include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../tests/denormal-cases/",
                    $name,
                    ".vertices.json"
                )))
            )
        };
    }
    small_cases_match(
        &[
            quad!("fsq_arith"),
            quad!("fsq_compare"),
            quad!("fsq_pow_trig"),
            quad!("fsq_transcendental"),
            quad!("fsq_underflow"),
            small_case!("denormal-cases", "fs_underflow", None),
        ],
        &[],
    );
}

/// The double-precision oracle cases of `tests/double-cases/` in the browser, bit for bit (the
/// native `doubles` tests run them with both engines; softpipe leaves DTRUNC's destination
/// unwritten, so two channels of `convert` must differ, as there).
#[wasm_bindgen_test]
fn double_precision_cases_give_softpipes_bits_in_the_browser() {
    macro_rules! double {
        ($name:literal) => {
            small_case!("double-cases", $name, None)
        };
    }
    small_cases_match(
        &[
            double!("add_mul"),
            double!("compare"),
            double!("convert"),
            double!("fma_mad"),
            double!("fract_sign"),
            double!("ldexp_frexp"),
            double!("min_max"),
            double!("mod_mix"),
            double!("rcp_abs"),
            double!("round"),
            double!("sqrt_rsq"),
            double!("sub_div"),
        ],
        &[("convert", 0, 1), ("convert", 2, 1)],
    );
}

/// The 64-bit integer oracle cases of `tests/int64-cases/` in the browser, bit for bit (the
/// native `int64s` tests run the same).
#[wasm_bindgen_test]
fn int64_cases_give_softpipes_bits_in_the_browser() {
    macro_rules! int64 {
        ($name:literal) => {
            small_case!("int64-cases", $name, None)
        };
    }
    small_cases_match(
        &[
            int64!("add_mul"),
            int64!("sub_neg"),
            int64!("div_mod"),
            int64!("udiv_umod"),
            int64!("shifts"),
            int64!("ushift"),
            int64!("compare"),
            int64!("min_max"),
            int64!("abs_sign"),
            int64!("convert"),
            int64!("to_float"),
        ],
        &[],
    );
}
