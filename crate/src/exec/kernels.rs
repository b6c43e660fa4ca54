//! Fast kernels, decided at compile time: the common lane-wise 32-bit instructions whose
//! operands are all direct registers in storage (float sources may carry negate/abs) and whose
//! one destination is direct. `fast.rs` runs them as one pass per channel that reads the
//! sources, computes, saturates and blends into the destination row. Everything else keeps the
//! general path (`ops::execute` + `Machine::write_results`).

use super::program::{Inst, Src};
use crate::opcode::{Opcode as O, OutputMode, ValType};

/// The operation of a fast kernel (formulas in `fast.rs`, the same as the `ops` family files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelOp {
    Mov,
    Add,
    Sub,
    Mul,
    Div,
    Mad,
    Min,
    Max,
    /// DP2 / DP3 / DP4: the dot product of the first n channels, replicated.
    Dot(u8),
    Slt,
    Sge,
    Seq,
    Sne,
    Sgt,
    Sle,
    Fslt,
    Fsge,
    Fseq,
    Fsne,
    Uadd,
    Umul,
    Imin,
    Imax,
    Umin,
    Umax,
    Isge,
    Islt,
    Useq,
    Usne,
    Usge,
    Uslt,
    Shl,
    Ishr,
    Ushr,
    And,
    Or,
    Xor,
    Not,
    I2f,
    U2f,
    F2i,
    F2u,
}

/// No snapshot: the source is read from its storage row.
pub const NO_SNAPSHOT: u8 = u8::MAX;

/// One source channel: its storage row and float modifiers as `(bits & and) ^ xor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrcRow {
    pub row: u32,
    pub and: u32,
    pub xor: u32,
    /// Index into `Kernel::snapshots` when the row is also a destination row of this
    /// instruction: it is copied before any channel is written, so every read sees old values.
    pub snapshot: u8,
    /// The row is this channel's own destination row and is read in the same pass that
    /// writes it (lane by lane, so each read sees the old value): no snapshot copy.
    pub in_place: bool,
}

impl SrcRow {
    const UNUSED: SrcRow =
        SrcRow { row: 0, and: u32::MAX, xor: 0, snapshot: NO_SNAPSHOT, in_place: false };
}

/// A decoded fast instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub op: KernelOp,
    /// `_SAT` of a float result (clamped in the same pass).
    pub saturate: bool,
    /// Enabled destination channels.
    pub mask: u8,
    /// Destination storage row per channel (enabled ones only meaningful).
    pub dst: [u32; 4],
    /// `src[k][c]`: operand k for destination channel c (for `Dot`, for dot term c).
    pub src: [[SrcRow; 4]; 3],
    pub num_src: u8,
    /// Destination rows that some source reads (copied to scratch first).
    pub snapshots: [u32; 4],
    pub num_snapshots: u8,
}

fn op_of(op: O) -> Option<KernelOp> {
    use KernelOp as K;
    Some(match op {
        O::MOV => K::Mov,
        O::ADD => K::Add,
        O::SUB => K::Sub,
        O::MUL => K::Mul,
        O::DIV => K::Div,
        O::MAD => K::Mad,
        O::MIN => K::Min,
        O::MAX => K::Max,
        O::DP2 => K::Dot(2),
        O::DP3 => K::Dot(3),
        O::DP4 => K::Dot(4),
        O::SLT => K::Slt,
        O::SGE => K::Sge,
        O::SEQ => K::Seq,
        O::SNE => K::Sne,
        O::SGT => K::Sgt,
        O::SLE => K::Sle,
        O::FSLT => K::Fslt,
        O::FSGE => K::Fsge,
        O::FSEQ => K::Fseq,
        O::FSNE => K::Fsne,
        O::UADD => K::Uadd,
        O::UMUL => K::Umul,
        O::IMIN => K::Imin,
        O::IMAX => K::Imax,
        O::UMIN => K::Umin,
        O::UMAX => K::Umax,
        O::ISGE => K::Isge,
        O::ISLT => K::Islt,
        O::USEQ => K::Useq,
        O::USNE => K::Usne,
        O::USGE => K::Usge,
        O::USLT => K::Uslt,
        O::SHL => K::Shl,
        O::ISHR => K::Ishr,
        O::USHR => K::Ushr,
        O::AND => K::And,
        O::OR => K::Or,
        O::XOR => K::Xor,
        O::NOT => K::Not,
        O::I2F => K::I2f,
        O::U2F => K::U2f,
        O::F2I => K::F2i,
        O::F2U => K::F2u,
        _ => return None,
    })
}

/// Channel `c` of a source as a storage row with float modifiers; None when the source is not
/// a direct register in storage, or carries integer modifiers (two's complement: general path).
fn src_row(s: &Src, c: usize) -> Option<SrcRow> {
    let row = s.direct_row(c)?;
    let float = matches!(s.ty.unwrap_or(ValType::Float), ValType::Float | ValType::Untyped);
    if (s.negate || s.absolute) && !float {
        return None;
    }
    let and = if s.absolute { 0x7fff_ffff } else { u32::MAX };
    let xor = if s.negate { 0x8000_0000 } else { 0 };
    Some(SrcRow { row, and, xor, snapshot: NO_SNAPSHOT, in_place: false })
}

impl Kernel {
    /// The fast form of `inst`, if it has one.
    pub fn decode(inst: &Inst) -> Option<Kernel> {
        let op = op_of(inst.op)?;
        let info = inst.op.info();
        let d = inst.dst[0];
        if inst.num_dst != 1 || d.mask & 0xF == 0 || d.indirect.is_some() {
            return None;
        }
        let replicated = matches!(op, KernelOp::Dot(_));
        let expected = if replicated { OutputMode::Replicated } else { OutputMode::Component };
        if info.output != expected || usize::from(inst.num_src) != usize::from(info.num_src) {
            return None;
        }
        let num_src = usize::from(info.num_src);
        if num_src == 0 || num_src > 3 {
            return None;
        }
        let mut dst = [0u32; 4];
        for (c, row) in dst.iter_mut().enumerate() {
            if d.mask >> c & 1 != 0 {
                *row = u32::try_from(super::machine::Machine::dst_row(&d, c)?).ok()?;
            }
        }
        let mut src = [[SrcRow::UNUSED; 4]; 3];
        for (k, rows) in src.iter_mut().enumerate().take(num_src) {
            let s = inst.src.get(k)?;
            for (c, r) in rows.iter_mut().enumerate() {
                let used = match op {
                    KernelOp::Dot(n) => c < usize::from(n),
                    _ => d.mask >> c & 1 != 0,
                };
                if used {
                    *r = src_row(s, c)?;
                }
            }
        }
        let mut kernel = Kernel {
            op,
            saturate: inst.saturate && matches!(info.dst_type, ValType::Float | ValType::Untyped),
            mask: d.mask & 0xF,
            dst,
            src,
            num_src: num_src as u8,
            snapshots: [0; 4],
            num_snapshots: 0,
        };
        kernel.mark_snapshots();
        Some(kernel)
    }

    /// Whether operand channel `c` is read (a dot product reads its first n channels, other
    /// ops the enabled ones).
    pub fn reads(&self, c: usize) -> bool {
        match self.op {
            KernelOp::Dot(n) => c < usize::from(n),
            _ => self.mask >> c & 1 != 0,
        }
    }

    /// Points every source row that is also a destination row at a snapshot of it.
    fn mark_snapshots(&mut self) {
        let (mask, dst) = (self.mask, self.dst);
        let is_dst = |row: u32| (0..4).any(|c| mask >> c & 1 != 0 && dst[c] == row);
        // Two-source ops without modifiers read one operand per channel in place.
        let binary = self.num_src == 2 && !matches!(self.op, KernelOp::Dot(_));
        for (c, &own_row) in dst.iter().enumerate() {
            let plain = (0..2).all(|k| self.src[k][c].and == u32::MAX && self.src[k][c].xor == 0);
            if binary && plain && self.reads(c) {
                if let Some(k) = (0..2).find(|&k| self.src[k][c].row == own_row) {
                    self.src[k][c].in_place = true;
                }
            }
        }
        for k in 0..usize::from(self.num_src).min(3) {
            for c in 0..4 {
                let r = self.src[k][c];
                if !self.reads(c) || r.in_place || !is_dst(r.row) {
                    continue;
                }
                let n = usize::from(self.num_snapshots).min(4);
                let slot = match self.snapshots[..n].iter().position(|&s| s == r.row) {
                    Some(i) => i,
                    None => {
                        // At most four distinct destination rows, so a slot is always free.
                        let Some(free) = self.snapshots.get_mut(n) else { continue };
                        *free = r.row;
                        self.num_snapshots += 1;
                        n
                    }
                };
                self.src[k][c].snapshot = slot as u8;
            }
        }
    }
}
