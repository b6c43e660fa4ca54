//! Control flow on execution masks (Mesa's `tgsi_exec.c` `exec_instruction`, `UPDATE_EXEC_MASK`):
//! conditionals, loops, switch, subroutines, END, KILL/KILL_IF/DEMOTE. Targets come from `compile`,
//! never from text labels. When no lane of the batch would enter a body, the body is skipped.

use super::io::Constants;
use super::lanes::{all_zero, from_fv, fv, iv, Lanes};
use super::machine::{Frame, Machine};
use super::program::{Inst, Program, Src};
use super::regs::{Io, Shape};
use crate::diag::Diagnostic;
use crate::ir::Span;
use crate::opcode::Opcode;

/// Deepest legacy PUSHA stack.
const MAX_ADDR_STACK: usize = 64;
/// Deepest CAL nesting (tgsi_exec: 32).
pub const MAX_CALL_DEPTH: usize = 32;

/// What a flow instruction decided.
pub(crate) enum Next {
    /// Not a flow instruction: run it as ALU.
    NotFlow,
    Goto(usize),
    End,
}

impl Machine {
    /// A mask buffer from the machine's pool (no allocation once warm); return it with `give`.
    pub(crate) fn take(&mut self) -> Vec<Lanes> {
        let mut v = self.flow_pool.pop().unwrap_or_default();
        v.clear();
        v
    }

    pub(crate) fn give(&mut self, v: Vec<Lanes>) {
        self.flow_pool.push(v);
    }

    /// A pooled copy of the exec mask.
    fn exec_copy(&mut self) -> Vec<Lanes> {
        let mut v = self.take();
        v.extend_from_slice(&self.exec);
        v
    }

    /// Fetches channel `c` of `s` for every quad into a pooled buffer (give it back with `give`).
    fn cond_values(&mut self, s: &Src, c: usize, consts: &Constants) -> Vec<Lanes> {
        self.cond_values_in(s, c, consts, 0..self.nq)
    }

    /// Like `cond_values` for the quads `quads` only.
    fn cond_values_in(
        &mut self,
        s: &Src,
        c: usize,
        consts: &Constants,
        quads: std::ops::Range<usize>,
    ) -> Vec<Lanes> {
        let mut buf = self.take();
        buf.resize(quads.len(), Lanes::ZERO);
        let mut none: [Lanes; 0] = [];
        let exec = self.exec.get(quads.clone()).unwrap_or_default();
        let io = Io::quads(&self.regs, consts, exec, self.nq, quads, &mut none);
        io.fetch_into(s, c, &mut buf);
        buf
    }

    /// Lanes (all ones) where the x channel of `s` is non-zero: as a float (IF: −0 is false, NaN
    /// true) or as bits (UIF).
    fn truth(&mut self, s: &Src, float: bool, consts: &Constants) -> Vec<Lanes> {
        self.truth_in(s, float, consts, 0..self.nq)
    }

    /// Like `truth` for the quads `quads` only.
    pub(crate) fn truth_in(
        &mut self,
        s: &Src,
        float: bool,
        consts: &Constants,
        quads: std::ops::Range<usize>,
    ) -> Vec<Lanes> {
        self.truth_flushed(s, float, false, consts, quads)
    }

    /// [`Machine::truth_in`], with denormals read as zero when `daz` (`Inst::daz`).
    pub(crate) fn truth_flushed(
        &mut self,
        s: &Src,
        float: bool,
        daz: bool,
        consts: &Constants,
        quads: std::ops::Range<usize>,
    ) -> Vec<Lanes> {
        use wide::{CmpEq, CmpNe};
        let mut v = self.cond_values_in(s, 0, consts, quads);
        if daz {
            super::regs::flush_denormals(&mut v);
        }
        if float {
            let zero = wide::f32x4::splat(0.0);
            for l in v.iter_mut() {
                *l = from_fv(fv(l).cmp_ne(zero));
            }
        } else {
            let zero = wide::i32x4::splat(0);
            for l in v.iter_mut() {
                *l = Lanes::from_i32((!iv(l).cmp_eq(zero)).to_array());
            }
        }
        v
    }

    pub(crate) fn flow(
        &mut self,
        program: &Program,
        inst: &Inst,
        pc: usize,
        consts: &Constants,
    ) -> Result<Next, Diagnostic> {
        let nq = self.nq;
        let target = inst.target as usize;
        let next = Next::Goto(pc + 1);
        Ok(match inst.op {
            Opcode::IF | Opcode::UIF | Opcode::IFC => {
                let float = inst.op != Opcode::UIF;
                if program.code.get(target).is_some_and(|i| i.op == Opcode::ENDIF) {
                    // No ELSE: when no active lane enters, the ENDIF would restore the same
                    // masks. Test only the span of quads with active lanes, touch no mask, and
                    // tell the ENDIF so.
                    let span = self.active.0..self.active.1;
                    let daz = inst.daz & 1 != 0;
                    let t = self.truth_flushed(&inst.src[0], float, daz, consts, span.clone());
                    let taken = any_common(&t, self.exec.get(span).unwrap_or_default());
                    self.give(t);
                    if !taken {
                        self.masks_unchanged = true;
                        return Ok(Next::Goto(target));
                    }
                }
                let t = self.truth_flushed(&inst.src[0], float, inst.daz & 1 != 0, consts, 0..nq);
                self.cond_stack.extend_from_slice(&self.cond);
                and_into(&mut self.cond, &t);
                self.give(t);
                self.update_exec();
                if self.any_active {
                    next
                } else {
                    Next::Goto(target)
                }
            }
            Opcode::ELSE => {
                let top = self.cond_stack.len().saturating_sub(nq);
                for q in 0..nq {
                    let parent = self.cond_stack.get(top + q).copied().unwrap_or(Lanes::ONES);
                    for l in 0..4 {
                        self.cond[q].0[l] = !self.cond[q].0[l] & parent.0[l];
                    }
                }
                self.update_exec();
                if self.any_active {
                    next
                } else {
                    Next::Goto(target)
                }
            }
            Opcode::ENDIF => {
                if std::mem::take(&mut self.masks_unchanged) {
                    // Its IF pushed nothing and changed no mask.
                    return Ok(next);
                }
                let top = self.cond_stack.len().saturating_sub(nq);
                if let Some(saved) = self.cond_stack.get(top..top + nq) {
                    self.cond.copy_from_slice(saved);
                }
                self.cond_stack.truncate(top);
                self.update_exec();
                next
            }
            Opcode::BGNLOOP => {
                if !self.any_active {
                    return Ok(Next::Goto(target + 1));
                }
                self.loop_stack.extend_from_slice(&self.loop_mask);
                self.loop_stack.extend_from_slice(&self.cont);
                next
            }
            Opcode::ENDLOOP => {
                // CONT only lasts for one iteration: restore it, then loop while any lane is live.
                // Until a CONT runs, every Cont mask (live or saved) is all ones, so the restore
                // changes nothing and the exec mask is already current.
                let top = self.loop_stack.len().saturating_sub(2 * nq);
                if self.cont_used {
                    if let Some(saved) = self.loop_stack.get(top + nq..top + 2 * nq) {
                        self.cont.copy_from_slice(saved);
                    }
                    self.update_exec();
                }
                if self.any_active {
                    Next::Goto(target + 1)
                } else {
                    if let Some(saved) = self.loop_stack.get(top..top + nq) {
                        self.loop_mask.copy_from_slice(saved);
                    }
                    self.loop_stack.truncate(top);
                    self.update_exec();
                    next
                }
            }
            Opcode::BRK | Opcode::BREAKC => {
                let mut lanes = self.exec_copy();
                if inst.op == Opcode::BREAKC {
                    let t = self.truth(&inst.src[0], true, consts);
                    and_into(&mut lanes, &t);
                    self.give(t);
                }
                if inst.aux == 1 {
                    and_not_into(&mut self.switch[..nq], &lanes);
                } else {
                    and_not_into(&mut self.loop_mask, &lanes);
                }
                self.give(lanes);
                self.update_exec();
                next
            }
            Opcode::CONT => {
                self.cont_used = true;
                let exec = std::mem::take(&mut self.exec);
                and_not_into(&mut self.cont, &exec);
                self.exec = exec;
                self.update_exec();
                next
            }
            Opcode::SWITCH => {
                if !self.any_active {
                    return Ok(Next::Goto(target + 1));
                }
                self.switch_stack.extend_from_slice(&self.switch);
                let sel = self.cond_values(&inst.src[0], 0, consts);
                // switch = [mask | selector | parent | default lanes]
                let mut default = self.exec_copy();
                if let Some(info) = program.switches.get(inst.aux as usize) {
                    for case in &info.cases {
                        let v = self.cond_values(case, 0, consts);
                        for q in 0..nq {
                            for l in 0..4 {
                                if v[q].0[l] == sel[q].0[l] {
                                    default[q].0[l] = 0;
                                }
                            }
                        }
                        self.give(v);
                    }
                }
                for q in 0..nq {
                    self.switch[q] = Lanes::ZERO;
                    self.switch[nq + q] = sel[q];
                    self.switch[2 * nq + q] = self.exec[q];
                    self.switch[3 * nq + q] = default[q];
                }
                self.give(sel);
                self.give(default);
                self.update_exec();
                next
            }
            Opcode::CASE => {
                let v = self.cond_values(&inst.src[0], 0, consts);
                for q in 0..nq {
                    for l in 0..4 {
                        if v[q].0[l] == self.switch[nq + q].0[l] {
                            self.switch[q].0[l] |= self.switch[2 * nq + q].0[l];
                        }
                    }
                }
                self.give(v);
                self.update_exec();
                next
            }
            Opcode::DEFAULT => {
                // Lanes that match no CASE of this switch, wherever DEFAULT sits (tgsi_exec
                // only gets this right when DEFAULT is last).
                for q in 0..nq {
                    for l in 0..4 {
                        self.switch[q].0[l] |= self.switch[3 * nq + q].0[l];
                    }
                }
                self.update_exec();
                next
            }
            Opcode::ENDSWITCH => {
                let top = self.switch_stack.len().saturating_sub(4 * nq);
                if let Some(saved) = self.switch_stack.get(top..top + 4 * nq) {
                    self.switch.copy_from_slice(saved);
                }
                self.switch_stack.truncate(top);
                self.update_exec();
                next
            }
            Opcode::CAL | Opcode::CALLNZ => {
                if !self.any_active {
                    return Ok(next);
                }
                let mut lanes = self.exec_copy();
                if inst.op == Opcode::CALLNZ {
                    let t = self.truth(&inst.src[0], true, consts);
                    and_into(&mut lanes, &t);
                    self.give(t);
                    if all_zero(&lanes) {
                        self.give(lanes);
                        return Ok(next);
                    }
                }
                self.call(pc + 1).map_err(|d| Diagnostic { span: inst.span, ..d })?;
                // Inside the subroutine, FuncMask tracks the lanes that have not returned yet.
                self.func.copy_from_slice(&lanes);
                self.give(lanes);
                self.update_exec();
                Next::Goto(target + 1)
            }
            Opcode::RET => {
                let exec = std::mem::take(&mut self.exec);
                and_not_into(&mut self.func, &exec);
                self.exec = exec;
                self.update_exec();
                if all_zero(&self.func) {
                    match self.ret() {
                        Some(r) => Next::Goto(r),
                        None => Next::End,
                    }
                } else {
                    next
                }
            }
            Opcode::ENDSUB => match self.ret() {
                Some(r) => Next::Goto(r),
                None => Next::End,
            },
            // Subroutine bodies are only entered by CAL; falling into one skips it.
            Opcode::BGNSUB => Next::Goto(target + 1),
            Opcode::END => Next::End,
            // BARRIER: a compute block runs as one batch in lock step, so every invocation is
            // already here; MEMBAR: memory is accessed in program order.
            Opcode::NOP | Opcode::BARRIER | Opcode::MEMBAR => next,
            Opcode::KILL | Opcode::KILP => {
                let exec = std::mem::take(&mut self.exec);
                or_into(&mut self.kill, &exec);
                self.exec = exec;
                next
            }
            Opcode::KILL_IF | Opcode::KIL => {
                // Lanes where any swizzled component is negative; killed lanes keep running.
                for c in 0..4 {
                    let v = self.cond_values(&inst.src[0], c, consts);
                    for q in 0..nq {
                        for l in 0..4 {
                            if f32::from_bits(v[q].0[l]) < 0.0 {
                                self.kill[q].0[l] |= self.exec[q].0[l];
                            }
                        }
                    }
                    self.give(v);
                }
                next
            }
            Opcode::DEMOTE => {
                // tgsi.rst: the lane becomes a helper and keeps running; its outputs are dropped.
                let exec = std::mem::take(&mut self.exec);
                or_into(&mut self.helper, &exec);
                or_into(&mut self.kill, &exec);
                self.exec = exec;
                next
            }
            Opcode::PUSHA => {
                // Legacy (2010): push the four channels of src on the address stack.
                if self.addr_stack.len() >= MAX_ADDR_STACK * 4 * nq {
                    return Err(Diagnostic::error(
                        "X006",
                        format!("PUSHA deeper than {} entries", MAX_ADDR_STACK),
                        inst.span,
                    ));
                }
                for c in 0..4 {
                    let v = self.cond_values(&inst.src[0], c, consts);
                    self.addr_stack.extend_from_slice(&v);
                    self.give(v);
                }
                next
            }
            Opcode::POPA => {
                let Some(top) = self.addr_stack.len().checked_sub(4 * nq) else {
                    return Err(Diagnostic::error(
                        "X006",
                        "POPA with an empty address stack",
                        inst.span,
                    ));
                };
                if self.result.len() >= 4 * nq {
                    let (res, stack) = (&mut self.result, &self.addr_stack);
                    if let Some(src) = stack.get(top..top + 4 * nq) {
                        res[..4 * nq].copy_from_slice(src);
                    }
                    self.addr_stack.truncate(top);
                    self.write_results(inst, Shape::PerChannel);
                }
                next
            }
            _ => Next::NotFlow,
        })
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

/// Whether some lane is set in both masks (one SIMD OR-reduction).
fn any_common(a: &[Lanes], b: &[Lanes]) -> bool {
    let mut acc = wide::u32x4::splat(0);
    for (a, b) in a.iter().zip(b) {
        acc |= wide::u32x4::from(a.0) & wide::u32x4::from(b.0);
    }
    acc.to_array() != [0; 4]
}

fn and_into(dst: &mut [Lanes], m: &[Lanes]) {
    for (d, m) in dst.iter_mut().zip(m) {
        for l in 0..4 {
            d.0[l] &= m.0[l];
        }
    }
}

fn and_not_into(dst: &mut [Lanes], m: &[Lanes]) {
    for (d, m) in dst.iter_mut().zip(m) {
        for l in 0..4 {
            d.0[l] &= !m.0[l];
        }
    }
}

fn or_into(dst: &mut [Lanes], m: &[Lanes]) {
    for (d, m) in dst.iter_mut().zip(m) {
        for l in 0..4 {
            d.0[l] |= m.0[l];
        }
    }
}
