//! Conformance with softpipe in the browser: the corpus shaders whose results go through SIN and
//! COS, rendered by the engine's interpreter compiled to wasm, give softpipe's `.f32` pixels bit
//! for bit (the engine computes SIN and COS itself, glibc's formula, `exec/ops/trig.rs`; the
//! wasm build's libm is another algorithm). The native test `conformance::softpipe_corpus`
//! checks the whole corpus.

use tgsi::render::job::{prepare, run, Request};
use wasm_bindgen_test::*;

#[path = "../shared/corpus_constants.rs"]
mod corpus_constants;
use corpus_constants::constants_of;

macro_rules! corpus_file {
    ($name:literal, $ext:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/softpipe/", $name, $ext)
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
fn sin_and_cos_shaders_give_softpipes_bits_in_the_browser() {
    let cases = [
        case!("03_trig"),
        case!("09_for_loop"),
        case!("17_derivatives"),
        case!("23_func_call"),
        case!("28_matrix"),
    ];
    for (name, fs, vs, json, f32s) in cases {
        let json: serde_json::Value = serde_json::from_str(json).expect("json");
        let (w, h) = (
            json["width"].as_u64().unwrap_or(64) as u32,
            json["height"].as_u64().unwrap_or(64) as u32,
        );
        let req = Request {
            fs,
            vs: Some(vs),
            mesh: Some("fullscreen"),
            width: w,
            height: h,
            constants: constants_of(&json),
            ..Request::default()
        };
        let (job, diags) = prepare(&req);
        let messages: Vec<&str> = diags.iter().map(|d| d.diagnostic.message.as_str()).collect();
        let job = job.unwrap_or_else(|| panic!("{name}: {messages:?}"));
        let out = run(&job, None, &mut tgsi::texture::bind::Bindings::new(), job.default_budget())
            .unwrap_or_else(|d| panic!("{name}: {}", d.diagnostic.message));
        let ours = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes());
        let theirs = tgsi::render::image_io::f32_pixels(f32s);
        assert_eq!(theirs.len(), (w * h) as usize, "{name}");
        let mut differ = 0;
        for y in 0..h {
            for x in 0..w {
                // Ours: row 0 = top. Mesa's: row 0 = bottom.
                let a = ours[(y * w + x) as usize];
                let b = theirs[((h - 1 - y) * w + x) as usize];
                differ += (0..4).filter(|&c| a[c].to_bits() != b[c].to_bits()).count();
            }
        }
        assert_eq!(differ, 0, "{name}: {differ} channels differ from softpipe's");
    }
}
