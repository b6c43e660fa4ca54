//! wasm bindings: exec. Runs a shader on one quad (or a batch) for the page's debugger and
//! teaching views, with a trace of the executed instructions.

use crate::exec::quad::{run_quad, QuadRequest};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// What the page sends: per IN register the four lanes' xyzw (floats), constant buffers as
/// raw bits, the budget, and which quad to trace.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RunRequest {
    /// `inputs[register][lane] = [x, y, z, w]`
    inputs: Vec<[[f32; 4]; 4]>,
    /// `inputBits[register][lane] = [x, y, z, w]` as raw bits (integers, NaN payloads, doubles'
    /// halves); wins over `inputs` for the same register.
    #[serde(rename = "inputBits")]
    input_bits: Vec<[[u32; 4]; 4]>,
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
    /// Instructions dispatched.
    instructions: u64,
    /// Work charged to the budget (quad-instructions, `exec::work`).
    work: u64,
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
    // Bits given in `inputBits` win over floats for the same register.
    let n = req.inputs.len().max(req.input_bits.len());
    let inputs = (0..n)
        .map(|r| match (req.input_bits.get(r), req.inputs.get(r)) {
            (Some(bits), _) => *bits,
            (None, Some(f)) => f.map(|lane| lane.map(f32::to_bits)),
            (None, None) => [[0; 4]; 4],
        })
        .collect();
    let quad = QuadRequest {
        inputs,
        constants: req.constants.clone(),
        coverage: req.coverage,
        budget: req.budget,
    };
    let run = run_quad(text, &quad);
    RunResponse {
        outputs: run.outputs,
        killed: run.killed,
        helpers: run.helpers,
        instructions: run.instructions,
        work: run.work,
        trace: run.trace,
        error: run.error,
    }
}
