//! Two quads per pass ("pairs", docs/jit.md "Two quads per pass"): the module runs quads A and
//! B of a batch side by side, each with its own registers and masks, so the processor overlaps
//! two independent dependency chains (a loop whose every iteration waits on the one before is
//! otherwise bound by latency; llvmpipe runs eight lanes an instruction for the same reason).
//!
//! The code of one quad is generated as without pairs, and every straight piece of it (an ALU
//! instruction, a mask update) is emitted twice: once as is (quad A) and once with quad B's
//! locals ([`Gen::both`]). Quad B's `v128` locals are A's shifted past the last of A's; its row
//! base is `QB_B`. What decides where the code goes — whether a body is entered, a loop goes
//! on, a body is left idle — looks at both quads' exec masks ([`Gen::any_active`]). So a body
//! may now run with one quad's exec all zero: its writes are blended as before, and the work
//! is charged per quad whose exec is not all zero (`ACTIVE`, the number of such quads, set at
//! every exec update; the pending charge is multiplied by it).
//!
//! A batch with an odd number of quads runs its last quad as A and again as B (the same
//! inputs, so the same results written to the same place); `PRESENT_B` (0) keeps B's work out
//! of the count.

use super::*;

/// Quad B's copy of `v128` local `x` is `x + B_LOCAL` until [`finish_locals`] renumbers it.
const B_LOCAL: u32 = 1 << 24;
/// The extra locals of a paired `run`, renumbered by [`finish_locals`] to follow B's `v128`s.
/// Quad B's row base (`QB` + 16, or `QB` for the last quad of an odd batch).
pub(super) const QB_B: u32 = 1 << 25;
/// 1 when quad B is a quad of its own, 0 when it repeats A (i32).
pub(super) const PRESENT_B: u32 = QB_B + 1;
/// How many of the pair's quads have a non-zero exec mask, counting B only when present
/// (i64).
pub(super) const ACTIVE: u32 = QB_B + 2;

/// Quad B's local for quad A's `local` (the same local when it is shared: the parameters, the
/// row base aside, and the i32/i64 scratch).
pub(super) fn b_local(local: u32) -> u32 {
    match local {
        QB => QB_B,
        l if (EXEC..B_LOCAL).contains(&l) => l + B_LOCAL,
        l => l,
    }
}

/// `i` with quad B's locals.
fn for_b(i: &I<'static>) -> I<'static> {
    match *i {
        I::LocalGet(l) => I::LocalGet(b_local(l)),
        I::LocalSet(l) => I::LocalSet(b_local(l)),
        I::LocalTee(l) => I::LocalTee(b_local(l)),
        ref other => other.clone(),
    }
}

/// The final local numbers of a paired function whose quad-A `v128` locals end at `end`: B's
/// `v128`s follow A's, then `QB_B`, `PRESENT_B` (i32) and `ACTIVE` (i64).
pub(super) fn finish_locals(code: &mut [I<'static>], end: u32) {
    let b_count = end - EXEC;
    let renumber = |l: u32| match l {
        QB_B => end + b_count,
        PRESENT_B => end + b_count + 1,
        ACTIVE => end + b_count + 2,
        l if l >= B_LOCAL => l - B_LOCAL - EXEC + end,
        l => l,
    };
    for i in code.iter_mut() {
        match i {
            I::LocalGet(l) | I::LocalSet(l) | I::LocalTee(l) => *l = renumber(*l),
            _ => {}
        }
    }
}

/// The locals after A's `v128`s (which end at `end`) of a paired function.
pub(super) fn extra_locals(end: u32) -> impl Iterator<Item = ValType> {
    std::iter::repeat_n(ValType::V128, (end - EXEC) as usize).chain([
        ValType::I32,
        ValType::I32,
        ValType::I64,
    ])
}

impl Gen<'_> {
    /// Emits what `f` emits for quad A, then (in pairs) the same for quad B. `f` emits straight
    /// code or blocks of its own: no charge, flush or branch out of it.
    pub(super) fn both<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, Unsupported>,
    ) -> Result<T, Unsupported> {
        if !self.pairs {
            return f(self);
        }
        let start = self.code.len();
        let (depth, pending) = (self.depth, self.pending);
        let r = f(self)?;
        debug_assert_eq!((depth, pending), (self.depth, self.pending), "both: a charge or block");
        let copy: Vec<I<'static>> = self.code[start..].iter().map(for_b).collect();
        self.code.extend(copy);
        Ok(r)
    }

    /// Pushes whether a lane of mask `local` is set, in either quad of the pair.
    pub(super) fn any_active(&mut self, local: u32) {
        self.e(I::LocalGet(local));
        if self.pairs {
            self.e(I::LocalGet(b_local(local)));
            self.e(I::V128Or);
        }
        self.e(I::V128AnyTrue);
    }

    /// Pushes, as an i64, how many quads of the pair have a lane of mask `local` set (B counted
    /// when present).
    pub(super) fn count_active(&mut self, local: u32) {
        self.e(I::LocalGet(local));
        self.e(I::V128AnyTrue);
        self.e(I::LocalGet(b_local(local)));
        self.e(I::V128AnyTrue);
        self.e(I::LocalGet(PRESENT_B));
        self.e(I::I32And);
        self.e(I::I32Add);
        self.e(I::I64ExtendI32U);
    }

    /// The pair's start: B's row base and presence, and both quads active.
    pub(super) fn start_pair(&mut self) {
        // PRESENT_B = QB + 16 < QEND; QB_B = PRESENT_B ? QB + 16 : QB.
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(16));
        self.e(I::I32Add);
        self.e(I::LocalGet(QB));
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(16));
        self.e(I::I32Add);
        self.e(I::LocalGet(QEND));
        self.e(I::I32LtU);
        self.e(I::LocalTee(PRESENT_B));
        self.e(I::Select);
        self.e(I::LocalSet(QB_B));
        self.e(I::LocalGet(PRESENT_B));
        self.e(I::I64ExtendI32U);
        self.e(I::I64Const(1));
        self.e(I::I64Add);
        self.e(I::LocalSet(ACTIVE));
    }
}

impl Gen<'_> {
    /// [`Gen::both`] for code that cannot fail.
    pub(super) fn both_plain(&mut self, f: impl FnOnce(&mut Self)) {
        let _ = self.both(|g| {
            f(g);
            Ok(())
        });
    }
}
