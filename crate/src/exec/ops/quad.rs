//! Operations that look across the lanes of a quad: derivatives (tgsi_exec.c `micro_ddx`,
//! `micro_ddy`), votes and reads across invocations (the subgroup is the quad: 4 lanes, lane i =
//! bit i), helper status, CLOCK, and the INTERP_* opcodes (evaluated from the batch's plane
//! equations).

use super::{mask, tf, Ctx, Shape};
use crate::exec::lanes::Lanes;
use crate::exec::program::{InputInterp, Inst, Store};
use crate::exec::regs::{Io, Res};
use crate::opcode::Opcode as O;

/// Which lanes each lane's derivative subtracts, `(a, b)` for `v[a] − v[b]`, in tgsi_exec's
/// naming TL = 0, TR = 1, BL = 2, BR = 3 (tgsi_exec.h `TILE_*`; tgsi_exec.c `micro_ddx`,
/// `micro_ddx_fine`): coarse DDX uses the bottom row and coarse DDY the left column for every lane;
/// the fine forms use each lane's own row or column. The one statement of the derivative formula:
/// [`derivative`] and the inspector both read it.
pub fn derivative_lanes(op: crate::opcode::Opcode) -> [(usize, usize); 4] {
    const TL: usize = 0;
    const TR: usize = 1;
    const BL: usize = 2;
    const BR: usize = 3;
    match op {
        O::DDX => [(BR, BL); 4],
        O::DDY => [(BL, TL); 4],
        O::DDX_FINE => [(TR, TL), (TR, TL), (BR, BL), (BR, BL)],
        _ => [(BL, TL), (BR, TR), (BL, TL), (BR, TR)],
    }
}

/// Derivative of one quad's lanes ([`derivative_lanes`]).
#[inline]
pub fn derivative(op: crate::opcode::Opcode, v: [f32; 4]) -> [f32; 4] {
    derivative_lanes(op).map(|(a, b)| v[a] - v[b])
}

fn first_active(m: Lanes) -> Option<usize> {
    (0..4).find(|&l| m.0[l] != 0)
}

pub fn run(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Option<Shape> {
    let nq = io.nq;
    let m = mask(inst);
    let exec = io.exec;
    match inst.op {
        O::DDX | O::DDY | O::DDX_FINE | O::DDY_FINE => {
            for c in 0..4 {
                if m >> c & 1 == 0 {
                    continue;
                }
                let a = io.src(inst, 0, c);
                for (o, v) in res[c].iter_mut().zip(a) {
                    *o = Lanes::from_f32(derivative(inst.op, v.f32s()));
                }
            }
            Some(Shape::PerChannel)
        }
        O::VOTE_ANY | O::VOTE_ALL | O::VOTE_EQ => {
            for c in 0..4 {
                if m >> c & 1 == 0 {
                    continue;
                }
                let a = io.src(inst, 0, c);
                for q in 0..nq {
                    let (v, e) = (
                        a.get(q).copied().unwrap_or_default(),
                        exec.get(q).copied().unwrap_or_default(),
                    );
                    let lanes = (0..4).filter(|&l| e.0[l] != 0);
                    let r = match inst.op {
                        O::VOTE_ANY => lanes.clone().any(|l| v.0[l] != 0),
                        O::VOTE_ALL => lanes.clone().all(|l| v.0[l] != 0),
                        _ => {
                            let first = first_active(e).map_or(0, |l| v.0[l]);
                            lanes.clone().all(|l| v.0[l] == first)
                        }
                    };
                    if let Some(o) = res[c].get_mut(q) {
                        *o = Lanes::splat(tf(r));
                    }
                }
            }
            Some(Shape::PerChannel)
        }
        O::BALLOT => {
            let a = io.src(inst, 0, 0);
            for q in 0..nq {
                let (v, e) = (
                    a.get(q).copied().unwrap_or_default(),
                    exec.get(q).copied().unwrap_or_default(),
                );
                let bits =
                    (0..4).filter(|&l| e.0[l] != 0 && v.0[l] != 0).fold(0u32, |b, l| b | 1 << l);
                for c in 0..4 {
                    if let Some(o) = res[c].get_mut(q) {
                        *o = Lanes::splat(if c % 2 == 0 { bits } else { 0 });
                    }
                }
            }
            Some(Shape::PerChannel)
        }
        O::READ_FIRST | O::READ_INVOC => {
            let inv = if inst.op == O::READ_INVOC { Some(io.src(inst, 1, 0)) } else { None };
            for c in 0..4 {
                if m >> c & 1 == 0 {
                    continue;
                }
                let a = io.src(inst, 0, c);
                for q in 0..nq {
                    let (v, e) = (
                        a.get(q).copied().unwrap_or_default(),
                        exec.get(q).copied().unwrap_or_default(),
                    );
                    let first = first_active(e).unwrap_or(0);
                    let lane = match inv {
                        // The invocation index is taken from the first active lane (it must be
                        // uniform); only 0..3 exist in a quad.
                        Some(i) => i.get(q).map_or(0, |x| x.0[first] as usize & 3),
                        None => first,
                    };
                    if let Some(o) = res[c].get_mut(q) {
                        *o = Lanes::splat(v.0[lane]);
                    }
                }
            }
            Some(Shape::PerChannel)
        }
        O::READ_HELPER => {
            for q in 0..nq {
                if let Some(o) = res[0].get_mut(q) {
                    *o = ctx.helper.get(q).copied().unwrap_or_default();
                }
            }
            Some(Shape::Replicated)
        }
        O::CLOCK => {
            // The time base is the number of instructions dispatched so far in this run:
            // monotonic and reproducible.
            res[0].fill(Lanes::splat(ctx.clock as u32));
            res[1].fill(Lanes::splat((ctx.clock >> 32) as u32));
            res[2].fill(Lanes::ZERO);
            res[3].fill(Lanes::ZERO);
            Some(Shape::PerChannel)
        }
        O::INTERP_CENTROID | O::INTERP_SAMPLE | O::INTERP_OFFSET => {
            interp(inst, io, res, ctx);
            Some(Shape::PerChannel)
        }
        _ => None,
    }
}

/// INTERP_*: re-evaluates an input's plane equations at an offset from each lane's position.
/// Centroid uses the pixel centre (the batch has one sample per pixel); SAMPLE uses the batch's
/// sample offsets (centre when none). Inputs without coefficients read their register.
fn interp(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) {
    let nq = io.nq;
    let m = mask(inst);
    let s = inst.src[0];
    let reg = match s.store {
        Store::Rows { base, .. } if base == ctx.program.layout.input.0 && s.indirect.is_none() => {
            Some(s.index.max(0) as usize)
        }
        _ => None,
    };
    let info = reg.and_then(|r| ctx.program.inputs.iter().find(|i| i.index as usize == r));
    let interp = &ctx.batch.interp;
    let has_coefs = reg.and_then(|r| interp.coefs.get(r).copied().flatten()).is_some();
    let (ox, oy) = if inst.op == O::INTERP_OFFSET {
        (Some(io.src(inst, 1, 0)), Some(io.src(inst, 1, 1)))
    } else {
        (None, None)
    };
    let sid = if inst.op == O::INTERP_SAMPLE { Some(io.src(inst, 1, 0)) } else { None };
    for c in 0..4 {
        if m >> c & 1 == 0 {
            continue;
        }
        let plain = io.src(inst, 0, c);
        for q in 0..nq {
            let [qx, qy] = interp.quad_origin.get(q).copied().unwrap_or([0.0, 0.0]);
            for l in 0..4 {
                let mut v = plain.get(q).map_or(0, |x| x.0[l]);
                if let (true, Some(r), Some(info)) = (has_coefs, reg, info) {
                    let (mut dx, mut dy) = (0.0f32, 0.0f32);
                    if let (Some(ox), Some(oy)) = (ox, oy) {
                        dx = ox.get(q).map_or(0.0, |x| f32::from_bits(x.0[l]));
                        dy = oy.get(q).map_or(0.0, |x| f32::from_bits(x.0[l]));
                    }
                    if let Some(sid) = sid {
                        let id = sid.get(q).map_or(0, |x| x.0[l]) as usize;
                        if let Some(o) = interp.sample_offsets.get(id) {
                            dx = o[0];
                            dy = o[1];
                        }
                    }
                    let (x, y) = (qx + (l & 1) as f32 + dx, qy + (l >> 1) as f32 + dy);
                    let mode = if info.interp == InputInterp::Constant {
                        InputInterp::Constant
                    } else {
                        info.interp
                    };
                    if let Some(mut f) = interp.eval(r, s.swizzle[c] as usize, mode, x, y) {
                        if s.absolute {
                            f = f.abs();
                        }
                        if s.negate {
                            f = -f;
                        }
                        v = f.to_bits();
                    }
                }
                if let Some(o) = res[c].get_mut(q) {
                    o.0[l] = v;
                }
            }
        }
    }
}
