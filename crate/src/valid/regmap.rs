//! Declared registers as intervals, and the walk over every register an instruction names.
//!
//! A declaration `FILE[first..last]` is one interval; lookups are binary searches, so a
//! declaration's size never costs memory or time (`TEMP[0..4000000000]` is one entry).

use crate::ir::{DclDimension, Declaration, File, Instruction, Processor, RegRef, Shader};
use std::collections::{HashMap, HashSet};

/// Key of declarations whose first bracket is implied (`DCL IN[][0]`): they match any vertex.
pub const ANY_DIM: u32 = u32::MAX;
/// A two-dimensional declaration (`CONST[0..3][…]`) is entered once per dimension value; larger
/// dimension ranges are refused by the limits pass (tgsi_exec has 32 constant buffers).
pub const MAX_DIM_EXPANSION: u64 = 64;

/// One declared interval and the declaration it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub first: u32,
    pub last: u32,
    pub decl: usize,
}

#[derive(Debug, Default)]
struct Keyed {
    /// Sorted by `first`.
    entries: Vec<Entry>,
    /// `reach[i]` = the largest `last` among `entries[..=i]` (non-decreasing).
    reach: Vec<u32>,
}

/// Every declaration, keyed by (file, dimension value).
#[derive(Debug, Default)]
pub struct DeclMap {
    keyed: HashMap<(File, u32), Keyed>,
    files: HashSet<File>,
}

/// The dimension keys a declaration covers (at most [`MAX_DIM_EXPANSION`] of them).
pub fn dim_keys(d: &Declaration) -> Vec<u32> {
    match d.dimension {
        DclDimension::None => vec![0],
        DclDimension::Implied => vec![ANY_DIM],
        DclDimension::Range(r) if r.count() <= MAX_DIM_EXPANSION => (r.first..=r.last).collect(),
        DclDimension::Range(_) => Vec::new(),
    }
}

impl DeclMap {
    pub fn build(shader: &Shader) -> DeclMap {
        let mut keyed: HashMap<(File, u32), Keyed> = HashMap::new();
        for (i, d) in shader.declarations.iter().enumerate() {
            if d.range.last < d.range.first {
                continue; // an inverted range declares nothing (reported by declarations)
            }
            for k in dim_keys(d) {
                keyed.entry((d.file, k)).or_default().entries.push(Entry {
                    first: d.range.first,
                    last: d.range.last,
                    decl: i,
                });
            }
        }
        for k in keyed.values_mut() {
            crate::sort::sort_by(&mut k.entries, |a, b| (a.first, a.decl).cmp(&(b.first, b.decl)));
            let mut best = 0u32;
            k.reach = k
                .entries
                .iter()
                .map(|e| {
                    best = best.max(e.last);
                    best
                })
                .collect();
        }
        let files = keyed.keys().map(|(f, _)| *f).collect();
        DeclMap { keyed, files }
    }

    /// The declaration covering `file[dim][index]`, looking at `dim` then at implied dimensions.
    pub fn find(&self, file: File, dim: u32, index: i64) -> Option<usize> {
        if index < 0 || index > u32::MAX as i64 {
            return None;
        }
        let index = index as u32;
        for key in [dim, ANY_DIM] {
            let Some(k) = self.keyed.get(&(file, key)) else { continue };
            // `reach` never decreases, so the first entry reaching `index` is found by binary
            // search; that entry's own `last` is its reach, so it covers `index` exactly when
            // it starts at or before it.
            let end = k.entries.partition_point(|e| e.first <= index);
            let j = k.reach.partition_point(|&r| r < index);
            if j < end {
                if let Some(e) = k.entries.get(j) {
                    return Some(e.decl);
                }
            }
        }
        None
    }

    /// True when any register of `file` is declared.
    pub fn has_file(&self, file: File) -> bool {
        self.files.contains(&file)
    }

    /// Every (file, dimension) group with its intervals sorted by first register.
    pub fn groups(&self) -> impl Iterator<Item = (File, u32, &[Entry])> {
        self.keyed.iter().map(|((f, d), k)| (*f, *d, k.entries.as_slice()))
    }
}

/// Whether a register file takes a first bracket (`CONST[1][2]`, `IN[vertex][attr]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoD {
    Never,
    /// CONST and HWATOMIC: the buffer number; absent means buffer 0.
    Optional,
    /// Per-vertex inputs of geometry and tessellation shaders, per-vertex TCS outputs.
    Required,
}

pub fn two_d(processor: Processor, file: File) -> TwoD {
    match (file, processor) {
        // Atomic counters are declared and addressed per buffer, like constants
        // (`DCL HWATOMIC[0][0]`, `ATOMUADD TEMP[0].x, HWATOMIC[0][0], …`).
        (File::Const | File::Hwatomic, _) => TwoD::Optional,
        (File::In, Processor::Geometry | Processor::TessCtrl | Processor::TessEval) => {
            TwoD::Required
        }
        (File::Out, Processor::TessCtrl) => TwoD::Required,
        _ => TwoD::Never,
    }
}

/// The role of a register reference inside an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Dst(usize),
    Src(usize),
    TexOffset(usize),
}

/// Every register an instruction names, with its role (indirect address registers excluded:
/// they live inside the brackets of these references).
pub fn regs_of(ins: &Instruction) -> impl Iterator<Item = (Role, &RegRef)> {
    let d = ins.dst.iter().enumerate().map(|(i, o)| (Role::Dst(i), &o.reg));
    let s = ins.src.iter().enumerate().map(|(i, o)| (Role::Src(i), &o.reg));
    let t = ins.tex_offsets.iter().enumerate().map(|(i, o)| (Role::TexOffset(i), &o.reg));
    d.chain(s).chain(t)
}

/// The dimension key a reference looks up: its direct first bracket, or 0.
pub fn ref_dim_key(processor: Processor, reg: &RegRef) -> Option<u32> {
    match (reg.dimension, two_d(processor, reg.file)) {
        (_, TwoD::Never) | (None, _) => Some(0),
        (Some(b), _) if b.indirect.is_some() => None,
        (Some(b), _) => u32::try_from(b.offset).ok(),
    }
}
