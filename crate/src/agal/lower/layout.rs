//! Register mapping of the TGSI → AGAL export and the layout handed to the host: which `va`,
//! `v`, `vc`/`fc` and `fs` register holds which TGSI register, constant or immediate.

use crate::agal::bytecode::*;
use crate::agal::disasm::{reg_text, sampler_flags_text};
use crate::ir::SemanticName;
use serde::Serialize;

/// A varying slot key: semantic name and index.
pub type VaryingKey = (SemanticName, u32);

/// The fixed varying rule used when a shader is exported on its own: COLOR[0..1] → v0..v1,
/// GENERIC[k] and TEXCOORD[k] → v(2+k). A vertex and a fragment shader exported separately
/// therefore agree; [`super::export_pair`] packs the slots instead.
pub fn default_varying(key: VaryingKey) -> Option<u16> {
    match key.0 {
        SemanticName::Color if key.1 < 2 => Some(key.1 as u16),
        SemanticName::Generic | SemanticName::TexCoord => u16::try_from(key.1).ok()?.checked_add(2),
        _ => None,
    }
}

/// One constant register the host must upload.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConstSlot {
    /// `vc3` / `fc3`.
    pub register: String,
    pub index: u16,
    /// `CONST[3]`, `IMM[0]` or `internal`.
    pub source: String,
    /// Values for immediates and internal constants; `None` for CONST (set by the host).
    pub values: Option<[f32; 4]>,
}

/// A non-constant binding: `va0 ← IN[0]`, `v2 ← GENERIC[0]`, `fs0 ← SAMP[0] <2d,…>`, `op ← OUT[0]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Binding {
    pub register: String,
    pub source: String,
}

/// Everything the host needs to feed an exported program.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Layout {
    pub constants: Vec<ConstSlot>,
    pub attributes: Vec<Binding>,
    pub varyings: Vec<Binding>,
    pub samplers: Vec<Binding>,
    pub outputs: Vec<Binding>,
}

impl Layout {
    /// One line per register, e.g. `fc4 = IMM[0] (0.5, 1, 0, 0)`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for c in &self.constants {
            s.push_str(&format!("{} = {}", c.register, c.source));
            if let Some(v) = c.values {
                s.push_str(&format!(" ({}, {}, {}, {})", v[0], v[1], v[2], v[3]));
            }
            s.push('\n');
        }
        for b in
            self.attributes.iter().chain(&self.varyings).chain(&self.samplers).chain(&self.outputs)
        {
            s.push_str(&format!("{} = {}\n", b.register, b.source));
        }
        s
    }

    /// The constant registers as an array ready to upload, from the host's CONST values.
    /// Registers not in the layout are zero.
    pub fn constant_values(&self, consts: &[[f32; 4]]) -> Vec<[f32; 4]> {
        let n = self.constants.iter().map(|c| c.index as usize + 1).max().unwrap_or(0);
        let mut out = vec![[0.0; 4]; n];
        for c in &self.constants {
            let v = match c.values {
                Some(v) => v,
                None => consts.get(c.index as usize).copied().unwrap_or([0.0; 4]),
            };
            if let Some(slot) = out.get_mut(c.index as usize) {
                *slot = v;
            }
        }
        out
    }
}

pub fn binding(reg: RegType, index: u16, kind: ShaderKind, source: String) -> Binding {
    Binding { register: reg_text(reg, index, kind), source }
}

pub fn sampler_binding(s: &Sampler, kind: ShaderKind, source: String) -> Binding {
    Binding {
        register: format!(
            "{} {}",
            reg_text(RegType::Sampler, s.index, kind),
            sampler_flags_text(s)
        ),
        source,
    }
}
