//! What a softpipe corpus case binds besides its shaders: the constants of its `.json`, bit for
//! bit, and its samplers with the oracle's texture. Shared by the native tests and the
//! browser's (`#[path]`), which render the same cases.

use tgsi::render::job::Request;
use tgsi::render::options::ConstValue;
use tgsi::texture::bind::Bindings;
use tgsi::texture::desc::apply_options;
use tgsi::texture::desc_image::RgbaImage;
use tgsi::texture::{SamplerState, TextureUnit};

/// The constants of a case's `.json` (`"CONST[b][i]": {"raw": ["0x…", …]}`, or `"CONST[i]"`
/// for buffer 0).
pub fn constants_of(json: &serde_json::Value) -> Vec<ConstValue> {
    let mut out = Vec::new();
    let Some(consts) = json.get("consts").and_then(|c| c.as_object()) else { return out };
    for (name, v) in consts {
        // "CONST[b][i]"
        let nums: Vec<u32> = name
            .trim_start_matches("CONST")
            .split(['[', ']'])
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        let (buffer, index) = match nums.as_slice() {
            [b, i] => (*b, *i),
            [i] => (0, *i),
            _ => panic!("unexpected constant name {}", name),
        };
        let raw = v.get("raw").and_then(|r| r.as_array()).expect("raw bits");
        let mut bits = [0u32; 4];
        for (slot, r) in bits.iter_mut().zip(raw) {
            let s = r.as_str().expect("hex string");
            *slot = u32::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex");
        }
        out.push(ConstValue { buffer, index, bits });
    }
    out
}

/// The oracle's 4x4 RGBA8 texture (`tests/corpus/README.md`): texel (i, j) = (85·i, 85·j,
/// 255·((i ^ j) & 1), 255) with j = 0 the bottom row, bound to every `SAMP[n]` the `.json`
/// lists, with its filter and wrap mode.
pub fn corpus_textures(json: &serde_json::Value) -> Bindings {
    let mut rgba = Vec::new();
    for row in 0..4u32 {
        let j = 3 - row; // image rows are stored top first
        for i in 0..4u32 {
            rgba.extend_from_slice(&[
                (85 * i) as u8,
                (85 * j) as u8,
                (255 * ((i ^ j) & 1)) as u8,
                255,
            ]);
        }
    }
    let image = RgbaImage { width: 4, height: 4, rgba };
    let mut bindings = Bindings::new();
    let Some(samplers) = json.get("samplers").and_then(|s| s.as_object()) else { return bindings };
    for (name, s) in samplers {
        // Bound to the shader's SAMP index (the key), not the GL texture unit ("unit").
        let unit: u32 =
            name.trim_start_matches("SAMP[").trim_end_matches(']').parse().expect("SAMP[n]");
        let filter = s["filter"].as_str().unwrap_or("LINEAR").to_ascii_lowercase();
        let wrap = s["wrap"].as_str().unwrap_or("REPEAT").to_ascii_lowercase();
        let mut tu =
            TextureUnit::new(image.to_texture().expect("4x4 texture"), SamplerState::default());
        apply_options(&mut tu, &[filter.as_str(), wrap.as_str()]).expect("sampler options");
        bindings.bind(unit, tu);
    }
    bindings
}

/// The render request of a corpus case: its shaders on the `fullscreen` mesh, at the size and
/// with the constants of its `.json` (64x64 when it gives none).
pub fn corpus_request<'a>(fs: &'a str, vs: &'a str, json: &serde_json::Value) -> Request<'a> {
    Request {
        fs,
        vs: Some(vs),
        mesh: Some("fullscreen"),
        width: json["width"].as_u64().unwrap_or(64) as u32,
        height: json["height"].as_u64().unwrap_or(64) as u32,
        constants: constants_of(json),
        ..Request::default()
    }
}
