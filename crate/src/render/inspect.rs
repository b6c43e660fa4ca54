//! The trace of one pixel of a render: the quad that covers it is shaded in trace mode by the
//! same compiled program, in the same draw as the rest of its rows (`job::run_traced`), so the
//! values a trace shows are the values the image holds. What `tgsi trace` prints and the
//! inspector shows.

use super::framebuffer::Framebuffer;
use super::job::{run_traced, Job, Source, SourcedDiagnostic};
use crate::diag::Diagnostic;
use crate::exec::{TextureHooks, Trace};
use crate::ir::{SemanticName, Span};
use serde::Serialize;

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
    pub trace: Trace,
    pub outputs: Vec<TracedOutput>,
    /// The trace stopped recording before the program ended (`exec::trace::MAX_TRACE_STEPS`).
    pub truncated: bool,
}

/// Traces pixel (`x`, `y`) (y from the top) of `job`'s image.
pub fn trace_pixel(
    job: &Job,
    x: u32,
    y: u32,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<PixelTrace, SourcedDiagnostic> {
    let fail = |message: String| SourcedDiagnostic {
        source: Source::Render,
        diagnostic: Diagnostic::error("R002", message, Span::default()),
    };
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
    let targets = job.fs_if.colors.iter().map(|&(t, _)| t as usize + 1).max().unwrap_or(1);
    let mut fb = Framebuffer::new(job.width, job.height, targets).map_err(fail)?;
    // Only the quad's rows are drawn: the quad is shaded exactly as in the full image.
    let rows = Some(qy..(qy + 2).min(job.height));
    let (_, _, trace) =
        run_traced(job, &mut fb, rows, hooks, budget, Some((qx as i32, qy as i32)))?;
    let trace =
        trace.ok_or_else(|| fail(format!("pixel ({x}, {y}) is not covered by any primitive")))?;
    let truncated = trace.dropped > 0;
    let outputs = job
        .fs
        .outputs
        .iter()
        .map(|o| {
            let register = format!("OUT[{}]", o.index);
            let mut bits = [0u32; 4];
            for step in &trace.steps {
                for w in step.writes.iter().filter(|w| w.register == register) {
                    let c = "xyzw".find(w.channel).unwrap_or(0);
                    bits[c] = w.bits[lane];
                }
            }
            let semantic = o.semantic.map(|(n, i): (SemanticName, u32)| (n.name().to_string(), i));
            TracedOutput { register, semantic, bits }
        })
        .collect();
    Ok(PixelTrace {
        pixel: [x, y],
        quad: [qx, job.height - 1 - (qy + 1).min(job.height - 1)],
        lane,
        trace,
        outputs,
        truncated,
    })
}
