//! `--engine` on the CLI: the JIT's image is the interpreter's byte for byte, a shader it does
//! not compile runs in the interpreter with a note, a bad engine name is a usage error, and
//! `bench --engine both` prints both engines.

use std::process::Command;

const CORPUS: &str = corpus!("/softpipe");

fn tgsi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().expect("run tgsi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    crate::scratch::file("jit-cli", name)
}

#[test]
fn render_with_the_jit_writes_the_interpreters_image() {
    let fs = format!("{CORPUS}/26_mandelbrot.tgsi");
    let vs = format!("{CORPUS}/26_mandelbrot.vs.tgsi");
    let (a, b) = (tmp("interp.f32"), tmp("jit.f32"));
    let (s1, _, e1) =
        tgsi(&["render", &fs, "--vs", &vs, "--size", "64x64", "--engine", "interp", "-o", &a]);
    let (s2, _, e2) =
        tgsi(&["render", &fs, "--vs", &vs, "--size", "64x64", "--engine", "jit", "-o", &b]);
    assert_eq!((s1, s2), (0, 0), "{e1}{e2}");
    assert!(e2.is_empty(), "26_mandelbrot compiles: no note expected, got {e2}");
    let (x, y) = (std::fs::read(&a).expect("interp image"), std::fs::read(&b).expect("jit image"));
    assert_eq!(x.len(), 64 * 64 * 16);
    assert!(x == y, "the JIT's image differs from the interpreter's");
}

#[test]
fn a_shader_the_jit_does_not_compile_runs_in_the_interpreter_with_a_note() {
    // UMUL_HI (the high half of a 32 x 32-bit product) has no compiled form.
    let fs = tmp("umul_hi.tgsi");
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: UMUL_HI OUT[0], IN[0], IN[0]\n  1: END\n";
    std::fs::write(&fs, text).expect("write the shader");
    let out = tmp("umul_hi.png");
    let (s, _, e) = tgsi(&["render", &fs, "--size", "16x16", "--engine", "jit", "-o", &out]);
    assert_eq!(s, 0, "{e}");
    assert!(
        e.contains("note: the interpreter runs this shader")
            && e.contains("UMUL_HI is not compiled"),
        "{e}"
    );
    // Without naming the engine no note is printed.
    let (s, _, e) = tgsi(&["render", &fs, "--size", "16x16", "-o", &out]);
    assert_eq!((s, e.as_str()), (0, ""));
}

/// 03_trig (SIN and COS through the module's imports) compiles: the JIT's image is the
/// interpreter's byte for byte, with no note.
#[test]
fn a_trigonometric_shader_renders_the_interpreters_image() {
    let fs = format!("{CORPUS}/03_trig.tgsi");
    let vs = format!("{CORPUS}/03_trig.vs.tgsi");
    let (a, b) = (tmp("trig-interp.f32"), tmp("trig-jit.f32"));
    let (s1, _, e1) =
        tgsi(&["render", &fs, "--vs", &vs, "--size", "64x64", "--engine", "interp", "-o", &a]);
    let (s2, _, e2) =
        tgsi(&["render", &fs, "--vs", &vs, "--size", "64x64", "--engine", "jit", "-o", &b]);
    assert_eq!((s1, s2), (0, 0), "{e1}{e2}");
    assert!(e2.is_empty(), "03_trig compiles: no note expected, got {e2}");
    let (x, y) = (std::fs::read(&a).expect("interp image"), std::fs::read(&b).expect("jit image"));
    assert_eq!(x.len(), 64 * 64 * 16);
    assert!(x == y, "the JIT's image differs from the interpreter's");
}

#[test]
fn a_bad_engine_is_a_usage_error() {
    let fs = format!("{CORPUS}/01_arith.tgsi");
    let (s, _, e) = tgsi(&["render", &fs, "--engine", "llvm", "-o", &tmp("x.png")]);
    assert_eq!(s, 2);
    assert!(e.contains("--engine is interp or jit"), "{e}");
    let (s, _, e) = tgsi(&["bench", &fs, "--engine", "fast"]);
    assert_eq!(s, 2);
    assert!(e.contains("--engine is interp or jit or both"), "{e}");
}

#[test]
fn bench_both_prints_both_engines() {
    let fs = format!("{CORPUS}/01_arith.tgsi");
    let vs = format!("{CORPUS}/01_arith.vs.tgsi");
    let (s, out, e) =
        tgsi(&["bench", &fs, "--vs", &vs, "--size", "16x16", "--seconds", "0", "--engine", "both"]);
    assert_eq!(s, 0, "{e}");
    assert!(out.contains("engine: interp") && out.contains("engine: jit"), "{out}");
    assert!(out.contains("compile ms:") && out.contains("speed-up:"), "{out}");
}

/// The default engine leaves a shader whose module calls host functions (POW, and SIN, whose
/// import serves large arguments) to the interpreter, which runs such shaders faster natively
/// (docs/jit.md "Speed of imported opcodes", "SIN and COS"); `--engine jit` by name compiles it;
/// a shader without imports is compiled either way.
#[test]
fn the_default_engine_leaves_host_calls_to_the_interpreter() {
    let program = |text: &str| {
        let s = tgsi::text::parse(text).shader.expect("parses");
        tgsi::exec::build(&s).expect("builds")
    };
    let pow =
        program("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nPOW OUT[0], IN[0].xxxx, IN[0].yyyy\nEND\n");
    let sin = program("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nSIN OUT[0], IN[0].xxxx\nEND\n");
    let add = program("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nADD OUT[0], IN[0], IN[0]\nEND\n");
    for p in [&pow, &sin] {
        let why = tgsi::jit::accelerator(p, false).err().expect("left to the interpreter");
        assert_eq!(why, tgsi::jit::SLOWER_WITH_IMPORTS);
        assert!(tgsi::jit::accelerator(p, true).is_ok(), "compiled when asked for by name");
    }
    assert!(tgsi::jit::accelerator(&add, false).is_ok());
    assert!(tgsi::jit::accelerator(&add, true).is_ok());
}
