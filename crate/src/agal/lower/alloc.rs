//! The export's final passes over the AGAL code: empty branches removed (Flash `#3748`),
//! temporaries that TGSI reads before every path wrote them set to zero (TGSI temporaries start
//! at zero; Flash rejects such reads, `#3647`/`#3648`), single-lane writes given replicated
//! swizzles (docs/agal.md "Semantics"), and virtual temporaries mapped to 8 or 26 registers by
//! liveness.

use super::operands::ZERO;
use super::Lower;
use crate::agal::bytecode::*;
use crate::agal::flow::{components_read, lanes_read};
use crate::diag::Diagnostic;
use std::collections::HashMap;

pub fn finish(l: &mut Lower) {
    remove_empty_branches(l);
    fold_output_copies(l);
    zero_init(l);
    replicate_single_lanes(l);
    allocate(l);
    remove_self_moves(l);
    super::io::fill_layout(l);
}

fn is_if(op: u8) -> bool {
    matches!(op, opc::IFE | opc::INE | opc::IFG | opc::IFL)
}

fn remove(l: &mut Lower, at: usize) {
    if at < l.code.len() {
        l.code.remove(at);
        l.origin.remove(at);
    }
}

/// `if…eif` with nothing inside is dropped; `if…els` with an empty first branch becomes the
/// inverted test; `els` directly before `eif` is dropped. One pass with the output as a stack.
fn remove_empty_branches(l: &mut Lower) {
    let code = std::mem::take(&mut l.code);
    let origin = std::mem::take(&mut l.origin);
    let mut out: Vec<Instruction> = Vec::with_capacity(code.len());
    let mut org: Vec<Option<usize>> = Vec::with_capacity(code.len());
    for (ins, o) in code.into_iter().zip(origin) {
        let last = out.last().map(|i| i.op);
        match (last, ins.op) {
            (Some(opc::ELS), opc::EIF) => {
                out.pop();
                org.pop();
                if out.last().is_some_and(|i| is_if(i.op)) {
                    out.pop();
                    org.pop();
                } else {
                    out.push(ins);
                    org.push(o);
                }
            }
            (Some(a), opc::EIF) if is_if(a) => {
                out.pop();
                org.pop();
            }
            (Some(a @ (opc::INE | opc::IFE)), opc::ELS) => {
                if let Some(top) = out.last_mut() {
                    top.op = if a == opc::INE { opc::IFE } else { opc::INE };
                }
            }
            _ => {
                out.push(ins);
                org.push(o);
            }
        }
    }
    l.code = out;
    l.origin = org;
}

/// Temporaries (and their components) read where not every path has written them.
fn undefined_reads(code: &[Instruction]) -> HashMap<u16, u8> {
    type State = HashMap<u16, u8>;
    let mut state: State = HashMap::new();
    let mut stack: Vec<(State, Option<State>)> = Vec::new();
    let mut need: HashMap<u16, u8> = HashMap::new();
    let meet = |a: &State, b: &State| -> State {
        a.iter().filter_map(|(k, &m)| b.get(k).map(|&n| (*k, m & n))).collect()
    };
    for ins in code {
        for (slot, s) in ins.sources().enumerate() {
            let mut check = |v: u16, comps: u8| {
                let missing = comps & !state.get(&v).copied().unwrap_or(0);
                if missing != 0 {
                    *need.entry(v).or_insert(0) |= missing;
                }
            };
            if let Some(ir) = s.indirect.filter(|ir| ir.reg == RegType::Temporary) {
                check(ir.index, 1 << ir.component);
            }
            if s.reg == RegType::Temporary && s.indirect.is_none() {
                check(s.index, components_read(s, lanes_read(ins, slot)));
            }
        }
        match ins.op {
            op if is_if(op) => stack.push((state.clone(), None)),
            opc::ELS => {
                if let Some(top) = stack.last_mut() {
                    top.1 = Some(std::mem::replace(&mut state, top.0.clone()));
                }
            }
            opc::EIF => {
                if let Some((pre, then)) = stack.pop() {
                    state = meet(then.as_ref().unwrap_or(&pre), &state);
                }
            }
            _ => {}
        }
        if let Some(d) = ins.dest.filter(|d| d.reg == RegType::Temporary) {
            *state.entry(d.index).or_insert(0) |= d.mask;
        }
    }
    need
}

fn temps_of(ins: &Instruction) -> Vec<u16> {
    let mut v = Vec::new();
    if let Some(d) = ins.dest.filter(|d| d.reg == RegType::Temporary) {
        v.push(d.index);
    }
    for s in ins.sources() {
        if s.reg == RegType::Temporary && s.indirect.is_none() {
            v.push(s.index);
        }
        if let Some(ir) = s.indirect.filter(|ir| ir.reg == RegType::Temporary) {
            v.push(ir.index);
        }
    }
    v
}

/// Inserts `mov t.mask, 0` before the first use of each temporary that needs it, hoisted out of
/// conditional blocks so that every lane starts from zero as in TGSI.
fn zero_init(l: &mut Lower) {
    let need = undefined_reads(&l.code);
    if need.is_empty() {
        return;
    }
    let mut inserts: Vec<(usize, u16, u8)> = Vec::new();
    let mut open_ifs: Vec<usize> = Vec::new();
    let mut seen: std::collections::HashSet<u16> = std::collections::HashSet::new();
    for (pc, ins) in l.code.iter().enumerate() {
        if ins.op == opc::EIF {
            open_ifs.pop();
        }
        for t in temps_of(ins) {
            if seen.insert(t) {
                if let Some(&mask) = need.get(&t) {
                    inserts.push((open_ifs.first().copied().unwrap_or(pc), t, mask));
                }
            }
        }
        if is_if(ins.op) {
            open_ifs.push(pc);
        }
    }
    let zero = l.special(ZERO);
    inserts.sort_by_key(|x| std::cmp::Reverse(x.0));
    for (at, t, mask) in inserts {
        let mov = Instruction {
            op: opc::MOV,
            dest: Some(Dest { reg: RegType::Temporary, index: t, mask }),
            src1: Some(zero),
            src2: None,
            sampler: None,
        };
        l.code.insert(at, mov);
        l.origin.insert(at, None);
    }
}

/// Ops whose sources are read lane by lane into the same lane of the result.
fn component_wise(op: u8) -> bool {
    !matches!(
        op,
        opc::DP3
            | opc::DP4
            | opc::M33
            | opc::M34
            | opc::M44
            | opc::CRS
            | opc::NRM
            | opc::TEX
            | opc::TED
            | opc::TLD
            | opc::KIL
            | opc::IFE
            | opc::INE
            | opc::IFG
            | opc::IFL
    )
}

/// A write of one lane reads that lane's component from every source; writing the swizzle
/// replicated makes Ruffle (which takes lane 0) agree with everyone else (docs/agal.md
/// "Semantics").
fn replicate_single_lanes(l: &mut Lower) {
    for ins in &mut l.code {
        let Some(d) = ins.dest else { continue };
        if d.mask.count_ones() != 1 || !component_wise(ins.op) {
            continue;
        }
        let lane = d.mask.trailing_zeros() as usize;
        for s in [&mut ins.src1, &mut ins.src2].into_iter().flatten() {
            s.swizzle = (s.lane(lane) as u8) * 0x55;
        }
    }
}

/// Linear-scan allocation on live intervals [first use, last use]. Without loops every path
/// runs forward through the code, so the intervals are exact enough.
fn allocate(l: &mut Lower) {
    let mut first: HashMap<u16, usize> = HashMap::new();
    let mut last: HashMap<u16, usize> = HashMap::new();
    for (pc, ins) in l.code.iter().enumerate() {
        for t in temps_of(ins) {
            first.entry(t).or_insert(pc);
            last.insert(t, pc);
        }
    }
    let mut order: Vec<u16> = first.keys().copied().collect();
    order.sort_by_key(|t| (first[t], *t));
    let limit = limits(l.version).temporaries as usize;
    let mut phys_free_at: Vec<Option<(usize, u16)>> = vec![None; limit];
    let mut map: HashMap<u16, u16> = HashMap::new();
    for t in order {
        let start = first[&t];
        let reuse_same_pc = l.code.get(start).is_some_and(|i| component_wise(i.op));
        let slot = phys_free_at.iter().position(|p| match p {
            None => true,
            Some((end, _)) => *end < start || (*end == start && reuse_same_pc),
        });
        match slot {
            Some(p) => {
                phys_free_at[p] = Some((last[&t], t));
                map.insert(t, p as u16);
            }
            None => {
                let span = l
                    .origin
                    .get(start)
                    .copied()
                    .flatten()
                    .and_then(|i| l.shader.instructions.get(i))
                    .map(|i| i.span)
                    .unwrap_or_default();
                l.diags.push(Diagnostic::error(
                    "A0201",
                    format!("more than {} temporaries are live here: the limit of AGAL {} is {} temporary registers", limit, l.version, limit),
                    span,
                ));
                return;
            }
        }
    }
    let m = |i: u16| map.get(&i).copied().unwrap_or(i);
    for ins in &mut l.code {
        if let Some(d) = ins.dest.as_mut().filter(|d| d.reg == RegType::Temporary) {
            d.index = m(d.index);
        }
        for s in [&mut ins.src1, &mut ins.src2].into_iter().flatten() {
            if s.reg == RegType::Temporary && s.indirect.is_none() {
                s.index = m(s.index);
            }
            if let Some(ir) = s.indirect.as_mut().filter(|ir| ir.reg == RegType::Temporary) {
                ir.index = m(ir.index);
            }
        }
    }
}

/// `mov vt0, vt0` left over when an output and the temporary it copies share a register.
fn remove_self_moves(l: &mut Lower) {
    let mut i = 0;
    while i < l.code.len() {
        let ins = l.code[i];
        let useless = ins.op == opc::MOV
            && matches!((ins.dest, ins.src1), (Some(d), Some(s))
                if d.reg == RegType::Temporary && s.reg == RegType::Temporary && s.indirect.is_none()
                    && d.index == s.index && (0..4).all(|c| d.mask & (1 << c) == 0 || s.lane(c) == c));
        if useless {
            remove(l, i);
        } else {
            i += 1;
        }
    }
}

/// `add vt3, …` then `mov oc, vt3` (the final output copy) becomes `add oc, …` when vt3 is
/// written once, in full, outside conditionals, and read only by that copy.
fn fold_output_copies(l: &mut Lower) {
    let mut i = 0;
    while i < l.code.len() {
        let fin = l.code[i];
        let foldable = matches!((fin.op, fin.dest, fin.src1), (opc::MOV, Some(d), Some(s))
            if matches!(d.reg, RegType::Output | RegType::Varying) && d.mask == 0xF
                && s.reg == RegType::Temporary && s.indirect.is_none() && s.swizzle == SWIZZLE_IDENTITY);
        let t = fin.src1.map(|s| s.index).unwrap_or(0);
        let mut writer = None;
        let mut ok = foldable;
        let mut depth = 0usize;
        for (pc, ins) in l.code.iter().enumerate().take(i) {
            match ins.op {
                op if is_if(op) => depth += 1,
                opc::EIF => depth = depth.saturating_sub(1),
                _ => {}
            }
            if !ok {
                break;
            }
            let reads = ins.sources().any(|s| {
                (s.reg == RegType::Temporary && s.index == t)
                    || s.indirect.is_some_and(|ir| ir.reg == RegType::Temporary && ir.index == t)
            });
            let writes = ins.dest.is_some_and(|d| d.reg == RegType::Temporary && d.index == t);
            if reads
                || (writes
                    && (writer.is_some() || depth > 0 || ins.dest.map(|d| d.mask) != Some(0xF)))
            {
                ok = false;
            } else if writes {
                writer = Some(pc);
            }
        }
        let later_use = l.code.iter().skip(i + 1).any(|ins| temps_of(ins).contains(&t));
        match writer {
            Some(w) if ok && !later_use => {
                if let Some(d) = l.code.get_mut(w).and_then(|ins| ins.dest.as_mut()) {
                    *d = fin.dest.unwrap_or(*d);
                }
                remove(l, i);
            }
            _ => i += 1,
        }
    }
}
