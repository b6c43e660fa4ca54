//! The SAMPLE family and the view queries (tgsi.rst "Resource Sampling Opcodes"): the sampler
//! view and the sampler are separate operands, the coordinate layout follows the SVIEW's
//! declared target, and the result is swizzled by the view operand's swizzle, as tgsi_exec's
//! `exec_sample` / `exec_sample_d` / `exec_sample_i` do (tgsi_exec.c).

use super::texture::{lanes_f, operand, put_rgba, Offsets, Sampling};
use super::{mask, Ctx, Shape};
use crate::diag::Diagnostic;
use crate::exec::io::{sample_batches, SampleRequest};
use crate::exec::lanes::Lanes;
use crate::exec::program::{Inst, Store};
use crate::exec::regs::{Io, Res};
use crate::ir::TextureTarget;
use crate::opcode::Opcode as O;
use crate::texture::sample::Control;

pub fn run(
    inst: &Inst,
    io: &mut Io,
    res: &mut Res,
    ctx: &mut Ctx,
) -> Option<Result<Shape, Diagnostic>> {
    match inst.op {
        O::SAMPLE_I | O::SAMPLE_I_MS => return Some(Ok(sample_i(inst, io, res, ctx))),
        O::SVIEWINFO => return Some(Ok(view_info(inst, io, res, ctx))),
        O::TXQS | O::SAMPLE_INFO => return Some(Ok(sample_info(inst, io, res, ctx))),
        O::SAMPLE_POS => return Some(Ok(sample_pos(inst, io, res, ctx))),
        O::LOD => return Some(Ok(lod(inst, io, res, ctx))),
        _ => {}
    }
    let view_op = inst.src[1];
    let samp_op = inst.src[2];
    let sampling = of_view(inst.op, view_target(ctx, &view_op))?;
    let operands = sampling.fetch(inst, io);
    let offs = Offsets::of(inst, io);
    let m = mask(inst);
    let mut req = sampling.blank();
    if inst.op == O::GATHER4 {
        // The component is the view operand's x swizzle (tgsi.rst TG4,
        // TG4_COMPONENT_IN_SWIZZLE), in c1 as TG4 passes it (`fill` leaves c1 to it here and
        // takes the component from it); plain `SVIEW[n]` gathers red as tgsi_exec does.
        req.request.coords[4] = [f32::from_bits(view_op.swizzle[0] as u32); 4];
    }
    let make = |_: &Res, q: usize, req: &mut SampleRequest| {
        (req.sview, req.sampler) = (io.resource_index(&view_op, q), io.resource_index(&samp_op, q));
        req.quad = io.quad_index(q);
        req.request.offsets = offs.at(q);
        sampling.fill(&mut req.request, |i, c| operand(&operands, i, c, q));
    };
    let put = |res: &mut Res, q: usize, rgba: [[f32; 4]; 4]| {
        let out = if inst.op == O::GATHER4 {
            rgba
        } else {
            view_op.swizzle.map(|c| rgba[c as usize & 3])
        };
        put_rgba(res, m, q, out);
    };
    sample_batches(&mut *ctx.hooks, io.nq, req, res, make, put);
    Some(Ok(Shape::PerChannel))
}

/// The target a view was declared with (`DCL SVIEW[n], target, …`); 2D when undeclared.
fn view_target(ctx: &Ctx, view: &crate::exec::program::Src) -> TextureTarget {
    ctx.program
        .sviews
        .iter()
        .find(|(i, _)| *i == view.resource)
        .map_or(TextureTarget::Tex2D, |(_, t)| *t)
}

/// A SAMPLE-family instruction decoded for a view of `target`: the view is operand 1 and the
/// sampler operand 2; the coordinates follow the view's target; the reference of the compare
/// forms is src3.x, in r, c0 or c1 by coordinate count (exec_sample's switch); SAMPLE_B and
/// SAMPLE_L read src3.x into c1; SAMPLE_D's derivatives are src3 and src4. None for the other
/// opcodes.
fn of_view(op: O, target: TextureTarget) -> Option<Sampling> {
    let (control, compare, lod_src) = match op {
        O::SAMPLE => (Control::Implicit, false, None),
        O::SAMPLE_B => (Control::Bias, false, Some(3)),
        O::SAMPLE_L => (Control::Explicit, false, Some(3)),
        O::SAMPLE_C => (Control::Implicit, true, None),
        O::SAMPLE_C_LZ => (Control::Zero, true, None),
        O::SAMPLE_D => (Control::Gradients, false, None),
        O::GATHER4 => (Control::Gather(0), false, None),
        _ => return None,
    };
    let dim = coord_count(target);
    Some(Sampling {
        target: if compare { shadow_of(target) } else { target },
        control,
        unit_src: 1,
        extra: lod_src.map(|i| (i, 0)),
        shadow: compare.then_some((3, 0)),
        ref_slot: match dim {
            1 | 2 => 2,
            3 => 3,
            _ => 4,
        },
        projective: false,
        derivs: (op == O::SAMPLE_D).then_some((3, 4)),
        dim,
    })
}

/// Coordinates a SAMPLE reads from src0 for a view target (exec_sample's switch).
fn coord_count(t: TextureTarget) -> usize {
    use TextureTarget::*;
    match t {
        Buffer | Tex1D | Shadow1D => 1,
        Array1D | Tex2D | Rect | Shadow1DArray | Shadow2D | ShadowRect | Msaa2D => 2,
        CubeArray | ShadowCubeArray | Unknown => 4,
        _ => 3,
    }
}

fn shadow_of(t: TextureTarget) -> TextureTarget {
    use TextureTarget::*;
    match t {
        Tex1D => Shadow1D,
        Tex2D => Shadow2D,
        Rect => ShadowRect,
        Array1D => Shadow1DArray,
        Array2D => Shadow2DArray,
        Cube => ShadowCube,
        CubeArray => ShadowCubeArray,
        other => other,
    }
}

/// SAMPLE_I (LOD in src0.w) and SAMPLE_I_MS (sample in src2.x; one sample is stored, so the
/// texels of level 0 are returned): unfiltered texels, swizzled by the view operand.
fn sample_i(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let view_op = inst.src[1];
    let c: [&[Lanes]; 4] = std::array::from_fn(|k| io.src(inst, 0, k));
    let offs = Offsets::of(inst, io);
    let m = mask(inst);
    for q in 0..io.nq {
        let g = |k: usize| c[k].get(q).map_or([0; 4], |l| l.i32s());
        let lod = if inst.op == O::SAMPLE_I { g(3) } else { [0; 4] };
        let unit = io.resource_index(&view_op, q);
        let texel = ctx.hooks.get_texel(unit, g(0), g(1), g(2), lod, offs.at(q));
        for k in 0..4 {
            if m >> k & 1 != 0 {
                if let Some(o) = res[k].get_mut(q) {
                    *o = Lanes(texel[view_op.swizzle[k] as usize & 3]);
                }
            }
        }
    }
    Shape::PerChannel
}

/// SVIEWINFO dst, level, SVIEW: width, height, depth/layers, levels as integers; a level out
/// of range gives zero sizes but still the level count (tgsi.rst "SVIEWINFO"). The level is
/// lane 0's, like TXQ.
fn view_info(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let lvl = io.src(inst, 0, 0);
    let view_op = inst.src[1];
    for q in 0..io.nq {
        let unit = io.resource_index(&view_op, q);
        let level = lvl.get(q).map_or(0, |l| l.0[0] as i32);
        let levels = ctx.hooks.get_dims(unit, 0)[3];
        let mut dims =
            if level >= 0 && level < levels { ctx.hooks.get_dims(unit, level) } else { [0; 4] };
        dims[3] = levels;
        for (c, d) in dims.iter().enumerate() {
            if let Some(o) = res[c].get_mut(q) {
                *o = Lanes::splat(*d as u32);
            }
        }
    }
    Shape::PerChannel
}

/// TXQS (dst.x = samples of the unit) and SAMPLE_INFO (dst = (n, 0, 0, 0) swizzled by the
/// source; a non-view source is the render target, which has one sample).
fn sample_info(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let src = inst.src[0];
    let is_view = src.store == Store::None;
    for q in 0..io.nq {
        let n = if is_view || inst.op == O::TXQS {
            ctx.hooks.sample_count(io.resource_index(&src, q))
        } else {
            1
        };
        let v = [n, 0, 0, 0];
        for c in 0..4 {
            let bits =
                if inst.op == O::SAMPLE_INFO { v[src.swizzle[c] as usize & 3] } else { v[c] };
            if let Some(o) = res[c].get_mut(q) {
                *o = Lanes::splat(bits);
            }
        }
    }
    Shape::PerChannel
}

/// SAMPLE_POS dst, source, index: the position of sample `index` (per lane) of a view, or of
/// the single-sampled render target ((0.5, 0.5, 0, 0)), swizzled by the source.
fn sample_pos(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let src = inst.src[0];
    let is_view = src.store == Store::None;
    let idx = io.src(inst, 1, 0);
    for q in 0..io.nq {
        let unit = io.resource_index(&src, q);
        let ids = idx.get(q).map_or([0; 4], |l| l.i32s());
        let mut out = [[0f32; 4]; 4];
        for (l, &i) in ids.iter().enumerate() {
            let p = if is_view { ctx.hooks.sample_position(unit, i) } else { [0.5, 0.5, 0.0, 0.0] };
            for c in 0..4 {
                out[c][l] = p[src.swizzle[c] as usize & 3];
            }
        }
        put_rgba(res, 0xF, q, out);
    }
    Shape::PerChannel
}

/// LOD dst, address, SVIEW, SAMP: what LODQ returns, with the view and sampler separate and the
/// coordinates read by the view's target (tgsi.rst "LOD").
fn lod(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let (view_op, samp_op) = (inst.src[1], inst.src[2]);
    let target = view_target(ctx, &view_op);
    let coords: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 0, c));
    let m = mask(inst);
    for q in 0..io.nq {
        let mut st = [[0f32; 4]; 5];
        for c in 0..coord_count(target) {
            st[c] = lanes_f(coords[c], q);
        }
        let (v, s) = (io.resource_index(&view_op, q), io.resource_index(&samp_op, q));
        let [x, y] = ctx.hooks.query_lod(v, s, target, st);
        put_rgba(res, m, q, [x, y, [0.0; 4], [0.0; 4]]);
    }
    Shape::PerChannel
}
