//! The interface of a compiled form of a program (the JIT, `jit/`): what the machine hands it
//! for one batch and what it may call back into.

use super::io::{Batch, Constants, TextureHooks};
use super::lanes::Lanes;
use super::program::Program;
use super::rows::{Rows, RowsMut};

/// A compiled form of one program (the JIT, `jit/`) that runs a prepared batch in place of the
/// dispatch loop, bit for bit as the loop would (`docs/jit.md`).
pub trait Accelerator: Send {
    /// Runs over the machine's storage (`regs`, row-major: `row * nq + quad`, set up as for
    /// the interpreter) and kill mask, leaving every OUT row (in `regs`, or for an in-place
    /// batch possibly in its own memory: `kept_outputs`) and the kill mask as the interpreter
    /// would (other rows may keep their old values). Returns the work done (quad-instructions:
    /// each instruction once per quad with an active lane, docs/jit.md), or None when the batch must run in the interpreter instead (the budget would run out: the interpreter
    /// then stops at the same instruction with the same diagnostic).
    fn run(
        &mut self,
        regs: &mut [Lanes],
        kill: &mut [Lanes],
        nq: usize,
        limit: u64,
        env: &mut AccelEnv,
    ) -> Option<u64>;
    /// After a run of an in-place batch (`Batch::in_place`) that left the OUT rows in the
    /// compiled form's own memory instead of copying them into `regs`: those rows, row
    /// `register * 4 + channel` for every OUT register (what the interpreter would have left in
    /// its OUT rows). None otherwise. (No default: a wrapper that did not pass it on would let
    /// the machine read rows the run never wrote.)
    fn kept_outputs(&self) -> Option<Rows<'_>>;
    /// The compiled form's own IN rows for a batch of `nq` quads, for a caller that writes the
    /// inputs in place (`Machine::input_rows`): row `register * 4 + channel` for every IN
    /// register. A run with [`AccelEnv::inputs_placed`] then reads them there instead of
    /// copying the machine's. None (the default) when the inputs go through the machine.
    fn input_rows(&mut self, _nq: usize) -> Option<RowsMut<'_>> {
        None
    }
    /// From now on, each run stores OUT register `colour` into the render target `target` holds
    /// (`render::framebuffer::TargetQuads::region`) itself, for the quads
    /// and lanes its records say ([`Accelerator::colour_records`]), instead of leaving it in
    /// its OUT rows; `None` stops that. Returns whether the runs will (natively, a program
    /// compiled so, and a target whose storage the module can be lent: docs/jit.md "Colours
    /// stored by the module"). Input rows ([`Accelerator::input_rows`]) and records are the
    /// storing form's from then on.
    fn fuse(&mut self, _target: Option<(&std::sync::Arc<super::lend::Region>, u32)>) -> bool {
        false
    }
    /// While fused, the records of a batch of `nq` quads to fill before its run: row 0 holds
    /// each quad's lane mask (all ones in a lane to store), lane 0 of row 1 the byte offset
    /// of the quad's colour in the module's memory; with the offset of the target's quad 0.
    fn colour_records(&mut self, _nq: usize) -> Option<(RowsMut<'_>, u32)> {
        None
    }
    /// The last run stored its colours into the target (a run that gave its batch back to the
    /// interpreter did not: its outputs are the machine's).
    fn colours_stored(&self) -> bool {
        false
    }
}

/// What a compiled run calls back into (`jit::host`): the run's texture hooks, and what the
/// interpreter's own texture instructions read besides their operands.
pub struct AccelEnv<'a> {
    pub program: &'a Program,
    pub batch: &'a Batch,
    pub consts: &'a Constants,
    pub hooks: &'a mut dyn TextureHooks,
    /// The batch's IN rows are already in the compiled form's memory (written through
    /// [`Accelerator::input_rows`]): only the other rows are copied in.
    pub inputs_placed: bool,
    /// The frame the run belongs to, if any: a compiled run that calls the engine looks at its
    /// stop flag every `STOP_CHECK_INTERVAL` of work (`jit::host::stopped`) and gives the batch
    /// back once the frame is stopped.
    pub frame: Option<&'a super::frame::FrameBudget>,
    /// How many times the run has looked at the stop flag: its work so far is about this many
    /// `STOP_CHECK_INTERVAL`s (the frame's time limit counts only past some work).
    pub polls: std::cell::Cell<u64>,
}

/// Makes an [`Accelerator`] for each machine that runs a program (one per thread).
pub trait MakeAccelerator: Send + Sync {
    fn make(&self) -> Option<Box<dyn Accelerator>>;
}
