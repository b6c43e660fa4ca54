//! The flow part of the code generator: the exec masks of `exec/flow.rs` (tgsi_exec.c
//! `exec_instruction`) as `v128` locals, and IF/ELSE, loops, SWITCH, inlined calls and conditional
//! breaks as wasm blocks entered only when a lane of the quad is active (docs/jit.md, "Per-quad
//! flow").

use super::*;

impl Gen<'_> {
    /// The masks EXEC is the AND of here (UPDATE_EXEC_MASK: cond & loop & cont & func &
    /// switch), leaving out those known to be all ones: cond outside every IF, loop outside
    /// every loop, cont outside every loop with a CONT, switch outside every SWITCH, func
    /// outside every call (unless the main program returns).
    fn exec_masks(&self) -> Vec<u32> {
        [
            (COND, self.if_level > 0),
            (LOOPM, self.loop_level > 0),
            (CONT, self.cont_loops > 0),
            (FUNCM, self.call_level > 0 || self.main_ret),
            (SWITCHM, self.switch_level > 0),
        ]
        .into_iter()
        .filter(|m| m.1)
        .map(|m| m.0)
        .collect()
    }

    /// EXEC = the AND of `exec_masks`.
    pub(super) fn update_exec(&mut self) {
        let masks = self.exec_masks();
        self.set_exec(|g| match masks.split_first() {
            None => g.e(splat_u32(!0)),
            Some((&first, rest)) => {
                g.e(I::LocalGet(first));
                for &m in rest {
                    g.e(I::LocalGet(m));
                    g.e(I::V128And);
                }
            }
        });
    }

    /// Sets EXEC in each quad to what `value` pushes. In pairs the work so far is charged by
    /// the exec it ran under first, and the count of active quads follows the new exec.
    fn set_exec(&mut self, value: impl FnOnce(&mut Self)) {
        if self.pairs {
            self.flush();
        }
        self.both_plain(|g| {
            value(g);
            g.e(I::LocalSet(EXEC));
        });
        if self.pairs {
            self.count_active(EXEC);
            self.e(I::LocalSet(pairs::ACTIVE));
        }
    }

    /// `if any_true(exec) { instructions [from, to) }` for an IF or ELSE body (the ELSE
    /// itself charged first), the body leaving to its end with `leave_body`.
    pub(super) fn guarded_body(
        &mut self,
        from: usize,
        to: usize,
        is_else: bool,
    ) -> Result<(), Unsupported> {
        self.any_active(EXEC);
        self.open(I::If(BlockType::Empty));
        if is_else {
            self.charge(1);
        }
        self.bodies.push(self.depth);
        self.regions.push((from, to, self.loop_level == 0 && self.call_level == 0));
        self.range(from, to)?;
        self.regions.pop();
        self.bodies.pop();
        self.close();
        Ok(())
    }

    /// Whether a write of `row` in the current body may skip the blend with exec: the lanes
    /// whose exec is zero here stay inactive in this body for the rest of the quad's run (the
    /// body runs at most once per quad: an IF or ELSE body outside every loop, or the body of
    /// an outermost loop without CONT, where a lane once inactive has broken out or never
    /// entered), and no instruction outside the body reads the row (nor is it an OUT row, nor
    /// read by a derivative, which reads the inactive lanes too), so what those lanes hold in
    /// it is never read.
    pub(super) fn plain_write(&self, row: u32) -> bool {
        let Some(&(from, to, once)) = self.regions.last() else { return true };
        once && !self.layout.rows_out.contains(&row)
            && !self.read_across.contains(&row)
            && self.reads.get(&row).is_none_or(|pcs| pcs.iter().all(|&pc| pc >= from && pc < to))
    }

    /// ENDLOOP going round: charged, the limit checked, then a branch to the loop's start from
    /// one level inside it (the body's block, or the `if` after it).
    fn go_round(&mut self) {
        self.charge(1);
        self.check_limit();
        self.e(I::Br(1));
    }

    /// Pushes a saved mask: the local `save`, or all ones when nothing was saved.
    pub(super) fn saved(&mut self, save: Option<u32>) {
        match save {
            Some(l) => self.e(I::LocalGet(l)),
            None => self.e(splat_u32(!0)),
        }
    }

    /// After a closer that may have left exec all zero: leaves the enclosing body if so.
    pub(super) fn leave_if_idle(&mut self) {
        self.any_active(EXEC);
        self.e(I::I32Eqz);
        self.open(I::If(BlockType::Empty));
        self.leave_body();
        self.close();
    }

    /// Pushes the IF condition of the IF or UIF at `pc`: lanes where src.x is non-zero (IF: as
    /// a float, so −0 is false and NaN true; UIF: as bits).
    pub(super) fn condition(&mut self, pc: usize) -> Result<(), Unsupported> {
        let inst = self.program.code[pc].clone();
        if let Some(l) = self.mask_source(pc) {
            self.e(I::LocalGet(l));
            return Ok(());
        }
        let inst = &inst;
        self.src(inst, 0, 0)?;
        self.k(0);
        self.e(if inst.op == O::IF { I::F32x4Ne } else { I::I32x4Ne });
        Ok(())
    }

    /// The local holding the condition of the IF at `pc` as a lane mask already: its source
    /// (without modifiers) was last written, with no flow instruction since (so under the same
    /// exec), by a comparison, which gives 0 or ~0 in every active lane: the same lanes as
    /// `src != 0`, as bits and as floats (~0 is a NaN). An inactive lane may keep an older
    /// value there, which the mask logic never lets out: such a lane has cond, loop or cont
    /// zero, the new cond is only used through exec = cond & loop & cont (or, in a conditional
    /// break, & exec) until ENDIF restores the saved cond.
    pub(super) fn mask_source(&self, pc: usize) -> Option<u32> {
        let code = &self.program.code;
        let s = &code.get(pc)?.src[0];
        if s.negate || s.absolute {
            return None;
        }
        let row = s.direct_row(0)?;
        for w in code.get(..pc)?.iter().rev() {
            if !is_alu(w.op) {
                return None;
            }
            let writes = w
                .dst
                .iter()
                .take(w.num_dst as usize)
                .any(|d| (0..4).any(|c| d.mask >> c & 1 != 0 && dst_rows(d, c).contains(&row)));
            if writes {
                // (A direct write: an indirect one may leave this row alone in some lanes.)
                let is_mask = gives_mask(w.op)
                    && !w.saturate
                    && w.num_dst == 1
                    && w.dst[0].indirect.is_none();
                return match (is_mask, self.rows.get(&row)) {
                    (true, Some(&Row::Local(l))) => Some(l),
                    _ => None,
                };
            }
        }
        None
    }

    /// A flow instruction at `pc` (exec is not all zero); returns where the caller goes on.
    pub(super) fn flow(&mut self, pc: usize, to: usize) -> Result<usize, Unsupported> {
        let inst = self.program.code[pc].clone();
        self.next_scratch = self.scratch;
        match inst.op {
            O::NOP => {
                self.charge(1);
                Ok(pc + 1)
            }
            O::IF | O::UIF if inst.cond_break && self.loop_level > self.floors.0 => {
                self.cond_break(&inst, pc, to)
            }
            O::IF | O::UIF => {
                let (else_pc, endif_pc) = self.if_targets(&inst, pc, to)?;
                // Outside every IF cond is all ones: nothing to save (a register fewer).
                let save = (self.if_level > 0).then_some(self.if_saves + self.if_level);
                self.charge(1);
                self.both(|g| {
                    if let Some(save) = save {
                        g.e(I::LocalGet(COND));
                        g.e(I::LocalSet(save));
                    }
                    // push cond; cond &= (src.x != 0)
                    g.condition(pc)?;
                    g.e(I::LocalGet(COND));
                    g.e(I::V128And);
                    g.e(I::LocalSet(COND));
                    Ok(())
                })?;
                self.if_level += 1;
                self.update_exec();
                self.guarded_body(pc + 1, else_pc.unwrap_or(endif_pc), false)?;
                if let Some(e) = else_pc {
                    // ELSE: cond = ~cond & parent; charged when it leaves a lane active.
                    self.both_plain(|g| {
                        g.e(I::LocalGet(COND));
                        g.e(I::V128Not);
                        if let Some(save) = save {
                            g.e(I::LocalGet(save));
                            g.e(I::V128And);
                        }
                        g.e(I::LocalSet(COND));
                    });
                    self.update_exec();
                    self.guarded_body(e + 1, endif_pc, true)?;
                }
                self.if_level -= 1;
                // ENDIF: pop cond; charged when it leaves a lane active (a BRK or CONT inside
                // may have removed them all: the rest of the body is then skipped).
                self.both_plain(|g| {
                    g.saved(save);
                    g.e(I::LocalSet(COND));
                });
                self.update_exec();
                if may_idle(&self.program.code, pc + 1, endif_pc, None) {
                    self.leave_if_idle();
                }
                self.charge(1);
                Ok(endif_pc + 1)
            }
            O::BGNLOOP => {
                let end = inst.target as usize;
                if end <= pc
                    || end >= to
                    || self.program.code.get(end).map(|i| i.op) != Some(O::ENDLOOP)
                {
                    return fail("BGNLOOP without its ENDLOOP", Some(&inst));
                }
                let conts = has_cont(&self.program.code, pc + 1, end);
                // Outside every loop the loop mask is all ones, and the cont mask outside
                // every loop with a CONT: nothing to save then (registers the loop keeps free).
                let base = self.loop_saves + 2 * self.loop_level;
                let save = (self.loop_level > 0).then_some(base);
                let save_cont = (conts && self.cont_loops > 0).then_some(base + 1);
                self.charge(1);
                self.both_plain(|g| {
                    for (mask, at) in [(LOOPM, save), (CONT, save_cont)] {
                        if let Some(at) = at {
                            g.e(I::LocalGet(mask));
                            g.e(I::LocalSet(at));
                        }
                    }
                });
                // Where no mask is in EXEC yet, a loop whose body breaks only through conditional
                // breaks has exec = loop mask throughout: exec alone plays both (one register
                // fewer in each quad's loop, and no copy at a break).
                self.exec_loop = self.exec_masks().is_empty()
                    && exec_is_loop_mask(&self.program.code, pc + 1, end);
                self.loop_level += 1;
                self.cont_loops += conts as u32;
                self.open(I::Loop(BlockType::Empty));
                self.open(I::Block(BlockType::Empty));
                self.bodies.push(self.depth);
                self.regions.push((
                    pc + 1,
                    end,
                    self.loop_level == 1 && !conts && self.call_level == 0,
                ));
                self.range(pc + 1, end)?;
                if !conts {
                    // The body's own end: exec is current and not all zero there (a body is
                    // left as soon as no lane is live), so the quad goes round without a test.
                    self.go_round();
                }
                self.regions.pop();
                self.bodies.pop();
                self.close();
                // ENDLOOP after the body's block, reached from a body that left itself (and,
                // with CONT, from the body's end): restore cont (it lasts one iteration); go on
                // while a lane is live, charged then, and at the exit (the enclosing exec, not
                // all zero).
                if conts {
                    self.both_plain(|g| {
                        g.saved(save_cont);
                        g.e(I::LocalSet(CONT));
                    });
                }
                // Exec is already current at the body's end unless a CONT was undone or the
                // body left itself without an update (its own BRK, CONT or RET).
                if conts || leaves_itself(&self.program.code, pc + 1, end) {
                    self.update_exec();
                }
                self.any_active(EXEC);
                self.open(I::If(BlockType::Empty));
                self.go_round();
                self.close();
                self.close();
                self.loop_level -= 1;
                self.cont_loops -= conts as u32;
                self.exec_loop = false;
                self.both_plain(|g| {
                    g.saved(save);
                    g.e(I::LocalSet(LOOPM));
                });
                self.update_exec();
                // A RET inside may have left no lane: ENDLOOP is then charged nothing.
                if may_idle(&self.program.code, pc + 1, end, Some(O::BGNLOOP)) {
                    self.leave_if_idle();
                }
                self.charge(1);
                Ok(end + 1)
            }
            O::BRK | O::CONT => {
                let switch = inst.op == O::BRK && inst.aux == 1;
                let inside = if switch {
                    self.switch_level > self.floors.1
                } else {
                    self.loop_level > self.floors.0
                };
                if !inside {
                    return fail(
                        format!(
                            "{} outside a loop or switch of its own body is not compiled",
                            inst.op.name()
                        ),
                        Some(&inst),
                    );
                }
                // mask &= ~exec: exec becomes all zero, the rest of the body is skipped.
                self.charge(1);
                let m = match inst.op {
                    O::CONT => CONT,
                    _ if switch => SWITCHM,
                    _ => LOOPM,
                };
                self.both_plain(|g| {
                    g.e(I::LocalGet(m));
                    g.e(I::LocalGet(EXEC));
                    g.e(I::V128Not);
                    g.e(I::V128And);
                    g.e(I::LocalSet(m));
                });
                self.leave_body();
                Ok(pc + 1)
            }
            O::SWITCH => self.switch(&inst, pc, to),
            O::CAL => self.call(&inst, pc),
            O::RET => {
                // func &= ~exec (exec/flow.rs RET): the lanes of this body return; the body is
                // left (exec is all zero), and the closers after it leave theirs while no lane
                // of the quad is left.
                self.charge(1);
                self.both_plain(|g| {
                    g.e(I::LocalGet(FUNCM));
                    g.e(I::LocalGet(EXEC));
                    g.e(I::V128AndNot);
                    g.e(I::LocalSet(FUNCM));
                });
                self.leave_body();
                Ok(pc + 1)
            }
            // Falling into a subroutine body skips it (BGNSUB is dispatched, so charged).
            O::BGNSUB if (inst.target as usize) > pc && (inst.target as usize) < to => {
                self.charge(1);
                Ok(inst.target as usize + 1)
            }
            O::KILL | O::KILL_IF => {
                self.charge(1);
                let flow = self.in_flow();
                self.both(|g| {
                    if inst.op == O::KILL {
                        if flow {
                            g.e(I::LocalGet(KILL));
                            g.e(I::LocalGet(EXEC));
                            g.e(I::V128Or);
                        } else {
                            g.e(splat_u32(!0));
                        }
                    } else {
                        // Lanes where any swizzled channel is negative (flow.rs KILL_IF).
                        for c in 0..4 {
                            g.src(&inst, 0, c)?;
                            g.e(splat_u32(0));
                            g.e(I::F32x4Lt);
                            if c > 0 {
                                g.e(I::V128Or);
                            }
                        }
                        if flow {
                            g.e(I::LocalGet(EXEC));
                            g.e(I::V128And);
                        }
                        g.e(I::LocalGet(KILL));
                        g.e(I::V128Or);
                    }
                    g.e(I::LocalSet(KILL));
                    Ok(())
                })?;
                Ok(pc + 1)
            }
            _ => fail(format!("{} is not compiled", inst.op.name()), Some(&inst)),
        }
    }

    /// SWITCH … ENDSWITCH (exec/flow.rs; tgsi_exec.c `exec_switch`). SWITCH saves the switch
    /// mask, keeps the selector (src.x bits), the lanes entering (exec) and the lanes no CASE of
    /// the switch matches, and clears the switch mask: exec is all zero up to the first label.
    /// Each CASE adds the entering lanes whose selector equals its value, DEFAULT the lanes no
    /// CASE matches (wherever it sits); the code up to the next label runs when the quad then
    /// has a lane (fall-through keeps the lanes already in). BRK of the switch clears its
    /// lanes. ENDSWITCH restores the mask. CASE, DEFAULT and ENDSWITCH are charged by the exec
    /// they leave.
    pub(super) fn switch(
        &mut self,
        inst: &Inst,
        pc: usize,
        to: usize,
    ) -> Result<usize, Unsupported> {
        let code = &self.program.code;
        let end = inst.target as usize;
        if end <= pc || end >= to || code.get(end).map(|i| i.op) != Some(O::ENDSWITCH) {
            return fail("SWITCH without its ENDSWITCH", Some(inst));
        }
        // The labels of this switch: at its own level. A label whose innermost construct is
        // an IF or a loop is not compiled; a nested switch's are its own.
        let mut labels = Vec::new();
        let mut open = Vec::new();
        for (k, i) in code.iter().enumerate().take(end).skip(pc + 1) {
            match i.op {
                O::IF | O::UIF | O::BGNLOOP | O::SWITCH => open.push(i.op),
                O::ENDIF | O::ENDLOOP | O::ENDSWITCH => {
                    open.pop();
                }
                O::CASE | O::DEFAULT => match open.last() {
                    None => labels.push(k),
                    Some(O::SWITCH) => {}
                    Some(_) => return fail("a CASE inside IF or a loop is not compiled", Some(i)),
                },
                _ => {}
            }
        }
        let cases = self.program.switches.get(inst.aux as usize).map(|s| s.cases.clone());
        let base = self.switch_saves + 4 * self.switch_level;
        let (saved, sel, parent, default) = (base, base + 1, base + 2, base + 3);
        self.charge(1);
        self.both(|g| {
            g.e(I::LocalGet(SWITCHM));
            g.e(I::LocalSet(saved));
            g.src_of(&inst.src[0], inst, 0)?;
            g.e(I::LocalSet(sel));
            g.e(I::LocalGet(EXEC));
            g.e(I::LocalSet(parent));
            g.e(I::LocalGet(EXEC));
            for case in cases.unwrap_or_default() {
                // default &= ~(value == selector), bit for bit.
                g.src_of(&case, inst, 0)?;
                g.e(I::LocalGet(sel));
                g.e(I::I32x4Eq);
                g.e(I::V128AndNot);
            }
            g.e(I::LocalSet(default));
            g.e(splat_u32(0));
            g.e(I::LocalSet(SWITCHM));
            Ok(())
        })?;
        self.switch_level += 1;
        for (n, &at) in labels.iter().enumerate() {
            let label = self.program.code[at].clone();
            self.next_scratch = self.scratch;
            self.both(|g| {
                g.e(I::LocalGet(SWITCHM));
                if label.op == O::CASE {
                    g.src_of(&label.src[0], &label, 0)?;
                    g.e(I::LocalGet(sel));
                    g.e(I::I32x4Eq);
                    g.e(I::LocalGet(parent));
                    g.e(I::V128And);
                } else {
                    g.e(I::LocalGet(default));
                }
                g.e(I::V128Or);
                g.e(I::LocalSet(SWITCHM));
                Ok(())
            })?;
            self.update_exec();
            let next = labels.get(n + 1).copied().unwrap_or(end);
            self.any_active(EXEC);
            self.open(I::If(BlockType::Empty));
            self.charge(1);
            self.bodies.push(self.depth);
            self.regions.push((at + 1, next, false));
            self.range(at + 1, next)?;
            self.regions.pop();
            self.bodies.pop();
            self.close();
        }
        self.switch_level -= 1;
        self.both_plain(|g| {
            g.e(I::LocalGet(saved));
            g.e(I::LocalSet(SWITCHM));
        });
        self.update_exec();
        // A BRK or CONT of an enclosing loop, or a RET, may have left no lane.
        if may_idle(&self.program.code, pc + 1, end, Some(O::SWITCH)) {
            self.leave_if_idle();
        }
        self.charge(1);
        Ok(end + 1)
    }

    /// CAL: the subroutine's body inlined (`exec/flow.rs` CAL/RET/ENDSUB). The function mask is
    /// saved and becomes exec (the other masks carry on into the body, as in the
    /// interpreter); a RET clears its lanes from it, and the body is left once no lane of the
    /// quad is left. ENDSUB is charged when a lane reaches it; every construct inside is closed
    /// by then, so the return restores the function mask only.
    pub(super) fn call(&mut self, inst: &Inst, pc: usize) -> Result<usize, Unsupported> {
        let (b, e) = sub_body(self.program, inst)?;
        let save = self.call_saves + self.call_level;
        self.charge(1);
        self.both_plain(|g| {
            g.e(I::LocalGet(FUNCM));
            g.e(I::LocalSet(save));
            g.e(I::LocalGet(EXEC));
            g.e(I::LocalSet(FUNCM));
        });
        let floors = self.floors;
        self.floors = (self.loop_level, self.switch_level);
        self.call_level += 1;
        self.open(I::Block(BlockType::Empty));
        self.bodies.push(self.depth);
        self.regions.push((b + 1, e, false));
        self.range(b + 1, e)?;
        self.charge(1);
        self.regions.pop();
        self.bodies.pop();
        self.close();
        self.call_level -= 1;
        self.floors = floors;
        self.both_plain(|g| {
            g.e(I::LocalGet(save));
            g.e(I::LocalSet(FUNCM));
        });
        self.update_exec();
        Ok(pc + 1)
    }

    /// `IF c; BRK; ENDIF` inside a loop (`Inst::cond_break`): loop &= ~(exec & c), charged as
    /// its three instructions: the IF, the BRK when a lane of the quad takes it, the ENDIF when
    /// it leaves a lane active.
    pub(super) fn cond_break(
        &mut self,
        inst: &Inst,
        pc: usize,
        to: usize,
    ) -> Result<usize, Unsupported> {
        let (else_pc, endif_pc) = self.if_targets(inst, pc, to)?;
        if else_pc.is_some() || endif_pc != pc + 2 {
            return fail("IF marked as a conditional break has another shape", Some(inst));
        }
        self.charge(1);
        let t = self.local();
        self.both(|g| {
            g.condition(pc)?;
            g.e(I::LocalGet(EXEC));
            g.e(I::V128And);
            g.e(I::LocalSet(t));
            Ok(())
        })?;
        self.any_active(t);
        // Most passes break no lane: then nothing changes, and the charge pending before the
        // IF stays pending past it (no flush). Where lanes break, it is settled at the exec it
        // ran under before exec changes, and what the flush after ENDIF will add under the new
        // exec is taken back once the quads go on.
        let carried = std::mem::take(&mut self.pending);
        self.open(I::If(BlockType::Empty));
        self.settle(carried, I::I64Add);
        if self.pairs {
            // The BRK: charged for each quad with a lane that takes it.
            self.e(I::LocalGet(WORK));
            self.count_active(t);
            self.e(I::I64Add);
            self.e(I::LocalSet(WORK));
        } else {
            self.charge(1);
        }
        if self.exec_loop {
            // The loop mask is exec itself: exec &= ~t.
            self.set_exec(|g| {
                g.e(I::LocalGet(EXEC));
                g.e(I::LocalGet(t));
                g.e(I::V128AndNot);
            });
        } else {
            self.both_plain(|g| {
                g.e(I::LocalGet(LOOPM));
                g.e(I::LocalGet(t));
                g.e(I::V128Not);
                g.e(I::V128And);
                g.e(I::LocalSet(LOOPM));
            });
            self.update_exec();
        }
        self.leave_if_idle();
        self.settle(carried, I::I64Sub);
        self.close();
        self.pending = carried;
        self.charge(1);
        Ok(endif_pc + 1)
    }

    pub(super) fn if_targets(
        &self,
        inst: &Inst,
        pc: usize,
        to: usize,
    ) -> Result<(Option<usize>, usize), Unsupported> {
        let code = &self.program.code;
        let t = inst.target as usize;
        let bad = || fail("IF without its ENDIF", Some(inst));
        if t <= pc || t >= to {
            return bad();
        }
        match code.get(t).map(|i| i.op) {
            Some(O::ENDIF) => Ok((None, t)),
            Some(O::ELSE) => {
                let e = code[t].target as usize;
                if e <= t || e >= to || code.get(e).map(|i| i.op) != Some(O::ENDIF) {
                    return bad();
                }
                Ok((Some(t), e))
            }
            _ => bad(),
        }
    }
}

/// Whether `code[from..to]` has a CONT of the loop around it (not of a loop inside).
pub(super) fn has_cont(code: &[Inst], from: usize, to: usize) -> bool {
    let mut depth = 0u32;
    for inst in code.get(from..to).unwrap_or(&[]) {
        match inst.op {
            O::BGNLOOP => depth += 1,
            O::ENDLOOP => depth = depth.saturating_sub(1),
            O::CONT if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// Whether the loop body `code[from..to]` changes its exec mask only through conditional
/// breaks (an IF or UIF marked `cond_break`, its BRK and its ENDIF): the rest is ALU
/// instructions and NOPs. Outside every other mask its loop mask is then exec itself.
pub(super) fn exec_is_loop_mask(code: &[Inst], from: usize, to: usize) -> bool {
    let mut pc = from;
    while pc < to {
        let Some(inst) = code.get(pc) else { return false };
        match inst.op {
            O::IF | O::UIF
                if inst.cond_break
                    && code.get(pc + 1).map(|i| (i.op, i.aux)) == Some((O::BRK, 0))
                    && code.get(pc + 2).map(|i| i.op) == Some(O::ENDIF) =>
            {
                pc += 3
            }
            O::NOP => pc += 1,
            op if is_alu(op) => pc += 1,
            _ => return false,
        }
    }
    true
}

/// Whether the body `code[from..to]` has a BRK, CONT or RET of its own (outside every IF,
/// loop and switch inside it): one leaves the body with exec all zero and not updated.
pub(super) fn leaves_itself(code: &[Inst], from: usize, to: usize) -> bool {
    let mut depth = 0u32;
    for inst in code.get(from..to).unwrap_or(&[]) {
        match inst.op {
            O::IF | O::UIF | O::BGNLOOP | O::SWITCH => depth += 1,
            O::ENDIF | O::ENDLOOP | O::ENDSWITCH => depth = depth.saturating_sub(1),
            O::BRK | O::CONT | O::RET if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// Whether running `code[from..to]` may leave the exec mask all zero after the construct
/// closing it: a RET (the lanes stay returned), a BRK or CONT of an enclosing loop or a BRK of
/// an enclosing switch. `own` is the construct whose body this is (its own BRKs and CONTs are
/// undone by its closer).
pub(super) fn may_idle(code: &[Inst], from: usize, to: usize, own: Option<O>) -> bool {
    let (mut loops, mut switches) = (0u32, 0u32);
    for inst in code.get(from..to).unwrap_or(&[]) {
        match inst.op {
            O::BGNLOOP => loops += 1,
            O::ENDLOOP => loops = loops.saturating_sub(1),
            O::SWITCH => switches += 1,
            O::ENDSWITCH => switches = switches.saturating_sub(1),
            O::RET => return true,
            O::CONT | O::BRK if inst.aux == 0 && loops == 0 && own != Some(O::BGNLOOP) => {
                return true
            }
            O::BRK if inst.aux == 1 && switches == 0 && own != Some(O::SWITCH) => return true,
            _ => {}
        }
    }
    false
}

/// Opcodes whose every result lane is 0 or ~0 (`exec/ops`; the module computes the same).
pub(super) fn gives_mask(op: O) -> bool {
    matches!(
        op,
        O::FSLT
            | O::FSGE
            | O::FSEQ
            | O::FSNE
            | O::ISGE
            | O::ISLT
            | O::USEQ
            | O::USNE
            | O::USGE
            | O::USLT
    )
}
