//! What the inspector watches while a frame is drawn ([`Watch`]) and what the stages leave in it:
//! the traced quad's trace and inputs, the probe's image ([`ProbeImage`]), every vertex's
//! inputs and outputs ([`VertexTable`]). The job hands a `Watch` to the shader stages
//! (`job::run_watched`, `shaders.rs`); `inspect.rs` asks for one and reads the answer.

use super::stage::QuadBatch;
use crate::exec::{Probe, Trace};
use serde::Serialize;

/// Whether this build can watch a draw. Only the `inspect` feature's calls (the inspector's wasm
/// calls; the CLI and the tests build with it) ever set a `Watch`: without it the stages never
/// take the trace and probe paths, so the lean engine leaves that code out.
pub(crate) const WATCHING: bool = cfg!(feature = "inspect");

/// A quad's IN registers: `[register][lane][channel]` raw bits (the interpreter's lanes).
pub type QuadInputs = Vec<[[u32; 4]; 4]>;

/// What the inspector watches while a frame is drawn (`job::run_watched`).
#[derive(Default)]
pub struct Watch {
    /// The window position of a quad (its bottom-left pixel) and a lane of it: the batch where
    /// the primitive covers that lane runs in trace mode …
    pub trace_at: Option<(i32, i32, usize)>,
    /// … and leaves its trace here, with the quad's IN registers as the draw fed them
    /// (`[register][lane][channel]`, the interpreter's lane order).
    pub trace: Option<Trace>,
    pub trace_inputs: Option<QuadInputs>,
    /// The traced quad of the last batch, until the pipeline says whether the traced lane was
    /// stored: `(quad in the batch, trace, inputs)`.
    pub(crate) pending: Option<(usize, Trace, QuadInputs)>,
    /// Whether the kept trace is of a stored fragment (a later one that is not stored — hidden
    /// by the depth test, or killed — does not replace it).
    pub(crate) stored: bool,
    /// Every batch runs in probe mode and leaves what it saw here.
    pub probe: Option<ProbeImage>,
    /// A vertex to trace (by its index in the mesh) …
    pub vertex: Option<usize>,
    /// … its trace and its lane in the four vertices run together.
    pub vertex_trace: Option<(Trace, usize)>,
    /// When set, the vertex stage records every vertex's inputs and outputs here.
    pub vertices: Option<VertexTable>,
    /// Watching the vertex stage only: no fragment batch is shaded.
    pub vertex_only: bool,
}

impl Watch {
    /// The pipeline stored the last batch (`live`: per quad, the lanes written): keeps the
    /// pending trace if its lane was written, or if no fragment of the pixel has been yet.
    pub(crate) fn stored(&mut self, live: &[u8]) {
        let Some((quad, trace, inputs)) = self.pending.take() else { return };
        let lane = self.trace_at.map_or(0, |(_, _, l)| l);
        let written = live.get(quad).is_some_and(|m| m >> lane & 1 != 0);
        if written || !self.stored {
            self.trace = Some(trace);
            self.trace_inputs = Some(inputs);
            self.stored |= written;
        }
    }

    /// Whether a fragment batch needs shading: all do, except when only one quad (or only the
    /// vertex stage) is watched — the rest of the throwaway image does not matter, and must not
    /// spend the frame's budget first.
    /// Whether the draw is watched at the fragment stage (a trace or a probe): its batches
    /// then leave their outputs where the watch reads them.
    pub(crate) fn watches_fragments(&self) -> bool {
        WATCHING && (self.trace_at.is_some() || self.probe.is_some() || self.vertex_only)
    }

    pub(crate) fn shades(&self, holds_traced_quad: bool) -> bool {
        !self.vertex_only && (self.trace_at.is_none() || holds_traced_quad)
    }
}

/// Every vertex of the mesh as the vertex shader saw it and what it wrote: the values the
/// draw then clipped, rasterized and interpolated.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VertexTable {
    pub input_registers: usize,
    pub output_registers: usize,
    /// `inputs[v * input_registers + r]`: IN[r] of vertex v (x, y, z, w).
    pub inputs: Vec<[f32; 4]>,
    /// `outputs[v * output_registers + r]`: OUT[r] of vertex v.
    pub outputs: Vec<[f32; 4]>,
}

impl VertexTable {
    pub fn vertex_count(&self) -> usize {
        self.outputs.len().checked_div(self.output_registers).unwrap_or(0)
    }
}

/// What probe mode saw of every pixel of a frame. Per pixel, rows from the top (as in the
/// PNG), for the last fragment shaded there.
#[derive(Clone, Debug)]
pub struct ProbeImage {
    pub width: u32,
    pub height: u32,
    pub(crate) probe: Probe,
    /// Instructions the fragment ran (the heat map).
    pub counts: Vec<u32>,
    /// The watched channel's bits after the watched instruction.
    pub values: Vec<u32>,
    /// 0: no fragment; 1: shaded, never ran the watched instruction; 2: ran it.
    pub state: Vec<u8>,
}

impl ProbeImage {
    /// Keeps what the probe saw of the covered lanes of `qb`.
    pub(crate) fn keep(&mut self, qb: &QuadBatch) {
        let (w, h) = (self.width, self.height);
        for (q, quad) in qb.quads.iter().enumerate() {
            for lane in 0..4 {
                let (wx, wy) = (quad.x + (lane & 1) as u32, quad.y + (lane >> 1) as u32);
                if quad.coverage >> lane & 1 == 0 || wx >= w || wy >= h {
                    continue;
                }
                let i = ((h - 1 - wy) * w + wx) as usize;
                let reached = self.probe.reached.get(q).is_some_and(|r| r >> lane & 1 != 0);
                if let (Some(n), Some(s)) = (self.counts.get_mut(i), self.state.get_mut(i)) {
                    *n = self.probe.counts.get(q).map_or(0, |c| c[lane]);
                    *s = 1 + reached as u8;
                }
                if reached {
                    if let (Some(v), Some(seen)) = (self.values.get_mut(i), self.probe.value.get(q))
                    {
                        *v = seen.0[lane];
                    }
                }
            }
        }
    }
    /// Instructions run by every fragment together, and by the busiest one.
    pub fn totals(&self) -> (u64, u32) {
        let total = self.counts.iter().map(|&n| n as u64).sum();
        (total, self.counts.iter().copied().max().unwrap_or(0))
    }
}
