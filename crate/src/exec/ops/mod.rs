//! Opcode implementations, one file per family. The opcode table's `family` column
//! ([`crate::opcode::Family`]) names each opcode's implementation; `execute` calls exactly that
//! family (an exhaustive match: a new family must be given one), and the test
//! `every_non_resource_opcode_executes` runs every row, so a row whose family does not implement
//! it fails.

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
use super::program::{Inst, Program};
use super::regs::{Io, Res, Shape};
use crate::diag::Diagnostic;
pub use crate::opcode::Family;

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

/// Runs one non-flow instruction into the result buffers, in the implementation the table's
/// `family` column names.
pub fn execute(inst: &Inst, io: &mut Io, res: &mut Res, mut ctx: Ctx) -> Result<Shape, Diagnostic> {
    let family = inst.op.info().family;
    let done = match family {
        Family::Float => float::run(inst, io, res).map(Ok),
        Family::Int => int::run(inst, io, res).map(Ok),
        Family::Double => double::run(inst, io, res).map(Ok),
        Family::Int64 => int64::run(inst, io, res).map(Ok),
        Family::Pack => pack::run(inst, io, res).map(Ok),
        Family::Derivative | Family::Interpolation | Family::Quad => {
            quad::run(inst, io, res, &mut ctx).map(Ok)
        }
        // The TEX opcodes and TXQ/TXF/LODQ, else the SAMPLE ones (`sample.rs` uses `texture.rs`).
        Family::Texture => match texture::run(inst, io, res, &mut ctx) {
            None => sample::run(inst, io, res, &mut ctx),
            done => done,
        },
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
            format!("{} is not implemented by its family {}", inst.op.name(), family.name()),
            inst.span,
        ))
    })
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
