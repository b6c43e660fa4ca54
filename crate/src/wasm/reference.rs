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

#[derive(Serialize)]
struct TextureLaneTable {
    rows: Vec<Result<Row, String>>,
    /// Outputs, per-lane verdicts, the sampler's trace, the first error.
    run: crate::reference::texlanes::TexRun,
}

/// Runs a texture lane table (`reference::texlanes`): the program on four rows of text with
/// `textures[i]` (a JSON texture description, docs/textures.md: the page's built-ins made by
/// `web/textures.js`) bound to unit `units[i]`. The result carries per lane the output, whether
/// it is the row's expected value, and the sampler's trace (coordinates, λ, LOD, levels, texels
/// and weights). A description that does not parse is reported and its unit left unbound.
#[wasm_bindgen(js_name = referenceTextureLanes)]
pub fn reference_texture_lanes(
    op: &str,
    program: &str,
    units: Vec<u32>,
    textures: Vec<String>,
    rows: Vec<String>,
) -> Result<JsValue, JsValue> {
    use crate::reference::texlanes;
    let no_files = |name: &str| -> Result<crate::texture::desc::RgbaImage, String> {
        Err(format!("no image files here ({name})"))
    };
    let table = match Opcode::from_name(op) {
        None => TextureLaneTable {
            rows: vec![],
            run: texlanes::TexRun {
                error: Some(format!("unknown opcode {op}")),
                ..Default::default()
            },
        },
        Some(o) => {
            let mut bound = Vec::new();
            let mut problems = Vec::new();
            for (u, json) in units.iter().zip(textures.iter()) {
                match crate::texture::desc::parse_description(json, &no_files) {
                    Ok(t) => bound.push((*u, t)),
                    Err(e) => problems.push(format!("texture {u}: {e}")),
                }
            }
            let parsed: Vec<Result<Row, String>> =
                rows.iter().take(4).map(|r| texlanes::parse_row(o, r)).collect();
            let usable: Vec<Row> = parsed
                .iter()
                .map(|r| r.clone().unwrap_or(Row { inputs: vec![], expected: None }))
                .collect();
            let mut run = texlanes::run(o, program, bound, &usable);
            if run.error.is_none() && !problems.is_empty() {
                run.error = Some(problems.join("; "));
            }
            TextureLaneTable { rows: parsed, run }
        }
    };
    serde_wasm_bindgen::to_value(&table).map_err(|e| JsValue::from_str(&e.to_string()))
}
