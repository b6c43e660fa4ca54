//! One quad from text: parse, validate, compile and run it once, traced. The page's `execQuad`
//! (`wasm/exec.rs`) and the opcode reference's lane tables (`reference::lanes`) both call
//! [`run_quad`], so a lane table shows exactly what the engine computes.

use super::io::TextureHooks;
use super::{Batch, Constants, Lanes, Machine, NoTextures, Trace};
use crate::diag::Diagnostic;

/// What to run the quad with. Inputs and constants are raw bits.
#[derive(Default)]
pub struct QuadRequest {
    /// `inputs[register][lane] = [x, y, z, w]`
    pub inputs: Vec<[[u32; 4]; 4]>,
    /// `constants[buffer][index] = [x, y, z, w]` (at most 64 buffers of 4096 entries are read).
    pub constants: Vec<Vec<[u32; 4]>>,
    /// Coverage bits (lanes not covered are helpers); all four when `None`.
    pub coverage: Option<u8>,
    /// Budget in quad-instructions (`work.rs`; one quad: the instructions it runs with an
    /// active lane); when `None`, the default of a one-quad frame
    /// (`limits::default_frame_budget(1)`, the minimum), checked by `limits`.
    pub budget: Option<u64>,
}

/// What came out of the quad.
#[derive(Default)]
pub struct QuadRun {
    /// `outputs[register][lane] = [x, y, z, w]` as raw bits.
    pub outputs: Vec<[[u32; 4]; 4]>,
    pub killed: u8,
    pub helpers: u8,
    /// Instructions dispatched.
    pub instructions: u64,
    /// Work charged to the budget (quad-instructions, `work.rs`).
    pub work: u64,
    pub trace: Trace,
    /// The first error when parsing, validation, compilation or the run stopped.
    pub error: Option<Diagnostic>,
}

/// Parses, validates, compiles and runs `text` on one quad with the trace on (no textures).
/// Never panics on bad text: the error travels in the result, located in `text`.
pub fn run_quad(text: &str, req: &QuadRequest) -> QuadRun {
    run_quad_with(text, req, &mut NoTextures)
}

/// [`run_quad`] with texture hooks (the reference's texture lane tables bind the built-in
/// textures): the trace's sampling steps carry what the sampler did (`TraceStep::sample`).
pub fn run_quad_with(text: &str, req: &QuadRequest, hooks: &mut dyn TextureHooks) -> QuadRun {
    let mut resp = QuadRun::default();
    let parsed = crate::text::parse(text);
    let Some(shader) = parsed.shader else {
        resp.error = parsed.diagnostics.into_iter().find(|d| d.is_error());
        return resp;
    };
    let program = match super::build(&shader) {
        Ok(p) => p,
        Err(found) => {
            let mut first = found.into_iter().find(|d| d.is_error());
            crate::diag::locate(first.as_mut_slice(), &crate::ir::LineIndex::new(text));
            resp.error = first;
            return resp;
        }
    };
    let mut batch = Batch::new(&program, 1);
    for (r, lanes) in req.inputs.iter().enumerate().take(program.input_count() as usize) {
        for c in 0..4 {
            batch.set_input(r, c, 0, Lanes([0, 1, 2, 3].map(|l| lanes[l][c])));
        }
    }
    if let Some(c) = req.coverage {
        batch.coverage[0] = c & 0xF;
    }
    let consts = Constants {
        buffers: req
            .constants
            .iter()
            .take(crate::limits::MAX_CONST_BUFFERS)
            .map(|b| b.iter().take(crate::limits::MAX_CONST_REGISTERS).copied().collect())
            .collect(),
    };
    let budget = match crate::limits::check_budget(
        req.budget.unwrap_or(crate::limits::default_frame_budget(1)),
    ) {
        Ok(b) => b,
        Err(e) => {
            resp.error = Some(Diagnostic::error("X005", e, crate::ir::Span::new(0, 0)));
            return resp;
        }
    };
    let mut machine = Machine::with_budget(budget);
    let (trace, result) = machine.run_traced(&program, &mut batch, &consts, hooks, 0);
    resp.trace = trace;
    match result {
        Ok(stats) => (resp.instructions, resp.work) = (stats.instructions, stats.work),
        Err(e) => {
            let mut d = e.diagnostic;
            crate::diag::locate(std::slice::from_mut(&mut d), &crate::ir::LineIndex::new(text));
            resp.error = Some(d);
        }
    }
    resp.outputs = (0..program.output_count() as usize)
        .map(|r| [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| batch.output(r, c, 0).0[l])))
        .collect();
    resp.killed = batch.killed.first().copied().unwrap_or(0);
    resp.helpers = batch.helpers.first().copied().unwrap_or(0);
    resp
}
