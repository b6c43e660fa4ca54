//! The default budget of a run is in proportion to its quads (`limits::default_frame_budget`:
//! 2^15 quad-instructions per quad, at least 2^20): an endless loop in a tiny run stops at the
//! minimum, promptly, with X005 naming the budget it used. Expected budgets worked by hand.

use std::process::{Command, Output};

/// One instruction in the loop besides its ends; each quad with a live lane is charged BGNLOOP
/// once, then ADD and ENDLOOP every iteration (`docs/interpreter.md`, "Budget").
const ENDLESS_FS: &str =
    "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
                          BGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nENDLOOP\n\
                          MOV OUT[0], TEMP[0]\nEND\n";
const ENDLESS_CS: &str = "COMP\nBGNLOOP\nENDLOOP\nEND\n";

fn scratch(name: &str) -> String {
    crate::scratch::file("default-budget", name)
}

fn tgsi(args: &[&str]) -> (Option<i32>, String) {
    let out: Output =
        Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().expect("tgsi runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

fn stopped_after(n: u64) -> String {
    format!("stopped after {n} instructions of work")
}

/// `tgsi run` of one block of one invocation: ceil(1 / 4) = 1 quad, so the default is
/// max(1 * 2^15, 2^20) = 2^20 = 1048576.
#[test]
fn run_of_one_invocation_stops_at_the_minimum() {
    let cs = scratch("one.tgsi");
    std::fs::write(&cs, ENDLESS_CS).expect("write");
    let (code, t) = tgsi(&["run", &cs, "--grid", "1", "--block", "1"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains(&stopped_after(1 << 20)) && t.contains("[X005]"), "{t}");
}

/// A grid of 64 blocks of 8x8 invocations: 4096 invocations = 1024 quads, so the default is
/// 1024 * 2^15 = 2^25 = 33554432 (above the minimum).
#[test]
fn run_default_grows_with_the_grid() {
    let cs = scratch("grid.tgsi");
    std::fs::write(&cs, ENDLESS_CS).expect("write");
    let (code, t) = tgsi(&["run", &cs, "--grid", "64", "--block", "8,8"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains(&stopped_after(1 << 25)) && t.contains("[X005]"), "{t}");
}

/// `tgsi render --size 2x2`: ceil(2/2) * ceil(2/2) = 1 quad, default max(2^15, 2^20) = 2^20.
#[test]
fn render_of_one_quad_stops_at_the_minimum() {
    let fs = scratch("endless.tgsi");
    std::fs::write(&fs, ENDLESS_FS).expect("write");
    let png = scratch("endless.png");
    let (code, t) = tgsi(&["render", &fs, "--size", "2x2", "-o", &png]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains(&stopped_after(1 << 20)) && t.contains("[X005]"), "{t}");
}

/// An explicit --budget stays an absolute total whatever the size.
#[test]
fn an_explicit_budget_is_absolute() {
    let fs = scratch("explicit.tgsi");
    std::fs::write(&fs, ENDLESS_FS).expect("write");
    let png = scratch("explicit.png");
    let (code, t) = tgsi(&["render", &fs, "--size", "2x2", "--budget", "5000", "-o", &png]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains(&stopped_after(5000)) && t.contains("[X005]"), "{t}");
}

/// `execQuad` (and the reference's lane tables) run one quad: without a budget the default is
/// that of a one-quad frame, max(1 x 2^15, 2^20) = 2^20 = 1048576.
#[test]
fn one_quad_run_stops_at_the_minimum() {
    let req = tgsi::exec::quad::QuadRequest {
        inputs: Vec::new(),
        constants: Vec::new(),
        coverage: None,
        budget: None,
    };
    let run = tgsi::exec::quad::run_quad(ENDLESS_FS, &req);
    let error = run.error.expect("stopped");
    assert_eq!(error.code, "X005");
    assert!(error.message.contains(&stopped_after(1 << 20)), "{}", error.message);
}

/// Every `--budget` help states the engine's own numbers: the weights of `exec::work` and the
/// defaults and bounds of `limits`. The texts are written out in `cli/args.rs`; a change to a
/// weight or a limit fails here until the help says the same.
#[test]
fn every_budget_help_states_the_engines_numbers() {
    use tgsi::exec::work::{LIBM_WEIGHT, SAMPLE_WEIGHT, TRIG_WEIGHT};
    use tgsi::limits::{default_frame_budget, DEFAULT_WORK_PER_QUAD, MAX_BUDGET, MIN_FRAME_BUDGET};
    let pow = |v: u64| {
        assert!(v.is_power_of_two(), "{v} is written as a power of two in the help");
        format!("2^{}", v.trailing_zeros())
    };
    let weights = format!(
        "a texture sample counts {SAMPLE_WEIGHT}, SIN and COS {TRIG_WEIGHT}, EX2, LG2 and POW \
         {LIBM_WEIGHT}"
    );
    let (per, min, max) = (pow(DEFAULT_WORK_PER_QUAD), pow(MIN_FRAME_BUDGET), pow(MAX_BUDGET));
    let frame = format!("[default: {per} per 2x2 quad, at least {min}; at most {max}]");
    let dispatch = format!("[default: {per} per 4 invocations, at least {min}; at most {max}]");
    // `tgsi diff` runs each shader on one quad (or one block of four invocations).
    let diff = format!("[default: {}; at most {max}]", pow(default_frame_budget(1)));
    let cases: [(&str, Vec<&str>); 4] = [
        ("render", vec![&weights, &frame]),
        ("trace", vec![&weights, &frame]),
        ("run", vec![&dispatch]),
        ("diff", vec![&diff]),
    ];
    for (command, expected) in cases {
        let (code, text) = tgsi(&[command, "--help"]);
        assert_eq!(code, Some(0), "{command} --help: {text}");
        let line = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("--budget"))
            .nth(1)
            .unwrap_or_else(|| panic!("{command} --help has no --budget: {text}"));
        for want in expected {
            assert!(line.contains(want), "{command} --budget says {line:?}, not {want:?}");
        }
    }
}
