//! wasm bindings: exec. Runs a shader on one quad (or a batch) for the page's debugger and
//! teaching views, with a trace of the executed instructions.

use crate::exec::{Batch, Constants, Machine};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// What the page sends: per IN register the four lanes' xyzw (floats), constant buffers as
/// raw bits, the budget, and which quad to trace.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RunRequest {
    /// `inputs[register][lane] = [x, y, z, w]`
    inputs: Vec<[[f32; 4]; 4]>,
    /// `constants[buffer][index] = [x, y, z, w]` as raw bits.
    constants: Vec<Vec<[u32; 4]>>,
    /// Coverage bits of the quad (lanes not covered are helpers); 15 when absent.
    coverage: Option<u8>,
    budget: Option<u64>,
}

#[derive(Serialize)]
struct RunResponse {
    /// `outputs[register][lane] = [x, y, z, w]` as raw bits.
    outputs: Vec<[[u32; 4]; 4]>,
    killed: u8,
    helpers: u8,
    instructions: u64,
    trace: crate::exec::Trace,
    /// The diagnostic when compilation or execution stopped.
    error: Option<crate::diag::Diagnostic>,
}

/// Parses, compiles and runs `text` on one quad, tracing it. Never throws for bad shaders: the
/// error travels in the response.
#[wasm_bindgen(js_name = execQuad)]
pub fn exec_quad(text: &str, request: JsValue) -> Result<JsValue, JsValue> {
    let req: RunRequest = if request.is_undefined() || request.is_null() {
        RunRequest::default()
    } else {
        serde_wasm_bindgen::from_value(request).map_err(|e| JsValue::from_str(&e.to_string()))?
    };
    let response = run(text, &req);
    serde_wasm_bindgen::to_value(&response).map_err(|e| JsValue::from_str(&e.to_string()))
}

fn run(text: &str, req: &RunRequest) -> RunResponse {
    let mut resp = RunResponse {
        outputs: Vec::new(),
        killed: 0,
        helpers: 0,
        instructions: 0,
        trace: Default::default(),
        error: None,
    };
    let parsed = crate::text::parse(text);
    let Some(shader) = parsed.shader else {
        resp.error = parsed.diagnostics.into_iter().find(|d| d.is_error());
        return resp;
    };
    let program = match crate::exec::build(&shader) {
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
        batch.set_input_f32(r, 0, *lanes);
    }
    if let Some(c) = req.coverage {
        batch.coverage[0] = c & 0xF;
    }
    let consts = Constants {
        buffers: req
            .constants
            .iter()
            .take(64)
            .map(|b| b.iter().take(4096).copied().collect())
            .collect(),
    };
    let budget = req.budget.unwrap_or(crate::exec::DEFAULT_BUDGET);
    let budget = match crate::limits::check_budget(budget) {
        Ok(b) => b,
        Err(e) => {
            resp.error =
                Some(crate::diag::Diagnostic::error("X005", e, crate::ir::Span::new(0, 0)));
            return resp;
        }
    };
    let mut machine = Machine::with_budget(budget);
    let (trace, result) =
        machine.run_traced(&program, &mut batch, &consts, &mut crate::exec::NoTextures, 0);
    resp.trace = trace;
    match result {
        Ok(stats) => resp.instructions = stats.instructions,
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
