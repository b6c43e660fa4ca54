//! "Register never used" (tgsi_sanity's warning, `tgsi_sanity.c`) as V011: a
//! declaration none of whose registers is named by an instruction, or an immediate nobody reads.
//! References are collected as sorted index lists and each declaration asks "is there a
//! reference inside my interval?" with a binary search, so huge declarations cost nothing.

use super::regmap::{dim_keys, regs_of, two_d, TwoD, ANY_DIM};
use super::Context;
use crate::diag::Diagnostic;
use crate::ir::{DclDimension, File, RegRef};
use crate::opcode::F_TEX;
use std::collections::{HashMap, HashSet};

#[derive(Default)]
struct Uses {
    direct: HashMap<(File, u32), Vec<u32>>,
    /// Files indexed through ADDR somewhere (every declaration of them may be touched).
    indirect: HashSet<File>,
}

impl Uses {
    fn add(&mut self, processor: crate::ir::Processor, reg: &RegRef) {
        if reg.index.indirect.is_some() {
            self.indirect.insert(reg.file);
            return;
        }
        let key = match (two_d(processor, reg.file), reg.dimension) {
            (TwoD::Required, _) => ANY_DIM,
            (TwoD::Optional, Some(d)) if d.indirect.is_some() => {
                self.indirect.insert(reg.file);
                return;
            }
            (TwoD::Optional, Some(d)) => u32::try_from(d.offset).unwrap_or(u32::MAX - 1),
            _ => 0,
        };
        if let Ok(i) = u32::try_from(reg.index.offset) {
            self.direct.entry((reg.file, key)).or_default().push(i);
        }
    }
    fn hit(&self, file: File, key: u32, first: u32, last: u32) -> bool {
        self.direct.get(&(file, key)).is_some_and(|v| {
            let p = v.partition_point(|&x| x < first);
            v.get(p).is_some_and(|&x| x <= last)
        })
    }
}

pub(crate) fn check(cx: &Context, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    let mut uses = Uses::default();
    let mut imm_used = vec![false; shader.immediates.len()];
    let mut imm_indirect = false;
    for ins in &shader.instructions {
        for (_, reg) in regs_of(ins) {
            for b in reg.dimension.iter().chain(std::iter::once(&reg.index)) {
                if let Some(a) = b.indirect {
                    uses.direct.entry((a.file, 0)).or_default().push(a.index);
                }
            }
            if reg.file == File::Imm {
                match reg.index.indirect {
                    Some(_) => imm_indirect = true,
                    None => {
                        if let Some(u) =
                            usize::try_from(reg.index.offset).ok().and_then(|i| imm_used.get_mut(i))
                        {
                            *u = true;
                        }
                    }
                }
                continue;
            }
            uses.add(shader.processor, reg);
        }
        // TEX-style opcodes read the sampler view with the same unit as their SAMP operand.
        if ins.opcode.info().has(F_TEX) {
            if let Some(s) = ins.src.last().filter(|s| s.reg.file == File::Samp) {
                let mut view = s.reg;
                view.file = File::Sview;
                uses.add(shader.processor, &view);
            }
        }
    }
    for v in uses.direct.values_mut() {
        crate::sort::sort_by(v, Ord::cmp);
    }
    for d in &shader.declarations {
        if d.range.last < d.range.first || uses.indirect.contains(&d.file) {
            continue;
        }
        let keys = match (two_d(shader.processor, d.file), d.dimension) {
            (TwoD::Required, _) => {
                vec![if d.dimension == DclDimension::Implied { ANY_DIM } else { 0 }]
            }
            _ => dim_keys(d),
        };
        if keys.is_empty() {
            continue; // an oversized dimension range: reported by the limits
        }
        // Patch-style inputs of tessellation shaders are read without a vertex index.
        let used = keys.iter().any(|&k| uses.hit(d.file, k, d.range.first, d.range.last))
            || uses.hit(d.file, 0, d.range.first, d.range.last);
        if !used {
            let regs = if d.range.first == d.range.last {
                format!("{}[{}]", d.file, d.range.first)
            } else {
                format!("{}[{}..{}]", d.file, d.range.first, d.range.last)
            };
            let verb = if d.file == File::Out { "written" } else { "used" };
            out.push(Diagnostic::warning(
                "V011",
                format!("{} is declared but never {}", regs, verb),
                d.span,
            ));
        }
    }
    if imm_indirect {
        return; // IMM[ADDR[0].x] may read any immediate
    }
    for (k, (m, used)) in shader.immediates.iter().zip(&imm_used).enumerate() {
        if !used {
            out.push(Diagnostic::warning(
                "V011",
                format!("IMM[{}] is declared but never used", k),
                m.span,
            ));
        }
    }
}
