//! A compiled run whose frame is stopped (`--timeout`, Ctrl-C) before its batch is done ends
//! soon after: a module that calls the engine looks at the stop flag every
//! `STOP_CHECK_INTERVAL` of work (docs/jit.md, "The budget").

use super::differential::program;
use tgsi::exec::{Batch, Constants, Machine, MakeAccelerator};
use tgsi::jit::native::NativeProgram;
#[path = "../../common/unlimited.rs"]
mod unlimited;
use unlimited::Unlimited;

/// Runs `fs` (an endless loop) through its compiled form with an unlimited budget, stops the
/// frame from another thread after 50 ms, and checks that the run ended with the stop's
/// diagnostic. Liveness, not speed: a module that did not look at the stop flag would never
/// end (the wait fails).
fn stopped_while_compiled(fs: &str) {
    let p = program(fs);
    let native = NativeProgram::new(&p).expect("compiles");
    let frame = tgsi::exec::FrameBudget::new(u64::MAX);
    let mut m = Machine::in_frame(u64::MAX, &frame);
    m.accel = Some(Box::new(Unlimited(native.make().expect("an instance"))));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut b = Batch::new(&p, 4);
        let r = m.run(&p, &mut b, &Constants::default());
        let _ = tx.send(r.map(|_| ()).map_err(|e| e.diagnostic));
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
    frame.stop(tgsi::exec::Stop::Interrupted);
    let r = rx.recv_timeout(std::time::Duration::from_secs(120)).expect("the run ended");
    let d = r.expect_err("stopped");
    assert_eq!(d.code, "X011", "{}", d.message);
    assert!(d.message.starts_with("interrupted (Ctrl-C) at"), "{}", d.message);
}

/// A loop whose time goes to calls into the engine (SIN of arguments past 120, the
/// interpreter's own function, about 40 ns a quad): the module looks at the stop flag (its
/// `poll` import) every `STOP_CHECK_INTERVAL` of work at the loop's back-edge. (A module that
/// calls nothing does not look: `ACCELERATED_WORK_CAP` bounds its time.)
#[test]
fn a_stopped_frame_ends_a_compiled_loop_of_calls_into_the_engine() {
    stopped_while_compiled(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] FLT32 {1000.0, 0.001, 0.0, 0.0}\n\
         ADD TEMP[0], IN[0], IMM[0].xxxx\nBGNLOOP\nSIN TEMP[1].x, TEMP[0].xxxx\n\
         ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nENDLOOP\nMOV OUT[0], TEMP[1]\nEND\n",
    );
}
