//! Whole-program rules of the validator (docs/agal.md "Opcodes" (conditionals) and "Semantics"):
//! temporaries written before read component by component, outputs and varyings written once and in
//! full, conditional-block structure, sampler consistency, and vertex/fragment linkage.

use super::bytecode::*;
use super::validate::Finding;
use std::collections::HashMap;

/// Nesting limit of conditionals (MAX_NESTING in Adobe's assembler, docs/agal.md "Opcodes").
pub const MAX_NESTING: usize = 4;

struct Block {
    opened: usize,
    has_else: bool,
    /// Instructions in the current branch so far.
    in_branch: usize,
}

/// State carried through the instructions of one program.
pub struct Flow {
    kind: ShaderKind,
    temps: HashMap<u16, u8>,
    varyings: HashMap<u16, u8>,
    position: u8,
    colors: HashMap<u16, (u8, usize)>,
    samplers: HashMap<u16, (Sampler, usize)>,
    blocks: Vec<Block>,
}

/// Result lanes of source `slot` (0 or 1) that influence the result (docs/agal.md "Opcodes"
/// semantics).
pub fn lanes_read(ins: &Instruction, slot: usize) -> u8 {
    let dest_mask = ins.dest.map(|d| d.mask).unwrap_or(0xF);
    match ins.op {
        opc::DP3 | opc::CRS | opc::NRM => 0b0111,
        opc::DP4 | opc::M44 | opc::M34 => 0xF,
        opc::M33 => 0b0111,
        opc::KIL | opc::IFE | opc::INE | opc::IFG | opc::IFL => 1,
        opc::ELS | opc::EIF => 0,
        opc::TEX | opc::TED | opc::TLD if slot == 0 => match ins.sampler.map(|s| s.dim) {
            Some(0) => 0b0011,
            _ => 0b0111,
        },
        _ => dest_mask,
    }
}

/// Number of matrix rows read through source 2 (m33, m34: 3; m44: 4; else 1).
pub fn matrix_rows(op: u8) -> u16 {
    match op {
        opc::M33 | opc::M34 => 3,
        opc::M44 => 4,
        _ => 1,
    }
}

/// Components (bit per x, y, z, w) that source `s` reads for result lanes `lanes`.
pub fn components_read(s: &Source, lanes: u8) -> u8 {
    (0..4).filter(|l| lanes & (1 << l) != 0).fold(0u8, |m, l| m | (1 << s.lane(l)))
}

fn lane_letters(mask: u8) -> String {
    "xyzw".chars().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| c).collect()
}

impl Flow {
    pub fn new(p: &Program) -> Flow {
        Flow {
            kind: p.kind,
            temps: HashMap::new(),
            varyings: HashMap::new(),
            position: 0,
            colors: HashMap::new(),
            samplers: HashMap::new(),
            blocks: Vec::new(),
        }
    }

    pub fn step(&mut self, i: usize, ins: &Instruction, out: &mut Vec<Finding>) {
        let err = |out: &mut Vec<Finding>, code: &'static str, msg: String| {
            out.push(Finding::error(Some(i), code, msg))
        };
        if let Some(b) = self.blocks.last_mut() {
            b.in_branch += 1;
        }
        // Reads of temporaries (docs/agal.md "Semantics").
        for (slot, s) in ins.sources().enumerate() {
            let lanes = lanes_read(ins, slot);
            let rows = if slot == 1 { matrix_rows(ins.op) } else { 1 };
            if s.reg != RegType::Temporary || s.indirect.is_some() {
                if let Some(ir) = s.indirect.filter(|ir| ir.reg == RegType::Temporary) {
                    self.check_temp(i, ir.index, 1 << ir.component, out);
                }
                continue;
            }
            for r in 0..rows {
                self.check_temp(i, s.index.saturating_add(r), components_read(s, lanes), out);
            }
        }
        let in_block = !self.blocks.is_empty();
        match ins.op {
            opc::IFE | opc::INE | opc::IFG | opc::IFL => {
                if ins.sources().all(|s| s.reg == RegType::Constant) {
                    err(
                        out,
                        "A3758",
                        "the condition compares constants only; precompute it".into(),
                    );
                }
                if self.blocks.len() >= MAX_NESTING {
                    err(out, "A3624", format!("conditionals nest deeper than {}", MAX_NESTING));
                }
                self.blocks.push(Block { opened: i, has_else: false, in_branch: 0 });
            }
            opc::ELS => match self.blocks.last_mut() {
                None => err(out, "A3623", "els without an open if".into()),
                Some(b) => {
                    if b.has_else {
                        err(out, "A3752", "a second els in the same if block".into());
                    }
                    if b.in_branch <= 1 {
                        err(out, "A3748", "empty branch before els".into());
                    }
                    b.has_else = true;
                    b.in_branch = 0;
                }
            },
            opc::EIF => match self.blocks.pop() {
                None => err(out, "A3623", "eif without an open if".into()),
                Some(b) => {
                    if b.in_branch <= 1 {
                        err(out, "A3748", "empty branch before eif".into());
                    }
                }
            },
            opc::DDX | opc::DDY if in_block => {
                err(out, "A3742", "ddx/ddy cannot be used inside a conditional".into())
            }
            opc::TEX | opc::TED
                if in_block && ins.src1.is_some_and(|s| s.reg != RegType::Varying) =>
            {
                err(
                    out,
                    "A3741",
                    "texture reads inside a conditional must use varying coordinates".into(),
                )
            }
            _ => {}
        }
        if let Some(s) = ins.sampler {
            match self.samplers.get(&s.index) {
                Some((first, _))
                    if !first.same_state(&s) && (first.special | s.special) & 4 == 0 =>
                {
                    err(
                        out,
                        "A3696",
                        format!("sampler fs{} is used with different options than before", s.index),
                    )
                }
                Some(_) => {}
                None => {
                    self.samplers.insert(s.index, (s, i));
                }
            }
        }
        let Some(d) = ins.dest else { return };
        match d.reg {
            RegType::Temporary => *self.temps.entry(d.index).or_insert(0) |= d.mask,
            RegType::Varying => *self.varyings.entry(d.index).or_insert(0) |= d.mask,
            RegType::Output | RegType::Depth if in_block => {
                err(out, "A3751", "outputs cannot be written inside a conditional".into())
            }
            _ => {}
        }
        if d.reg == RegType::Output {
            match self.kind {
                ShaderKind::Vertex => self.position |= d.mask,
                ShaderKind::Fragment => {
                    if self.colors.contains_key(&d.index) {
                        err(
                            out,
                            "A3744",
                            format!("color output oc{} is written more than once", d.index),
                        );
                    }
                    let e = self.colors.entry(d.index).or_insert((0, i));
                    e.0 |= d.mask;
                }
            }
        }
    }

    fn check_temp(&self, i: usize, index: u16, comps: u8, out: &mut Vec<Finding>) {
        let name = match self.kind {
            ShaderKind::Vertex => "vt",
            ShaderKind::Fragment => "ft",
        };
        match self.temps.get(&index) {
            None if comps != 0 => out.push(Finding::error(
                Some(i),
                "A3647",
                format!("temporary {}{} is read before it is written", name, index),
            )),
            Some(&w) if comps & !w != 0 => out.push(Finding::error(
                Some(i),
                "A3648",
                format!(
                    "component(s) .{} of temporary {}{} are read before they are written",
                    lane_letters(comps & !w),
                    name,
                    index
                ),
            )),
            _ => {}
        }
    }

    pub fn finish(&self, out: &mut Vec<Finding>) {
        if let Some(b) = self.blocks.last() {
            out.push(Finding::error(
                Some(b.opened),
                "A3739",
                "this conditional block is never closed (missing eif)",
            ));
        }
        match self.kind {
            ShaderKind::Vertex => {
                if self.position != 0xF {
                    out.push(Finding::error(
                        None,
                        "A3635",
                        "the vertex output op must be written in full",
                    ));
                }
                let mut partial: Vec<_> =
                    self.varyings.iter().filter(|(_, &m)| m != 0xF).map(|(&k, _)| k).collect();
                partial.sort_unstable();
                for v in partial {
                    out.push(Finding::error(
                        None,
                        "A3633",
                        format!("varying v{} is only partly written; write all four components", v),
                    ));
                }
            }
            ShaderKind::Fragment => {
                if !self.colors.contains_key(&0) {
                    out.push(Finding::error(None, "A3634", "the color output oc is never written"));
                }
            }
        }
    }
}

/// Varyings a program writes (vertex) or reads (fragment).
fn varyings(p: &Program, written: bool) -> Vec<u16> {
    let mut v: Vec<u16> = p
        .code
        .iter()
        .flat_map(|ins| {
            let d = ins.dest.filter(|d| d.reg == RegType::Varying).map(|d| d.index);
            let s: Vec<u16> = ins
                .sources()
                .filter(|s| s.reg == RegType::Varying && s.indirect.is_none())
                .map(|s| s.index)
                .collect();
            if written {
                d.into_iter().collect::<Vec<_>>()
            } else {
                s
            }
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Rules between a vertex and a fragment program used together (docs/agal.md "Semantics", `#3757`,
/// `#3632`).
pub fn validate_link(vs: &Program, fs: &Program) -> Vec<Finding> {
    let mut out = Vec::new();
    if vs.kind != ShaderKind::Vertex || fs.kind != ShaderKind::Fragment {
        out.push(Finding::error(
            None,
            "A3619",
            "linking needs a vertex program and a fragment program",
        ));
        return out;
    }
    if vs.version != fs.version {
        out.push(Finding::error(
            None,
            "A3757",
            format!(
                "vertex program is AGAL {}, fragment program is AGAL {}",
                vs.version, fs.version
            ),
        ));
    }
    let written = varyings(vs, true);
    for v in varyings(fs, false) {
        if !written.contains(&v) {
            out.push(Finding::error(
                None,
                "A3632",
                format!(
                    "the fragment program reads varying v{}, which the vertex program never writes",
                    v
                ),
            ));
        }
    }
    out
}
