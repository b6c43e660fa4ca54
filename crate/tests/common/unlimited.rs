//! An accelerator that hands its module an unlimited budget, whatever the machine asks: a run of
//! an endless loop can then only end by being stopped (the native and browser tests of the
//! stop flag, `tests/native/jit/stop.rs` and `tests/web/jit.rs`).

use tgsi::exec::{AccelEnv, Accelerator, Lanes, Rows, RowsMut};

pub struct Unlimited(pub Box<dyn Accelerator>);

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
    fn kept_outputs(&self) -> Option<Rows<'_>> {
        self.0.kept_outputs()
    }
    fn input_rows(&mut self, nq: usize) -> Option<RowsMut<'_>> {
        self.0.input_rows(nq)
    }
}
