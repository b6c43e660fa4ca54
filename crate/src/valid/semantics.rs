//! Semantic indices (the Gallium semantics RFC (mesa-dev), the six limitations of its summary):
//! NORMAL is removed (V401: an error, a warning in legacy text); semantics other than GENERIC,
//! COLOR and BCOLOR take index 0 only (V402); COLOR and BCOLOR take 0..1 except on fragment
//! outputs (V403); GENERIC 0..218 is portable, 0..216 when BCOLOR is used, up to 255 with a
//! portability warning (V404), beyond that an error (V405); no (semantic, index) twice in one
//! register file (V406).
//!
//! Semantics added to Gallium after the RFC have their own index ranges in `tgsi.rst`:
//! TEXCOORD 0..7, CLIPDIST 0..1 (two vec4 of distances), PATCH 0..31 (per-patch attributes).
//! A declaration of a range gives consecutive indices (`DCL OUT[1..3], GENERIC[4]` is
//! GENERIC[4..6]), handled as an interval.

use super::Context;
use crate::diag::Diagnostic;
use crate::ir::{Declaration, File, Processor, SemanticName};

/// Largest GENERIC index every driver supports (SM3's 219 slots) without BCOLOR …
pub const GENERIC_PORTABLE_MAX: u64 = 218;
/// … and with BCOLOR, which takes two of those slots.
pub const GENERIC_PORTABLE_MAX_WITH_BCOLOR: u64 = 216;
/// Largest GENERIC index accepted at all ("almost all drivers").
pub const GENERIC_MAX: u64 = 255;

/// Indices of one declaration's semantic, as an inclusive interval (never expanded).
pub fn semantic_interval(d: &Declaration) -> Option<(u64, u64)> {
    let s = d.semantic?;
    let first = s.index as u64;
    Some((first, first + d.range.count().max(1) - 1))
}

/// The largest index allowed for a semantic other than GENERIC, or `None` for no limit here.
fn max_index(name: SemanticName, fragment_output: bool) -> Option<u64> {
    use SemanticName::*;
    match name {
        Generic => None,
        Color if fragment_output => None,
        Color | BColor => Some(1),
        TexCoord => Some(7),
        ClipDist => Some(1),
        Patch => Some(31),
        _ => Some(0),
    }
}

pub(crate) fn check(cx: &Context, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    let uses_bcolor = shader
        .declarations
        .iter()
        .any(|d| d.semantic.is_some_and(|s| s.name == SemanticName::BColor));
    let portable =
        if uses_bcolor { GENERIC_PORTABLE_MAX_WITH_BCOLOR } else { GENERIC_PORTABLE_MAX };
    for d in &shader.declarations {
        let (Some(sem), Some((first, last))) = (d.semantic, semantic_interval(d)) else { continue };
        let fragment_output = shader.processor == Processor::Fragment && d.file == File::Out;
        if sem.name == SemanticName::Normal {
            let text = "NORMAL was removed from Gallium: pass normals as GENERIC[n]";
            out.push(if cx.legacy {
                Diagnostic::warning("V401", text, sem.span)
            } else {
                Diagnostic::error("V401", text, sem.span)
            });
            continue;
        }
        if sem.name == SemanticName::Generic {
            if last > GENERIC_MAX {
                out.push(Diagnostic::error(
                    "V405",
                    format!(
                        "GENERIC[{}] is out of range: GENERIC indices go from 0 to {}",
                        last, GENERIC_MAX
                    ),
                    sem.span,
                ));
            } else if last > portable {
                let why = if uses_bcolor { " because BCOLOR is used" } else { "" };
                out.push(Diagnostic::warning(
                    "V404",
                    format!(
                        "GENERIC[{}] is not portable: every driver supports 0..{}{}",
                        last, portable, why
                    ),
                    sem.span,
                ));
            }
            continue;
        }
        if let Some(max) = max_index(sem.name, fragment_output) {
            if last > max {
                let (code, text) = if max == 0 {
                    ("V402", format!("{} takes index 0 only, not {}", sem.name, last.max(first)))
                } else if matches!(sem.name, SemanticName::Color | SemanticName::BColor) {
                    (
                        "V403",
                        format!(
                            "{}[{}] is out of range: {} takes index 0 or 1",
                            sem.name, last, sem.name
                        ),
                    )
                } else {
                    (
                        "V402",
                        format!(
                            "{}[{}] is out of range: {} takes indices 0..{}",
                            sem.name, last, sem.name, max
                        ),
                    )
                };
                out.push(Diagnostic::error(code, text, sem.span));
            }
        }
    }
    check_duplicates(cx, out);
}

fn file_word(f: File) -> &'static str {
    match f {
        File::In => "input",
        File::Out => "output",
        _ => "system value",
    }
}

/// V406: the same (semantic, index) twice in IN, OUT or SV, found by sorting intervals.
fn check_duplicates(cx: &Context, out: &mut Vec<Diagnostic>) {
    let decls = &cx.shader.declarations;
    let mut items: Vec<(File, SemanticName, u64, u64, usize)> = decls
        .iter()
        .enumerate()
        .filter(|(_, d)| matches!(d.file, File::In | File::Out | File::Sv))
        .filter_map(|(i, d)| {
            let s = d.semantic?;
            let (a, b) = semantic_interval(d)?;
            Some((d.file, s.name, a, b, i))
        })
        .collect();
    let key =
        |&(f, n, a, _, i): &(File, SemanticName, u64, u64, usize)| (f.index(), n.index(), a, i);
    crate::sort::sort_by(&mut items, |x, y| key(x).cmp(&key(y)));
    let mut prev: Option<(File, SemanticName, u64, u64, usize)> = None;
    for it in items {
        if let Some(p) = prev {
            if p.0 == it.0 && p.1 == it.1 && it.2 <= p.3 {
                // A word-for-word repeat is V014's (declarations.rs), not a second semantic.
                let repeat = matches!((decls.get(it.4), decls.get(p.4)),
                    (Some(d), Some(first)) if d.same_apart_from_spans(first));
                if let (false, Some(d), Some(first)) = (repeat, decls.get(it.4), decls.get(p.4)) {
                    let (second, earlier) =
                        if d.span.start >= first.span.start { (d, first) } else { (first, d) };
                    let at = second.semantic.map_or(second.span, |s| s.span);
                    out.push(
                        Diagnostic::error(
                            "V406",
                            format!(
                                "{} semantic {}[{}] is declared twice",
                                file_word(it.0),
                                it.1,
                                it.2
                            ),
                            at,
                        )
                        .with_related("first declared here", earlier.span),
                    );
                }
                if it.3 > p.3 {
                    prev = Some(it);
                }
                continue;
            }
        }
        prev = Some(it);
    }
}
