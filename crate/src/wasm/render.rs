//! wasm bindings: render. `render(fsText, vsText | null, options)` draws a frame (or a band of
//! rows of it, so several workers can split a frame) and returns
//! `{ ok, width, height, rowStart, rowEnd, pixels: Uint8Array (RGBA8, top row first, only the
//! requested rows), diagnostics: [...] (errors and warnings), ms, quads, stats: { triangles,
//! quads, fragments, flushedQuads (shaded flushing denormals, `render::DrawStats`), charged (what
//! the frame's budget was charged) } }`, and with the page's
//! engine `engine` and `jit` (`wasm/jit.rs`).
//!
//! Options (all optional): `width`, `height` (256), `mesh`, `vertices` (the text of a vertices
//! file, instead of `mesh`), `consts` (strings `"B:I=X,Y,Z,W"` as on the command line, every
//! stage), `vsConsts`, `fsConsts`, `gsConsts` (the same, one stage each), `time`, `timeDelta`, `frame`,
//! `mouse` ([x, y]), `mouseDown`, `rowStart`, `rowEnd` (rows counted from the top, end
//! exclusive), `budget` (quad-instructions for the whole frame, `exec::work`), `bands` (the frame is drawn in this
//! many calls, e.g. one per worker: each gets `budget / bands`), `timeLimit` (seconds: the call
//! stops itself with `X010` once they have passed, `exec::FrameBudget::with_time_limit`; only a
//! positive number counts), `textures` (`[{ unit,
//! description }]` or `[{ unit, width, height, rgba,
//! filter, wrap }]`, see [`TextureOption`]), `gs` (the text of a geometry shader, run between
//! the vertex stage and rasterization), `target` (which buffer `pixels` holds: a colour target
//! 0..7, default 0, or `"depth"`, the depth buffer as greyscale), `allTargets` (also return
//! `targetPixels`, every colour target's rows, and `depthPixels`; not in the widget's lean
//! engine). The result also says
//! `targets` (how many colour targets the fragment shader writes), `depthTest` (whether the draw
//! tests and writes depth) and `writesDepth` (whether the fragment shader writes POSITION).
//! `engine` ("auto", "interpreter" (default) or "compiled": which engine may run the fragment
//! shader, `wasm/jit.rs`). `pixelsInto` (a `Uint8Array` of exactly the rows' RGBA8 size: the
//! pixels are copied into it and it is returned as `pixels`, instead of a new array;
//! [`pixels_out`]). `renderPage` is the same function.

use super::read;
use crate::diag::JsDiagnostic;
use crate::render::framebuffer::Framebuffer;
use crate::render::job::Job;
use crate::render::job::{self, render_error, Request, Source, SourcedDiagnostic};
use crate::render::options::{self, parse_const, RenderOptions, DEFAULT_SIZE};
use crate::render::uniforms::Builtins;
use crate::texture::bind::Bindings;
use crate::texture::desc::{RgbaImage, TextureData, TextureSpec};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The render options (`read_options` reads them; the names in the module's comment).
#[derive(Default)]
struct Options {
    width: Option<u32>,
    height: Option<u32>,
    mesh: Option<String>,
    vertices: Option<String>,
    gs: Option<String>,
    /// A number (colour target) or `"depth"`, read as it comes.
    target: JsValue,
    /// The array to copy the pixels into, if it is one ([`pixels_out`]).
    pixels_into: Option<js_sys::Uint8Array>,
    /// Not in the widget's lean engine (no caller there; it keeps that engine within its size).
    #[cfg(feature = "full")]
    all_targets: bool,
    consts: Vec<String>,
    vs_consts: Vec<String>,
    fs_consts: Vec<String>,
    gs_consts: Vec<String>,
    time: f32,
    time_delta: f32,
    frame: u32,
    mouse: Option<[f32; 2]>,
    mouse_down: bool,
    row_start: Option<u32>,
    row_end: Option<u32>,
    budget: Option<u64>,
    /// The frame is drawn as this many bands (one call each): each gets its share of the budget.
    bands: Option<u32>,
    /// Seconds after which the call stops itself (a worker running it cannot be interrupted).
    time_limit: Option<f64>,
    textures: Vec<TextureOption>,
    /// Which engine runs the fragment shader: "auto", "interpreter" (the default) or
    /// "compiled" (`wasm/jit.rs`).
    #[cfg(feature = "jit")]
    engine: Option<String>,
}

/// The buffer read back: only that one is converted, so unused targets cost nothing.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum ReadBack {
    Color(usize),
    Depth,
}

impl ReadBack {
    fn rows(self, fb: &Framebuffer, rows: std::ops::Range<u32>) -> Vec<u8> {
        match self {
            ReadBack::Color(t) => fb.target_rgba8_rows(t, rows),
            ReadBack::Depth => fb.depth_rgba8_rows(rows),
        }
    }
}

/// One texture for `SAMP[unit]`, either a JSON texture description (`description`, the format
/// of docs/textures.md, texels inline) or RGBA8 pixels, top row first (an image as the page
/// decodes it, default filter linear, wrap repeat), with `filter` ("nearest" | "linear") and
/// `wrap` ("repeat" | "clamp" | "mirror" | "border"), the words of the CLI's `U=FILE,…`.
#[derive(Default, Clone, PartialEq)]
struct TextureOption {
    unit: u32,
    description: Option<String>,
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    filter: Option<String>,
    wrap: Option<String>,
}

impl TextureOption {
    /// The shared entry's form (`render::options`): a description, or the pixels with the
    /// filter and wrap words.
    fn spec(&self) -> TextureSpec {
        let data = match &self.description {
            Some(json) => TextureData::Description(json.clone()),
            None => TextureData::Image(RgbaImage {
                width: self.width,
                height: self.height,
                rgba: self.rgba.clone(),
            }),
        };
        let options = [&self.filter, &self.wrap].into_iter().flatten().cloned().collect();
        TextureSpec { unit: self.unit, data, options, images: None }
    }
}

/// The rows' pixels as the `Uint8Array` a call returns: copied into `into` when it has exactly
/// their size, else a new array. A render worker passes the array its last band was sent in,
/// which the page hands back (`web/render-pool.js`): a new array of half a megabyte, its memory
/// touched for the first time, cost a 512x256 band about 0.24 ms in Chromium (docs/perf-log.md,
/// "a band's pixels into the array of the band before"). A detached array has length 0.
fn pixels_out(into: Option<js_sys::Uint8Array>, pixels: &[u8]) -> js_sys::Uint8Array {
    match into.filter(|a| a.length() as usize == pixels.len()) {
        Some(array) => {
            array.copy_from(pixels);
            array
        }
        None => js_sys::Uint8Array::from(pixels),
    }
}

/// Reads the render options field by field (`wasm/read.rs`): a field that cannot be read is a
/// problem and takes its default.
fn read_options(options: JsValue) -> (Options, Vec<String>) {
    read::read(options, "render option", |f| Options {
        width: f.u32("width"),
        height: f.u32("height"),
        mesh: f.string("mesh"),
        vertices: f.string("vertices"),
        gs: f.string("gs"),
        target: f.raw("target").unwrap_or(JsValue::UNDEFINED),
        pixels_into: f.raw("pixelsInto").and_then(|v| v.dyn_into().ok()),
        #[cfg(feature = "full")]
        all_targets: f.bool("allTargets").unwrap_or(false),
        consts: f.strings("consts"),
        vs_consts: f.strings("vsConsts"),
        fs_consts: f.strings("fsConsts"),
        gs_consts: f.strings("gsConsts"),
        time: f.f32("time").unwrap_or(0.0),
        time_delta: f.f32("timeDelta").unwrap_or(0.0),
        frame: f.u32("frame").unwrap_or(0),
        mouse: f.f32s::<2>("mouse"),
        mouse_down: f.bool("mouseDown").unwrap_or(false),
        row_start: f.u32("rowStart"),
        row_end: f.u32("rowEnd"),
        budget: f.u64("budget"),
        bands: f.u32("bands"),
        time_limit: f.f64("timeLimit"),
        textures: f.objects("textures", |mut t| TextureOption {
            unit: t.u32("unit").unwrap_or(0),
            description: t.string("description"),
            width: t.u32("width").unwrap_or(0),
            height: t.u32("height").unwrap_or(0),
            rgba: t.bytes("rgba"),
            filter: t.string("filter"),
            wrap: t.string("wrap"),
        }),
        #[cfg(feature = "jit")]
        engine: f.string("engine"),
    })
}

/// The crate's one JS shape for diagnostics, with which input it is about.
pub(super) fn diagnostic_out(d: &SourcedDiagnostic) -> JsDiagnostic {
    let source = match d.source {
        Source::Fragment => "fragment",
        Source::Vertex => "vertex",
        Source::Geometry => "geometry",
        Source::Vertices => "vertices",
        Source::Render => "render",
    };
    JsDiagnostic::with_source(source, &d.diagnostic)
}

pub(super) fn set(obj: &js_sys::Object, key: &str, value: &JsValue) {
    // Setting a property on a plain object cannot fail.
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), value);
}

/// Everything a frame depends on except the per-frame built-in uniforms and the rows: while it
/// stays the same (an animating page), the shaders are not parsed, validated and compiled again
/// and the textures not decoded again.
#[derive(Clone, PartialEq)]
struct JobKey {
    fs: String,
    vs: Option<String>,
    gs: Option<String>,
    mesh: Option<String>,
    vertices: Option<String>,
    width: u32,
    height: u32,
    consts: Vec<String>,
    vs_consts: Vec<String>,
    fs_consts: Vec<String>,
    gs_consts: Vec<String>,
    textures: Vec<TextureOption>,
    /// The options that could not be read (each took its default).
    options_problems: Vec<String>,
}

/// A prepared job of this worker, with what preparing it reported.
pub(super) struct Prepared {
    key: JobKey,
    pub job: Option<Job>,
    pub diagnostics: Vec<SourcedDiagnostic>,
    pub textures: Bindings,
    /// Reused from frame to frame; only the drawn rows are cleared.
    framebuffer: Option<Framebuffer>,
    /// Calls that have used this job, this one included (1: it was prepared for this call).
    pub uses: u64,
    /// The fragment program's generated module, made on first use (`wasm/jit.rs`).
    #[cfg(feature = "jit")]
    pub jit: Option<Result<std::sync::Arc<super::jit::Generated>, String>>,
    /// The same for the flushing fragment program (`render::job::Job::fs_in_draw`).
    #[cfg(feature = "jit")]
    pub jit_in_draw: Option<Result<std::sync::Arc<super::jit::Generated>, String>>,
}

/// How many prepared jobs a worker keeps: several widgets on one page share a few workers, and
/// each widget's frames must find their compiled program still there.
const KEPT_JOBS: usize = 6;

thread_local! {
    /// The most recently used prepared jobs of this worker, the newest last.
    static KEPT: RefCell<Vec<Prepared>> = const { RefCell::new(Vec::new()) };
}

fn prepare_key(key: JobKey, builtins: Builtins) -> Prepared {
    let mut diagnostics: Vec<SourcedDiagnostic> = Vec::new();
    for problem in &key.options_problems {
        diagnostics.push(render_error("R009", read::took_default(problem)));
    }
    let specs: Vec<TextureSpec> = key.textures.iter().map(TextureOption::spec).collect();
    let setup = options::read(&RenderOptions {
        frame: Request {
            fs: &key.fs,
            vs: key.vs.as_deref(),
            gs: key.gs.as_deref(),
            mesh: key.mesh.as_deref(),
            vertices: key.vertices.as_deref(),
            width: key.width,
            height: key.height,
            builtins,
            ..Request::default()
        },
        consts: &key.consts,
        vs_consts: &key.vs_consts,
        fs_consts: &key.fs_consts,
        gs_consts: &key.gs_consts,
        textures: &specs,
    });
    diagnostics.extend(setup.diagnostics);
    let textures = setup.textures;
    let (job, more) = job::prepare(&setup.request);
    diagnostics.extend(more);
    let job = job.filter(|_| !diagnostics.iter().any(|d| d.diagnostic.is_error()));
    Prepared {
        key,
        job,
        diagnostics,
        textures,
        framebuffer: None,
        uses: 0,
        #[cfg(feature = "jit")]
        jit: None,
        #[cfg(feature = "jit")]
        jit_in_draw: None,
    }
}

/// What one call produced.
struct Frame {
    ok: bool,
    pixels: Vec<u8>,
    /// With `allTargets`: every colour target's rows, then the depth buffer's.
    #[cfg(feature = "full")]
    all: Option<(Vec<Vec<u8>>, Vec<u8>)>,
    /// Colour targets, whether depth is tested, whether the fragment shader writes depth.
    targets: usize,
    depth_test: bool,
    writes_depth: bool,
    stats: crate::render::DrawStats,
    /// What the frame's budget was charged (every stage's runs).
    charged: u64,
    diagnostics: Vec<SourcedDiagnostic>,
}

/// Draws rows `row_start..row_end` (from the top) of a prepared job.
fn draw_band(prepared: &mut Prepared, call: &Call) -> Frame {
    let (rows, budget) = (call.rows, call.budget);
    let mut frame = Frame {
        ok: false,
        pixels: Vec::new(),
        #[cfg(feature = "full")]
        all: None,
        targets: 1,
        depth_test: false,
        writes_depth: false,
        stats: Default::default(),
        charged: 0,
        diagnostics: prepared.diagnostics.clone(),
    };
    let Some(job) = prepared.job.as_mut() else { return frame };
    let height = job.height;
    frame.targets = job.color_targets();
    frame.depth_test = job.mesh.wants_depth;
    frame.writes_depth = job.fs_if.depth.is_some();
    let read = |fb: &Framebuffer, frame: &mut Frame| {
        let range = rows.0..rows.1;
        frame.pixels = call.read_back.rows(fb, range.clone());
        #[cfg(feature = "full")]
        if call.all_targets {
            let colors =
                (0..fb.target_count()).map(|t| fb.target_rgba8_rows(t, range.clone())).collect();
            frame.all = Some((colors, fb.depth_rgba8_rows(range)));
        }
    };
    let fb = match prepared.framebuffer.take() {
        Some(fb) => Ok(fb),
        None => {
            let targets = job.color_targets();
            // The page shows RGBA8: converting as the fragments are written is the cheapest.
            Framebuffer::with_format(
                job.width,
                height,
                targets,
                crate::render::framebuffer::Format::Rgba8,
            )
        }
    };
    let mut fb = match fb {
        Ok(fb) => fb,
        Err(e) => {
            frame.diagnostics.push(render_error("R001", e));
            return frame;
        }
    };
    // Rows from the top → window rows from the bottom.
    let window_rows = (height - rows.1)..(height - rows.0);
    fb.clear_rows(window_rows.clone());
    let frame_budget = match call.time_limit {
        Some(seconds) => {
            crate::exec::FrameBudget::with_time_limit(budget, seconds, js_sys::Date::now)
        }
        None => crate::exec::FrameBudget::new(budget),
    };
    let result =
        job::run_in_frame(job, &mut fb, Some(window_rows), &mut prepared.textures, &frame_budget);
    frame.charged = budget - frame_budget.left();
    match result {
        Ok((stats, warnings)) => {
            frame.ok = true;
            frame.stats = stats;
            read(&fb, &mut frame);
            frame.diagnostics.extend(
                warnings
                    .into_iter()
                    .map(|d| SourcedDiagnostic { source: Source::Render, diagnostic: d }),
            );
        }
        Err(d) => {
            // A stopped frame (the budget, the time limit) still shows what was drawn until then.
            if d.diagnostic.code.starts_with('X') {
                read(&fb, &mut frame);
            }
            frame.diagnostics.push(d);
        }
    }
    prepared.framebuffer = Some(fb);
    frame
}

/// A call's options, read once: the frame's built-in uniforms, its budget and the key of its job.
pub(super) struct Call {
    pub builtins: Builtins,
    pub budget: u64,
    /// Seconds after which a render call stops itself (a positive number, or none).
    pub time_limit: Option<f64>,
    pub rows: (u32, u32),
    /// Which buffer `pixels` holds, and whether every target is wanted too.
    pub read_back: ReadBack,
    /// The `pixelsInto` option: the array to copy `pixels` into when its size fits.
    pub pixels_into: Option<js_sys::Uint8Array>,
    #[cfg(feature = "full")]
    pub all_targets: bool,
    /// Which engine may run the fragment shader.
    #[cfg(feature = "jit")]
    pub engine: super::jit::Mode,
    key: JobKey,
}

pub(super) fn read_call(fs_text: &str, vs_text: Option<String>, options: JsValue) -> Call {
    let (opts, options_problems) = read_options(options);
    let (width, height) = (opts.width.unwrap_or(DEFAULT_SIZE), opts.height.unwrap_or(DEFAULT_SIZE));
    let builtins = Builtins {
        width,
        height,
        time: opts.time,
        time_delta: opts.time_delta,
        frame: opts.frame,
        mouse: opts.mouse.unwrap_or([0.0, 0.0]),
        mouse_down: opts.mouse_down,
    };
    let row_start = opts.row_start.unwrap_or(0).min(height);
    let row_end = opts.row_end.unwrap_or(height).clamp(row_start, height);
    // The frame's budget (`limits`): by default in proportion to the whole frame's quads (not
    // the band's); asking for more than limits::MAX_BUDGET gets the maximum. A frame drawn in
    // bands by several workers shares one budget: each band gets its part.
    let default = crate::limits::default_frame_budget(crate::limits::frame_quads(width, height));
    let frame_budget = opts.budget.unwrap_or(default).min(crate::limits::MAX_BUDGET);
    let budget = frame_budget.div_ceil(u64::from(opts.bands.unwrap_or(1).max(1)));
    let read_back = match (opts.target.as_f64(), opts.target.as_string()) {
        (_, Some(name)) if name == "depth" => ReadBack::Depth,
        (Some(t), _) if t >= 0.0 => ReadBack::Color((t as usize).min(7)),
        _ => ReadBack::Color(0),
    };
    #[cfg(feature = "jit")]
    let engine = super::jit::Mode::parse(opts.engine.as_deref());
    let key = JobKey {
        fs: fs_text.to_owned(),
        vs: vs_text,
        gs: opts.gs,
        mesh: opts.mesh,
        vertices: opts.vertices,
        width,
        height,
        consts: opts.consts,
        vs_consts: opts.vs_consts,
        fs_consts: opts.fs_consts,
        gs_consts: opts.gs_consts,
        textures: opts.textures,
        options_problems,
    };
    Call {
        builtins,
        budget,
        time_limit: opts.time_limit.filter(|s| s.is_finite() && *s > 0.0),
        rows: (row_start, row_end),
        read_back,
        pixels_into: opts.pixels_into,
        #[cfg(feature = "full")]
        all_targets: opts.all_targets,
        #[cfg(feature = "jit")]
        engine,
        key,
    }
}

/// Runs `f` on this worker's prepared job for `call` (a kept one when its
/// inputs are the same: the same compiled program), with the call's built-in uniforms set.
pub(super) fn with_job<R>(call: Call, f: impl FnOnce(&mut Prepared, &Call) -> R) -> R {
    let builtins = call.builtins;
    let run = |prepared: &mut Prepared| {
        prepared.uses += 1;
        if let Some(job) = prepared.job.as_mut() {
            job.constants.set_builtins(&builtins);
        }
        f(prepared, &call)
    };
    KEPT.with(|cell| match cell.try_borrow_mut() {
        Ok(mut kept) => {
            let prepared = match kept.iter().position(|p| p.key == call.key) {
                Some(i) => kept.remove(i),
                None => {
                    if kept.len() >= KEPT_JOBS {
                        kept.remove(0);
                    }
                    prepare_key(call.key.clone(), builtins)
                }
            };
            kept.push(prepared);
            match kept.last_mut() {
                Some(p) => run(p),
                None => run(&mut prepare_key(call.key.clone(), builtins)),
            }
        }
        // Not reachable (no call re-enters); working without the cache is still right.
        Err(_) => run(&mut prepare_key(call.key.clone(), builtins)),
    })
}

/// Renders a frame or a band of rows; never throws for bad shaders (diagnostics instead).
/// The job is kept between calls and reused while only the built-in uniforms and the rows change.
#[wasm_bindgen]
pub fn render(fs_text: &str, vs_text: Option<String>, options: JsValue) -> JsValue {
    let start = js_sys::Date::now();
    let call = read_call(fs_text, vs_text, options);
    let into = call.pixels_into.clone();
    let (width, height) = (call.key.width, call.key.height);
    let (row_start, row_end) = call.rows;
    let read_back = call.read_back;
    let (frame, uses, _used) = with_job(call, |prepared, call| {
        #[cfg(feature = "jit")]
        let used = super::jit::attach(prepared, call.engine);
        #[cfg(not(feature = "jit"))]
        let used = ();
        (draw_band(prepared, call), prepared.uses, used)
    });
    let result = js_sys::Object::new();
    #[cfg(feature = "jit")]
    super::jit::report(&result, &_used, frame.stats.flushed_quads);
    let list: Vec<JsDiagnostic> = frame.diagnostics.iter().map(diagnostic_out).collect();
    set(&result, "ok", &JsValue::from_bool(frame.ok));
    set(&result, "width", &JsValue::from(width));
    set(&result, "height", &JsValue::from(height));
    set(&result, "rowStart", &JsValue::from(row_start));
    set(&result, "rowEnd", &JsValue::from(row_end));
    set(&result, "pixels", &pixels_out(into, &frame.pixels).into());
    set(
        &result,
        "target",
        &match read_back {
            ReadBack::Color(t) => JsValue::from(t as u32),
            ReadBack::Depth => JsValue::from_str("depth"),
        },
    );
    set(&result, "targets", &JsValue::from(frame.targets as u32));
    set(&result, "depthTest", &JsValue::from_bool(frame.depth_test));
    set(&result, "writesDepth", &JsValue::from_bool(frame.writes_depth));
    #[cfg(feature = "full")]
    if let Some((colors, depth)) = &frame.all {
        let list = js_sys::Array::new();
        for c in colors {
            list.push(&js_sys::Uint8Array::from(c.as_slice()));
        }
        set(&result, "targetPixels", &list.into());
        set(&result, "depthPixels", &js_sys::Uint8Array::from(depth.as_slice()).into());
    }
    // Plain objects and numbers, as every call returns them.
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    set(&result, "diagnostics", &list.serialize(&serializer).unwrap_or(JsValue::NULL));
    let stats = frame.stats;
    set(&result, "quads", &JsValue::from(stats.quads as f64));
    let stats_obj = js_sys::Object::new();
    set(&stats_obj, "triangles", &JsValue::from(stats.triangles as f64));
    set(&stats_obj, "quads", &JsValue::from(stats.quads as f64));
    set(&stats_obj, "fragments", &JsValue::from(stats.fragments_written as f64));
    set(&stats_obj, "flushedQuads", &JsValue::from(stats.flushed_quads as f64));
    set(&stats_obj, "charged", &JsValue::from(frame.charged as f64));
    set(&result, "stats", &stats_obj.into());
    // How many calls this worker's kept job has served (1: prepared for this one).
    set(&result, "jobUses", &JsValue::from(uses as f64));
    set(&result, "ms", &JsValue::from(js_sys::Date::now() - start));
    result.into()
}

/// The same as [`render`]; the page calls it when present, passing textures as JSON
/// descriptions (`{ unit, description }`).
#[wasm_bindgen(js_name = renderPage)]
pub fn render_page(fs_text: &str, vs_text: Option<String>, options: JsValue) -> JsValue {
    render(fs_text, vs_text, options)
}

/// The names of the built-in meshes, for the page's menu.
#[wasm_bindgen(js_name = renderMeshes)]
pub fn render_meshes() -> JsValue {
    serde_wasm_bindgen::to_value(crate::render::mesh::BUILTIN_MESHES).unwrap_or(JsValue::NULL)
}

/// `parseConst("B:I=X,Y,Z,W")` → `{ok, buffer, index, values}` (the four values as floats, from
/// the same parser as the CLI's `--const`) or `{ok: false, error}`: the widget's constants
/// attribute, read for its "Open in playground" link.
#[wasm_bindgen(js_name = parseConst)]
pub fn parse_const_js(text: &str) -> JsValue {
    let result = js_sys::Object::new();
    match parse_const(text) {
        Ok(c) => {
            set(&result, "ok", &JsValue::TRUE);
            set(&result, "buffer", &JsValue::from(c.buffer));
            set(&result, "index", &JsValue::from(c.index));
            let values: Vec<f32> = c.bits.iter().map(|b| f32::from_bits(*b)).collect();
            set(&result, "values", &js_sys::Float32Array::from(values.as_slice()).into());
        }
        Err(e) => {
            set(&result, "ok", &JsValue::FALSE);
            set(&result, "error", &JsValue::from_str(&e));
        }
    }
    result.into()
}
