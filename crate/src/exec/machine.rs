//! The machine: register storage for a batch of quads, execution masks and their stacks
//! (tgsi_exec.c `UPDATE_EXEC_MASK`), the instruction budget, and the dispatch loop.

pub use super::accel::{AccelEnv, Accelerator, MakeAccelerator};
pub use super::frame::{
    FrameBudget, Stop, ACCELERATED_WORK_CAP, STOP_CHECK_INTERVAL, TIME_LIMIT_MIN_WORK,
};
use super::io::{Batch, Constants, NoTextures, TextureHooks};
use super::lanes::{blend, Lanes};
use super::memory::Resources;
use super::probe::Probe;
use super::program::{Dst, Inst, Program, Store};
pub use super::regs::Io;
use super::trace::{Trace, TraceStep};
use crate::diag::Diagnostic;
use crate::ir::Span;
use crate::opcode::ValType;

/// Default work one run may do, in quad-instructions (`work.rs`): the most any caller may ask
/// for, so that what bounds a run is its frame's budget (`limits::default_frame_budget`, given
/// by whoever starts the frame), never a per-run default that would stop it sooner.
pub const DEFAULT_BUDGET: u64 = crate::limits::MAX_BUDGET;
/// Deepest CAL nesting (tgsi_exec: 32).
pub const MAX_CALL_DEPTH: usize = 32;
/// Scratch buffers per instruction (sources × channels plus temporaries). A source read with
/// denormals as zero takes two; the flushed instructions have at most 3 sources (24 buffers).
pub(super) const SCRATCH: usize = 32;

/// Why a run stopped early.
#[derive(Clone, Debug, PartialEq)]
pub struct ExecError {
    pub diagnostic: Diagnostic,
    /// Index of the IR instruction where execution stopped.
    pub instruction: u32,
    pub span: Span,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Decoded instructions dispatched (each over the whole batch): the dispatch clock (0 for a
    /// run through an [`Accelerator`], which runs each quad with its own flow).
    pub instructions: u64,
    /// Work charged to the budget: quad-instructions (`work.rs`), independent of the batch size.
    pub work: u64,
    /// Quads in the batch.
    pub quads: u64,
}

/// One saved subroutine call: where to return and the stack heights to unwind to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    ret: usize,
    cond: usize,
    loops: usize,
    switches: usize,
    saved: usize,
}

/// The interpreter state. Reuse one machine for many runs: buffers are kept between them.
pub struct Machine {
    /// The compiled program this machine's untraced runs use, if any (`jit/`).
    pub accel: Option<Box<dyn Accelerator>>,
    /// Work (quad-instructions, `work.rs`) one run may do before it stops with `X005`.
    pub budget: u64,
    /// The frame this machine's runs belong to, if any: a run may then do at most the work
    /// the frame has left.
    pub frame: Option<FrameBudget>,
    pub(crate) nq: usize,
    pub(crate) regs: Vec<Lanes>,
    pub(crate) scratch: Vec<Lanes>,
    pub(crate) result: Vec<Lanes>,
    /// Legacy PUSHA/POPA address stack: 4 channels × nq per entry.
    pub(crate) addr_stack: Vec<Lanes>,
    /// Element ranges of `regs` the last run may have left non-zero (its destinations, inputs,
    /// system values, immediates and constants); every other element is still zero.
    pub(super) dirty: Vec<(usize, usize)>,
    /// Scratch: per storage row, whether the current program writes it before reading it.
    pub(super) prewritten_rows: Vec<bool>,
    /// The batch size for which the masks (exec, cond, loop, cont, func, switch) are all ones
    /// and were left so by the last run (a program that never changes them).
    pub(super) masks_ready: Option<usize>,
    pub(crate) exec: Vec<Lanes>,
    pub(crate) cond: Vec<Lanes>,
    pub(crate) loop_mask: Vec<Lanes>,
    pub(crate) cont: Vec<Lanes>,
    pub(crate) func: Vec<Lanes>,
    /// Current switch: mask, selector, parent mask, default lanes (4 × nq).
    pub(crate) switch: Vec<Lanes>,
    pub(crate) cond_stack: Vec<Lanes>,
    pub(crate) loop_stack: Vec<Lanes>,
    pub(crate) switch_stack: Vec<Lanes>,
    pub(super) call_stack: Vec<Frame>,
    pub(super) call_saved: Vec<Lanes>,
    pub(crate) kill: Vec<Lanes>,
    pub(crate) helper: Vec<Lanes>,
    /// Reused mask buffers for control-flow conditions.
    pub(crate) flow_pool: Vec<Vec<Lanes>>,
    /// Decoded instructions dispatched so far in this run (also CLOCK's time base).
    pub(crate) clock: u64,
    /// Work charged so far in this run: quad-instructions (`work.rs`), what the budget counts.
    pub(crate) work: u64,
    /// Quads with an active lane (a non-zero exec mask): what an instruction is charged. Kept
    /// current wherever exec changes (`update_exec`, `cond_break`).
    pub(crate) live: u64,
    pub(crate) any_active: bool,
    /// Every lane of every quad is active (stores become plain copies).
    pub(crate) all_active: bool,
    /// Set by an IF that no active lane enters and jumps to its ENDIF: the masks are unchanged,
    /// so that ENDIF skips recomputing them.
    pub(crate) masks_unchanged: bool,
    /// A CONT has run in this run (until then every Cont mask is all ones).
    pub(crate) cont_used: bool,
    /// First quad with an active lane and one past the last.
    pub(crate) active: (usize, usize),
    /// The runs of quads (start, end) that lane-wise ops run over: every quad with an active
    /// lane is in one (the finished quads of a loop cost nothing).
    pub(crate) runs: Vec<(usize, usize)>,
    /// The previous run list while `refine_runs` builds the next (kept for its allocation).
    pub(crate) spare_runs: Vec<(usize, usize)>,
    /// The last run was compiled and left its OUT rows in the compiled form's memory
    /// (`Accelerator::kept_outputs`, read by `output_rows`).
    pub(super) outputs_kept: bool,
    /// The caller's inputs for in-place batches of this many quads are in the compiled form's
    /// rows (`input_rows`), not the machine's.
    pub(super) inputs_placed: Option<usize>,
}

impl Default for Machine {
    fn default() -> Self {
        Machine::new()
    }
}

/// The shape of an ALU result in the result buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `res[c]` holds channel c (only the enabled ones are needed).
    PerChannel,
    /// `res[0]` holds the value for every channel.
    Replicated,
    /// The op wrote nothing through the normal path.
    Nothing,
}

/// Result buffers: 4 channels of dst 0, then 4 of dst 1.
pub type Res<'r> = [&'r mut [Lanes]; 8];

/// How `_SAT` applies to a store (tgsi_exec.c `store_dest`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sat {
    None,
    Float,
    Double,
}

impl Machine {
    pub fn new() -> Machine {
        Machine {
            accel: None,
            budget: DEFAULT_BUDGET,
            frame: None,
            nq: 0,
            regs: Vec::new(),
            scratch: Vec::new(),
            result: Vec::new(),
            addr_stack: Vec::new(),
            dirty: Vec::new(),
            prewritten_rows: Vec::new(),
            masks_ready: None,
            exec: Vec::new(),
            cond: Vec::new(),
            loop_mask: Vec::new(),
            cont: Vec::new(),
            func: Vec::new(),
            switch: Vec::new(),
            cond_stack: Vec::new(),
            loop_stack: Vec::new(),
            switch_stack: Vec::new(),
            call_stack: Vec::new(),
            call_saved: Vec::new(),
            kill: Vec::new(),
            helper: Vec::new(),
            flow_pool: Vec::new(),
            clock: 0,
            work: 0,
            live: 0,
            any_active: true,
            all_active: true,
            masks_unchanged: false,
            cont_used: false,
            active: (0, 0),
            runs: Vec::new(),
            spare_runs: Vec::new(),
            outputs_kept: false,
            inputs_placed: None,
        }
    }

    /// A machine with a custom budget (quad-instructions).
    pub fn with_budget(budget: u64) -> Machine {
        Machine { budget, ..Machine::new() }
    }

    /// A machine whose runs draw from `frame` (and each at most `budget`).
    pub fn in_frame(budget: u64, frame: &FrameBudget) -> Machine {
        Machine { budget, frame: Some(frame.clone()), ..Machine::new() }
    }

    /// Runs `program` over every quad of `batch` with no textures bound.
    pub fn run(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
    ) -> Result<RunStats, ExecError> {
        self.run_with(program, batch, consts, &mut NoTextures)
    }

    /// Runs with texture hooks.
    pub fn run_with(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
    ) -> Result<RunStats, ExecError> {
        if let Some(r) = self.run_accelerated(program, batch, consts, hooks) {
            return r;
        }
        let mut none = Trace::default();
        let mut res = Resources::default();
        self.run_inner::<false, false>(program, batch, consts, hooks, &mut res, &mut none, None)
    }

    /// Runs through the accelerator, if there is one and it finishes the batch.
    fn run_accelerated(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
    ) -> Option<Result<RunStats, ExecError>> {
        // Builds without the `jit` feature (the widget's lean engine) have no compiled form to
        // run: leaving the rest out keeps it out of their binary.
        if !cfg!(feature = "jit")
            || batch.quads() == 0
            || self.frame.as_ref().is_some_and(|f| f.stopped().is_some())
        {
            return None;
        }
        let mut accel = self.accel.take()?;
        self.setup_accelerated(program, batch, consts);
        let limit = self.frame.as_ref().map_or(self.budget, |f| self.budget.min(f.left()));
        let limit = limit.min(ACCELERATED_WORK_CAP);
        let inputs_placed = batch.in_place && self.inputs_placed == Some(self.nq);
        let frame = self.frame.as_ref();
        let polls = std::cell::Cell::new(0);
        let mut env = AccelEnv { program, batch, consts, hooks, inputs_placed, frame, polls };
        let work = accel.run(&mut self.regs, &mut self.kill, self.nq, limit, &mut env);
        self.outputs_kept = work.is_some() && accel.kept_outputs().is_some();
        self.accel = Some(accel);
        self.work = work?;
        // The compiled form runs each quad with its own flow: it has no batch-wide dispatches.
        self.clock = 0;
        self.finish(program, batch);
        Some(Ok(RunStats { instructions: 0, work: self.work, quads: self.nq as u64 }))
    }

    /// Runs with texture hooks and the buffers, images and memory that LOAD, STORE, the
    /// atomics, FBFETCH and EMIT use (`docs/resources.md`).
    pub fn run_with_resources(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
        resources: &mut Resources,
    ) -> Result<RunStats, ExecError> {
        // A compiled program touches no resource (memory opcodes are not compiled).
        if let Some(r) = self.run_accelerated(program, batch, consts, hooks) {
            return r;
        }
        let mut none = Trace::default();
        self.run_inner::<false, false>(program, batch, consts, hooks, resources, &mut none, None)
    }

    /// Runs and records, for quad `quad` of the batch, every executed instruction with the lanes
    /// it wrote and the masks (the debugger's view). Costs nothing when not used: the untraced
    /// loop is a separate instantiation.
    pub fn run_traced(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
        quad: usize,
    ) -> (Trace, Result<RunStats, ExecError>) {
        let mut trace = Trace::new(quad);
        trace.helpers = batch.coverage.get(quad).map_or(0, |&c| super::io::helper_bits(c));
        hooks.watch_quad(Some(quad));
        let r = self.run_inner::<true, false>(
            program,
            batch,
            consts,
            hooks,
            &mut Resources::default(),
            &mut trace,
            None,
        );
        hooks.watch_quad(None);
        (trace, r)
    }

    /// [`Self::run_traced`] with the buffers, images and memory of a compute dispatch
    /// ([`super::compute::dispatch_traced`]).
    pub fn run_traced_with_resources(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
        resources: &mut Resources,
        quad: usize,
    ) -> (Trace, Result<RunStats, ExecError>) {
        let mut trace = Trace::new(quad);
        trace.helpers = batch.coverage.get(quad).map_or(0, |&c| super::io::helper_bits(c));
        let r = self
            .run_inner::<true, false>(program, batch, consts, hooks, resources, &mut trace, None);
        (trace, r)
    }

    /// Runs and fills `probe` for every quad of the batch: instructions run per lane and the
    /// watched value after the watched instruction (the heat map and the image at
    /// instruction N). The plain loop is a separate instantiation.
    pub fn run_probed(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
        probe: &mut Probe,
    ) -> Result<RunStats, ExecError> {
        let mut none = Trace::default();
        probe.start(batch.quads());
        let mut res = Resources::default();
        self.run_inner::<false, true>(
            program,
            batch,
            consts,
            hooks,
            &mut res,
            &mut none,
            Some(probe),
        )
    }

    /// ExecMask = Cond & Loop & Cont & Switch & Func (tgsi_exec's UPDATE_EXEC_MASK).
    pub(crate) fn update_exec(&mut self) {
        let mut any = wide::u32x4::splat(0);
        let mut all = wide::u32x4::splat(u32::MAX);
        // Zipped slices and whole-vector ANDs: no bounds checks, one SIMD op per mask.
        let (c, l, k, f) = (&self.cond, &self.loop_mask, &self.cont, &self.func);
        let s = &self.switch;
        let u = |x: &Lanes| wide::u32x4::from(x.0);
        let mut live = 0u64;
        for (((((m, c), l), k), f), s) in self.exec.iter_mut().zip(c).zip(l).zip(k).zip(f).zip(s) {
            let v = u(c) & u(l) & u(k) & u(f) & u(s);
            *m = Lanes(v.to_array());
            live += super::work::quad_active(m) as u64;
            any |= v;
            all &= v;
        }
        self.live = live;
        let (any, all) = (Lanes(any.to_array()), Lanes(all.to_array()));
        self.any_active = any != Lanes::ZERO;
        self.all_active = all == Lanes::ONES;
        if self.all_active {
            self.runs.clear();
            self.active = (0, self.nq);
            self.runs.push((0, self.nq));
            return;
        }
        self.find_runs(0..self.nq);
    }

    #[allow(clippy::too_many_arguments)]
    fn run_inner<const TRACE: bool, const PROBE: bool>(
        &mut self,
        program: &Program,
        batch: &mut Batch,
        consts: &Constants,
        hooks: &mut dyn TextureHooks,
        mem: &mut Resources,
        trace: &mut Trace,
        mut probe: Option<&mut Probe>,
    ) -> Result<RunStats, ExecError> {
        // Watching modes show registers before their first write: clear them all.
        self.setup(program, batch, consts, TRACE || PROBE);
        // The work this run may do: its own budget, and no more than its frame has left.
        let limit = self.frame.as_ref().map_or(self.budget, |f| self.budget.min(f.left()));
        // A frame that may be stopped from outside is looked at before the first instruction
        // and then every STOP_CHECK_INTERVAL of work: `until` is the next look (or the budget),
        // so the hot loop still makes one comparison per instruction.
        let watched = self.frame.is_some();
        let mut until = if watched { 0 } else { limit };
        let mut pc = 0usize;
        let code = &program.code;
        while let Some(inst) = code.get(pc) {
            self.clock += 1;
            // A fused IF/BRK/ENDIF advances the clock and is charged as its three instructions
            // would be (`cond_break`). Near the budget it runs unfused, so that it stops where
            // they would: its IF and BRK checks see at most 2 x live more work.
            if !TRACE && !PROBE && inst.cond_break && self.work + 2 * self.live <= until {
                let left = self.cond_break(inst, consts);
                self.clock += if left { 2 } else { 1 };
                pc += 3;
                continue;
            }
            // Work (`work.rs`): most instructions are charged the quads active as they start,
            // before the check; a closer is charged after it ran, seen by the next check.
            if !inst.charged_at_end {
                self.work += self.live * inst.weight;
            }
            if self.work > until {
                let stop = self.frame.as_ref().and_then(|f| f.stopped_after(self.work));
                if stop.is_none() && self.work <= limit {
                    until = limit.min(self.work.saturating_add(STOP_CHECK_INTERVAL));
                } else {
                    let d = match stop {
                        Some(why) => why.diagnostic(inst.op.name(), inst.span),
                        None => Diagnostic::error(
                            "X005",
                            format!(
                                "stopped after {} instructions of work (counted per quad; the budget) at {}: the shader may loop forever",
                                limit,
                                inst.op.name()
                            ),
                            inst.span,
                        ),
                    };
                    self.zero_unwritten(program, pc);
                    self.finish(program, batch);
                    return Err(ExecError {
                        diagnostic: d,
                        instruction: inst.ir_index,
                        span: inst.span,
                    });
                }
            }
            let before =
                if TRACE { TraceStep::begin(self, inst, pc, trace.quad, consts) } else { None };
            if PROBE {
                if let Some(p) = probe.as_deref_mut() {
                    p.before(pc, &self.exec);
                }
            }
            let next = match self.step(program, inst, pc, consts, batch, hooks, mem) {
                Ok(n) => n,
                Err(d) => {
                    self.zero_unwritten(program, pc);
                    self.finish(program, batch);
                    return Err(ExecError {
                        diagnostic: d,
                        instruction: inst.ir_index,
                        span: inst.span,
                    });
                }
            };
            if inst.charged_at_end {
                self.work += self.live * inst.weight;
            }
            if PROBE {
                if let Some(p) = probe.as_deref_mut() {
                    p.after(pc, &self.regs, self.nq);
                }
            }
            if TRACE {
                if let Some(step) = before {
                    let mut step = step.end(self, inst);
                    step.sample = hooks.watched_sample();
                    trace.push(step);
                }
            }
            match next {
                Some(n) => pc = n,
                None => break,
            }
        }
        self.finish(program, batch);
        Ok(RunStats { instructions: self.clock, work: self.work, quads: self.nq as u64 })
    }

    /// Executes one instruction; returns the next pc, or None at END.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        program: &Program,
        inst: &Inst,
        pc: usize,
        consts: &Constants,
        batch: &Batch,
        hooks: &mut dyn TextureHooks,
        mem: &mut Resources,
    ) -> Result<Option<usize>, Diagnostic> {
        if let Some(k) = &inst.kernel {
            if self.any_active {
                self.run_kernel(k);
            }
            return Ok(Some(pc + 1));
        }
        match self.flow(program, inst, pc, consts)? {
            super::flow::Next::NotFlow => {}
            super::flow::Next::Goto(n) => return Ok(Some(n)),
            super::flow::Next::End => return Ok(None),
        }
        // A whole batch with no active lane writes nothing: skip the work.
        if !self.any_active {
            return Ok(Some(pc + 1));
        }
        let nq = self.nq;
        if inst.fused && self.all_active {
            if let Some(r0) = Machine::dst_row(&inst.dst[0], 0) {
                if self.regs.len() >= (r0 + 4) * nq {
                    // Compute straight into the destination register: no result copy.
                    let (lo, rest) = self.regs.split_at_mut(r0 * nq);
                    let (dst, hi) = rest.split_at_mut(4 * nq);
                    let mut dst_rows = dst.chunks_exact_mut(nq.max(1));
                    let mut spare = self.result.chunks_exact_mut(nq.max(1)).skip(4);
                    let mut res: Res = std::array::from_fn(|i| {
                        if i < 4 {
                            dst_rows.next().unwrap_or_default()
                        } else {
                            spare.next().unwrap_or_default()
                        }
                    });
                    let mut io = Io::with_hole(
                        lo,
                        hi,
                        (r0, r0 + 4),
                        consts,
                        &self.exec,
                        nq,
                        &mut self.scratch,
                    );
                    let ctx = super::ops::Ctx {
                        batch,
                        hooks,
                        helper: &self.helper,
                        kill: &self.kill,
                        mem,
                        clock: self.clock,
                        program,
                    };
                    super::ops::execute(inst, &mut io, &mut res, ctx)?;
                    return Ok(Some(pc + 1));
                }
            }
        }
        // Lane-wise ops run only over the runs of quads that still have active lanes (a loop
        // keeps going for its slowest quad; the finished ones cost nothing). Ops that look at
        // whole quads, the batch or the texture hooks always see every quad.
        if lane_wise(inst) {
            for i in 0..self.runs.len() {
                let Some(&(a, b)) = self.runs.get(i) else { break };
                self.run_alu(program, inst, consts, batch, hooks, mem, a..b)?;
            }
        } else {
            self.run_alu(program, inst, consts, batch, hooks, mem, 0..nq)?;
        }
        Ok(Some(pc + 1))
    }

    /// Runs a non-flow instruction over quads `quads` and stores its results there.
    #[allow(clippy::too_many_arguments)]
    fn run_alu(
        &mut self,
        program: &Program,
        inst: &Inst,
        consts: &Constants,
        batch: &Batch,
        hooks: &mut dyn TextureHooks,
        mem: &mut Resources,
        quads: std::ops::Range<usize>,
    ) -> Result<(), Diagnostic> {
        let nq = self.nq;
        let n = quads.len();
        let shape = {
            let mut res_chunks = self.result.chunks_exact_mut(n.max(1));
            let mut res: Res = std::array::from_fn(|_| res_chunks.next().unwrap_or_default());
            let exec = self.exec.get(quads.clone()).unwrap_or_default();
            let mut io = Io::quads(&self.regs, consts, exec, nq, quads.clone(), &mut self.scratch);
            let ctx = super::ops::Ctx {
                batch,
                hooks,
                helper: &self.helper,
                kill: &self.kill,
                mem,
                clock: self.clock,
                program,
            };
            super::ops::execute(inst, &mut io, &mut res, ctx)?
        };
        self.write_results_for(inst, shape, quads);
        Ok(())
    }

    pub(crate) fn write_results(&mut self, inst: &Inst, shape: Shape) {
        self.write_results_for(inst, shape, 0..self.nq);
    }

    /// Stores results computed for quads `quads` only (result rows hold `quads.len()` quads).
    fn write_results_for(&mut self, inst: &Inst, shape: Shape, quads: std::ops::Range<usize>) {
        if shape == Shape::Nothing {
            return;
        }
        let n = quads.len();
        let info = inst.op.info();
        let sat = if !inst.saturate {
            Sat::None
        } else if info.dst_type == ValType::Double {
            Sat::Double
        } else if matches!(info.dst_type, ValType::Float | ValType::Untyped) {
            Sat::Float
        } else {
            Sat::None
        };
        if inst.ftz {
            // Flush to zero before saturation (`program::Denormals`).
            let rows = 4 * (inst.num_dst as usize).min(2);
            if let Some(r) = self.result.get_mut(..rows * n) {
                for l in r.iter_mut() {
                    *l = Lanes(l.0.map(super::program::flush_denormal));
                }
            }
        }
        for k in 0..(inst.num_dst as usize).min(2) {
            let d = inst.dst[k];
            if sat == Sat::Double {
                self.saturate_doubles(k, d.mask, n);
            }
            for c in 0..4 {
                if d.mask & (1 << c) == 0 {
                    continue;
                }
                let slot = if shape == Shape::Replicated { k * 4 } else { k * 4 + c };
                let (lo, hi) = (slot * n, slot * n + n);
                if sat == Sat::Float {
                    if let Some(r) = self.result.get_mut(lo..hi) {
                        for l in r.iter_mut() {
                            for v in l.0.iter_mut() {
                                *v = saturate(f32::from_bits(*v)).to_bits();
                            }
                        }
                    }
                }
                let val = self.result.get(lo..hi).unwrap_or_default();
                let exec = self.exec.get(quads.clone()).unwrap_or_default();
                let whole = self.all_active && n == self.nq;
                store(&mut self.regs, self.nq, quads.start, &d, c, val, exec, whole);
            }
        }
    }

    fn saturate_doubles(&mut self, k: usize, mask: u8, nq: usize) {
        for pair in 0..2 {
            if mask & (3 << (pair * 2)) == 0 {
                continue;
            }
            let (lo_row, hi_row) = (k * 4 + pair * 2, k * 4 + pair * 2 + 1);
            for q in 0..nq {
                let (a, b) = (self.result[lo_row * nq + q], self.result[hi_row * nq + q]);
                let mut na = a;
                let mut nb = b;
                for l in 0..4 {
                    let d = f64::from_bits(a.0[l] as u64 | (b.0[l] as u64) << 32);
                    let s = if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) };
                    let bits = s.to_bits();
                    na.0[l] = bits as u32;
                    nb.0[l] = (bits >> 32) as u32;
                }
                self.result[lo_row * nq + q] = na;
                self.result[hi_row * nq + q] = nb;
            }
        }
    }

    /// Storage row of a destination channel for direct destinations.
    pub(crate) fn dst_row(d: &Dst, c: usize) -> Option<usize> {
        match (d.store, d.indirect) {
            (Store::Rows { base, count }, None)
                if d.index >= 0 && (d.index as u64) < count as u64 =>
            {
                Some(base as usize + d.index as usize * 4 + c)
            }
            _ => None,
        }
    }

    /// Pushes a call frame (CAL).
    pub(crate) fn call(&mut self, ret: usize) -> Result<(), Diagnostic> {
        if self.call_stack.len() >= MAX_CALL_DEPTH {
            return Err(Diagnostic::error(
                "X006",
                format!("subroutine calls nested deeper than {}", MAX_CALL_DEPTH),
                Span::default(),
            ));
        }
        let saved = self.call_saved.len();
        for v in [&self.cond, &self.loop_mask, &self.cont, &self.func] {
            self.call_saved.extend_from_slice(v);
        }
        self.call_saved.extend_from_slice(&self.switch);
        self.call_stack.push(Frame {
            ret,
            cond: self.cond_stack.len(),
            loops: self.loop_stack.len(),
            switches: self.switch_stack.len(),
            saved,
        });
        Ok(())
    }

    /// Pops a call frame, restoring masks and unwinding stacks; returns the return pc, or None
    /// when not inside a call.
    pub(crate) fn ret(&mut self) -> Option<usize> {
        let f = self.call_stack.pop()?;
        let nq = self.nq;
        self.cond_stack.truncate(f.cond);
        self.loop_stack.truncate(f.loops);
        self.switch_stack.truncate(f.switches);
        let s = f.saved;
        let saved = &self.call_saved;
        for (k, v) in [&mut self.cond, &mut self.loop_mask, &mut self.cont, &mut self.func]
            .into_iter()
            .enumerate()
        {
            if let Some(src) = saved.get(s + k * nq..s + k * nq + nq) {
                v.copy_from_slice(src);
            }
        }
        if let Some(src) = saved.get(s + 4 * nq..s + 8 * nq) {
            self.switch.copy_from_slice(src);
        }
        self.call_saved.truncate(s);
        self.update_exec();
        Some(f.ret)
    }
}

/// Whether an instruction computes each lane from the same lane's operands only, so that it may
/// run over a sub-span of the batch: the table's family says (`Family::is_lane_wise`).
#[inline]
pub(super) fn lane_wise(inst: &Inst) -> bool {
    inst.op.info().family.is_lane_wise()
}

/// `fminf(fmaxf(x, 0), 1)` as glibc computes it (tgsi_exec.c `store_dest`): NaN → 0, and
/// −0 → +0 (glibc's fmaxf returns its second operand when both are zero).
#[inline]
pub fn saturate(x: f32) -> f32 {
    if x > 0.0 {
        if x < 1.0 {
            x
        } else {
            1.0
        }
    } else {
        0.0
    }
}

/// Writes channel `c` of `val` to a destination in the active lanes. Indirect destinations use
/// each lane's own address (tgsi_exec uses lane 0's for all lanes: a bug we do not copy).
/// Out-of-range writes are dropped.
#[allow(clippy::too_many_arguments)]
fn store(
    regs: &mut [Lanes],
    nq: usize,
    first: usize,
    d: &Dst,
    c: usize,
    val: &[Lanes],
    exec: &[Lanes],
    all_active: bool,
) {
    let Store::Rows { base, count } = d.store else { return };
    let n = val.len();
    match d.indirect {
        None => {
            if let Some(row) = Machine::dst_row(d, c) {
                let s = row * nq + first;
                if let Some(dst) = regs.get_mut(s..s + n) {
                    if all_active {
                        dst.copy_from_slice(val);
                    } else {
                        blend(dst, val, exec);
                    }
                }
            }
        }
        Some(a) => {
            for (i, (v, m)) in val.iter().zip(exec).enumerate() {
                let q = first + i;
                let addr = regs.get(a.0 as usize * nq + q).copied().unwrap_or_default();
                for l in 0..4 {
                    if m.0[l] == 0 {
                        continue;
                    }
                    let idx = d.index.saturating_add(addr.0[l] as i32 as i64);
                    if idx >= 0 && idx < count as i64 {
                        let r = (base as usize + idx as usize * 4 + c) * nq + q;
                        if let Some(slot) = regs.get_mut(r) {
                            slot.0[l] = v.0[l];
                        }
                    }
                }
            }
        }
    }
}
