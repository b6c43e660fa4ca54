//! Conformance with softpipe (Mesa's tgsi_exec): every fragment shader of
//! `tests/corpus/softpipe/` that samples no texture must give softpipe's pixels. Inputs as
//! `tests/corpus/README.md` says: GENERIC[0] = v_uv = ((x+0.5)/64, (y+0.5)/64) with y from the
//! bottom row; POSITION = (x+0.5, H−0.5−y, 0.5, 1) (item 2); constants from the `.json`.
//! Quads cover (x, y), (x+1, y), (x, y+1), (x+1, y+1) with x, y even (item 4).

use crate::support::compile;
use std::path::PathBuf;
use tgsi::exec::{Batch, Constants, Machine};
use tgsi::ir::SemanticName;

const DIR: &str = corpus!("/softpipe");

fn shaders() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(DIR)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.ends_with(".tgsi") && !n.ends_with(".vs.tgsi")
        })
        .collect();
    v.sort();
    v
}

fn samples_texture(text: &str) -> bool {
    text.lines().any(|l| {
        l.contains("SVIEW") || l.contains("SAMP[") || l.contains(" TEX") || l.contains(" TXF")
    })
}

/// The `.json`'s constants (the one reader, `crate/tests/common/corpus_inputs.rs`) as the
/// machine's constant buffers.
fn constants(json: &serde_json::Value) -> Constants {
    let mut c = Constants::new();
    for v in crate::conformance::constants_of(json) {
        c.set_bits(v.buffer as usize, v.index as usize, v.bits);
    }
    c
}

/// Result of one shader: mismatching channels and the largest ulp distance among them.
struct Outcome {
    name: String,
    mismatches: usize,
    max_ulp: u64,
    first: Option<String>,
}

fn run_one(path: &PathBuf, parse: impl Fn(&str) -> tgsi::ir::Shader) -> Option<Outcome> {
    let text = std::fs::read_to_string(path).ok()?;
    if samples_texture(&text) {
        return None;
    }
    let stem = path.with_extension("");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stem.with_extension("json")).ok()?).ok()?;
    let expected = std::fs::read(stem.with_extension("f32")).ok()?;
    let (w, h) = (json["width"].as_u64()? as usize, json["height"].as_u64()? as usize);
    let shader = parse(&text);
    let program = compile(&shader).unwrap_or_else(|d| panic!("{}: {}", path.display(), d.message));
    let consts = constants(&json);
    let generic = program.input_index(SemanticName::Generic, 0);
    let position = program.input_index(SemanticName::Position, 0);
    let color = program.output_index(SemanticName::Color, 0).unwrap_or(0);

    // One batch per row pair: w/2 quads.
    let nq = w / 2;
    let mut batch = Batch::new(&program, nq);
    let mut machine = Machine::new();
    let mut out = Outcome {
        name: path.file_name()?.to_string_lossy().into_owned(),
        mismatches: 0,
        max_ulp: 0,
        first: None,
    };
    for y0 in (0..h).step_by(2) {
        for q in 0..nq {
            let x0 = q * 2;
            let lane = |l: usize| (x0 + (l & 1), y0 + (l >> 1));
            if let Some(r) = generic {
                let uv: [[f32; 4]; 4] = [0, 1, 2, 3].map(|l| {
                    let (x, y) = lane(l);
                    [(x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32, 0.0, 1.0]
                });
                batch.set_input_f32(r as usize, q, uv);
            }
            if let Some(r) = position {
                let pos: [[f32; 4]; 4] = [0, 1, 2, 3].map(|l| {
                    let (x, y) = lane(l);
                    [x as f32 + 0.5, h as f32 - 0.5 - y as f32, 0.5, 1.0]
                });
                batch.set_input_f32(r as usize, q, pos);
            }
        }
        machine
            .run(&program, &mut batch, &consts)
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.diagnostic.message));
        for q in 0..nq {
            for l in 0..4 {
                let (x, y) = (q * 2 + (l & 1), y0 + (l >> 1));
                let killed = batch.killed[q] >> l & 1 != 0;
                let got = if killed { [0.0; 4] } else { batch.output_f32(color as usize, q, l) };
                for c in 0..4 {
                    let o = ((y * w + x) * 4 + c) * 4;
                    let want = f32::from_le_bytes([
                        expected[o],
                        expected[o + 1],
                        expected[o + 2],
                        expected[o + 3],
                    ]);
                    // The framebuffer is float: softpipe stores what the shader wrote.
                    if got[c].to_bits() != want.to_bits() && !(got[c].is_nan() && want.is_nan()) {
                        out.mismatches += 1;
                        out.max_ulp =
                            out.max_ulp.max(crate::conformance::ulp_distance(got[c], want));
                        if out.first.is_none() {
                            out.first = Some(format!(
                                "pixel ({}, {}) channel {}: got {} want {}",
                                x, y, c, got[c], want
                            ));
                        }
                    }
                }
            }
        }
    }
    Some(out)
}

#[test]
fn softpipe_corpus_pixels_match() {
    let mut ran = 0;
    let mut report = Vec::new();
    for path in shaders() {
        let Some(o) = run_one(&path, crate::exec_support::build) else { continue };
        ran += 1;
        eprintln!("{}: {} mismatches", o.name, o.mismatches);
        if o.mismatches > 0 {
            report.push(format!(
                "{}: {} channels differ, max {} ulp; first {}",
                o.name,
                o.mismatches,
                o.max_ulp,
                o.first.unwrap_or_default()
            ));
        }
    }
    assert!(ran >= 20, "only {} corpus shaders ran", ran);
    // The transcendental functions are glibc's formulas, computed by the engine, as tgsi_exec's
    // libm computes them, so every pixel must be bit-exact (docs/interpreter.md "Conformance").
    assert!(
        report.is_empty(),
        "{} of {} shaders differ:\n{}",
        report.len(),
        ran,
        report.join("\n")
    );
}
