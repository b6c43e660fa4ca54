//! wasm bindings: the compute and geometry stages for the page's stage selector.
//!
//! - `compute(text, options)` runs a compute shader as `tgsi run` does (`exec::dispatch`, the
//!   same compile path) and returns `{ ok, diagnostics, buffers, atomics, images, block, grid,
//!   instructions, work, ms }` (`instructions` dispatched, `work` the quad-instructions the
//!   budget counted, `exec::work`). Options (all optional): `grid` ([x, y, z], default [1, 1, 1]),
//!   `block` ([x, y, z]; default the shader's CS_FIXED_BLOCK_*), `buffers` and `atomics`
//!   (`[{ index, bytes }]`, bytes a Uint8Array or an array of numbers), `images` (`[{ index,
//!   format, width, height, depth, bytes }]`, bytes optional), `shared` (bytes of shared memory
//!   per block), `consts` (`"B:I=X,Y,Z,W"` strings), `budget` (quad-instructions of the whole
//!   dispatch). Each resource comes back with its bytes after the run as a Uint8Array.
//! - `geometryPrimitives(fs, vs, options)` takes `render`'s arguments (with `options.gs`) and
//!   returns what the geometry shader emitted for the mesh, on the same prepared job as the
//!   canvas: `{ ok, info: { input, output, maxVertices, invocations }, inputPrimitives, count,
//!   primitives: [{ stream, vertices: [[[x, y, z, w] per OUT register]] }] (the first
//!   [`LISTED_PRIMITIVES`]), diagnostics, ms }`.

use super::read::{self, Fields};
use super::render::{read_call, set};
use crate::diag::{self, Diagnostic, JsDiagnostic};
use crate::exec::memory::MAX_MEMORY_BYTES;
use crate::exec::{dispatch, Constants, FrameBudget, GeometryInfo, ImageBuffer, ImageFormat};
use crate::exec::{Machine, Resources};
use crate::ir::{LineIndex, Processor, Span};
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

use crate::limits::MAX_BOUND_RESOURCES as MAX_RESOURCES;
/// Most emitted primitives listed (all of them are still drawn).
pub const LISTED_PRIMITIVES: usize = 1024;

#[derive(Default)]
struct BytesOption {
    index: u32,
    bytes: Vec<u8>,
}

#[derive(Default)]
struct ImageOption {
    index: u32,
    format: String,
    width: u32,
    height: u32,
    depth: u32,
    bytes: Vec<u8>,
}

#[derive(Default)]
struct ComputeOptions {
    grid: Option<[u32; 3]>,
    block: Option<[u32; 3]>,
    buffers: Vec<BytesOption>,
    atomics: Vec<BytesOption>,
    images: Vec<ImageOption>,
    shared: Option<u32>,
    consts: Vec<String>,
    budget: Option<u64>,
}

/// Reads the compute options field by field (`wasm/read.rs`): a field that cannot be read is a
/// problem and takes its default.
fn read_options(options: JsValue) -> (ComputeOptions, Vec<String>) {
    let bytes =
        |mut b: Fields| BytesOption { index: b.u32("index").unwrap_or(0), bytes: b.bytes("bytes") };
    read::read(options, "compute option", |f| ComputeOptions {
        grid: f.u32s::<3>("grid"),
        block: f.u32s::<3>("block"),
        buffers: f.objects("buffers", bytes),
        atomics: f.objects("atomics", bytes),
        images: f.objects("images", |mut i| ImageOption {
            index: i.u32("index").unwrap_or(0),
            format: i.string("format").unwrap_or_default(),
            width: i.u32("width").unwrap_or(0),
            height: i.u32("height").unwrap_or(0),
            depth: i.u32("depth").unwrap_or(0),
            bytes: i.bytes("bytes"),
        }),
        shared: f.u32("shared"),
        consts: f.strings("consts"),
        budget: f.u64("budget"),
    })
}

fn options_error(message: String) -> Diagnostic {
    Diagnostic::error("R009", message, Span::default())
}

/// Binds the byte resources of one kind, refusing too many or too large ones.
fn bind_bytes(
    list: Vec<BytesOption>,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<u32, Vec<u8>> {
    let mut out = BTreeMap::new();
    if list.len() > MAX_RESOURCES {
        errors.push(options_error(format!("more than {MAX_RESOURCES} {what}s")));
        return out;
    }
    for b in list {
        if b.bytes.len() > MAX_MEMORY_BYTES {
            errors.push(options_error(format!(
                "{what} {}: more than {MAX_MEMORY_BYTES} bytes",
                b.index
            )));
        } else {
            out.insert(b.index, b.bytes);
        }
    }
    out
}

fn bind_images(list: Vec<ImageOption>, errors: &mut Vec<Diagnostic>) -> BTreeMap<u32, ImageBuffer> {
    let mut out = BTreeMap::new();
    if list.len() > MAX_RESOURCES {
        errors.push(options_error(format!("more than {MAX_RESOURCES} images")));
        return out;
    }
    for i in list {
        let Some(format) = ImageFormat::from_name(&i.format) else {
            errors.push(options_error(format!(
                "image {}: unknown format '{}' (one of {})",
                i.index,
                i.format,
                ImageFormat::names().join(", ")
            )));
            continue;
        };
        // The size is checked (ImageBuffer::new) before its texels are allocated.
        match ImageBuffer::new(format, i.width, i.height, i.depth) {
            Ok(mut img) => {
                let n = i.bytes.len().min(img.data.len());
                img.data[..n].copy_from_slice(&i.bytes[..n]);
                out.insert(i.index, img);
            }
            Err(e) => errors.push(options_error(format!("image {}: {e}", i.index))),
        }
    }
    out
}

/// Runs a compute shader on the page's resources; never throws for bad shaders or options.
#[wasm_bindgen]
pub fn compute(text: &str, options: JsValue) -> JsValue {
    let start = js_sys::Date::now();
    let result = js_sys::Object::new();
    let mut errors: Vec<Diagnostic> = Vec::new();
    let (opts, problems) = read_options(options);
    for problem in problems {
        errors.push(options_error(read::took_default(&problem)));
    }
    let grid = opts.grid.unwrap_or([1, 1, 1]);
    let mut res = Resources::new();
    res.buffers = bind_bytes(opts.buffers, "buffer", &mut errors);
    res.atomic_buffers = bind_bytes(opts.atomics, "atomic buffer", &mut errors);
    res.images = bind_images(opts.images, &mut errors);
    if let Some(n) = opts.shared {
        res.shared = vec![0; (n as usize).min(MAX_MEMORY_BYTES)];
    }
    let mut consts = Constants::new();
    for c in &opts.consts {
        match crate::render::options::parse_const(c) {
            Ok(v) => consts.set_bits(v.buffer as usize, v.index as usize, v.bits),
            Err(e) => errors.push(Diagnostic::error("R004", e, Span::default())),
        }
    }
    // An explicit budget is an absolute total; without one the dispatch gets the default for
    // its size (`exec::compute::default_budget`, known once the shader is built).
    let budget = match opts.budget.map(crate::limits::check_budget) {
        Some(Err(e)) => {
            errors.push(options_error(e));
            None
        }
        Some(Ok(b)) => Some(b),
        None => None,
    };
    let mut sourced: Vec<JsDiagnostic> =
        errors.iter().map(|d| JsDiagnostic::with_source("render", d)).collect();
    let (found, stats, block) = if errors.is_empty() {
        run_compute(text, &consts, &mut res, grid, opts.block, budget)
    } else {
        (Vec::new(), None, None)
    };
    sourced.extend(found.iter().map(|d| JsDiagnostic::with_source("compute", d)));
    let ok = stats.is_some() && !found.iter().any(Diagnostic::is_error);
    set(&result, "ok", &JsValue::from_bool(ok));
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    set(&result, "diagnostics", &sourced.serialize(&serializer).unwrap_or(JsValue::NULL));
    let bytes_list = |map: &BTreeMap<u32, Vec<u8>>| {
        let list = js_sys::Array::new();
        for (index, bytes) in map {
            let o = js_sys::Object::new();
            set(&o, "index", &JsValue::from(*index));
            set(&o, "bytes", &js_sys::Uint8Array::from(bytes.as_slice()).into());
            list.push(&o);
        }
        list
    };
    set(&result, "buffers", &bytes_list(&res.buffers).into());
    set(&result, "atomics", &bytes_list(&res.atomic_buffers).into());
    let images = js_sys::Array::new();
    for (index, img) in &res.images {
        let o = js_sys::Object::new();
        set(&o, "index", &JsValue::from(*index));
        set(&o, "format", &JsValue::from_str(img.format.name()));
        set(&o, "width", &JsValue::from(img.width));
        set(&o, "height", &JsValue::from(img.height));
        set(&o, "depth", &JsValue::from(img.depth));
        set(&o, "bytes", &js_sys::Uint8Array::from(img.data.as_slice()).into());
        images.push(&o);
    }
    set(&result, "images", &images.into());
    let triple = |v: [u32; 3]| js_sys::Uint32Array::from(v.as_slice()).into();
    set(&result, "grid", &triple(grid));
    set(&result, "block", &block.map_or(JsValue::NULL, triple));
    set(&result, "instructions", &JsValue::from(stats.map_or(0.0, |s| s.instructions as f64)));
    // What the budget counted: quad-instructions (`exec::work`).
    set(&result, "work", &JsValue::from(stats.map_or(0.0, |s| s.work as f64)));
    set(&result, "ms", &JsValue::from(js_sys::Date::now() - start));
    result.into()
}

/// Parses, compiles (as `tgsi run`: `exec::build`) and dispatches; the diagnostics come with
/// their lines and columns. Returns them, the run's counters when it finished, and the block
/// size used.
fn run_compute(
    text: &str,
    consts: &Constants,
    res: &mut Resources,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
    budget: Option<u64>,
) -> (Vec<Diagnostic>, Option<crate::exec::RunStats>, Option<[u32; 3]>) {
    let index = LineIndex::new(text);
    let parsed = crate::text::parse(text);
    let mut found = parsed.diagnostics;
    let finish = |mut found: Vec<Diagnostic>| {
        diag::locate(&mut found, &index);
        found
    };
    let Some(shader) = parsed.shader.filter(|_| !diag::has_errors(&found)) else {
        return (finish(found), None, None);
    };
    if shader.processor != Processor::Compute {
        found.push(Diagnostic::error(
            "R100",
            format!("expected a compute shader (COMP) here, found {}", shader.processor.name()),
            shader.header_span,
        ));
        return (finish(found), None, None);
    }
    let program = match crate::exec::build(&shader) {
        Ok(p) => p,
        Err(more) => {
            found.extend(more);
            return (finish(found), None, None);
        }
    };
    let used = block.or_else(|| crate::exec::compute::fixed_block_size(&program));
    let budget =
        budget.unwrap_or_else(|| crate::exec::compute::default_budget(&program, grid, block));
    let frame = FrameBudget::new(budget);
    let mut machine = Machine::in_frame(budget, &frame);
    let mut textures = crate::exec::NoTextures;
    match dispatch(&mut machine, &program, consts, &mut textures, res, grid, block) {
        Ok(stats) => (finish(found), Some(stats), used),
        Err(e) => {
            found.push(e.diagnostic);
            (finish(found), None, used)
        }
    }
}

/// What the geometry shader of `render`'s job emits, listed for the page.
#[wasm_bindgen(js_name = geometryPrimitives)]
pub fn geometry_primitives(fs_text: &str, vs_text: Option<String>, options: JsValue) -> JsValue {
    let start = js_sys::Date::now();
    let call = read_call(fs_text, vs_text, options);
    let result = js_sys::Object::new();
    let (out, diags) = super::inspect::on_job(call, |job, textures, budget| {
        let info = job.gs.as_ref().map(|g| GeometryInfo::of(&g.program));
        let inputs = job.mesh.triangles().len();
        match crate::render::job::geometry_output(job, textures, budget) {
            Some(r) => r.map(|o| Some((o, info, inputs))),
            None => Ok(None),
        }
    });
    let out = out.flatten();
    set(&result, "ok", &JsValue::from_bool(out.is_some()));
    if let Some((out, info, inputs)) = out {
        if let Some(info) = info {
            let o = js_sys::Object::new();
            set(&o, "input", &JsValue::from_str(info.input.name()));
            set(&o, "output", &JsValue::from_str(info.output.name()));
            set(&o, "maxVertices", &JsValue::from(info.max_vertices));
            set(&o, "invocations", &JsValue::from(info.invocations));
            set(&result, "info", &o.into());
        }
        set(&result, "inputPrimitives", &JsValue::from(inputs as u32));
        set(&result, "count", &JsValue::from(out.primitives.len() as u32));
        let list = js_sys::Array::new();
        for p in out.primitives.iter().take(LISTED_PRIMITIVES) {
            let o = js_sys::Object::new();
            set(&o, "stream", &JsValue::from(p.stream));
            let vertices = js_sys::Array::new();
            for v in &p.vertices {
                let regs = js_sys::Array::new();
                for r in v {
                    let channels = js_sys::Array::new();
                    for c in r {
                        channels.push(&JsValue::from(f64::from(f32::from_bits(*c))));
                    }
                    regs.push(&channels);
                }
                vertices.push(&regs);
            }
            set(&o, "vertices", &vertices.into());
            list.push(&o);
        }
        set(&result, "primitives", &list.into());
    } else if diags.iter().all(|d| !d.diagnostic.is_error()) {
        set(
            &result,
            "error",
            &JsValue::from_str("the request has no geometry shader (options.gs)"),
        );
    }
    set(&result, "diagnostics", &super::inspect::diagnostics(&diags));
    set(&result, "ms", &JsValue::from(js_sys::Date::now() - start));
    result.into()
}
