//! Softpipe's floating-point environment, case by case (`tests/denormal-cases/`, made with the
//! softpipe oracle by `make_cases.py` there): each case renders its `.tgsi` with its `.vs.tgsi`
//! on the `fullscreen` mesh (or its `.vertices.json`) with the exact constant bits of its
//! `.json`, and every channel of the 4x2 frame must equal softpipe's `.f32` bit for bit.
//! `fs_*` cases compute in the fragment stage of a draw that needs clipping (plain IEEE:
//! denormals kept); `fsq_*` cases are the same fragment shaders drawn as a quad inside the
//! view, which softpipe shades inside its draw call (denormals flushed); `vs_*` cases compute in
//! the vertex stage (denormal operands read as zero, denormal results flushed;
//! docs/interpreter.md).

use crate::conformance::constants_of;

#[path = "../common/small_case.rs"]
mod small_case;
use tgsi::jit::Engine;
use tgsi::render::job::{prepare, run, Request};
use tgsi::texture::bind::Bindings;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/denormal-cases/");

fn check(name: &str) {
    compare_case(CASES, name, &[]);
}

/// Renders oracle case `name` of folder `dir` (4x2, see the module comment) and asserts that
/// every channel equals softpipe's bits, except the `known` (case, column, channel) ones, which
/// must differ.
pub(crate) fn compare_case(dir: &str, name: &str, known: &[(&str, usize, usize, &str)]) {
    let read = |ext: &str| {
        std::fs::read_to_string(format!("{dir}{name}{ext}"))
            .unwrap_or_else(|e| panic!("{name}{ext}: {e}"))
    };
    let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
    let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
    // vs_* cases: the vertex stage's constants (the oracle's .json lists the fragment stage's).
    let mut constants = constants_of(&json);
    if let Ok(text) = std::fs::read_to_string(format!("{dir}{name}.vs-consts.json")) {
        let vs_json: serde_json::Value = serde_json::from_str(&text).expect("vs-consts");
        let vs_consts = constants_of(&vs_json);
        let declared = vs.lines().find(|l| l.starts_with("DCL CONST[0]")).unwrap_or("");
        let count = declared
            .rsplit("..")
            .next()
            .and_then(|n| n.trim_end_matches(']').parse::<usize>().ok());
        assert_eq!(count.map_or(1, |n| n + 1), vs_consts.len(), "{name}: {declared}");
        constants.extend(vs_consts);
    }
    let vertices = std::fs::read_to_string(format!("{dir}{name}.vertices.json")).ok();
    let req = Request {
        fs: &fs,
        vs: Some(&vs),
        mesh: if vertices.is_some() { None } else { Some("fullscreen") },
        vertices: vertices.as_deref(),
        width: 4,
        height: 2,
        constants,
        ..Request::default()
    };
    let (job, diags) = prepare(&req);
    let mut job =
        job.unwrap_or_else(|| panic!("{name}: {:?}", diags.first().map(|d| &d.diagnostic)));
    let bytes = std::fs::read(format!("{dir}{name}.f32")).expect("f32");
    let theirs = tgsi::render::image_io::f32_pixels(&bytes);
    let mut bad = Vec::new();
    // Both engines: with the compiling tier the module of the plain program draws the chunks
    // that keep denormals, and the module of the flushing one (`Job::fs_in_draw_accel`) the
    // chunks inside the view (asked for by name, so shaders that call the engine's lane
    // formulas are compiled too).
    for engine in [Engine::Interpreter, Engine::Jit] {
        if tgsi::jit::attach(&mut job, engine, true).is_err() {
            continue;
        }
        if engine == Engine::Jit && job.fs_in_draw.is_some() {
            assert!(job.fs_in_draw_accel.is_some(), "{name}: the flushing program is compiled");
        }
        let out = run(&job, None, &mut Bindings::new(), job.default_budget())
            .unwrap_or_else(|d| panic!("{name}: {}", d.diagnostic.message));
        let ours = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes());
        compare_pixels(name, engine, &ours, &theirs, known, &mut bad);
    }
    assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
}

/// Adds to `bad` every channel of the 4x2 frame where `ours` and softpipe's differ, except the
/// `known` (case, column, channel) ones, which must differ.
fn compare_pixels(
    name: &str,
    engine: Engine,
    ours: &[[f32; 4]],
    theirs: &[[f32; 4]],
    known: &[(&str, usize, usize, &str)],
    bad: &mut Vec<String>,
) {
    let differing = small_case::differing_channels(ours, theirs);
    for y in 0..2usize {
        for x in 0..4usize {
            for c in 0..4 {
                let known = known.iter().any(|k| (k.0, k.1, k.2) == (name, x, c));
                let found = differing.iter().find(|d| (d.0, d.1, d.2) == (x, y, c));
                // A listed channel must really differ, so the list cannot hide a pass.
                if found.is_some() != known {
                    let (a, b) = found.map_or((0, 0), |d| (d.3, d.4));
                    bad.push(format!(
                        "{engine:?}: column {x} row {y} channel {c}: ours {a:08x} softpipe {b:08x}{}",
                        if known { " (listed as differing)" } else { "" }
                    ));
                }
            }
        }
    }
}

#[test]
fn fs_arith() {
    check("fs_arith");
}
#[test]
fn fs_mad_div() {
    check("fs_mad_div");
}
#[test]
fn fs_moves() {
    check("fs_moves");
}
#[test]
fn fs_compare() {
    check("fs_compare");
}
#[test]
fn fs_convert() {
    check("fs_convert");
}
#[test]
fn fs_transcendental() {
    check("fs_transcendental");
}
#[test]
fn fs_pow_trig() {
    check("fs_pow_trig");
}
#[test]
fn fs_underflow() {
    check("fs_underflow");
}
#[test]
fn fsq_arith() {
    check("fsq_arith");
}
#[test]
fn fsq_mad_div() {
    check("fsq_mad_div");
}
#[test]
fn fsq_moves() {
    check("fsq_moves");
}
#[test]
fn fsq_compare() {
    check("fsq_compare");
}
#[test]
fn fsq_convert() {
    check("fsq_convert");
}
#[test]
fn fsq_transcendental() {
    check("fsq_transcendental");
}
#[test]
fn fsq_pow_trig() {
    check("fsq_pow_trig");
}
#[test]
fn fsq_underflow() {
    check("fsq_underflow");
}
#[test]
fn vs_arith() {
    check("vs_arith");
}
#[test]
fn vs_mad_div() {
    check("vs_mad_div");
}
#[test]
fn vs_moves() {
    check("vs_moves");
}
#[test]
fn vs_compare() {
    check("vs_compare");
}
#[test]
fn vs_convert() {
    check("vs_convert");
}
#[test]
fn vs_transcendental() {
    check("vs_transcendental");
}

/// The flushing decision is made once, at compile time, per stage: in a vertex program the
/// float instructions carry the flushes and leave the fast kernels (so the fast path never
/// has to know about them); the same text as a fragment program keeps its kernel and flushes
/// nothing. Moves keep their bits in both.
#[test]
fn flushing_is_decided_per_stage_at_compile_time() {
    const GS: &str = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n\
        PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\n\
        DCL IN[][0]\nDCL OUT[0]\nDCL TEMP[0]\nMUL TEMP[0], IN[0][0], IN[0][0]\n\
        MOV OUT[0], TEMP[0]\nEND\n";
    let cases = [
        ("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nMUL TEMP[0], IN[0], IN[0]\nMOV OUT[0], TEMP[0]\nEND\n", true),
        ("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nMUL TEMP[0], IN[0], IN[0]\nMOV OUT[0], TEMP[0]\nEND\n", false),
        (GS, true),
        ("COMP\nDCL TEMP[0..1]\nMUL TEMP[0], TEMP[1], TEMP[1]\nEND\n", false),
    ];
    for (text, flush) in cases {
        let head = text.lines().next().unwrap_or("");
        let parsed = tgsi::text::parse(text);
        let shader = parsed.shader.unwrap_or_else(|| panic!("{text}: {:?}", parsed.diagnostics));
        let program =
            crate::support::compile(&shader).unwrap_or_else(|d| panic!("{text}: {}", d.message));
        let mode = tgsi::exec::program::Denormals::of_stage(program.processor);
        assert_eq!(mode != tgsi::exec::program::Denormals::Keep, flush, "{head}");
        let mul = program.code.iter().find(|i| i.op == tgsi::opcode::Opcode::MUL).expect("MUL");
        assert_eq!(mul.ftz, flush, "{head}");
        assert_eq!(mul.daz, if flush { 0b11 } else { 0 }, "{head}");
        if flush {
            assert!(
                mul.kernel.is_none() && !mul.fused,
                "{head}: a flushing MUL left the general path"
            );
        }
        if let Some(mov) = program.code.iter().find(|i| i.op == tgsi::opcode::Opcode::MOV) {
            assert!(!mov.ftz && mov.daz == 0, "{head}: MOV must keep its bits");
        }
    }
}

/// IF in a vertex program compares its float condition after flushing: a denormal condition
/// is false there and true in a fragment program (hand-written TGSI: Mesa's compiler emits UIF
/// for GLSL conditions, so no oracle case exists; see docs/interpreter.md).
#[test]
fn if_on_a_denormal_condition() {
    use tgsi::exec::{Batch, Constants, Machine};
    for (head, expected) in [("VERT", 0.0f32), ("FRAG", 1.0)] {
        let text = format!(
            "{head}\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {{ 1.0, 0.0, 0.0, 0.0 }}\n\
             MOV OUT[0], IMM[0].yyyy\nIF IN[0].xxxx\nMOV OUT[0], IMM[0].xxxx\nENDIF\nEND\n"
        );
        let parsed = tgsi::text::parse(&text);
        let shader = parsed.shader.unwrap_or_else(|| panic!("{text}: {:?}", parsed.diagnostics));
        let program = crate::support::compile(&shader).expect("compiles");
        let mut batch = Batch::new(&program, 1);
        batch.set_input_f32(0, 0, [[f32::from_bits(1), 0.0, 0.0, 0.0]; 4]);
        let mut machine = Machine::new();
        machine.run(&program, &mut batch, &Constants::new()).expect("runs");
        assert_eq!(batch.output(0, 0, 0).f32s(), [expected; 4], "{head}");
    }
}
