//! The trace of one pixel of a render: the quad that covers it is shaded in trace mode by the
//! same compiled program, in the same draw as the rest of its rows (`job::run_traced`), so the
//! values a trace shows are the values the image holds. What `tgsi trace` prints and the
//! inspector shows.

use super::framebuffer::Framebuffer;
use super::job::{render_error, run_watched, Job, Source, SourcedDiagnostic};
use super::watch::{ProbeImage, VertexTable, Watch};
use crate::diag::Diagnostic;
use crate::exec::trace::MAX_TRACE_STEPS;
use crate::exec::LaneOff;
use crate::exec::{Probe, TextureHooks, Trace};
use crate::ir::LineIndex;
use crate::ir::{File, SemanticName};
use serde::Serialize;
use serde_json::json;

/// The interpreter's lane at each position of a quad as the image shows it: top-left,
/// top-right, bottom-left, bottom-right. Window rows grow upwards and lane = dx + 2·dy, so the
/// image's top row holds lanes 2 and 3.
pub const IMAGE_ORDER: [usize; 4] = [2, 3, 0, 1];

/// Reorders per-lane values from the interpreter's order to [`IMAGE_ORDER`].
pub fn in_image_order<T: Copy>(lanes: [T; 4]) -> [T; 4] {
    IMAGE_ORDER.map(|l| lanes[l])
}

/// Draws `job` into a throwaway framebuffer with `watch` watching (rows as `run_watched`).
fn watch_frame(
    job: &Job,
    rows: Option<std::ops::Range<u32>>,
    hooks: &mut dyn TextureHooks,
    budget: u64,
    watch: &mut Watch,
) -> Result<(), SourcedDiagnostic> {
    let mut fb = Framebuffer::new(job.width, job.height, job.color_targets())
        .map_err(|m| render_error("R001", m))?;
    run_watched(job, &mut fb, rows, hooks, budget, watch).map(|_| ())
}

/// The last bits each channel of `register` was given in `lane` (0 for a channel never
/// written): a trace's view of an output register.
fn last_written(trace: &Trace, register: &str, lane: usize) -> [u32; 4] {
    let mut bits = [0u32; 4];
    for w in trace.steps.iter().flat_map(|s| &s.writes).filter(|w| w.register == register) {
        bits["xyzw".find(w.channel).unwrap_or(0)] = w.bits[lane];
    }
    bits
}

/// One vertex's trace.
#[derive(Clone, Debug)]
pub struct VertexTrace {
    pub vertex: usize,
    /// Its lane among the four vertices run together (vertex − lane … + 3).
    pub lane: usize,
    pub trace: Trace,
    pub stopped: Option<Diagnostic>,
}

fn no_vertex_shader() -> SourcedDiagnostic {
    render_error(
        "R002",
        "there is no vertex shader to inspect (the fragment-only mode has none)".to_string(),
    )
}

/// Runs the vertex stage of `job` over its mesh and returns every vertex's inputs and outputs.
pub fn vertex_table(
    job: &Job,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<VertexTable, SourcedDiagnostic> {
    if job.vs.is_none() {
        return Err(no_vertex_shader());
    }
    let mut watch =
        Watch { vertices: Some(VertexTable::default()), vertex_only: true, ..Watch::default() };
    watch_frame(job, None, hooks, budget, &mut watch)?;
    watch.vertices.ok_or_else(no_vertex_shader)
}

/// Traces vertex `index` of the mesh through the vertex shader, in the same run as the draw's.
pub fn trace_vertex(
    job: &Job,
    index: usize,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<VertexTrace, SourcedDiagnostic> {
    if job.vs.is_none() {
        return Err(no_vertex_shader());
    }
    let count = job.mesh.vertex_count();
    if index >= count {
        return Err(render_error(
            "R002",
            format!("vertex {index} does not exist: the mesh has {count} vertices"),
        ));
    }
    let mut watch = Watch { vertex: Some(index), vertex_only: true, ..Watch::default() };
    let stopped = match watch_frame(job, None, hooks, budget, &mut watch) {
        Ok(_) => None,
        Err(e) if e.source == Source::Vertex && watch.vertex_trace.is_some() => Some(e.diagnostic),
        Err(e) => return Err(e),
    };
    let (trace, lane) = watch.vertex_trace.ok_or_else(no_vertex_shader)?;
    Ok(VertexTrace { vertex: index, lane, trace, stopped })
}

/// A register channel to watch after an instruction: the image at instruction N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watched {
    /// The instruction's index in the program (as in a trace's `pc`).
    pub pc: u32,
    pub file: File,
    pub index: u32,
    pub channel: usize,
}

impl Watched {
    /// `TEMP[2].x`, `OUT[0].w`, `IN[1].y` or `ADDR[0].x` after instruction `pc`.
    pub fn parse(pc: u32, register: &str) -> Result<Watched, String> {
        let bad = || format!("'{register}' is not a register channel like TEMP[0].x");
        let (reg, chan) = register.trim().rsplit_once('.').ok_or_else(bad)?;
        let channel = match chan {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            "w" => 3,
            _ => return Err(bad()),
        };
        let (file, rest) = reg.split_once('[').ok_or_else(bad)?;
        let index = rest.strip_suffix(']').and_then(|i| i.parse::<u32>().ok()).ok_or_else(bad)?;
        let file = File::from_name(file)
            .filter(|f| matches!(f, File::Temp | File::Out | File::In | File::Addr));
        let file = file
            .ok_or_else(|| format!("'{register}': only TEMP, OUT, IN and ADDR can be watched"))?;
        Ok(Watched { pc, file, index, channel })
    }
}

/// Draws `job` in probe mode: per pixel, the instructions run and (with `watched`) the value of
/// a register channel right after an instruction (the last time the pixel ran it).
pub fn probe_frame(
    job: &Job,
    watched: Option<Watched>,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<ProbeImage, SourcedDiagnostic> {
    let fail = |message: String| render_error("R002", message);
    let row = match watched {
        Some(w) => {
            if w.pc as usize >= job.fs.code.len() {
                return Err(fail(format!("there is no instruction {} in the program", w.pc)));
            }
            let row = job.fs.row_of(w.file, w.index, w.channel);
            Some(
                row.ok_or_else(|| fail(format!("the shader declares no {}[{}]", w.file, w.index)))?,
            )
        }
        None => None,
    };
    let pixels = job.width as usize * job.height as usize;
    let image = ProbeImage {
        width: job.width,
        height: job.height,
        probe: Probe::new(watched.map(|w| w.pc), row),
        counts: vec![0; pixels],
        values: vec![0; pixels],
        state: vec![0; pixels],
    };
    let mut watch = Watch { probe: Some(image), ..Watch::default() };
    watch_frame(job, None, hooks, budget, &mut watch)?;
    watch.probe.ok_or_else(|| fail("the probe was lost".to_string()))
}

/// The last value the shader wrote to one output register, in the inspected pixel's lane.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TracedOutput {
    /// `OUT[0]`, …
    pub register: String,
    /// `COLOR`, `POSITION`, … with its index.
    pub semantic: Option<(String, u32)>,
    /// x, y, z, w as raw bits (0 for a channel the shader never wrote).
    pub bits: [u32; 4],
}

/// One pixel's trace.
#[derive(Clone, Debug, Serialize)]
pub struct PixelTrace {
    /// The pixel, x from the left and y from the top (as in the PNG).
    pub pixel: [u32; 2],
    /// The top-left pixel of its 2x2 quad, in the same coordinates.
    pub quad: [u32; 2],
    /// The pixel's lane in the quad (the interpreter's order).
    pub lane: usize,
    /// The pixel's position in the quad in [`IMAGE_ORDER`] (0 top-left … 3 bottom-right).
    pub position: usize,
    pub trace: Trace,
    pub outputs: Vec<TracedOutput>,
    /// The quad's IN registers as the draw fed them: `[register][lane][channel]` (lanes in the
    /// interpreter's order).
    #[serde(skip)]
    pub inputs: Vec<[[u32; 4]; 4]>,
    /// The trace stopped recording before the program ended (`exec::trace::MAX_TRACE_STEPS`).
    pub truncated: bool,
    /// The frame was stopped while the traced quad ran (the instruction budget, X005): the
    /// trace holds the steps up to there, the outputs what was written by then.
    #[serde(skip)]
    pub stopped: Option<Diagnostic>,
}

impl crate::exec::TraceStep {
    /// Lanes (bit i = lane i) in which this step wrote a NaN or an infinity to a float channel:
    /// where "run to first NaN or Inf" stops.
    pub fn nonfinite(&self) -> u8 {
        let mut m = 0;
        for w in self.writes.iter().filter(|w| w.ty == "float") {
            for l in 0..4 {
                if self.exec_mask >> l & 1 != 0 && !f32::from_bits(w.bits[l]).is_finite() {
                    m |= 1 << l;
                }
            }
        }
        m
    }
}

/// The first step that wrote a NaN or an infinity in interpreter lane `lane`, if any.
pub fn first_nonfinite(trace: &Trace, lane: usize) -> Option<usize> {
    trace.steps.iter().position(|s| s.nonfinite() >> lane & 1 != 0)
}

/// Traces pixel (`x`, `y`) (y from the top) of `job`'s image.
pub fn trace_pixel(
    job: &Job,
    x: u32,
    y: u32,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<PixelTrace, SourcedDiagnostic> {
    let fail = |message: String| render_error("R002", message);
    if x >= job.width || y >= job.height {
        return Err(fail(format!(
            "pixel ({x}, {y}) is outside the {}x{} image",
            job.width, job.height
        )));
    }
    // Window coordinates have row 0 at the bottom; quads start at even positions.
    let (wx, wy) = (x, job.height - 1 - y);
    let (qx, qy) = (wx & !1, wy & !1);
    let lane = ((wx - qx) + 2 * (wy - qy)) as usize;
    // Only the quad's rows are drawn: the quad is shaded exactly as in the full image.
    let rows = Some(qy..(qy + 2).min(job.height));
    let mut watch = Watch { trace_at: Some((qx as i32, qy as i32, lane)), ..Watch::default() };
    let stopped = match watch_frame(job, rows, hooks, budget, &mut watch) {
        Ok(_) => None,
        // Stopped while the traced quad was shaded: its trace so far is the answer.
        Err(e) if e.source == Source::Fragment && watch.trace.is_some() => Some(e.diagnostic),
        Err(e) => return Err(e),
    };
    let trace = watch
        .trace
        .ok_or_else(|| fail(format!("pixel ({x}, {y}) is not covered by any primitive")))?;
    let truncated = trace.dropped > 0;
    let outputs = job
        .fs
        .outputs
        .iter()
        .map(|o| {
            let register = format!("OUT[{}]", o.index);
            let bits = last_written(&trace, &register, lane);
            let semantic = o.semantic.map(|(n, i): (SemanticName, u32)| (n.name().to_string(), i));
            TracedOutput { register, semantic, bits }
        })
        .collect();
    Ok(PixelTrace {
        pixel: [x, y],
        quad: [qx, job.height - 1 - (qy + 1).min(job.height - 1)],
        lane,
        position: IMAGE_ORDER.iter().position(|&l| l == lane).unwrap_or(0),
        trace,
        outputs,
        inputs: watch.trace_inputs.unwrap_or_default(),
        truncated,
        stopped,
    })
}

/// The instruction as written in the source, without its `N:` label.
pub fn source_text(text: &str, span: crate::ir::Span) -> String {
    let t = text.get(span.start as usize..span.end as usize).unwrap_or("").trim();
    match t.split_once(':') {
        Some((label, rest)) if !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) => {
            rest.trim().to_string()
        }
        _ => t.to_string(),
    }
}

/// The JSON contract of the README: pixel, quad, lane, steps, outputs, truncated; every value
/// as unsigned 32-bit bits, per-lane arrays in image order (top-left, top-right, bottom-left,
/// bottom-right) and `lane` the pixel's place in that order.
/// The steps of a trace as JSON, every per-lane array in `order` (the image's quad order for a
/// pixel, vertex order for a vertex).
fn steps_json(
    trace: &Trace,
    order: [usize; 4],
    text: &str,
    lines: &LineIndex,
) -> Vec<serde_json::Value> {
    let ord = |a: [u32; 4]| order.map(|l| a[l]);
    let mask = |m: u8| order.map(|l| m >> l & 1 != 0);
    trace
        .steps
        .iter()
        .map(|s| {
            let (line, col) = lines.line_col(s.span.start);
            json!({
                "pc": s.pc,
                // The table's name: the page links the step to the opcode reference.
                "opcode": s.opcode,
                "line": line,
                "col": col,
                "text": source_text(text, s.span),
                "exec_mask": mask(s.exec_mask),
                "exec_after": mask(s.exec_after),
                "kill_mask": mask(s.kill_mask),
                "off": order.map(|l| s.off[l].map(LaneOff::describe)),
                "nonfinite": mask(s.nonfinite()),
                "iteration": s.iteration,
                // For DDX/DDY and the fine forms: per lane, the two lanes whose difference it is.
                "derivative": crate::opcode::Opcode::from_name(s.opcode)
                    .filter(|op| {
                        use crate::opcode::Opcode as O;
                        matches!(op, O::DDX | O::DDY | O::DDX_FINE | O::DDY_FINE)
                    })
                    .map(|op| {
                        let pairs = crate::exec::ops::quad::derivative_lanes(op);
                        let at = |lane: usize| order.iter().position(|&l| l == lane).unwrap_or(0);
                        order.map(|l| [at(pairs[l].0), at(pairs[l].1)])
                    }),
                "sources": s.sources.iter().map(|src| json!({
                    "operand": src.operand,
                    "type": src.ty,
                    "values": src.values.map(ord),
                })).collect::<Vec<_>>(),
                "sample": s.sample.as_ref().map(|t| json!({
                    "lod_source": t.lod_source,
                    "lanes": order.map(|l| t.lanes.get(l).cloned().unwrap_or_default()),
                    "words": order.map(|l| t.describe_lane(l)),
                })),
                "writes": s.writes.iter().map(|w| json!({
                    "reg": w.register,
                    "chan": w.channel.to_string(),
                    "type": w.ty,
                    "before": ord(w.before),
                    "after": ord(w.bits),
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

impl VertexTrace {
    /// The vertex trace as JSON: like a pixel's, with lanes in vertex order
    /// (`vertex − lane` … `+ 3`) and `outputs` the vertex's OUT registers as last written.
    pub fn to_json(&self, text: &str, lines: &LineIndex) -> serde_json::Value {
        // The OUT registers in the order the shader first wrote them.
        let mut registers: Vec<&str> = Vec::new();
        for w in self.trace.steps.iter().flat_map(|s| &s.writes) {
            if w.register.starts_with("OUT[") && !registers.contains(&w.register.as_str()) {
                registers.push(&w.register);
            }
        }
        let outputs: Vec<_> = registers
            .iter()
            .map(|r| json!({"reg": r, "bits": last_written(&self.trace, r, self.lane)}))
            .collect();
        json!({
            "vertex": self.vertex,
            "first": self.vertex - self.lane,
            "lane": self.lane,
            "steps": steps_json(&self.trace, [0, 1, 2, 3], text, lines),
            "outputs": outputs,
            "truncated": self.trace.dropped > 0,
            "max_steps": MAX_TRACE_STEPS,
            "stopped": self.stopped.as_ref().map(|d| json!({
                "code": d.code, "message": d.message, "line": d.line, "column": d.column,
            })),
        })
    }
}

impl PixelTrace {
    pub fn to_json(&self, text: &str, lines: &LineIndex) -> serde_json::Value {
        let t = self;
        let mask = |m: u8| in_image_order([0, 1, 2, 3].map(|l| m >> l & 1 != 0));
        let steps = steps_json(&t.trace, IMAGE_ORDER, text, lines);
        let outputs: Vec<_> = t
            .outputs
            .iter()
            .map(|o| {
                json!({
                    "reg": o.register,
                    "semantic": o.semantic.as_ref().map(|(n, _)| n.clone()),
                    "semantic_index": o.semantic.as_ref().map(|(_, i)| *i),
                    "bits": o.bits,
                })
            })
            .collect();
        json!({
            "pixel": t.pixel,
            "quad": t.quad,
            "lane": t.position,
            "helpers": mask(t.trace.helpers),
            "steps": steps,
            "outputs": outputs,
            "truncated": t.truncated,
            "max_steps": MAX_TRACE_STEPS,
            "stopped": t.stopped.as_ref().map(|d| json!({
                "code": d.code,
                "message": d.message,
                "line": d.line,
                "column": d.column,
            })),
        })
    }
}
