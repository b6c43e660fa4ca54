//! Test support for the interpreter tests: TGSI text → program (through the crate's parser),
//! helpers to run one quad, and lane views.
#![allow(dead_code)]

use tgsi::exec::{Batch, Constants, Lanes, Machine, Program};
use tgsi::ir::Shader;

/// Parses TGSI text with the crate's parser; panics with the diagnostics on errors.
pub fn build(text: &str) -> Shader {
    let parsed = tgsi::text::parse(text);
    match parsed.shader {
        Some(s) => s,
        None => panic!(
            "parse failed:\n{}",
            parsed.diagnostics.iter().map(|d| d.render("test")).collect::<Vec<_>>().join("\n")
        ),
    }
}

pub fn program(text: &str) -> Program {
    tgsi::exec::build(&build(text)).unwrap_or_else(|d| panic!("validate/compile failed: {d:?}"))
}

/// Runs one quad whose IN registers are given per register as 4 lanes × 4 channels
/// (`inputs[reg][lane][channel]`), returns OUT registers as `[reg][lane][channel]` bits.
pub fn run_quad_bits(
    text: &str,
    inputs: &[[[u32; 4]; 4]],
    consts: &Constants,
) -> Vec<[[u32; 4]; 4]> {
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    for (r, lanes) in inputs.iter().enumerate() {
        for c in 0..4 {
            b.set_input(r, c, 0, Lanes([0, 1, 2, 3].map(|l| lanes[l][c])));
        }
    }
    let mut m = Machine::new();
    m.run(&p, &mut b, consts).unwrap_or_else(|e| panic!("run failed: {}", e.diagnostic.message));
    (0..p.output_count() as usize)
        .map(|r| [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| b.output(r, c, 0).0[l])))
        .collect()
}

/// Float inputs given the same for all four lanes; returns OUT[0] of lane 0 as raw bits.
pub fn eval_bits(text: &str, inputs: &[[u32; 4]]) -> [u32; 4] {
    let ins: Vec<[[u32; 4]; 4]> = inputs.iter().map(|v| [*v; 4]).collect();
    run_quad_bits(text, &ins, &Constants::default())[0][0]
}

/// A one-instruction fragment shader `OP OUT[0], IN[0], IN[1], IN[2]` (as many sources as the
/// opcode has), evaluated with the given source bits, result bits of OUT[0] lane 0.
pub fn op_bits(op: &str, srcs: &[[u32; 4]]) -> [u32; 4] {
    let ins: Vec<String> = (0..srcs.len()).map(|i| format!("IN[{}]", i)).collect();
    let text = format!(
        "FRAG\nDCL IN[0..{}]\nDCL OUT[0]\n{} OUT[0], {}\nEND",
        srcs.len().max(1) - 1,
        op,
        ins.join(", ")
    );
    eval_bits(&text, srcs)
}

pub fn op_f(op: &str, srcs: &[[f32; 4]]) -> [f32; 4] {
    let s: Vec<[u32; 4]> = srcs.iter().map(|v| v.map(f32::to_bits)).collect();
    op_bits(op, &s).map(f32::from_bits)
}

pub fn op_i(op: &str, srcs: &[[i32; 4]]) -> [i32; 4] {
    let s: Vec<[u32; 4]> = srcs.iter().map(|v| v.map(|x| x as u32)).collect();
    op_bits(op, &s).map(|x| x as i32)
}

pub fn op_u(op: &str, srcs: &[[u32; 4]]) -> [u32; 4] {
    op_bits(op, srcs)
}

/// Asserts float bit equality (so NaN == NaN and −0 ≠ +0 are checked).
#[track_caller]
pub fn assert_f(got: [f32; 4], want: [f32; 4]) {
    let (g, w) = (got.map(f32::to_bits), want.map(f32::to_bits));
    assert!(
        g.iter()
            .zip(&w)
            .all(|(a, b)| a == b || (f32::from_bits(*a).is_nan() && f32::from_bits(*b).is_nan())),
        "got {:?} want {:?}",
        got,
        want
    );
}
