//! The shader model: everything a TGSI text can say, with the source span of every node.

use super::names::*;
use super::operand::*;
use super::span::Span;
use crate::opcode::Opcode;
use serde::Serialize;

/// A whole shader: the processor header then statements in source order, kept in separate lists
/// (TGSI requires declarations and immediates before the first instruction; properties may be
/// anywhere). `order` remembers the original interleaving for the lossless printer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shader {
    pub processor: Processor,
    pub header_span: Span,
    pub properties: Vec<Property>,
    pub declarations: Vec<Declaration>,
    pub immediates: Vec<Immediate>,
    pub instructions: Vec<Instruction>,
    pub order: Vec<Statement>,
}

/// Which list and position a statement lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Statement {
    Property(usize),
    Declaration(usize),
    Immediate(usize),
    Instruction(usize),
}

impl Shader {
    /// The declarations in order, less each word-for-word repeat of an earlier one (the
    /// validator's V014): what the stages set up, once per register, as tgsi_exec does. Each is
    /// compared with the first declaration of the same file and range, found in a table keyed
    /// as the validator's array table is (`valid::operands`), so the widget's engine gains no
    /// second table type.
    /// (A list made in one place, not an iterator inlined at each caller: code size.)
    #[inline(never)]
    pub fn distinct_declarations(&self) -> Vec<&Declaration> {
        let decls = &self.declarations;
        let mut first: std::collections::HashMap<(File, i64), usize> =
            std::collections::HashMap::new();
        let mut out = Vec::with_capacity(decls.len());
        for (i, d) in decls.iter().enumerate() {
            let range = (i64::from(d.range.first) << 32) | i64::from(d.range.last);
            let j = *first.entry((d.file, range)).or_insert(i);
            if j == i || !decls.get(j).is_some_and(|e| e.same_apart_from_spans(d)) {
                out.push(d);
            }
        }
        out
    }
    pub fn new(processor: Processor) -> Shader {
        Shader {
            processor,
            header_span: Span::default(),
            properties: Vec::new(),
            declarations: Vec::new(),
            immediates: Vec::new(),
            instructions: Vec::new(),
            order: Vec::new(),
        }
    }

    /// The value of a numeric property, if declared.
    pub fn property_uint(&self, name: PropertyName) -> Option<u32> {
        self.properties.iter().rev().find(|p| p.name == name).and_then(|p| match p.value {
            PropertyValue::Uint(v) => Some(v),
            _ => None,
        })
    }

    /// The value of a property, if declared (the last one wins).
    pub fn property(&self, name: PropertyName) -> Option<PropertyValue> {
        self.properties.iter().rev().find(|p| p.name == name).map(|p| p.value)
    }

    /// Vertices of a geometry shader's input primitive (GS_INPUT_PRIMITIVE; triangles when
    /// missing), or None for other stages (tgsi.rst "Geometry ISA").
    pub fn geometry_input_vertices(&self) -> Option<u32> {
        if self.processor != Processor::Geometry {
            return None;
        }
        let prim = match self.property(PropertyName::GsInputPrimitive) {
            Some(PropertyValue::Primitive(p)) => p,
            _ => PrimType::Triangles,
        };
        Some(prim.vertices_per_primitive().clamp(1, 6))
    }
}

/// `PROPERTY NAME value`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Property {
    pub name: PropertyName,
    pub value: PropertyValue,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PropertyValue {
    Uint(u32),
    Primitive(PrimType),
    Origin(CoordOrigin),
    Center(PixelCenter),
    Shader(ShaderName),
}

/// An inclusive register range `first..last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DclRange {
    pub first: u32,
    pub last: u32,
    pub span: Span,
}

impl DclRange {
    pub fn contains(&self, i: i64) -> bool {
        i >= self.first as i64 && i <= self.last as i64
    }
    /// Number of registers; 0 for an inverted range.
    pub fn count(&self) -> u64 {
        if self.last < self.first {
            0
        } else {
            (self.last - self.first) as u64 + 1
        }
    }
}

/// The first bracket of a two-bracket declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DclDimension {
    /// One bracket only.
    None,
    /// `IN[][n]` (or `IN[v][n]`) on geometry / tessellation inputs: the vertex index is implied
    /// by the primitive type, and Mesa drops what was written in the first bracket.
    Implied,
    /// `CONST[1][0..3]`: constant buffer 1, registers 0..3.
    Range(DclRange),
}

/// `SEMANTIC[index]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Semantic {
    pub name: SemanticName,
    pub index: u32,
    pub span: Span,
}

/// File-specific attributes of a declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum DclExtra {
    None,
    /// `DCL SVIEW[n], target, rtype[, rtype, rtype, rtype]`
    SamplerView {
        target: TextureTarget,
        return_types: [ReturnType; 4],
    },
    /// `DCL IMAGE[n], target[, format][, WR][, RAW]`
    Image {
        target: TextureTarget,
        format: Option<String>,
        writable: bool,
        raw: bool,
    },
    /// `DCL BUFFER[n][, ATOMIC]`
    Buffer {
        atomic: bool,
    },
    /// `DCL MEMORY[n], kind`
    Memory {
        kind: MemoryKind,
    },
}

/// `DCL FILE[range]...`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declaration {
    pub file: File,
    pub dimension: DclDimension,
    pub range: DclRange,
    /// The `.xy` after the range (Mesa's UsageMask); full by default.
    pub usage_mask: WriteMask,
    /// `ARRAY(n)`; arrays give a group of registers an id used by `[ADDR..](n)` references.
    pub array_id: Option<i64>,
    pub local: bool,
    pub semantic: Option<Semantic>,
    pub extra: DclExtra,
    /// `STREAM(a, b, c, d)`: which GS stream each channel goes to.
    pub stream: Option<[u32; 4]>,
    pub interp: Option<Interp>,
    pub location: Option<Location>,
    pub invariant: bool,
    pub span: Span,
}

impl Declaration {
    /// Whether `other` declares the same thing in the same way: equal in everything but where
    /// each is written (Mesa's front ends repeat some output declarations word for word).
    #[inline(never)]
    pub fn same_apart_from_spans(&self, other: &Declaration) -> bool {
        let dimension = match (self.dimension, other.dimension) {
            (DclDimension::Range(a), DclDimension::Range(b)) => {
                (a.first, a.last) == (b.first, b.last)
            }
            (a, b) => a == b,
        };
        let semantic = match (self.semantic, other.semantic) {
            (Some(a), Some(b)) => (a.name, a.index) == (b.name, b.index),
            (a, b) => a.is_none() && b.is_none(),
        };
        self.file == other.file
            && (self.range.first, self.range.last) == (other.range.first, other.range.last)
            && dimension
            && semantic
            && self.usage_mask == other.usage_mask
            && self.array_id == other.array_id
            && self.local == other.local
            && self.extra == other.extra
            && self.stream == other.stream
            && self.interp == other.interp
            && self.location == other.location
            && self.invariant == other.invariant
    }
    pub fn new(file: File, first: u32, last: u32) -> Declaration {
        Declaration {
            file,
            dimension: DclDimension::None,
            range: DclRange { first, last, span: Span::default() },
            usage_mask: WriteMask::XYZW,
            array_id: None,
            local: false,
            semantic: None,
            extra: DclExtra::None,
            stream: None,
            interp: None,
            location: None,
            invariant: false,
            span: Span::default(),
        }
    }
}

/// `IMM[n] TYPE {a, b, c, d}`. The four 32-bit slots are kept as raw bits, so every value
/// round-trips exactly; 64-bit types hold two values (slot 0 = low word of value 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Immediate {
    pub ty: ImmType,
    pub bits: [u32; 4],
    /// How many values were written (1..=4 for 32-bit types, 1..=2 for 64-bit types).
    pub count: u8,
    /// The `[n]` written in the text, if any.
    pub written_index: Option<u32>,
    pub span: Span,
}

impl Immediate {
    pub fn f32s(&self) -> [f32; 4] {
        self.bits.map(f32::from_bits)
    }
    /// The two 64-bit values of a 64-bit immediate.
    pub fn u64s(&self) -> [u64; 2] {
        [
            self.bits[0] as u64 | (self.bits[1] as u64) << 32,
            self.bits[2] as u64 | (self.bits[3] as u64) << 32,
        ]
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Instruction {
    pub opcode: Opcode,
    /// `_SAT`: clamp float results to [0, 1].
    pub saturate: bool,
    /// `_PRECISE`: no reassociation (no effect on an interpreter).
    pub precise: bool,
    pub dst: Vec<DstOperand>,
    pub src: Vec<SrcOperand>,
    /// Texture target of texture instructions (`TEX ..., 2D`) and of memory instructions.
    pub texture: Option<TextureTarget>,
    pub tex_offsets: Vec<TexOffset>,
    /// Memory qualifiers as a bit set indexed by `MemoryQualifier`.
    pub memory_qualifiers: u8,
    /// `PIPE_FORMAT_…` of a memory instruction.
    pub memory_format: Option<String>,
    /// The branch label `:N` written after IF/UIF/ELSE/CAL/BGNLOOP/ENDLOOP/BGNSUB.
    pub label: Option<u32>,
    /// The statement number `N:` written before the instruction (ignored, as Mesa does).
    pub number: Option<u32>,
    /// Span of the opcode word.
    pub opcode_span: Span,
    pub span: Span,
}

impl Instruction {
    pub fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            saturate: false,
            precise: false,
            dst: Vec::new(),
            src: Vec::new(),
            texture: None,
            tex_offsets: Vec::new(),
            memory_qualifiers: 0,
            memory_format: None,
            label: None,
            number: None,
            opcode_span: Span::default(),
            span: Span::default(),
        }
    }
}
