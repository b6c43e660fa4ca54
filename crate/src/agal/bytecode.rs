//! The AGAL program model: header, instructions and their operands (docs/agal.md "The bytecode"),
//! the opcode table (docs/agal.md "Opcodes") and the per-version register limits (docs/agal.md
//! "Limits per version"). Encoding and decoding live in `codec.rs`.

use serde::Serialize;

/// Program type byte of the header (docs/agal.md "Layout"): 0 vertex, 1 fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShaderKind {
    Vertex,
    Fragment,
}

impl ShaderKind {
    pub fn code(self) -> u8 {
        match self {
            ShaderKind::Vertex => 0,
            ShaderKind::Fragment => 1,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            ShaderKind::Vertex => "vertex",
            ShaderKind::Fragment => "fragment",
        }
    }
    pub fn from_word(w: &str) -> Option<ShaderKind> {
        match w {
            "vertex" | "vert" | "v" => Some(ShaderKind::Vertex),
            "fragment" | "frag" | "f" => Some(ShaderKind::Fragment),
            _ => None,
        }
    }
}

/// Register type codes, 4 bits (docs/agal.md "Register types").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RegType {
    Attribute = 0,
    Constant = 1,
    Temporary = 2,
    Output = 3,
    Varying = 4,
    Sampler = 5,
    Depth = 6,
    InstanceId = 7,
}

impl RegType {
    pub fn from_code(c: u8) -> Option<RegType> {
        Some(match c {
            0 => RegType::Attribute,
            1 => RegType::Constant,
            2 => RegType::Temporary,
            3 => RegType::Output,
            4 => RegType::Varying,
            5 => RegType::Sampler,
            6 => RegType::Depth,
            7 => RegType::InstanceId,
            _ => return None,
        })
    }
    pub fn code(self) -> u8 {
        self as u8
    }
    /// Adobe's assembly name for this register type in a program of `kind` (docs/agal.md "Register
    /// types").
    pub fn asm_name(self, kind: ShaderKind) -> &'static str {
        let v = kind == ShaderKind::Vertex;
        match self {
            RegType::Attribute => "va",
            RegType::Constant => {
                if v {
                    "vc"
                } else {
                    "fc"
                }
            }
            RegType::Temporary => {
                if v {
                    "vt"
                } else {
                    "ft"
                }
            }
            RegType::Output => {
                if v {
                    "op"
                } else {
                    "oc"
                }
            }
            RegType::Varying => "v",
            RegType::Sampler => {
                if v {
                    "vs"
                } else {
                    "fs"
                }
            }
            RegType::Depth => "fd",
            RegType::InstanceId => "iid",
        }
    }
}

/// Destination operand (docs/agal.md "Operands"): register, number and write mask (bit0 = x … bit3
/// = w).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Dest {
    pub reg: RegType,
    pub index: u16,
    pub mask: u8,
}

/// The index register of an indirect source (docs/agal.md "Operands"): `vc[va2.y+7]` has reg =
/// attribute, index 2, component 1 (y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IndexReg {
    pub reg: RegType,
    pub index: u16,
    pub component: u8,
}

/// Source operand (docs/agal.md "Operands"). For a direct source `index` is the register number;
/// for an indirect one it is the base offset O (0..=255) and `indirect` names the index register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    pub reg: RegType,
    pub index: u16,
    /// Two bits per result lane; lane i reads component `(swizzle >> 2i) & 3` (docs/agal.md
    /// "Operands").
    pub swizzle: u8,
    pub indirect: Option<IndexReg>,
}

/// Identity swizzle `.xyzw`.
pub const SWIZZLE_IDENTITY: u8 = 0xE4;

impl Source {
    pub fn direct(reg: RegType, index: u16, swizzle: u8) -> Source {
        Source { reg, index, swizzle, indirect: None }
    }
    /// Component read by result lane `lane`.
    pub fn lane(&self, lane: usize) -> usize {
        ((self.swizzle >> (2 * (lane & 3))) & 3) as usize
    }
    /// True for `.xxxx`, `.yyyy`, `.zzzz`, `.wwww` (the scalar forms required by docs/agal.md
    /// "Opcodes").
    pub fn is_replicated(&self) -> bool {
        let c = self.swizzle & 3;
        self.swizzle == c * 0x55
    }
}

/// Sampler operand of tex/ted/tld (docs/agal.md "Sampler"). Fields hold the raw nibble values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Sampler {
    pub index: u16,
    /// LOD bias in eighths (signed).
    pub bias: i8,
    pub format: u8,
    pub dim: u8,
    pub special: u8,
    pub wrap: u8,
    pub mip: u8,
    pub filter: u8,
}

impl Sampler {
    /// `fs<index>` with Adobe's defaults: 2d, nearest, mipnone, clamp, no bias.
    pub fn new(index: u16) -> Sampler {
        Sampler { index, bias: 0, format: 0, dim: 0, special: 0, wrap: 0, mip: 0, filter: 0 }
    }
    /// Same sampling state apart from the register number (`#3696`).
    pub fn same_state(&self, o: &Sampler) -> bool {
        Sampler { index: 0, ..*self } == Sampler { index: 0, ..*o }
    }
}

/// Names of the sampler option values, by nibble (docs/agal.md "Sampler"). The first name is the
/// one printed.
pub const FORMAT_NAMES: &[&str] = &["rgba", "compressed", "compressedalpha", "video"];
pub const DIM_NAMES: &[&str] = &["2d", "cube", "3d"];
pub const FILTER_NAMES: &[&str] =
    &["nearest", "linear", "anisotropic2x", "anisotropic4x", "anisotropic8x", "anisotropic16x"];
pub const MIP_NAMES: &[&str] = &["mipnone", "mipnearest", "miplinear"];
pub const WRAP_NAMES: &[&str] = &["clamp", "repeat", "clamp_u_repeat_v", "repeat_u_clamp_v"];
/// Special flag bits 1, 2, 4.
pub const SPECIAL_NAMES: &[(u8, &str)] = &[(1, "centroid"), (2, "single"), (4, "ignoresampler")];

/// One 24-byte token (docs/agal.md "Layout"). Which fields are present is fixed by the opcode (see
/// [`OpInfo`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Instruction {
    pub op: u8,
    pub dest: Option<Dest>,
    pub src1: Option<Source>,
    pub src2: Option<Source>,
    pub sampler: Option<Sampler>,
}

impl Instruction {
    pub fn info(&self) -> &'static OpInfo {
        op_info(self.op).unwrap_or(&OPS[0])
    }
    /// The sources in order (1 then 2).
    pub fn sources(&self) -> impl Iterator<Item = &Source> {
        self.src1.iter().chain(self.src2.iter())
    }
}

/// A whole program (docs/agal.md "Layout").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Program {
    pub version: u32,
    pub kind: ShaderKind,
    pub code: Vec<Instruction>,
}

/// Where an opcode may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Both,
    VertexOnly,
    FragmentOnly,
}

/// A row of the opcode table (docs/agal.md "Opcodes").
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub code: u8,
    pub name: &'static str,
    pub dest: bool,
    /// Number of register sources (0, 1 or 2).
    pub sources: u8,
    pub sampler: bool,
    pub min_version: u32,
    pub stage: Stage,
    /// The destination must not include w (nrm, crs, m33, m34; `#3628`).
    pub xyz_dest: bool,
    /// Sources must use a replicated swizzle (kil, ife…ifl; `#3703`).
    pub scalar: bool,
}

const fn op(code: u8, name: &'static str, dest: bool, sources: u8) -> OpInfo {
    OpInfo {
        code,
        name,
        dest,
        sources,
        sampler: false,
        min_version: 1,
        stage: Stage::Both,
        xyz_dest: false,
        scalar: false,
    }
}
const fn xyz(o: OpInfo) -> OpInfo {
    OpInfo { xyz_dest: true, ..o }
}
const fn v2(o: OpInfo) -> OpInfo {
    OpInfo { min_version: 2, ..o }
}
const fn frag(o: OpInfo) -> OpInfo {
    OpInfo { stage: Stage::FragmentOnly, ..o }
}
const fn scalar(o: OpInfo) -> OpInfo {
    OpInfo { scalar: true, ..o }
}
const fn tex_like(code: u8, name: &'static str, stage: Stage, min_version: u32) -> OpInfo {
    OpInfo {
        code,
        name,
        dest: true,
        sources: 1,
        sampler: true,
        min_version,
        stage,
        xyz_dest: false,
        scalar: false,
    }
}

/// The opcode table (docs/agal.md "Opcodes").
pub const OPS: &[OpInfo] = &[
    op(0x00, "mov", true, 1),
    op(0x01, "add", true, 2),
    op(0x02, "sub", true, 2),
    op(0x03, "mul", true, 2),
    op(0x04, "div", true, 2),
    op(0x05, "rcp", true, 1),
    op(0x06, "min", true, 2),
    op(0x07, "max", true, 2),
    op(0x08, "frc", true, 1),
    op(0x09, "sqt", true, 1),
    op(0x0a, "rsq", true, 1),
    op(0x0b, "pow", true, 2),
    op(0x0c, "log", true, 1),
    op(0x0d, "exp", true, 1),
    xyz(op(0x0e, "nrm", true, 1)),
    op(0x0f, "sin", true, 1),
    op(0x10, "cos", true, 1),
    xyz(op(0x11, "crs", true, 2)),
    op(0x12, "dp3", true, 2),
    op(0x13, "dp4", true, 2),
    op(0x14, "abs", true, 1),
    op(0x15, "neg", true, 1),
    op(0x16, "sat", true, 1),
    xyz(op(0x17, "m33", true, 2)),
    op(0x18, "m44", true, 2),
    xyz(op(0x19, "m34", true, 2)),
    v2(frag(op(0x1a, "ddx", true, 1))),
    v2(frag(op(0x1b, "ddy", true, 1))),
    v2(scalar(op(0x1c, "ife", false, 2))),
    v2(scalar(op(0x1d, "ine", false, 2))),
    v2(scalar(op(0x1e, "ifg", false, 2))),
    v2(scalar(op(0x1f, "ifl", false, 2))),
    v2(op(0x20, "els", false, 0)),
    v2(op(0x21, "eif", false, 0)),
    tex_like(0x26, "ted", Stage::FragmentOnly, 1),
    frag(scalar(op(0x27, "kil", false, 1))),
    tex_like(0x28, "tex", Stage::FragmentOnly, 1),
    op(0x29, "sge", true, 2),
    op(0x2a, "slt", true, 2),
    op(0x2b, "sgn", true, 1),
    op(0x2c, "seq", true, 2),
    op(0x2d, "sne", true, 2),
    tex_like(0x2e, "tld", Stage::VertexOnly, 4),
];

/// Opcode codes, for building programs by hand.
pub mod opc {
    pub const MOV: u8 = 0x00;
    pub const ADD: u8 = 0x01;
    pub const SUB: u8 = 0x02;
    pub const MUL: u8 = 0x03;
    pub const DIV: u8 = 0x04;
    pub const RCP: u8 = 0x05;
    pub const MIN: u8 = 0x06;
    pub const MAX: u8 = 0x07;
    pub const FRC: u8 = 0x08;
    pub const SQT: u8 = 0x09;
    pub const RSQ: u8 = 0x0a;
    pub const POW: u8 = 0x0b;
    pub const LOG: u8 = 0x0c;
    pub const EXP: u8 = 0x0d;
    pub const NRM: u8 = 0x0e;
    pub const SIN: u8 = 0x0f;
    pub const COS: u8 = 0x10;
    pub const CRS: u8 = 0x11;
    pub const DP3: u8 = 0x12;
    pub const DP4: u8 = 0x13;
    pub const ABS: u8 = 0x14;
    pub const NEG: u8 = 0x15;
    pub const SAT: u8 = 0x16;
    pub const M33: u8 = 0x17;
    pub const M44: u8 = 0x18;
    pub const M34: u8 = 0x19;
    pub const DDX: u8 = 0x1a;
    pub const DDY: u8 = 0x1b;
    pub const IFE: u8 = 0x1c;
    pub const INE: u8 = 0x1d;
    pub const IFG: u8 = 0x1e;
    pub const IFL: u8 = 0x1f;
    pub const ELS: u8 = 0x20;
    pub const EIF: u8 = 0x21;
    pub const TED: u8 = 0x26;
    pub const KIL: u8 = 0x27;
    pub const TEX: u8 = 0x28;
    pub const SGE: u8 = 0x29;
    pub const SLT: u8 = 0x2a;
    pub const SGN: u8 = 0x2b;
    pub const SEQ: u8 = 0x2c;
    pub const SNE: u8 = 0x2d;
    pub const TLD: u8 = 0x2e;
}

pub fn op_info(code: u8) -> Option<&'static OpInfo> {
    OPS.iter().find(|o| o.code == code)
}

pub fn op_by_name(name: &str) -> Option<&'static OpInfo> {
    OPS.iter().find(|o| o.name == name)
}

/// Per-version limits (docs/agal.md "Limits per version"). Register entries are counts; valid
/// numbers are 0..count.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Limits {
    pub tokens: usize,
    pub attributes: u16,
    pub vertex_constants: u16,
    pub temporaries: u16,
    pub varyings: u16,
    pub fragment_constants: u16,
    pub samplers: u16,
    pub color_outputs: u16,
    pub depth_outputs: u16,
    pub instance_ids: u16,
}

/// Limits of AGAL `version` (versions above 3 use the AGAL3 table).
pub fn limits(version: u32) -> Limits {
    match version {
        0 | 1 => Limits {
            tokens: 200,
            attributes: 8,
            vertex_constants: 128,
            temporaries: 8,
            varyings: 8,
            fragment_constants: 28,
            samplers: 8,
            color_outputs: 1,
            depth_outputs: 0,
            instance_ids: 0,
        },
        2 => Limits {
            tokens: 1024,
            attributes: 8,
            vertex_constants: 250,
            temporaries: 26,
            varyings: 10,
            fragment_constants: 64,
            samplers: 16,
            color_outputs: 4,
            depth_outputs: 1,
            instance_ids: 0,
        },
        _ => Limits {
            tokens: 2048,
            attributes: 16,
            vertex_constants: 250,
            temporaries: 26,
            varyings: 10,
            fragment_constants: 200,
            samplers: 16,
            color_outputs: 4,
            depth_outputs: 1,
            instance_ids: 1,
        },
    }
}

impl Limits {
    /// How many registers of `reg` a program of `kind` may use.
    pub fn count(&self, reg: RegType, kind: ShaderKind) -> u16 {
        match reg {
            RegType::Attribute => self.attributes,
            RegType::Constant => match kind {
                ShaderKind::Vertex => self.vertex_constants,
                ShaderKind::Fragment => self.fragment_constants,
            },
            RegType::Temporary => self.temporaries,
            RegType::Output => match kind {
                ShaderKind::Vertex => 1,
                ShaderKind::Fragment => self.color_outputs,
            },
            RegType::Varying => self.varyings,
            RegType::Sampler => match kind {
                ShaderKind::Vertex => 4,
                ShaderKind::Fragment => self.samplers,
            },
            RegType::Depth => self.depth_outputs,
            RegType::InstanceId => self.instance_ids,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_table_codes_are_unique_and_sorted() {
        for w in OPS.windows(2) {
            assert!(w[0].code < w[1].code, "{} before {}", w[0].name, w[1].name);
        }
    }

    #[test]
    fn replicated_swizzles() {
        // docs/agal.md "Opcodes": xxxx = 0x00, yyyy = 0x55, zzzz = 0xAA, wwww = 0xFF.
        for s in [0x00, 0x55, 0xAA, 0xFF] {
            assert!(Source::direct(RegType::Temporary, 0, s).is_replicated());
        }
        assert!(!Source::direct(RegType::Temporary, 0, SWIZZLE_IDENTITY).is_replicated());
    }
}
