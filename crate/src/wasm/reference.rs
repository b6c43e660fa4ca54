//! wasm bindings: the opcode reference's live lane tables. The rows are read by the same
//! parser as the tests' (`reference::lanes`) and run on one quad through `exec::quad`.

use crate::opcode::Opcode;
use crate::reference::lanes::{self, Row};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct LaneTable {
    /// Per row: the parsed row, or the reason it does not parse.
    rows: Vec<Result<Row, String>>,
    /// `outputs[lane][channel]` of OUT[0] as raw bits (empty when nothing ran).
    outputs: Vec<[u32; 4]>,
    killed: u8,
    /// The first diagnostic when the program did not run.
    error: Option<String>,
}

/// Runs an opcode's lane program on four rows of text (`"src0, src1 => expected"`, the syntax
/// of `reference::lanes`); a row that does not parse runs as zeros and reports why.
#[wasm_bindgen(js_name = referenceLanes)]
pub fn reference_lanes(op: &str, program: &str, rows: Vec<String>) -> Result<JsValue, JsValue> {
    let table = match Opcode::from_name(op) {
        None => LaneTable {
            rows: vec![],
            outputs: vec![],
            killed: 0,
            error: Some(format!("unknown opcode {op}")),
        },
        Some(o) => {
            let parsed: Vec<Result<Row, String>> =
                rows.iter().take(4).map(|r| lanes::parse_row(o, r)).collect();
            let usable: Vec<Row> = parsed
                .iter()
                .map(|r| r.clone().unwrap_or(Row { inputs: vec![], expected: None }))
                .collect();
            let run = lanes::run(program, &usable);
            LaneTable {
                rows: parsed,
                outputs: run.outputs.first().map(|o| o.to_vec()).unwrap_or_default(),
                killed: run.killed,
                error: run.error.map(|d| format!("{} [{}]", d.message, d.code)),
            }
        }
    };
    serde_wasm_bindgen::to_value(&table).map_err(|e| JsValue::from_str(&e.to_string()))
}
