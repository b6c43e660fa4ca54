//! The ALU part of the code generator: the lane formulas of each compiled opcode as
//! WebAssembly SIMD (`exec/ops/lane.rs` is what they reproduce, bit for bit; docs/jit.md
//! "Bit-exactness rules"). Operands are read by `operands.rs`.

use super::*;

impl Gen<'_> {
    /// One ALU instruction for the current quad: every enabled result channel is computed
    /// into a local before any is written (a destination may also be a source).
    pub(super) fn alu(&mut self, inst: &Inst) -> Result<(), Unsupported> {
        self.next_scratch = self.scratch;
        if is_texture(inst.op) && !self.layout.sample_rows {
            // (With batched sampling the pass before staged the operands and the import ran
            // for the whole batch: the results wait in their rows.)
            // In pairs a body may run with this quad's exec all zero: the sampler is not
            // called for it (what it would leave in the scratch goes to no active lane).
            let idle_skip = self.pairs && self.in_flow();
            if idle_skip {
                self.e(I::LocalGet(EXEC));
                self.e(I::V128AnyTrue);
                self.e(I::If(BlockType::Empty));
            }
            self.sample(inst)?;
            if idle_skip {
                self.e(I::End);
            }
        }
        let d = inst.dst[0];
        let sat = inst.saturate && matches!(inst.op.info().dst_type, VT::Float | VT::Untyped);
        // Channels that are a loop counter's step, written as `row − exec` below: their sum is
        // not computed (its operand loads would stay in the code: a load may trap, so the
        // runtime keeps it even when the sum is dropped).
        let steps = [0, 1, 2, 3]
            .map(|c| inst.num_dst != 0 && d.mask >> c & 1 != 0 && self.counter_step(inst, c, sat));
        let mut results = [None; 4];
        if is_replicated(inst.op) {
            self.compute(inst, 0)?;
            self.flush_result(inst);
            let l = self.local();
            self.e(I::LocalSet(l));
            results = [Some(l); 4];
        } else {
            for c in 0..4 {
                if d.mask >> c & 1 != 0 && !steps[c] {
                    self.compute(inst, c)?;
                    self.flush_result(inst);
                    let l = self.local();
                    self.e(I::LocalSet(l));
                    results[c] = Some(l);
                }
            }
        }
        if inst.num_dst == 0 {
            return Ok(());
        }
        for c in 0..4 {
            if steps[c] {
                // A loop counter (`row = row + 1` in the active lanes): exec's lanes are 0 or
                // ~0 (−1), so `row − exec` is the blend of row + 1 with row, in one operation.
                // (`counter_step` found the row's local.)
                if let Some(&Row::Local(row)) = dst_row(&d, c).and_then(|r| self.rows.get(&r)) {
                    self.e(I::LocalGet(row));
                    self.e(I::LocalGet(EXEC));
                    self.e(I::I32x4Sub);
                    self.e(I::LocalSet(row));
                }
                continue;
            }
            let Some(val) = results[c] else { continue };
            if d.mask >> c & 1 == 0 {
                continue;
            }
            if let Some(a) = d.indirect {
                self.indirect_write(inst, &d, a.0, c, val, sat)?;
                continue;
            }
            let Some(row) = dst_row(&d, c) else { continue };
            let Some(&Row::Local(dst)) = self.rows.get(&row) else {
                return fail(
                    format!("{}: this destination is not compiled", inst.op.name()),
                    Some(inst),
                );
            };
            self.e(I::LocalGet(val));
            if sat {
                self.saturate();
            }
            if !self.plain_write(row) {
                self.e(I::LocalGet(dst));
                self.e(I::LocalGet(EXEC));
                self.e(I::V128Bitselect);
            }
            self.e(I::LocalSet(dst));
        }
        Ok(())
    }

    /// Channel `c` of the source `s` when it is an immediate: its bits with the modifiers
    /// applied (what `src` pushes for it).
    pub(super) fn imm(&self, s: &Src, c: usize) -> Option<u32> {
        if s.indirect.is_some() || !matches!(s.store, Store::Rows { .. }) {
            return None;
        }
        match self.rows.get(&s.direct_row(c)?)? {
            Row::Imm(b) => modify(*b, s),
            _ => None,
        }
    }

    /// Whether channel `c` of `inst` is written as a loop counter's step: a direct, blended
    /// (not plain), unsaturated write to a register local of `row + 1` of that row itself.
    fn counter_step(&self, inst: &Inst, c: usize, sat: bool) -> bool {
        let d = &inst.dst[0];
        inst.op == O::UADD
            && !sat
            && d.indirect.is_none()
            && dst_row(d, c).is_some_and(|row| {
                matches!(self.rows.get(&row), Some(Row::Local(_)))
                    && !self.plain_write(row)
                    && self.steps_by_one(inst, c, row)
            })
    }

    /// Whether channel `c` of `inst` is `row + 1` (UADD, wrapping) of `row` itself: one source
    /// reads `row` directly in channel `c` without modifiers, the other is an immediate 1 there.
    fn steps_by_one(&self, inst: &Inst, c: usize, row: u32) -> bool {
        if inst.op != O::UADD {
            return false;
        }
        let is_row = |s: &Src| {
            matches!(s.store, Store::Rows { .. })
                && s.indirect.is_none()
                && !s.negate
                && !s.absolute
                && s.direct_row(c) == Some(row)
        };
        let is_one = |s: &Src| self.imm(s, c) == Some(1);
        let [a, b] = [inst.src[0], inst.src[1]];
        (is_row(&a) && is_one(&b)) || (is_one(&a) && is_row(&b))
    }

    /// Channel `c` of `FILE[ADDR[a].c + k]` gets `val` in each active lane whose register is in
    /// the file (`machine::store`: each lane's own address; outside the file the write is
    /// dropped): every register of the file blends in the lanes whose address selects it.
    fn indirect_write(
        &mut self,
        inst: &Inst,
        d: &Dst,
        addr_row: u32,
        c: usize,
        val: u32,
        sat: bool,
    ) -> Result<(), Unsupported> {
        let Store::Rows { base, count } = d.store else { return Ok(()) };
        let what = || format!("{}: this destination is not compiled", inst.op.name());
        let Some(&Row::Local(addr)) = self.rows.get(&addr_row) else {
            return fail(what(), Some(inst));
        };
        self.count_selects(count, inst)?;
        if sat {
            self.e(I::LocalGet(val));
            self.saturate();
            self.e(I::LocalSet(val));
        }
        let flow = self.in_flow();
        for k in 0..count {
            let Ok(off) = i32::try_from(k as i64 - d.index) else { continue };
            let Some(&Row::Local(dst)) = self.rows.get(&(base + k * 4 + c as u32)) else {
                return fail(what(), Some(inst));
            };
            self.e(I::LocalGet(val));
            self.e(I::LocalGet(dst));
            self.e(I::LocalGet(addr));
            self.k(off as u32);
            self.e(I::I32x4Eq);
            if flow {
                self.e(I::LocalGet(EXEC));
                self.e(I::V128And);
            }
            self.e(I::V128Bitselect);
            self.e(I::LocalSet(dst));
        }
        Ok(())
    }

    /// A texture instruction for the current quad: its operands and the exec mask staged in the
    /// sampling scratch, then the `sample` import (`jit::host`: the interpreter's texture code
    /// for this quad) leaves the four result channels there for `compute`. When the host gives
    /// up (its texture code reported an error) the run returns −1 and the interpreter reruns
    /// the batch, reporting it.
    fn sample(&mut self, inst: &Inst) -> Result<(), Unsupported> {
        let index = self.stage(inst)?;
        self.e(I::I32Const(index));
        self.e(I::I32Const(self.layout.sample_base() as i32));
        self.e(I::Call(self.lane_imports.len() as u32));
        self.give_back_unless_done();
        Ok(())
    }

    /// Pushes the address of the current quad's sampling slot `k` and returns the access: the
    /// one-quad scratch, or with batched sampling the quad's place in the batch's row `k`.
    pub(super) fn sample_slot(&mut self, k: usize) -> MemArg {
        if self.layout.sample_rows {
            // Row k of the batch's: `base + k·sample_row_stride(nq) + q·16`, that is
            // `base + k·SAMPLE_ROW_PAD + k·QEND + QB` (`QEND` is `nq · 16`, `QB` is `q · 16`).
            self.e(I::LocalGet(QB));
            if k > 0 {
                self.e(I::LocalGet(QEND));
                self.e(I::I32Const(k as i32));
                self.e(I::I32Mul);
                self.e(I::I32Add);
            }
            mem(self.layout.sample_rows_base() + k as u64 * SAMPLE_ROW_PAD)
        } else {
            self.e(I::I32Const(0));
            mem(self.layout.sample_base() + k as u64 * 16)
        }
    }

    /// Stores a texture instruction's operands for the current quad (all four channels of each,
    /// after swizzles and modifiers), the texel-offset operand, the address channel of an
    /// indirect resource and the quad's exec mask in its sampling slots, and returns the index
    /// the import is called with (the instruction rewritten for `jit::host`).
    pub(super) fn stage(&mut self, inst: &Inst) -> Result<i32, Unsupported> {
        use crate::jit::host::{scratch, staged};
        let Some(rewritten) = staged(inst) else {
            return fail(
                format!(
                    "{}: these texture operands are not compiled (an indirect or constant-buffer value, two destinations)",
                    inst.op.name()
                ),
                Some(inst),
            );
        };
        for i in 0..(inst.num_src as usize).min(4) {
            if matches!(inst.src[i].store, Store::Rows { .. }) {
                for c in 0..4 {
                    let at = self.sample_slot(i * 4 + c);
                    self.src(inst, i, c)?;
                    self.e(I::V128Store(at));
                }
            }
        }
        for i in 0..(inst.num_src as usize).min(4) {
            if let (Store::None, Some(a)) = (inst.src[i].store, inst.src[i].indirect) {
                let Some(&Row::Local(l)) = self.rows.get(&a.0) else {
                    return fail(
                        format!("{}: this indirect resource is not compiled", inst.op.name()),
                        Some(inst),
                    );
                };
                let at = self.sample_slot(scratch::ADDR + i);
                self.e(I::LocalGet(l));
                self.e(I::V128Store(at));
            }
        }
        if let Some(o) = inst.offsets[0] {
            for c in 0..4 {
                let at = self.sample_slot(16 + c);
                self.src_of(&o, inst, c)?;
                self.e(I::V128Store(at));
            }
        }
        let at = self.sample_slot(scratch::EXEC);
        if self.in_flow() {
            self.e(I::LocalGet(EXEC));
        } else {
            self.k(!0);
        }
        self.e(I::V128Store(at));
        let index = self.samplers.len() as i32;
        self.samplers.push(rewritten);
        Ok(index)
    }

    /// `x > 0 ? (x < 1 ? x : 1) : 0` on the value on the stack (`machine::saturate`: NaN → 0,
    /// −0 → +0).
    pub(super) fn saturate(&mut self) {
        let x = self.local();
        self.e(I::LocalSet(x));
        // (x < 1 ? x : 1) & (x > 0)
        self.e(I::LocalGet(x));
        self.k(1f32.to_bits());
        self.e(I::LocalGet(x));
        self.k(1f32.to_bits());
        self.e(I::F32x4Lt);
        self.e(I::V128Bitselect);
        self.e(I::LocalGet(x));
        self.k(0);
        self.e(I::F32x4Gt);
        self.e(I::V128And);
    }

    /// Pushes `a0·x0 + a1·x1 + a2·x2` (left to right), `a` source 0 and `x` source `other`:
    /// the dot products of RFL and NRM (`channel_op`).
    fn dot3(&mut self, inst: &Inst, other: usize) -> Result<(), Unsupported> {
        for k in 0..3 {
            self.src(inst, 0, k)?;
            self.src(inst, other, k)?;
            self.e(I::F32x4Mul);
            if k > 0 {
                self.e(I::F32x4Add);
            }
        }
        Ok(())
    }

    /// Pushes the sum of the squares of source 0's four channels, left to right (NRM4).
    fn square_sum(&mut self, inst: &Inst) -> Result<(), Unsupported> {
        for k in 0..4 {
            let v = self.src_local(inst, 0, k)?;
            self.e(I::LocalGet(v));
            self.e(I::LocalGet(v));
            self.e(I::F32x4Mul);
            if k > 0 {
                self.e(I::F32x4Add);
            }
        }
        Ok(())
    }

    /// Pushes result channel `c` of `inst` (channel 0 for replicated ops).
    pub(super) fn compute(&mut self, inst: &Inst, c: usize) -> Result<(), Unsupported> {
        let one = splat_u32(1f32.to_bits());
        let zero = splat_u32(0);
        macro_rules! bin {
            ($op:expr) => {{
                self.src(inst, 0, c)?;
                self.src(inst, 1, c)?;
                self.e($op);
            }};
        }
        macro_rules! un {
            ($op:expr) => {{
                self.src(inst, 0, c)?;
                self.e($op);
            }};
        }
        match inst.op {
            O::MOV | O::UARL => self.src(inst, 0, c)?,
            O::ADD => bin!(I::F32x4Add),
            O::SUB => bin!(I::F32x4Sub),
            O::MUL if inst.ftz => self.product_ftz(inst, c)?,
            O::MAD if inst.ftz => {
                // `lane::mad_ftz`: the product flushed, then the sum (flushed as the result).
                self.product_ftz(inst, c)?;
                self.src(inst, 2, c)?;
                self.e(I::F32x4Add);
            }
            O::MIN | O::MAX if inst.ftz => self.min_max_draw(inst, c)?,
            O::MUL => bin!(I::F32x4Mul),
            O::DIV => bin!(I::F32x4Div),
            O::MAD => {
                bin!(I::F32x4Mul);
                self.src(inst, 2, c)?;
                self.e(I::F32x4Add);
            }
            O::LRP => {
                // a * (b - c) + c
                let cc = self.src_local(inst, 2, c)?;
                self.src(inst, 0, c)?;
                self.src(inst, 1, c)?;
                self.e(I::LocalGet(cc));
                self.e(I::F32x4Sub);
                self.e(I::F32x4Mul);
                self.e(I::LocalGet(cc));
                self.e(I::F32x4Add);
            }
            O::MIN | O::MAX => {
                // lane::min/max: select(a < b | b != b, a, b) (glibc's fminf/fmaxf).
                let a = self.src_local(inst, 0, c)?;
                let b = self.src_local(inst, 1, c)?;
                self.e(I::LocalGet(a));
                self.e(I::LocalGet(b));
                self.e(I::LocalGet(a));
                self.e(I::LocalGet(b));
                self.e(if inst.op == O::MIN { I::F32x4Lt } else { I::F32x4Gt });
                self.e(I::LocalGet(b));
                self.e(I::LocalGet(b));
                self.e(I::F32x4Ne);
                self.e(I::V128Or);
                self.e(I::V128Bitselect);
            }
            O::SLT | O::SGE | O::SEQ | O::SNE | O::SGT | O::SLE => {
                bin!(float_cmp(inst.op));
                self.e(one);
                self.e(I::V128And);
            }
            O::FSLT | O::FSGE | O::FSEQ | O::FSNE => bin!(float_cmp(inst.op)),
            O::FLR => un!(I::F32x4Floor),
            O::CEIL => un!(I::F32x4Ceil),
            O::TRUNC => un!(I::F32x4Trunc),
            O::ROUND => un!(I::F32x4Nearest),
            O::FRC => {
                let a = self.src_local(inst, 0, c)?;
                self.e(I::LocalGet(a));
                self.e(I::LocalGet(a));
                self.e(I::F32x4Floor);
                self.e(I::F32x4Sub);
            }
            O::ABS => {
                self.src(inst, 0, c)?;
                self.k(0x7fff_ffff);
                self.e(I::V128And);
            }
            O::SSG => {
                // x > 0 → 1.0, x < 0 → −1.0, else (0, NaN) 0.
                let a = self.src_local(inst, 0, c)?;
                self.e(I::LocalGet(a));
                self.e(zero.clone());
                self.e(I::F32x4Gt);
                self.e(one);
                self.e(I::V128And);
                self.e(I::LocalGet(a));
                self.e(zero);
                self.e(I::F32x4Lt);
                self.k((-1f32).to_bits());
                self.e(I::V128And);
                self.e(I::V128Or);
            }
            O::CMP => {
                // src0 < 0 ? src1 : src2
                self.src(inst, 1, c)?;
                self.src(inst, 2, c)?;
                self.src(inst, 0, c)?;
                self.e(zero);
                self.e(I::F32x4Lt);
                self.e(I::V128Bitselect);
            }
            O::UCMP => {
                self.src(inst, 1, c)?;
                self.src(inst, 2, c)?;
                self.src(inst, 0, c)?;
                self.e(zero);
                self.e(I::I32x4Ne);
                self.e(I::V128Bitselect);
            }
            O::RCP => {
                self.e(one);
                self.src(inst, 0, 0)?;
                self.e(I::F32x4Div);
            }
            O::SQRT => un!(I::F32x4Sqrt),
            O::RSQ => {
                self.e(one);
                self.src(inst, 0, 0)?;
                self.e(I::F32x4Sqrt);
                self.e(I::F32x4Div);
            }
            O::DP2 | O::DP3 | O::DP4 | O::DPH | O::DP2A => {
                // tgsi_exec's MUL then MADs (product and sum each rounded, product first).
                let n = match inst.op {
                    O::DP2 | O::DP2A => 2,
                    O::DP3 | O::DPH => 3,
                    _ => 4,
                };
                // Flushing (`ops::float::dot`): each product by `product_ftz`, each partial sum
                // flushed.
                let product = |g: &mut Self, k: usize| -> Result<(), Unsupported> {
                    if inst.ftz {
                        g.product_ftz(inst, k)?;
                    } else {
                        g.src(inst, 0, k)?;
                        g.src(inst, 1, k)?;
                        g.e(I::F32x4Mul);
                    }
                    Ok(())
                };
                product(self, 0)?;
                for k in 1..n {
                    let acc = self.local();
                    self.e(I::LocalSet(acc));
                    product(self, k)?;
                    self.e(I::LocalGet(acc));
                    self.e(I::F32x4Add);
                    self.flush_result(inst);
                }
                match inst.op {
                    O::DPH => {
                        self.src(inst, 1, 3)?;
                        self.e(I::F32x4Add);
                    }
                    O::DP2A => {
                        self.src(inst, 2, 0)?;
                        self.e(I::F32x4Add);
                    }
                    _ => {}
                }
            }
            O::UADD => bin!(I::I32x4Add),
            O::UMUL => bin!(I::I32x4Mul),
            O::UMAD => {
                bin!(I::I32x4Mul);
                self.src(inst, 2, c)?;
                self.e(I::I32x4Add);
            }
            O::INEG => un!(I::I32x4Neg),
            O::IABS => un!(I::I32x4Abs),
            O::ISSG => {
                let a = self.src_local(inst, 0, c)?;
                self.e(I::LocalGet(a));
                self.e(zero.clone());
                self.e(I::I32x4GtS);
                self.k(1);
                self.e(I::V128And);
                self.e(I::LocalGet(a));
                self.e(zero);
                self.e(I::I32x4LtS);
                self.e(I::V128Or);
            }
            O::IMIN => bin!(I::I32x4MinS),
            O::IMAX => bin!(I::I32x4MaxS),
            O::UMIN => bin!(I::I32x4MinU),
            O::UMAX => bin!(I::I32x4MaxU),
            O::ISGE => {
                // Against an immediate k, a ≥ k is a > k − 1 and k ≥ b is k + 1 > b (exact for
                // every k but the end of the range): one signed compare, where x86 has no ≥
                // (the runtime makes it a maximum and an equality).
                let below = self.imm(&inst.src[1], c).and_then(|k| (k as i32).checked_sub(1));
                let above = self.imm(&inst.src[0], c).and_then(|k| (k as i32).checked_add(1));
                match (below, above) {
                    (Some(k), _) => {
                        self.src(inst, 0, c)?;
                        self.k(k as u32);
                        self.e(I::I32x4GtS);
                    }
                    (None, Some(k)) => {
                        self.k(k as u32);
                        self.src(inst, 1, c)?;
                        self.e(I::I32x4GtS);
                    }
                    (None, None) => bin!(I::I32x4GeS),
                }
            }
            O::ISLT => bin!(I::I32x4LtS),
            O::USEQ => bin!(I::I32x4Eq),
            O::USNE => bin!(I::I32x4Ne),
            O::USGE => bin!(I::I32x4GeU),
            O::USLT => bin!(I::I32x4LtU),
            O::AND => bin!(I::V128And),
            O::OR => bin!(I::V128Or),
            O::XOR => bin!(I::V128Xor),
            O::NOT => un!(I::V128Not),
            O::I2F => un!(I::F32x4ConvertI32x4S),
            O::U2F => un!(I::F32x4ConvertI32x4U),
            // Saturating truncation, NaN → 0: Rust's `as` (int.rs f2i/f2u).
            O::F2I => un!(I::I32x4TruncSatF32x4S),
            O::F2U => un!(I::I32x4TruncSatF32x4U),
            O::ARL => {
                self.src(inst, 0, c)?;
                self.e(I::F32x4Floor);
                self.e(I::I32x4TruncSatF32x4S);
            }
            O::ARR => {
                self.src(inst, 0, c)?;
                self.k(0.5f32.to_bits());
                self.e(I::F32x4Add);
                self.e(I::F32x4Floor);
                self.e(I::I32x4TruncSatF32x4S);
            }
            O::SHL | O::ISHR | O::SHR | O::USHR => {
                // Per-lane counts (wasm SIMD shifts take one count): lane by lane, the scalar
                // shifts take the count modulo 32 as int.rs does.
                let a = self.src_local(inst, 0, c)?;
                let b = self.src_local(inst, 1, c)?;
                let op = match inst.op {
                    O::SHL => I::I32Shl,
                    O::USHR => I::I32ShrU,
                    _ => I::I32ShrS,
                };
                self.e(I::LocalGet(a));
                for lane in 0..4u8 {
                    self.e(I::LocalGet(a));
                    self.e(I::I32x4ExtractLane(lane));
                    self.e(I::LocalGet(b));
                    self.e(I::I32x4ExtractLane(lane));
                    self.e(op.clone());
                    self.e(I::LocalSet(I32_TMP));
                    self.e(I::LocalGet(I32_TMP));
                    self.e(I::I32x4ReplaceLane(lane));
                }
            }
            O::UDIV | O::IDIV | O::UMOD | O::MOD => {
                // Lane by lane with the scalar ops (wasm SIMD has no integer division), guarded
                // as int.rs's formulas say: by zero UDIV, UMOD and MOD give all ones and IDIV 0;
                // IDIV by −1 is the wrapping negation (INT_MIN / −1 = INT_MIN, where
                // i32.div_s would trap); i32.rem_s gives INT_MIN % −1 = 0 itself.
                let a = self.src_local(inst, 0, c)?;
                let b = self.src_local(inst, 1, c)?;
                let (by_zero, op) = match inst.op {
                    O::UDIV => (-1, I::I32DivU),
                    O::IDIV => (0, I::I32DivS),
                    O::UMOD => (-1, I::I32RemU),
                    _ => (-1, I::I32RemS),
                };
                self.e(I::LocalGet(a));
                for lane in 0..4u8 {
                    self.e(I::LocalGet(b));
                    self.e(I::I32x4ExtractLane(lane));
                    self.e(I::LocalSet(I32_TMP));
                    self.e(I::LocalGet(I32_TMP));
                    self.e(I::I32Eqz);
                    self.e(I::If(BlockType::Result(ValType::I32)));
                    self.e(I::I32Const(by_zero));
                    self.e(I::Else);
                    if inst.op == O::IDIV {
                        self.e(I::LocalGet(I32_TMP));
                        self.e(I::I32Const(-1));
                        self.e(I::I32Eq);
                        self.e(I::If(BlockType::Result(ValType::I32)));
                        self.e(I::I32Const(0));
                        self.e(I::LocalGet(a));
                        self.e(I::I32x4ExtractLane(lane));
                        self.e(I::I32Sub);
                        self.e(I::Else);
                    }
                    self.e(I::LocalGet(a));
                    self.e(I::I32x4ExtractLane(lane));
                    self.e(I::LocalGet(I32_TMP));
                    self.e(op.clone());
                    if inst.op == O::IDIV {
                        self.e(I::End);
                    }
                    self.e(I::End);
                    self.e(I::I32x4ReplaceLane(lane));
                }
            }
            O::DDX | O::DDY | O::DDX_FINE | O::DDY_FINE => {
                // v[a] − v[b] per lane with the interpreter's lane pairs (ops::quad): each
                // operand is the source with its lanes shuffled into place.
                let v = self.src_local(inst, 0, c)?;
                let pairs = crate::exec::ops::quad::derivative_lanes(inst.op);
                for pick in [pairs.map(|p| p.0), pairs.map(|p| p.1)] {
                    self.e(I::LocalGet(v));
                    self.e(I::LocalGet(v));
                    self.e(I::I8x16Shuffle(lane_bytes(pick)));
                }
                self.e(I::F32x4Sub);
            }
            O::SIN | O::COS => {
                let w = imports::used_by(inst.op)[0];
                let a = self.src_local(inst, 0, 0)?;
                self.sin_cos(w, a);
            }
            O::EX2 | O::LG2 | O::RCC => {
                let w = imports::used_by_inst(inst)[0];
                let a = self.src_local(inst, 0, 0)?;
                self.lane_call(w, &[a]);
            }
            O::POW => {
                let w = imports::used_by_inst(inst)[0];
                let a = self.src_local(inst, 0, 0)?;
                let b = self.src_local(inst, 1, 0)?;
                self.lane_call(w, &[a, b]);
            }
            // The legacy channel formulas (float.rs `channel_op`), from the same functions.
            O::SCS if c < 2 => {
                let a = self.src_local(inst, 0, 0)?;
                self.sin_cos(if c == 0 { Which::Cos } else { Which::Sin }, a);
            }
            O::SCS => self.e(if c == 2 { zero } else { one }),
            O::EXP => match c {
                // [ex2(floor x), x − floor x, ex2(x), 1]
                0 => {
                    self.src(inst, 0, 0)?;
                    self.e(I::F32x4Floor);
                    let f = self.local();
                    self.e(I::LocalSet(f));
                    self.lane_call(Which::Ex2, &[f]);
                }
                1 => {
                    let a = self.src_local(inst, 0, 0)?;
                    self.e(I::LocalGet(a));
                    self.e(I::LocalGet(a));
                    self.e(I::F32x4Floor);
                    self.e(I::F32x4Sub);
                }
                2 => {
                    let a = self.src_local(inst, 0, 0)?;
                    self.lane_call(Which::Ex2, &[a]);
                }
                _ => self.e(one),
            },
            O::LOG if c < 3 => {
                // |x| = ax, z = lg2(ax): [floor z, ax / ex2(floor z), z, 1]
                self.src(inst, 0, 0)?;
                self.k(0x7fff_ffff);
                self.e(I::V128And);
                let ax = self.local();
                self.e(I::LocalSet(ax));
                self.lane_call(Which::Lg2, &[ax]);
                if c < 2 {
                    self.e(I::F32x4Floor);
                }
                if c == 1 {
                    let x = self.local();
                    self.e(I::LocalSet(x));
                    self.e(I::LocalGet(ax));
                    self.lane_call(Which::Ex2, &[x]);
                    self.e(I::F32x4Div);
                }
            }
            O::LOG => self.e(one),
            // The rest of the legacy channel formulas (float.rs `channel_op`) and NRM4, with the
            // interpreter's operations in its order (each product and sum rounded).
            O::DST => match c {
                0 => self.e(one),
                1 => {
                    self.src(inst, 0, 1)?;
                    self.src(inst, 1, 1)?;
                    self.e(I::F32x4Mul);
                }
                2 => self.src(inst, 0, 2)?,
                _ => self.src(inst, 1, 3)?,
            },
            O::XPD if c < 3 => {
                // a[i]·b[j] − b[i]·a[j] with (i, j) = (1, 2), (2, 0), (0, 1).
                let (i, j) = [(1, 2), (2, 0), (0, 1)][c];
                self.src(inst, 0, i)?;
                self.src(inst, 1, j)?;
                self.e(I::F32x4Mul);
                self.src(inst, 1, i)?;
                self.src(inst, 0, j)?;
                self.e(I::F32x4Mul);
                self.e(I::F32x4Sub);
            }
            O::RFL if c < 3 => {
                // k = 2·(a·b) / (a·a) (sums left to right); k·a[c] − b[c]
                self.k(2f32.to_bits());
                self.dot3(inst, 1)?;
                self.e(I::F32x4Mul);
                self.dot3(inst, 0)?;
                self.e(I::F32x4Div);
                self.src(inst, 0, c)?;
                self.e(I::F32x4Mul);
                self.src(inst, 1, c)?;
                self.e(I::F32x4Sub);
            }
            O::XPD | O::RFL => self.e(one),
            O::X2D => {
                // x = a0 + b0·d0 + b1·d1, y = a1 + b0·d2 + b1·d3; (x, y, x, y)
                let (a, d0) = if c & 1 == 0 { (0, 0) } else { (1, 2) };
                self.src(inst, 0, a)?;
                self.src(inst, 1, 0)?;
                self.src(inst, 2, d0)?;
                self.e(I::F32x4Mul);
                self.e(I::F32x4Add);
                self.src(inst, 1, 1)?;
                self.src(inst, 2, d0 + 1)?;
                self.e(I::F32x4Mul);
                self.e(I::F32x4Add);
            }
            O::NRM if c < 3 => {
                // a[c] · (1 / sqrt(a·a))
                self.src(inst, 0, c)?;
                self.e(one);
                self.dot3(inst, 0)?;
                self.e(I::F32x4Sqrt);
                self.e(I::F32x4Div);
                self.e(I::F32x4Mul);
            }
            O::NRM => self.e(one),
            O::NRM4 => {
                // x · (1 / sqrt(x² + y² + z² + w²)), replicated
                self.src(inst, 0, 0)?;
                self.e(one);
                self.square_sum(inst)?;
                self.e(I::F32x4Sqrt);
                self.e(I::F32x4Div);
                self.e(I::F32x4Mul);
            }
            O::FMA => {
                let a = self.src_local(inst, 0, c)?;
                let b = self.src_local(inst, 1, c)?;
                let d = self.src_local(inst, 2, c)?;
                self.lane_call(Which::Fma, &[a, b, d]);
            }
            O::LDEXP => {
                let a = self.src_local(inst, 0, c)?;
                let n = self.src_local(inst, 1, c)?;
                self.lane_call(Which::Ldexp, &[a, n]);
            }
            O::LIT => match c {
                // [1, fmax(x, 0), lit_z(x, y, w), 1]; fmax(x, 0) = x > 0 ? x : 0.
                1 => {
                    let a = self.src_local(inst, 0, 0)?;
                    self.e(I::LocalGet(a));
                    self.e(I::LocalGet(a));
                    self.e(zero);
                    self.e(I::F32x4Gt);
                    self.e(I::V128And);
                }
                2 => {
                    let x = self.src_local(inst, 0, 0)?;
                    let y = self.src_local(inst, 0, 1)?;
                    let w = self.src_local(inst, 0, 3)?;
                    self.lane_call(Which::LitZ, &[x, y, w]);
                }
                _ => self.e(one),
            },
            // Left in the sampling scratch by `sample`.
            op if is_texture(op) => {
                let at = self.sample_slot(crate::jit::host::scratch::RESULT + c);
                self.e(I::V128Load(at));
            }
            _ => return fail(format!("{} is not compiled", inst.op.name()), Some(inst)),
        }
        Ok(())
    }
}

/// `i8x16.shuffle` indices putting 32-bit lane `lanes[i]` into lane `i`.
pub(super) fn lane_bytes(lanes: [usize; 4]) -> [u8; 16] {
    std::array::from_fn(|b| (lanes[b / 4] * 4 + b % 4) as u8)
}

/// The texture family (`exec/ops/texture.rs`, `sample.rs`): sampled through the `sample` import.
pub(super) fn is_texture(op: O) -> bool {
    op.info().family == crate::opcode::Family::Texture
}

/// Derivatives: they read the other lanes of the quad.
pub(super) fn is_derivative(op: O) -> bool {
    op.info().family == crate::opcode::Family::Derivative
}

fn float_cmp(op: O) -> I<'static> {
    match op {
        O::SLT | O::FSLT => I::F32x4Lt,
        O::SGE | O::FSGE => I::F32x4Ge,
        O::SEQ | O::FSEQ => I::F32x4Eq,
        O::SNE | O::FSNE => I::F32x4Ne,
        O::SGT => I::F32x4Gt,
        _ => I::F32x4Le,
    }
}

/// Opcodes computed once from x (or a dot product) and written to every enabled channel.
fn is_replicated(op: O) -> bool {
    op.info().output == crate::opcode::OutputMode::Replicated
}

/// Not a flow instruction (flow ones are compiled by `Gen::flow`).
pub(super) fn is_alu(op: O) -> bool {
    op.info().family != crate::opcode::Family::Flow
}

/// The destinations an ALU instruction may have here: one direct register.
pub(super) fn check_alu(inst: &Inst) -> Result<(), Unsupported> {
    if inst.num_dst > 1 {
        return fail(format!("{} has two destinations", inst.op.name()), Some(inst));
    }
    if inst.num_dst == 1 {
        let d = inst.dst[0];
        if !matches!(d.store, Store::Rows { .. } | Store::None) {
            return fail(
                format!("{}: this destination is not compiled", inst.op.name()),
                Some(inst),
            );
        }
    }
    Ok(())
}
