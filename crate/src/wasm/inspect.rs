//! wasm bindings: the inspector. Both calls take the same `(fsText, vsText, options)` as
//! `render` and work on the same prepared job (the same compiled program the canvas used).
//!
//! - `tracePixel(fs, vs, options, x, y)` → `{ ok, trace, diagnostics, ms }`: `trace` is the
//!   JSON of `tgsi trace --json` (README, "Trace JSON"), x from the left, y from the top.
//! - `probeFrame(fs, vs, options, watch)` with `watch` null or `{ pc, register }` (`"TEMP[0].x"`)
//!   → `{ ok, width, height, counts: Uint32Array, values: Uint32Array, state: Uint8Array,
//!   total, max, diagnostics, ms }`: per pixel (top row first) the instructions its fragment ran,
//!   and the register channel's bits right after instruction `pc` (state 2) or state 1 when the
//!   fragment never ran it, 0 when no fragment covers the pixel.

use super::read;
use super::render::{diagnostic_out, read_call, set, with_job, Call};
use crate::diag::JsDiagnostic;
use crate::ir::LineIndex;
use crate::render::inspect::{probe_frame, trace_pixel, trace_vertex, vertex_table, Watched};
use crate::render::job::SourcedDiagnostic;
use crate::render::job::{render_error, Job};
use crate::texture::bind::Bindings;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Runs `f` on the call's prepared job: the job's own diagnostics, then `f`'s error if any.
pub(super) fn on_job<T>(
    call: Call,
    f: impl FnOnce(&Job, &mut Bindings, u64) -> Result<T, SourcedDiagnostic>,
) -> (Option<T>, Vec<SourcedDiagnostic>) {
    with_job(call, |prepared, call| {
        let mut diags = prepared.diagnostics.clone();
        let Some(job) = prepared.job.as_ref() else { return (None, diags) };
        match f(job, &mut prepared.textures, call.budget) {
            Ok(v) => (Some(v), diags),
            Err(d) => {
                diags.push(d);
                (None, diags)
            }
        }
    })
}

pub(super) fn diagnostics(list: &[SourcedDiagnostic]) -> JsValue {
    let out: Vec<JsDiagnostic> = list.iter().map(diagnostic_out).collect();
    out.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

/// Traces one pixel of the frame `render` would draw with the same arguments.
#[wasm_bindgen(js_name = tracePixel)]
pub fn trace_pixel_js(
    fs_text: &str,
    vs_text: Option<String>,
    options: JsValue,
    x: u32,
    y: u32,
) -> JsValue {
    let start = js_sys::Date::now();
    let call = read_call(fs_text, vs_text, options);
    let result = js_sys::Object::new();
    let outcome = on_job(call, |job, textures, budget| {
        let t = trace_pixel(job, x, y, textures, budget)?;
        Ok(t.to_json(fs_text, &LineIndex::new(fs_text)))
    });
    let (trace, diags) = outcome;
    set(&result, "ok", &JsValue::from_bool(trace.is_some()));
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let trace = trace.map_or(Ok(JsValue::NULL), |t| t.serialize(&serializer));
    set(&result, "trace", &trace.unwrap_or(JsValue::NULL));
    set(&result, "diagnostics", &diagnostics(&diags));
    set(&result, "ms", &JsValue::from(js_sys::Date::now() - start));
    result.into()
}

/// The watched instruction and register of `probeFrame` (`{ pc, register }`, both required).
fn read_watch(watch: JsValue) -> Result<(u32, String), String> {
    let (pc, register) = read::read_whole(watch, "watch field", |f| {
        let (pc, register) = (f.u32("pc"), f.string("register"));
        if pc.is_none() && f.raw("pc").is_none() {
            f.missing("pc", "a whole number from 0 to 4294967295");
        }
        if register.is_none() && f.raw("register").is_none() {
            f.missing("register", "a string");
        }
        (pc, register)
    })?;
    // Both are there when nothing was missing or wrong.
    pc.zip(register).ok_or_else(|| "the watch could not be read".to_string())
}

/// The heat map and the image at instruction N of the frame `render` would draw.
#[wasm_bindgen(js_name = probeFrame)]
pub fn probe_frame_js(
    fs_text: &str,
    vs_text: Option<String>,
    options: JsValue,
    watch: JsValue,
) -> JsValue {
    let start = js_sys::Date::now();
    let call = read_call(fs_text, vs_text, options);
    let result = js_sys::Object::new();
    let watched: Result<Option<Watched>, SourcedDiagnostic> =
        if watch.is_null() || watch.is_undefined() {
            Ok(None)
        } else {
            read_watch(watch)
                .and_then(|(pc, register)| Watched::parse(pc, &register))
                .map(Some)
                .map_err(|e| render_error("R002", e))
        };
    let outcome =
        on_job(call, |job, textures, budget| probe_frame(job, watched?, textures, budget));
    let (image, diags) = outcome;
    set(&result, "ok", &JsValue::from_bool(image.is_some()));
    if let Some(image) = image {
        let (total, max) = image.totals();
        set(&result, "width", &JsValue::from(image.width));
        set(&result, "height", &JsValue::from(image.height));
        set(&result, "counts", &js_sys::Uint32Array::from(image.counts.as_slice()).into());
        set(&result, "values", &js_sys::Uint32Array::from(image.values.as_slice()).into());
        set(&result, "state", &js_sys::Uint8Array::from(image.state.as_slice()).into());
        set(&result, "total", &JsValue::from(total as f64));
        set(&result, "max", &JsValue::from(max));
    }
    set(&result, "diagnostics", &diagnostics(&diags));
    set(&result, "ms", &JsValue::from(js_sys::Date::now() - start));
    result.into()
}

/// Every vertex's inputs and outputs (the vertex stage of the frame `render` would draw):
/// `{ ok, count, inputRegisters, outputRegisters, inputs: Float32Array, outputs: Float32Array,
/// diagnostics }`, `inputs[(v * inputRegisters + r) * 4 + c]` and likewise for outputs.
#[wasm_bindgen(js_name = vertexTable)]
pub fn vertex_table_js(fs_text: &str, vs_text: Option<String>, options: JsValue) -> JsValue {
    let call = read_call(fs_text, vs_text, options);
    let result = js_sys::Object::new();
    let (table, diags) = on_job(call, |job, textures, budget| vertex_table(job, textures, budget));
    set(&result, "ok", &JsValue::from_bool(table.is_some()));
    if let Some(t) = table {
        let flat = |v: &[[f32; 4]]| -> Vec<f32> { v.iter().flatten().copied().collect() };
        set(&result, "count", &JsValue::from(t.vertex_count() as u32));
        set(&result, "inputRegisters", &JsValue::from(t.input_registers as u32));
        set(&result, "outputRegisters", &JsValue::from(t.output_registers as u32));
        set(&result, "inputs", &js_sys::Float32Array::from(flat(&t.inputs).as_slice()).into());
        set(&result, "outputs", &js_sys::Float32Array::from(flat(&t.outputs).as_slice()).into());
    }
    set(&result, "diagnostics", &diagnostics(&diags));
    result.into()
}

/// The trace of one vertex: `{ ok, trace, diagnostics, ms }`, `trace` as `VertexTrace::to_json`
/// (lanes in vertex order).
#[wasm_bindgen(js_name = traceVertex)]
pub fn trace_vertex_js(
    fs_text: &str,
    vs_text: Option<String>,
    options: JsValue,
    index: u32,
) -> JsValue {
    let start = js_sys::Date::now();
    let vs_source = vs_text.clone().unwrap_or_default();
    let call = read_call(fs_text, vs_text, options);
    let result = js_sys::Object::new();
    let (trace, diags) = on_job(call, |job, textures, budget| {
        let t = trace_vertex(job, index as usize, textures, budget)?;
        Ok(t.to_json(&vs_source, &LineIndex::new(&vs_source)))
    });
    set(&result, "ok", &JsValue::from_bool(trace.is_some()));
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let trace = trace.map_or(Ok(JsValue::NULL), |t| t.serialize(&serializer));
    set(&result, "trace", &trace.unwrap_or(JsValue::NULL));
    set(&result, "diagnostics", &diagnostics(&diags));
    set(&result, "ms", &JsValue::from(js_sys::Date::now() - start));
    result.into()
}
