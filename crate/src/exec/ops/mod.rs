//! Opcode implementations, one file per family. [`family`] maps every opcode of the table to
//! its implementation (an exhaustive match: a new opcode must be given one); `execute` calls
//! exactly that family.

pub mod double;
pub mod exp_log;
pub mod float;
pub mod int;
pub mod int64;
pub mod lane;
pub mod memory;
pub mod pack;
pub mod quad;
pub mod sample;
pub mod texture;
pub mod trig;

use super::io::{Batch, TextureHooks};
use super::lanes::{fmap1, map1, Lanes};
use super::machine::{Io, Res, Shape};
use super::program::{Inst, Program};
use crate::diag::Diagnostic;
use crate::opcode::Opcode;

/// What the quad-level and texture ops need besides registers.
pub struct Ctx<'c> {
    pub batch: &'c Batch,
    pub hooks: &'c mut dyn TextureHooks,
    pub helper: &'c [Lanes],
    pub kill: &'c [Lanes],
    pub mem: &'c mut super::memory::Resources,
    pub clock: u64,
    pub program: &'c Program,
}

/// Runs one non-flow instruction into the result buffers, in the implementation its
/// [`family`] names.
pub fn execute(inst: &Inst, io: &mut Io, res: &mut Res, mut ctx: Ctx) -> Result<Shape, Diagnostic> {
    let done = match family(inst.op) {
        Family::Float => float::run(inst, io, res).map(Ok),
        Family::Int => int::run(inst, io, res).map(Ok),
        Family::Double => double::run(inst, io, res).map(Ok),
        Family::Int64 => int64::run(inst, io, res).map(Ok),
        Family::Pack => pack::run(inst, io, res).map(Ok),
        Family::Quad => quad::run(inst, io, res, &mut ctx).map(Ok),
        Family::Texture => texture::run(inst, io, res, &mut ctx),
        Family::Memory => memory::run(inst, io, res, &mut ctx),
        Family::NotExecutable(why) => {
            return Err(Diagnostic::error(
                "X008",
                format!("{} cannot be executed by the interpreter: {}", inst.op.name(), why),
                inst.span,
            ))
        }
        // Flow instructions never reach here (the machine runs them first).
        Family::Flow => None,
    };
    done.unwrap_or_else(|| {
        Err(Diagnostic::error(
            "X008",
            format!("{} is not implemented by its family {:?}", inst.op.name(), family(inst.op)),
            inst.span,
        ))
    })
}

/// Which implementation runs an opcode. The match has no catch-all: a new opcode in the table
/// does not compile until it is given a family here (or a reason it cannot run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Control flow, kills and no-ops (`exec/flow.rs`).
    Flow,
    Float,
    Int,
    Double,
    Int64,
    Pack,
    /// Derivatives and other whole-quad opcodes.
    Quad,
    /// TEX and SAMPLE families, queries.
    Texture,
    /// Buffers, images, shared memory, atomics.
    Memory,
    /// Refused with `X008` and this reason.
    NotExecutable(&'static str),
}

/// The family of `op` (see [`Family`]).
pub fn family(op: Opcode) -> Family {
    use Opcode as O;
    match op {
        O::DEMOTE
        | O::KILL
        | O::CAL
        | O::RET
        | O::BRK
        | O::IF
        | O::UIF
        | O::ELSE
        | O::ENDIF
        | O::CONT
        | O::BGNLOOP
        | O::BGNSUB
        | O::ENDLOOP
        | O::ENDSUB
        | O::NOP
        | O::MEMBAR
        | O::KILL_IF
        | O::END
        | O::SWITCH
        | O::CASE
        | O::DEFAULT
        | O::ENDSWITCH
        | O::BARRIER
        | O::BREAKC
        | O::CALLNZ
        | O::IFC
        | O::KIL
        | O::KILP
        | O::POPA
        | O::PUSHA => Family::Flow,
        O::MOV
        | O::LIT
        | O::RCP
        | O::RSQ
        | O::EXP
        | O::LOG
        | O::MUL
        | O::ADD
        | O::DP3
        | O::DP4
        | O::DST
        | O::MIN
        | O::MAX
        | O::SLT
        | O::SGE
        | O::MAD
        | O::LRP
        | O::FMA
        | O::SQRT
        | O::LDEXP
        | O::FRC
        | O::FLR
        | O::ROUND
        | O::EX2
        | O::LG2
        | O::POW
        | O::COS
        | O::SEQ
        | O::SGT
        | O::SIN
        | O::SLE
        | O::SNE
        | O::SSG
        | O::CMP
        | O::DIV
        | O::DP2
        | O::CEIL
        | O::TRUNC
        | O::FSEQ
        | O::FSGE
        | O::FSLT
        | O::FSNE
        | O::UCMP
        | O::ABS
        | O::CLAMP
        | O::CND
        | O::DP2A
        | O::DPH
        | O::NRM
        | O::NRM4
        | O::RCC
        | O::RFL
        | O::SAD
        | O::SCS
        | O::SFL
        | O::STR
        | O::SUB
        | O::X2D
        | O::XPD => Family::Float,
        O::ARL
        | O::ARR
        | O::I2F
        | O::NOT
        | O::SHL
        | O::AND
        | O::OR
        | O::MOD
        | O::XOR
        | O::F2I
        | O::IDIV
        | O::IMAX
        | O::IMIN
        | O::INEG
        | O::ISGE
        | O::ISHR
        | O::ISLT
        | O::F2U
        | O::U2F
        | O::UADD
        | O::UDIV
        | O::UMAD
        | O::UMAX
        | O::UMIN
        | O::UMOD
        | O::UMUL
        | O::USEQ
        | O::USGE
        | O::USHR
        | O::USLT
        | O::USNE
        | O::UARL
        | O::IABS
        | O::ISSG
        | O::IMUL_HI
        | O::UMUL_HI
        | O::IBFE
        | O::UBFE
        | O::BFI
        | O::BREV
        | O::POPC
        | O::LSB
        | O::IMSB
        | O::UMSB
        | O::ARA
        | O::SHR => Family::Int,
        O::DFMA
        | O::F2D
        | O::D2F
        | O::DABS
        | O::DNEG
        | O::DADD
        | O::DMUL
        | O::DMAX
        | O::DMIN
        | O::DSLT
        | O::DSGE
        | O::DSEQ
        | O::DSNE
        | O::DRCP
        | O::DSQRT
        | O::DMAD
        | O::DFRAC
        | O::DLDEXP
        | O::D2I
        | O::I2D
        | O::D2U
        | O::U2D
        | O::DRSQ
        | O::DTRUNC
        | O::DCEIL
        | O::DFLR
        | O::DROUND
        | O::DSSG
        | O::DDIV
        | O::DFRACEXP => Family::Double,
        O::F2U64
        | O::F2I64
        | O::U2I64
        | O::I2I64
        | O::D2U64
        | O::D2I64
        | O::U642D
        | O::U642F
        | O::I642F
        | O::I642D
        | O::U64SEQ
        | O::U64SNE
        | O::I64SLT
        | O::U64SLT
        | O::I64SGE
        | O::U64SGE
        | O::I64MIN
        | O::U64MIN
        | O::I64MAX
        | O::U64MAX
        | O::I64ABS
        | O::I64SSG
        | O::I64NEG
        | O::U64ADD
        | O::U64MUL
        | O::U64SHL
        | O::I64SHR
        | O::U64SHR
        | O::I64DIV
        | O::U64DIV
        | O::I64MOD
        | O::U64MOD => Family::Int64,
        O::PK2H | O::PK2US | O::PK4B | O::PK4UB | O::UP2H | O::UP2US | O::UP4B | O::UP4UB => {
            Family::Pack
        }
        O::CLOCK
        | O::READ_HELPER
        | O::DDX
        | O::DDY
        | O::READ_INVOC
        | O::DDX_FINE
        | O::DDY_FINE
        | O::BALLOT
        | O::READ_FIRST
        | O::INTERP_CENTROID
        | O::INTERP_SAMPLE
        | O::INTERP_OFFSET
        | O::VOTE_ANY
        | O::VOTE_ALL
        | O::VOTE_EQ => Family::Quad,
        O::TEX_LZ
        | O::TXF_LZ
        | O::TEX
        | O::TXD
        | O::TXP
        | O::TXB
        | O::TXL
        | O::TXF
        | O::TXQ
        | O::TXQS
        | O::SAMPLE
        | O::SAMPLE_I
        | O::SAMPLE_I_MS
        | O::SAMPLE_B
        | O::SAMPLE_C
        | O::SAMPLE_C_LZ
        | O::SAMPLE_D
        | O::SAMPLE_L
        | O::GATHER4
        | O::SVIEWINFO
        | O::SAMPLE_POS
        | O::SAMPLE_INFO
        | O::TEX2
        | O::TXB2
        | O::TXL2
        | O::TG4
        | O::LODQ
        | O::LOD => Family::Texture,
        O::FBFETCH
        | O::EMIT
        | O::ENDPRIM
        | O::ATOMFADD
        | O::RESQ
        | O::LOAD
        | O::STORE
        | O::ATOMUADD
        | O::ATOMXCHG
        | O::ATOMCAS
        | O::ATOMAND
        | O::ATOMOR
        | O::ATOMXOR
        | O::ATOMUMIN
        | O::ATOMUMAX
        | O::ATOMIMIN
        | O::ATOMIMAX
        | O::ATOMINC_WRAP
        | O::ATOMDEC_WRAP => Family::Memory,
        O::IMG2HND => {
            Family::NotExecutable("bindless image handles have no meaning without a driver")
        }
        O::SAMP2HND => {
            Family::NotExecutable("bindless sampler handles have no meaning without a driver")
        }
        O::BRA => {
            Family::NotExecutable("BRA is an unstructured jump (the validator refuses it, V116)")
        }
    }
}

/// Enabled channels of dst 0 (all four when the op has no destination).
#[inline]
pub fn mask(inst: &Inst) -> u8 {
    if inst.num_dst == 0 {
        0xF
    } else {
        inst.dst[0].mask | if inst.num_dst > 1 { inst.dst[1].mask } else { 0 }
    }
}

/// Component-wise op of one source, on raw bits.
#[inline(always)]
pub fn comp1(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(u32) -> u32) -> Shape {
    let m = mask(inst);
    for c in 0..4 {
        if m >> c & 1 != 0 {
            let a = io.src(inst, 0, c);
            map1(res[c], a, &f);
        }
    }
    Shape::PerChannel
}

#[inline(always)]
pub fn comp2(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(u32, u32) -> u32) -> Shape {
    let m = mask(inst);
    for c in 0..4 {
        if m >> c & 1 != 0 {
            let a = io.src(inst, 0, c);
            let b = io.src(inst, 1, c);
            super::lanes::map2(res[c], a, b, &f);
        }
    }
    Shape::PerChannel
}

#[inline(always)]
pub fn comp3(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(u32, u32, u32) -> u32) -> Shape {
    let m = mask(inst);
    for c in 0..4 {
        if m >> c & 1 != 0 {
            let a = io.src(inst, 0, c);
            let b = io.src(inst, 1, c);
            let d = io.src(inst, 2, c);
            super::lanes::map3(res[c], a, b, d, &f);
        }
    }
    Shape::PerChannel
}

/// Scalar op of `src0.x`, replicated.
#[inline(always)]
pub fn repl1f(inst: &Inst, io: &mut Io, res: &mut Res, f: impl Fn(f32) -> f32) -> Shape {
    let a = io.src(inst, 0, 0);
    fmap1(res[0], a, f);
    Shape::Replicated
}

/// Copies lanes of `v` into result channel `c`.
#[inline]
pub fn put(res: &mut Res, c: usize, v: &[Lanes]) {
    for (d, s) in res[c].iter_mut().zip(v) {
        *d = *s;
    }
}

/// Per-lane boolean as TGSI integer truth (~0 / 0): [`lane::truth`].
pub use lane::truth as tf;
