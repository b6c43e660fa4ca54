//! Pack / unpack opcodes with the formulas of `tgsi.rst` (PK2H, PK2US, PK4B, PK4UB and their
//! unpack counterparts). tgsi_exec implements only PK2H/UP2H; the others follow the GLSL
//! packing rules: clamp, scale, round half to even.

use super::Shape;
use crate::exec::program::Inst;
use crate::exec::regs::{Io, Res};
use crate::opcode::Opcode as O;

fn unorm(x: f32, max: f32) -> u32 {
    let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (c * max).round_ties_even() as u32
}

fn snorm8(x: f32) -> u32 {
    let c = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
    ((c * 127.0).round_ties_even() as i32 as u32) & 0xff
}

pub fn run(inst: &Inst, io: &mut Io, res: &mut Res) -> Option<Shape> {
    let nq = io.nq;
    match inst.op {
        O::PK2H | O::PK2US | O::PK4B | O::PK4UB => {
            let n = if matches!(inst.op, O::PK2H | O::PK2US) { 2 } else { 4 };
            let s: [&[crate::exec::lanes::Lanes]; 4] =
                std::array::from_fn(|c| if c < n { io.src(inst, 0, c) } else { &[] });
            for q in 0..nq {
                for l in 0..4 {
                    let v = |c: usize| s[c].get(q).map_or(0.0, |v| f32::from_bits(v.0[l]));
                    let r = match inst.op {
                        O::PK2H => {
                            crate::half::from_f32(v(0)) as u32
                                | (crate::half::from_f32(v(1)) as u32) << 16
                        }
                        O::PK2US => unorm(v(0), 65535.0) | unorm(v(1), 65535.0) << 16,
                        O::PK4B => {
                            snorm8(v(0))
                                | snorm8(v(1)) << 8
                                | snorm8(v(2)) << 16
                                | snorm8(v(3)) << 24
                        }
                        _ => {
                            unorm(v(0), 255.0)
                                | unorm(v(1), 255.0) << 8
                                | unorm(v(2), 255.0) << 16
                                | unorm(v(3), 255.0) << 24
                        }
                    };
                    if let Some(o) = res[0].get_mut(q) {
                        o.0[l] = r;
                    }
                }
            }
            Some(Shape::Replicated)
        }
        O::UP2H | O::UP2US | O::UP4B | O::UP4UB => {
            let s = io.src(inst, 0, 0);
            for q in 0..nq {
                for l in 0..4 {
                    let x = s.get(q).map_or(0, |v| v.0[l]);
                    let out: [f32; 4] = match inst.op {
                        O::UP2H => {
                            let (a, b) = (
                                crate::half::to_f32(x as u16),
                                crate::half::to_f32((x >> 16) as u16),
                            );
                            [a, b, a, b]
                        }
                        O::UP2US => {
                            let (a, b) =
                                ((x & 0xffff) as f32 / 65535.0, (x >> 16) as f32 / 65535.0);
                            [a, b, a, b]
                        }
                        O::UP4B => [0, 8, 16, 24]
                            .map(|sh| ((x >> sh) as u8 as i8 as f32 / 127.0).max(-1.0)),
                        _ => [0, 8, 16, 24].map(|sh| (x >> sh) as u8 as f32 / 255.0),
                    };
                    for (c, v) in out.iter().enumerate() {
                        if let Some(o) = res[c].get_mut(q) {
                            o.0[l] = v.to_bits();
                        }
                    }
                }
            }
            Some(Shape::PerChannel)
        }
        _ => None,
    }
}
