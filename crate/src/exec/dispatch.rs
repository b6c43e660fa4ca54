//! The dispatch loop: the machine's runs (plain, with resources, traced, probed, or through a
//! compiled form), each decoded instruction in turn over the whole batch, the budget and the
//! frame's stop flag checked as it goes (docs/interpreter.md, "Execution model").

use super::accel::AccelEnv;
use super::flow::Next;
use super::frame::{ACCELERATED_WORK_CAP, STOP_CHECK_INTERVAL};
use super::io::{helper_bits, Batch, Constants, NoTextures, TextureHooks};
use super::machine::{ExecError, Machine, RunStats};
use super::memory::Resources;
use super::ops::{execute, Ctx};
use super::probe::Probe;
use super::program::{Inst, Program};
use super::regs::{Io, Res};
use super::trace::{Trace, TraceStep};
use crate::diag::Diagnostic;

impl Machine {
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
        trace.helpers = batch.coverage.get(quad).map_or(0, |&c| helper_bits(c));
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
        trace.helpers = batch.coverage.get(quad).map_or(0, |&c| helper_bits(c));
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
            Next::NotFlow => {}
            Next::Goto(n) => return Ok(Some(n)),
            Next::End => return Ok(None),
        }
        // A whole batch with no active lane writes nothing: skip the work.
        if !self.any_active {
            return Ok(Some(pc + 1));
        }
        let nq = self.nq;
        if inst.fused && self.all_active {
            if let Some(r0) = inst.dst[0].row(0) {
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
                    let ctx = Ctx {
                        batch,
                        hooks,
                        helper: &self.helper,
                        kill: &self.kill,
                        mem,
                        clock: self.clock,
                        program,
                    };
                    execute(inst, &mut io, &mut res, ctx)?;
                    return Ok(Some(pc + 1));
                }
            }
        }
        // Lane-wise ops run only over the runs of quads that still have active lanes (a loop
        // keeps going for its slowest quad; the finished ones cost nothing). Ops that look at
        // whole quads, the batch or the texture hooks always see every quad.
        if inst.lane_wise() {
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
            let ctx = Ctx {
                batch,
                hooks,
                helper: &self.helper,
                kill: &self.kill,
                mem,
                clock: self.clock,
                program,
            };
            execute(inst, &mut io, &mut res, ctx)?
        };
        self.write_results_for(inst, shape, quads);
        Ok(())
    }
}
