//! The decoded program: what `compile` produces and the machine executes. Everything the hot loop
//! needs is resolved here — storage rows, swizzles, modifiers, operand types and structured
//! control-flow targets — so execution does no lookups in the IR.

use crate::ir::{MemoryKind, Processor, Property, SemanticName, Span, TextureTarget};
use crate::opcode::{Opcode, ValType};

/// Where a register lives at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Store {
    /// The machine's register storage (TEMP, OUT, IN, SV, ADDR, IMM, cached direct constants).
    /// `base` is the storage row of register 0 channel x of the file, `count` its size.
    Rows { base: u32, count: u32 },
    /// A constant buffer read through an indirect index (gathered per lane at run time).
    Const,
    /// Nothing (NULL, SAMP, SVIEW, … operands carried only for their index).
    #[default]
    None,
}

/// A per-lane index added to a register's offset: the storage row of the address channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddrRow(pub u32);

/// A decoded source operand.
#[derive(Clone, Copy, Debug, Default)]
pub struct Src {
    pub store: Store,
    /// Register index inside its file (the constant part for indirect references).
    pub index: i64,
    pub indirect: Option<AddrRow>,
    /// Constant buffer number (second bracket) for `Store::Const`, with its own indirect part.
    pub dim: i64,
    pub dim_indirect: Option<AddrRow>,
    pub swizzle: [u8; 4],
    pub negate: bool,
    pub absolute: bool,
    /// Operand type from the opcode table: decides what negate/abs mean (tgsi_info.c
    /// `tgsi_opcode_infer_src_type`).
    pub ty: Option<ValType>,
    /// Original file and index for resource operands (SAMP[n], SVIEW[n]).
    pub resource: u32,
    /// The register file written in the text (memory instructions tell BUFFER, IMAGE, MEMORY
    /// and HWATOMIC apart by it).
    pub file: Option<crate::ir::File>,
}

impl Src {
    /// Storage row of channel `c` (after swizzle) for a direct register in storage.
    #[inline]
    pub fn direct_row(&self, c: usize) -> Option<u32> {
        match (self.store, self.indirect) {
            (Store::Rows { base, count }, None)
                if self.index >= 0 && (self.index as u64) < count as u64 =>
            {
                Some(base + self.index as u32 * 4 + self.swizzle[c & 3] as u32)
            }
            _ => None,
        }
    }
}

/// A decoded destination operand.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dst {
    /// The file written (for traces and messages).
    pub file: Option<crate::ir::File>,
    pub store: Store,
    pub index: i64,
    pub indirect: Option<AddrRow>,
    pub mask: u8,
}

impl Dst {
    /// Storage row of channel `c` of a direct destination in storage.
    #[inline]
    pub fn row(&self, c: usize) -> Option<usize> {
        match (self.store, self.indirect) {
            (Store::Rows { base, count }, None)
                if self.index >= 0 && (self.index as u64) < count as u64 =>
            {
                Some(base as usize + self.index as usize * 4 + c)
            }
            _ => None,
        }
    }
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    pub op: Opcode,
    pub saturate: bool,
    pub dst: [Dst; 2],
    pub num_dst: u8,
    pub src: [Src; 5],
    pub num_src: u8,
    /// Control flow: IF/UIF → its ELSE or ENDIF; ELSE → its ENDIF; BGNLOOP → its ENDLOOP;
    /// ENDLOOP → its BGNLOOP; BRK/CONT → the ENDLOOP (or ENDSWITCH) they leave; SWITCH → its
    /// ENDSWITCH; CAL → the BGNSUB; BGNSUB → its ENDSUB.
    pub target: u32,
    /// SWITCH: index into `Program::switches`; BRK: 1 when it leaves a switch, 0 for a loop.
    pub aux: u32,
    pub texture: Option<TextureTarget>,
    /// Texel offsets of texture instructions, decoded like sources.
    pub offsets: [Option<Src>; 1],
    /// The result may be computed straight into the destination register when every lane is
    /// active: component-wise 32-bit op, one direct destination that no source reads, no `_SAT`.
    pub fused: bool,
    /// The fast single-pass form of a common lane-wise instruction (`kernels.rs`), if any.
    pub kernel: Option<Kernel>,
    /// IF/UIF whose body is exactly a BRK leaving a loop, with no ELSE: run as one conditional
    /// break (`fast.rs`) except when tracing.
    pub cond_break: bool,
    /// Charged by the exec mask it leaves, not the one it starts with (the closers;
    /// [`super::work::charged_at_end`]).
    pub charged_at_end: bool,
    /// The work charged per quad with an active lane ([`super::work::weight`]).
    pub weight: u64,
    /// Bit k: source k is read with denormals as zero — a float operand of a float instruction
    /// in a program that flushes denormals ([`Denormals`]). Kept here, not in [`Src`], so that
    /// the operands stay as small as before.
    pub daz: u8,
    /// Denormal float results become ±0 (flush to zero), as `daz`.
    pub ftz: bool,
    /// LG2 and POW in a flushing program: the C library's `logf`/`powf` with DAZ set, which read
    /// the base's bits and normalise a subnormal one as 2^-150 (`exp_log::ln_daz`).
    pub libm_daz: bool,
    /// Index of the instruction in `Shader::instructions`.
    pub ir_index: u32,
    pub span: Span,
}

impl Inst {
    /// Whether the instruction computes each lane from the same lane's operands only, so that
    /// it may run over a sub-span of the batch: the table's family says
    /// (`Family::is_lane_wise`).
    #[inline]
    pub fn lane_wise(&self) -> bool {
        self.op.info().family.is_lane_wise()
    }
}

/// The operation of a fast kernel (formulas in `fast.rs`, the same as the `ops` family files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelOp {
    Mov,
    Add,
    Sub,
    Mul,
    Div,
    Mad,
    Min,
    Max,
    /// DP2 / DP3 / DP4: the dot product of the first n channels, replicated.
    Dot(u8),
    Slt,
    Sge,
    Seq,
    Sne,
    Sgt,
    Sle,
    Fslt,
    Fsge,
    Fseq,
    Fsne,
    Uadd,
    Umul,
    Imin,
    Imax,
    Umin,
    Umax,
    Isge,
    Islt,
    Useq,
    Usne,
    Usge,
    Uslt,
    Shl,
    Ishr,
    Ushr,
    And,
    Or,
    Xor,
    Not,
    I2f,
    U2f,
    F2i,
    F2u,
}

/// No snapshot: the source is read from its storage row.
pub const NO_SNAPSHOT: u8 = u8::MAX;

/// One source channel: its storage row and float modifiers as `(bits & and) ^ xor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrcRow {
    pub row: u32,
    pub and: u32,
    pub xor: u32,
    /// Index into `Kernel::snapshots` when the row is also a destination row of this
    /// instruction: it is copied before any channel is written, so every read sees old values.
    pub snapshot: u8,
    /// The row is this channel's own destination row and is read in the same pass that
    /// writes it (lane by lane, so each read sees the old value): no snapshot copy.
    pub in_place: bool,
}

/// A decoded fast instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub op: KernelOp,
    /// `_SAT` of a float result (clamped in the same pass).
    pub saturate: bool,
    /// Enabled destination channels.
    pub mask: u8,
    /// Destination storage row per channel (enabled ones only meaningful).
    pub dst: [u32; 4],
    /// `src[k][c]`: operand k for destination channel c (for `Dot`, for dot term c).
    pub src: [[SrcRow; 4]; 3],
    pub num_src: u8,
    /// Destination rows that some source reads (copied to scratch first).
    pub snapshots: [u32; 4],
    pub num_snapshots: u8,
    /// Whether the specialised loops may run (`kernels::decode_with`): the one for sources
    /// without modifiers, and in-place operands (`SrcRow::in_place`).
    pub variants: bool,
}

impl Kernel {
    /// Whether operand channel `c` is read (a dot product reads its first n channels, other
    /// ops the enabled ones).
    pub fn reads(&self, c: usize) -> bool {
        match self.op {
            KernelOp::Dot(n) => c < usize::from(n),
            _ => self.mask >> c & 1 != 0,
        }
    }
}

/// The CASE values a SWITCH tests, so that DEFAULT can be anywhere (tgsi.rst "SWITCH").
#[derive(Clone, Debug, Default)]
pub struct SwitchInfo {
    pub cases: Vec<Src>,
}

/// How a fragment input is interpolated (from its declaration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputInterp {
    Constant,
    Linear,
    Perspective,
    /// COLOR: flat or perspective depending on the rasteriser's flat-shade state.
    Color,
}

/// One declared input register.
#[derive(Clone, Copy, Debug)]
pub struct InputInfo {
    pub index: u32,
    pub semantic: Option<(SemanticName, u32)>,
    pub interp: InputInterp,
    pub usage_mask: u8,
}

/// One declared output register.
#[derive(Clone, Copy, Debug)]
pub struct OutputInfo {
    pub index: u32,
    pub semantic: Option<(SemanticName, u32)>,
}

/// A constant that a direct operand reads: copied into storage at the start of each run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstSlot {
    pub buffer: u32,
    pub index: u32,
}

/// Storage layout: file bases in rows (one row = one channel of one register).
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    pub temp: (u32, u32),
    pub out: (u32, u32),
    pub input: (u32, u32),
    pub sv: (u32, u32),
    pub addr: (u32, u32),
    pub imm: (u32, u32),
    /// Cached direct constants (one register per `ConstSlot`).
    pub consts: (u32, u32),
    /// Total number of rows.
    pub rows: u32,
}

/// A compiled shader, ready to run on any number of batches.
#[derive(Clone, Debug)]
pub struct Program {
    pub processor: Processor,
    pub code: Vec<Inst>,
    /// Where execution starts (0) and the instruction index of the main END, if any.
    pub layout: Layout,
    pub immediates: Vec<[u32; 4]>,
    pub const_slots: Vec<ConstSlot>,
    pub switches: Vec<SwitchInfo>,
    pub inputs: Vec<InputInfo>,
    pub outputs: Vec<OutputInfo>,
    /// SV register index → semantic.
    pub system_values: Vec<(u32, SemanticName)>,
    /// Deepest nesting of IF/loops/switches (sizes the mask stacks once per run).
    pub max_depth: u32,
    /// Whether the shader uses KILL/DEMOTE (the caller then reads the kill mask).
    pub can_kill: bool,
    /// Declared sampler views: index and target (the SAMPLE family reads coordinates by it).
    pub sviews: Vec<(u32, TextureTarget)>,
    /// Declared images: index, target and `PIPE_FORMAT_…` (if written in the declaration).
    pub images: Vec<(u32, TextureTarget, Option<String>)>,
    /// Declared MEMORY registers and their kind.
    pub memories: Vec<(u32, MemoryKind)>,
    /// The shader's properties (compute block size, geometry primitive types, …).
    pub properties: Vec<Property>,
    /// Attributes per vertex of 2-D geometry inputs: `IN[v][n]` is input row `v * stride + n`.
    pub vertex_stride: u32,
    /// Storage rows written for every lane before any read, with the instruction writing each
    /// first (`prewrite.rs`): the machine does not clear them between runs.
    pub prewritten: Vec<(u32, u32)>,
    /// Row ranges `start..end` a run may leave non-zero (`prewrite::dirty_rows`): what the
    /// machine clears before the next run.
    pub dirty: Vec<(u32, u32)>,
    /// Whether an instruction may change the execution masks (`prewrite.rs`); when not, the
    /// machine does not refill them between runs.
    pub touches_masks: bool,
}

impl Program {
    /// The input register holding a semantic, if declared.
    pub fn input_index(&self, name: SemanticName, index: u32) -> Option<u32> {
        self.inputs.iter().find(|i| i.semantic == Some((name, index))).map(|i| i.index)
    }
    /// The output register holding a semantic, if declared.
    pub fn output_index(&self, name: SemanticName, index: u32) -> Option<u32> {
        self.outputs.iter().find(|o| o.semantic == Some((name, index))).map(|o| o.index)
    }
    /// Number of IN registers the batch must provide.
    pub fn input_count(&self) -> u32 {
        self.layout.input.1
    }
    /// Number of OUT registers the batch receives.
    pub fn output_count(&self) -> u32 {
        self.layout.out.1
    }
    /// The storage row of channel `channel` of a TEMP, OUT, IN or ADDR register (what probe
    /// mode watches), if the program has that register.
    pub fn row_of(&self, file: crate::ir::File, index: u32, channel: usize) -> Option<usize> {
        use crate::ir::File;
        let l = &self.layout;
        let (base, count) = match file {
            File::Temp => l.temp,
            File::Out => l.out,
            File::In => l.input,
            File::Addr => l.addr,
            _ => return None,
        };
        (index < count && channel < 4).then(|| (base + index * 4) as usize + channel)
    }
}

/// How a compiled program treats denormal (subnormal) floats: as softpipe's floating-point
/// environment has them when it runs that stage (docs/interpreter.md, "Denormals").
/// Measured with the oracle: `tests/denormal-cases/` (`fs_*`, `fsq_*`, `vs_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denormals {
    /// Plain IEEE arithmetic: compute shaders, and the fragment shader of a draw chunk with a
    /// vertex outside the view volume (softpipe shades its clipped triangles after the draw
    /// call, when the x86 DAZ and FTZ bits are clear again).
    Keep,
    /// The vertex, geometry and tessellation stages: Mesa's draw module runs them as
    /// LLVM-compiled code inside `draw_vbo` (draw_pt.c), which sets DAZ and FTZ
    /// (`util_fpstate_set_denorms_to_zero`): denormal operands read as ±0, denormal results
    /// become ±0.
    DrawJit,
    /// The fragment shader of a draw chunk with no vertex outside the view volume: softpipe
    /// rasterises and shades it inside `draw_vbo` (the middle end's emit path), so tgsi_exec
    /// runs under DAZ and FTZ. Unlike the draw stages' code, SIN and COS (the C library's
    /// `sinf`/`cosf`) return a tiny argument's bits as they are.
    InDraw,
}

impl Denormals {
    /// The mode of a stage as softpipe runs it on its own (a fragment shader is compiled a
    /// second time with [`Denormals::InDraw`] for the draw chunks that need it).
    pub fn of_stage(processor: Processor) -> Denormals {
        match processor {
            Processor::Vertex | Processor::Geometry | Processor::TessCtrl | Processor::TessEval => {
                Denormals::DrawJit
            }
            Processor::Fragment | Processor::Compute => Denormals::Keep,
        }
    }
}

/// A denormal (subnormal) binary32 value becomes a zero of the same sign.
#[inline(always)]
pub fn flush_denormal(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}
