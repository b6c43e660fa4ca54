//! The compiling tier in the browser (`crate/src/wasm/jit.rs`): the generated module is compiled
//! by the browser's own `WebAssembly.compile`, registered, and a render through it gives the
//! interpreter's pixels bit for bit and charges the frame's budget the same; a budget that
//! runs out stops both engines with the same diagnostic and the same partial picture; a shader
//! the code generator refuses is drawn by the interpreter, with the reason; constant buffers
//! read through ADDR reach the module (the render's constants staged into its memory).

use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap_or_default()
}

fn options(size: u32, engine: &str, budget: Option<u64>) -> JsValue {
    let o = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&o, &k.into(), &v).unwrap_or_default();
    set("width", size.into());
    set("height", size.into());
    set("engine", engine.into());
    if let Some(b) = budget {
        set("budget", (b as f64).into());
    }
    o.into()
}

/// What a render gave: pixels, the budget charged, the engine, the `jit` report and the
/// diagnostics' codes.
struct Drawn {
    pixels: Vec<u8>,
    charged: f64,
    engine: String,
    jit: Value,
    codes: Vec<String>,
}

fn json(v: &JsValue) -> Value {
    let text: String = js_sys::JSON::stringify(v).map(String::from).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

fn draw(fs: &str, size: u32, engine: &str, budget: Option<u64>) -> Drawn {
    draw_with(fs, options(size, engine, budget))
}

fn draw_with(fs: &str, options: JsValue) -> Drawn {
    let r = tgsi::wasm::render::render(fs, None, options);
    let pixels = get(&r, "pixels").dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec());
    let diagnostics = json(&get(&r, "diagnostics"));
    Drawn {
        pixels: pixels.unwrap_or_default(),
        charged: get(&get(&r, "stats"), "charged").as_f64().unwrap_or(-1.0),
        engine: get(&r, "engine").as_string().unwrap_or_default(),
        jit: json(&get(&r, "jit")),
        codes: diagnostics
            .as_array()
            .map(|l| l.iter().filter_map(|d| d["code"].as_str().map(String::from)).collect())
            .unwrap_or_default(),
    }
}

/// Asks the engine for the module of `fs`, compiles it with `WebAssembly.compile` and registers
/// an instance, as the render worker does. Returns the key.
async fn compile_in_browser(fs: &str, size: u32) -> String {
    let generated = tgsi::wasm::jit::jit_module(fs, None, options(size, "auto", None));
    assert_eq!(get(&generated, "ok"), JsValue::TRUE, "not generated: {:?}", json(&generated));
    let key = get(&generated, "key").as_string().unwrap_or_default();
    register_in_browser(&key, &get(&generated, "bytes")).await;
    key
}

/// Compiles a generated module's `bytes` with `WebAssembly.compile`, instantiates it with the
/// engine's imports and registers the instance under `key`, as the render worker does.
async fn register_in_browser(key: &str, bytes: &JsValue) {
    let module = JsFuture::from(js_sys::WebAssembly::compile(bytes))
        .await
        .unwrap_or_else(|e| panic!("WebAssembly.compile refused the module: {e:?}"));
    let module: js_sys::WebAssembly::Module = module.unchecked_into();
    let imports = tgsi::wasm::jit::jit_imports();
    assert!(imports.is_object(), "the engine lacks an export the imports name");
    let instance = js_sys::WebAssembly::Instance::new(&module, &imports.unchecked_into())
        .unwrap_or_else(|e| panic!("the module did not instantiate: {e:?}"));
    assert!(tgsi::wasm::jit::jit_register(key, instance.into()));
}

/// Renders `fs` with the interpreter and through the browser-compiled module: the module must
/// have drawn (engine "compiled"), with the interpreter's pixels and budget charge.
async fn same_both_ways(name: &str, fs: &str) {
    same_both_ways_with(name, fs, &[], |engine| options(64, engine, None)).await;
}

/// [`same_both_ways`] with the warnings `allowed` and the render options `opts(engine)`
/// (64x64); returns the pixels.
async fn same_both_ways_with(
    name: &str,
    fs: &str,
    allowed: &[&str],
    opts: impl Fn(&str) -> JsValue,
) -> Vec<u8> {
    let size = 64;
    // Start with no instance registered (another test may have registered this program's).
    let generated = tgsi::wasm::jit::jit_module(fs, None, opts("auto"));
    tgsi::wasm::jit::jit_forget(&get(&generated, "key").as_string().unwrap_or_default());
    let before = draw_with(fs, opts("auto"));
    assert_eq!(before.jit["state"], "pending", "{name}: {}", before.jit);
    assert_eq!(before.engine, "interpreter", "{name}");
    compile_in_browser(fs, size).await;
    let interp = draw_with(fs, opts("interpreter"));
    let compiled = draw_with(fs, opts("compiled"));
    assert_eq!(interp.engine, "interpreter", "{name}");
    assert_eq!(interp.jit["state"], "off", "{name}");
    assert_eq!(compiled.engine, "compiled", "{name}: {}", compiled.jit);
    assert_eq!(compiled.jit["interpreted"], 0, "{name}: {}", compiled.jit);
    assert!(compiled.jit["compiled"].as_f64().unwrap_or(0.0) > 0.0, "{name}");
    assert!(
        interp.codes.iter().all(|c| allowed.contains(&c.as_str())),
        "{name}: {:?}",
        interp.codes
    );
    assert_eq!(interp.pixels.len(), (size * size * 4) as usize, "{name}");
    let differ = interp.pixels.iter().zip(&compiled.pixels).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{name}: {differ} bytes differ");
    assert_eq!(interp.pixels, compiled.pixels, "{name}");
    assert!(interp.charged > 0.0, "{name}");
    assert_eq!(interp.charged, compiled.charged, "{name}: the budget was charged differently");
    // The picture is not one colour (the shader's work shows).
    let first = &interp.pixels[..4];
    assert!(interp.pixels.chunks(4).any(|p| p != first), "{name}: a flat picture");
    compiled.pixels
}

const ARITH: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 { 0.5000, 2.0000, 1.0000, -0.2500 }
  0: MAD TEMP[0], IN[0], IMM[0].yyyy, IMM[0].wwww
  1: MUL TEMP[1], TEMP[0], TEMP[0]
  2: DP3 TEMP[1].w, TEMP[1], IMM[0].xxxx
  3: MAX TEMP[0].xy, TEMP[0], -TEMP[1].wwww
  4: MIN_SAT OUT[0].xyz, TEMP[0], IMM[0].zzzz
  5: FRC OUT[0].w, TEMP[1].wwww
  6: END
";

const IF_ELSE: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5000, 1.0000, 0.0000, 0.2500 }
  0: SLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: IF TEMP[0].xxxx
  2:   MOV OUT[0], IMM[0].yzzy
  3: ELSE
  4:   SGE TEMP[0].y, IN[0].yyyy, IMM[0].xxxx
  5:   IF TEMP[0].yyyy
  6:     MOV OUT[0], IMM[0].zyzy
  7:   ELSE
  8:     MOV OUT[0], IMM[0].wwyy
  9:   ENDIF
 10: ENDIF
 11: END
";

/// The corpus's 26_mandelbrot: a loop ended by two conditional breaks.
const LOOP_BRK: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/corpus/softpipe/26_mandelbrot.tgsi"
));

/// A checkerboard with holes: KILL_IF discards lanes, the rest keeps its colour.
const KILL: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 8.0000, 0.5000, 1.0000, 0.0000 }
  0: MUL TEMP[0].xy, IN[0], IMM[0].xxxx
  1: FRC TEMP[0].xy, TEMP[0]
  2: ADD TEMP[0].xy, TEMP[0], -IMM[0].yyyy
  3: MUL TEMP[0].z, TEMP[0].xxxx, TEMP[0].yyyy
  4: KILL_IF TEMP[0].zzzz
  5: MOV OUT[0], IMM[0].zyww
  6: MOV OUT[0].w, IMM[0].zzzz
  7: END
";

/// Bands of the picture take different CASEs (CASE 1 falls through into CASE 2, DEFAULT for
/// the rest); a subroutine multiplies by a register chosen per pixel through ADDR[0].x (one
/// band's index is outside TEMP[0..4] and reads zero), then returns in the lower half only.
const SWITCH_CAL_INDIRECT: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..4]
DCL ADDR[0]
IMM[0] FLT32 { 4.0000, 0.2500, 1.0000, 0.0000 }
IMM[1] UINT32 { 0, 1, 2, 3 }
MUL TEMP[0].xy, IN[0], IMM[0].xxxx
F2I TEMP[0].zw, TEMP[0].xxxy
MOV TEMP[1], IMM[0].wwww
MOV TEMP[2], IMM[0].yyyy
MOV TEMP[3], IMM[0].zyww
MOV TEMP[4], IMM[0].wzyz
SWITCH TEMP[0].zzzz
CASE IMM[1].xxxx
MOV TEMP[1].x, IMM[0].zzzz
BRK
CASE IMM[1].yyyy
MOV TEMP[1].y, IMM[0].zzzz
CASE IMM[1].zzzz
MOV TEMP[1].z, IMM[0].zzzz
BRK
DEFAULT
MOV TEMP[1].xyz, IMM[0].yyyy
ENDSWITCH
CAL :22
MOV OUT[0].xyz, TEMP[1]
MOV OUT[0].w, IMM[0].zzzz
END
BGNSUB
UARL ADDR[0].x, TEMP[0].wwww
ADD TEMP[1].xyz, TEMP[1], TEMP[ADDR[0].x+1]
USGE TEMP[0].x, TEMP[0].wwww, IMM[1].zzzz
UIF TEMP[0].xxxx
RET
ENDIF
MUL TEMP[1].xyz, TEMP[1], IMM[0].yyyy
ENDSUB
";

#[wasm_bindgen_test]
async fn switch_subroutine_and_indirect_compiled_in_the_browser_match_the_interpreter() {
    same_both_ways("switch/cal/indirect", SWITCH_CAL_INDIRECT).await;
}

#[wasm_bindgen_test]
async fn arithmetic_compiled_in_the_browser_matches_the_interpreter() {
    same_both_ways("arith", ARITH).await;
}

#[wasm_bindgen_test]
async fn if_else_compiled_in_the_browser_matches_the_interpreter() {
    same_both_ways("if/else", IF_ELSE).await;
}

#[wasm_bindgen_test]
async fn loop_with_brk_compiled_in_the_browser_matches_the_interpreter() {
    same_both_ways("mandelbrot", LOOP_BRK).await;
}

/// A uniform array read through ADDR: column band `floor(7u)` of the picture (u from 0 to 1)
/// reads `CONST[0][band − 1]`, of which the render binds registers 0 to 3 only, times
/// `CONST[1][floor(2v)]` (one bound register: 1 in the half where v < 0.5, 0 past it).
const INDEXED_CONSTANTS: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..7]
DCL CONST[1][0..2]
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] FLT32 { 7.0000, 2.0000, 0.0000, 0.0000 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: MUL TEMP[0].y, IN[0].yyyy, IMM[0].yyyy
  2: ARL ADDR[0].x, TEMP[0].xxxx
  3: MOV TEMP[1], CONST[0][ADDR[0].x-1]
  4: ARL ADDR[0].x, TEMP[0].yyyy
  5: MUL OUT[0], TEMP[1], CONST[1][ADDR[0].x]
  6: END
";

/// CONST[0][ADDR..] and CONST[1][ADDR..] in the browser-compiled module: the interpreter's pixels,
/// and (worked out from the bounds rule: a register outside the bound buffer reads 0) exactly
/// the four bound colours and transparent black (an index of −1 or 4 to 6 in CONST[0], or 1 in
/// CONST[1]).
#[wasm_bindgen_test]
async fn indexed_constants_compiled_in_the_browser_match_the_interpreter() {
    let opts = |engine: &str| {
        let o = options(64, engine, None);
        let consts = js_sys::Array::new();
        // Red, green, blue, yellow in CONST[0][0..3]; CONST[1][0] = 1.
        for c in ["0:0=1,0,0,1", "0:1=0,1,0,1", "0:2=0,0,1,1", "0:3=1,1,0,1", "1:0=1,1,1,1"] {
            consts.push(&c.into());
        }
        let _ = js_sys::Reflect::set(&o, &"consts".into(), &consts);
        o
    };
    let pixels = same_both_ways_with("indexed constants", INDEXED_CONSTANTS, &[], opts).await;
    let mut colours: Vec<&[u8]> = pixels.chunks(4).collect();
    colours.sort();
    colours.dedup();
    let want: Vec<&[u8]> = vec![
        &[0, 0, 0, 0],
        &[0, 0, 255, 255],
        &[0, 255, 0, 255],
        &[255, 0, 0, 255],
        &[255, 255, 0, 255],
    ];
    assert_eq!(colours, want);
}

/// `options(size, engine)` with a 4x4 RGBA8 texture on unit 0 (LINEAR, REPEAT: every texel
/// different, so filtering and wrapping show).
pub(super) fn textured(size: u32, engine: &str) -> JsValue {
    let texels: Vec<String> = (0..16)
        .map(|n| {
            format!("[{}, {}, {}, 255]", 60 * (n % 4), 60 * (n / 4), 255 * ((n % 4) ^ (n / 4) & 1))
        })
        .collect();
    let description = format!(
        r#"{{"target": "2D", "format": "RGBA8", "width": 4, "height": 4, "texels": [{}], "sampler": {{"filter": "LINEAR", "wrap": "REPEAT"}}}}"#,
        texels.join(", ")
    );
    let o = options(size, engine, None);
    let list = js_sys::Array::new();
    let t = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&t, &"unit".into(), &0.into());
    let _ = js_sys::Reflect::set(&t, &"description".into(), &description.into());
    list.push(&t);
    let _ = js_sys::Reflect::set(&o, &"textures".into(), &list);
    o
}

pub(super) const TEXTURED: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..1]
IMM[0] FLT32 { 2.5000, 0.5000, 0.0000, 1.0000 }
  0: MUL TEMP[0], IN[0], IMM[0].xxxx
  1: TEX TEMP[1], TEMP[0], SAMP[0], 2D
  2: IF TEMP[1].zzzz
  3: MOV TEMP[0].w, IMM[0].yyyy
  4: TXB TEMP[1].xy, TEMP[0].yxzw, SAMP[0], 2D
  5: ENDIF
  6: MOV OUT[0], TEMP[1]
  7: END
";

/// TEX and TXB (inside an IF) through the module's `sample` import: the engine's own texture
/// code with the render's textures, so the pixels are the interpreter's.
#[wasm_bindgen_test]
async fn texture_sampling_compiled_in_the_browser_matches_the_interpreter() {
    textured_both_ways(TEXTURED, false).await;
}

/// A straight-line shader sampling with TEX, TXB with texel offsets and TXL: the module samples
/// a batch at a time through `sample_rows` (`jit::Layout::sample_rows`), whose rows the engine
/// copies out of the instance's memory and back.
const STRAIGHT_TEXTURED: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..3]
IMM[0] FLT32 { 2.5000, 0.5000, 0.0000, 1.0000 }
IMM[1] INT32 { 1, -1, 0, 0 }
  0: MUL TEMP[0], IN[0], IMM[0].xxxx
  1: TEX TEMP[1], TEMP[0], SAMP[0], 2D
  2: MOV TEMP[0].w, TEMP[1].zzzz
  3: MOV TEMP[3], IMM[1]
  4: TXB TEMP[2].xy, TEMP[0].yxzw, SAMP[0], 2D, TEMP[3].xyz
  5: MOV TEMP[0].w, IMM[0].yyyy
  6: TXL TEMP[2].zw, TEMP[0], SAMP[0], 2D
  7: ADD OUT[0], TEMP[1], TEMP[2]
  8: END
";

#[wasm_bindgen_test]
async fn batched_texture_sampling_compiled_in_the_browser_matches_the_interpreter() {
    textured_both_ways(STRAIGHT_TEXTURED, true).await;
}

/// Compiles `fs` in the browser, registers it and draws it with each engine: the compiled
/// pixels and work are the interpreter's. `batched`: the module samples a batch at a time.
async fn textured_both_ways(fs: &str, batched: bool) {
    let shader = tgsi::text::parse(fs).shader.unwrap_or_else(|| panic!("parses"));
    let program = tgsi::exec::build(&shader).unwrap_or_else(|d| panic!("{d:?}"));
    let layout = tgsi::jit::compile(&program).unwrap_or_else(|u| panic!("{}", u.reason)).layout;
    assert_eq!(layout.sample_rows, batched);
    let size = 64;
    let generated = tgsi::wasm::jit::jit_module(fs, None, textured(size, "auto"));
    assert_eq!(get(&generated, "ok"), JsValue::TRUE, "not generated: {:?}", json(&generated));
    let key = get(&generated, "key").as_string().unwrap_or_default();
    tgsi::wasm::jit::jit_forget(&key);
    register_in_browser(&key, &get(&generated, "bytes")).await;
    let interp = draw_with(fs, textured(size, "interpreter"));
    let compiled = draw_with(fs, textured(size, "compiled"));
    // The page's `auto` engine leaves sampling shaders to the interpreter, with the reason.
    let auto = draw_with(fs, textured(size, "auto"));
    assert_eq!(auto.engine, "interpreter", "{}", auto.jit);
    assert_eq!(auto.jit["state"], "refused", "{}", auto.jit);
    assert_eq!(auto.jit["reason"], tgsi::wasm::jit::SAMPLING_IN_AUTO, "{}", auto.jit);
    assert_eq!(auto.pixels, interp.pixels);
    assert_eq!(compiled.engine, "compiled", "{}", compiled.jit);
    assert_eq!(compiled.jit["interpreted"], 0, "{}", compiled.jit);
    assert!(interp.codes.is_empty(), "{:?}", interp.codes);
    assert_eq!(interp.pixels.len(), (size * size * 4) as usize);
    assert_eq!(interp.pixels, compiled.pixels);
    assert_eq!(interp.charged, compiled.charged);
    // The texture shows: more than a few distinct colours.
    let mut colours: Vec<&[u8]> = interp.pixels.chunks(4).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 16, "only {} colours", colours.len());
}

/// SIN and COS computed in the module (the interpreter's formula on `f64x2` pairs of lanes;
/// COS's argument runs up to 240, so the quads from 120 on call the engine's function through
/// the import instead, and one column of quads straddles the bound), EX2, LG2 and POW through
/// the module's imports (each calls the engine's own libm function): the bits are the
/// interpreter's (the legacy LIT, SCS, EXP and LOG are compared natively, `jit::differential`).
const TRANSCENDENTAL: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] FLT32 { 12.5000, 3.0000, 0.5000, -4.0000 }
IMM[1] FLT32 { 240.0000, 0.0000, 0.0000, 0.0000 }
  0: MUL TEMP[0], IN[0], IMM[0].xxxx
  1: MUL TEMP[0].y, IN[0].yyyy, IMM[1].xxxx
  2: SIN TEMP[1].x, TEMP[0].xxxx
  3: COS TEMP[1].y, TEMP[0].yyyy
  4: EX2 TEMP[1].z, -IN[0].xxxx
  5: LG2 TEMP[1].w, TEMP[0].yyyy
  6: POW TEMP[2], IN[0].xxxx, IMM[0].yyyy
  7: ADD TEMP[1], TEMP[1], TEMP[0]
  8: MAD TEMP[1], TEMP[1], TEMP[2], IMM[0].zzzz
  9: FRC OUT[0], TEMP[1]
 10: END
";

#[wasm_bindgen_test]
async fn transcendentals_compiled_in_the_browser_match_the_interpreter() {
    same_both_ways_with("transcendental", TRANSCENDENTAL, &[], |engine| options(64, engine, None))
        .await;
}

/// The legacy channel formulas computed in the module (DST, XPD, RFL, X2D, NRM, NRM4) and FMA
/// and LDEXP through the engine's imports (`v128` quads, wasm to wasm).
const LEGACY_FMA_LDEXP: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 { 3.0000, 0.2500, -1.5000, 0.7500 }
IMM[1] INT32 { 2, -3, 1, 0 }
  0: MAD TEMP[0], IN[0].xyyx, IMM[0].xxxx, IMM[0].zzzz
  1: XPD TEMP[1], TEMP[0], IN[0].yxwz
  2: NRM TEMP[2], TEMP[1]
  3: RFL TEMP[3], TEMP[2], TEMP[0]
  4: DST TEMP[1], TEMP[3], TEMP[0]
  5: X2D TEMP[2], TEMP[1], TEMP[0].wzyx, TEMP[3]
  6: NRM4 TEMP[0].w, TEMP[2]
  7: FMA TEMP[3], TEMP[2], TEMP[0], IMM[0].yyyy
  8: LDEXP TEMP[1], TEMP[3], IMM[1]
  9: ADD TEMP[1], TEMP[1], TEMP[0].wwww
 10: FRC OUT[0], TEMP[1]
 11: END
";

#[wasm_bindgen_test]
async fn legacy_formulas_fma_and_ldexp_compiled_in_the_browser_match_the_interpreter() {
    let opts = |engine: &str| options(64, engine, None);
    same_both_ways_with("legacy, FMA, LDEXP", LEGACY_FMA_LDEXP, &["P106"], opts).await;
}

#[wasm_bindgen_test]
async fn kill_if_compiled_in_the_browser_matches_the_interpreter() {
    same_both_ways("kill_if", KILL).await;
}

/// A budget smaller than the frame needs: both engines stop with X005, after the same charge,
/// showing the same partly drawn picture (the module gives the batch that would pass the
/// budget back to the interpreter, which stops where it always does).
#[wasm_bindgen_test]
async fn a_budget_that_runs_out_stops_both_engines_alike() {
    // Several batches: the first ones run compiled, the one that would pass the budget not.
    let size = 128;
    compile_in_browser(LOOP_BRK, size).await;
    let full = draw(LOOP_BRK, size, "interpreter", None);
    let budget = (full.charged * 0.6) as u64;
    let interp = draw(LOOP_BRK, size, "interpreter", Some(budget));
    let compiled = draw(LOOP_BRK, size, "compiled", Some(budget));
    assert!(interp.codes.contains(&"X005".to_string()), "{:?}", interp.codes);
    assert_eq!(interp.codes, compiled.codes);
    assert_eq!(compiled.engine, "compiled", "{}", compiled.jit);
    assert!(compiled.jit["interpreted"].as_f64().unwrap_or(0.0) >= 1.0, "{}", compiled.jit);
    assert_eq!(interp.charged, compiled.charged);
    assert_eq!(interp.pixels, compiled.pixels);
}

/// UMUL_HI has no compiled form: the generator refuses it, and the render says so and draws
/// with the interpreter.
#[wasm_bindgen_test]
fn a_refused_shader_is_drawn_by_the_interpreter_with_the_reason() {
    let fs = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: UMUL_HI OUT[0], IN[0], IN[0]
  1: END
";
    let generated = tgsi::wasm::jit::jit_module(fs, None, options(16, "auto", None));
    assert_eq!(get(&generated, "ok"), JsValue::FALSE);
    let reason = get(&generated, "reason").as_string().unwrap_or_default();
    assert!(reason.contains("UMUL_HI"), "{reason}");
    let d = draw(fs, 16, "compiled", None);
    assert_eq!(d.engine, "interpreter");
    assert_eq!(d.jit["state"], "refused");
    assert_eq!(d.jit["reason"].as_str(), Some(reason.as_str()));
    assert_eq!(d.pixels.len(), 16 * 16 * 4);
    assert!(d.codes.is_empty(), "{:?}", d.codes);
}

/// A module's memory holds the rows that cross the boundary (16 KiB each: 1024 quads of one
/// channel). No shader the validator accepts has enough of them to pass the page's 32 MiB
/// (`limits::MAX_JIT_MODULE_MEMORY`), so the guard is checked on a layout made by hand: 2100
/// input rows are 2100 x 16 KiB = 33.6 MB > 32 MiB (33 554 432 bytes), refused; 2000 rows
/// (32 768 000 bytes plus one kill row of 16 384) pass.
#[wasm_bindgen_test]
fn a_module_over_the_memory_limit_is_refused() {
    let big = tgsi::jit::Layout { rows_in: (0..2100).collect(), ..Default::default() };
    let reason = tgsi::wasm::jit::memory_refusal(&big).unwrap_or_default();
    assert!(reason.contains("MiB of memory"), "{reason}");
    let fits = tgsi::jit::Layout { rows_in: (0..2000).collect(), ..Default::default() };
    assert_eq!(tgsi::wasm::jit::memory_refusal(&fits), None);
}

#[path = "../common/unlimited.rs"]
mod unlimited;

/// A page's band has a time limit and no other thread to stop it: a compiled endless loop in
/// the browser whose time goes to calls into the engine ends at that limit because the module
/// looks at the stop flag every `STOP_CHECK_INTERVAL` of work (`jit_poll`, which reads the
/// clock). Without that the run would never end (the test runner's timeout fails it).
#[wasm_bindgen_test]
async fn a_time_limit_ends_a_compiled_loop_in_the_browser() {
    // SIN of arguments past 120: each a call into the engine's large-argument reduction.
    let fs =
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] FLT32 {1000.0, 0.001, 0.0, 0.0}\n\
              ADD TEMP[0], IN[0], IMM[0].xxxx\nBGNLOOP\nSIN TEMP[1].x, TEMP[0].xxxx\n\
              ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nENDLOOP\nMOV OUT[0], TEMP[1]\nEND\n";
    let shader = tgsi::text::parse(fs).shader.unwrap_or_else(|| panic!("parses"));
    let program = tgsi::exec::build(&shader).unwrap_or_else(|d| panic!("{d:?}"));
    let g = tgsi::wasm::jit::generate(&program).unwrap_or_else(|why| panic!("{why}"));
    let bytes = js_sys::Uint8Array::from(g.bytes.as_slice());
    register_in_browser(&format!("{:016x}", g.key), &bytes.into()).await;
    let frame = tgsi::exec::FrameBudget::with_time_limit(u64::MAX, 0.2, js_sys::Date::now);
    let mut m = tgsi::exec::Machine::in_frame(u64::MAX, &frame);
    let accel = tgsi::wasm::jit::accelerator(&g).make().expect("the instance is registered");
    m.accel = Some(Box::new(unlimited::Unlimited(accel)));
    let mut batch = tgsi::exec::Batch::new(&program, 4);
    let r = m.run(&program, &mut batch, &tgsi::exec::Constants::default());
    let d = r.expect_err("stopped").diagnostic;
    assert_eq!(d.code, "X010", "{}", d.message);
    assert!(d.message.contains("the frame's time limit"), "{}", d.message);
}

/// A mesh inside the view in the browser: softpipe shades its chunks with denormals flushed
/// (docs/interpreter.md, "Denormals"), so the page compiles that form of the shader too, a
/// second module the engine names (`pending`) once the first is registered. The shader scales
/// its input down to denormals and back up: flushed, the picture is black (the interpreter's
/// flushing program says so); kept, it would be the input. With both modules registered the
/// compiled frame is the interpreter's and no batch was left to the interpreter.
#[wasm_bindgen_test]
async fn a_mesh_inside_the_view_is_drawn_by_the_flushing_module_in_the_browser() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
              IMM[0] FLT32 {0.00000000000000000000000000000000000001, 1e38, 1.0, 0.0}\n\
              MUL TEMP[0], IN[0], IMM[0].xxxx\nMUL OUT[0].xyz, TEMP[0], IMM[0].yyyy\n\
              MOV OUT[0].w, IMM[0].zzzz\nEND\n";
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
              IMM[0] FLT32 {0.5, 0.5, 0.5, 0.5}\n\
              MOV OUT[0], IN[0]\nMAD OUT[1], IN[0], IMM[0], IMM[0]\nEND\n";
    let opts = |engine: &str| {
        let o = options(32, engine, None);
        js_sys::Reflect::set(&o, &"mesh".into(), &"quad".into()).unwrap_or_default();
        o
    };
    let draw = |engine: &str| {
        let r = tgsi::wasm::render::render(fs, Some(vs.to_string()), opts(engine));
        let pixels = get(&r, "pixels").dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec());
        (
            pixels.unwrap_or_default(),
            get(&r, "engine").as_string().unwrap_or_default(),
            json(&get(&r, "jit")),
        )
    };
    let module = || tgsi::wasm::jit::jit_module(fs, Some(vs.to_string()), opts("compiled"));
    let (theirs, _, interp) = draw("interpreter");
    assert!(interp["flushedQuads"].as_f64().unwrap_or(0.0) > 0.0, "the quad is inside the view");
    assert!(theirs.chunks(4).all(|p| p == [0, 0, 0, 255]), "flushed, the picture is black");
    // The plain program's module first, then the flushing program's.
    let plain = module();
    let plain_key = get(&plain, "key").as_string().unwrap_or_default();
    register_in_browser(&plain_key, &get(&plain, "bytes")).await;
    let (_, engine, jit) = draw("compiled");
    assert_eq!(jit["state"], "pending", "{jit}");
    assert_ne!(jit["key"], plain_key.as_str(), "the flushing module is another one: {jit}");
    assert_eq!(engine, "interpreter", "every chunk flushes, none ran compiled: {jit}");
    let flushing = module();
    let flushing_key = get(&flushing, "key").as_string().unwrap_or_default();
    assert_eq!(jit["key"], flushing_key.as_str(), "jitModule gives the module the render names");
    register_in_browser(&flushing_key, &get(&flushing, "bytes")).await;
    let (ours, engine, jit) = draw("compiled");
    assert_eq!(engine, "compiled", "{jit}");
    assert_eq!(jit["state"], "ready", "{jit}");
    assert_eq!(jit["interpreted"], 0, "{jit}");
    assert_eq!(jit["flushedQuads"], 0, "no quad left to the interpreter: {jit}");
    assert_eq!(ours, theirs, "the interpreter's picture");
}
