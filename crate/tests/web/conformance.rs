//! Conformance with softpipe in the browser: the corpus shaders whose results go through SIN and
//! COS, rendered by the engine's interpreter compiled to wasm, give softpipe's `.f32` pixels bit
//! for bit (the engine computes SIN and COS itself, glibc's formula, `exec/ops/trig.rs`; the
//! wasm build's libm is another algorithm). The native test `conformance::softpipe_corpus`
//! checks the whole corpus.

use tgsi::render::job::{prepare, run, Request};
use tgsi::render::options::ConstValue;
use wasm_bindgen_test::*;

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

/// The `.json`'s constants (`"CONST[b][i]": {"raw": ["0x…", …]}`), bit for bit.
fn constants(json: &serde_json::Value) -> Vec<ConstValue> {
    let Some(consts) = json.get("consts").and_then(|c| c.as_object()) else { return Vec::new() };
    consts
        .iter()
        .map(|(name, v)| {
            let nums: Vec<u32> = name.split(['[', ']']).filter_map(|s| s.parse().ok()).collect();
            let (buffer, index) = match nums.as_slice() {
                [b, i] => (*b, *i),
                [i] => (0, *i),
                _ => panic!("constant name {name}"),
            };
            let mut bits = [0u32; 4];
            let raw = v["raw"].as_array().expect("raw bits");
            for (slot, r) in bits.iter_mut().zip(raw) {
                let hex = r.as_str().expect("hex").trim_start_matches("0x");
                *slot = u32::from_str_radix(hex, 16).expect("hex");
            }
            ConstValue { buffer, index, bits }
        })
        .collect()
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
            constants: constants(&json),
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
