//! Browser tests of the stage selector's wasm calls (`crate/src/wasm/stages.rs`) and the render
//! options for targets and geometry (`crate/src/wasm/render.rs`). Expected values are worked out
//! by hand from the shaders written here.

use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn json(v: JsValue) -> Value {
    let text: String = js_sys::JSON::stringify(&v).map(String::from).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

fn options(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
}

/// A Uint8Array as JSON (`{"0": b0, "1": b1, …}`) back to its bytes.
fn bytes(v: &Value) -> Vec<u8> {
    let obj = v.as_object().cloned().unwrap_or_default();
    (0..obj.len())
        .map(|i| obj.get(&i.to_string()).and_then(Value::as_u64).unwrap_or(999) as u8)
        .collect()
}

fn words(v: &Value) -> Vec<u32> {
    bytes(v).chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn codes(v: &Value) -> Vec<String> {
    v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Each of 2 blocks × 4 invocations stores `3 · global id + 1` into word `global id` of
/// BUFFER[0] and adds 1 to counter HWATOMIC[0][0], so BUFFER[0] = 1, 4, 7, …, 22 and the
/// counter ends at 8 (from its initial 0).
const CS: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL HWATOMIC[0][0]
DCL TEMP[0..1]
IMM[0] UINT32 {4, 3, 1, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMAD TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].zzzz
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx
ATOMUADD TEMP[1].x, HWATOMIC[0][0], IMM[0].wwww, IMM[0].zzzz
END
";

#[wasm_bindgen_test]
fn compute_writes_buffers_and_counters() {
    let v = json(tgsi::wasm::page::compute(
        CS,
        options(
            r#"{"grid": [2, 1, 1], "buffers": [{"index": 0, "bytes": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0]}], "atomics": [{"index": 0, "bytes": [0,0,0,0]}]}"#,
        ),
    ));
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    assert_eq!(words(&v["buffers"][0]["bytes"]), (0..8).map(|i| 3 * i + 1).collect::<Vec<u32>>());
    assert_eq!(words(&v["atomics"][0]["bytes"]), [8]);
    // The block came from CS_FIXED_BLOCK_WIDTH.
    assert_eq!(bytes(&v["block"]).len(), 3, "{}", v);
}

/// An image binds with its format: R32_UINT 2×2, every texel written by invocation (x, y) as
/// x + 2y + 5.
#[wasm_bindgen_test]
fn compute_writes_images() {
    let cs = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 2\nPROPERTY CS_FIXED_BLOCK_HEIGHT 2\nDCL SV[0], THREAD_ID\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL TEMP[0]\nIMM[0] UINT32 {2, 5, 0, 0}\nUMAD TEMP[0].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nSTORE IMAGE[0].x, SV[0].xyyy, TEMP[0].xxxx\nEND\n";
    let v = json(tgsi::wasm::page::compute(
        cs,
        options(
            r#"{"images": [{"index": 0, "format": "R32_UINT", "width": 2, "height": 2, "depth": 1}]}"#,
        ),
    ));
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    assert_eq!(v["images"][0]["format"], "R32_UINT");
    assert_eq!(words(&v["images"][0]["bytes"]), [5, 6, 7, 8]);
}

/// Without a budget a dispatch gets the default for its size (`limits::default_frame_budget`):
/// one invocation is ceil(1 / 4) = 1 quad, max(1 x 2^15, 2^20) = 2^20 = 1048576.
#[wasm_bindgen_test]
fn compute_default_budget_is_per_quad() {
    let endless = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nBGNLOOP\nENDLOOP\nEND\n";
    let v = json(tgsi::wasm::page::compute(endless, JsValue::NULL));
    let stop =
        v["diagnostics"].as_array().and_then(|l| l.iter().find(|d| d["code"] == "X005").cloned());
    let stop = stop.unwrap_or_else(|| panic!("no X005 in {}", v));
    let message = stop["message"].as_str().unwrap_or_default();
    assert!(message.contains("stopped after 1048576 instructions of work"), "{}", message);
}

/// Bad input never throws: an endless loop stops at the budget (X005) with its place in the text;
/// a fragment shader is not a compute shader (R100); an unknown image format is an R009.
#[wasm_bindgen_test]
fn compute_reports_problems_as_diagnostics() {
    let endless = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL TEMP[0]\nBGNLOOP\nUADD TEMP[0].x, TEMP[0].xxxx, TEMP[0].xxxx\nENDLOOP\nEND\n";
    let v = json(tgsi::wasm::page::compute(endless, options(r#"{"budget": 1000}"#)));
    assert_eq!(v["ok"], Value::Bool(false));
    let stop =
        v["diagnostics"].as_array().and_then(|l| l.iter().find(|d| d["code"] == "X005").cloned());
    let stop = stop.unwrap_or_else(|| panic!("no X005 in {}", v));
    assert_eq!(stop["source"], "compute");
    assert!(stop["line"].as_u64().unwrap_or(0) >= 4, "{}", stop);

    let fs = "FRAG\nDCL OUT[0], COLOR\nEND\n";
    assert!(codes(&json(tgsi::wasm::page::compute(fs, JsValue::NULL))).contains(&"R100".into()));
    let bad = json(tgsi::wasm::page::compute(
        CS,
        options(r#"{"images": [{"index": 0, "format": "R3_UINT", "width": 1, "height": 1}]}"#),
    ));
    assert_eq!(bad["ok"], Value::Bool(false));
    assert!(codes(&bad).contains(&"R009".into()), "{}", bad);
}

/// The geometry shader emits one strip of 4 vertices per input triangle, at the corners
/// (−1, −1), (1, −1), (−1, 1), (1, 1); the fullscreen mesh is one triangle.
const GS: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 4
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 {-1.0, 1.0, 0.0, 0.25}
IMM[1] INT32 {0, 0, 0, 0}
MOV OUT[1], IMM[0].wwwy
MOV OUT[0], IMM[0].xxzy
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].yxzy
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].xyzy
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].yyzy
EMIT IMM[1].xxxx
END
";
const FS: &str =
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";

#[wasm_bindgen_test]
fn geometry_primitives_lists_what_the_shader_emitted() {
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"gs".into(), &GS.into());
    let _ = js_sys::Reflect::set(&opts, &"width".into(), &4.into());
    let _ = js_sys::Reflect::set(&opts, &"height".into(), &4.into());
    let v = json(tgsi::wasm::page::geometry_primitives(FS, None, opts.clone().into()));
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    assert_eq!(v["inputPrimitives"], 1);
    assert_eq!(v["count"], 1);
    assert_eq!(v["info"]["output"], "TRIANGLE_STRIP");
    let p = &v["primitives"][0];
    assert_eq!(p["stream"], 0);
    let positions: Vec<Vec<f64>> = p["vertices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v[0].as_array().into_iter().flatten().filter_map(Value::as_f64).collect())
        .collect();
    let want = [
        [-1.0, -1.0, 0.0, 1.0],
        [1.0, -1.0, 0.0, 1.0],
        [-1.0, 1.0, 0.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
    ];
    assert_eq!(positions, want.map(|w| w.to_vec()).to_vec());
    // The same request draws the strip: every pixel is GENERIC[0] = (0.25, 0.25, 0.25, 1) →
    // round(0.25 · 255) = 64.
    let frame = json(tgsi::wasm::page::render_page(FS, None, opts.into()));
    assert_eq!(frame["ok"], Value::Bool(true), "{}", frame);
    for px in bytes(&frame["pixels"]).chunks(4) {
        assert_eq!(px, [64, 64, 64, 255]);
    }
    // Without a geometry shader there is nothing to list, and it says so.
    let none = json(tgsi::wasm::page::geometry_primitives(FS, None, JsValue::NULL));
    assert_eq!(none["ok"], Value::Bool(false));
    assert!(none["error"].is_string(), "{}", none);
}

/// COLOR[0] = (1, 0, 0, 1), COLOR[1] = (0, 0.5, 1, 1) (→ 0, 128, 255, 255). The fullscreen
/// draw has no depth test, so the depth buffer keeps its cleared 1.0 (white).
#[wasm_bindgen_test]
fn render_reads_back_the_chosen_target() {
    let fs = "FRAG\nDCL OUT[0], COLOR[0]\nDCL OUT[1], COLOR[1]\nIMM[0] FLT32 {1.0, 0.0, 0.5, 1.0}\nMOV OUT[0], IMM[0].xyyw\nMOV OUT[1], IMM[0].yzxw\nEND\n";
    let read = |target: &str| {
        json(tgsi::wasm::page::render_page(
            fs,
            None,
            options(&format!(
                r#"{{"width": 2, "height": 2, "target": {target}, "allTargets": true}}"#
            )),
        ))
    };
    let first = read("0");
    assert_eq!(first["targets"], 2, "{}", first);
    assert_eq!(first["depthTest"], false);
    for px in bytes(&first["pixels"]).chunks(4) {
        assert_eq!(px, [255, 0, 0, 255]);
    }
    let second = read("1");
    assert_eq!(second["target"], 1);
    for px in bytes(&second["pixels"]).chunks(4) {
        assert_eq!(px, [0, 128, 255, 255]);
    }
    // allTargets: both targets and the depth buffer, whatever `target` says.
    assert_eq!(bytes(&second["targetPixels"][0]), bytes(&first["pixels"]));
    assert_eq!(bytes(&second["depthPixels"]), [255; 16]);
    let depth = read(r#""depth""#);
    assert_eq!(depth["target"], "depth");
    assert_eq!(bytes(&depth["pixels"]), [255; 16]);
}

/// `gsConsts` reaches the geometry stage alone. The geometry shader writes its CONST[0][0] to
/// GENERIC[0] of every vertex it emits and the fragment shader adds its own CONST[0][0]:
/// shared (0.5, 0.5, 0.5, 0.5) overridden for the geometry stage by (0.25, 0, 0.5, 0.5), plus
/// the fragment stage's shared value (0.5, 0.5, 0.5, 0.5) gives (0.75, 0.5, 1, 1) →
/// RGBA8 (191, 128, 255, 255) (0.75 · 255 = 191.25, 0.5 · 255 = 127.5 → 128). Were the
/// geometry value shared with the fragment stage, red would be 0.5 (128).
#[wasm_bindgen_test]
fn geometry_constants_reach_the_geometry_stage_alone() {
    let gs = GS
        .replace("DCL OUT[1], GENERIC[0]\n", "DCL OUT[1], GENERIC[0]\nDCL CONST[0][0]\n")
        .replace("MOV OUT[1], IMM[0].wwwy", "MOV OUT[1], CONST[0][0]");
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0]\n\
              ADD OUT[0], IN[0], CONST[0][0]\nEND\n";
    let o = serde_json::json!({
        "width": 4, "height": 4, "gs": gs,
        "consts": ["0:0=0.5,0.5,0.5,0.5"], "gsConsts": ["0:0=0.25,0,0.5,0.5"],
    });
    let opts = js_sys::JSON::parse(&o.to_string()).unwrap_or(JsValue::NULL);
    let frame = json(tgsi::wasm::page::render_page(fs, None, opts));
    assert_eq!(frame["ok"], Value::Bool(true), "{}", frame);
    let px = bytes(&frame["pixels"]);
    assert_eq!(px.len(), 4 * 4 * 4);
    for p in px.chunks(4) {
        assert_eq!(p, [191, 128, 255, 255]);
    }
}
