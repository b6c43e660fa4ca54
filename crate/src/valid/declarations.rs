//! tgsi_sanity's checks (Mesa's `tgsi_sanity.c`), reported as errors with spans:
//! register files (V001), opcodes (V003), operand counts (V004), undeclared registers (V005),
//! empty write masks (V006), statement order (V007), registers declared twice (V008, or the
//! V014 warning for a word-for-word repeat), immediate types (V009); plus inverted ranges (V012)
//! and array ids (V013).
//! The END checks (V002, V010) live in `control_flow`, the unused-register warning in `usage`.

use super::regmap::{ref_dim_key, regs_of, Role};
use super::Context;
use crate::diag::Diagnostic;
use crate::ir::{File, ImmType, Instruction, RegRef, SemanticName, Shader, Statement};

pub(crate) fn check(cx: &Context, profile: &super::Profile, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    check_order(shader, out);
    for d in &shader.declarations {
        if d.file == File::Null {
            out.push(Diagnostic::error(
                "V001",
                "NULL is not a register file that can be declared",
                d.span,
            ));
        }
        if d.range.last < d.range.first {
            out.push(Diagnostic::error(
                "V012",
                format!(
                    "the range {}..{} is inverted: the first register must not exceed the last",
                    d.range.first, d.range.last
                ),
                d.range.span,
            ));
        }
        if let Some(id) = d.array_id {
            // ArrayID is a 10-bit field in Mesa's tokens; 0 means "no array".
            if !(1..=1023).contains(&id) {
                out.push(Diagnostic::error(
                    "V013",
                    format!("array id {} is out of range: use 1 to 1023", id),
                    d.span,
                ));
            }
        }
    }
    for imm in &shader.immediates {
        if matches!(imm.ty, ImmType::Flt64 | ImmType::Uint64 | ImmType::Int64) {
            // A note about the profile, not a problem: softpipe and the playground run 64-bit
            // immediates; only Mesa's checker (which predates them) would complain.
            out.push(Diagnostic::note(
                "V009",
                format!("{} immediate: the {} profile runs 64-bit values; Mesa's tgsi_sanity (which knows FLT32, UINT32 and INT32 only) would report it", imm.ty, profile.name),
                imm.span,
            ));
        }
    }
    check_duplicates(cx, out);
    for ins in &shader.instructions {
        let info = ins.opcode.info();
        if ins.dst.len() != info.num_dst as usize {
            out.push(Diagnostic::error(
                "V004",
                format!(
                    "{} takes {} destination operand(s), not {}",
                    info.name,
                    info.num_dst,
                    ins.dst.len()
                ),
                ins.span,
            ));
        }
        if ins.src.len() != info.num_src as usize {
            out.push(Diagnostic::error(
                "V004",
                format!(
                    "{} takes {} source operand(s), not {}",
                    info.name,
                    info.num_src,
                    ins.src.len()
                ),
                ins.span,
            ));
        }
        for d in &ins.dst {
            if d.write_mask.0 & 0xF == 0 {
                out.push(Diagnostic::error(
                    "V006",
                    "the destination writes no channel (empty write mask)",
                    d.span,
                ));
            }
        }
        check_declared(cx, ins, out);
    }
}

/// V007: declarations and immediates must precede the first instruction.
fn check_order(shader: &Shader, out: &mut Vec<Diagnostic>) {
    let mut first_instruction = None;
    for st in &shader.order {
        match *st {
            Statement::Instruction(i) => {
                if first_instruction.is_none() {
                    first_instruction = shader.instructions.get(i).map(|x| x.span);
                }
            }
            Statement::Declaration(i) => {
                if let (Some(at), Some(d)) = (first_instruction, shader.declarations.get(i)) {
                    out.push(
                        Diagnostic::error(
                            "V007",
                            "declarations must come before the first instruction",
                            d.span,
                        )
                        .with_related("the first instruction", at),
                    );
                }
            }
            Statement::Immediate(i) => {
                if let (Some(at), Some(m)) = (first_instruction, shader.immediates.get(i)) {
                    out.push(
                        Diagnostic::error(
                            "V007",
                            "immediates must come before the first instruction",
                            m.span,
                        )
                        .with_related("the first instruction", at),
                    );
                }
            }
            Statement::Property(_) => {}
        }
    }
}

/// V008: two declarations covering the same register (per file and dimension). Sorting the
/// intervals makes this `n log n`; patch-style semantics are exempt as in tgsi_sanity.
/// V014 (a warning) instead when the second repeats the first word for word: Mesa's front ends
/// emit such repeats (64-bit varyings sharing an output), tgsi_sanity's complaint about them is
/// silent unless `TGSI_PRINT_SANITY` is set (`report_error` in `tgsi_sanity.c`), and tgsi_exec
/// runs the shader as if the repeat were not there.
fn check_duplicates(cx: &Context, out: &mut Vec<Diagnostic>) {
    let decls = &cx.shader.declarations;
    let exempt = |i: usize| {
        decls.get(i).and_then(|d| d.semantic).is_some_and(|s| {
            matches!(
                s.name,
                SemanticName::Patch | SemanticName::TessInner | SemanticName::TessOuter
            )
        })
    };
    let mut found: Vec<(usize, usize, u32)> = Vec::new();
    for (_, _, entries) in cx.decls.groups() {
        // Track the entry reaching furthest so far; any later entry starting inside it overlaps.
        let mut furthest: Option<super::regmap::Entry> = None;
        for e in entries {
            if let Some(f) = furthest {
                if e.first <= f.last && e.decl != f.decl && !exempt(e.decl) && !exempt(f.decl) {
                    found.push((e.decl, f.decl, e.first));
                }
            }
            if furthest.is_none_or(|f| e.last > f.last) {
                furthest = Some(*e);
            }
        }
    }
    // A 2-D declaration appears in several groups: report each pair once.
    crate::sort::sort_by(&mut found, Ord::cmp);
    found.dedup_by_key(|(a, b, _)| (*a, *b));
    for (later, earlier, reg) in found {
        let (Some(a), Some(b)) = (decls.get(later), decls.get(earlier)) else { continue };
        // Report on the declaration that comes second in the text.
        let (second, first) = if a.span.start >= b.span.start { (a, b) } else { (b, a) };
        if second.same_apart_from_spans(first) {
            out.push(
                Diagnostic::warning(
                    "V014",
                    format!("{}[{}] is declared again, word for word", second.file, reg),
                    second.span,
                )
                .with_related("first declared here", first.span),
            );
            continue;
        }
        out.push(
            Diagnostic::error(
                "V008",
                format!("{}[{}] is declared more than once", second.file, reg),
                second.span,
            )
            .with_related("first declared here", first.span),
        );
    }
}

/// V001/V005 on every register an instruction names.
fn check_declared(cx: &Context, ins: &Instruction, out: &mut Vec<Diagnostic>) {
    for (role, reg) in regs_of(ins) {
        check_reg(cx, role, reg, out);
    }
}

fn check_reg(cx: &Context, role: Role, reg: &RegRef, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    for b in reg.dimension.iter().chain(std::iter::once(&reg.index)) {
        if let Some(ind) = b.indirect {
            if ind.file == File::Null {
                out.push(Diagnostic::error("V001", "NULL is not a register file", ind.span));
            } else if ind.file == File::Addr
                && cx.decls.find(File::Addr, 0, ind.index as i64).is_none()
            {
                out.push(Diagnostic::error(
                    "V005",
                    format!("ADDR[{}] is used as an address but not declared", ind.index),
                    ind.span,
                ));
            }
        }
    }
    if reg.file == File::Null {
        out.push(Diagnostic::error("V001", "NULL is not a register file", reg.span));
        return;
    }
    let what = match role {
        Role::Dst(_) => "destination",
        Role::Src(_) | Role::TexOffset(_) => "source",
    };
    // Indirect sources only need some register of the file declared (as tgsi_sanity); indirect
    // destinations are checked at their offset, like Mesa does.
    let indirect_src = reg.index.indirect.is_some() && !matches!(role, Role::Dst(_));
    if reg.file == File::Imm {
        let ok = if indirect_src {
            !shader.immediates.is_empty()
        } else {
            reg.index.offset >= 0 && (reg.index.offset as u64) < shader.immediates.len() as u64
        };
        if !ok {
            let mut d = Diagnostic::error(
                "V005",
                format!(
                    "{} register IMM[{}] does not exist: the shader has {} immediate(s)",
                    what,
                    reg.index.offset,
                    shader.immediates.len()
                ),
                reg.span,
            );
            if let Some(last) = shader.immediates.last() {
                d = d.with_related(
                    format!("the last immediate, IMM[{}]", shader.immediates.len() - 1),
                    last.span,
                );
            }
            out.push(d.with_help(format!(
                "add immediates up to IMM[{}] or use an existing one",
                reg.index.offset
            )));
        }
        return;
    }
    let ok = if indirect_src {
        cx.decls.has_file(reg.file)
    } else {
        match ref_dim_key(shader.processor, reg) {
            Some(k) => cx.decls.find(reg.file, k, reg.index.offset).is_some(),
            None => cx.decls.has_file(reg.file),
        }
    };
    if !ok {
        let name = if indirect_src {
            format!(
                "{} register file {} is indexed indirectly but none of it is declared",
                what, reg.file
            )
        } else {
            format!("{} register {} is not declared", what, reg_text(reg))
        };
        out.push(undeclared_context(shader, reg, Diagnostic::error("V005", name, reg.span)));
    }
}

/// Labels the declarations of the file a V005 register belongs to (the ones a reader would
/// compare the index with), and says how to declare it.
fn undeclared_context(shader: &Shader, reg: &RegRef, mut d: Diagnostic) -> Diagnostic {
    let same_file: Vec<_> = shader.declarations.iter().filter(|x| x.file == reg.file).collect();
    // At most three labels: a long list of declarations helps no one.
    for decl in same_file.iter().take(3) {
        let range = if decl.range.first == decl.range.last {
            format!("{}[{}]", decl.file, decl.range.first)
        } else {
            format!("{}[{}..{}]", decl.file, decl.range.first, decl.range.last)
        };
        d = d.with_related(format!("{} is declared here", range), decl.span);
    }
    if same_file.is_empty() {
        d = d.with_note(format!("the shader declares no {} registers", reg.file));
    }
    if reg.index.indirect.is_none() {
        d = d.with_help(format!(
            "declare it (for example `DCL {}`) or use a declared register",
            reg_text(reg)
        ));
    }
    d
}

/// `FILE[d][i]` as written, for messages (indirect parts shown as `ADDR[n]+k`).
pub(crate) fn reg_text(reg: &RegRef) -> String {
    let b = |x: &crate::ir::Bracket| match x.indirect {
        Some(a) => format!("[{}[{}]{:+}]", a.file, a.index, x.offset),
        None => format!("[{}]", x.offset),
    };
    let mut s = reg.file.name().to_string();
    if let Some(d) = &reg.dimension {
        s.push_str(&b(d));
    }
    s.push_str(&b(&reg.index));
    s
}
