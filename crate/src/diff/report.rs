//! `tgsi diff`'s text: the verdict, where the first difference is, both bit patterns, the
//! inputs that produced it, and both traces side by side from where they part.
//!
//! Where they part: the two programs may name registers differently and order their work
//! differently, so steps are not matched by position. The first step of A that writes, in the
//! differing lane, a value B never writes in that lane (and the same from B's side) is where
//! A computes something B does not: each trace is shown from a little before its own such step.

use super::values::{describe, float_text, same, special_name, ulps};
use super::{Difference, Found, Outcome, Place};
use crate::exec::{Trace, TraceStep};

/// Steps shown before the first unmatched one, and in all.
const CONTEXT: usize = 2;
const SHOWN: usize = 10;
/// Width of one trace column.
const COLUMN: usize = 58;

/// The values a step wrote in `lane` (only when the lane ran it).
fn written(step: &TraceStep, lane: usize) -> impl Iterator<Item = u32> + '_ {
    let ran = step.exec_mask >> lane & 1 != 0;
    step.writes.iter().filter(move |_| ran).map(move |w| w.bits[lane & 3])
}

/// The first step of `x` that writes in `lane` a value `y` never writes there (NaNs alike
/// unless `exact_nan`).
pub fn first_unmatched(x: &Trace, y: &Trace, lane: usize, exact_nan: bool) -> Option<usize> {
    let theirs: Vec<u32> = y.steps.iter().flat_map(|s| written(s, lane)).collect();
    x.steps
        .iter()
        .position(|s| written(s, lane).any(|v| !theirs.iter().any(|&t| same(v, t, exact_nan))))
}

/// A value as the step's type means it; untyped moves show as floats unless the bits look
/// like an integer (a zero exponent field), then as hex.
fn short(bits: u32, ty: &str) -> String {
    let f = f32::from_bits(bits);
    match ty {
        "int" | "int64" => (bits as i32).to_string(),
        "uint" | "uint64" => bits.to_string(),
        "float" => float_text(f),
        "untyped" if bits & 0x7f80_0000 != 0 || bits << 1 == 0 => float_text(f),
        _ => format!("0x{bits:08x}"),
    }
}

/// One step as the lines of a column: pc and instruction, then what it wrote in `lane`, one
/// line per register (`TEMP[0] x=1 y=2`).
fn step_lines(step: &TraceStep, text: &str, lane: usize, mark: char) -> Vec<String> {
    let source = crate::render::inspect::source_text(text, step.span);
    let mut lines = vec![format!("{mark}{:>3} {source}", step.pc)];
    if step.exec_mask >> lane & 1 == 0 {
        lines.push("       (this lane is off)".into());
        return lines;
    }
    let mut by_register: Vec<(String, String)> = Vec::new();
    for w in &step.writes {
        let v = format!("{}={}", w.channel, short(w.bits[lane & 3], w.ty));
        match by_register.iter_mut().find(|(r, _)| *r == w.register) {
            Some((_, s)) => {
                s.push(' ');
                s.push_str(&v);
            }
            None => by_register.push((w.register.clone(), v)),
        }
    }
    lines.extend(by_register.into_iter().map(|(r, v)| format!("       {r} {v}")));
    lines
}

/// Where a column starts: a little before its first unmatched step, or the last steps.
fn start_of(first: Option<usize>, len: usize) -> usize {
    match first {
        Some(k) => k.saturating_sub(CONTEXT),
        None => len.saturating_sub(SHOWN),
    }
}

/// The shown steps of a trace, each as its lines cut to the column's width.
fn column(trace: &Trace, text: &str, lane: usize, first: Option<usize>) -> Vec<Vec<String>> {
    let start = start_of(first, trace.steps.len());
    trace
        .steps
        .iter()
        .enumerate()
        .skip(start)
        .take(SHOWN)
        .map(|(k, s)| {
            let mark = if Some(k) == first { '>' } else { ' ' };
            step_lines(s, text, lane, mark).iter().map(|l| fit(l, COLUMN)).collect()
        })
        .collect()
}

/// Cuts a line to `width` characters (with an ellipsis), or pads it.
fn fit(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n > width {
        let mut t: String = s.chars().take(width - 1).collect();
        t.push('…');
        t
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}

fn value_line(bits: u32) -> String {
    match special_name(bits) {
        Some(name) => format!("{} = {name}", describe(bits)),
        None => describe(bits),
    }
}

fn quad_values(v: [u32; 4]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|&b| match special_name(b) {
            Some(n) => format!("0x{b:08x} ({n})"),
            None => format!("0x{b:08x} ({})", short(b, "float")),
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// The whole report. `names` are the two files as the user gave them; `seed` and `exact_nan`
/// as run.
pub fn text(
    out: &Outcome,
    names: [&str; 2],
    texts: [&str; 2],
    seed: u64,
    exact_nan: bool,
) -> String {
    let mut s = String::new();
    if out.same() && out.checked.is_empty() {
        s.push_str("no difference found, but nothing was compared to its end (see the notes)\n");
    } else if out.same() {
        s.push_str(&format!("no difference: {}\n", out.checked.join("; ")));
    }
    for i in &out.interface {
        s.push_str(&format!("interface: {i}\n"));
    }
    for n in &out.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    let Some(d) = &out.difference else {
        if !out.same() {
            s.push_str(&format!("no difference in values: {}\n", out.checked.join("; ")));
        }
        return s;
    };
    s.push_str(&format!("first difference: {}\n", place(d, seed)));
    s.push_str(&body(d, names, texts, exact_nan));
    s
}

/// One pixel of two pictures (the page's Compare mode, on a click): where, what differs there
/// (or that nothing does) and both traces.
pub fn pixel_text(d: &Difference, names: [&str; 2], texts: [&str; 2], exact_nan: bool) -> String {
    format!("{}\n{}", place(d, 0), body(d, names, texts, exact_nan))
}

/// What differs, the inputs and constants, and both traces.
fn body(d: &Difference, names: [&str; 2], texts: [&str; 2], exact_nan: bool) -> String {
    let mut s = String::new();
    match &d.found {
        Found::Output { key, channel, a, b } => {
            let c = ['x', 'y', 'z', 'w'][channel & 3];
            s.push_str(&format!("  output {key}.{c}\n"));
            s.push_str(&format!("    A: {}\n    B: {}\n", value_line(*a), value_line(*b)));
            if let Some(u) = ulps(*a, *b) {
                s.push_str(&format!("    {u} ulp(s) apart\n"));
            }
        }
        Found::Word { a, b } => {
            s.push_str(&format!("    A: {}\n    B: {}\n", value_line(*a), value_line(*b)));
        }
        Found::Killed { a, b } => {
            let said = |k: bool| if k { "kills the lane" } else { "keeps the lane" };
            s.push_str(&format!("  A {}; B {}\n", said(*a), said(*b)));
        }
        Found::Stopped { a, b } => {
            let said = |e: &Option<String>| e.clone().unwrap_or_else(|| "ran to its end".into());
            s.push_str(&format!("  A: {}\n  B: {}\n", said(a), said(b)));
        }
        Found::Same => s.push_str("  the same in both pictures\n"),
    }
    if !d.inputs.is_empty() {
        s.push_str("  inputs (the same for both):\n");
        for (k, v) in &d.inputs {
            s.push_str(&format!("    {k} = {}\n", quad_values(*v)));
        }
    }
    if !d.constants.is_empty() {
        s.push_str("  constants (the same for both):\n");
        for (k, v) in d.constants.iter().take(8) {
            s.push_str(&format!("    {k} = {}\n", quad_values(*v)));
        }
        if d.constants.len() > 8 {
            s.push_str(&format!("    … and {} more\n", d.constants.len() - 8));
        }
    }
    if let Some((ta, tb)) = &d.traces {
        let (fa, fb) = (
            first_unmatched(ta, tb, d.lane, exact_nan),
            first_unmatched(tb, ta, d.lane, exact_nan),
        );
        s.push_str(&format!(
            "  traces of lane {}{}:\n",
            d.lane,
            if fa.is_some() || fb.is_some() {
                ", each from a little before the first value the other never computes (marked >)"
            } else {
                " (both compute the same values; their last steps)"
            }
        ));
        s.push_str(&format!(
            "  {}  {}\n",
            fit(&format!(" A: {}", names[0]), COLUMN),
            fit(&format!(" B: {}", names[1]), COLUMN).trim_end()
        ));
        let (ca, cb) = (column(ta, texts[0], d.lane, fa), column(tb, texts[1], d.lane, fb));
        // Step by step: the k-th shown step of each side on the same rows.
        for k in 0..ca.len().max(cb.len()) {
            let (la, lb) = (ca.get(k).map_or(&[][..], |v| v), cb.get(k).map_or(&[][..], |v| v));
            for row in 0..la.len().max(lb.len()) {
                let left = la.get(row).cloned().unwrap_or_else(|| " ".repeat(COLUMN));
                let right = lb.get(row).map_or("", |r| r.trim_end());
                s.push_str(format!("  {left}  {right}").trim_end());
                s.push('\n');
            }
        }
    }
    s
}

fn place(d: &Difference, seed: u64) -> String {
    match &d.place {
        Place::Pixel { mesh, .. } if matches!(d.found, Found::Stopped { .. }) => {
            format!("drawing the {mesh} picture")
        }
        Place::Pixel { mesh, x, y } => {
            format!("pixel ({x}, {y}) of the {mesh} picture (x from the left, y from the top)")
        }
        Place::MeshVertex { mesh, vertex } => format!("vertex {vertex} of the {mesh} mesh"),
        Place::Trial(t) => format!("random quad {t} (--seed {seed}), lane {}", d.lane),
        Place::Dispatch { trial, buffer, word, writer } => {
            let by = writer.map_or(String::new(), |([x, y, z], i)| {
                format!(", stored by invocation {i} of block ({x}, {y}, {z}) (lane {})", d.lane)
            });
            format!(
                "dispatch {trial} (--seed {seed}): BUFFER[{buffer}] word {word} (byte {}){by}",
                word * 4
            )
        }
    }
}
