//! The machine: register storage for a batch of quads, execution masks and their stacks
//! (tgsi_exec.c `UPDATE_EXEC_MASK`), the instruction budget, and storing an instruction's
//! results. Its other methods live beside what they do: the dispatch loop (`dispatch.rs`),
//! control flow (`flow.rs`), the active runs (`runs.rs`), set-up between runs (`setup.rs`), the
//! fast kernels (`fast.rs`), in-place rows (`direct.rs`); they use this file, never the reverse.

use super::accel::Accelerator;
use super::frame::FrameBudget;
use super::lanes::{blend, Lanes};
use super::program::{Dst, Inst, Store};
use super::regs::Shape;
use crate::diag::Diagnostic;
use crate::ir::Span;
use crate::opcode::ValType;

/// Default work one run may do, in quad-instructions (`work.rs`): the most any caller may ask
/// for, so that what bounds a run is its frame's budget (`limits::default_frame_budget`, given
/// by whoever starts the frame), never a per-run default that would stop it sooner.
pub const DEFAULT_BUDGET: u64 = crate::limits::MAX_BUDGET;
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

impl RunStats {
    /// Counts `other`'s run in with this one (several runs reported as one: a compute grid's
    /// blocks, a geometry stage's batches).
    pub fn add(&mut self, other: RunStats) {
        self.instructions += other.instructions;
        self.work += other.work;
        self.quads += other.quads;
    }
}

/// One saved subroutine call: where to return and the stack heights to unwind to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) ret: usize,
    pub(super) cond: usize,
    pub(super) loops: usize,
    pub(super) switches: usize,
    pub(super) saved: usize,
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
    /// What the IMM rows hold, each value broadcast to every quad: the batch size and the
    /// immediates of the last set-up that filled them. A run never writes an IMM row (TGSI has
    /// no immediate destination), so a set-up of a program with the same immediates and batch
    /// size finds them still there: `regs` kept its length (it is reallocated, and this cleared,
    /// whenever rows × quads changes), so the program has as many rows, and IMM, the last
    /// region, starts where it did. Refilling them was 16 KB a 256-quad batch for each IMM
    /// (docs/perf-log.md). `None` also after a compiled run (`setup_accelerated`), which may
    /// write into `regs`.
    pub(super) imm_filled: Option<(usize, Vec<[u32; 4]>)>,
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
            imm_filled: None,
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

    /// Stores an instruction's results (the result buffers, as `shape` says) into its
    /// destinations, in the active lanes of every quad.
    pub(crate) fn write_results(&mut self, inst: &Inst, shape: Shape) {
        self.write_results_for(inst, shape, 0..self.nq);
    }

    /// Stores results computed for quads `quads` only (result rows hold `quads.len()` quads).
    pub(super) fn write_results_for(
        &mut self,
        inst: &Inst,
        shape: Shape,
        quads: std::ops::Range<usize>,
    ) {
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
            if let Some(row) = d.row(c) {
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
