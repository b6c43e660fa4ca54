//! The function `run(nq, limit)`: the passes over the quads. One pass for most programs; for
//! a straight-line program that samples (`Layout::sample_rows`) one up to each texture
//! instruction, a batched `sample_rows` call, and one from it on (docs/jit.md "Batched
//! sampling"). Each pass starts every quad (or reloads what the pass before kept), runs its
//! instructions and ends the quad (the OUT rows and kill mask, or the next sampler's staged
//! operands and the kept rows), checking the budget after each quad.

use super::*;

impl Gen<'_> {
    /// The whole function: the loop over the quads.
    pub(super) fn run(&mut self, end: usize) -> Result<(), Unsupported> {
        let l = self.layout;
        let has_flow = has_flow(&self.program.code[..end]);
        self.e(I::LocalGet(NQ));
        self.e(I::I32Const(16));
        self.e(I::I32Mul);
        self.e(I::LocalSet(QEND));
        self.set_next();
        self.e(I::Block(BlockType::Empty));
        self.e(I::LocalGet(QEND));
        self.e(I::I32Eqz);
        self.e(I::BrIf(0));
        // One pass over the quads, or with batched sampling one up to each texture instruction
        // (staging its operands), a `sample_rows` call, and one from it on.
        let splits: Vec<usize> = if l.sample_rows {
            (0..end)
                .filter(|&pc| self.program.code.get(pc).is_some_and(|i| is_texture(i.op)))
                .collect()
        } else {
            Vec::new()
        };
        let mut from = 0;
        for pass in 0..=splits.len() {
            let to = splits.get(pass).copied().unwrap_or(end);
            self.pass(pass, from, to, end, has_flow)?;
            if to < end {
                // The sampler `pass` staged last.
                let index = self.samplers.len() as i32 - 1;
                self.e(I::I32Const(index));
                self.e(I::I32Const(l.sample_rows_base() as i32));
                self.e(I::LocalGet(NQ));
                self.e(I::Call(self.lane_imports.len() as u32));
                self.give_back_unless_done();
            }
            from = to;
        }
        self.e(I::End);
        self.e(I::LocalGet(WORK));
        self.e(I::End);
        Ok(())
    }

    /// One pass over the quads running instructions `[from, to)`: pass 0 starts each quad
    /// (registers zero, IN/SV rows loaded, masks all ones, nothing killed), a later pass
    /// reloads what the one before kept. A pass ending at `end` stores the OUT rows and the
    /// kill mask; one ending at a texture instruction stages its operands as rows and keeps
    /// the register rows (`Layout::sample_rows`).
    fn pass(
        &mut self,
        pass: usize,
        from: usize,
        to: usize,
        end: usize,
        has_flow: bool,
    ) -> Result<(), Unsupported> {
        let l = self.layout;
        if pass > 0 {
            self.e(I::I32Const(0));
            self.e(I::LocalSet(QB));
        }
        self.e(I::Loop(BlockType::Empty));
        if self.pairs {
            self.start_pair();
        }
        let rows: Vec<(u32, Row)> = {
            let mut v: Vec<(u32, Row)> = self.rows.iter().map(|(&r, &k)| (r, k)).collect();
            v.sort_by_key(|p| p.0);
            v
        };
        let spill = |r: u32| l.spills.iter().position(|&x| x == r);
        let kill_spill = l.spills.len() as u64;
        self.both(|g| {
            // The quad's start: registers zero (or, after the first pass, as the pass before
            // kept them), IN/SV rows loaded, masks all ones, nothing killed.
            for &(r, k) in &rows {
                let Row::Local(loc) = k else { continue };
                match (l.rows_in.iter().position(|&x| x == r), spill(r)) {
                    (Some(slot), _) => {
                        g.e(I::LocalGet(QB));
                        g.e(I::V128Load(mem(slot as u64 * ROW_BYTES as u64)));
                    }
                    (None, Some(k)) if pass > 0 => {
                        let at = g.spill_slot(k as u64);
                        g.e(I::V128Load(at));
                    }
                    _ => g.e(splat_u32(0)),
                }
                g.e(I::LocalSet(loc));
            }
            if has_flow {
                for m in [COND, LOOPM, CONT, SWITCHM, FUNCM, EXEC] {
                    g.e(splat_u32(!0));
                    g.e(I::LocalSet(m));
                }
            }
            if l.kill {
                if pass > 0 {
                    let at = g.spill_slot(kill_spill);
                    g.e(I::V128Load(at));
                } else {
                    g.e(splat_u32(0));
                }
                g.e(I::LocalSet(KILL));
            }
            Ok(())
        })?;
        // A RET of the main program leaves this block once every lane of the quad returned
        // (the interpreter then stops before END).
        if self.main_ret {
            self.open(I::Block(BlockType::Empty));
            self.bodies.push(self.depth);
            self.regions.push((0, end, true));
        }
        self.range(from, to)?;
        if to < end {
            // The texture instruction at `to`: its operands staged as rows; the registers kept.
            let Some(inst) = self.program.code.get(to).cloned() else {
                return fail("a batched sampler past the program", None);
            };
            self.next_scratch = self.scratch;
            self.stage(&inst)?;
            for &(r, k) in &rows {
                if let (Row::Local(loc), Some(k)) = (k, spill(r)) {
                    let at = self.spill_slot(k as u64);
                    self.e(I::LocalGet(loc));
                    self.e(I::V128Store(at));
                }
            }
            if l.kill {
                let at = self.spill_slot(kill_spill);
                self.e(I::LocalGet(KILL));
                self.e(I::V128Store(at));
            }
        } else {
            // END is dispatched too.
            if self.program.code.get(end).is_some() {
                self.charge(1);
            }
            if self.main_ret {
                self.regions.pop();
                self.bodies.pop();
                self.close();
            }
            // The quad's end: the OUT rows and the kill mask go back to memory, the colour
            // into the render target when the module stores it (`Layout::colour`).
            let base = l.rows_in.len() as u64;
            let out0 = self.program.layout.out.0;
            let colour_rows = l.colour.map(|c| out0 + c * 4..out0 + c * 4 + 4);
            self.both(|g| {
                if let Some(rows) = colour_rows.clone() {
                    g.store_colour(rows);
                }
                // (The slot of an OUT row the program never names is never stored to: it keeps
                // the zeros of the module's fresh memory, as the interpreter's cleared row.)
                for (i, &r) in l.rows_out.iter().enumerate() {
                    if colour_rows.as_ref().is_some_and(|c| c.contains(&r)) {
                        continue;
                    }
                    if let Some(&Row::Local(loc)) = g.rows.get(&r) {
                        g.e(I::LocalGet(QB));
                        g.e(I::LocalGet(loc));
                        g.e(I::V128Store(mem((base + i as u64) * ROW_BYTES as u64)));
                    }
                }
                if l.kill {
                    g.e(I::LocalGet(QB));
                    g.e(I::LocalGet(KILL));
                    g.e(I::V128Store(mem(l.kill_slot() as u64 * ROW_BYTES as u64)));
                }
                Ok(())
            })?;
        }
        self.check_limit();
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(if self.pairs { 32 } else { 16 }));
        self.e(I::I32Add);
        self.e(I::LocalTee(QB));
        self.e(I::LocalGet(QEND));
        self.e(I::I32LtU);
        self.e(I::BrIf(0));
        self.e(I::End);
        Ok(())
    }

    /// Stores the quad's colour (OUT rows `rows`, channel by channel) at the byte offset in its
    /// record; a quad not wholly covered blends each lane with the target's by the record's
    /// mask (a lane outside the primitive keeps what the target holds, as
    /// `render::quads::write_quads`). A row the program never writes stores zeros, as the
    /// interpreter's cleared OUT row.
    fn store_colour(&mut self, rows: std::ops::Range<u32>) {
        let records = self.layout.records_base();
        let mask = self.local();
        self.e(I::LocalGet(QB));
        self.e(I::I32Load(mem_word(records + ROW_BYTES as u64)));
        self.e(I::LocalSet(I32_TMP));
        self.e(I::LocalGet(QB));
        self.e(I::V128Load(mem(records)));
        self.e(I::LocalTee(mask));
        self.e(I::I32x4AllTrue);
        self.e(I::If(BlockType::Empty));
        for blend in [false, true] {
            if blend {
                self.e(I::Else);
            }
            for (c, r) in rows.clone().enumerate() {
                let at = c as u64 * 16;
                self.e(I::LocalGet(I32_TMP));
                match self.rows.get(&r) {
                    Some(&Row::Local(loc)) => self.e(I::LocalGet(loc)),
                    _ => self.e(splat_u32(0)),
                }
                if blend {
                    self.e(I::LocalGet(I32_TMP));
                    self.e(I::V128Load(mem(at)));
                    self.e(I::LocalGet(mask));
                    self.e(I::V128Bitselect);
                }
                self.e(I::V128Store(mem(at)));
            }
        }
        self.e(I::End);
    }

    /// Pushes the address of the current quad's kept row `k` (batched sampling: the quad's
    /// `Layout::spill_rows` rows side by side) and returns the access.
    fn spill_slot(&mut self, k: u64) -> MemArg {
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(self.layout.spill_rows() as i32));
        self.e(I::I32Mul);
        mem(self.layout.spill_base() + k * 16)
    }
}
