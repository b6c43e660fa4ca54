//! A compiled run looks at no clock: what ends it when its frame is stopped (`--timeout`,
//! Ctrl-C) before its batch is done (docs/jit.md, "Not done yet").

use super::differential::program;
use tgsi::exec::{AccelEnv, Accelerator, Batch, Constants, Lanes, Machine, MakeAccelerator};
use tgsi::jit::native::NativeProgram;

/// Hands the module an unlimited budget, whatever the machine asks: a run of an endless loop
/// can then only end by being stopped.
struct Unlimited(Box<dyn Accelerator>);

impl Accelerator for Unlimited {
    fn run(
        &mut self,
        regs: &mut [Lanes],
        kill: &mut [Lanes],
        nq: usize,
        _limit: u64,
        env: &mut AccelEnv,
    ) -> Option<u64> {
        self.0.run(regs, kill, nq, u64::MAX, env)
    }
    fn kept_outputs(&self) -> Option<tgsi::exec::Rows<'_>> {
        self.0.kept_outputs()
    }
    fn input_rows(&mut self, nq: usize) -> Option<tgsi::exec::RowsMut<'_>> {
        self.0.input_rows(nq)
    }
}

/// A compiled run looks at no clock; its calls into the engine (here SIN of arguments past 120,
/// which the module leaves to the interpreter's function) look at the frame's stop flag, so a
/// frame stopped from another thread ends the run and the interpreter reports the stop. Without
/// that the module would run this endless loop for ever (the wait below would fail).
#[test]
fn a_stopped_frame_ends_a_compiled_run_through_its_calls_into_the_engine() {
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] FLT32 {1000.0, 0.001, 0.0, 0.0}\n\
         ADD TEMP[0], IN[0], IMM[0].xxxx\nBGNLOOP\nSIN TEMP[1].x, TEMP[0].xxxx\n\
         ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nENDLOOP\nMOV OUT[0], TEMP[1]\nEND\n",
    );
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
    // Liveness, not speed: a run that ignored the stop would never end.
    let r = rx.recv_timeout(std::time::Duration::from_secs(120)).expect("the run ended");
    let d = r.expect_err("stopped");
    assert_eq!(d.code, "X011", "{}", d.message);
    assert!(d.message.starts_with("interrupted (Ctrl-C) at"), "{}", d.message);
}
