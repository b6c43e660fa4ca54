//! Texture instructions call the [`TextureHooks`](crate::exec::TextureHooks) with all four lanes
//! of a quad (`mesa-tgsi-notes.md` §5.6). The sampler unit is the SAMP/SVIEW operand's index;
//! the sampler view and sampler share it for the TEX family, as in tgsi_exec.

use super::{mask, Ctx, Shape};
use crate::diag::Diagnostic;
use crate::exec::io::{SampleControl, SampleRequest};
use crate::exec::lanes::Lanes;
use crate::exec::machine::{Io, Res};
use crate::exec::program::Inst;
use crate::ir::TextureTarget;
use crate::opcode::Opcode as O;

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
    let target = inst.texture.unwrap_or(TextureTarget::Tex2D);
    // (sampler operand, control, where bias/lod/component comes from: (operand, channel))
    let (unit_src, control, extra): (usize, SampleControl, Option<(usize, usize)>) = match inst.op {
        O::TEX => (1, SampleControl::None, None),
        O::TEX_LZ => (1, SampleControl::Zero, None),
        O::TXP => (1, SampleControl::None, None),
        O::TXB => (1, SampleControl::Bias, Some((0, 3))),
        O::TXL => (1, SampleControl::Explicit, Some((0, 3))),
        O::TXD => (3, SampleControl::DerivsExplicit, None),
        O::TEX2 => (2, SampleControl::None, None),
        O::TXB2 => (2, SampleControl::Bias, Some((1, 0))),
        O::TXL2 => (2, SampleControl::Explicit, Some((1, 0))),
        // tgsi.rst "TG4": the component is src1.x, passed in c1 like a LOD.
        O::TG4 => (2, SampleControl::Gather, Some((1, 0))),
        O::LODQ => return Some(Ok(lodq(inst, io, res, ctx))),
        O::TXF | O::TXF_LZ => return Some(Ok(fetch(inst, io, res, ctx))),
        O::TXQ => {
            // The level comes from lane 0 of each quad (tgsi_exec: "can't return per-pixel values").
            let lvl = io.src(inst, 0, 0);
            let unit_op = inst.src[1];
            for q in 0..nq {
                let level = lvl.get(q).map_or(0, |l| l.0[0] as i32);
                let dims = ctx.hooks.get_dims(io.resource_index(&unit_op, q), level);
                for (c, d) in dims.iter().enumerate() {
                    if let Some(o) = res[c].get_mut(q) {
                        *o = Lanes::splat(*d as u32);
                    }
                }
            }
            return Some(Ok(Shape::PerChannel));
        }
        _ => return super::sample::run(inst, io, res, ctx),
    };
    let unit_op = inst.src.get(unit_src).copied().unwrap_or_default();
    let coords: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 0, c));
    let extra_v = extra.map(|(i, c)| io.src(inst, i, c));
    let (ref_src, ref_slot) = shadow_ref(target);
    let shadow: Option<&[Lanes]> = ref_src.map(|(i, c)| io.src(inst, i, c));
    let derivs: Option<[[&[Lanes]; 3]; 2]> = if inst.op == O::TXD {
        Some([
            std::array::from_fn(|c| io.src(inst, 1, c)),
            std::array::from_fn(|c| io.src(inst, 2, c)),
        ])
    } else {
        None
    };
    let offsets = offsets(inst, io);
    let m = mask(inst);
    let dim = target.coord_dim().min(4);
    for q in 0..nq {
        let mut st = [[0f32; 4]; 5];
        for c in 0..dim {
            st[c] = lanes_f(coords[c], q);
        }
        if let Some(e) = extra_v {
            st[4] = lanes_f(e, q);
        }
        if let Some(r) = shadow {
            st[ref_slot] = lanes_f(r, q);
        }
        if inst.op == O::TXP {
            // Projective: divide the coordinates and the shadow reference by w.
            let w = lanes_f(coords[3], q);
            let reference = shadow.map(|_| ref_slot).filter(|&r| r >= dim.min(3));
            for r in (0..dim.min(3)).chain(reference) {
                for l in 0..4 {
                    st[r][l] /= w[l];
                }
            }
        }
        let mut d = [[[0f32; 4]; 2]; 3];
        if let Some(dv) = derivs {
            for (axis, set) in dv.iter().enumerate() {
                for (c, v) in set.iter().enumerate() {
                    d[c][axis] = lanes_f(v, q);
                }
            }
        }
        let unit = io.resource_index(&unit_op, q);
        let req = SampleRequest {
            sview: unit,
            sampler: unit,
            target,
            coords: st,
            derivs: d,
            offsets,
            control,
            quad: io.quad_index(q),
        };
        let rgba = ctx.hooks.get_samples(&req);
        put_rgba(res, m, q, rgba);
    }
    Some(Ok(Shape::PerChannel))
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

/// Texel offsets from lane 0 of the offset operand, as int8 (tgsi_exec).
pub fn offsets(inst: &Inst, io: &mut Io) -> [i8; 3] {
    let mut o = [0i8; 3];
    if let Some(s) = inst.offsets[0] {
        for (c, v) in o.iter_mut().enumerate() {
            let x = io.fetch(&s, c);
            *v = x.first().map_or(0, |l| l.0[0] as i32 as i8);
        }
    }
    o
}

/// TXF / TXF_LZ: integer coordinates, LOD in src0.w (0 for TXF_LZ).
fn fetch(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let unit_op = inst.src[1];
    let c: [&[Lanes]; 4] = std::array::from_fn(|k| io.src(inst, 0, k));
    let offsets = offsets(inst, io);
    let m = mask(inst);
    for q in 0..io.nq {
        let g = |k: usize| c[k].get(q).map_or([0; 4], |l| l.i32s());
        let lod = if inst.op == O::TXF_LZ { [0; 4] } else { g(3) };
        let rgba =
            ctx.hooks.get_texel(io.resource_index(&unit_op, q), g(0), g(1), g(2), lod, offsets);
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
