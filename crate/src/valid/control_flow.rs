//! Structured control flow (tgsi_sanity.c does not check it; tgsi_exec.c `exec_instruction`; ureg's
//! labels): nesting of IF/UIF/ELSE/ENDIF, BGNLOOP/ENDLOOP, SWITCH/CASE/DEFAULT/ENDSWITCH and
//! BGNSUB/ENDSUB; BRK, CONT, RET and CAL placement; exactly one END (tgsi_sanity's V002/V010)
//! followed only by subroutines; branch targets computed from the structure, with a warning when a
//! written `:label` disagrees.
//!
//! [`match_blocks`] exposes the computed targets so the interpreter never trusts labels.

use crate::diag::Diagnostic;
use crate::ir::{Shader, Span};
use crate::opcode::Opcode;
use serde::Serialize;

/// The structural partner of one control-flow instruction (indices into `shader.instructions`).
///
/// | at | partner | end |
/// |---|---|---|
/// | IF/UIF | its ELSE, or its ENDIF when there is no ELSE (what Mesa's `:label` holds) | ENDIF |
/// | ELSE | ENDIF | ENDIF |
/// | ENDIF | the IF/UIF | ENDIF |
/// | BGNLOOP | ENDLOOP | ENDLOOP |
/// | ENDLOOP | BGNLOOP | ENDLOOP |
/// | SWITCH | ENDSWITCH | ENDSWITCH |
/// | CASE/DEFAULT | the next CASE/DEFAULT/ENDSWITCH of the same SWITCH | ENDSWITCH |
/// | ENDSWITCH | SWITCH | ENDSWITCH |
/// | BRK | the innermost ENDLOOP or ENDSWITCH | same |
/// | CONT | the innermost ENDLOOP | same |
/// | BGNSUB | ENDSUB | ENDSUB |
/// | ENDSUB | BGNSUB | ENDSUB |
/// | CAL | the BGNSUB named by its label | that ENDSUB |
/// | RET | the ENDSUB of its subroutine, or END in the main program | same |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BlockTarget {
    pub at: usize,
    pub opcode: Opcode,
    pub partner: usize,
    pub end: usize,
}

/// The target of instruction `at` in the (sorted) result of [`match_blocks`], by binary search.
pub fn target_of(targets: &[BlockTarget], at: usize) -> Option<&BlockTarget> {
    targets.binary_search_by_key(&at, |t| t.at).ok().and_then(|k| targets.get(k))
}

/// The whole analysis: targets, diagnostics and the deepest nesting seen (for the limits).
#[derive(Clone, Debug, Default)]
pub struct Structure {
    pub targets: Vec<BlockTarget>,
    pub diagnostics: Vec<Diagnostic>,
    pub max_cond_depth: usize,
    pub max_loop_depth: usize,
    pub max_switch_depth: usize,
    /// Deepest nesting of IF, loops and SWITCH together (what the interpreter's mask stacks
    /// hold at once).
    pub max_depth: usize,
    /// Deepest chain of subroutine calls from the main program (0 when it calls nothing).
    pub call_depth: usize,
    /// `first_at_depth[k][d]`: the opener that first reached depth `d + 1` for IF (k = 0),
    /// loops (1) and SWITCH (2), so a limit diagnostic points at the first block too deep.
    /// Linear in the program: one entry per new maximum.
    pub first_at_depth: [Vec<Span>; 3],
}

/// Computes each structural instruction's partner, sorted by instruction index (see
/// [`target_of`]). `Err` holds the control-flow errors when the structure is broken (warnings,
/// such as a label that disagrees, do not make it fail).
pub fn match_blocks(shader: &Shader) -> Result<Vec<BlockTarget>, Vec<Diagnostic>> {
    let s = analyze(shader);
    if s.diagnostics.iter().any(Diagnostic::is_error) {
        Err(s.diagnostics.into_iter().filter(Diagnostic::is_error).collect())
    } else {
        Ok(s.targets)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    If,
    Loop,
    Switch,
    Sub,
}

impl Kind {
    fn opener(self) -> &'static str {
        match self {
            Kind::If => "IF",
            Kind::Loop => "BGNLOOP",
            Kind::Switch => "SWITCH",
            Kind::Sub => "BGNSUB",
        }
    }
    fn closer(self) -> &'static str {
        match self {
            Kind::If => "ENDIF",
            Kind::Loop => "ENDLOOP",
            Kind::Switch => "ENDSWITCH",
            Kind::Sub => "ENDSUB",
        }
    }
}

struct Open {
    kind: Kind,
    at: usize,
    else_at: Option<usize>,
    /// The CASE/DEFAULT labels of a SWITCH, in order.
    labels: Vec<usize>,
    default_at: Option<usize>,
    /// BRK/CONT/RET instructions whose target is this block's end.
    exits: Vec<usize>,
    /// Stack position of the innermost IF, loop, SWITCH and subroutine at or below this entry,
    /// so BRK, CONT and closers find their block in constant time (deep nesting stays linear).
    nearest: [Option<usize>; 4],
}

fn slot_of(kind: Kind) -> usize {
    match kind {
        Kind::If => 0,
        Kind::Loop => 1,
        Kind::Switch => 2,
        Kind::Sub => 3,
    }
}

struct Walker<'a> {
    shader: &'a Shader,
    stack: Vec<Open>,
    partner: Vec<Option<(usize, usize)>>,
    diags: Vec<Diagnostic>,
    s: Structure,
    /// Current IF, loop and SWITCH depths.
    now: [usize; 3],
}

impl<'a> Walker<'a> {
    fn span(&self, i: usize) -> Span {
        self.shader.instructions.get(i).map(|x| x.span).unwrap_or_default()
    }
    fn name(&self, i: usize) -> &'static str {
        self.shader.instructions.get(i).map_or("?", |x| x.opcode.name())
    }
    fn set(&mut self, i: usize, partner: usize, end: usize) {
        if let Some(p) = self.partner.get_mut(i) {
            *p = Some((partner, end));
        }
    }
    fn push(&mut self, kind: Kind, at: usize) {
        let mut nearest = self.stack.last().map_or([None; 4], |o| o.nearest);
        if let Some(n) = nearest.get_mut(slot_of(kind)) {
            *n = Some(self.stack.len());
        }
        self.stack.push(Open {
            kind,
            at,
            else_at: None,
            labels: Vec::new(),
            default_at: None,
            exits: Vec::new(),
            nearest,
        });
        let span = self.span(at);
        // Depths are counted incrementally so deep nesting stays linear.
        let k = slot_of(kind);
        let (Some(now), Some(firsts)) = (self.now.get_mut(k), self.s.first_at_depth.get_mut(k))
        else {
            return;
        };
        *now += 1;
        let max = match kind {
            Kind::If => &mut self.s.max_cond_depth,
            Kind::Loop => &mut self.s.max_loop_depth,
            _ => &mut self.s.max_switch_depth,
        };
        if *now > *max {
            *max = *now;
            firsts.push(span);
        }
        self.s.max_depth = self.s.max_depth.max(self.now.iter().sum());
    }
    fn leave(&mut self, kind: Kind) {
        let slot = match kind {
            Kind::If => 0,
            Kind::Loop => 1,
            Kind::Switch => 2,
            Kind::Sub => return,
        };
        if let Some(n) = self.now.get_mut(slot) {
            *n = n.saturating_sub(1);
        }
    }
    /// Pops the top block, closing it at instruction `end`.
    fn close_top(&mut self, end: usize) {
        let Some(o) = self.stack.pop() else { return };
        self.leave(o.kind);
        let first = o.else_at.unwrap_or(end);
        self.set(o.at, first, end);
        if let Some(e) = o.else_at {
            self.set(e, end, end);
        }
        for (k, &l) in o.labels.iter().enumerate() {
            let next = o.labels.get(k + 1).copied().unwrap_or(end);
            self.set(l, next, end);
        }
        for x in o.exits {
            self.set(x, end, end);
        }
        self.set(end, o.at, end);
    }
    /// Reports a block that is still open at `at` (END or the end of the text) and drops it.
    fn report_unclosed(&mut self, o: &Open, at: Option<Span>, why: &str) {
        let mut d = Diagnostic::error(
            "V103",
            format!("{} is never closed: add {} {}", self.name(o.at), o.kind.closer(), why),
            self.span(o.at),
        );
        if let Some(s) = at {
            d = d.with_related("the block is still open here", s);
        }
        self.diags.push(d);
    }
    fn drop_all(&mut self, at: Option<Span>, why: &str) {
        while let Some(o) = self.stack.pop() {
            self.report_unclosed(&o, at, why);
        }
        self.now = [0; 3];
    }
    /// Closes the innermost block of `kind` at instruction `i` (ENDIF, ENDLOOP, …).
    fn close(&mut self, kind: Kind, i: usize) {
        let Some(pos) = self.innermost(kind) else {
            self.unmatched_closer(kind, i);
            return;
        };
        while self.stack.len() > pos + 1 {
            if let Some(inner) = self.stack.pop() {
                self.diags.push(
                    Diagnostic::error(
                        "V104",
                        format!(
                            "{} closes an outer {} while the {} inside it is still open",
                            self.name(i),
                            kind.opener(),
                            self.name(inner.at)
                        ),
                        self.span(i),
                    )
                    .with_related(
                        format!(
                            "this {} needs its {} first",
                            self.name(inner.at),
                            inner.kind.closer()
                        ),
                        self.span(inner.at),
                    )
                    .with_help(format!(
                        "add {} before this {}",
                        inner.kind.closer(),
                        self.name(i)
                    )),
                );
                self.leave(inner.kind);
            }
        }
        self.close_top(i);
    }
    fn unmatched_closer(&mut self, kind: Kind, i: usize) {
        let mut d = Diagnostic::error(
            "V102",
            format!("{} has no matching {} before it", self.name(i), kind.opener()),
            self.span(i),
        )
        .with_help(format!(
            "remove this {} or add a {} before it",
            self.name(i),
            kind.opener()
        ));
        // The block that is open here is what this closer would have to close.
        if let Some(open) = self.stack.last() {
            d = d.with_related(
                format!(
                    "the innermost open block here is this {}, closed by {}",
                    self.name(open.at),
                    open.kind.closer()
                ),
                self.span(open.at),
            );
        }
        self.diags.push(d);
    }
    /// The innermost enclosing block accepted by `want`, not crossing a subroutine boundary.
    /// Stack position of the innermost open block of `kind`, not crossing a subroutine
    /// boundary (blocks never span subroutines).
    fn innermost(&self, kind: Kind) -> Option<usize> {
        let near = self.stack.last()?.nearest;
        let pos = near.get(slot_of(kind)).copied().flatten()?;
        match near.get(3).copied().flatten() {
            Some(sub) if kind != Kind::Sub && sub > pos => None,
            _ => Some(pos),
        }
    }
    /// The innermost enclosing block among `kinds` (BRK: loop or SWITCH; CONT: loop).
    fn enclosing(&mut self, kinds: &[Kind]) -> Option<&mut Open> {
        let pos = kinds.iter().filter_map(|&k| self.innermost(k)).max()?;
        self.stack.get_mut(pos)
    }
    fn in_sub(&self) -> bool {
        self.stack.last().is_some_and(|o| o.nearest[3].is_some())
    }
}

/// Runs the whole control-flow analysis in one pass over the instructions.
pub fn analyze(shader: &Shader) -> Structure {
    let n = shader.instructions.len();
    let mut w = Walker {
        shader,
        stack: Vec::new(),
        partner: vec![None; n],
        diags: Vec::new(),
        s: Structure::default(),
        now: [0; 3],
    };
    let mut end_at: Option<usize> = None;
    let mut main_rets: Vec<usize> = Vec::new();
    let mut stray_reported = false;
    let mut cals: Vec<usize> = Vec::new();
    for (i, ins) in shader.instructions.iter().enumerate() {
        let op = ins.opcode;
        let after_end = end_at.is_some();
        let in_sub = w.in_sub();
        if after_end && !in_sub && op != Opcode::BGNSUB && op != Opcode::END {
            if !stray_reported {
                let mut d = Diagnostic::error(
                    "V111",
                    format!("{} comes after END outside a subroutine: only BGNSUB…ENDSUB may follow END", w.name(i)),
                    ins.span,
                );
                if let Some(e) = end_at {
                    d = d.with_related("the program ends here", w.span(e));
                }
                w.diags.push(d);
                stray_reported = true;
            }
        } else {
            stray_reported = false; // a new run of stray instructions gets its own report
        }
        match op {
            // IFC, BREAKC and CALLNZ are the legacy forms of IF, BRK and CAL (2010 TGSI).
            Opcode::IF | Opcode::UIF | Opcode::IFC => w.push(Kind::If, i),
            Opcode::ELSE => {
                match w.stack.last().map(|o| (o.kind, o.at, o.else_at)) {
                    Some((Kind::If, _, None)) => {
                        if let Some(o) = w.stack.last_mut() {
                            o.else_at = Some(i);
                        }
                    }
                    Some((Kind::If, _, Some(first))) => {
                        w.diags.push(
                            Diagnostic::error("V101", "this IF already has an ELSE", ins.span)
                                .with_related("the first ELSE", w.span(first))
                                .with_help("an IF has at most one ELSE: nest another IF inside it"),
                        );
                    }
                    Some((k, at, _)) => {
                        w.diags.push(
                        Diagnostic::error(
                            "V101",
                            format!("ELSE inside a {} that is not closed: ELSE must belong to an IF", k.opener()),
                            ins.span,
                        )
                        .with_related(format!("the open {}", w.name(at)), w.span(at)),
                    );
                    }
                    None => w.diags.push(Diagnostic::error(
                        "V101",
                        "ELSE has no matching IF or UIF before it",
                        ins.span,
                    )),
                }
            }
            Opcode::ENDIF => w.close(Kind::If, i),
            Opcode::BGNLOOP => w.push(Kind::Loop, i),
            Opcode::ENDLOOP => w.close(Kind::Loop, i),
            Opcode::SWITCH => w.push(Kind::Switch, i),
            Opcode::CASE | Opcode::DEFAULT => {
                let top = w.stack.last().map(|o| (o.kind, o.default_at));
                match top {
                    Some((Kind::Switch, default)) => {
                        if op == Opcode::DEFAULT {
                            if let Some(d) = default {
                                w.diags.push(
                                    Diagnostic::error(
                                        "V108",
                                        "this SWITCH already has a DEFAULT",
                                        ins.span,
                                    )
                                    .with_related("the first DEFAULT", w.span(d)),
                                );
                            }
                        } else if let Some(d) = default {
                            w.diags.push(
                                Diagnostic::warning(
                                    "V109",
                                    "CASE after DEFAULT: tgsi_exec only handles DEFAULT correctly as the last label",
                                    ins.span,
                                )
                                .with_related("the DEFAULT", w.span(d)),
                            );
                        }
                        if let Some(o) = w.stack.last_mut() {
                            o.labels.push(i);
                            if op == Opcode::DEFAULT && o.default_at.is_none() {
                                o.default_at = Some(i);
                            }
                        }
                    }
                    _ => w.diags.push(Diagnostic::error(
                        "V107",
                        format!("{} must be directly inside a SWITCH", w.name(i)),
                        ins.span,
                    )),
                }
            }
            Opcode::ENDSWITCH => w.close(Kind::Switch, i),
            Opcode::BRK | Opcode::BREAKC => match w.enclosing(&[Kind::Loop, Kind::Switch]) {
                Some(o) => o.exits.push(i),
                None => w.diags.push(
                    Diagnostic::error(
                        "V105",
                        "BRK is only allowed inside a loop or a SWITCH",
                        ins.span,
                    )
                    .with_help("put it between BGNLOOP and ENDLOOP (or SWITCH and ENDSWITCH)"),
                ),
            },
            Opcode::CONT => match w.enclosing(&[Kind::Loop]) {
                Some(o) => o.exits.push(i),
                None => w.diags.push(
                    Diagnostic::error("V106", "CONT is only allowed inside a loop", ins.span)
                        .with_help("put it between BGNLOOP and ENDLOOP"),
                ),
            },
            Opcode::BGNSUB => {
                if end_at.is_none() || !w.stack.is_empty() {
                    let mut d = Diagnostic::error(
                        "V110",
                        "a subroutine must start at the top level after END, not inside the main program or a block",
                        ins.span,
                    );
                    if let Some(o) = w.stack.last() {
                        d = d.with_related(format!("inside this {}", w.name(o.at)), w.span(o.at));
                    }
                    w.diags.push(d);
                }
                w.push(Kind::Sub, i);
            }
            Opcode::ENDSUB => w.close(Kind::Sub, i),
            Opcode::RET => match w.enclosing(&[Kind::Sub]) {
                Some(o) => o.exits.push(i),
                None if end_at.is_none() => main_rets.push(i),
                None => {} // reported as V111
            },
            Opcode::CAL | Opcode::CALLNZ => cals.push(i),
            Opcode::BRA => w.diags.push(Diagnostic::error(
                "V116",
                "BRA (an unstructured jump of 2010's TGSI) cannot be run: use IF/UIF, loops or CAL",
                ins.span,
            )),
            Opcode::END => {
                if let Some(first) = end_at {
                    w.diags.push(
                        Diagnostic::error(
                            "V002",
                            "more than one END: a shader has exactly one",
                            ins.span,
                        )
                        .with_related("the first END", w.span(first)),
                    );
                } else {
                    end_at = Some(i);
                    let span = ins.span;
                    w.drop_all(Some(span), "before END");
                    for r in main_rets.drain(..) {
                        w.set(r, i, i);
                    }
                }
            }
            _ => {}
        }
    }
    let tail = shader.instructions.last().map(|x| x.span);
    w.drop_all(tail, "before the end of the program");
    if end_at.is_none() {
        let at =
            shader.instructions.last().map(|x| Span::new(x.span.end as usize, x.span.end as usize));
        w.diags.push(Diagnostic::error(
            "V010",
            "the program has no END instruction",
            at.unwrap_or(shader.header_span),
        ));
    }
    resolve_calls(&mut w, &cals);
    check_labels(&mut w);
    let Walker { partner, mut diags, mut s, .. } = w;
    s.targets = partner
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let (partner, end) = (*p)?;
            let opcode = shader.instructions.get(i)?.opcode;
            Some(BlockTarget { at: i, opcode, partner, end })
        })
        .collect();
    let (depth, recursive) = super::limits::call_graph(shader, &s.targets);
    s.call_depth = depth;
    if let Some(at) = recursive.and_then(|i| shader.instructions.get(i)) {
        diags.push(Diagnostic::error(
            "V115",
            "this CAL makes a subroutine call itself, directly or through others: recursion is not supported",
            at.span,
        ));
    }
    s.diagnostics = diags;
    s
}

/// CAL needs a `:label` that is the index of a BGNSUB (V112, V113).
fn resolve_calls(w: &mut Walker, cals: &[usize]) {
    for &i in cals {
        let Some(ins) = w.shader.instructions.get(i) else { continue };
        let Some(label) = ins.label else {
            w.diags.push(Diagnostic::error(
                "V112",
                "CAL needs a :label giving the instruction number of its BGNSUB",
                ins.span,
            ));
            continue;
        };
        let target = w.shader.instructions.get(label as usize);
        match target {
            Some(t) if t.opcode == Opcode::BGNSUB => {
                let end = w
                    .partner
                    .get(label as usize)
                    .copied()
                    .flatten()
                    .map_or(label as usize, |(_, e)| e);
                w.set(i, label as usize, end);
            }
            Some(t) => {
                let name = t.opcode.name();
                w.diags.push(
                    Diagnostic::error(
                        "V113",
                        format!("CAL :{} points at {}, not at a BGNSUB", label, name),
                        ins.span,
                    )
                    .with_related(format!("instruction {} is this {}", label, name), t.span),
                );
            }
            None => w.diags.push(Diagnostic::error(
                "V113",
                format!(
                    "CAL :{} points past the last instruction ({} instructions)",
                    label,
                    w.shader.instructions.len()
                ),
                ins.span,
            )),
        }
    }
}

/// V114: a written label that disagrees with the structure. Loops and subroutines carry `:0`
/// in real dumps (Mesa never sets those labels), so 0 is accepted there.
fn check_labels(w: &mut Walker) {
    for (i, ins) in w.shader.instructions.iter().enumerate() {
        let Some(label) = ins.label else { continue };
        let Some((partner, _)) = w.partner.get(i).copied().flatten() else { continue };
        let zero_ok = matches!(ins.opcode, Opcode::BGNLOOP | Opcode::ENDLOOP | Opcode::BGNSUB);
        let checked =
            matches!(ins.opcode, Opcode::IF | Opcode::UIF | Opcode::IFC | Opcode::ELSE) || zero_ok;
        if !checked || label as usize == partner || (zero_ok && label == 0) {
            continue;
        }
        let name = ins.opcode.name();
        let partner_name = w.shader.instructions.get(partner).map_or("?", |p| p.opcode.name());
        w.diags.push(
            Diagnostic::warning(
                "V114",
                format!(
                    "{} :{} disagrees with the structure: its {} is instruction {}, so the label should be :{}",
                    name, label, partner_name, partner, partner
                ),
                ins.span,
            )
            .with_related(format!("the matching {}", partner_name), w.span(partner)),
        );
    }
}
