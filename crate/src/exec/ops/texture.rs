//! Texture instructions call the [`TextureHooks`](crate::exec::TextureHooks) with all four lanes
//! of a quad (tgsi_exec.c `exec_tex`, `fetch_texel`). The sampler unit is the SAMP/SVIEW operand's
//! index; the sampler view and sampler share it for the TEX family, as in tgsi_exec.

use super::{mask, Ctx, Shape};
use crate::diag::Diagnostic;
use crate::exec::io::{sample_batches, SampleRequest};
use crate::exec::lanes::Lanes;
use crate::exec::program::Inst;
use crate::exec::regs::{Io, Res};
use crate::ir::TextureTarget;
use crate::opcode::Opcode as O;
use crate::texture::sample::{gather_component, Control, Request};

pub fn lanes_f(v: &[Lanes], q: usize) -> [f32; 4] {
    v.get(q).map_or([0.0; 4], |x| x.f32s())
}

pub fn run(
    inst: &Inst,
    io: &mut Io,
    res: &mut Res,
    ctx: &mut Ctx,
) -> Option<Result<Shape, Diagnostic>> {
    let nq = io.nq;
    let Some(sampling) = Sampling::of(inst) else {
        return match inst.op {
            O::LODQ => Some(Ok(lodq(inst, io, res, ctx))),
            O::TXF | O::TXF_LZ => Some(Ok(fetch(inst, io, res, ctx))),
            O::TXQ => Some(Ok(query(inst, io, res, ctx))),
            // The SAMPLE family (`sample.rs`, which builds on this file).
            _ => None,
        };
    };
    let operands = sampling.fetch(inst, io);
    let offsets = Offsets::of(inst, io);
    let unit_op = inst.src.get(sampling.unit_src).copied().unwrap_or_default();
    let m = mask(inst);
    let make = |_: &Res, q: usize, req: &mut SampleRequest| {
        let unit = io.resource_index(&unit_op, q);
        (req.sview, req.sampler, req.quad) = (unit, unit, io.quad_index(q));
        req.request.offsets = offsets.at(q);
        sampling.fill(&mut req.request, |i, c| operand(&operands, i, c, q));
    };
    let put = |res: &mut Res, q, rgba| put_rgba(res, m, q, rgba);
    sample_batches(&mut *ctx.hooks, nq, sampling.blank(), res, make, put);
    Some(Ok(Shape::PerChannel))
}

/// TXQ dst, level, SAMP[n]: width, height, depth or layers, levels as integers. The level comes
/// from lane 0 of each quad (tgsi_exec: "can't return per-pixel values").
fn query(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let lvl = io.src(inst, 0, 0);
    let unit_op = inst.src[1];
    for q in 0..io.nq {
        let level = lvl.get(q).map_or(0, |l| l.0[0] as i32);
        let dims = ctx.hooks.get_dims(io.resource_index(&unit_op, q), level);
        for (c, d) in dims.iter().enumerate() {
            if let Some(o) = res[c].get_mut(q) {
                *o = Lanes::splat(*d as u32);
            }
        }
    }
    Shape::PerChannel
}

/// Operand channels of a batch, as [`Sampling::fetch`] leaves them: `[operand][channel]`.
pub type Operands<'a> = [[&'a [Lanes]; 4]; 5];

/// Quad `q`'s lanes of operand `i`'s channel `c` (zeros for one not fetched).
#[inline]
pub fn operand(operands: &Operands, i: usize, c: usize, q: usize) -> [f32; 4] {
    operands.get(i).and_then(|o| o.get(c)).map_or([0.0; 4], |o| lanes_f(o, q))
}

/// A sampling instruction (the TEX family: TEX, TEX_LZ, TXP, TXB, TXL, TXD, TEX2, TXB2, TXL2,
/// TG4, [`Sampling::of`]; the SAMPLE family: SAMPLE, SAMPLE_B, SAMPLE_L, SAMPLE_C,
/// SAMPLE_C_LZ, SAMPLE_D, GATHER4, `sample.rs`) decoded once: which operand channels make each
/// quad's [`SampleRequest`] and where they go. The interpreter builds the requests of a batch
/// from it ([`run`], `sample::run`); a compiled program's sampling import builds one quad's
/// from its staged operands (`jit::host`), so both ask the hooks the same question.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub target: TextureTarget,
    /// How the LOD is obtained; a gather's component is taken from c1 lane 0 per quad.
    pub control: Control,
    /// The SAMP operand of the TEX family (sampler view and sampler share its index), the
    /// SVIEW operand of the SAMPLE family.
    pub unit_src: usize,
    /// Where the bias, explicit LOD or gather component comes from: (operand, channel).
    pub(super) extra: Option<(usize, usize)>,
    /// Where a shadow target's reference comes from, and which of s, t, r, c0, c1 carries it.
    pub(super) shadow: Option<(usize, usize)>,
    pub(super) ref_slot: usize,
    /// TXP: coordinates (and a reference among them or after them) divided by w.
    pub(super) projective: bool,
    /// Explicit derivatives: d/dx from the first operand, d/dy from the second (TXD: 1 and 2;
    /// SAMPLE_D: 3 and 4).
    pub(super) derivs: Option<(usize, usize)>,
    /// Coordinates read from operand 0.
    pub(super) dim: usize,
}

impl Sampling {
    /// None for the other texture and resource instructions.
    pub fn of(inst: &Inst) -> Option<Sampling> {
        let target = inst.texture.unwrap_or(TextureTarget::Tex2D);
        let (unit_src, control, extra): (usize, Control, Option<(usize, usize)>) = match inst.op {
            O::TEX => (1, Control::Implicit, None),
            O::TEX_LZ => (1, Control::Zero, None),
            O::TXP => (1, Control::Implicit, None),
            O::TXB => (1, Control::Bias, Some((0, 3))),
            O::TXL => (1, Control::Explicit, Some((0, 3))),
            O::TXD => (3, Control::Gradients, None),
            O::TEX2 => (2, Control::Implicit, None),
            O::TXB2 => (2, Control::Bias, Some((1, 0))),
            O::TXL2 => (2, Control::Explicit, Some((1, 0))),
            // tgsi.rst "TG4": the component is src1.x, passed in c1 like a LOD.
            O::TG4 => (2, Control::Gather(0), Some((1, 0))),
            _ => return None,
        };
        let (shadow, ref_slot) = shadow_ref(target);
        Some(Sampling {
            target,
            control,
            unit_src,
            extra,
            shadow,
            ref_slot,
            projective: inst.op == O::TXP,
            derivs: (inst.op == O::TXD).then_some((1, 2)),
            dim: target.coord_dim().min(4),
        })
    }

    /// Calls `f(operand, channel)` for every operand channel [`Sampling::request`] reads.
    pub fn for_each_operand(&self, mut f: impl FnMut(usize, usize)) {
        for c in 0..self.dim {
            f(0, c);
        }
        if self.projective && self.dim < 4 {
            f(0, 3);
        }
        for (i, c) in self.extra.into_iter().chain(self.shadow) {
            f(i, c);
        }
        if let Some((dx, dy)) = self.derivs {
            for i in [dx, dy] {
                for c in 0..3 {
                    f(i, c);
                }
            }
        }
    }

    /// The operand channels the batch's requests read, fetched once.
    pub fn fetch<'a>(&self, inst: &Inst, io: &mut Io<'a>) -> Operands<'a> {
        let mut operands: Operands = [[&[]; 4]; 5];
        self.for_each_operand(|i, c| {
            if let Some(o) = operands.get_mut(i).and_then(|o| o.get_mut(c)) {
                *o = io.src(inst, i, c);
            }
        });
        operands
    }

    /// A request with no operand read yet (coordinates and derivatives zero), for
    /// [`Sampling::fill`]: a batch fills one for each of its quads in turn, in place (made anew
    /// and moved for each quad, it was about a tenth of a TEX frame natively). The compiled
    /// program's sampling import fills one the same way (`jit::host`).
    /// Its units, quad and offsets are the caller's to set.
    pub fn blank(&self) -> SampleRequest {
        SampleRequest {
            sview: 0,
            sampler: 0,
            quad: 0,
            request: Request {
                coords: [[0f32; 4]; 5],
                derivs: [[[0f32; 4]; 2]; 3],
                offsets: [0; 3],
                control: self.control,
                target: Some(self.target),
            },
        }
    }

    /// Writes a quad's operands into `req`, made by [`Sampling::blank`] of this instruction:
    /// `value(operand, channel)` is that operand channel's four lanes (after swizzle and
    /// modifiers); every slot it reads is written, the others stay zero. In builds without the `full`
    /// feature (the widget's engine, whose size has a budget) not inlined: the TEX and SAMPLE
    /// families then share one copy (inlined copies cost about 500 bytes gzipped there);
    /// elsewhere inlined (out of line, a compiled TEX band in V8 took about 8 % longer).
    #[cfg_attr(not(feature = "full"), inline(never))]
    pub fn fill(&self, req: &mut Request, value: impl Fn(usize, usize) -> [f32; 4]) {
        let st = &mut req.coords;
        for (c, slot) in st.iter_mut().enumerate().take(self.dim) {
            *slot = value(0, c);
        }
        if let Some((i, c)) = self.extra {
            st[4] = value(i, c);
        }
        if let Some((i, c)) = self.shadow {
            st[self.ref_slot] = value(i, c);
        }
        if self.projective {
            // Projective: divide the coordinates and the shadow reference by w.
            let w = value(0, 3);
            let reference = self.shadow.map(|_| self.ref_slot).filter(|&r| r >= self.dim.min(3));
            for r in (0..self.dim.min(3)).chain(reference) {
                for l in 0..4 {
                    st[r][l] /= w[l];
                }
            }
        }
        if let Some((dx, dy)) = self.derivs {
            for (axis, operand) in [dx, dy].into_iter().enumerate() {
                for (c, dc) in req.derivs.iter_mut().enumerate() {
                    dc[axis] = value(operand, c);
                }
            }
        }
        if let Control::Gather(_) = self.control {
            req.control = Control::Gather(gather_component(req.coords[4]));
        }
    }
}

/// Where a SHADOW target's reference comes from, as (operand, channel), and which of s, t, r,
/// c0, c1 carries it (tgsi_exec's `exec_tex`; `tgsi_util_get_shadow_ref_src_index`).
pub fn shadow_ref(target: TextureTarget) -> (Option<(usize, usize)>, usize) {
    use TextureTarget::*;
    match target {
        Shadow1D | Shadow2D | ShadowRect | Shadow1DArray => (Some((0, 2)), 2),
        Shadow2DArray | ShadowCube => (Some((0, 3)), 3),
        ShadowCubeArray => (Some((1, 0)), 4),
        _ => (None, 0),
    }
}

/// Stores a quad's four float channels into the enabled result channels.
pub fn put_rgba(res: &mut Res, m: u8, q: usize, rgba: [[f32; 4]; 4]) {
    for (c, v) in rgba.iter().enumerate() {
        if m >> c & 1 != 0 {
            if let Some(o) = res[c].get_mut(q) {
                *o = Lanes::from_f32(*v);
            }
        }
    }
}

/// LODQ dst, coord, SAMP[n]: dst.x = level used, dst.y = λ (tgsi.rst "LODQ").
fn lodq(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let target = inst.texture.unwrap_or(TextureTarget::Tex2D);
    let coords: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 0, c));
    let unit_op = inst.src[1];
    let m = mask(inst);
    for q in 0..io.nq {
        let mut st = [[0f32; 4]; 5];
        for c in 0..target.coord_dim().min(4) {
            st[c] = lanes_f(coords[c], q);
        }
        let unit = io.resource_index(&unit_op, q);
        let [x, y] = ctx.hooks.query_lod(unit, unit, target, st);
        put_rgba(res, m, q, [x, y, [0.0; 4], [0.0; 4]]);
    }
    Shape::PerChannel
}

/// The offset operand's channels for a batch: tgsi_exec takes the texel offsets from lane 0 of
/// the offset register as int8 (tgsi_exec.c `exec_tex`), and its machine holds one quad, so
/// here each quad's own lane 0 ([`Offsets::at`]).
pub struct Offsets<'a>(Option<[&'a [Lanes]; 3]>);

impl<'a> Offsets<'a> {
    pub fn of(inst: &Inst, io: &mut Io<'a>) -> Offsets<'a> {
        Offsets(inst.offsets[0].map(|s| [io.fetch(&s, 0), io.fetch(&s, 1), io.fetch(&s, 2)]))
    }

    /// Quad `q`'s offsets (zero without an offset operand).
    pub fn at(&self, q: usize) -> [i8; 3] {
        let mut o = [0i8; 3];
        if let Some(rows) = &self.0 {
            for (v, r) in o.iter_mut().zip(rows) {
                *v = texel_offset(r.get(q).map_or(0, |l| l.0[0]));
            }
        }
        o
    }
}

/// A texel offset from the bits of lane 0 of an offset operand's channel: as int8 (tgsi_exec).
#[inline]
pub fn texel_offset(bits: u32) -> i8 {
    bits as i32 as i8
}

/// TXF / TXF_LZ: integer coordinates, LOD in src0.w (0 for TXF_LZ).
fn fetch(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let unit_op = inst.src[1];
    let c: [&[Lanes]; 4] = std::array::from_fn(|k| io.src(inst, 0, k));
    let offsets = Offsets::of(inst, io);
    let m = mask(inst);
    for q in 0..io.nq {
        let g = |k: usize| c[k].get(q).map_or([0; 4], |l| l.i32s());
        let lod = if inst.op == O::TXF_LZ { [0; 4] } else { g(3) };
        let unit = io.resource_index(&unit_op, q);
        let rgba = ctx.hooks.get_texel(unit, g(0), g(1), g(2), lod, offsets.at(q));
        for k in 0..4 {
            if m >> k & 1 != 0 {
                if let Some(o) = res[k].get_mut(q) {
                    *o = Lanes(rgba[k]);
                }
            }
        }
    }
    Shape::PerChannel
}
