//! What a run may leave as it found it, decided once per program: the storage rows a run may
//! change (the ones to clear before the next run), the rows the program overwrites in full
//! before anything can read them (no need to clear them between runs), and whether it ever
//! changes the execution masks (no need to refill them between runs).
//!
//! Registers start at zero for every run (`docs/interpreter.md` "Registers between runs"). The
//! machine keeps its storage between runs and clears the rows the previous run may have written; a
//! row that the next run writes for every lane before any instruction reads it would be cleared for
//! nothing.

use super::program::{Inst, Layout, Store};
use crate::opcode::{Family, Opcode};

/// The rows (with the index of the instruction that writes each first) that the program's
/// opening run of lane-wise instructions writes before any instruction reads them. That run
/// starts at pc 0 and has no control flow, KILL or address instruction, so it executes once, in
/// order, with every lane active: each of its writes covers every lane. The scan stops at the
/// first other instruction, or at an indirect operand (which may read or write any row of its
/// file). Source reads are over-approximated: all four swizzled channels count as read.
pub fn prewritten_rows(code: &[Inst], rows: usize) -> Vec<(u32, u32)> {
    let mut read = vec![false; rows];
    let mut written = vec![false; rows];
    let mut found = Vec::new();
    for (pc, inst) in code.iter().enumerate() {
        // The lane-wise families write every lane of each enabled channel and read only sources.
        if !inst.lane_wise() || inst.cond_break {
            break;
        }
        let sources = inst.src.iter().take(inst.num_src as usize);
        let dsts = inst.dst.iter().take(inst.num_dst as usize);
        if sources.clone().any(|s| s.indirect.is_some() || s.dim_indirect.is_some())
            || dsts.clone().any(|d| d.indirect.is_some())
        {
            break;
        }
        for s in sources {
            if let Store::Rows { .. } = s.store {
                for c in 0..4 {
                    if let Some(slot) = s.direct_row(c).and_then(|r| read.get_mut(r as usize)) {
                        *slot = true;
                    }
                }
            }
        }
        for d in dsts {
            for c in (0..4).filter(|c| d.mask & (1 << c) != 0) {
                let Some(r) = d.row(c) else { continue };
                if let (Some(false), Some(w)) = (read.get(r).copied(), written.get_mut(r)) {
                    if !*w {
                        *w = true;
                        found.push((r as u32, pc as u32));
                    }
                }
            }
        }
    }
    found
}

/// Whether any instruction may change the execution masks: the flow family (control flow, KILL,
/// DEMOTE, the legacy address stack and old branches) and a fused conditional break. END, NOP and
/// the barriers change nothing.
pub fn touches_masks(code: &[Inst]) -> bool {
    code.iter().any(|i| {
        let quiet = matches!(i.op, Opcode::END | Opcode::NOP | Opcode::BARRIER | Opcode::MEMBAR);
        i.cond_break || (!quiet && i.op.info().family == Family::Flow)
    })
}

/// The storage rows a run may leave non-zero, as ranges `start..end` of rows in order: the
/// channels the program writes (every register of the file for an indirect write), and the
/// IN, SV and IMM-onwards rows that the set-up fills. The machine clears them (or refills them)
/// before the next run; decided here once rather than for every batch.
pub fn dirty_rows(code: &[Inst], layout: &Layout) -> Vec<(u32, u32)> {
    let rows = layout.rows as usize;
    let mut marks = vec![false; rows];
    let mut mark = |a: usize, b: usize| {
        if let Some(sl) = marks.get_mut(a.min(rows)..b.min(rows)) {
            sl.fill(true);
        }
    };
    for inst in code {
        for d in inst.dst.iter().take(inst.num_dst as usize) {
            let Store::Rows { base, count } = d.store else { continue };
            match d.indirect {
                // Only the channels written (64-bit ops write the pairs their mask names).
                None => {
                    for c in (0..4).filter(|c| d.mask & (1 << c) != 0) {
                        if let Some(r) = d.row(c) {
                            mark(r, r + 1);
                        }
                    }
                }
                Some(_) => mark(base as usize, base as usize + count as usize * 4),
            }
        }
    }
    let (inp, sv) = (layout.input.0 as usize, layout.sv.0 as usize);
    mark(inp, inp + layout.input.1 as usize * 4);
    mark(sv, sv + layout.sv.1 as usize * 4);
    mark(layout.imm.0 as usize, rows);
    let mut ranges = Vec::new();
    let mut open: Option<usize> = None;
    for (r, &d) in marks.iter().chain(std::iter::once(&false)).enumerate() {
        match (d, open) {
            (true, None) => open = Some(r),
            (false, Some(a)) => {
                ranges.push((a as u32, r as u32));
                open = None;
            }
            _ => {}
        }
    }
    ranges
}
