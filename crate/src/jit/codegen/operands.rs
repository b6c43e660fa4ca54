//! Operands of the code generator: a source channel with its swizzle, modifiers and indirect
//! index (a select chain over the file's registers, or a per-lane gather from a constant
//! buffer's area), the calls of the lane imports, and which storage rows an operand may touch.

use super::*;

impl Gen<'_> {
    /// Pushes channel `c` of source `i` with its modifiers.
    /// In a program that flushes denormals (`exec::program::Denormals`), a float operand the
    /// instruction reads with denormals as zero (`Inst::daz`) is flushed here, where every
    /// source read passes, as the interpreter's general path fetches it (`regs::fetch_flushed`).
    pub(super) fn src(&mut self, inst: &Inst, i: usize, c: usize) -> Result<(), Unsupported> {
        let s = inst.src[i];
        self.src_of(&s, inst, c)?;
        if self.reads_flushed(inst, i, c) {
            self.flush_denormals();
        }
        Ok(())
    }

    /// Pushes channel `c` of the operand `s` (of `inst`, named in messages) with its modifiers,
    /// as `exec/regs.rs` gathers it: a direct register, zero outside its file, or for
    /// `FILE[ADDR[a].c + k]` each lane's own register (a select over the file's registers, lane
    /// by lane: equal to index − k picks register index; none matches outside the file, and the
    /// lane reads zero).
    pub(super) fn src_of(&mut self, s: &Src, inst: &Inst, c: usize) -> Result<(), Unsupported> {
        let (base, count) = match s.store {
            Store::Rows { base, count } => (base, count),
            Store::Const => {
                self.const_gather(s, inst, c)?;
                return self.modifiers(s, inst);
            }
            Store::None => {
                return fail(
                    format!("{}: this operand is not compiled", inst.op.name()),
                    Some(inst),
                )
            }
        };
        match (s.indirect, s.direct_row(c)) {
            (None, Some(r)) => {
                let Some(row) = self.rows.get(&r).copied() else {
                    return fail(
                        format!("{}: this operand is not compiled", inst.op.name()),
                        Some(inst),
                    );
                };
                if let Row::Imm(bits) = row {
                    let Some(v) = modify(bits, s) else {
                        return fail("64-bit operand modifiers are not compiled", Some(inst));
                    };
                    self.k(v);
                    return Ok(());
                }
                self.push_row(row);
            }
            // A direct index outside the file reads zero.
            (None, None) => {
                let Some(v) = modify(0, s) else {
                    return fail("64-bit operand modifiers are not compiled", Some(inst));
                };
                self.k(v);
                return Ok(());
            }
            (Some(a), _) => {
                let chan = s.swizzle[c & 3] as u32;
                let Some(&Row::Local(addr)) = self.rows.get(&a.0) else {
                    return fail(
                        format!("{}: this address is not compiled", inst.op.name()),
                        Some(inst),
                    );
                };
                self.count_selects(count, inst)?;
                let acc = self.local();
                self.k(0);
                self.e(I::LocalSet(acc));
                for k in 0..count {
                    // Lanes whose address is k − index read register k.
                    let Ok(off) = i32::try_from(k as i64 - s.index) else { continue };
                    let Some(row) = self.rows.get(&(base + k * 4 + chan)).copied() else {
                        return fail(
                            format!("{}: this operand is not compiled", inst.op.name()),
                            Some(inst),
                        );
                    };
                    self.push_row(row);
                    self.e(I::LocalGet(acc));
                    self.e(I::LocalGet(addr));
                    self.k(off as u32);
                    self.e(I::I32x4Eq);
                    self.e(I::V128Bitselect);
                    self.e(I::LocalSet(acc));
                }
                self.e(I::LocalGet(acc));
            }
        }
        self.modifiers(s, inst)
    }

    /// Applies `s`'s modifiers to the value on the stack, in the operand's type.
    fn modifiers(&mut self, s: &Src, inst: &Inst) -> Result<(), Unsupported> {
        if s.negate || s.absolute {
            match src_type(s) {
                VT::Float | VT::Untyped => {
                    if s.absolute {
                        self.k(0x7fff_ffff);
                        self.e(I::V128And);
                    }
                    if s.negate {
                        self.k(0x8000_0000);
                        self.e(I::V128Xor);
                    }
                }
                VT::Int | VT::Uint => {
                    if s.absolute {
                        self.e(I::I32x4Abs);
                    }
                    if s.negate {
                        self.e(I::I32x4Neg);
                    }
                }
                _ => return fail("64-bit operand modifiers are not compiled", Some(inst)),
            }
        }
        Ok(())
    }

    /// Pushes channel `c` of `CONST[b][index + ADDR[a].c]` (or a direct `CONST[b][index]`
    /// outside the cached range) as `exec/regs.rs` gathers it through `Constants::get`: each
    /// lane's own index `i = index + address` (exact, in 64 bits, as the interpreter's
    /// saturating sum), register `i` of the buffer when `0 ≤ i < length`, else 0 — tgsi_exec's
    /// bounds check on the bound buffer's size (tgsi_exec.c `fetch_src_file_channel`), not the
    /// declaration. The buffer is in its area of the module's memory (`Layout::buffer_area`),
    /// its length in the area's first word, set by the host for each run: one 32-bit load per
    /// lane, from register `i` or, outside the buffer, from the zero register after the area's
    /// room (`select`, no branch).
    fn const_gather(&mut self, s: &Src, inst: &Inst, c: usize) -> Result<(), Unsupported> {
        let Some(k) = self.layout.const_buffers.iter().position(|&b| i64::from(b) == s.dim) else {
            return fail(
                format!("{}: this constant operand is not compiled", inst.op.name()),
                Some(inst),
            );
        };
        let addr = match s.indirect {
            None => None,
            Some(a) => match self.rows.get(&a.0) {
                Some(&Row::Local(l)) => Some(l),
                _ => {
                    return fail(
                        format!("{}: this address is not compiled", inst.op.name()),
                        Some(inst),
                    )
                }
            },
        };
        let area = self.layout.buffer_area(k);
        let chan = s.swizzle[c & 3] as u64;
        // Past ±2^40 no 32-bit address brings the index back into the buffer, so the clamp
        // changes no lane's result and keeps the 64-bit sum from overflowing.
        let offset = s.index.clamp(-(1 << 40), 1 << 40);
        let index = |g: &mut Self, lane: u8| {
            g.e(I::I64Const(offset));
            if let Some(l) = addr {
                g.e(I::LocalGet(l));
                g.e(I::I32x4ExtractLane(lane));
                g.e(I::I64ExtendI32S);
                g.e(I::I64Add);
            }
        };
        let word = |g: &mut Self, lane: u8| {
            // select(i, zero register, i <u length) * 16, then the channel's word.
            index(g, lane);
            g.e(I::I64Const(super::BUFFER_REGISTERS as i64));
            index(g, lane);
            g.e(I::I32Const(0));
            g.e(I::I64Load32U(mem_word(area)));
            g.e(I::I64LtU);
            g.e(I::Select);
            g.e(I::I32WrapI64);
            g.e(I::I32Const(4));
            g.e(I::I32Shl);
            g.e(I::I32Load(mem_word(area + 16 + chan * 4)));
        };
        match addr {
            None => {
                word(self, 0);
                self.e(I::I32x4Splat);
            }
            Some(_) => {
                self.k(0);
                for lane in 0..4u8 {
                    word(self, lane);
                    self.e(I::I32x4ReplaceLane(lane));
                }
            }
        }
        Ok(())
    }

    /// Counts `n` more register selects; past `limits::MAX_JIT_INDIRECT_SELECTS` the program
    /// is not compiled.
    pub(super) fn count_selects(&mut self, n: u32, inst: &Inst) -> Result<(), Unsupported> {
        let max = crate::limits::MAX_JIT_INDIRECT_SELECTS;
        self.selects += n as u64;
        if self.selects > max {
            return fail(
                format!("indirect operands selecting among more than {max} register channels in all are not compiled"),
                Some(inst),
            );
        }
        Ok(())
    }

    /// Pushes a storage row's value (no modifiers).
    fn push_row(&mut self, row: Row) {
        match row {
            Row::Imm(bits) => self.k(bits),
            Row::Local(l) => self.e(I::LocalGet(l)),
            Row::Const(k) => {
                self.e(I::I32Const(0));
                self.e(I::V128Load(mem(self.layout.const_base() + k as u64 * 16)));
            }
        }
    }

    /// Pushes `f(args…)` computed by the imported function `w` (`jit::imports`: the
    /// interpreter's own lane formula applied to each lane), each argument a `v128` local.
    pub(super) fn lane_call(&mut self, w: Which, args: &[u32]) {
        let index = self.lane_imports.iter().position(|&x| x == w).unwrap_or(0) as u32;
        for &a in args {
            self.e(I::LocalGet(a));
        }
        self.e(I::Call(index));
    }

    /// Pushes a source into a fresh local and returns it.
    pub(super) fn src_local(
        &mut self,
        inst: &Inst,
        i: usize,
        c: usize,
    ) -> Result<u32, Unsupported> {
        self.src(inst, i, c)?;
        let l = self.local();
        self.e(I::LocalSet(l));
        Ok(l)
    }
}

/// The registers an indirect operand may select among, at most
/// `limits::MAX_JIT_INDIRECT_REGISTERS` (each read or write is a select over all of them).
pub(super) fn check_operands(inst: &Inst) -> Result<(), Unsupported> {
    let srcs = inst.src.iter().take(inst.num_src as usize).map(|s| (s.store, s.indirect));
    let dsts = inst.dst.iter().take(inst.num_dst as usize).map(|d| (d.store, d.indirect));
    for (store, indirect) in srcs.chain(dsts) {
        if let (Store::Rows { count, .. }, Some(_)) = (store, indirect) {
            let max = crate::limits::MAX_JIT_INDIRECT_REGISTERS;
            if count > max {
                return fail(
                    format!(
                        "{}: an indirect operand over more than {max} registers is not compiled",
                        inst.op.name()
                    ),
                    Some(inst),
                );
            }
        }
    }
    Ok(())
}

/// Every storage row channel `c` of a source may read: its register's, or for an indirect
/// operand the channel of every register of the file and the address row.
pub(super) fn src_rows(s: &Src, c: usize) -> Vec<u32> {
    match (s.store, s.indirect) {
        // A constant buffer's registers are in memory: only the address row is read.
        (Store::Const, Some(a)) => vec![a.0],
        (Store::Rows { base, count }, Some(a)) => {
            let chan = s.swizzle[c & 3] as u32;
            (0..count).map(|k| base + k * 4 + chan).chain([a.0]).collect()
        }
        _ => s.direct_row(c).into_iter().collect(),
    }
}

/// Every storage row channel `c` of a destination may write (the address row is a read).
pub(super) fn dst_rows(d: &Dst, c: usize) -> Vec<u32> {
    match (d.store, d.indirect) {
        (Store::Rows { base, count }, Some(_)) => {
            (0..count).map(|k| base + k * 4 + c as u32).collect()
        }
        _ => dst_row(d, c).into_iter().collect(),
    }
}

/// Storage row of a direct destination channel (`Machine::dst_row`).
pub(super) fn dst_row(d: &Dst, c: usize) -> Option<u32> {
    match (d.store, d.indirect) {
        (Store::Rows { base, count }, None) if d.index >= 0 && (d.index as u64) < count as u64 => {
            Some(base + d.index as u32 * 4 + c as u32)
        }
        _ => None,
    }
}
