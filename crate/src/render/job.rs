//! A render job from shader texts to pixels, shared by `tgsi render`, `tgsi bench`, the wasm
//! API and the conformance suite: parse, validate and compile the shaders, pick the mesh (or read
//! the vertices file), fill each stage's constant buffers, then draw (all rows or a band of rows).

use super::framebuffer::Framebuffer;
use super::geometry::{self, GeometryJob};
use super::mesh::{self, Mesh};
use super::pipeline::{draw, fragment_only_vertex_stage, DrawConfig, DrawStats};
use super::shaders::{ExecFragmentStage, ExecVertexStage};
use super::stage::{FsInterface, VsInterface};
use super::uniforms::{Builtins, BUILTIN_BUFFER};
use super::watch::Watch;
use crate::diag::{self, Diagnostic};
use crate::exec::program::Denormals;
use crate::exec::{self, Constants, Machine, Program, TextureHooks};
use crate::ir::{LineIndex, Processor, Shader, Span};

/// Which input a diagnostic is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Fragment,
    Vertex,
    Geometry,
    /// The vertices file (custom geometry).
    Vertices,
    /// The render set-up itself (options, linkage, budget).
    Render,
}

/// A diagnostic with the input it belongs to (lines and columns already filled).
#[derive(Clone, Debug, PartialEq)]
pub struct SourcedDiagnostic {
    pub source: Source,
    pub diagnostic: Diagnostic,
}

/// One constant register's value: `CONST[buffer][index]` = four raw 32-bit words (parsed from
/// `B:I=X,Y,Z,W` by `options::parse_const`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstValue {
    pub buffer: u32,
    pub index: u32,
    pub bits: [u32; 4],
}

/// What to render.
#[derive(Clone, Debug, Default)]
pub struct Request<'a> {
    pub fs: &'a str,
    pub vs: Option<&'a str>,
    pub gs: Option<&'a str>,
    /// A built-in mesh name; `None` = `fullscreen` (with a vertex shader).
    pub mesh: Option<&'a str>,
    /// The text of a vertices file (`render::vertices`), instead of a built-in mesh.
    pub vertices: Option<&'a str>,
    pub width: u32,
    pub height: u32,
    /// Constants of every stage (`--const`).
    pub constants: Vec<ConstValue>,
    /// Constants of one stage only (`--vs-const`, `--fs-const`, `--gs-const`), set after the
    /// shared ones.
    pub vs_constants: Vec<ConstValue>,
    pub fs_constants: Vec<ConstValue>,
    pub gs_constants: Vec<ConstValue>,
    pub builtins: Builtins,
}

/// The constant buffers of the three stages: each holds the shared constants, then its own,
/// then the built-in uniforms (`CONST[15]`, the same in all three).
#[derive(Clone, Debug, Default)]
pub struct StageConstants {
    pub vertex: Constants,
    pub fragment: Constants,
    pub geometry: Constants,
}

impl StageConstants {
    /// Fills the three stores from a request's constants.
    pub fn new(
        shared: &[ConstValue],
        vertex: &[ConstValue],
        fragment: &[ConstValue],
        geometry: &[ConstValue],
    ) -> StageConstants {
        let store = |own: &[ConstValue]| {
            let mut c = Constants::new();
            for v in shared.iter().chain(own) {
                c.set_bits(v.buffer as usize, v.index as usize, v.bits);
            }
            c
        };
        StageConstants {
            vertex: store(vertex),
            fragment: store(fragment),
            geometry: store(geometry),
        }
    }

    /// Writes the built-in uniforms into every stage's `CONST[15]`.
    pub fn set_builtins(&mut self, builtins: &Builtins) {
        for (i, r) in builtins.registers().iter().enumerate() {
            for c in [&mut self.vertex, &mut self.fragment, &mut self.geometry] {
                c.set_f32(BUILTIN_BUFFER, i, *r);
            }
        }
    }
}

/// A prepared job: compiled shaders and everything a draw needs.
pub struct Job {
    pub fs: Program,
    /// The fragment program compiled for the draw chunks that softpipe shades inside its draw
    /// call, with denormals flushed ([`exec::program::Denormals::InDraw`]); `None` without a
    /// vertex or geometry shader (the `fullscreen` triangle always needs clipping).
    pub fs_in_draw: Option<Program>,
    pub fs_if: FsInterface,
    pub vs: Option<(Program, VsInterface)>,
    /// The geometry shader, run between the vertex stage and rasterization.
    pub gs: Option<GeometryJob>,
    pub mesh: Mesh,
    pub constants: StageConstants,
    pub width: u32,
    pub height: u32,
    /// The fragment program compiled (`jit::attach`): untraced, unprobed fragment batches run
    /// through it. None: the interpreter runs them.
    pub fs_accel: Option<std::sync::Arc<dyn exec::MakeAccelerator>>,
    /// [`Job::fs_in_draw`] compiled (`jit::attach`): the batches of draw chunks shaded
    /// inside the draw call run through it. None: the interpreter runs them.
    pub fs_in_draw_accel: Option<std::sync::Arc<dyn exec::MakeAccelerator>>,
    fs_lines: LineIndex,
    vs_lines: Option<LineIndex>,
    gs_lines: Option<LineIndex>,
}

/// What a draw produced.
pub struct Output {
    pub framebuffer: Framebuffer,
    pub stats: DrawStats,
    pub warnings: Vec<Diagnostic>,
}

/// Parses, validates and compiles one stage; with `in_draw`, also the program for draw chunks
/// shaded inside the draw call ([`Job::fs_in_draw`]).
fn load(
    text: &str,
    source: Source,
    expected: Processor,
    in_draw: bool,
    diags: &mut Vec<SourcedDiagnostic>,
) -> Option<(Program, Option<Program>, Shader)> {
    let parsed = crate::text::parse(text);
    let index = LineIndex::new(text);
    let mut found = parsed.diagnostics;
    let parse_failed = diag::has_errors(&found);
    let analysed = parsed.shader.as_ref().map(|s| {
        crate::valid::analyse(s, &crate::valid::Options::default()).map_err(|all| {
            found.extend(all);
        })
    });
    let mut in_draw_program = None;
    let program = match analysed {
        Some(Ok(a)) if !parse_failed => {
            found.extend(a.warnings().iter().cloned());
            if in_draw {
                in_draw_program = exec::compile_with(&a, Denormals::InDraw).ok();
            }
            Some(exec::compile(&a))
        }
        Some(Ok(a)) => {
            found.extend(a.warnings().iter().cloned());
            None
        }
        _ => None,
    };
    diag::locate(&mut found, &index);
    diags.extend(found.into_iter().map(|d| SourcedDiagnostic { source, diagnostic: d }));
    let (Some(program), Some(shader)) = (program, parsed.shader) else { return None };
    if let Some(mut d) = wrong_processor(&shader, expected) {
        diag::locate(std::slice::from_mut(&mut d), &index);
        diags.push(SourcedDiagnostic { source, diagnostic: d });
        return None;
    }
    match program {
        Ok(p) => Some((p, in_draw_program, shader)),
        Err(mut d) => {
            diag::locate(std::slice::from_mut(&mut d), &index);
            diags.push(SourcedDiagnostic { source, diagnostic: d });
            None
        }
    }
}

impl Job {
    /// The default budget of this job's whole frame (`limits::default_frame_budget` of its
    /// quads); a frame drawn in bands divides it between them.
    pub fn default_budget(&self) -> u64 {
        crate::limits::default_frame_budget(crate::limits::frame_quads(self.width, self.height))
    }

    /// How many colour targets the fragment shader writes (at least one).
    pub fn color_targets(&self) -> usize {
        self.fs_if.colors.iter().map(|&(t, _)| t as usize + 1).max().unwrap_or(1)
    }
}

/// A diagnostic of the render itself (not of a shader).
/// `R100` when a shader given for one stage is of another kind (a vertex shader where the
/// fragment shader goes): the draw and every tool that places shaders in stages say it so.
pub fn wrong_processor(shader: &Shader, expected: Processor) -> Option<Diagnostic> {
    (shader.processor != expected).then(|| {
        Diagnostic::error(
            "R100",
            format!(
                "expected a {} shader here, found {}",
                expected.name(),
                shader.processor.name()
            ),
            shader.header_span,
        )
    })
}

pub(crate) fn render_error(code: &'static str, message: String) -> SourcedDiagnostic {
    SourcedDiagnostic {
        source: Source::Render,
        diagnostic: Diagnostic::error(code, message, Span::default()),
    }
}

/// Parses, validates and compiles; `None` when any error was found (all are in the list).
pub fn prepare(req: &Request) -> (Option<Job>, Vec<SourcedDiagnostic>) {
    let mut diags = Vec::new();
    if let Err(e) = Framebuffer::check_size(req.width, req.height) {
        diags.push(render_error("R001", e));
    }
    // Only the fragment-only mode's `fullscreen` triangle always needs clipping.
    let in_draw = req.vs.is_some() || req.gs.is_some();
    let fs = load(req.fs, Source::Fragment, Processor::Fragment, in_draw, &mut diags);
    if let Some((program, _, _)) = &fs {
        let targets = program.outputs.len().max(1);
        let format = super::framebuffer::Format::Rgba32F;
        if let Err(e) = Framebuffer::check_bytes(req.width, req.height, targets, format) {
            diags.push(render_error("R001", e));
        }
    }
    let vs = req
        .vs
        .and_then(|t| load(t, Source::Vertex, Processor::Vertex, false, &mut diags))
        .map(|(p, _, s)| (p, s));
    let gs = req
        .gs
        .and_then(|t| load(t, Source::Geometry, Processor::Geometry, false, &mut diags))
        .and_then(|(p, _, s)| {
            GeometryJob::new(p, &s)
                .map_err(|mut d| {
                    if let Some(text) = req.gs {
                        diag::locate(std::slice::from_mut(&mut d), &LineIndex::new(text));
                    }
                    diags.push(SourcedDiagnostic { source: Source::Geometry, diagnostic: d })
                })
                .ok()
        });
    let mesh = match (req.mesh, req.vertices) {
        (Some(_), Some(_)) => {
            diags.push(render_error(
                "R008",
                "give either a built-in mesh or a vertices file, not both".into(),
            ));
            None
        }
        (_, Some(text)) => vertices_mesh(text, &mut diags),
        (None, None) => Some(mesh::fullscreen()),
        (Some(name), None) => {
            let m = Mesh::builtin(name);
            if m.is_none() {
                diags.push(render_error(
                    "R002",
                    format!("unknown mesh '{}': one of {}", name, mesh::BUILTIN_MESHES.join(", ")),
                ));
            }
            m
        }
    };
    if req.vs.is_none() && req.mesh.is_some_and(|m| m != "fullscreen") {
        diags.push(render_error(
            "R003",
            "a mesh other than 'fullscreen' needs a vertex shader (--vs)".into(),
        ));
    }
    if req.vs.is_none() && req.vertices.is_some() {
        diags.push(render_error(
            "R003",
            "custom vertices need a vertex shader (--vs) to read their attributes".into(),
        ));
    }
    if diags.iter().any(|d| d.diagnostic.is_error()) {
        return (None, diags);
    }
    let (Some((fs, fs_in_draw, fs_shader)), Some(mesh)) = (fs, mesh) else {
        return (None, diags);
    };
    // With a geometry shader the fragment inputs come from its outputs (the pipeline's own
    // linkage warnings report what is missing).
    if let (Some((_, vs_shader)), None) = (&vs, &gs) {
        link_diagnostics(vs_shader, &fs_shader, req, &mut diags);
    }
    let vs = vs.map(|(p, s)| (p, VsInterface::from_shader(&s)));
    let mut constants = StageConstants::new(
        &req.constants,
        &req.vs_constants,
        &req.fs_constants,
        &req.gs_constants,
    );
    constants.set_builtins(&Builtins { width: req.width, height: req.height, ..req.builtins });
    let job = Job {
        fs_if: FsInterface::from_shader(&fs_shader),
        fs,
        fs_in_draw,
        vs,
        gs,
        mesh,
        constants,
        width: req.width,
        height: req.height,
        fs_accel: None,
        fs_in_draw_accel: None,
        fs_lines: LineIndex::new(req.fs),
        vs_lines: req.vs.map(LineIndex::new),
        gs_lines: req.gs.map(LineIndex::new),
    };
    (Some(job), diags)
}

/// The validator's linkage checks (`valid::link`), in rendering terms: an input nothing writes
/// is not an error for a draw — it reads (0, 0, 0, 1) — so L001 and L002 become warnings.
fn link_diagnostics(vs: &Shader, fs: &Shader, req: &Request, diags: &mut Vec<SourcedDiagnostic>) {
    let (mut vd, mut fd) = crate::valid::link(vs, fs);
    if let Some(text) = req.vs {
        diag::locate(&mut vd, &LineIndex::new(text));
    }
    diag::locate(&mut fd, &LineIndex::new(req.fs));
    for d in fd.iter_mut().filter(|d| d.is_error() && (d.code == "L001" || d.code == "L002")) {
        d.severity = crate::diag::Severity::Warning;
        d.message.push_str(if d.code == "L001" {
            "; it reads (0, 0, 0, 1)"
        } else {
            "; those channels read 0"
        });
    }
    diags.extend(
        vd.into_iter()
            .filter(|d| d.severity != crate::diag::Severity::Note)
            .map(|d| SourcedDiagnostic { source: Source::Vertex, diagnostic: d }),
    );
    diags.extend(
        fd.into_iter().map(|d| SourcedDiagnostic { source: Source::Fragment, diagnostic: d }),
    );
}

/// Quads per interpreter call: straight-line shaders gain from big batches (the per-call set-up
/// is spread over more quads); shaders with loops or branches run every batch until its slowest
/// lane is done, but only over the runs of quads that still have active lanes, so they use
/// eight 16x16 tiles per call: fewer dispatches per pixel (measured in docs/render.md).
fn batch_size(program: &Program) -> usize {
    use crate::opcode::Opcode;
    // In the page a batch the compiled module runs is also a call through JavaScript with its
    // rows copied each way, so every shader there runs in the largest batch the module takes
    // (1024): half the calls of a compiled 26_mandelbrot band (docs/perf-log.md, 2026-11-26),
    // and a compiled 01_arith band 15 % faster than in batches of 256, the interpreter's no
    // slower (2026-11-27). Both engines use the same size, so that a budget runs out at the same
    // place whichever draws.
    if cfg!(target_arch = "wasm32") {
        return super::pipeline::MAX_BATCH_QUADS;
    }
    let divergent = program.code.iter().any(|i| {
        matches!(i.op, Opcode::BGNLOOP | Opcode::IF | Opcode::UIF | Opcode::SWITCH | Opcode::CAL)
    });
    // Natively, divergent shaders: the fast kernels made the per-instruction dispatch the main
    // cost, so 512 quads measured best (26_mandelbrot CPU Mpix/s, 128 / 256 / 512: 14 / 17 /
    // 18.6); straight-line ones: 256 (01_arith compiled, 128 / 256 / 512 / 1024: min 0.616 /
    // 0.494 / 0.512 / 0.611 ms a frame, docs/perf-log.md 2026-11-26 22:25).
    if divergent {
        512
    } else {
        256
    }
}

/// Draws the job into a new framebuffer; `rows` limits shading to a band of window rows
/// (row 0 = bottom). `budget` is the budget (quad-instructions, `exec::work`) of the whole
/// frame (every batch, draw and stage; [`Job::default_budget`] is the usual one).
pub fn run(
    job: &Job,
    rows: Option<std::ops::Range<u32>>,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<Output, SourcedDiagnostic> {
    let targets = job.color_targets();
    let mut fb =
        Framebuffer::new(job.width, job.height, targets).map_err(|e| render_error("R001", e))?;
    let (stats, warnings) = run_into(job, &mut fb, rows, hooks, budget)?;
    Ok(Output { framebuffer: fb, stats, warnings })
}

/// Draws the job into an existing framebuffer of the job's size (not cleared: the caller
/// decides; the benchmark reuses one). Returns the counters and the linkage warnings.
pub fn run_into(
    job: &Job,
    fb: &mut Framebuffer,
    rows: Option<std::ops::Range<u32>>,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<(DrawStats, Vec<Diagnostic>), SourcedDiagnostic> {
    run_watched(job, fb, rows, hooks, budget, &mut Watch::default())
}

/// [`run_into`] with a frame budget the caller made: it may [`stop`](exec::FrameBudget::stop)
/// the frame from another thread (a timer, Ctrl-C), and it sees what the frame has left.
pub fn run_in_frame(
    job: &Job,
    fb: &mut Framebuffer,
    rows: Option<std::ops::Range<u32>>,
    hooks: &mut dyn TextureHooks,
    frame: &exec::FrameBudget,
) -> Result<(DrawStats, Vec<Diagnostic>), SourcedDiagnostic> {
    run_framed(job, fb, rows, hooks, frame, &mut Watch::default())
}

/// [`run_into`] with the inspector watching (`render::inspect`): the fragment to trace and the
/// probe run in the same draw, through the same program, as every other fragment.
pub fn run_watched(
    job: &Job,
    fb: &mut Framebuffer,
    rows: Option<std::ops::Range<u32>>,
    hooks: &mut dyn TextureHooks,
    budget: u64,
    watch: &mut Watch,
) -> Result<(DrawStats, Vec<Diagnostic>), SourcedDiagnostic> {
    // One budget for the whole frame: every machine below draws from it.
    run_framed(job, fb, rows, hooks, &exec::FrameBudget::new(budget), watch)
}

fn run_framed(
    job: &Job,
    fb: &mut Framebuffer,
    rows: Option<std::ops::Range<u32>>,
    hooks: &mut dyn TextureHooks,
    frame: &exec::FrameBudget,
    watch: &mut Watch,
) -> Result<(DrawStats, Vec<Diagnostic>), SourcedDiagnostic> {
    let config =
        DrawConfig { rows, depth_test: job.mesh.wants_depth, batch_quads: batch_size(&job.fs) };
    let mut warnings = Vec::new();
    // Each machine may run at most what the frame has, and draws from the frame.
    let budget = frame.left();
    // The vertex stage gets no textures (vertex texture fetch reads zeros).
    let mut no_textures = exec::NoTextures;
    let expanded = match &job.gs {
        Some(g) => Some(expand_geometry(job, g, hooks, budget, frame)?),
        None => None,
    };
    let mut fs_stage = ExecFragmentStage::new(
        &job.fs,
        &job.constants.fragment,
        hooks,
        Machine::in_frame(budget, frame),
    )
    .with_in_draw(job.fs_in_draw.as_ref());
    // The inspector watches the interpreter (what it shows is what ran).
    let watched = watch.trace_at.is_some() || watch.probe.is_some() || watch.vertex_only;
    if !watched {
        fs_stage.machine.accel = job.fs_accel.as_ref().and_then(|m| m.make());
        fs_stage.set_in_draw_accel(job.fs_in_draw_accel.as_ref().and_then(|m| m.make()));
    }
    fs_stage.watch = std::mem::take(watch);
    let result = match (&job.gs, &expanded, &job.vs) {
        (Some(g), Some(mesh), _) => {
            let mut pass = geometry::pass_through;
            draw(fb, mesh, &g.outputs, &mut pass, &job.fs_if, &mut fs_stage, &config, &mut warnings)
                .map_err(|d| (d, Source::Fragment))
        }
        (_, _, Some((program, vs_if))) => {
            let mut vs_stage = ExecVertexStage {
                program,
                constants: &job.constants.vertex,
                hooks: &mut no_textures,
                machine: Machine::in_frame(budget, frame),
                failed: false,
                trace_vertex: fs_stage.watch.vertex,
                trace: None,
                record: fs_stage.watch.vertices.take(),
            };
            let r = draw(
                fb,
                &job.mesh,
                vs_if,
                &mut vs_stage,
                &job.fs_if,
                &mut fs_stage,
                &config,
                &mut warnings,
            );
            fs_stage.watch.vertex_trace = vs_stage.trace.take();
            fs_stage.watch.vertices = vs_stage.record.take();
            r.map_err(|d| (d, if vs_stage.failed { Source::Vertex } else { Source::Fragment }))
        }
        (_, _, None) => {
            let (vs_if, mut vs_stage) = fragment_only_vertex_stage();
            draw(
                fb,
                &job.mesh,
                &vs_if,
                &mut vs_stage,
                &job.fs_if,
                &mut fs_stage,
                &config,
                &mut warnings,
            )
            .map_err(|d| (d, Source::Fragment))
        }
    };
    // With a vertex shader the validator's linkage check has already reported missing inputs,
    // with their place in the text.
    if job.vs.is_some() && job.gs.is_none() {
        warnings.retain(|w| w.code != super::link::MISSING_INPUT);
    }
    *watch = std::mem::take(&mut fs_stage.watch);
    match result {
        Ok(stats) => Ok((stats, warnings)),
        Err((mut d, mut source)) => {
            if d.code.starts_with('R') {
                source = Source::Render;
            }
            let lines = match source {
                Source::Vertex => job.vs_lines.as_ref(),
                Source::Fragment => Some(&job.fs_lines),
                Source::Geometry => job.gs_lines.as_ref(),
                _ => None,
            };
            if let Some(index) = lines {
                diag::locate(std::slice::from_mut(&mut d), index);
            }
            Err(SourcedDiagnostic { source, diagnostic: d })
        }
    }
}

/// Runs the vertex stage and the geometry shader; the triangles it emits become the mesh the
/// rest of the draw sees.
fn expand_geometry(
    job: &Job,
    g: &GeometryJob,
    hooks: &mut dyn TextureHooks,
    budget: u64,
    frame: &exec::FrameBudget,
) -> Result<Mesh, SourcedDiagnostic> {
    Ok(g.to_mesh(&emit_geometry(job, g, hooks, budget, frame)?, &job.mesh))
}

/// What the job's geometry shader emits for its mesh (`None` without a geometry shader): the
/// same vertex stage and geometry run as a draw's, for the page's list of primitives.
pub fn geometry_output(
    job: &Job,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Option<Result<exec::GeometryOutput, SourcedDiagnostic>> {
    let g = job.gs.as_ref()?;
    Some(emit_geometry(job, g, hooks, budget, &exec::FrameBudget::new(budget)))
}

fn emit_geometry(
    job: &Job,
    g: &GeometryJob,
    hooks: &mut dyn TextureHooks,
    budget: u64,
    frame: &exec::FrameBudget,
) -> Result<exec::GeometryOutput, SourcedDiagnostic> {
    let mut no_textures = exec::NoTextures;
    let (r, vs_failed) = match &job.vs {
        Some((program, vs_if)) => {
            let mut vs_stage = ExecVertexStage {
                program,
                constants: &job.constants.vertex,
                hooks: &mut no_textures,
                machine: Machine::in_frame(budget, frame),
                failed: false,
                trace_vertex: None,
                trace: None,
                record: None,
            };
            let r = g.emit(
                &job.mesh,
                vs_if,
                &mut vs_stage,
                &job.constants.geometry,
                hooks,
                budget,
                frame,
            );
            (r, vs_stage.failed)
        }
        None => {
            let (vs_if, mut vs_stage) = fragment_only_vertex_stage();
            (
                g.emit(
                    &job.mesh,
                    &vs_if,
                    &mut vs_stage,
                    &job.constants.geometry,
                    hooks,
                    budget,
                    frame,
                ),
                false,
            )
        }
    };
    r.map_err(|mut d| {
        let (source, lines) = if vs_failed {
            (Source::Vertex, job.vs_lines.as_ref())
        } else if d.code.starts_with('R') {
            (Source::Render, None)
        } else {
            (Source::Geometry, job.gs_lines.as_ref())
        };
        if let Some(index) = lines {
            diag::locate(std::slice::from_mut(&mut d), index);
        }
        SourcedDiagnostic { source, diagnostic: d }
    })
}

/// The mesh of a vertices file, or its problems at their line and column.
#[cfg(feature = "vertices")]
fn vertices_mesh(text: &str, diags: &mut Vec<SourcedDiagnostic>) -> Option<Mesh> {
    match super::vertices::parse(text) {
        Ok(m) => Some(m),
        Err(mut d) => {
            diag::locate(std::slice::from_mut(&mut d), &LineIndex::new(text));
            diags.push(SourcedDiagnostic { source: Source::Vertices, diagnostic: d });
            None
        }
    }
}

/// The lean engine (the widget's) reads no vertices files: it says so.
#[cfg(not(feature = "vertices"))]
fn vertices_mesh(_text: &str, diags: &mut Vec<SourcedDiagnostic>) -> Option<Mesh> {
    diags.push(render_error("R006", "this build of the engine reads no vertices files".into()));
    None
}
