//! Between runs: preparing the machine's storage and masks for a batch (`setup`) and handing the
//! results back (`finish`). Registers start at zero for every run (`docs/interpreter.md` "Registers
//! between runs"), but the storage is kept from batch to batch, so only what the previous run may
//! have changed is cleared (see `prewrite.rs` and docs/interpreter.md, "Registers between runs").

use super::io::{helper_bits, Batch, Constants};
use super::lanes::Lanes;
use super::machine::{Machine, SCRATCH};
use super::program::Program;
use crate::ir::SemanticName;

impl Machine {
    pub(super) fn setup(
        &mut self,
        program: &Program,
        batch: &Batch,
        consts: &Constants,
        trace: bool,
    ) {
        let nq = batch.quads();
        self.nq = nq;
        self.outputs_kept = false;
        let rows = program.layout.rows as usize;
        let l = program.layout;
        // Inputs copied in full below need no clearing first.
        let n_in = l.input.1 as usize * 4 * nq;
        let n_in = if batch.in_place { n_in } else { n_in.min(batch.inputs.len()) };
        let in_rows = l.input.0 as usize * nq..l.input.0 as usize * nq + n_in;
        if self.regs.len() != rows * nq {
            self.regs.clear();
            self.regs.resize(rows * nq, Lanes::ZERO);
            self.imm_filled = None;
        } else {
            // Same size as the last run: clear only what that run may have changed (clearing
            // every TEMP/OUT/IN row was 12 % of a straight-line shader's frame).
            // Rows from IMM on hold the immediates: refilled below when they may not.
            // Rows this program writes for every lane before reading them are not cleared
            // either (not when tracing: the trace shows the values an instruction replaces).
            let skip = &mut self.prewritten_rows;
            skip.clear();
            skip.resize(rows, false);
            if !trace {
                for &(row, _) in &program.prewritten {
                    if let Some(s) = skip.get_mut(row as usize) {
                        *s = true;
                    }
                }
            }
            let refilled = l.imm.0 as usize * nq;
            for &(a, b) in &self.dirty {
                let b = b.min(refilled);
                for (a, b) in [(a, b.min(in_rows.start)), (a.max(in_rows.end), b)] {
                    let mut start = a;
                    while start < b {
                        // One row (or the part of one in the range) at a time.
                        let end = ((start / nq.max(1)) + 1) * nq.max(1);
                        let end = end.min(b);
                        let keep = skip.get(start / nq.max(1)).copied().unwrap_or(false);
                        if let (false, Some(sl)) = (keep, self.regs.get_mut(start..end)) {
                            // Flat: one memset instead of a 16-byte store per quad.
                            super::lanes::flat_mut(sl).fill(0);
                        }
                        start = end;
                    }
                }
            }
        }
        if batch.in_place {
            self.take_placed_inputs(program, nq);
        }
        self.mark_dirty(program);
        self.scratch.resize(SCRATCH * nq, Lanes::ZERO);
        self.result.resize(8 * nq, Lanes::ZERO);
        // A program that never changes the masks leaves them all ones: no refill (36 KB per
        // 256-quad batch) when the last run was such a program with the same batch size.
        if self.masks_ready != Some(nq) {
            for v in [
                &mut self.exec,
                &mut self.cond,
                &mut self.loop_mask,
                &mut self.cont,
                &mut self.func,
            ] {
                v.clear();
                v.resize(nq, Lanes::ONES);
            }
            self.switch.clear();
            self.switch.resize(4 * nq, Lanes::ONES);
        }
        self.masks_ready = if program.touches_masks { None } else { Some(nq) };
        self.cond_stack.clear();
        self.loop_stack.clear();
        self.switch_stack.clear();
        self.call_stack.clear();
        self.call_saved.clear();
        self.addr_stack.clear();
        let depth = program.max_depth as usize + 1;
        self.cond_stack.reserve(depth * nq);
        self.loop_stack.reserve(2 * depth * nq);
        self.switch_stack.reserve(4 * depth * nq);
        // Only KILL, KILL_IF, KIL, KILP and DEMOTE write the kill mask: without them it stays
        // empty, which its readers (memory stores, traces, `finish`) take as none killed, as
        // after `setup_accelerated`.
        self.kill.clear();
        if program.can_kill {
            self.kill.resize(nq, Lanes::ZERO);
        }
        self.helper.clear();
        self.helper.extend(batch.coverage.iter().map(|&c| Lanes::from_bits4(helper_bits(c))));
        self.helper.resize(nq, Lanes::ZERO);
        self.clock = 0;
        self.work = 0;
        self.live = nq as u64;
        self.any_active = true;
        self.all_active = true;
        self.masks_unchanged = false;
        self.cont_used = false;
        self.active = (0, nq);
        self.runs.clear();
        self.runs.push((0, nq));

        // Direct constants and immediates are broadcast once so operands read them in place.
        for (slot, cs) in program.const_slots.iter().enumerate() {
            for c in 0..4 {
                let v = consts.get(cs.buffer as i64, cs.index as i64, c);
                self.fill_row(l.consts.0 as usize + slot * 4 + c, Lanes::splat(v));
            }
        }
        let filled = matches!(&self.imm_filled,
            Some((quads, values)) if *quads == nq && values[..] == program.immediates[..]);
        if !filled {
            for (i, imm) in program.immediates.iter().enumerate() {
                for (c, &bits) in imm.iter().enumerate() {
                    self.fill_row(l.imm.0 as usize + i * 4 + c, Lanes::splat(bits));
                }
            }
            self.imm_filled = Some((nq, program.immediates.clone()));
        }
        self.fill_inputs(program, batch);
    }

    /// The part of `setup` a compiled run needs (`Accelerator`, `jit/`): it reads the IN and SV
    /// rows and quad 0 of each cached-constant row, keeps its registers, masks and immediates
    /// to itself, and gives back every OUT row (copied into the storage, or kept in its memory:
    /// `Accelerator::kept_outputs`) and the kill mask. The rest of the storage is left as it
    /// is, with `dirty` still naming every row that may be non-zero, so a batch handed back to
    /// the interpreter gets the full `setup` (`run_inner`) and starts from zeros as usual.
    pub(super) fn setup_accelerated(
        &mut self,
        program: &Program,
        batch: &Batch,
        consts: &Constants,
    ) {
        let nq = batch.quads();
        let l = program.layout;
        // (The render may have written the inputs in place: same size, same storage.)
        if self.regs.len() != l.rows as usize * nq {
            self.regs.clear();
            self.regs.resize(l.rows as usize * nq, Lanes::ZERO);
        }
        // The compiled run may write any of its rows back into `regs` (another program's
        // immediates among them).
        self.imm_filled = None;
        self.nq = nq;
        self.outputs_kept = false;
        self.mark_dirty(program);
        for (slot, cs) in program.const_slots.iter().enumerate() {
            for c in 0..4 {
                let v = consts.get(cs.buffer as i64, cs.index as i64, c);
                let row = l.consts.0 as usize + slot * 4 + c;
                if let Some(q0) = self.regs.get_mut(row * nq) {
                    *q0 = Lanes::splat(v);
                }
            }
        }
        // A compiled run (no DEMOTE) needs a kill row only if the program can kill, and the
        // helper masks only for HELPER_INVOCATION; `finish` reads an empty one as none killed
        // and the coverage's helpers.
        self.kill.clear();
        if program.can_kill {
            self.kill.resize(nq, Lanes::ZERO);
        }
        self.helper.clear();
        if program.system_values.iter().any(|&(_, n)| n == SemanticName::HelperInvocation) {
            self.helper.extend(batch.coverage.iter().map(|&c| Lanes::from_bits4(helper_bits(c))));
            self.helper.resize(nq, Lanes::ZERO);
        }
        self.clock = 0;
        self.fill_inputs(program, batch);
    }

    /// Copies the batch's inputs (unless the render wrote them in place) and system values.
    fn fill_inputs(&mut self, program: &Program, batch: &Batch) {
        let nq = self.nq;
        let l = program.layout;
        let n_in = l.input.1 as usize * 4 * nq;
        let n_in = if batch.in_place { n_in } else { n_in.min(batch.inputs.len()) };
        let in_rows = l.input.0 as usize * nq..l.input.0 as usize * nq + n_in;
        if let (Some(dst), Some(src), false) =
            (self.regs.get_mut(in_rows), batch.inputs.get(..n_in), batch.in_place)
        {
            dst.copy_from_slice(src);
        }
        for &(reg, name) in &program.system_values {
            if reg >= l.sv.1 {
                continue;
            }
            let row0 = l.sv.0 as usize + reg as usize * 4;
            if name == SemanticName::HelperInvocation {
                for q in 0..nq {
                    let h = self.helper.get(q).copied().unwrap_or_default();
                    for c in 0..4 {
                        if let Some(v) = self.regs.get_mut((row0 + c) * nq + q) {
                            *v = h;
                        }
                    }
                }
                continue;
            }
            if let Some(vals) = batch.system.get(name) {
                for c in 0..4 {
                    let r = (row0 + c) * nq;
                    if let (Some(dst), Some(src)) =
                        (self.regs.get_mut(r..r + nq), vals.get(c * nq..c * nq + nq))
                    {
                        dst.copy_from_slice(src);
                    }
                }
            }
        }
    }

    /// Records in `dirty` the rows this run of `program` may change: every row an instruction
    /// may write (a whole file for an indirect destination), IN, SV, and the immediate and
    /// constant rows from IMM on.
    fn mark_dirty(&mut self, program: &Program) {
        let nq = self.nq;
        self.dirty.clear();
        self.dirty.extend(program.dirty.iter().map(|&(a, b)| (a as usize * nq, b as usize * nq)));
    }

    /// A run stopped at `pc`: rows whose first writer is at `pc` or later were not written (and
    /// maybe not cleared): clear them, so they read 0 as unwritten rows do.
    pub(super) fn zero_unwritten(&mut self, program: &Program, pc: usize) {
        let nq = self.nq;
        for &(row, first_writer) in &program.prewritten {
            let (row, first_writer) = (row as usize, first_writer as usize);
            if first_writer >= pc {
                if let Some(sl) = self.regs.get_mut(row * nq..row * nq + nq) {
                    sl.fill(Lanes::ZERO);
                }
            }
        }
    }

    fn fill_row(&mut self, row: usize, v: Lanes) {
        let nq = self.nq;
        if let Some(sl) = self.regs.get_mut(row * nq..row * nq + nq) {
            sl.fill(v);
        }
    }

    pub(super) fn finish(&mut self, program: &Program, batch: &mut Batch) {
        if let Some(frame) = &self.frame {
            frame.charge(self.work);
        }
        let nq = self.nq;
        let l = program.layout;
        let n = l.out.1 as usize * 4 * nq;
        let base = l.out.0 as usize * nq;
        if !batch.in_place {
            batch.outputs.resize(n, Lanes::ZERO);
            if let Some(src) = self.regs.get(base..base + n) {
                batch.outputs.copy_from_slice(src);
            }
        }
        // Refilled in place: no allocation per run; branch-free lane bits (a loop with a branch
        // per lane was 10 % of a straight-line shader's frame).
        batch.killed.clear();
        batch.killed.extend(self.kill.iter().map(|m| m.bits4()));
        batch.killed.resize(nq, 0);
        batch.helpers.clear();
        if self.helper.is_empty() {
            // A compiled run without HELPER_INVOCATION (`setup_accelerated`).
            batch.helpers.extend(batch.coverage.iter().map(|&c| helper_bits(c)));
        } else {
            batch.helpers.extend(self.helper.iter().map(|m| m.bits4()));
        }
        batch.helpers.resize(nq, 0);
    }
}
