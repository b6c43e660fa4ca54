//! wasm binding of `tgsi diff` (`crate::diff`) for the page's Compare mode.
//!
//! `compareShaders(a, b, options)` → `{ ok, error, diagnosticsA, diagnosticsB, same, report,
//! map }`: the same comparison and the same report text as `tgsi diff`, and for fragment shaders
//! the map of the two pictures (`{ size, ulps, differing, largest, first }`, `ulps` row by row
//! from the top: 0 the same, else the largest distance over the pixel's channels,
//! 4294967295 when a sign, an infinity or a NaN differs). Options (all optional): `size` (the
//! picture's side, 2..=512, default 64), `seed` (default 1), `trials` (1..=10000, default 1000),
//! `exactNan`, and `pixel: [x, y]` (from the top): then `report` is that pixel's — what differs
//! there and both traces, from the same draws — and `map` is null. Textures are not bound
//! (sampling gives zero in both). `ok` is false when a shader has errors (listed per shader)
//! or the two cannot be compared (`error`).

use super::read;
use crate::diag::{self, JsDiagnostic};
use crate::diff::picture::{PictureMap, Pictures};
use crate::diff::{self, Options, Side};
use crate::exec::NoTextures;
use crate::ir::LineIndex;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Largest picture side and most trials the page may ask for (each click draws both again).
pub const MAX_SIZE: u32 = 512;
pub const MAX_TRIALS: u32 = 10_000;

#[derive(Default)]
struct CompareOptions {
    size: Option<u32>,
    seed: Option<u64>,
    trials: Option<u32>,
    exact_nan: bool,
    pixel: Option<[u32; 2]>,
}

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Compared {
    ok: bool,
    error: Option<String>,
    diagnostics_a: Vec<JsDiagnostic>,
    diagnostics_b: Vec<JsDiagnostic>,
    same: bool,
    report: String,
    map: Option<PictureMap>,
}

/// Parses and compiles one side; its diagnostics (located) either way.
fn side(text: &str) -> (Option<Side<'_>>, Vec<JsDiagnostic>) {
    let parsed = crate::text::parse(text);
    let mut diags = parsed.diagnostics;
    let index = LineIndex::new(text);
    let mut side = None;
    if let Some(shader) = parsed.shader.filter(|_| !diag::has_errors(&diags)) {
        match crate::exec::build(&shader) {
            Ok(program) => side = Some(Side { text, shader, program }),
            Err(more) => diags.extend(more),
        }
    }
    diag::locate(&mut diags, &index);
    (side, diags.iter().map(JsDiagnostic::from).collect())
}

/// See the module comment.
#[wasm_bindgen(js_name = compareShaders)]
pub fn compare_shaders(a: &str, b: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let opts = read::read_whole(options, "compare option", |f| CompareOptions {
        size: f.u32("size"),
        seed: f.u64("seed"),
        trials: f.u32("trials"),
        exact_nan: f.bool("exactNan").unwrap_or(false),
        pixel: f.u32s::<2>("pixel"),
    })
    .map_err(|e| JsValue::from_str(&e))?;
    let mut out = Compared::default();
    let (sa, da) = side(a);
    let (sb, db) = side(b);
    out.diagnostics_a = da;
    out.diagnostics_b = db;
    let (Some(sa), Some(sb)) = (sa, sb) else {
        out.error = Some("only shaders without errors compare".into());
        return serialize(&out);
    };
    let run = Options {
        seed: opts.seed.unwrap_or(1),
        trials: opts.trials.unwrap_or(1000).clamp(1, MAX_TRIALS),
        exact_nan: opts.exact_nan,
        budget: crate::limits::default_frame_budget(1),
        size: opts.size.unwrap_or(64).clamp(2, MAX_SIZE),
        grid: [1, 1, 1],
        block: None,
    };
    let names = ["A", "B"];
    if let Some([x, y]) = opts.pixel {
        match Pictures::draw(&sa, &sb, &run, "fullscreen", &mut NoTextures, &mut NoTextures) {
            Ok(p) => {
                let d = p.at(x, y, run.exact_nan, &mut NoTextures, &mut NoTextures);
                out.report = diff::report::pixel_text(&d, names, [a, b], run.exact_nan);
                out.same = d.found == diff::Found::Same;
                out.ok = true;
            }
            Err(_) => out.error = Some("the pictures could not be drawn".into()),
        }
        return serialize(&out);
    }
    match diff::compare(&sa, &sb, &run, &mut NoTextures, &mut NoTextures) {
        Ok(result) => {
            out.ok = true;
            out.same = result.same();
            out.report = diff::report::text(&result, names, [a, b], run.seed, run.exact_nan);
            out.map = result.picture;
        }
        Err(e) => out.error = Some(e),
    }
    serialize(&out)
}

fn serialize<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| JsValue::from_str(&e.to_string()))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EngineColours {
    ok: bool,
    /// `[pixel][channel]` raw bits, image order (top-left, top-right, bottom-left, bottom-right).
    colours: Option<[[u32; 4]; 4]>,
    reason: Option<String>,
}

impl From<&Result<[[u32; 4]; 4], String>> for EngineColours {
    fn from(r: &Result<[[u32; 4]; 4], String>) -> Self {
        EngineColours {
            ok: r.is_ok(),
            colours: r.as_ref().ok().copied(),
            reason: r.as_ref().err().cloned(),
        }
    }
}

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct PixelBackends {
    ok: bool,
    error: Option<String>,
    /// `tgsi trace --backends`'s table.
    text: String,
    quad: [u32; 2],
    skipped: [bool; 4],
    interpreter: Option<[[u32; 4]; 4]>,
    compiled: Option<EngineColours>,
    agal: Option<EngineColours>,
}

/// `pixelBackends(fs, vs, options, x, y)` (`render`'s arguments; x, y from the top): COLOR[0]
/// of the pixel's quad in the interpreter, the compiling tier (when this worker holds the
/// shader's compiled module) and the AGAL executor (`diff::backends`) → `{ ok, error, text,
/// quad, skipped, interpreter, compiled: { ok, colours, reason }, agal: { … } }`.
#[wasm_bindgen(js_name = pixelBackends)]
pub fn pixel_backends(
    fs: &str,
    vs: Option<String>,
    options: JsValue,
    x: u32,
    y: u32,
) -> Result<JsValue, JsValue> {
    let call = super::render::read_call(fs, vs, options);
    let result = super::render::with_job(call, |prepared, call| {
        let compiled = compiled_form(prepared);
        let Some(job) = prepared.job.as_mut() else {
            let first = prepared.diagnostics.iter().find(|d| d.diagnostic.is_error());
            return Err(first.map_or("not drawn".into(), |d| d.diagnostic.message.clone()));
        };
        crate::diff::backends::gather(fs, job, compiled, x, y, &mut prepared.textures, call.budget)
    });
    let out = match result {
        Ok(b) => PixelBackends {
            ok: true,
            error: None,
            text: crate::diff::backends::text(&b),
            quad: b.quad,
            skipped: b.skipped,
            interpreter: Some(b.interpreter),
            compiled: Some((&b.compiled).into()),
            agal: Some((&b.agal).into()),
        },
        Err(e) => PixelBackends { error: Some(e), ..PixelBackends::default() },
    };
    serialize(&out)
}

/// The compiling tier's form of the job's fragment program, if this worker has registered its
/// module (the render workers compile it for the canvas), or why not; the job is left to the
/// interpreter.
fn compiled_form(
    prepared: &mut super::render::Prepared,
) -> Result<std::sync::Arc<dyn crate::exec::MakeAccelerator>, String> {
    #[cfg(feature = "jit")]
    {
        let used = super::jit::attach(prepared, super::jit::Mode::Compiled);
        let accel = prepared.job.as_mut().and_then(|j| j.fs_accel.take());
        accel.ok_or_else(|| match used.state {
            "pending" => "the compiled module is not ready in this worker yet (draw with the compiled engine first)".into(),
            _ => used.reason.unwrap_or_else(|| "not compiled".into()),
        })
    }
    #[cfg(not(feature = "jit"))]
    {
        let _ = prepared;
        Err("this engine has no compiling tier".into())
    }
}
