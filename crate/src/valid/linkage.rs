//! Linkage between a vertex and a fragment shader, by (semantic, index)
//! (the Gallium semantics RFC (mesa-dev), "linkage"): every fragment input the rasterizer does not make
//! itself must be written by a vertex output with the same semantic and index (L001), with every
//! channel the fragment shader reads (L002); BCOLOR feeds COLOR on back faces only (L004);
//! vertex outputs nobody reads are notes (L003). L000 reports shaders of the wrong stage.
//!
//! Semantic indices are intervals (a range declaration gives consecutive indices): coverage is
//! checked by sorting and sweeping, and only registers that instructions name are looked at
//! one by one, so the work is bounded by the program text.

use super::regmap::DeclMap;
use super::semantics::semantic_interval;
use crate::diag::Diagnostic;
use crate::ir::{File, Instruction, Processor, SemanticName, Shader, CHANNEL_NAMES};
use crate::opcode::{Opcode, OutputMode};
use std::collections::HashMap;

/// Fragment inputs made by the rasterizer (or defaulted), which no vertex output has to feed.
pub fn generated_by_rasterizer(name: SemanticName) -> bool {
    use SemanticName::*;
    matches!(
        name,
        Position
            | Face
            | PCoord
            | PrimId
            | SampleId
            | SamplePos
            | SampleMask
            | HelperInvocation
            | Layer
            | ViewportIndex
    )
}

/// Vertex outputs consumed by fixed-function stages rather than by the fragment shader.
fn consumed_by_fixed_function(name: SemanticName) -> bool {
    use SemanticName::*;
    matches!(
        name,
        Position | Psize | ClipDist | ClipVertex | EdgeFlag | Layer | ViewportIndex | ViewportMask
    )
}

fn channel_suffix(mask: u8) -> String {
    (0..4).filter(|c| mask & (1 << c) != 0).map(|c| CHANNEL_NAMES[c]).collect()
}

/// The channels of source `i` an instruction really reads (swizzle through the write mask).
pub fn read_channels(ins: &Instruction, i: usize) -> u8 {
    let Some(src) = ins.src.get(i) else { return 0 };
    let sw = src.swizzle.0;
    let pick = |n: usize| sw.iter().take(n).fold(0u8, |m, &c| m | 1 << (c & 3));
    let info = ins.opcode.info();
    match info.output {
        OutputMode::Component => match ins.dst.first() {
            Some(d) => (0..4)
                .filter(|&c| d.write_mask.has(c))
                .fold(0u8, |m, c| m | 1 << (sw.get(c).copied().unwrap_or(0) & 3)),
            None => pick(4),
        },
        OutputMode::Replicated => match ins.opcode {
            Opcode::DP2 => pick(2),
            Opcode::DP3 => pick(3),
            Opcode::DP4 | Opcode::DPH | Opcode::NRM4 => pick(4),
            _ => pick(1),
        },
        _ => pick(4),
    }
}

/// Per register of `file`: channels written (for OUT) or read (for IN) by direct references;
/// `None` when an indirect reference may touch any register.
fn channel_map(shader: &Shader, file: File, reads: bool) -> Option<HashMap<u32, u8>> {
    let mut map: HashMap<u32, u8> = HashMap::new();
    for ins in &shader.instructions {
        if reads {
            for (i, s) in ins.src.iter().enumerate() {
                if s.reg.file != file {
                    continue;
                }
                if s.reg.index.indirect.is_some() {
                    return None;
                }
                if let Ok(r) = u32::try_from(s.reg.index.offset) {
                    *map.entry(r).or_default() |= read_channels(ins, i);
                }
            }
        } else {
            for d in ins.dst.iter().filter(|d| d.reg.file == file) {
                if d.reg.index.indirect.is_some() {
                    return None;
                }
                if let Ok(r) = u32::try_from(d.reg.index.offset) {
                    *map.entry(r).or_default() |= d.write_mask.0 & 0xF;
                }
            }
        }
    }
    Some(map)
}

/// The semantic intervals of one semantic name in one register file.
#[derive(Default)]
struct ByName {
    /// (first index, last index, declaration), sorted by first index.
    entries: Vec<(u64, u64, usize)>,
    /// Prefix maxima of the last indices (non-decreasing), for logarithmic lookups.
    reach: Vec<u64>,
    /// The union of the intervals as disjoint sorted intervals, for coverage questions.
    merged: Vec<(u64, u64)>,
}

/// Semantic intervals of a register file, per semantic name. Every query is a binary search.
struct SemanticIndex(HashMap<SemanticName, ByName>);

impl SemanticIndex {
    fn build(shader: &Shader, file: File) -> SemanticIndex {
        let mut map: HashMap<SemanticName, ByName> = HashMap::new();
        for (i, d) in shader.declarations.iter().enumerate().filter(|(_, d)| d.file == file) {
            let (Some(s), Some((a, b))) = (d.semantic, semantic_interval(d)) else { continue };
            map.entry(s.name).or_default().entries.push((a, b, i));
        }
        for by in map.values_mut() {
            crate::sort::sort_by(&mut by.entries, Ord::cmp);
            let mut best = 0;
            by.reach = by
                .entries
                .iter()
                .map(|e| {
                    best = best.max(e.1);
                    best
                })
                .collect();
            for &(a, b, _) in &by.entries {
                match by.merged.last_mut() {
                    Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                    _ => by.merged.push((a, b)),
                }
            }
        }
        SemanticIndex(map)
    }

    /// The declaration giving (name, index), if any.
    fn find(&self, name: SemanticName, index: u64) -> Option<usize> {
        let by = self.0.get(&name)?;
        let end = by.entries.partition_point(|e| e.0 <= index);
        let j = by.reach.partition_point(|&r| r < index);
        (j < end).then(|| by.entries.get(j).map(|e| e.2)).flatten()
    }

    /// The first index of `[a, b]` that no interval of `name` covers, if any.
    fn first_uncovered(&self, name: SemanticName, a: u64, b: u64) -> Option<u64> {
        let Some(by) = self.0.get(&name) else { return Some(a) };
        let k = by.merged.partition_point(|m| m.0 <= a);
        match k.checked_sub(1).and_then(|k| by.merged.get(k)) {
            Some(&(_, end)) if end >= b => None,
            Some(&(_, end)) if end >= a => Some(end + 1),
            _ => Some(a),
        }
    }

    /// True when some interval of `name` overlaps `[a, b]`.
    fn overlaps(&self, name: SemanticName, a: u64, b: u64) -> bool {
        let Some(by) = self.0.get(&name) else { return false };
        let k = by.merged.partition_point(|m| m.0 <= b);
        k.checked_sub(1).and_then(|k| by.merged.get(k)).is_some_and(|m| m.1 >= a)
    }
}

pub fn link(vs: &Shader, fs: &Shader) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut vd = Vec::new();
    let mut fd = Vec::new();
    if vs.processor != Processor::Vertex {
        vd.push(Diagnostic::error(
            "L000",
            format!("linkage needs a vertex shader first, not a {} shader", vs.processor),
            vs.header_span,
        ));
    }
    if fs.processor != Processor::Fragment {
        fd.push(Diagnostic::error(
            "L000",
            format!("linkage needs a fragment shader second, not a {} shader", fs.processor),
            fs.header_span,
        ));
    }
    if !vd.is_empty() || !fd.is_empty() {
        return (vd, fd);
    }
    let outs = SemanticIndex::build(vs, File::Out);
    let ins = SemanticIndex::build(fs, File::In);
    let written = channel_map(vs, File::Out, false);
    let read = channel_map(fs, File::In, true);
    for d in fs.declarations.iter().filter(|d| d.file == File::In) {
        let (Some(sem), Some((a, b))) = (d.semantic, semantic_interval(d)) else { continue };
        let (name, span) = (sem.name, sem.span);
        if generated_by_rasterizer(name) {
            continue;
        }
        if let Some(missing) = outs.first_uncovered(name, a, b) {
            let back_only = name == SemanticName::Color
                && outs.first_uncovered(SemanticName::BColor, missing, missing).is_none();
            if back_only {
                fd.push(Diagnostic::warning(
                    "L004",
                    format!("COLOR[{}] is written only as BCOLOR[{}] by the vertex shader: front faces read an undefined value", missing, missing),
                    span,
                ));
            } else {
                fd.push(Diagnostic::error(
                    "L001",
                    format!(
                        "fragment input {}[{}] is not written by the vertex shader",
                        name, missing
                    ),
                    span,
                ));
            }
            continue;
        }
    }
    // Channels: only registers the fragment shader names directly are looked at.
    if let (Some(read), Some(written)) = (&read, &written) {
        let fs_decls = DeclMap::build(fs);
        let mut regs: Vec<(u32, u8)> = read.iter().map(|(r, m)| (*r, *m)).collect();
        crate::sort::sort_by(&mut regs, Ord::cmp);
        for (reg, mask) in regs {
            let Some(d) =
                fs_decls.find(File::In, 0, reg as i64).and_then(|i| fs.declarations.get(i))
            else {
                continue;
            };
            let Some(sem) = d.semantic else { continue };
            if generated_by_rasterizer(sem.name) {
                continue;
            }
            let index = sem.index as u64 + (reg.saturating_sub(d.range.first)) as u64;
            let Some(v) = outs.find(sem.name, index).and_then(|i| vs.declarations.get(i)) else {
                continue;
            };
            let Some(vsem) = v.semantic else { continue };
            let vreg = v.range.first as u64 + index.saturating_sub(vsem.index as u64);
            let wrote =
                u32::try_from(vreg).ok().and_then(|r| written.get(&r)).copied().unwrap_or(0);
            let missing = mask & !wrote;
            if missing != 0 {
                let wrote_text = if wrote == 0 {
                    "nothing".to_string()
                } else {
                    format!(".{}", channel_suffix(wrote))
                };
                fd.push(Diagnostic::error(
                    "L002",
                    format!(
                        "the fragment shader reads {}[{}].{}, but the vertex shader writes {} of OUT[{}]",
                        sem.name,
                        index,
                        channel_suffix(missing),
                        wrote_text,
                        vreg
                    ),
                    sem.span,
                ));
            }
        }
    }
    for d in vs.declarations.iter().filter(|d| d.file == File::Out) {
        let (Some(sem), Some((a, b))) = (d.semantic, semantic_interval(d)) else { continue };
        if consumed_by_fixed_function(sem.name) {
            continue;
        }
        let reader = if sem.name == SemanticName::BColor { SemanticName::Color } else { sem.name };
        if !ins.overlaps(reader, a, b) {
            vd.push(Diagnostic::note(
                "L003",
                format!("vertex output {}[{}] is not read by the fragment shader", sem.name, a),
                sem.span,
            ));
        }
    }
    crate::sort::sort_by(&mut fd, |a, b| a.span.start.cmp(&b.span.start));
    crate::sort::sort_by(&mut vd, |a, b| a.span.start.cmp(&b.span.start));
    (vd, fd)
}
