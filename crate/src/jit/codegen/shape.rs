//! What the code generator needs to know about a program's structure before emitting it: where
//! the main program ends, how deep IFs, loops, switches and inlined calls nest, and which
//! subroutine bodies the calls inline (with the inlining bounds of `limits`).

use super::*;

/// Index one past the last instruction of the main program: its top-level END (subroutine
/// bodies after it run only where a CAL inlines them).
pub(super) fn main_end(p: &Program) -> Result<usize, Unsupported> {
    let mut depth = 0i32;
    for (pc, inst) in p.code.iter().enumerate() {
        match inst.op {
            O::IF | O::UIF | O::BGNLOOP | O::SWITCH | O::BGNSUB => depth += 1,
            O::ENDIF | O::ENDLOOP | O::ENDSWITCH | O::ENDSUB => depth -= 1,
            O::END if depth == 0 => return Ok(pc),
            // tgsi_exec stops the whole batch there, whatever the masks: not a per-quad flow.
            O::END => {
                return fail(
                    "END inside IF, a loop, SWITCH or a subroutine is not compiled",
                    Some(inst),
                )
            }
            _ => {}
        }
    }
    Ok(p.code.len())
}

/// Nesting levels: IFs, loops, switches and inlined calls open at a point.
#[derive(Clone, Copy, Default)]
pub(super) struct Levels {
    pub(super) ifs: u32,
    pub(super) loops: u32,
    pub(super) switches: u32,
    pub(super) calls: u32,
}

/// What the inlining of the program's calls gives: the deepest nesting along any path (one
/// saved-mask local per level), the subroutine bodies that run, and whether the main program
/// has a RET of its own (its function mask may then lose lanes).
#[derive(Default)]
pub(super) struct Shape {
    pub(super) deepest: Levels,
    pub(super) subs: BTreeSet<(usize, usize)>,
    pub(super) inlined: usize,
    pub(super) main_ret: bool,
}

/// The nesting and inlining of `[0, end)` and every body it calls; refuses recursion, calls
/// nested deeper than `limits::MAX_JIT_CALL_DEPTH`, more than `limits::MAX_JIT_INLINED`
/// instructions inlined in all, and nesting deeper than 64.
pub(super) fn shape(p: &Program, end: usize) -> Result<Shape, Unsupported> {
    let mut s = Shape::default();
    walk(p, 0, end, Levels::default(), &mut Vec::new(), &mut s)?;
    let d = s.deepest;
    if d.ifs > 64 || d.loops > 64 || d.switches > 64 {
        return fail("nesting deeper than 64 is not compiled", None);
    }
    Ok(s)
}

pub(super) fn walk(
    p: &Program,
    from: usize,
    to: usize,
    mut at: Levels,
    calls: &mut Vec<usize>,
    s: &mut Shape,
) -> Result<(), Unsupported> {
    use crate::limits::{MAX_JIT_CALL_DEPTH, MAX_JIT_INLINED};
    let mut pc = from;
    while pc < to {
        let inst = &p.code[pc];
        match inst.op {
            O::IF | O::UIF => at.ifs += 1,
            O::ENDIF => at.ifs = at.ifs.saturating_sub(1),
            O::BGNLOOP => at.loops += 1,
            O::ENDLOOP => at.loops = at.loops.saturating_sub(1),
            O::SWITCH => at.switches += 1,
            O::ENDSWITCH => at.switches = at.switches.saturating_sub(1),
            O::RET if calls.is_empty() => s.main_ret = true,
            O::END if !calls.is_empty() => {
                return fail("END inside a subroutine is not compiled", Some(inst))
            }
            // Falling into a subroutine body skips it.
            O::BGNSUB => pc = (inst.target as usize).max(pc),
            O::CAL => {
                let (b, e) = sub_body(p, inst)?;
                if calls.contains(&b) {
                    return fail("a recursive CAL is not compiled", Some(inst));
                }
                if calls.len() >= MAX_JIT_CALL_DEPTH {
                    return fail(
                        format!("calls nested deeper than {MAX_JIT_CALL_DEPTH} are not compiled"),
                        Some(inst),
                    );
                }
                s.inlined += e - b;
                if s.inlined > MAX_JIT_INLINED {
                    return fail(
                        format!(
                            "more than {MAX_JIT_INLINED} subroutine instructions to inline are not compiled"
                        ),
                        Some(inst),
                    );
                }
                s.subs.insert((b + 1, e));
                calls.push(b);
                let inner = Levels { calls: at.calls + 1, ..at };
                bump(&mut s.deepest, inner);
                walk(p, b + 1, e, inner, calls, s)?;
                calls.pop();
            }
            _ => {}
        }
        bump(&mut s.deepest, at);
        pc += 1;
    }
    Ok(())
}

pub(super) fn bump(d: &mut Levels, at: Levels) {
    d.ifs = d.ifs.max(at.ifs);
    d.loops = d.loops.max(at.loops);
    d.switches = d.switches.max(at.switches);
    d.calls = d.calls.max(at.calls);
}

/// The BGNSUB a CAL enters and its ENDSUB.
pub(super) fn sub_body(p: &Program, cal: &Inst) -> Result<(usize, usize), Unsupported> {
    let b = cal.target as usize;
    let e = p.code.get(b).map_or(0, |i| i.target as usize);
    let op = |k: usize| p.code.get(k).map(|i| i.op);
    if op(b) != Some(O::BGNSUB) || e <= b || op(e) != Some(O::ENDSUB) {
        return fail("CAL without its BGNSUB and ENDSUB", Some(cal));
    }
    Ok((b, e))
}
