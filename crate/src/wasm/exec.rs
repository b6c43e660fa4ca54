//! wasm bindings: exec. Runs a shader on one quad (or a batch) for the page's debugger and
//! teaching views, with a trace of the executed instructions.

use super::read::{self, array, list, number_f32, whole};
use crate::exec::quad::{run_quad, QuadRequest};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What the page sends: per IN register the four lanes' xyzw (floats), constant buffers as
/// raw bits, the budget, and which quad to trace.
#[derive(Default)]
struct RunRequest {
    /// `inputs[register][lane] = [x, y, z, w]`
    inputs: Vec<[[f32; 4]; 4]>,
    /// `inputBits[register][lane] = [x, y, z, w]` as raw bits (integers, NaN payloads, doubles'
    /// halves); wins over `inputs` for the same register.
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

/// Reads the request field by field (`wasm/read.rs`); any field that cannot be read is a problem.
fn read_request(request: JsValue) -> Result<RunRequest, String> {
    let lanes = "a list of registers, each 4 lanes of 4";
    read::read_whole(request, "quad request field", |f| RunRequest {
        inputs: f
            .get("inputs", &format!("{lanes} numbers"), |v| {
                list(v, |r| array(r, |lane| array(lane, number_f32)))
            })
            .unwrap_or_default(),
        input_bits: f
            .get("inputBits", &format!("{lanes} whole numbers from 0 to 4294967295"), |v| {
                list(v, |r| array(r, |lane| array(lane, whole::<u32>)))
            })
            .unwrap_or_default(),
        constants: f
            .get("constants", "a list of buffers, each a list of 4 whole numbers", |v| {
                list(v, |b| list(b, |c| array(c, whole::<u32>)))
            })
            .unwrap_or_default(),
        coverage: f.get("coverage", "a whole number from 0 to 15", |v| {
            whole::<u8>(v).filter(|c| *c <= 15)
        }),
        budget: f.u64("budget"),
    })
}

/// Parses, compiles and runs `text` on one quad, tracing it. Never throws for bad shaders: the
/// error travels in the response. A request that cannot be read throws its problems.
#[wasm_bindgen(js_name = execQuad)]
pub fn exec_quad(text: &str, request: JsValue) -> Result<JsValue, JsValue> {
    let req = read_request(request).map_err(|e| JsValue::from_str(&e))?;
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
