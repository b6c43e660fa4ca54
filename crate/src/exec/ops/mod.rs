//! Opcode implementations, one file per family. Each `run` returns `None` when the opcode is
//! not its family's, so dispatch is a short chain of jump tables per instruction (amortised over
//! the batch).

pub mod double;
pub mod float;
pub mod int;
pub mod int64;
pub mod memory;
pub mod pack;
pub mod quad;
pub mod sample;
pub mod texture;

use super::io::{Batch, TextureHooks};
use super::lanes::{fmap1, map1, Lanes};
use super::machine::{Io, Res, Shape};
use super::program::{Inst, Program};
use crate::diag::Diagnostic;

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

/// Runs one non-flow instruction into the result buffers.
pub fn execute(inst: &Inst, io: &mut Io, res: &mut Res, mut ctx: Ctx) -> Result<Shape, Diagnostic> {
    if let Some(s) = float::run(inst, io, res) {
        return Ok(s);
    }
    if let Some(s) = int::run(inst, io, res) {
        return Ok(s);
    }
    if let Some(s) = double::run(inst, io, res) {
        return Ok(s);
    }
    if let Some(s) = int64::run(inst, io, res) {
        return Ok(s);
    }
    if let Some(s) = pack::run(inst, io, res) {
        return Ok(s);
    }
    if let Some(s) = quad::run(inst, io, res, &mut ctx) {
        return Ok(s);
    }
    if let Some(s) = texture::run(inst, io, res, &mut ctx) {
        return s;
    }
    if let Some(s) = memory::run(inst, io, res, &mut ctx) {
        return s;
    }
    Err(Diagnostic::error(
        "X008",
        format!("{} cannot be executed by the interpreter", inst.op.name()),
        inst.span,
    ))
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

/// Per-lane boolean as TGSI integer truth (~0 / 0).
#[inline(always)]
pub fn tf(b: bool) -> u32 {
    if b {
        u32::MAX
    } else {
        0
    }
}

/// Per-lane boolean as float 1.0 / 0.0.
#[inline(always)]
pub fn f1(b: bool) -> f32 {
    if b {
        1.0
    } else {
        0.0
    }
}
