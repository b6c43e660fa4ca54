//! The flushing program's rules in the module (`exec::program::Denormals`, docs/jit.md
//! "Bit-exactness rules"): what `Inst::daz` and `Inst::ftz` ask of an operand and a result, and
//! the operations whose flushed form is not a plain flush of the IEEE one (`exec/ops/lane.rs`
//! `mul_ftz`, `min_draw`, `max_draw`).

use super::alu::lane_bytes;
use super::*;

/// The reads (instruction by `Inst::ir_index`, source, channel) of a register row that the
/// last instruction before them to write the row, in the same straight run of ALU
/// instructions, wrote with a result that is never a denormal ([`Writer::Clean`]: flushed, or a
/// mask): no lane the read uses can hold one. (A subroutine inlined at several calls is the same run at each.) The run has no flow instruction,
/// so exec is the same at the write and the read; a lane the read does not use only feeds a
/// result lane that is blended away or never read (`Gen::plain_write`). (The instructions that
/// read the quad's other lanes, derivatives and texture sampling, keep denormals, `opcode`'s
/// `Denormal::Bits`: they have no flushed read.)
pub(super) fn flushed_reads(program: &Program, pcs: &[usize]) -> BTreeSet<(u32, usize, usize)> {
    let code = &program.code;
    let mut clean = BTreeSet::new();
    for &pc in pcs {
        let Some(inst) = code.get(pc) else { continue };
        if inst.daz == 0 || !is_alu(inst.op) {
            continue;
        }
        for i in (0..inst.num_src as usize).filter(|&i| inst.daz >> i & 1 != 0) {
            for c in 0..4 {
                let Some(row) = inst.src[i].direct_row(c) else { continue };
                if last_writer_is_clean(code, pc, row) {
                    clean.insert((inst.ir_index, i, c));
                }
            }
        }
    }
    clean
}

/// Whether the nearest instruction before `pc`, in the straight run of ALU instructions that
/// ends at `pc`, that writes storage row `row` is a [`Writer::Clean`]. False when the run ends
/// first (a flow instruction, or the program's start) or an indirect destination might write it.
fn last_writer_is_clean(code: &[Inst], pc: usize, row: u32) -> bool {
    for w in code.get(..pc).unwrap_or_default().iter().rev() {
        if !is_alu(w.op) {
            return false;
        }
        for d in w.dst.iter().take(w.num_dst as usize) {
            if d.indirect.is_some() && matches!(d.store, Store::Rows { .. }) {
                return false;
            }
            if (0..4).any(|c| d.mask >> c & 1 != 0 && dst_row(d, c) == Some(row)) {
                return matches!(writer(w, d), Writer::Clean);
            }
        }
    }
    false
}

/// What a writer of a row says about whether the row can hold a denormal.
pub(super) enum Writer {
    /// Its result is never one: a flushed result (`Inst::ftz`), a mask of 0 or ~0
    /// (`Opcode::gives_mask`).
    Clean,
    /// A MOV, UCMP or CMP into a direct destination: the row holds what it copies.
    Copy,
    /// Anything else (an integer or bitwise result, a sample, a copy through an index).
    Dirty,
}

/// What `inst` writing destination `d` says about the rows it writes.
pub(super) fn writer(inst: &Inst, d: &Dst) -> Writer {
    if inst.ftz || inst.op.gives_mask() {
        Writer::Clean
    } else if copied_sources(inst.op).is_some() && d.indirect.is_none() {
        Writer::Copy
    } else {
        Writer::Dirty
    }
}

/// The sources a copy's result is one of: MOV's, and the two UCMP and CMP select between (a
/// sign modifier or a saturation makes no denormal of a value that is not one).
fn copied_sources(op: O) -> Option<&'static [usize]> {
    match op {
        O::MOV => Some(&[0]),
        O::UCMP | O::CMP => Some(&[1, 2]),
        _ => None,
    }
}

/// The written storage rows that never hold a denormal, at any point of the program. A row is
/// dirty when a [`Writer::Dirty`] writes it (`dirty`), or a copy ([`Writer::Copy`], `copies`:
/// instruction, channel, row) writes it from a dirty row, a row no instruction writes (an
/// input, a constant or a system value), a denormal immediate or an indexed operand. The rest
/// are clean: every row starts at zero, and each of their writers leaves no denormal as long as
/// the rows it copies hold none, so by induction over the run none ever does. Dirtiness is
/// propagated along the copies with a worklist: time and memory linear in the program.
pub(super) fn clean_rows(
    program: &Program,
    written: &BTreeSet<u32>,
    mut dirty: BTreeSet<u32>,
    copies: &[(usize, usize, u32)],
) -> BTreeSet<u32> {
    // The copies reading each written row, by the row they write.
    let mut readers: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(pc, c, row) in copies {
        let Some(inst) = program.code.get(pc) else {
            dirty.insert(row);
            continue;
        };
        for &i in copied_sources(inst.op).unwrap_or_default() {
            match inst.src.get(i).and_then(|s| s.direct_row(c)) {
                Some(r) => match immediate_bits(program, r) {
                    Some(bits) if crate::exec::program::flush_denormal(bits) == bits => {}
                    None if written.contains(&r) => readers.entry(r).or_default().push(row),
                    _ => {
                        dirty.insert(row);
                    }
                },
                None => {
                    dirty.insert(row);
                }
            }
        }
    }
    let mut queue: Vec<u32> = dirty.iter().copied().collect();
    while let Some(r) = queue.pop() {
        for &row in readers.get(&r).into_iter().flatten() {
            if dirty.insert(row) {
                queue.push(row);
            }
        }
    }
    written.difference(&dirty).copied().collect()
}

impl Gen<'_> {
    /// Whether channel `c` of source `i` is read with denormals as zero (`Inst::daz`). Left out
    /// where no lane can hold a denormal: an immediate that is not one (its bits are known
    /// here), a register row that never holds one ([`Gen::flushed_rows`], [`clean_rows`]), or
    /// one that a flushing instruction wrote last in the same straight run ([`flushed_reads`]).
    pub(super) fn reads_flushed(&self, inst: &Inst, i: usize, c: usize) -> bool {
        let s = &inst.src[i];
        let normal_imm =
            self.imm(s, c).is_some_and(|b| crate::exec::program::flush_denormal(b) == b);
        let flushed_row = matches!(s.store, Store::Rows { .. })
            && s.indirect.is_none()
            && s.direct_row(c).is_some_and(|r| self.flushed_rows.contains(&r));
        inst.daz >> i & 1 != 0
            && !normal_imm
            && !flushed_row
            && !self.flushed_reads.contains(&(inst.ir_index, i, c))
    }

    /// The value on the stack with every denormal lane replaced by a zero of its sign
    /// (`exec::program::flush_denormal`): lanes whose exponent bits are all zero (zeros are
    /// unchanged).
    pub(super) fn flush_denormals(&mut self) {
        let x = self.local();
        self.e(I::LocalSet(x));
        let magnitude = self.local();
        self.e(I::LocalGet(x));
        self.k(0x7fff_ffff);
        self.e(I::V128And);
        self.e(I::LocalSet(magnitude));
        self.signed_zero_where_tiny(x, magnitude);
    }

    /// Pushes `x` with every lane whose `magnitude` (its bits without the sign) is below
    /// 2^-126's, that is whose exponent bits are all zero, replaced by a zero of its sign: the
    /// lane keeps only its sign bit (`x & !(tiny & 0x7fff_ffff)`). Three operations.
    fn signed_zero_where_tiny(&mut self, x: u32, magnitude: u32) {
        self.e(I::LocalGet(x));
        self.e(I::LocalGet(magnitude));
        self.k(0x0080_0000);
        self.e(I::I32x4LtS);
        self.keep_sign_where();
    }

    /// Pushes `x` with the lanes where `mask` is set replaced by a zero of their sign.
    fn signed_zero_where(&mut self, x: u32, mask: u32) {
        self.e(I::LocalGet(x));
        self.e(I::LocalGet(mask));
        self.keep_sign_where();
    }

    /// `x` and a lane mask on the stack: `x` with only its sign bit where the mask is set.
    fn keep_sign_where(&mut self) {
        self.k(0x7fff_ffff);
        self.e(I::V128And);
        self.e(I::V128AndNot);
    }

    /// A flushing program's float result (`Inst::ftz`): a denormal becomes a zero of its sign,
    /// before saturation (`Machine::store`).
    pub(super) fn flush_result(&mut self, inst: &Inst) {
        if inst.ftz {
            self.flush_denormals();
        }
    }

    /// Pushes channel `c` of source 0 times channel `c` of source 1 under x86 FTZ, whose
    /// tininess is detected before rounding (`lane::mul_ftz`): a product whose exact value lies
    /// below 2^-126 is a zero of its sign even when it rounds up to ±2^-126, then denormals are
    /// flushed. Only lanes whose rounded product is exactly ±2^-126 can differ from a plain
    /// flush; for them (rarely any) the exact product is taken in `f64`, where the product of
    /// two binary32 values is exact.
    pub(super) fn product_ftz(&mut self, inst: &Inst, c: usize) -> Result<(), Unsupported> {
        let a = self.src_local(inst, 0, c)?;
        let b = self.src_local(inst, 1, c)?;
        let r = self.local();
        self.e(I::LocalGet(a));
        self.e(I::LocalGet(b));
        self.e(I::F32x4Mul);
        self.e(I::LocalSet(r));
        let (m, magnitude) = (self.local(), self.local());
        self.e(I::LocalGet(r));
        self.k(0x7fff_ffff);
        self.e(I::V128And);
        self.e(I::LocalTee(magnitude));
        self.k(0x0080_0000);
        self.e(I::I32x4Eq);
        self.e(I::LocalTee(m));
        self.e(I::V128AnyTrue);
        self.e(I::If(BlockType::Empty));
        for h in 0..2 {
            // |a · b| < 2^-126 for lanes 2h and 2h + 1, as an i64x2 mask.
            for v in [a, b] {
                self.e(I::LocalGet(v));
                if h == 1 {
                    self.e(I::LocalGet(v));
                    self.e(I::I8x16Shuffle(lane_bytes([2, 3, 2, 3])));
                }
                self.e(I::F64x2PromoteLowF32x4);
            }
            self.e(I::F64x2Mul);
            self.e(I::F64x2Abs);
            let min_normal = f64::from(f32::MIN_POSITIVE).to_bits() as u128;
            self.e(I::V128Const((min_normal << 64 | min_normal) as i128));
            self.e(I::F64x2Lt);
        }
        // The two 64-bit masks as four 32-bit lanes, and only where the product rounded to
        // ±2^-126: those lanes become the zero of their sign.
        self.e(I::I8x16Shuffle(lane_bytes([0, 2, 4, 6])));
        self.e(I::LocalGet(m));
        self.e(I::V128And);
        self.e(I::LocalSet(m));
        self.signed_zero_where(r, m);
        self.e(I::LocalSet(r));
        self.e(I::End);
        // Then the plain flush, by the magnitude before the check: a lane the check zeroed had
        // the magnitude of 2^-126 and is a signed zero already.
        self.signed_zero_where_tiny(r, magnitude);
        Ok(())
    }

    /// Pushes channel `c` of MIN or MAX as the draw stages compute it (`lane::min_draw`,
    /// `max_draw`): a NaN first operand, or a second one below (above) it, gives the second;
    /// otherwise the first, so of equal zeros the first.
    pub(super) fn min_max_draw(&mut self, inst: &Inst, c: usize) -> Result<(), Unsupported> {
        let a = self.src_local(inst, 0, c)?;
        let b = self.src_local(inst, 1, c)?;
        self.e(I::LocalGet(b));
        self.e(I::LocalGet(a));
        self.e(I::LocalGet(a));
        self.e(I::LocalGet(a));
        self.e(I::F32x4Ne);
        self.e(I::LocalGet(b));
        self.e(I::LocalGet(a));
        self.e(if inst.op == O::MIN { I::F32x4Lt } else { I::F32x4Gt });
        self.e(I::V128Or);
        self.e(I::V128Bitselect);
        Ok(())
    }
}
