//! `--timeout SECONDS` and Ctrl-C stop `tgsi render` and `tgsi run` with a diagnostic, as the
//! instruction budget does. These check the behaviour (the diagnostic, the exit status, the
//! partial image), not the time: a loop that the budget would let run for minutes stops with
//! X010, whenever that is. The frame's own time limit (the page's) is checked with counting clocks.

use std::process::{Command, Output};

const ENDLESS_FS: &str =
    "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
                          BGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nENDLOOP\n\
                          MOV OUT[0], TEMP[0]\nEND\n";
const ENDLESS_CS: &str =
    "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n\
                          PROPERTY CS_FIXED_BLOCK_DEPTH 1\nBGNLOOP\nENDLOOP\nEND\n";

fn scratch(name: &str) -> String {
    crate::scratch::file("timeout", name)
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
}

fn tgsi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().expect("tgsi runs")
}

/// The largest budget a caller may ask for: minutes of this loop at 256x256.
fn max_budget() -> String {
    tgsi::limits::MAX_BUDGET.to_string()
}

#[test]
fn render_stops_at_the_timeout_and_writes_the_partial_image() {
    let fs = scratch("endless.tgsi");
    std::fs::write(&fs, ENDLESS_FS).expect("write");
    let png = scratch("endless.png");
    let budget = max_budget();
    let out = tgsi(&["render", &fs, "--timeout", "1", "--budget", &budget, "-o", &png]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("stopped after 1 seconds (--timeout)") && t.contains("[X010]"), "{t}");
    assert!(std::fs::metadata(&png).is_ok(), "the partial image is written");
    // A render that finishes in time is not affected.
    let quick = scratch("quick.tgsi");
    std::fs::write(
        &quick,
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n",
    )
    .expect("write");
    let out = tgsi(&["render", &quick, "--timeout", "600", "--size", "8x8", "-o", &png]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn run_stops_at_the_timeout() {
    let cs = scratch("endless_cs.tgsi");
    std::fs::write(&cs, ENDLESS_CS).expect("write");
    let budget = max_budget();
    let out = tgsi(&["run", &cs, "--grid", "1", "--timeout", "0.5", "--budget", &budget]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("stopped after 0.5 seconds (--timeout)") && t.contains("[X010]"), "{t}");
}

#[test]
fn bad_timeouts_are_usage_errors() {
    let cs = scratch("bad_timeout.tgsi");
    std::fs::write(&cs, ENDLESS_CS).expect("write");
    for bad in ["0", "-1", "soon", "inf"] {
        let out = tgsi(&["run", &cs, "--grid", "1", "--timeout", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
        let out = tgsi(&["render", &cs, "--timeout", bad, "-o", "/dev/null.png"]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
        assert!(text(&out).contains("--timeout"), "{}", text(&out));
    }
}

/// Ctrl-C (SIGINT) stops a render: X011, exit status 130, the partial image written. The
/// signal is sent once the process has its handler (its `SigCgt` mask in /proc shows it), so
/// the test does not depend on timing.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_a_render() {
    use std::time::{Duration, Instant};
    let fs = scratch("interrupted.tgsi");
    std::fs::write(&fs, ENDLESS_FS).expect("write");
    let png = scratch("interrupted.png");
    let budget = max_budget();
    let child = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(["render", &fs, "--budget", &budget, "-o", &png])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tgsi starts");
    let pid = child.id().to_string();
    let started = Instant::now();
    let catches_sigint = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
    };
    while !catches_sigint() {
        assert!(started.elapsed() < Duration::from_secs(60), "the handler was never installed");
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Command::new("kill").args(["-INT", &pid]).status().expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("tgsi ends");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(130), "{t}");
    assert!(t.contains("interrupted (Ctrl-C)") && t.contains("[X011]"), "{t}");
    assert!(std::fs::metadata(&png).is_ok(), "the partial image is written");
}

/// The engine's side: a frame stopped from outside (here before the run) ends its runs at
/// their next look — the first instruction — with X010 or X011, charged for what they ran.
#[test]
fn a_stopped_frame_stops_its_runs() {
    use tgsi::exec::{Batch, Constants, FrameBudget, Machine, Stop};
    let shader = tgsi::text::parse(ENDLESS_FS).shader.expect("parses");
    let program = tgsi::exec::build(&shader).expect("builds");
    for (why, code) in [(Stop::Timeout { seconds: 2.5 }, "X010"), (Stop::Interrupted, "X011")] {
        let budget = tgsi::limits::MAX_BUDGET;
        let frame = FrameBudget::new(budget);
        frame.stop(why);
        frame.stop(Stop::Interrupted); // the first reason is kept
        let mut machine = Machine::in_frame(budget, &frame);
        let mut batch = Batch::new(&program, 4);
        let err = machine.run(&program, &mut batch, &Constants::new()).expect_err("stopped");
        assert_eq!(err.diagnostic.code, code, "{}", err.diagnostic.message);
        if code == "X010" {
            assert!(err
                .diagnostic
                .message
                .starts_with("stopped after 2.5 seconds (--timeout) at "));
        }
        assert_eq!(err.instruction, 0, "it stops at its first look");
        // Charged its first instruction, BGNLOOP, over the batch's 4 quads: 1 x 4.
        assert_eq!(budget - frame.left(), 4);
    }
    // Unstopped, the same frame's budget ends the loop with X005 as before.
    let frame = FrameBudget::new(5000);
    let mut machine = Machine::in_frame(5000, &frame);
    let mut batch = Batch::new(&program, 4);
    let err = machine.run(&program, &mut batch, &Constants::new()).expect_err("budget");
    assert_eq!(err.diagnostic.code, "X005");
    assert_eq!(frame.left(), 0);
}

/// A frame with a time limit stops itself (no other thread needed: a browser's worker) at the
/// first look at its stop flag after its clock passed the limit and its work reached
/// `TIME_LIMIT_MIN_WORK`, with X010; a clock that has not reached it, or a frame with less work
/// than that, is left to its budget. The clocks are counters, so the test does not depend on
/// timing: `TICKS` moves one second each time it is read.
#[test]
fn a_frame_stops_itself_at_its_time_limit() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use tgsi::exec::{
        Batch, Constants, FrameBudget, Machine, Stop, STOP_CHECK_INTERVAL, TIME_LIMIT_MIN_WORK,
    };
    static TICKS: AtomicU64 = AtomicU64::new(0);
    fn ticking() -> f64 {
        TICKS.fetch_add(1000, Ordering::Relaxed) as f64
    }
    fn frozen() -> f64 {
        0.0
    }
    let shader = tgsi::text::parse(ENDLESS_FS).shader.expect("parses");
    let program = tgsi::exec::build(&shader).expect("builds");
    // The endless loop on 4 quads in a frame of `budget` work with a 0.5 s limit read from
    // `clock`: its code and how much work the frame did.
    let run = |budget: u64, clock: fn() -> f64| {
        let frame = FrameBudget::with_time_limit(budget, 0.5, clock);
        let mut machine = Machine::in_frame(budget, &frame);
        let mut batch = Batch::new(&program, 4);
        let err = machine.run(&program, &mut batch, &Constants::new()).expect_err("never ends");
        (err, frame.stopped(), budget - frame.left())
    };
    // A budget far beyond the least work the limit waits for (so a limit that is not honoured
    // ends with X005).
    let (err, stopped, done) = run(TIME_LIMIT_MIN_WORK * 4, ticking);
    assert_eq!(err.diagnostic.code, "X010", "{}", err.diagnostic.message);
    assert!(
        err.diagnostic
            .message
            .starts_with("stopped after 0.5 seconds (the frame's time limit) at "),
        "{}",
        err.diagnostic.message
    );
    assert_eq!(stopped, Some(Stop::TimeLimit { seconds: 0.5 }));
    // The clock was past the limit from the first look on: the run went on until its work
    // reached the least work, and stopped at the first look after that (looks are
    // STOP_CHECK_INTERVAL of work apart; one instruction of 4 quads is far less than that).
    assert!(
        (TIME_LIMIT_MIN_WORK..TIME_LIMIT_MIN_WORK + 2 * STOP_CHECK_INTERVAL).contains(&done),
        "stopped after {done} work"
    );
    // A clock past its limit but a frame with less work than that, and a clock that never
    // reaches the limit: either way the budget ends the loop with X005, as without a limit.
    for clock in [ticking as fn() -> f64, frozen] {
        let (err, stopped, _) = run(5000, clock);
        assert_eq!(err.diagnostic.code, "X005");
        assert_eq!(stopped, None);
    }
}
