//! THE opcode table: one row per TGSI opcode, modern (Mesa 24.1 numbering, gaps included) and
//! legacy (the 27 opcodes of the 2010 TGSI document that later editions removed).
//!
//! Parser, printer, validator, interpreter dispatch, the page's opcode reference and the AGAL
//! lowering all read this table, so an opcode is added in exactly one place.
//! Sources: Mesa's `tgsi_info_opcodes.h` (numbers, operand counts, output modes, flags; the
//! facts the test checks are in `crate/tests/data/mesa-opcodes.tsv`), `tgsi_info.c` (type inference) and the 2010 edition of tgsi.rst (legacy opcodes).

use serde::Serialize;

/// How the result channels relate to the source channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OutputMode {
    /// Each dst channel is computed from the same channel of the sources.
    Component,
    /// One scalar result (from the x channels) written to every enabled channel.
    Replicated,
    /// Each dst channel has its own formula (LIT, DST, UP2H, …).
    Channel,
    /// Anything else (texture, memory, queries).
    Other,
    /// No destination.
    None,
}

/// How an operand's bits are interpreted; decides what negate and absolute value mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ValType {
    Float,
    Int,
    Uint,
    Double,
    Int64,
    Uint64,
    /// MOV and UCMP's data sources: bits are moved unchanged (modifiers act as float ones).
    Untyped,
}

/// Grouping used by the documentation and the page's opcode reference, nothing else: what the
/// engine needs to know of an opcode is in the columns [`Family`], [`Denormal`] and `fuse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Category {
    Arithmetic,
    Comparison,
    Transcendental,
    Integer,
    Bitwise,
    Conversion,
    Double,
    Int64,
    Pack,
    Derivative,
    Address,
    Flow,
    Texture,
    Resource,
    Atomic,
    Interpolation,
    InterLane,
    Legacy,
}

/// Which implementation runs an opcode (the file `exec/ops/<family>.rs` the interpreter calls;
/// the compiling tier asks the same question). The family also says what an instruction reads:
/// the arithmetic families ([`Family::is_lane_wise`]) compute each lane from that lane's own
/// operands, so the interpreter may run them over any sub-span of the quads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Control flow, kills and no-ops: run by the machine itself (`exec/flow.rs`).
    Flow,
    /// 32-bit float arithmetic, comparisons and transcendentals (`exec/ops/float.rs`).
    Float,
    /// 32-bit integer, bitwise, address and conversion opcodes (`exec/ops/int.rs`).
    Int,
    /// Doubles in channel pairs (`exec/ops/double.rs`).
    Double,
    /// 64-bit integers in channel pairs (`exec/ops/int64.rs`).
    Int64,
    /// Packing and unpacking (`exec/ops/pack.rs`).
    Pack,
    /// Screen-space derivatives: they read the other lanes of the 2x2 quad (`exec/ops/quad.rs`).
    Derivative,
    /// Explicit interpolation of an input at another position: reads the inputs' plane
    /// equations (`exec/ops/quad.rs`).
    Interpolation,
    /// Votes, ballots, reads of other invocations, the helper flag and the clock: they look at
    /// the whole quad or batch (`exec/ops/quad.rs`).
    Quad,
    /// The TEX and SAMPLE families and the texture queries, through the texture hooks
    /// (`exec/ops/texture.rs`).
    Texture,
    /// Buffers, images, shared memory, atomics, FBFETCH and the geometry stage's EMIT/ENDPRIM
    /// (`exec/ops/memory.rs`).
    Memory,
    /// Refused at run time with `X008` and this reason.
    NotExecutable(&'static str),
}

impl Family {
    /// The variant's name, as `{:?}` prints the variants without a reason (messages use this
    /// rather than `{:?}`, whose builders would add to the widget's engine).
    pub fn name(self) -> &'static str {
        match self {
            Family::Flow => "Flow",
            Family::Float => "Float",
            Family::Int => "Int",
            Family::Double => "Double",
            Family::Int64 => "Int64",
            Family::Pack => "Pack",
            Family::Derivative => "Derivative",
            Family::Interpolation => "Interpolation",
            Family::Quad => "Quad",
            Family::Texture => "Texture",
            Family::Memory => "Memory",
            Family::NotExecutable(_) => "NotExecutable",
        }
    }

    /// Whether the family computes each lane from the same lane's operands only (the
    /// arithmetic families; not derivatives, votes, texture or resource access, interpolation,
    /// the clock or control flow).
    pub fn is_lane_wise(self) -> bool {
        matches!(self, Family::Float | Family::Int | Family::Double | Family::Int64 | Family::Pack)
    }
}

/// What a stage that flushes denormals (`exec::program::Denormals`: softpipe's draw stages,
/// and fragment shaders run inside the draw call) does to an opcode's operands and results.
/// Measured with the oracle: `tests/denormal-cases/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denormal {
    /// Float-typed operands read as zero when denormal, and a float result is flushed to zero.
    Flush,
    /// Bits pass unchanged: moves, sign modifiers, integer, bitwise, double and 64-bit
    /// opcodes, packing, derivatives, texture and memory access (in the JIT code these are bit
    /// operations or imports that do not flush).
    Bits,
    /// Only source `k`, the one compared, reads a denormal as zero; the result is one of the
    /// other sources' bits, unchanged (CMP, CND, and IF's condition).
    Condition(u8),
    /// LG2 and POW: glibc's `logf`/`powf` read the base's bits themselves under DAZ
    /// (`Inst::libm_daz`), and the result is flushed.
    LibmBase,
    /// SIN and COS: [`Denormal::Flush`] in the draw stages' code, but a fragment shader run
    /// inside the draw call calls the C library's `sinf`/`cosf`, which return a tiny argument's
    /// bits as they are.
    Trig,
}

/// The last operand is a texture target (`TEX dst, src, SAMP[0], 2D`).
pub const F_TEX: u16 = 1 << 0;
/// Writes memory (`is_store` in Mesa).
pub const F_STORE: u16 = 1 << 1;
/// Accepts a `:label` branch label.
pub const F_BRANCH: u16 = 1 << 2;
/// The printer dedents before this instruction.
pub const F_PRE_DEDENT: u16 = 1 << 3;
/// The printer indents after this instruction.
pub const F_POST_INDENT: u16 = 1 << 4;
/// Accepts memory qualifiers, a target and a format after the operands.
pub const F_MEMORY: u16 = 1 << 5;
/// Removed from TGSI; read as a legacy dialect with a warning naming the replacement.
pub const F_LEGACY: u16 = 1 << 6;
/// No target operand, but texel offsets may follow (SAMPLE … GATHER4).
pub const F_TEX_OFFSETS: u16 = 1 << 8;

/// Bit set of processors (bit = `Processor as u8`).
pub type StageMask = u8;
pub const S_VERT: StageMask = 1 << 0;
pub const S_FRAG: StageMask = 1 << 1;
pub const S_GEOM: StageMask = 1 << 2;
pub const S_TESS_CTRL: StageMask = 1 << 3;
pub const S_TESS_EVAL: StageMask = 1 << 4;
pub const S_COMP: StageMask = 1 << 5;
pub const S_ALL: StageMask = 0x3F;

/// One row of the table.
#[derive(Debug, Serialize)]
pub struct OpInfo {
    pub name: &'static str,
    /// Mesa's opcode number (`None` for legacy opcodes).
    pub mesa: Option<u16>,
    pub num_dst: u8,
    pub num_src: u8,
    pub output: OutputMode,
    pub flags: u16,
    /// Type of the result bits.
    pub dst_type: ValType,
    /// Type of each source operand, in order.
    pub src_types: &'static [ValType],
    /// Processors that may use the opcode.
    pub stages: StageMask,
    pub category: Category,
    /// The implementation that runs it, and so what it reads (see [`Family`]).
    #[serde(skip)]
    pub family: Family,
    /// What a flushing stage does to its operands and results.
    #[serde(skip)]
    pub denormal: Denormal,
    /// Its result may be computed straight into the destination register when the operands
    /// allow (`Inst::fused`, decided in `exec/compile.rs` `can_fuse`): per-component opcodes with
    /// one 32-bit destination of the modern arithmetic, comparison, integer, bitwise and
    /// conversion opcodes.
    #[serde(skip)]
    pub fuse: bool,
    /// One line in our own words, for the docs and the editor's hover (empty without the
    /// `text-tools` feature, as `formula`).
    pub summary: &'static str,
    /// The formula, per channel where it matters.
    pub formula: &'static str,
    /// For legacy opcodes: the modern form to use instead.
    pub replacement: &'static str,
    /// The AGAL instruction it lowers to, when it maps one to one (empty otherwise, and
    /// without the `agal` and `text-tools` features).
    pub agal: &'static str,
}

impl OpInfo {
    pub fn has(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }
    pub fn is_legacy(&self) -> bool {
        self.has(F_LEGACY)
    }
    pub fn src_type(&self, i: usize) -> ValType {
        self.src_types.get(i).copied().unwrap_or(ValType::Float)
    }
}

impl Opcode {
    /// Value type of destination `k`: the table's `dst_type`, except DFRACEXP's second
    /// destination, the exponent, a 32-bit integer per channel.
    pub fn dst_value_type(self, k: usize) -> ValType {
        if self == Opcode::DFRACEXP && k == 1 {
            ValType::Int
        } else {
            self.info().dst_type
        }
    }

    pub fn info(self) -> &'static OpInfo {
        // Every variant has its row: the table is generated with the enum.
        &OPCODES[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// Whether every channel the instruction writes is 0 or ~0 (all ones): the per-component
    /// comparisons giving a mask, and the helper and vote queries. Such a result is never a
    /// denormal (the compiling tier reads a row only they write without a flush,
    /// `jit::codegen::flush`). The table's formula of each is `dst.c = … ? ~0 : 0`.
    pub fn gives_mask(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::FSEQ
                | O::FSGE
                | O::FSLT
                | O::FSNE
                | O::ISGE
                | O::ISLT
                | O::USEQ
                | O::USGE
                | O::USLT
                | O::USNE
                | O::READ_HELPER
                | O::VOTE_ANY
                | O::VOTE_ALL
                | O::VOTE_EQ
        )
    }

    /// The opcode one edit away from `upper` (an upper-case word: a letter changed, added or
    /// removed), if exactly one is: the "did you mean" of the parser and `tgsi explain`.
    pub fn one_edit_away(upper: &str) -> Option<&'static str> {
        fn one_edit(a: &str, b: &str) -> bool {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            if a.len() == b.len() {
                return a.iter().zip(b).filter(|(x, y)| x != y).count() == 1;
            }
            let (s, l) = if a.len() < b.len() { (a, b) } else { (b, a) };
            if l.len() - s.len() != 1 {
                return false;
            }
            let i = s.iter().zip(l).take_while(|(x, y)| x == y).count();
            s[i..] == l[i + 1..]
        }
        let mut found = OPCODES.iter().filter(|o| one_edit(upper, o.name)).map(|o| o.name);
        let first = found.next()?;
        if found.next().is_some() {
            return None;
        }
        Some(first)
    }
    /// Finds an opcode by exact name, ignoring ASCII case.
    pub fn from_name(word: &str) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.name().eq_ignore_ascii_case(word))
    }
    /// The opcode with Mesa number `n` (`None` for an unused number or one past the table).
    pub fn from_mesa(n: u16) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.info().mesa == Some(n))
    }
    /// Every opcode, in table order.
    pub fn all() -> impl Iterator<Item = Opcode> {
        Opcode::ALL.iter().copied()
    }
    /// Whether `n` is a number below Mesa's last opcode that names no opcode (Mesa prints such
    /// numbers as `UNK<n>`).
    pub fn is_unused_number(n: u16) -> bool {
        n < MESA_OPCODE_COUNT && Opcode::from_mesa(n).is_none()
    }
}

/// Mesa's `TGSI_OPCODE_LAST`: modern opcode numbers are below it.
pub const MESA_OPCODE_COUNT: u16 = 252;

impl Serialize for Opcode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.info().name)
    }
}

use Category as C;
use Denormal as D;
use Family as F;
use OutputMode as O;
use ValType as T;

/// One cell of the table. The reference columns (`summary`, `formula`) are only for the page's
/// opcode reference and the CLI (`text-tools`), the `agal` column for the AGAL export and that
/// reference; the lean engine has them empty.
macro_rules! opcode_column {
    (summary, $value:expr) => {
        if cfg!(feature = "text-tools") {
            $value
        } else {
            ""
        }
    };
    (formula, $value:expr) => {
        if cfg!(feature = "text-tools") {
            $value
        } else {
            ""
        }
    };
    (agal, $value:expr) => {
        if cfg!(any(feature = "agal", feature = "text-tools")) {
            $value
        } else {
            ""
        }
    };
    ($field:ident, $value:expr) => {
        $value
    };
}

/// Declares every opcode once: the enum variant (named as the mnemonic), its row of the table
/// (`name` comes from the variant), and the list of all opcodes, in table order — modern opcodes
/// by Mesa number (unused numbers have no row), then the 2010 legacy opcodes.
macro_rules! opcode_table {
    ($($op:ident { $($field:ident: $value:expr),* $(,)? }),* $(,)?) => {
        /// A TGSI opcode. Every variant has exactly one row in [`OPCODES`]; Mesa's number is
        /// in the row (`mesa`), the variant's own value is only its position in the table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u16)]
        pub enum Opcode {
            $($op),*
        }

        /// The table, in the enum's order: `OPCODES[op as usize]` is `op`'s row.
        pub static OPCODES: &[OpInfo] = &[
            $(OpInfo { name: stringify!($op), $($field: opcode_column!($field, $value)),* }),*
        ];

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$op),*];
        }
    };
}

opcode_table! {
    ARL { mesa: Some(0), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float], stages: S_ALL, category: C::Address, family: F::Int, denormal: D::Flush, fuse: false, summary: "Load the address register with the floor of a float", formula: "dst.c = (int) floor(src.c)", replacement: "", agal: "" },
    MOV { mesa: Some(1), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Untyped, src_types: &[T::Untyped], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Bits, fuse: true, summary: "Copy a register (bits are moved unchanged)", formula: "dst.c = src.c", replacement: "", agal: "mov" },
    LIT { mesa: Some(2), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Lighting coefficients: ambient, diffuse and specular terms", formula: "x = 1; y = max(src.x, 0); z = src.x > 0 ? max(src.y, 0)^clamp(src.w, -128, 128) : 0; w = 1", replacement: "", agal: "" },
    RCP { mesa: Some(3), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Reciprocal of the x component, replicated", formula: "dst = 1 / src.x", replacement: "", agal: "rcp" },
    RSQ { mesa: Some(4), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Reciprocal square root of the x component, replicated", formula: "dst = 1 / sqrt(src.x)", replacement: "", agal: "rsq" },
    EXP { mesa: Some(5), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Partial-precision base-2 exponential, split into parts", formula: "x = 2^floor(src.x); y = src.x - floor(src.x); z = 2^src.x; w = 1", replacement: "", agal: "" },
    LOG { mesa: Some(6), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Partial-precision base-2 logarithm, split into parts", formula: "x = floor(log2|src.x|); y = |src.x| / 2^floor(log2|src.x|); z = log2|src.x|; w = 1", replacement: "", agal: "" },
    MUL { mesa: Some(7), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Multiply", formula: "dst.c = src0.c * src1.c", replacement: "", agal: "mul" },
    ADD { mesa: Some(8), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Add", formula: "dst.c = src0.c + src1.c", replacement: "", agal: "add" },
    DP3 { mesa: Some(9), num_dst: 1, num_src: 2, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: false, summary: "Dot product of the xyz components, replicated", formula: "dst = src0.x*src1.x + src0.y*src1.y + src0.z*src1.z", replacement: "", agal: "dp3" },
    DP4 { mesa: Some(10), num_dst: 1, num_src: 2, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: false, summary: "Dot product of all four components, replicated", formula: "dst = src0.x*src1.x + src0.y*src1.y + src0.z*src1.z + src0.w*src1.w", replacement: "", agal: "dp4" },
    DST { mesa: Some(11), num_dst: 1, num_src: 2, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: false, summary: "Distance vector from squared and reciprocal distances", formula: "x = 1; y = src0.y * src1.y; z = src0.z; w = src1.w", replacement: "", agal: "" },
    MIN { mesa: Some(12), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Minimum", formula: "dst.c = min(src0.c, src1.c)", replacement: "", agal: "min" },
    MAX { mesa: Some(13), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Maximum", formula: "dst.c = max(src0.c, src1.c)", replacement: "", agal: "max" },
    SLT { mesa: Some(14), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Set to 1.0 where less than, else 0.0", formula: "dst.c = src0.c < src1.c ? 1.0 : 0.0", replacement: "", agal: "slt" },
    SGE { mesa: Some(15), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Set to 1.0 where greater or equal, else 0.0", formula: "dst.c = src0.c >= src1.c ? 1.0 : 0.0", replacement: "", agal: "sge" },
    MAD { mesa: Some(16), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Multiply then add (two roundings in tgsi_exec)", formula: "dst.c = src0.c * src1.c + src2.c", replacement: "", agal: "" },
    TEX_LZ { mesa: Some(17), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture at level of detail 0", formula: "dst = sample(src1, coord = src0, lod = 0)", replacement: "", agal: "" },
    LRP { mesa: Some(18), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Linear interpolation with src0 as the weight", formula: "dst.c = src0.c * src1.c + (1 - src0.c) * src2.c", replacement: "", agal: "" },
    FMA { mesa: Some(19), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Fused multiply-add (one rounding)", formula: "dst.c = fma(src0.c, src1.c, src2.c)", replacement: "", agal: "" },
    SQRT { mesa: Some(20), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Square root of the x component, replicated", formula: "dst = sqrt(src.x)", replacement: "", agal: "sqt" },
    LDEXP { mesa: Some(21), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Int], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Multiply by an integer power of two", formula: "dst.c = src0.c * 2^src1.c (src1 integer)", replacement: "", agal: "" },
    F2U64 { mesa: Some(22), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Float], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Flush, fuse: false, summary: "Float to 64-bit unsigned integer", formula: "dst.xy = (u64) src.x; dst.zw = (u64) src.y", replacement: "", agal: "" },
    F2I64 { mesa: Some(23), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Float], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Flush, fuse: false, summary: "Float to 64-bit signed integer", formula: "dst.xy = (i64) src.x; dst.zw = (i64) src.y", replacement: "", agal: "" },
    FRC { mesa: Some(24), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Fractional part", formula: "dst.c = src.c - floor(src.c)", replacement: "", agal: "frc" },
    TXF_LZ { mesa: Some(25), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Fetch one texel by integer coordinates from level 0", formula: "dst = texel(src1, icoord = src0.xyz, lod = 0)", replacement: "", agal: "" },
    FLR { mesa: Some(26), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Round down to an integral value", formula: "dst.c = floor(src.c)", replacement: "", agal: "" },
    ROUND { mesa: Some(27), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Round to the nearest integral value, halves to even", formula: "dst.c = round_even(src.c)", replacement: "", agal: "" },
    EX2 { mesa: Some(28), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Flush, fuse: false, summary: "Base-2 exponential of the x component, replicated", formula: "dst = 2^src.x", replacement: "", agal: "exp" },
    LG2 { mesa: Some(29), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::LibmBase, fuse: false, summary: "Base-2 logarithm of the x component, replicated", formula: "dst = log2(src.x)", replacement: "", agal: "log" },
    POW { mesa: Some(30), num_dst: 1, num_src: 2, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::LibmBase, fuse: false, summary: "Power of the x components, replicated", formula: "dst = src0.x ^ src1.x", replacement: "", agal: "pow" },
    DEMOTE { mesa: Some(31), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_FRAG, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Turn the invocation into a helper: it keeps running for derivatives but writes nothing", formula: "helper = true", replacement: "", agal: "" },
    U2I64 { mesa: Some(32), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Uint], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Bits, fuse: false, summary: "32-bit unsigned to 64-bit signed integer", formula: "dst.xy = (i64) src.x; dst.zw = (i64) src.y", replacement: "", agal: "" },
    CLOCK { mesa: Some(33), num_dst: 1, num_src: 0, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "Read a monotonically increasing 64-bit shader clock", formula: "dst.xy = clock()", replacement: "", agal: "" },
    I2I64 { mesa: Some(34), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Bits, fuse: false, summary: "32-bit signed to 64-bit signed integer (sign-extended)", formula: "dst.xy = (i64) src.x; dst.zw = (i64) src.y", replacement: "", agal: "" },
    READ_HELPER { mesa: Some(35), num_dst: 1, num_src: 0, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[], stages: S_FRAG, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "Whether this invocation is (now) a helper, as ~0 or 0", formula: "dst.c = is_helper ? ~0 : 0", replacement: "", agal: "" },
    COS { mesa: Some(36), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Trig, fuse: false, summary: "Cosine of the x component (radians), replicated", formula: "dst = cos(src.x)", replacement: "", agal: "cos" },
    DDX { mesa: Some(37), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Derivative, family: F::Derivative, denormal: D::Bits, fuse: false, summary: "Screen-space derivative along x (coarse: shared by the quad)", formula: "dst.c = d(src.c)/dx", replacement: "", agal: "ddx" },
    DDY { mesa: Some(38), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Derivative, family: F::Derivative, denormal: D::Bits, fuse: false, summary: "Screen-space derivative along y (coarse: shared by the quad)", formula: "dst.c = d(src.c)/dy", replacement: "", agal: "ddy" },
    KILL { mesa: Some(39), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_FRAG, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Discard the fragment unconditionally", formula: "discard", replacement: "", agal: "" },
    PK2H { mesa: Some(40), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Pack two floats as half floats into one 32-bit value, replicated", formula: "dst = f16(src.x) | f16(src.y) << 16", replacement: "", agal: "" },
    PK2US { mesa: Some(41), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Pack two floats as unsigned 16-bit normalized values, replicated", formula: "dst = unorm16(src.x) | unorm16(src.y) << 16", replacement: "", agal: "" },
    PK4B { mesa: Some(42), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Pack four floats as signed 8-bit normalized values, replicated", formula: "dst = snorm8(src.x) | snorm8(src.y) << 8 | snorm8(src.z) << 16 | snorm8(src.w) << 24", replacement: "", agal: "" },
    PK4UB { mesa: Some(43), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Pack four floats as unsigned 8-bit normalized values, replicated", formula: "dst = unorm8(src.x) | unorm8(src.y) << 8 | unorm8(src.z) << 16 | unorm8(src.w) << 24", replacement: "", agal: "" },
    D2U64 { mesa: Some(44), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Double], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Bits, fuse: false, summary: "Double to 64-bit unsigned integer", formula: "dst.xy = (u64) src.xy; dst.zw = (u64) src.zw", replacement: "", agal: "" },
    SEQ { mesa: Some(45), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Set to 1.0 where equal, else 0.0", formula: "dst.c = src0.c == src1.c ? 1.0 : 0.0", replacement: "", agal: "seq" },
    D2I64 { mesa: Some(46), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Double], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Bits, fuse: false, summary: "Double to 64-bit signed integer", formula: "dst.xy = (i64) src.xy; dst.zw = (i64) src.zw", replacement: "", agal: "" },
    SGT { mesa: Some(47), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Set to 1.0 where greater than, else 0.0", formula: "dst.c = src0.c > src1.c ? 1.0 : 0.0", replacement: "", agal: "" },
    SIN { mesa: Some(48), num_dst: 1, num_src: 1, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Transcendental, family: F::Float, denormal: D::Trig, fuse: false, summary: "Sine of the x component (radians), replicated", formula: "dst = sin(src.x)", replacement: "", agal: "sin" },
    SLE { mesa: Some(49), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Set to 1.0 where less or equal, else 0.0", formula: "dst.c = src0.c <= src1.c ? 1.0 : 0.0", replacement: "", agal: "" },
    SNE { mesa: Some(50), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Set to 1.0 where not equal, else 0.0", formula: "dst.c = src0.c != src1.c ? 1.0 : 0.0", replacement: "", agal: "sne" },
    U642D { mesa: Some(51), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Uint64], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned integer to double", formula: "dst.xy = (double) src.xy; dst.zw = (double) src.zw", replacement: "", agal: "" },
    TEX { mesa: Some(52), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture with implicit derivatives", formula: "dst = sample(src1, coord = src0)", replacement: "", agal: "tex" },
    TXD { mesa: Some(53), num_dst: 1, num_src: 4, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture with explicit derivatives", formula: "dst = sample(src3, coord = src0, ddx = src1, ddy = src2)", replacement: "", agal: "" },
    TXP { mesa: Some(54), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture with projective coordinates", formula: "dst = sample(src1, coord = src0.xyz / src0.w)", replacement: "", agal: "" },
    UP2H { mesa: Some(55), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Uint], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Unpack two half floats from one 32-bit value", formula: "x = z = f32(src.x & 0xffff); y = w = f32(src.x >> 16)", replacement: "", agal: "" },
    UP2US { mesa: Some(56), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Unpack two unsigned 16-bit normalized values", formula: "x = z = unorm16(src.x & 0xffff); y = w = unorm16(src.x >> 16)", replacement: "", agal: "" },
    UP4B { mesa: Some(57), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Unpack four signed 8-bit normalized values", formula: "dst.c = snorm8((src.x >> 8c) & 0xff)", replacement: "", agal: "" },
    UP4UB { mesa: Some(58), num_dst: 1, num_src: 1, output: O::Channel, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Pack, family: F::Pack, denormal: D::Bits, fuse: false, summary: "Unpack four unsigned 8-bit normalized values", formula: "dst.c = unorm8((src.x >> 8c) & 0xff)", replacement: "", agal: "" },
    U642F { mesa: Some(59), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Uint64], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Flush, fuse: true, summary: "64-bit unsigned integer to float", formula: "dst.x = (float) src.xy; dst.y = (float) src.zw", replacement: "", agal: "" },
    I642F { mesa: Some(60), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Int64], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Flush, fuse: true, summary: "64-bit signed integer to float", formula: "dst.x = (float) src.xy; dst.y = (float) src.zw", replacement: "", agal: "" },
    ARR { mesa: Some(61), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float], stages: S_ALL, category: C::Address, family: F::Int, denormal: D::Flush, fuse: false, summary: "Load the address register with a float rounded to the nearest integer", formula: "dst.c = (int) round(src.c)", replacement: "", agal: "" },
    I642D { mesa: Some(62), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Int64], stages: S_ALL, category: C::Conversion, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed integer to double", formula: "dst.xy = (double) src.xy; dst.zw = (double) src.zw", replacement: "", agal: "" },
    CAL { mesa: Some(63), num_dst: 0, num_src: 0, output: O::None, flags: F_BRANCH, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Call the subroutine that starts at the label", formula: "push(return address); jump to BGNSUB", replacement: "", agal: "" },
    RET { mesa: Some(64), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Return from a subroutine (or end the shader outside one)", formula: "jump to pop()", replacement: "", agal: "" },
    SSG { mesa: Some(65), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Sign: -1.0, 0.0 or 1.0", formula: "dst.c = src.c > 0 ? 1 : src.c < 0 ? -1 : 0", replacement: "", agal: "" },
    CMP { mesa: Some(66), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Condition(0), fuse: true, summary: "Select by sign: src1 where src0 is negative, else src2", formula: "dst.c = src0.c < 0 ? src1.c : src2.c", replacement: "", agal: "" },
    TXB { mesa: Some(68), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture with a level-of-detail bias in w", formula: "dst = sample(src1, coord = src0.xyz, bias = src0.w)", replacement: "", agal: "" },
    FBFETCH { mesa: Some(69), num_dst: 1, num_src: 1, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Resource, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Read the framebuffer color under the fragment for a COLOR output", formula: "dst = framebuffer[src]", replacement: "", agal: "" },
    DIV { mesa: Some(70), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Divide", formula: "dst.c = src0.c / src1.c", replacement: "", agal: "div" },
    DP2 { mesa: Some(71), num_dst: 1, num_src: 2, output: O::Replicated, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: false, summary: "Dot product of the xy components, replicated", formula: "dst = src0.x*src1.x + src0.y*src1.y", replacement: "", agal: "" },
    TXL { mesa: Some(72), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture at an explicit level of detail in w", formula: "dst = sample(src1, coord = src0.xyz, lod = src0.w)", replacement: "", agal: "" },
    BRK { mesa: Some(73), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Leave the innermost loop (or SWITCH case)", formula: "break", replacement: "", agal: "" },
    IF { mesa: Some(74), num_dst: 0, num_src: 1, output: O::None, flags: F_BRANCH|F_POST_INDENT, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Condition(0), fuse: false, summary: "Begin a conditional block taken where the float x component is not zero", formula: "if (src.x != 0.0)", replacement: "", agal: "" },
    UIF { mesa: Some(75), num_dst: 0, num_src: 1, output: O::None, flags: F_BRANCH|F_POST_INDENT, dst_type: T::Float, src_types: &[T::Uint], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Begin a conditional block taken where the integer x component is not zero", formula: "if (src.x != 0)", replacement: "", agal: "" },
    READ_INVOC { mesa: Some(76), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "Read a value from the invocation numbered by src1.x", formula: "dst.c = src0.c of invocation src1.x", replacement: "", agal: "" },
    ELSE { mesa: Some(77), num_dst: 0, num_src: 0, output: O::None, flags: F_BRANCH|F_PRE_DEDENT|F_POST_INDENT, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Switch to the other branch of the current IF/UIF", formula: "else", replacement: "", agal: "els" },
    ENDIF { mesa: Some(78), num_dst: 0, num_src: 0, output: O::None, flags: F_PRE_DEDENT, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "End the current IF/UIF block", formula: "endif", replacement: "", agal: "eif" },
    DDX_FINE { mesa: Some(79), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Derivative, family: F::Derivative, denormal: D::Bits, fuse: false, summary: "Screen-space derivative along x, one per row of the quad", formula: "dst.c = d(src.c)/dx", replacement: "", agal: "" },
    DDY_FINE { mesa: Some(80), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Derivative, family: F::Derivative, denormal: D::Bits, fuse: false, summary: "Screen-space derivative along y, one per column of the quad", formula: "dst.c = d(src.c)/dy", replacement: "", agal: "" },
    CEIL { mesa: Some(83), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Round up to an integral value", formula: "dst.c = ceil(src.c)", replacement: "", agal: "" },
    I2F { mesa: Some(84), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Int], stages: S_ALL, category: C::Conversion, family: F::Int, denormal: D::Flush, fuse: true, summary: "Signed integer to float", formula: "dst.c = (float) src.c", replacement: "", agal: "" },
    NOT { mesa: Some(85), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Bitwise not", formula: "dst.c = ~src.c", replacement: "", agal: "" },
    TRUNC { mesa: Some(86), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Arithmetic, family: F::Float, denormal: D::Flush, fuse: true, summary: "Round toward zero to an integral value", formula: "dst.c = trunc(src.c)", replacement: "", agal: "" },
    SHL { mesa: Some(87), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Shift left (count taken modulo 32)", formula: "dst.c = src0.c << (src1.c & 31)", replacement: "", agal: "" },
    BALLOT { mesa: Some(88), num_dst: 1, num_src: 1, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "Bit mask of the active invocations where the value is true", formula: "dst.xy = 64-bit mask of (src.x != 0)", replacement: "", agal: "" },
    AND { mesa: Some(89), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Bitwise and", formula: "dst.c = src0.c & src1.c", replacement: "", agal: "" },
    OR { mesa: Some(90), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Bitwise or", formula: "dst.c = src0.c | src1.c", replacement: "", agal: "" },
    MOD { mesa: Some(91), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer remainder", formula: "dst.c = src0.c % src1.c", replacement: "", agal: "" },
    XOR { mesa: Some(92), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Bitwise exclusive or", formula: "dst.c = src0.c ^ src1.c", replacement: "", agal: "" },
    TXF { mesa: Some(94), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Fetch one texel by integer coordinates and level (no filtering)", formula: "dst = texel(src1, icoord = src0.xyz, lod = src0.w)", replacement: "", agal: "" },
    TXQ { mesa: Some(95), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Query the texture size at a level", formula: "dst = size(src1, lod = src0.x); dst.w = levels", replacement: "", agal: "" },
    CONT { mesa: Some(96), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Go to the next iteration of the innermost loop", formula: "continue", replacement: "", agal: "" },
    EMIT { mesa: Some(97), num_dst: 0, num_src: 1, output: O::None, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_GEOM, category: C::Flow, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Emit a vertex to the stream given in src.x (geometry shaders)", formula: "emit(stream = src.x)", replacement: "", agal: "" },
    ENDPRIM { mesa: Some(98), num_dst: 0, num_src: 1, output: O::None, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_GEOM, category: C::Flow, family: F::Memory, denormal: D::Bits, fuse: false, summary: "End the current primitive of the stream given in src.x (geometry shaders)", formula: "end_primitive(stream = src.x)", replacement: "", agal: "" },
    BGNLOOP { mesa: Some(99), num_dst: 0, num_src: 0, output: O::None, flags: F_BRANCH|F_POST_INDENT, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Begin a loop (it runs until BRK)", formula: "loop {", replacement: "", agal: "" },
    BGNSUB { mesa: Some(100), num_dst: 0, num_src: 0, output: O::None, flags: F_POST_INDENT, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Begin a subroutine body (the target of CAL)", formula: "sub {", replacement: "", agal: "" },
    ENDLOOP { mesa: Some(101), num_dst: 0, num_src: 0, output: O::None, flags: F_BRANCH|F_PRE_DEDENT, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "End of a loop: jump back to BGNLOOP", formula: "}", replacement: "", agal: "" },
    ENDSUB { mesa: Some(102), num_dst: 0, num_src: 0, output: O::None, flags: F_PRE_DEDENT, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "End a subroutine body", formula: "}", replacement: "", agal: "" },
    ATOMFADD { mesa: Some(103), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic float add to memory; returns the old value", formula: "dst.x = mem[src1]; mem[src1] += src2.x", replacement: "", agal: "" },
    TXQS { mesa: Some(104), num_dst: 1, num_src: 1, output: O::Other, flags: F_TEX, dst_type: T::Uint, src_types: &[T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Query the number of samples of a texture", formula: "dst.x = samples(src0)", replacement: "", agal: "" },
    RESQ { mesa: Some(105), num_dst: 1, num_src: 1, output: O::Other, flags: F_MEMORY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Resource, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Query the size of a buffer (bytes) or image (width, height, layers, samples)", formula: "dst = size(src0)", replacement: "", agal: "" },
    READ_FIRST { mesa: Some(106), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "Broadcast the value of the first active invocation", formula: "dst.c = src.c of the first active invocation", replacement: "", agal: "" },
    NOP { mesa: Some(107), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Do nothing", formula: "", replacement: "", agal: "" },
    FSEQ { mesa: Some(108), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Float compare equal, giving ~0 or 0", formula: "dst.c = src0.c == src1.c ? ~0 : 0", replacement: "", agal: "" },
    FSGE { mesa: Some(109), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Float compare greater or equal, giving ~0 or 0", formula: "dst.c = src0.c >= src1.c ? ~0 : 0", replacement: "", agal: "" },
    FSLT { mesa: Some(110), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Float compare less than, giving ~0 or 0", formula: "dst.c = src0.c < src1.c ? ~0 : 0", replacement: "", agal: "" },
    FSNE { mesa: Some(111), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Flush, fuse: true, summary: "Float compare not equal (true for NaN), giving ~0 or 0", formula: "dst.c = src0.c != src1.c ? ~0 : 0", replacement: "", agal: "" },
    MEMBAR { mesa: Some(112), num_dst: 0, num_src: 1, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Uint], stages: S_ALL, category: C::Resource, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Wait for the memory accesses selected by the bit mask in src.x", formula: "barrier(kinds = src.x)", replacement: "", agal: "" },
    KILL_IF { mesa: Some(116), num_dst: 0, num_src: 1, output: O::None, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Discard the fragment if any component is negative", formula: "if (src.x < 0 || src.y < 0 || src.z < 0 || src.w < 0) discard", replacement: "", agal: "kil" },
    END { mesa: Some(117), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "End of the program", formula: "stop", replacement: "", agal: "" },
    DFMA { mesa: Some(118), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double fused multiply-add", formula: "dst.xy = fma(src0.xy, src1.xy, src2.xy); dst.zw likewise", replacement: "", agal: "" },
    F2I { mesa: Some(119), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Float], stages: S_ALL, category: C::Conversion, family: F::Int, denormal: D::Flush, fuse: true, summary: "Float to signed integer, rounding toward zero", formula: "dst.c = (int) src.c", replacement: "", agal: "" },
    IDIV { mesa: Some(120), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer division", formula: "dst.c = src0.c / src1.c", replacement: "", agal: "" },
    IMAX { mesa: Some(121), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer maximum", formula: "dst.c = max(src0.c, src1.c)", replacement: "", agal: "" },
    IMIN { mesa: Some(122), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer minimum", formula: "dst.c = min(src0.c, src1.c)", replacement: "", agal: "" },
    INEG { mesa: Some(123), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer negation", formula: "dst.c = -src.c", replacement: "", agal: "" },
    ISGE { mesa: Some(124), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed compare greater or equal, giving ~0 or 0", formula: "dst.c = src0.c >= src1.c ? ~0 : 0", replacement: "", agal: "" },
    ISHR { mesa: Some(125), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Arithmetic shift right (count modulo 32)", formula: "dst.c = src0.c >> (src1.c & 31), sign-filling", replacement: "", agal: "" },
    ISLT { mesa: Some(126), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed compare less than, giving ~0 or 0", formula: "dst.c = src0.c < src1.c ? ~0 : 0", replacement: "", agal: "" },
    F2U { mesa: Some(127), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Float], stages: S_ALL, category: C::Conversion, family: F::Int, denormal: D::Flush, fuse: true, summary: "Float to unsigned integer, rounding toward zero", formula: "dst.c = (unsigned) src.c", replacement: "", agal: "" },
    U2F { mesa: Some(128), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Uint], stages: S_ALL, category: C::Conversion, family: F::Int, denormal: D::Flush, fuse: true, summary: "Unsigned integer to float", formula: "dst.c = (float) src.c", replacement: "", agal: "" },
    UADD { mesa: Some(129), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Integer add (wraps around)", formula: "dst.c = src0.c + src1.c", replacement: "", agal: "" },
    UDIV { mesa: Some(130), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned integer division (x / 0 = ~0)", formula: "dst.c = src0.c / src1.c", replacement: "", agal: "" },
    UMAD { mesa: Some(131), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned multiply then add (wraps around)", formula: "dst.c = src0.c * src1.c + src2.c", replacement: "", agal: "" },
    UMAX { mesa: Some(132), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned integer maximum", formula: "dst.c = max(src0.c, src1.c)", replacement: "", agal: "" },
    UMIN { mesa: Some(133), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned integer minimum", formula: "dst.c = min(src0.c, src1.c)", replacement: "", agal: "" },
    UMOD { mesa: Some(134), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned integer remainder (x % 0 = ~0)", formula: "dst.c = src0.c % src1.c", replacement: "", agal: "" },
    UMUL { mesa: Some(135), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Integer multiply, low 32 bits", formula: "dst.c = src0.c * src1.c", replacement: "", agal: "" },
    USEQ { mesa: Some(136), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Integer compare equal, giving ~0 or 0", formula: "dst.c = src0.c == src1.c ? ~0 : 0", replacement: "", agal: "" },
    USGE { mesa: Some(137), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned compare greater or equal, giving ~0 or 0", formula: "dst.c = src0.c >= src1.c ? ~0 : 0", replacement: "", agal: "" },
    USHR { mesa: Some(138), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Logical shift right (count modulo 32)", formula: "dst.c = src0.c >> (src1.c & 31), zero-filling", replacement: "", agal: "" },
    USLT { mesa: Some(139), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned compare less than, giving ~0 or 0", formula: "dst.c = src0.c < src1.c ? ~0 : 0", replacement: "", agal: "" },
    USNE { mesa: Some(140), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Integer compare not equal, giving ~0 or 0", formula: "dst.c = src0.c != src1.c ? ~0 : 0", replacement: "", agal: "" },
    SWITCH { mesa: Some(141), num_dst: 0, num_src: 1, output: O::None, flags: 0, dst_type: T::Float, src_types: &[T::Uint], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Begin a switch on the integer x component", formula: "switch (src.x)", replacement: "", agal: "" },
    CASE { mesa: Some(142), num_dst: 0, num_src: 1, output: O::None, flags: 0, dst_type: T::Float, src_types: &[T::Uint], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "A case label of the enclosing SWITCH", formula: "case src.x:", replacement: "", agal: "" },
    DEFAULT { mesa: Some(143), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "The default label of the enclosing SWITCH", formula: "default:", replacement: "", agal: "" },
    ENDSWITCH { mesa: Some(144), num_dst: 0, num_src: 0, output: O::None, flags: 0, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Flow, family: F::Flow, denormal: D::Bits, fuse: false, summary: "End of a SWITCH", formula: "}", replacement: "", agal: "" },
    SAMPLE { mesa: Some(145), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a sampler view with a separate sampler", formula: "dst = sample(view src1, sampler src2, coord = src0)", replacement: "", agal: "" },
    SAMPLE_I { mesa: Some(146), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Fetch one texel of a sampler view by integer coordinates", formula: "dst = texel(view src1, icoord = src0)", replacement: "", agal: "" },
    SAMPLE_I_MS { mesa: Some(147), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Uint, T::Uint, T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Fetch one sample of a multisampled sampler view", formula: "dst = texel(view src1, icoord = src0, sample = src2.x)", replacement: "", agal: "" },
    SAMPLE_B { mesa: Some(148), num_dst: 1, num_src: 4, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a sampler view with a level-of-detail bias", formula: "dst = sample(view src1, sampler src2, coord = src0, bias = src3.x)", replacement: "", agal: "" },
    SAMPLE_C { mesa: Some(149), num_dst: 1, num_src: 4, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a sampler view with a depth comparison", formula: "dst = compare(view src1, sampler src2, coord = src0, ref = src3.x)", replacement: "", agal: "" },
    SAMPLE_C_LZ { mesa: Some(150), num_dst: 1, num_src: 4, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Depth-comparison sample at level of detail 0", formula: "dst = compare(view src1, sampler src2, coord = src0, ref = src3.x, lod = 0)", replacement: "", agal: "" },
    SAMPLE_D { mesa: Some(151), num_dst: 1, num_src: 5, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a sampler view with explicit derivatives", formula: "dst = sample(view src1, sampler src2, coord = src0, ddx = src3, ddy = src4)", replacement: "", agal: "" },
    SAMPLE_L { mesa: Some(152), num_dst: 1, num_src: 4, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a sampler view at an explicit level of detail", formula: "dst = sample(view src1, sampler src2, coord = src0, lod = src3.x)", replacement: "", agal: "" },
    GATHER4 { mesa: Some(153), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX_OFFSETS, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Gather the four texels a bilinear filter would use", formula: "dst = gather(view src1, sampler src2, coord = src0)", replacement: "", agal: "" },
    SVIEWINFO { mesa: Some(154), num_dst: 1, num_src: 2, output: O::Other, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Query the size and level count of a sampler view", formula: "dst.xyz = size(view src1, lod = src0.x); dst.w = levels", replacement: "", agal: "" },
    SAMPLE_POS { mesa: Some(155), num_dst: 1, num_src: 2, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Position of a sample within the pixel", formula: "dst.xy = sample_position(src0, sample = src1.x)", replacement: "", agal: "" },
    SAMPLE_INFO { mesa: Some(156), num_dst: 1, num_src: 2, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Number of samples of a resource", formula: "dst.x = samples(src0)", replacement: "", agal: "" },
    UARL { mesa: Some(157), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Address, family: F::Int, denormal: D::Bits, fuse: false, summary: "Load the address register with an integer", formula: "dst.c = src.c", replacement: "", agal: "" },
    UCMP { mesa: Some(158), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Untyped, src_types: &[T::Uint, T::Untyped, T::Untyped], stages: S_ALL, category: C::Comparison, family: F::Float, denormal: D::Bits, fuse: true, summary: "Select by an integer condition: src1 where src0 is not zero, else src2", formula: "dst.c = src0.c != 0 ? src1.c : src2.c", replacement: "", agal: "" },
    IABS { mesa: Some(159), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer absolute value", formula: "dst.c = |src.c|", replacement: "", agal: "" },
    ISSG { mesa: Some(160), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed integer sign: -1, 0 or 1", formula: "dst.c = src.c > 0 ? 1 : src.c < 0 ? -1 : 0", replacement: "", agal: "" },
    LOAD { mesa: Some(161), num_dst: 1, num_src: 2, output: O::Other, flags: F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint], stages: S_ALL, category: C::Resource, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Load from a buffer, image or memory at an address", formula: "dst = resource src0 [address src1]", replacement: "", agal: "" },
    STORE { mesa: Some(162), num_dst: 1, num_src: 2, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Uint, T::Float], stages: S_ALL, category: C::Resource, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Store to a buffer, image or memory at an address", formula: "resource dst [address src0] = src1", replacement: "", agal: "" },
    IMG2HND { mesa: Some(163), num_dst: 1, num_src: 1, output: O::Other, flags: F_MEMORY, dst_type: T::Uint, src_types: &[T::Uint], stages: S_ALL, category: C::Resource, family: F::NotExecutable("bindless image handles have no meaning without a driver"), denormal: D::Bits, fuse: false, summary: "Bindless handle of an image", formula: "dst = handle(src0)", replacement: "", agal: "" },
    SAMP2HND { mesa: Some(164), num_dst: 1, num_src: 1, output: O::Other, flags: F_TEX|F_MEMORY, dst_type: T::Uint, src_types: &[T::Uint], stages: S_ALL, category: C::Resource, family: F::NotExecutable("bindless sampler handles have no meaning without a driver"), denormal: D::Bits, fuse: false, summary: "Bindless handle of a sampler", formula: "dst = handle(src0)", replacement: "", agal: "" },
    BARRIER { mesa: Some(166), num_dst: 0, num_src: 0, output: O::Other, flags: F_MEMORY, dst_type: T::Float, src_types: &[], stages: S_COMP, category: C::Resource, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Wait until every thread of the compute block reaches this point", formula: "barrier()", replacement: "", agal: "" },
    ATOMUADD { mesa: Some(167), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic integer add; returns the old value", formula: "dst.x = mem[src1]; mem[src1] += src2.x", replacement: "", agal: "" },
    ATOMXCHG { mesa: Some(168), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic exchange; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = src2.x", replacement: "", agal: "" },
    ATOMCAS { mesa: Some(169), num_dst: 1, num_src: 4, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic compare-and-swap; returns the old value", formula: "dst.x = mem[src1]; if (dst.x == src2.x) mem[src1] = src3.x", replacement: "", agal: "" },
    ATOMAND { mesa: Some(170), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic bitwise and; returns the old value", formula: "dst.x = mem[src1]; mem[src1] &= src2.x", replacement: "", agal: "" },
    ATOMOR { mesa: Some(171), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic bitwise or; returns the old value", formula: "dst.x = mem[src1]; mem[src1] |= src2.x", replacement: "", agal: "" },
    ATOMXOR { mesa: Some(172), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic bitwise exclusive or; returns the old value", formula: "dst.x = mem[src1]; mem[src1] ^= src2.x", replacement: "", agal: "" },
    ATOMUMIN { mesa: Some(173), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic unsigned minimum; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = min(mem[src1], src2.x)", replacement: "", agal: "" },
    ATOMUMAX { mesa: Some(174), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic unsigned maximum; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = max(mem[src1], src2.x)", replacement: "", agal: "" },
    ATOMIMIN { mesa: Some(175), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic signed minimum; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = min(mem[src1], src2.x)", replacement: "", agal: "" },
    ATOMIMAX { mesa: Some(176), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE|F_MEMORY, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic signed maximum; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = max(mem[src1], src2.x)", replacement: "", agal: "" },
    TEX2 { mesa: Some(177), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Sample a texture whose coordinates need five components (the extra one in src1.x)", formula: "dst = sample(src2, coord = src0, ref = src1.x)", replacement: "", agal: "" },
    TXB2 { mesa: Some(178), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Biased sample whose coordinates fill four components (bias in src1.x)", formula: "dst = sample(src2, coord = src0, bias = src1.x)", replacement: "", agal: "" },
    TXL2 { mesa: Some(179), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Explicit-lod sample whose coordinates fill four components (lod in src1.x)", formula: "dst = sample(src2, coord = src0, lod = src1.x)", replacement: "", agal: "" },
    IMUL_HI { mesa: Some(180), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Signed multiply, high 32 bits of the 64-bit product", formula: "dst.c = (src0.c * src1.c) >> 32", replacement: "", agal: "" },
    UMUL_HI { mesa: Some(181), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint], stages: S_ALL, category: C::Integer, family: F::Int, denormal: D::Bits, fuse: true, summary: "Unsigned multiply, high 32 bits of the 64-bit product", formula: "dst.c = (src0.c * src1.c) >> 32", replacement: "", agal: "" },
    TG4 { mesa: Some(182), num_dst: 1, num_src: 3, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Gather one component (src1.x) of the four texels a bilinear filter would use", formula: "dst = gather(src2, coord = src0, component = src1.x)", replacement: "", agal: "" },
    LODQ { mesa: Some(183), num_dst: 1, num_src: 2, output: O::Other, flags: F_TEX, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Query the level of detail a sample would use", formula: "dst.x = clamped lod; dst.y = computed lod", replacement: "", agal: "" },
    IBFE { mesa: Some(184), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int, T::Int, T::Int], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Extract a bit field, sign-extended", formula: "dst.c = sign_extend((src0.c >> src1.c) & ((1 << src2.c) - 1), src2.c)", replacement: "", agal: "" },
    UBFE { mesa: Some(185), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Extract a bit field, zero-extended", formula: "dst.c = (src0.c >> src1.c) & ((1 << src2.c) - 1)", replacement: "", agal: "" },
    BFI { mesa: Some(186), num_dst: 1, num_src: 4, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint, T::Uint, T::Uint, T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Insert the low bits of src1 into src0 at an offset", formula: "mask = ((1 << src3.c) - 1) << src2.c; dst.c = (src1.c << src2.c) & mask | src0.c & ~mask", replacement: "", agal: "" },
    BREV { mesa: Some(187), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Reverse the order of the 32 bits", formula: "dst.c = reverse_bits(src.c)", replacement: "", agal: "" },
    POPC { mesa: Some(188), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Count the set bits", formula: "dst.c = popcount(src.c)", replacement: "", agal: "" },
    LSB { mesa: Some(189), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Index of the lowest set bit (-1 for 0)", formula: "dst.c = lowest_set_bit(src.c)", replacement: "", agal: "" },
    IMSB { mesa: Some(190), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Index of the highest bit that differs from the sign bit (-1 for 0 and -1)", formula: "dst.c = highest_bit_unlike_sign(src.c)", replacement: "", agal: "" },
    UMSB { mesa: Some(191), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Uint], stages: S_ALL, category: C::Bitwise, family: F::Int, denormal: D::Bits, fuse: true, summary: "Index of the highest set bit (-1 for 0)", formula: "dst.c = highest_set_bit(src.c)", replacement: "", agal: "" },
    INTERP_CENTROID { mesa: Some(192), num_dst: 1, num_src: 1, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Interpolation, family: F::Interpolation, denormal: D::Bits, fuse: false, summary: "Interpolate an input at the centroid of the covered samples", formula: "dst = interpolate(src0, at = centroid)", replacement: "", agal: "" },
    INTERP_SAMPLE { mesa: Some(193), num_dst: 1, num_src: 2, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_FRAG, category: C::Interpolation, family: F::Interpolation, denormal: D::Bits, fuse: false, summary: "Interpolate an input at the position of sample src1.x", formula: "dst = interpolate(src0, at = sample src1.x)", replacement: "", agal: "" },
    INTERP_OFFSET { mesa: Some(194), num_dst: 1, num_src: 2, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_FRAG, category: C::Interpolation, family: F::Interpolation, denormal: D::Bits, fuse: false, summary: "Interpolate an input at an offset from the pixel center", formula: "dst = interpolate(src0, at = center + src1.xy)", replacement: "", agal: "" },
    F2D { mesa: Some(195), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Float], stages: S_ALL, category: C::Conversion, family: F::Double, denormal: D::Flush, fuse: false, summary: "Float to double", formula: "dst.xy = (double) src.x; dst.zw = (double) src.y", replacement: "", agal: "" },
    D2F { mesa: Some(196), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Double], stages: S_ALL, category: C::Conversion, family: F::Double, denormal: D::Flush, fuse: true, summary: "Double to float", formula: "dst.x = (float) src.xy; dst.y = (float) src.zw", replacement: "", agal: "" },
    DABS { mesa: Some(197), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double absolute value", formula: "dst.xy = |src.xy|; dst.zw = |src.zw|", replacement: "", agal: "" },
    DNEG { mesa: Some(198), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double negation", formula: "dst.xy = -src.xy; dst.zw = -src.zw", replacement: "", agal: "" },
    DADD { mesa: Some(199), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double add", formula: "dst.xy = src0.xy + src1.xy; dst.zw likewise", replacement: "", agal: "" },
    DMUL { mesa: Some(200), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double multiply", formula: "dst.xy = src0.xy * src1.xy; dst.zw likewise", replacement: "", agal: "" },
    DMAX { mesa: Some(201), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double maximum", formula: "dst.xy = max(src0.xy, src1.xy); dst.zw likewise", replacement: "", agal: "" },
    DMIN { mesa: Some(202), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double minimum", formula: "dst.xy = min(src0.xy, src1.xy); dst.zw likewise", replacement: "", agal: "" },
    DSLT { mesa: Some(203), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double compare less than, giving ~0 or 0 per double", formula: "dst.x = src0.xy < src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    DSGE { mesa: Some(204), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double compare greater or equal, giving ~0 or 0 per double", formula: "dst.x = src0.xy >= src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    DSEQ { mesa: Some(205), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double compare equal, giving ~0 or 0 per double", formula: "dst.x = src0.xy == src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    DSNE { mesa: Some(206), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double compare not equal, giving ~0 or 0 per double", formula: "dst.x = src0.xy != src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    DRCP { mesa: Some(207), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double reciprocal", formula: "dst.xy = 1 / src.xy; dst.zw likewise", replacement: "", agal: "" },
    DSQRT { mesa: Some(208), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double square root", formula: "dst.xy = sqrt(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DMAD { mesa: Some(209), num_dst: 1, num_src: 3, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double multiply then add", formula: "dst.xy = src0.xy * src1.xy + src2.xy; dst.zw likewise", replacement: "", agal: "" },
    DFRAC { mesa: Some(210), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double fractional part", formula: "dst.xy = src.xy - floor(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DLDEXP { mesa: Some(211), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Int], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Multiply a double by an integer power of two", formula: "dst.xy = src0.xy * 2^src1.x; dst.zw = src0.zw * 2^src1.z", replacement: "", agal: "" },
    D2I { mesa: Some(213), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Double], stages: S_ALL, category: C::Conversion, family: F::Double, denormal: D::Bits, fuse: true, summary: "Double to signed integer, rounding toward zero", formula: "dst.x = (int) src.xy; dst.y = (int) src.zw", replacement: "", agal: "" },
    I2D { mesa: Some(214), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Int], stages: S_ALL, category: C::Conversion, family: F::Double, denormal: D::Bits, fuse: false, summary: "Signed integer to double", formula: "dst.xy = (double) src.x; dst.zw = (double) src.y", replacement: "", agal: "" },
    D2U { mesa: Some(215), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Uint, src_types: &[T::Double], stages: S_ALL, category: C::Conversion, family: F::Double, denormal: D::Bits, fuse: true, summary: "Double to unsigned integer, rounding toward zero", formula: "dst.x = (unsigned) src.xy; dst.y = (unsigned) src.zw", replacement: "", agal: "" },
    U2D { mesa: Some(216), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Uint], stages: S_ALL, category: C::Conversion, family: F::Double, denormal: D::Bits, fuse: false, summary: "Unsigned integer to double", formula: "dst.xy = (double) src.x; dst.zw = (double) src.y", replacement: "", agal: "" },
    DRSQ { mesa: Some(217), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double reciprocal square root", formula: "dst.xy = 1 / sqrt(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DTRUNC { mesa: Some(218), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double round toward zero", formula: "dst.xy = trunc(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DCEIL { mesa: Some(219), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double round up", formula: "dst.xy = ceil(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DFLR { mesa: Some(220), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double round down", formula: "dst.xy = floor(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DROUND { mesa: Some(221), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double round to nearest, halves to even", formula: "dst.xy = round_even(src.xy); dst.zw likewise", replacement: "", agal: "" },
    DSSG { mesa: Some(222), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double sign: -1.0, 0.0 or 1.0", formula: "dst.xy = sign(src.xy); dst.zw likewise", replacement: "", agal: "" },
    VOTE_ANY { mesa: Some(223), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "True (~0) if the value is true in any active invocation", formula: "dst.c = any(src.x != 0) ? ~0 : 0", replacement: "", agal: "" },
    VOTE_ALL { mesa: Some(224), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "True (~0) if the value is true in every active invocation", formula: "dst.c = all(src.x != 0) ? ~0 : 0", replacement: "", agal: "" },
    VOTE_EQ { mesa: Some(225), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::InterLane, family: F::Quad, denormal: D::Bits, fuse: false, summary: "True (~0) if the value is the same in every active invocation", formula: "dst.c = all_equal(src.x) ? ~0 : 0", replacement: "", agal: "" },
    U64SEQ { mesa: Some(226), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit integer compare equal, giving ~0 or 0", formula: "dst.x = src0.xy == src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    U64SNE { mesa: Some(227), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit integer compare not equal, giving ~0 or 0", formula: "dst.x = src0.xy != src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    I64SLT { mesa: Some(228), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int64, T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed compare less than, giving ~0 or 0", formula: "dst.x = src0.xy < src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    U64SLT { mesa: Some(229), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned compare less than, giving ~0 or 0", formula: "dst.x = src0.xy < src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    I64SGE { mesa: Some(230), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Int64, T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed compare greater or equal, giving ~0 or 0", formula: "dst.x = src0.xy >= src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    U64SGE { mesa: Some(231), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned compare greater or equal, giving ~0 or 0", formula: "dst.x = src0.xy >= src1.xy ? ~0 : 0; dst.z from zw", replacement: "", agal: "" },
    I64MIN { mesa: Some(232), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64, T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed minimum", formula: "dst.xy = min(src0.xy, src1.xy); dst.zw likewise", replacement: "", agal: "" },
    U64MIN { mesa: Some(233), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned minimum", formula: "dst.xy = min(src0.xy, src1.xy); dst.zw likewise", replacement: "", agal: "" },
    I64MAX { mesa: Some(234), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64, T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed maximum", formula: "dst.xy = max(src0.xy, src1.xy); dst.zw likewise", replacement: "", agal: "" },
    U64MAX { mesa: Some(235), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned maximum", formula: "dst.xy = max(src0.xy, src1.xy); dst.zw likewise", replacement: "", agal: "" },
    I64ABS { mesa: Some(236), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed absolute value", formula: "dst.xy = |src.xy|; dst.zw likewise", replacement: "", agal: "" },
    I64SSG { mesa: Some(237), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed sign: -1, 0 or 1", formula: "dst.xy = sign(src.xy); dst.zw likewise", replacement: "", agal: "" },
    I64NEG { mesa: Some(238), num_dst: 1, num_src: 1, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit integer negation", formula: "dst.xy = -src.xy; dst.zw likewise", replacement: "", agal: "" },
    U64ADD { mesa: Some(239), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit integer add (wraps around)", formula: "dst.xy = src0.xy + src1.xy; dst.zw likewise", replacement: "", agal: "" },
    U64MUL { mesa: Some(240), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit integer multiply, low 64 bits", formula: "dst.xy = src0.xy * src1.xy; dst.zw likewise", replacement: "", agal: "" },
    U64SHL { mesa: Some(241), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit shift left (count modulo 64)", formula: "dst.xy = src0.xy << (src1.x & 63); dst.zw by src1.y", replacement: "", agal: "" },
    I64SHR { mesa: Some(242), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64, T::Uint], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit arithmetic shift right (count modulo 64)", formula: "dst.xy = src0.xy >> (src1.x & 63), sign-filling; dst.zw by src1.y", replacement: "", agal: "" },
    U64SHR { mesa: Some(243), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit logical shift right (count modulo 64)", formula: "dst.xy = src0.xy >> (src1.x & 63), zero-filling; dst.zw by src1.y", replacement: "", agal: "" },
    I64DIV { mesa: Some(244), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64, T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed division", formula: "dst.xy = src0.xy / src1.xy; dst.zw likewise", replacement: "", agal: "" },
    U64DIV { mesa: Some(245), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned division", formula: "dst.xy = src0.xy / src1.xy; dst.zw likewise", replacement: "", agal: "" },
    I64MOD { mesa: Some(246), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Int64, src_types: &[T::Int64, T::Int64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit signed remainder", formula: "dst.xy = src0.xy % src1.xy; dst.zw likewise", replacement: "", agal: "" },
    U64MOD { mesa: Some(247), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Uint64, src_types: &[T::Uint64, T::Uint64], stages: S_ALL, category: C::Int64, family: F::Int64, denormal: D::Bits, fuse: false, summary: "64-bit unsigned remainder", formula: "dst.xy = src0.xy % src1.xy; dst.zw likewise", replacement: "", agal: "" },
    DDIV { mesa: Some(248), num_dst: 1, num_src: 2, output: O::Component, flags: 0, dst_type: T::Double, src_types: &[T::Double, T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Double division", formula: "dst.xy = src0.xy / src1.xy; dst.zw likewise", replacement: "", agal: "" },
    LOD { mesa: Some(249), num_dst: 1, num_src: 3, output: O::Other, flags: 0, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Texture, family: F::Texture, denormal: D::Bits, fuse: false, summary: "Level of detail a SAMPLE would use, from a sampler view and sampler", formula: "dst.x = clamped lod; dst.y = computed lod; dst.zw = 0", replacement: "", agal: "" },
    ATOMINC_WRAP { mesa: Some(250), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic increment that wraps to 0 past a limit; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = dst.x >= src2.x ? 0 : dst.x + 1", replacement: "", agal: "" },
    ATOMDEC_WRAP { mesa: Some(251), num_dst: 1, num_src: 3, output: O::Other, flags: F_STORE, dst_type: T::Float, src_types: &[T::Float, T::Uint, T::Float], stages: S_ALL, category: C::Atomic, family: F::Memory, denormal: D::Bits, fuse: false, summary: "Atomic decrement that wraps to a limit below 0; returns the old value", formula: "dst.x = mem[src1]; mem[src1] = (dst.x > 0 && dst.x < src2.x) ? dst.x - 1 : 0", replacement: "", agal: "" },
    ABS { mesa: None, num_dst: 1, num_src: 1, output: O::Component, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Bits, fuse: false, summary: "Absolute value (legacy)", formula: "dst.c = |src.c|", replacement: "write `MOV dst, |src|`", agal: "abs" },
    ARA { mesa: None, num_dst: 1, num_src: 1, output: O::Component, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Int, denormal: D::Flush, fuse: false, summary: "Add to the address register (legacy, never specified)", formula: "dst.c = src.c + addr.c", replacement: "add to the address value with `UADD` and load it with `UARL`", agal: "" },
    BRA { mesa: None, num_dst: 0, num_src: 0, output: O::None, flags: F_BRANCH|F_LEGACY, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Legacy, family: F::NotExecutable("BRA is an unstructured jump (the validator refuses it, V116)"), denormal: D::Bits, fuse: false, summary: "Unstructured jump to a label (legacy)", formula: "jump to label", replacement: "use structured control flow (IF/UIF, BGNLOOP/BRK, CAL)", agal: "" },
    BREAKC { mesa: None, num_dst: 0, num_src: 1, output: O::None, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Flow, denormal: D::Flush, fuse: false, summary: "Leave the loop if the condition holds (legacy)", formula: "if (src.x != 0) break", replacement: "write `UIF cond`, `BRK`, `ENDIF`", agal: "" },
    CALLNZ { mesa: None, num_dst: 0, num_src: 1, output: O::None, flags: F_BRANCH|F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Flow, denormal: D::Flush, fuse: false, summary: "Call a subroutine if the condition is not zero (legacy)", formula: "if (src.x != 0) call label", replacement: "write `UIF cond`, `CAL`, `ENDIF`", agal: "" },
    CLAMP { mesa: None, num_dst: 1, num_src: 3, output: O::Component, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Clamp between two bounds (legacy)", formula: "dst.c = min(max(src0.c, src1.c), src2.c)", replacement: "write `MAX t, a, lo` then `MIN dst, t, hi`", agal: "" },
    CND { mesa: None, num_dst: 1, num_src: 3, output: O::Component, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Condition(2), fuse: false, summary: "Select by comparison with one half (legacy)", formula: "dst.c = src2.c > 0.5 ? src0.c : src1.c", replacement: "write `ADD t, half, -c` (half holding 0.5) then `CMP dst, t, a, b`", agal: "" },
    DFRACEXP { mesa: None, num_dst: 2, num_src: 1, output: O::Component, flags: F_LEGACY, dst_type: T::Double, src_types: &[T::Double], stages: S_ALL, category: C::Double, family: F::Double, denormal: D::Bits, fuse: false, summary: "Split a double into significand and exponent", formula: "dst0.xy = significand(src.xy) in [0.5, 1); dst1.x = dst1.y = exponent(src.xy) (int); zw likewise", replacement: "Mesa's opcode list has a gap at its number, though nir_to_tgsi in Mesa 22.3 still writes it for frexp() and softpipe runs it; for new code compute the exponent with integer ops and rescale with DLDEXP", agal: "" },
    DP2A { mesa: None, num_dst: 1, num_src: 3, output: O::Replicated, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Two-component dot product plus a scalar, replicated (legacy)", formula: "dst = src0.x*src1.x + src0.y*src1.y + src2.x", replacement: "write `DP2 t, a, b` then `ADD dst, t, c.xxxx`", agal: "" },
    DPH { mesa: None, num_dst: 1, num_src: 2, output: O::Replicated, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Homogeneous dot product, replicated (legacy)", formula: "dst = src0.x*src1.x + src0.y*src1.y + src0.z*src1.z + src1.w", replacement: "write `DP3 t, a, b` then `ADD dst, t, b.wwww`", agal: "" },
    IFC { mesa: None, num_dst: 0, num_src: 1, output: O::None, flags: F_BRANCH|F_POST_INDENT|F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Flow, denormal: D::Flush, fuse: false, summary: "Begin a conditional block on a comparison (legacy, never specified)", formula: "if (condition)", replacement: "compare first (e.g. `FSLT t, a, b`), then `UIF t.xxxx`", agal: "" },
    KIL { mesa: None, num_dst: 0, num_src: 1, output: O::None, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_FRAG, category: C::Legacy, family: F::Flow, denormal: D::Flush, fuse: false, summary: "Discard the fragment if any component is negative (legacy name of KILL_IF)", formula: "if (any src.c < 0) discard", replacement: "write `KILL_IF src`", agal: "kil" },
    KILP { mesa: None, num_dst: 0, num_src: 0, output: O::None, flags: F_LEGACY, dst_type: T::Float, src_types: &[], stages: S_FRAG, category: C::Legacy, family: F::Flow, denormal: D::Bits, fuse: false, summary: "Discard the fragment unconditionally (legacy name of KILL)", formula: "discard", replacement: "write `KILL`", agal: "" },
    NRM { mesa: None, num_dst: 1, num_src: 1, output: O::Channel, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Normalize the xyz components; w = 1 (legacy)", formula: "dst.xyz = src.xyz / length(src.xyz); dst.w = 1", replacement: "write `DP3 t, v, v`, `RSQ t, t`, `MUL dst.xyz, v, t`", agal: "nrm" },
    NRM4 { mesa: None, num_dst: 1, num_src: 1, output: O::Replicated, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Normalize all four components (legacy)", formula: "dst = src.x / length(src.xyzw), replicated", replacement: "write `DP4 t, v, v`, `RSQ t, t`, `MUL dst, v, t`", agal: "" },
    POPA { mesa: None, num_dst: 1, num_src: 0, output: O::Other, flags: F_LEGACY, dst_type: T::Float, src_types: &[], stages: S_ALL, category: C::Legacy, family: F::Flow, denormal: D::Flush, fuse: false, summary: "Pop the address register from a stack (legacy)", formula: "dst = pop()", replacement: "no modern form: address register stacks were removed", agal: "" },
    PUSHA { mesa: None, num_dst: 0, num_src: 1, output: O::None, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Flow, denormal: D::Flush, fuse: false, summary: "Push the address register onto a stack (legacy)", formula: "push(src)", replacement: "no modern form: address register stacks were removed", agal: "" },
    RCC { mesa: None, num_dst: 1, num_src: 1, output: O::Replicated, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Reciprocal clamped away from zero and infinity, replicated (legacy)", formula: "dst = sign(1/src.x) * clamp(|1/src.x|, 5.42101e-20, 1.884467e19)", replacement: "write `RCP` and clamp the result with `MIN`/`MAX`", agal: "" },
    RFL { mesa: None, num_dst: 1, num_src: 2, output: O::Channel, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Reflection vector (legacy)", formula: "dst.xyz = 2 * dot3(src0, src1) / dot3(src0, src0) * src0.xyz - src1.xyz; dst.w = 1", replacement: "write it with DP3, DIV and MAD (see its formula)", agal: "" },
    SAD { mesa: None, num_dst: 1, num_src: 3, output: O::Component, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Sum of absolute differences (legacy)", formula: "dst.c = |src0.c - src1.c| + src2.c", replacement: "write `ADD t, a, -b` then `ADD dst, |t|, c`", agal: "" },
    SCS { mesa: None, num_dst: 1, num_src: 1, output: O::Channel, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Cosine and sine of x together (legacy)", formula: "x = cos(src.x); y = sin(src.x); z = 0; w = 1", replacement: "write `COS dst.x, src` and `SIN dst.y, src`", agal: "" },
    SFL { mesa: None, num_dst: 1, num_src: 2, output: O::Replicated, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Set to 0.0 (legacy)", formula: "dst = 0.0", replacement: "write `MOV dst, zero` from an immediate holding 0.0", agal: "" },
    SHR { mesa: None, num_dst: 1, num_src: 2, output: O::Channel, flags: F_LEGACY, dst_type: T::Int, src_types: &[T::Int, T::Int], stages: S_ALL, category: C::Legacy, family: F::Int, denormal: D::Bits, fuse: false, summary: "Arithmetic shift right (legacy name of ISHR)", formula: "dst.c = src0.c >> src1.x (the 2010 text shifts every channel by src1.x)", replacement: "write `ISHR`", agal: "" },
    STR { mesa: None, num_dst: 1, num_src: 2, output: O::Replicated, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Set to 1.0 (legacy)", formula: "dst = 1.0", replacement: "write `MOV dst, one` from an immediate holding 1.0", agal: "" },
    SUB { mesa: None, num_dst: 1, num_src: 2, output: O::Component, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Subtract (legacy)", formula: "dst.c = src0.c - src1.c", replacement: "write `ADD dst, a, -b`", agal: "sub" },
    X2D { mesa: None, num_dst: 1, num_src: 3, output: O::Channel, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "2-D coordinate transformation (legacy)", formula: "x = z = src0.x + src1.x*src2.x + src1.y*src2.y; y = w = src0.y + src1.x*src2.z + src1.y*src2.w", replacement: "write it with MAD (see its formula)", agal: "" },
    XPD { mesa: None, num_dst: 1, num_src: 2, output: O::Channel, flags: F_LEGACY, dst_type: T::Float, src_types: &[T::Float, T::Float], stages: S_ALL, category: C::Legacy, family: F::Float, denormal: D::Flush, fuse: false, summary: "Cross product of the xyz components; w = 1 (legacy)", formula: "dst.xyz = cross(src0.xyz, src1.xyz); dst.w = 1", replacement: "write `MUL t, a.yzxw, b.zxyw` then `MAD dst.xyz, -a.zxyw, b.yzxw, t`", agal: "crs" },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mask_opcodes_are_the_rows_whose_formula_gives_a_mask() {
        for &op in Opcode::ALL {
            let f = op.info().formula;
            let by_formula = f.starts_with("dst.c = ") && f.ends_with("? ~0 : 0");
            assert_eq!(op.gives_mask(), by_formula, "{}: {f}", op.name());
        }
    }

    /// `Family::name` is `{:?}` for every family an opcode has, reasons aside.
    #[test]
    fn family_names_are_the_debug_names() {
        for op in Opcode::all() {
            let family = op.info().family;
            if !matches!(family, Family::NotExecutable(_)) {
                assert_eq!(family.name(), format!("{family:?}"));
            }
        }
        assert_eq!(Family::Flow.name(), "Flow");
        assert_eq!(Family::Memory.name(), "Memory");
    }

    /// Every row of `crate/tests/data/mesa-opcodes.tsv` (Mesa's `tgsi_info_opcodes.h`: number,
    /// name, dst, src) is an opcode here with that Mesa number and operand counts, every number
    /// below `MESA_OPCODE_COUNT` missing from it is unused here, and every modern opcode here is
    /// in it.
    #[test]
    fn modern_opcodes_match_mesas_table() {
        let table =
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mesa-opcodes.tsv"));
        let mut seen = 0;
        let mut listed = [false; MESA_OPCODE_COUNT as usize];
        for line in table.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let cells: Vec<&str> = line.split('\t').collect();
            let [n, name, dst, src] = cells[..] else { panic!("not four cells: {line:?}") };
            let n: u16 = n.parse().unwrap_or_else(|_| panic!("bad number: {line:?}"));
            let op = Opcode::from_name(name).unwrap_or_else(|| panic!("{name} (#{n}) has no row"));
            assert_eq!(op.info().mesa, Some(n), "{name}");
            assert_eq!(Opcode::from_mesa(n), Some(op));
            let counts = (dst.parse::<u8>().ok(), src.parse::<u8>().ok());
            assert_eq!(counts, (Some(op.info().num_dst), Some(op.info().num_src)), "{name}");
            listed[n as usize] = true;
            seen += 1;
        }
        for (n, listed) in (0..MESA_OPCODE_COUNT).zip(listed) {
            assert_eq!(Opcode::is_unused_number(n), !listed, "Mesa opcode number {n}");
        }
        let modern = Opcode::all().filter(|o| o.info().mesa.is_some()).count();
        assert_eq!(seen, modern, "every modern opcode is in Mesa's table");
        assert!(Opcode::all().filter(|o| o.info().mesa.is_none()).all(|o| o.info().is_legacy()));
        assert_eq!(Opcode::from_name("mov"), Some(Opcode::MOV));
        assert_eq!(Opcode::from_name("UNK67"), None);
        assert!(Opcode::is_unused_number(67) && !Opcode::is_unused_number(66));
        assert!(!Opcode::is_unused_number(MESA_OPCODE_COUNT));
    }

    /// The engine's columns agree with the operand columns and with tgsi.rst: a fused opcode
    /// is a per-component 32-bit lane-wise one; `Flush` has a float operand or result to flush,
    /// `Condition(k)` names a float source; a replicated output is computed lane by lane; the
    /// derivative family is exactly tgsi.rst's DDX, DDY and their FINE forms (fragment shaders
    /// only), the interpolation family the three INTERP opcodes; texture-family opcodes name a
    /// sampler view (a texture target or texel offsets); and the special denormal classes sit
    /// on the opcodes softpipe's measurements single out (`tests/denormal-cases/`).
    #[test]
    fn the_engine_columns_agree_with_each_other() {
        let floats = |i: &OpInfo| (0..i.num_src as usize).any(|k| i.src_type(k) == ValType::Float);
        for op in Opcode::all() {
            let i = op.info();
            let name = op.name();
            if i.fuse {
                assert!(i.family.is_lane_wise() && i.output == OutputMode::Component, "{name}");
                assert!(i.num_dst == 1, "{name}");
                let wide = matches!(i.dst_type, ValType::Double | ValType::Int64 | ValType::Uint64);
                assert!(!wide, "{name}");
            }
            match i.denormal {
                Denormal::Flush | Denormal::Trig | Denormal::LibmBase => {
                    assert!(floats(i) || (i.num_dst > 0 && i.dst_type == ValType::Float), "{name}")
                }
                Denormal::Condition(k) => {
                    assert!(k < i.num_src && i.src_type(k as usize) == ValType::Float, "{name}")
                }
                Denormal::Bits => {}
            }
            if i.output == OutputMode::Replicated {
                assert!(i.family.is_lane_wise(), "{name}");
            }
            if i.family == Family::Derivative {
                assert_eq!(i.stages, S_FRAG, "{name}");
            }
            if i.family == Family::Texture {
                assert!(i.has(F_TEX) || i.has(F_TEX_OFFSETS) || i.num_src > 0, "{name}");
            }
            assert!(
                !i.family.is_lane_wise()
                    || matches!(
                        i.output,
                        OutputMode::Component | OutputMode::Replicated | OutputMode::Channel
                    ),
                "{name}"
            );
        }
        let of = |f: Family| -> Vec<&str> {
            Opcode::all().filter(|o| o.info().family == f).map(|o| o.name()).collect()
        };
        assert_eq!(of(Family::Derivative), ["DDX", "DDY", "DDX_FINE", "DDY_FINE"]);
        assert_eq!(
            of(Family::Interpolation),
            ["INTERP_CENTROID", "INTERP_SAMPLE", "INTERP_OFFSET"]
        );
        let class = |d: Denormal| -> Vec<&str> {
            Opcode::all().filter(|o| o.info().denormal == d).map(|o| o.name()).collect()
        };
        assert_eq!(class(Denormal::Trig), ["COS", "SIN"]);
        assert_eq!(class(Denormal::LibmBase), ["LG2", "POW"]);
        assert_eq!(class(Denormal::Condition(0)), ["CMP", "IF"]);
        assert_eq!(class(Denormal::Condition(2)), ["CND"]);
        // Bit operations and selections keep denormals; float arithmetic flushes them.
        for op in [Opcode::MOV, Opcode::ABS, Opcode::UCMP, Opcode::DDX, Opcode::TEX, Opcode::AND] {
            assert_eq!(op.info().denormal, Denormal::Bits, "{}", op.name());
        }
        for op in [Opcode::ADD, Opcode::MAD, Opcode::FSLT, Opcode::F2I, Opcode::ARL, Opcode::RCP] {
            assert_eq!(op.info().denormal, Denormal::Flush, "{}", op.name());
        }
    }

    /// The categories the documentation groups by are where a reader expects each opcode: the
    /// derivative category holds exactly tgsi.rst's DDX, DDY and their FINE
    /// forms, an opcode computing doubles from doubles only (DDIV among them) is a double one,
    /// and the float comparisons giving integer masks (FSLT, FSGE, FSEQ, FSNE) are comparisons.
    #[test]
    fn derivatives_and_doubles_are_filed_where_they_belong() {
        let derivatives: Vec<&str> = Opcode::all()
            .filter(|o| o.info().category == Category::Derivative)
            .map(|o| o.name())
            .collect();
        assert_eq!(derivatives, ["DDX", "DDY", "DDX_FINE", "DDY_FINE"]);
        for op in Opcode::all() {
            let info = op.info();
            let doubles = info.dst_type == ValType::Double
                && !info.src_types.is_empty()
                && info.src_types.iter().all(|t| *t == ValType::Double);
            if doubles {
                assert_eq!(info.category, Category::Double, "{}", op.name());
            }
        }
        for op in [Opcode::FSLT, Opcode::FSGE, Opcode::FSEQ, Opcode::FSNE] {
            assert_eq!(op.info().category, Category::Comparison, "{}", op.name());
        }
    }
}
