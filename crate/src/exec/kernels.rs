//! Fast kernels, decided at compile time ([`decode`]): the common lane-wise 32-bit
//! instructions whose operands are all direct registers in storage (float sources may carry
//! negate/abs) and whose one destination is direct. The decoded form is part of the program
//! (`program.rs`); `fast.rs` runs it as one pass per channel that reads the sources, computes,
//! saturates and blends into the destination row. Everything else keeps the general path
//! (`ops::execute` + `Machine::write_results`).

use super::program::{Inst, Kernel, KernelOp, Src, SrcRow, NO_SNAPSHOT};
use crate::opcode::{Opcode as O, OutputMode, ValType};

/// A source channel the kernel does not read.
const UNUSED: SrcRow =
    SrcRow { row: 0, and: u32::MAX, xor: 0, snapshot: NO_SNAPSHOT, in_place: false };

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

/// The fast form of `inst`, if it has one, with the specialised loops when this build has them
/// (cargo feature `kernel-variants`).
pub fn decode(inst: &Inst) -> Option<Kernel> {
    decode_with(inst, cfg!(feature = "kernel-variants"))
}

/// [`decode`], choosing whether the kernel may run the specialised loops (`variants`): a
/// kernel without them reads every operand through the general loop (modifiers applied,
/// destination rows through snapshots), as the widget's lean engine always does.
pub fn decode_with(inst: &Inst, variants: bool) -> Option<Kernel> {
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
            *row = u32::try_from(d.row(c)?).ok()?;
        }
    }
    let mut src = [[UNUSED; 4]; 3];
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
        variants,
    };
    mark_snapshots(&mut kernel);
    Some(kernel)
}

/// Points every source row that is also a destination row at a snapshot of it.
fn mark_snapshots(kernel: &mut Kernel) {
    let (mask, dst) = (kernel.mask, kernel.dst);
    let is_dst = |row: u32| (0..4).any(|c| mask >> c & 1 != 0 && dst[c] == row);
    // Two-source ops without modifiers read one operand per channel in place.
    let binary = kernel.num_src == 2 && !matches!(kernel.op, KernelOp::Dot(_));
    for (c, &own_row) in dst.iter().enumerate() {
        let plain = (0..2).all(|k| kernel.src[k][c].and == u32::MAX && kernel.src[k][c].xor == 0);
        if kernel.variants && binary && plain && kernel.reads(c) {
            if let Some(k) = (0..2).find(|&k| kernel.src[k][c].row == own_row) {
                kernel.src[k][c].in_place = true;
            }
        }
    }
    for k in 0..usize::from(kernel.num_src).min(3) {
        for c in 0..4 {
            let r = kernel.src[k][c];
            if !kernel.reads(c) || r.in_place || !is_dst(r.row) {
                continue;
            }
            let n = usize::from(kernel.num_snapshots).min(4);
            let slot = match kernel.snapshots[..n].iter().position(|&s| s == r.row) {
                Some(i) => i,
                None => {
                    // At most four distinct destination rows, so a slot is always free.
                    let Some(free) = kernel.snapshots.get_mut(n) else { continue };
                    *free = r.row;
                    kernel.num_snapshots += 1;
                    n
                }
            };
            kernel.src[k][c].snapshot = slot as u8;
        }
    }
}
