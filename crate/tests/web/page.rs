//! Browser tests of the wasm API the playground page calls (`crate/src/wasm/`, reached through
//! `tgsi::wasm::page`): the shapes the page reads and the positions it underlines. Expected
//! positions are counted by hand in the test texts.

use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

/// The JS value as JSON, the way the page sees it.
fn json(v: Result<JsValue, JsValue>) -> Value {
    let v = v.unwrap_or_else(|e| panic!("the call threw {:?}", e));
    let text: String = js_sys::JSON::stringify(&v).map(String::from).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

const GOOD_FS: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

#[wasm_bindgen_test]
fn validate_accepts_a_correct_shader_with_no_diagnostic() {
    let v = json(tgsi::wasm::page::validate(GOOD_FS));
    assert_eq!(v, Value::Array(vec![]));
}

/// Line 4 is `  0: MOV OUT[0], TEMP[5]`; `TEMP[5]` starts after 2 spaces, `0: `, `MOV ` and
/// `OUT[0], `, i.e. at column 2 + 3 + 4 + 8 + 1 = 18. It is not declared: an error there.
#[wasm_bindgen_test]
fn validate_locates_an_undeclared_register() {
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[5]\n  1: END\n";
    let v = json(tgsi::wasm::page::validate(text));
    let list = v.as_array().cloned().unwrap_or_default();
    let d = list
        .iter()
        .find(|d| d["severity"] == "error")
        .unwrap_or_else(|| panic!("no error in {}", v));
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(4), Some(18)), "{}", d);
    for key in ["code", "message", "endLine", "endColumn", "span", "related"] {
        assert!(d.get(key).is_some(), "diagnostic without `{}`: {}", key, d);
    }
}

/// The same undeclared TEMP[5] carries what the page's tooltip and problem list show: the
/// declaration it was compared with (line 3, `DCL TEMP[0]`, columns 1 to 12) as a related
/// place, and a help line naming the declaration that would make it valid.
#[wasm_bindgen_test]
fn validate_carries_related_places_notes_and_help() {
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[5]\n  1: END\n";
    let v = json(tgsi::wasm::page::validate(text));
    let list = v.as_array().cloned().unwrap_or_default();
    let d = list.iter().find(|d| d["code"] == "V005").unwrap_or_else(|| panic!("no V005 in {}", v));
    let r = &d["related"][0];
    assert_eq!(r["message"], "TEMP[0] is declared here", "{}", d);
    assert_eq!((r["line"].as_u64(), r["column"].as_u64()), (Some(3), Some(1)), "{}", d);
    assert_eq!((r["endLine"].as_u64(), r["endColumn"].as_u64()), (Some(3), Some(12)), "{}", d);
    let help = d["help"][0].as_str().unwrap_or_default();
    assert!(help.contains("DCL TEMP[5]"), "{}", d);
    assert!(d["notes"].is_array(), "{}", d);
}

/// A syntax error: line 3 is `DCL OUT[0], COLOUR`; the semantic name starts at column 13
/// (`DCL OUT[0], ` is 12 characters).
#[wasm_bindgen_test]
fn validate_reports_a_syntax_error_at_its_line_and_column() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOUR\n  0: END\n";
    let v = json(tgsi::wasm::page::validate(text));
    let list = v.as_array().cloned().unwrap_or_default();
    let d = list
        .iter()
        .find(|d| d["severity"] == "error")
        .unwrap_or_else(|| panic!("no error in {}", v));
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(3), Some(13)), "{}", d);
}

/// The vertex shader writes GENERIC[1] but the fragment shader reads GENERIC[0]: the link
/// reports something about the fragment input; each side's diagnostics are separate lists.
#[wasm_bindgen_test]
fn link_checks_both_shaders_and_their_varyings() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[1]\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[0]\n  2: END\n";
    let v = json(tgsi::wasm::page::link(vs, GOOD_FS));
    assert!(v["vs"].is_array() && v["fs"].is_array(), "{}", v);
    let all: Vec<Value> =
        v["vs"].as_array().into_iter().chain(v["fs"].as_array()).flatten().cloned().collect();
    assert!(!all.is_empty(), "an unmatched GENERIC[0] input gave no diagnostic: {}", v);

    let matched = vs.replace("GENERIC[1]", "GENERIC[0]");
    let v = json(tgsi::wasm::page::link(&matched, GOOD_FS));
    let errors = v["vs"]
        .as_array()
        .into_iter()
        .chain(v["fs"].as_array())
        .flatten()
        .filter(|d| d["severity"] == "error")
        .count();
    assert_eq!(errors, 0, "{}", v);
}

/// `parse` gives the shader model and located diagnostics: `DCL OUT[0], COLOUR` on line 3
/// has its error at column 13 (`DCL OUT[0], ` is 12 characters), and `shader` is null.
#[wasm_bindgen_test]
fn parse_reports_a_syntax_error_with_line_and_column() {
    let v = json(tgsi::wasm::page::parse(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOUR\n  0: END\n",
    ));
    assert!(v["shader"].is_null(), "{}", v);
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64(), d["severity"].as_str()),
        (Some(3), Some(13), Some("error")),
        "{}",
        v
    );
    let ok = json(tgsi::wasm::page::parse(GOOD_FS));
    assert!(ok["shader"].is_object(), "{}", ok);
    assert_eq!(ok["diagnostics"], Value::Array(vec![]));
}

/// The opcode table carries the hover text: MAD is `src0 * src1 + src2` (tgsi.rst, MAD).
#[wasm_bindgen_test]
fn opcodes_carry_summary_and_formula() {
    let v = json(tgsi::wasm::page::opcodes());
    let rows = v.as_array().cloned().unwrap_or_default();
    let mad = rows.iter().find(|r| r["name"] == "MAD").unwrap_or_else(|| panic!("no MAD row"));
    let formula = mad["formula"].as_str().unwrap_or("");
    assert!(
        formula.contains("src0") && formula.contains('*') && formula.contains("src2"),
        "{}",
        mad
    );
    assert_eq!((mad["numDst"].as_u64(), mad["numSrc"].as_u64()), (Some(1), Some(3)));
}

/// The AGAL export the page shows: bytes start with the 0xa0 magic byte and the version
/// (agal.md, header: 0xa0, version as u32 little-endian, 0xa1, program type), and a shader with
/// integer bit operations (no AGAL equivalent) is refused with an error diagnostic.
#[wasm_bindgen_test]
fn agal_export_gives_bytes_or_reasons() {
    let v = json(Ok(tgsi::wasm::page::agal_export(GOOD_FS, 0)));
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    let bytes: Vec<u64> =
        v["bytes"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
    let version = v["version"].as_u64().unwrap_or(0);
    assert!(bytes.len() > 7, "{}", v);
    assert_eq!(bytes[..6], [0xa0, version, 0, 0, 0, 0xa1]);
    assert_eq!(bytes[6], 1, "program type 1 = fragment");
    assert!(v["assembly"].as_str().is_some_and(|s| !s.is_empty()), "{}", v);

    let ints = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: F2U TEMP[0], IN[0]\n  1: XOR TEMP[0], TEMP[0], TEMP[0].yxzw\n  2: U2F OUT[0], TEMP[0]\n  3: END\n";
    let v = json(Ok(tgsi::wasm::page::agal_export(ints, 0)));
    assert_eq!(v["ok"], Value::Bool(false), "{}", v);
    assert!(
        v["diagnostics"].as_array().into_iter().flatten().any(|d| d["severity"] == "error"),
        "{}",
        v
    );
}

fn render_page(fs: &str, options: &str) -> Value {
    let opts = js_sys::JSON::parse(options).unwrap_or(JsValue::NULL);
    json(Ok(tgsi::wasm::page::render_page(fs, None, opts)))
}

fn pixels(v: &Value) -> Vec<u64> {
    // A Uint8Array serialises as {"0": r, "1": g, ...}.
    let obj = v["pixels"].as_object().cloned().unwrap_or_default();
    (0..obj.len()).map(|i| obj.get(&i.to_string()).and_then(Value::as_u64).unwrap_or(999)).collect()
}

/// A constant colour: (0.25, 0.5, 1, 1) → RGBA8 codes round(255·v) = (64, 128, 255, 255) on
/// every pixel of the requested band (rows 1..3 of 4: 2 rows × 4 pixels).
#[wasm_bindgen_test]
fn render_page_draws_a_band_of_rows() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    let v = render_page(fs, r#"{"width": 4, "height": 4, "rowStart": 1, "rowEnd": 3}"#);
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    let p = pixels(&v);
    assert_eq!(p.len(), 2 * 4 * 4);
    for px in p.chunks(4) {
        assert_eq!(px, [64, 128, 255, 255]);
    }
}

/// Every pixel different, an odd width and height (the last column is half a quad, the top row
/// half a quad row): the page's read-back puts each pixel's channels in RGBA order at its place.
/// OUT = (0.9·u, 0.9·v, 0.25, 1) with the fragment-only uv = (x + 0.5) / 5, (y + 0.5) / 3 (y
/// from the bottom); codes floor(255·value + 0.5), by hand:
/// columns 0.09, 0.27, 0.45, 0.63, 0.81 → 23, 69, 115, 161, 207;
/// rows from the top (y = 2, 1, 0) 0.75, 0.45, 0.15 → 191, 115, 38; 0.25 → 64; 1 → 255.
#[wasm_bindgen_test]
fn render_page_reads_back_each_pixel_in_place() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.9000, 0.2500, 1.0000, 0.0000 }\n  0: MUL OUT[0].xy, IN[0].xyyy, IMM[0].xxxx\n  1: MOV OUT[0].zw, IMM[0].yyyz\n  2: END\n";
    let v = render_page(fs, r#"{"width": 5, "height": 3}"#);
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    let (columns, rows) = ([23, 69, 115, 161, 207], [191, 115, 38]);
    let want: Vec<u64> =
        rows.iter().flat_map(|&g| columns.iter().flat_map(move |&r| [r, g, 64, 255])).collect();
    assert_eq!(pixels(&v), want);
}

/// A 1×1 texture described in JSON (docs/textures.md) holding (10, 20, 30, 255): TEX at any
/// coordinate returns that texel, so every pixel is those codes.
#[wasm_bindgen_test]
fn render_page_binds_described_textures() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";
    let description = r#"{\"target\": \"2D\", \"format\": \"RGBA8\", \"width\": 1, \"height\": 1, \"texels\": [[10, 20, 30, 255]]}"#;
    let v = render_page(
        fs,
        &format!(
            r#"{{"width": 2, "height": 2, "textures": [{{"unit": 0, "description": "{}"}}]}}"#,
            description
        ),
    );
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    for px in pixels(&v).chunks(4) {
        assert_eq!(px, [10, 20, 30, 255]);
    }
    let bad = render_page(
        fs,
        r#"{"width": 2, "height": 2, "textures": [{"unit": 0, "description": "not json"}]}"#,
    );
    assert_eq!(bad["ok"], Value::Bool(false));
    assert!(
        bad["diagnostics"].as_array().into_iter().flatten().any(|d| d["code"] == "R005"),
        "{}",
        bad
    );
}

/// A bad constant and a bad texture description are the shared render entry's diagnostics
/// (`render::options::read`, which `tgsi render` calls too): the same codes and messages, in order.
#[wasm_bindgen_test]
fn render_page_reports_bad_options_as_the_shared_entry_does() {
    use tgsi::render::{
        job::Request,
        options::{read, RenderOptions},
    };
    use tgsi::texture::desc::{TextureData, TextureSpec};
    let fs =
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1, 0, 0, 1 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    let description = r#"{"width": 2, "texels": [[0, 0, 0, 0]]}"#;
    let v = render_page(
        fs,
        r#"{"width": 2, "height": 2, "fsConsts": ["0:1=1,x"],
            "textures": [{"unit": 3, "description": "{\"width\": 2, \"texels\": [[0, 0, 0, 0]]}"}]}"#,
    );
    assert_eq!(v["ok"], Value::Bool(false), "{}", v);
    let got: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (d["code"].as_str().unwrap_or("").into(), d["message"].as_str().unwrap_or("").into())
        })
        .collect();
    let consts = vec!["0:1=1,x".to_string()];
    let specs = [TextureSpec {
        unit: 3,
        data: TextureData::Description(description.to_string()),
        options: Vec::new(),
        images: None,
    }];
    let shared = read(&RenderOptions {
        frame: Request { fs, width: 2, height: 2, ..Request::default() },
        fs_consts: &consts,
        textures: &specs,
        ..RenderOptions::default()
    });
    let want: Vec<(String, String)> = shared
        .diagnostics
        .iter()
        .map(|d| (d.diagnostic.code.to_string(), d.diagnostic.message.clone()))
        .collect();
    assert_eq!(want.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(), ["R004", "R005"]);
    assert_eq!(got, want, "{}", v);
}

fn pixels_of(result: &JsValue) -> Vec<u8> {
    let v =
        js_sys::Reflect::get(result, &JsValue::from_str("pixels")).unwrap_or(JsValue::UNDEFINED);
    js_sys::Uint8Array::new(&v).to_vec()
}

/// The job is reused between calls, but the built-in uniforms of each call reach the shader:
/// OUT = (time, frame / 255, 0, 1) with time 0.25 then 0.75 and frames 51 then 102 gives
/// unorm8 64 then 191 (0.75 · 255 = 191.25) and 51 then 102.
#[wasm_bindgen_test]
fn built_in_uniforms_change_between_frames_of_one_job() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nDCL CONST[15][0..2]\nIMM[0] FLT32 {0.0039215689, 0.0, 1.0, 0.0}\n\
              MOV OUT[0], IMM[0].yyyz\nMOV OUT[0].x, CONST[15][1].xxxx\nMUL OUT[0].y, CONST[15][1].zzzz, IMM[0].xxxx\nEND\n";
    let first = tgsi::wasm::page::render_page(
        fs,
        None,
        js_sys::JSON::parse(r#"{"width": 2, "height": 2, "time": 0.25, "frame": 51}"#)
            .unwrap_or(JsValue::NULL),
    );
    let second = tgsi::wasm::page::render_page(
        fs,
        None,
        js_sys::JSON::parse(r#"{"width": 2, "height": 2, "time": 0.75, "frame": 102}"#)
            .unwrap_or(JsValue::NULL),
    );
    assert_eq!(&pixels_of(&first)[0..4], &[64, 51, 0, 255]);
    assert_eq!(&pixels_of(&second)[0..4], &[191, 102, 0, 255]);
}

/// A changed shader text is prepared again (not the previous job's picture).
#[wasm_bindgen_test]
fn a_new_shader_replaces_the_kept_job() {
    let red =
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n";
    let blue =
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.0, 0.0, 1.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n";
    let size = || js_sys::JSON::parse(r#"{"width": 2, "height": 2}"#).unwrap_or(JsValue::NULL);
    assert_eq!(
        &pixels_of(&tgsi::wasm::page::render_page(red, None, size()))[0..4],
        &[255, 0, 0, 255]
    );
    assert_eq!(
        &pixels_of(&tgsi::wasm::page::render_page(blue, None, size()))[0..4],
        &[0, 0, 255, 255]
    );
}

/// The kept framebuffer is cleared before each frame: a frame whose fragments are all killed
/// (time 1 > 0.5) after one that wrote every pixel reads back (0, 0, 0, 0), the value of
/// pixels no fragment wrote.
#[wasm_bindgen_test]
fn pixels_of_the_previous_frame_do_not_survive() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nDCL CONST[15][0..2]\nDCL TEMP[0]\nIMM[0] FLT32 {0.5, 1.0, 0.0, 0.0}\n\
              SLT TEMP[0].x, IMM[0].xxxx, CONST[15][1].xxxx\nKILL_IF -TEMP[0].xxxx\nMOV OUT[0], IMM[0].yyyy\nEND\n";
    let first = tgsi::wasm::page::render_page(
        fs,
        None,
        js_sys::JSON::parse(r#"{"width": 2, "height": 2, "time": 0.0}"#).unwrap_or(JsValue::NULL),
    );
    assert_eq!(pixels_of(&first), vec![255; 16]);
    let second = tgsi::wasm::page::render_page(
        fs,
        None,
        js_sys::JSON::parse(r#"{"width": 2, "height": 2, "time": 1.0}"#).unwrap_or(JsValue::NULL),
    );
    assert_eq!(
        js_sys::Reflect::get(&second, &JsValue::from_str("ok")).unwrap_or(JsValue::UNDEFINED),
        JsValue::TRUE
    );
    assert_eq!(pixels_of(&second), vec![0; 16]);
    // The same with a frame larger than the framebuffer's 16x16 storage tiles, drawn in a band
    // of 20 rows (rows 20..40 from the bottom, spanning two rows of tiles).
    let big = |time: f32, rows: &str| {
        let options = format!(r#"{{"width": 40, "height": 40, "time": {}, {}}}"#, time, rows);
        pixels_of(&tgsi::wasm::page::render_page(
            fs,
            None,
            js_sys::JSON::parse(&options).unwrap_or(JsValue::NULL),
        ))
    };
    assert_eq!(big(0.0, r#""rowStart": 0, "rowEnd": 40"#), vec![255; 40 * 40 * 4]);
    assert_eq!(big(1.0, r#""rowStart": 0, "rowEnd": 20"#), vec![0; 40 * 20 * 4]);
}

/// Errors of a render come back as diagnostics with their source, line and column, not as
/// exceptions: `FOO` is on line 2, column 1 of the fragment text.
#[wasm_bindgen_test]
fn render_reports_diagnostics_with_their_source() {
    let v = render_page("FRAG\nFOO\nEND\n", "{}");
    assert_eq!(v["ok"], Value::Bool(false));
    let first = &v["diagnostics"][0];
    assert_eq!(first["source"], "fragment", "{}", v);
    assert_eq!(first["line"], 2, "{}", v);
    assert_eq!(first["column"], 1, "{}", v);
    assert_eq!(first["severity"], "error", "{}", v);
}

/// Custom vertices and per-stage constants through the render options. A strip over the left
/// half of a 4x4 frame; the vertex shader passes its CONST[0][0] = (0.25, 0, 0.5, 0.5) as a
/// flat varying and the fragment shader adds its own CONST[0][0] = (0, 0.5, 0.25, 0.5):
/// (0.25, 0.5, 0.75, 1) → RGBA8 (64, 128, 191, 255) (0.75 · 255 = 191.25) on columns 0 and 1,
/// nothing on columns 2 and 3. One shared store would give the fragment value twice instead.
#[wasm_bindgen_test]
fn render_takes_vertices_and_constants_per_stage() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL CONST[0][0]\n\
              MOV OUT[0], IN[0]\nMOV OUT[1], CONST[0][0]\nEND\n";
    let fs = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL CONST[0][0]\n\
              ADD OUT[0], IN[0], CONST[0][0]\nEND\n";
    let vertices = r#"{"attributes": [{"name": "p", "location": 0, "components": 2}],
        "vertices": [{"p": [-1, -1]}, {"p": [0, -1]}, {"p": [-1, 1]}, {"p": [0, 1]}],
        "draws": [{"mode": "TRIANGLE_STRIP", "first": 0, "count": 4}]}"#;
    let options = |vertices: &str| {
        let o = serde_json::json!({
            "width": 4, "height": 4, "vertices": vertices,
            "vsConsts": ["0:0=0.25,0,0.5,0.5"], "fsConsts": ["0=0,0.5,0.25,0.5"],
        });
        js_sys::JSON::parse(&o.to_string()).unwrap_or(JsValue::NULL)
    };
    let v = json(Ok(tgsi::wasm::page::render_page(fs, Some(vs.to_string()), options(vertices))));
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    let p = pixels(&v);
    assert_eq!(p.len(), 4 * 4 * 4);
    for row in p.chunks(16) {
        assert_eq!(row, [64, 128, 191, 255, 64, 128, 191, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
    // A bad file is a diagnostic about the vertices, at its line and column: "draws" on line
    // 2 names a mode the renderer does not draw, its string at column 21.
    let bad = "{\"attributes\": [], \"vertices\": [],\n \"draws\": [{\"mode\": \"POINTS\", \"first\": 0, \"count\": 0}]}";
    let v = json(Ok(tgsi::wasm::page::render_page(fs, Some(vs.to_string()), options(bad))));
    assert_eq!(v["ok"], Value::Bool(false));
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["source"].as_str(), d["code"].as_str()),
        (Some("vertices"), Some("R006")),
        "{}",
        v
    );
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(2), Some(21)), "{}", v);
}

/// The page's highlighter and completion read the parser's words from the engine, including
/// the compute system values the old hand-typed list missed.
#[wasm_bindgen_test]
fn vocabulary_lists_the_parsers_words() {
    let v = json(tgsi::wasm::page::vocabulary());
    let has = |list: &str, word: &str| {
        v[list].as_array().is_some_and(|a| a.iter().any(|w| w.as_str() == Some(word)))
    };
    assert!(has("semantics", "BLOCK_ID") && has("semantics", "GRID_SIZE"), "{}", v["semantics"]);
    assert!(has("opcodes", "UMUL_HI") && has("files", "HWATOMIC") && has("textureTargets", "2D"));
    assert!(!has("files", "NULL"));
}

/// `describe` gives the panels their registers: `DCL CONST[0][0..3]` is four slots, buffer 15
/// is listed too (the page leaves out the buffer `builtinLayout` names), samplers by unit, and
/// each declaration's line.
#[wasm_bindgen_test]
fn describe_lists_constant_slots_samplers_and_lines() {
    let text = "FRAG\nDCL CONST[0][0..3]\nDCL CONST[15][1]\nDCL SAMP[2]\nDCL OUT[0], COLOR\nEND\n";
    let v = json(tgsi::wasm::page::describe(text));
    let slots: Vec<(u64, u64)> = v["constants"]
        .as_array()
        .map(|a| {
            a.iter().map(|p| (p[0].as_u64().unwrap_or(99), p[1].as_u64().unwrap_or(99))).collect()
        })
        .unwrap_or_default();
    assert_eq!(slots, vec![(0, 0), (0, 1), (0, 2), (0, 3), (15, 1)]);
    assert_eq!(v["samplers"], serde_json::json!([2]));
    assert_eq!(v["declarations"][3]["line"], 5);
    assert_eq!(v["declarations"][3]["semantic"], "COLOR");
    assert_eq!(json(tgsi::wasm::page::describe("FRAG\nDCL CONST[\n")), Value::Null);
    let layout = json(tgsi::wasm::page::builtin_layout());
    assert_eq!(layout["buffer"], 15);
    assert_eq!(layout["slots"][1]["name"], "time");
}

/// A worker keeps its last six prepared jobs: shaders taking turns (widgets sharing a worker)
/// find theirs again (`jobUses` counts the calls a job served; 1 means it was prepared anew),
/// and the seventh distinct shader since a job's last use has pushed it out.
#[wasm_bindgen_test]
fn a_worker_keeps_six_prepared_jobs() {
    let shader = |i: u32| {
        format!("FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {{0.{}, 0.0, 1.0, 1.0}}\nMOV OUT[0], IMM[0]\nEND\n", i)
    };
    let uses = |i: u32| {
        let opts = js_sys::JSON::parse(r#"{"width": 3, "height": 1}"#).unwrap_or(JsValue::NULL);
        json(Ok(tgsi::wasm::page::render_page(&shader(i), None, opts)))["jobUses"].as_u64()
    };
    assert_eq!(uses(1), Some(1));
    assert_eq!(uses(2), Some(1));
    assert_eq!(uses(1), Some(2), "the first shader's job was kept while the second ran");
    for i in 3..=8 {
        assert_eq!(uses(i), Some(1));
    }
    assert_eq!(uses(1), Some(1), "six newer jobs pushed the first out");
}

/// Options that cannot be read are reported (R009), not silently replaced by defaults.
#[wasm_bindgen_test]
fn unreadable_options_are_reported() {
    let v = render_page(GOOD_FS, r#"{"width": "wide", "height": 4}"#);
    assert_eq!(v["ok"], Value::Bool(false), "{}", v);
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"R009"), "{}", v);
}

/// Each option is read on its own (`wasm/read.rs`): a wrong one is an R009 that names it, says
/// what it must be and takes its default; the others still count (height 4 here).
#[wasm_bindgen_test]
fn each_unreadable_option_is_named_and_the_others_still_count() {
    let v = render_page(
        GOOD_FS,
        r#"{"width": "wide", "height": 4, "mouse": [1], "time": true, "consts": "0:0=1",
            "textures": [{"unit": 1.5}, 3]}"#,
    );
    let messages: Vec<&str> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == "R009")
        .filter_map(|d| d["message"].as_str())
        .collect();
    let opening = "the render option";
    let default = "it takes its default";
    assert_eq!(
        messages,
        [
            format!("{opening} \"width\" must be a whole number from 0 to 4294967295 (it is the string \"wide\"): {default}"),
            format!("{opening} \"consts\" must be a list of strings (it is the string \"0:0=1\"): {default}"),
            format!("{opening} \"time\" must be a number (it is true or false): {default}"),
            format!("{opening} \"mouse\" must be a list of 2 numbers (it is a list): {default}"),
            format!("{opening} \"textures[0].unit\" must be a whole number from 0 to 4294967295 (it is a number): {default}"),
            format!("{opening} \"textures[1]\" must be an object (it is a number): {default}"),
        ],
        "{v}"
    );
    assert_eq!((v["width"].as_u64(), v["height"].as_u64()), (Some(256), Some(4)), "{v}");
}

/// The inspector's and the reference's calls read their requests field by field as `render`
/// does (`wasm/read.rs`): `execQuad` and `compareShaders` throw what cannot be read, `probeFrame`
/// reports it as R002. A request that can be read runs: MOV OUT[0], IN[0] gives back each
/// lane's input bits (1.0 = 0x3f800000, 2.0 = 0x40000000, 0.5 = 0x3f000000).
#[wasm_bindgen_test]
fn quad_compare_and_watch_requests_name_what_cannot_be_read() {
    use tgsi::wasm::page::{compare_shaders, exec_quad, probe_frame_js};
    let parse = |text: &str| js_sys::JSON::parse(text).unwrap();
    let good =
        parse(r#"{"inputs": [[[1, 2, 0.5, 1], [1, 2, 0.5, 1], [1, 2, 0.5, 1], [1, 2, 0.5, 1]]]}"#);
    let run = json(exec_quad(GOOD_FS, good));
    let lane = [0x3f80_0000u64, 0x4000_0000, 0x3f00_0000, 0x3f80_0000];
    let outputs: Vec<Vec<u64>> = (0..4)
        .map(|l| (0..4).map(|c| run["outputs"][0][l][c].as_u64().unwrap_or(0)).collect())
        .collect();
    assert_eq!(outputs, vec![lane.to_vec(); 4], "{run}");

    let bad = parse(
        r#"{"inputs": [[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4]]], "coverage": 16}"#,
    );
    let thrown = exec_quad(GOOD_FS, bad).err().and_then(|e| e.as_string());
    assert_eq!(
        thrown.as_deref(),
        Some("the quad request field \"inputs\" must be a list of registers, each 4 lanes of 4 numbers (it is a list); the quad request field \"coverage\" must be a whole number from 0 to 15 (it is a number)")
    );

    let thrown = compare_shaders(GOOD_FS, GOOD_FS, parse(r#"{"trials": -1, "exactNan": 1}"#))
        .err()
        .and_then(|e| e.as_string());
    assert_eq!(
        thrown.as_deref(),
        Some("the compare option \"trials\" must be a whole number from 0 to 4294967295 (it is a number); the compare option \"exactNan\" must be true or false (it is a number)")
    );

    let probe = json(Ok(probe_frame_js(
        GOOD_FS,
        None,
        parse(r#"{"width": 4, "height": 4}"#),
        parse(r#"{"register": 3}"#),
    )));
    let message = probe["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["code"] == "R002")
        .and_then(|d| d["message"].as_str().map(str::to_string));
    assert_eq!(
        message.as_deref(),
        Some("the watch field \"register\" must be a string (it is a number); the watch field \"pc\" is missing (it must be a whole number from 0 to 4294967295)"),
        "{probe}"
    );
}

/// An image texture's pixels may be a Uint8Array, a Uint8ClampedArray or a list of bytes. A 2×1
/// image, nearest filtering, a 2×1 picture: pixel x samples u = (x + 0.5) / 2, so each pixel is
/// its texel's bytes.
#[wasm_bindgen_test]
fn image_pixels_come_as_typed_arrays_or_lists() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";
    let image: [u8; 8] = [10, 20, 30, 255, 40, 50, 60, 255];
    let as_list = js_sys::Array::new();
    for b in image {
        as_list.push(&JsValue::from(b));
    }
    for rgba in [
        JsValue::from(js_sys::Uint8Array::from(&image[..])),
        JsValue::from(js_sys::Uint8ClampedArray::from(&image[..])),
        JsValue::from(as_list),
    ] {
        let opts = js_sys::JSON::parse(
            r#"{"width": 2, "height": 1, "textures": [{"unit": 0, "width": 2, "height": 1, "filter": "nearest"}]}"#,
        )
        .unwrap();
        let texture = js_sys::Reflect::get(&opts, &"textures".into())
            .and_then(|t| js_sys::Reflect::get(&t, &0.into()))
            .unwrap();
        js_sys::Reflect::set(&texture, &"rgba".into(), &rgba).unwrap();
        let v = json(Ok(tgsi::wasm::page::render_page(fs, None, opts)));
        assert_eq!(v["ok"], Value::Bool(true), "{v}");
        assert_eq!(pixels(&v), image.map(u64::from), "{v}");
    }
}

/// A frame drawn in bands shares its budget: with `bands: 2` each band may run half of it, so an
/// endless loop under a budget of 1000 stops after 500 (quad-instructions of work: X005 names
/// the count).
#[wasm_bindgen_test]
fn bands_share_the_frame_budget() {
    let endless = "FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP\n  1: ENDLOOP\n  2: END\n";
    let stop = |options: &str| {
        let v = render_page(endless, options);
        v["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|d| d["code"] == "X005")
            .and_then(|d| d["message"].as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    let whole = stop(r#"{"width": 4, "height": 4, "budget": 1000}"#);
    let band = stop(
        r#"{"width": 4, "height": 4, "budget": 1000, "bands": 2, "rowStart": 0, "rowEnd": 2}"#,
    );
    assert!(whole.contains("stopped after 1000 instructions of work"), "{}", whole);
    assert!(band.contains("stopped after 500 instructions of work"), "{}", band);
    // Without a budget: a 2x2 frame is ceil(2/2) x ceil(2/2) = 1 quad, so the default is
    // max(2^15, 2^20) = 2^20 = 1048576; in two bands each gets half, 2^19 = 524288.
    let whole = stop(r#"{"width": 2, "height": 2}"#);
    let band = stop(r#"{"width": 2, "height": 2, "bands": 2, "rowStart": 0, "rowEnd": 1}"#);
    assert!(whole.contains("stopped after 1048576 instructions of work"), "{}", whole);
    assert!(band.contains("stopped after 524288 instructions of work"), "{}", band);
}

/// A band with `timeLimit` stops itself once that many seconds have passed (the page's workers
/// cannot be interrupted inside the engine in every browser): an endless loop under a budget of
/// seconds ends after 0.05 s with X010 naming the limit; a band that finishes in time is
/// unaffected, and a limit that is not a positive number is no limit.
#[wasm_bindgen_test]
fn a_time_limit_stops_the_band() {
    let endless = "FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP\n  1: ENDLOOP\n  2: END\n";
    let codes = |fs: &str, options: &str| {
        let v = render_page(fs, options);
        v["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                format!(
                    "{} {}",
                    d["code"].as_str().unwrap_or(""),
                    d["message"].as_str().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
    };
    // Seconds of this loop: a limit that is not honoured ends it with X005 instead.
    let budget: u64 = 1 << 34;
    let stopped = codes(
        endless,
        &format!(r#"{{"width": 64, "height": 64, "budget": {budget}, "timeLimit": 0.05}}"#),
    );
    assert!(
        stopped
            .iter()
            .any(|d| d.starts_with("X010 stopped after 0.05 seconds (the frame's time limit) at ")),
        "{stopped:?}"
    );
    let quick = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    assert_eq!(codes(quick, r#"{"width": 4, "height": 4, "timeLimit": 60}"#), Vec::<String>::new());
    let unlimited = codes(endless, r#"{"width": 4, "height": 4, "budget": 1000, "timeLimit": -1}"#);
    assert!(unlimited.iter().any(|d| d.starts_with("X005 ")), "{unlimited:?}");
}

/// The reference page's live lane table: rows read by the engine, one quad run. UDIV lanes
/// 7/2 = 3, 7/3 = 2 (hand calculation), x/0 = all ones (tgsi_exec's rule); a row that does not
/// parse says why.
#[wasm_bindgen_test]
fn reference_lanes_runs_the_rows_of_a_lane_table() {
    let program = tgsi::reference::lanes::program(tgsi::opcode::Opcode::UDIV);
    let rows = vec![
        "7, 2 => 3".to_string(),
        "7, 3 => 2".into(),
        "5, 0 => 4294967295".into(),
        "x, 1 => 0".into(),
    ];
    let v = json(tgsi::wasm::page::reference_lanes("UDIV", &program, rows));
    let x = |lane: usize| v["outputs"][lane][0].as_u64();
    assert_eq!((x(0), x(1), x(2)), (Some(3), Some(2), Some(u32::MAX as u64)));
    assert!(v["rows"][3]["Err"].as_str().unwrap_or("").contains("'x'"), "{}", v["rows"][3]);
    assert!(v["error"].is_null(), "{}", v["error"]);
}

/// `pixelsInto`: an array of exactly the band's RGBA8 size gets the pixels and comes back as
/// `pixels` (the same object); one of another size, or anything else, is left alone and a new
/// array holds them. The constant colour (0.25, 0.5, 1, 1) gives (64, 128, 255, 255) on each of
/// the 2 × 4 pixels of rows 1..3 (as in `render_page_draws_a_band_of_rows`).
#[wasm_bindgen_test]
fn render_page_copies_the_pixels_into_an_array_of_their_size() {
    use wasm_bindgen::JsCast;
    let fs = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    let want: Vec<u8> = [64u8, 128, 255, 255].repeat(2 * 4);
    let call = |into: JsValue| {
        let opts = js_sys::JSON::parse(r#"{"width": 4, "height": 4, "rowStart": 1, "rowEnd": 3}"#)
            .unwrap_or(JsValue::NULL);
        let _ = js_sys::Reflect::set(&opts, &JsValue::from_str("pixelsInto"), &into);
        let result = tgsi::wasm::page::render_page(fs, None, opts);
        js_sys::Reflect::get(&result, &JsValue::from_str("pixels"))
            .ok()
            .and_then(|p| p.dyn_into::<js_sys::Uint8Array>().ok())
            .unwrap_or_else(|| panic!("no pixels array"))
    };
    // The right size, filled with 7s beforehand: the same array, now holding the band.
    let fits = js_sys::Uint8Array::new_with_length(32);
    fits.fill(7, 0, 32);
    let out = call(fits.clone().into());
    assert!(js_sys::Object::is(&out, &fits), "the array of the band's size was not used");
    assert_eq!(out.to_vec(), want);
    // Another size: left as it was, and a new array holds the band.
    let other = js_sys::Uint8Array::new_with_length(16);
    other.fill(7, 0, 16);
    let out = call(other.clone().into());
    assert!(!js_sys::Object::is(&out, &other));
    assert_eq!(out.to_vec(), want);
    assert_eq!(other.to_vec(), vec![7u8; 16]);
    // Not a Uint8Array (an array of 32 numbers): a new array.
    let list: JsValue = js_sys::Array::from_iter((0..32).map(|_| JsValue::from(7))).into();
    let out = call(list.clone());
    assert!(!js_sys::Object::is(&out, &list));
    assert_eq!(out.to_vec(), want);
}
