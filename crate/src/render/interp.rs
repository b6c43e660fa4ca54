//! Interpolation coefficients (plane equations) and their evaluation over a 2x2 quad.
//!
//! A channel's value at integer window position (x, y) is `a0 + dadx·x + dady·y`; the set-up
//! folds the half-pixel offset into `a0`, so integer coordinates land on pixel centres
//! (tgsi_exec.c `exec_declaration`, `eval_linear_coef`). Evaluation follows tgsi_exec's order
//! exactly, because the softpipe corpus is compared bit for bit: first the quad's top-left lane
//! `base = (a0 + dadx·x) + dady·y`, then `base + dadx`, `base + dady`, `(base + dadx) + dady`,
//! and perspective-correct channels divide each lane by its interpolated 1/w.

/// One channel's plane equation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Coef {
    pub a0: f32,
    pub dadx: f32,
    pub dady: f32,
}

impl Coef {
    /// A constant (flat) channel.
    pub fn constant(v: f32) -> Coef {
        Coef { a0: v, dadx: 0.0, dady: 0.0 }
    }

    /// The four lanes of the quad whose lane 0 sits at (x, y): lanes are (x, y), (x+1, y),
    /// (x, y+1), (x+1, y+1), in tgsi_exec's evaluation order.
    #[inline]
    pub fn quad(&self, x: f32, y: f32) -> [f32; 4] {
        let base = self.a0 + self.dadx * x + self.dady * y;
        // Two vector adds with the same roundings as the scalar order above: −0.0 is the exact
        // additive identity (x + −0.0 == x bit for bit, +0.0 and −0.0 included), so the lanes
        // that take no step keep their value.
        let z = -0.0f32;
        let step1 = wide::f32x4::from([z, self.dadx, self.dady, self.dadx]);
        let step2 = wide::f32x4::from([z, z, z, self.dady]);
        (wide::f32x4::splat(base) + step1 + step2).to_array()
    }
}

/// How a fragment input channel is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The plane's `a0` in every lane (flat shading).
    Constant,
    /// The plane evaluated at the lane (screen-space linear).
    Linear,
    /// The plane of attribute·(1/w), divided by the lane's interpolated 1/w.
    Perspective,
}

/// Evaluates `coef` over a quad in `mode`; `inv_w` holds the lanes' interpolated 1/w.
#[inline]
pub fn eval_quad(coef: &Coef, mode: Mode, x: f32, y: f32, inv_w: &[f32; 4]) -> [f32; 4] {
    match mode {
        Mode::Constant => [coef.a0; 4],
        Mode::Linear => coef.quad(x, y),
        Mode::Perspective => {
            // One vector division: each lane is the same IEEE quotient as a scalar division.
            (wide::f32x4::from(coef.quad(x, y)) / wide::f32x4::from(*inv_w)).to_array()
        }
    }
}

/// One quad's four lanes as stored in a batch's input rows: the pipeline's own `[f32; 4]` or
/// the interpreter's [`Lanes`](crate::exec::Lanes) (raw bits).
pub trait LaneSlot {
    fn set(&mut self, lanes: [f32; 4]);
}

impl LaneSlot for [f32; 4] {
    #[inline]
    fn set(&mut self, lanes: [f32; 4]) {
        *self = lanes;
    }
}

impl LaneSlot for crate::exec::Lanes {
    #[inline]
    fn set(&mut self, lanes: [f32; 4]) {
        self.0 = lanes.map(f32::to_bits);
    }
}

/// Evaluates `coef` in `mode` for a row of quads: `row[q]` gets the lanes of the quad whose
/// lane 0 sits at `origins[q]`; `inv_w[q]` are its lanes' 1/w (read in Perspective mode only).
/// Same roundings as [`eval_quad`], written as plain scalar code per quad so that the compiler
/// evaluates several quads per vector instruction.
pub fn eval_row<T: LaneSlot>(
    row: &mut [T],
    coef: &Coef,
    mode: Mode,
    origins: &[[f32; 2]],
    inv_w: &[[f32; 4]],
) {
    let Coef { a0, dadx, dady } = *coef;
    let lanes = |[x, y]: [f32; 2]| {
        let base = a0 + dadx * x + dady * y;
        let right = base + dadx;
        [base, right, base + dady, right + dady]
    };
    match mode {
        Mode::Constant => row.iter_mut().for_each(|slot| slot.set([a0; 4])),
        Mode::Linear => {
            for (slot, &origin) in row.iter_mut().zip(origins) {
                slot.set(lanes(origin));
            }
        }
        Mode::Perspective => {
            for ((slot, &origin), w) in row.iter_mut().zip(origins).zip(inv_w) {
                let v = lanes(origin);
                slot.set([v[0] / w[0], v[1] / w[1], v[2] / w[2], v[3] / w[3]]);
            }
        }
    }
}

/// Plane equations of POSITION (softpipe's fragcoord set-up): x and y are the window position
/// with the pixel centre at +0.5 (HALF_INTEGER) or +0 (INTEGER); LOWER_LEFT counts y from window
/// row `height - 1` downwards. z and w come from the triangle's depth and 1/w planes.
///
/// Window row 0 is the bottom row of the picture (the softpipe corpus renders into a GL
/// framebuffer object, see docs/render.md), so with LOWER_LEFT `y` grows towards the top row
/// of the stored image exactly as it did in softpipe.
pub fn fragcoord_coefs(
    height: u32,
    lower_left: bool,
    integer_center: bool,
    z: Coef,
    inv_w: Coef,
) -> [Coef; 4] {
    let offset = if integer_center { 0.0 } else { 0.5 };
    let x = Coef { a0: offset, dadx: 1.0, dady: 0.0 };
    let y = if lower_left {
        Coef { a0: (height as f32 - 1.0) + offset, dadx: 0.0, dady: -1.0 }
    } else {
        Coef { a0: offset, dadx: 0.0, dady: 1.0 }
    };
    [x, y, z, inv_w]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_lanes_follow_exec_order() {
        // a0 = 0.25, dadx = 2, dady = 3 at (4, 6): base = 0.25 + 8 + 18 = 26.25.
        let c = Coef { a0: 0.25, dadx: 2.0, dady: 3.0 };
        assert_eq!(c.quad(4.0, 6.0), [26.25, 28.25, 29.25, 31.25]);
    }

    #[test]
    fn quad_lanes_keep_negative_zero() {
        // a0 = dadx = dady = −0 at (0, 0): base = (−0 + −0·0) + −0·0 = −0, and every step adds
        // −0, so the scalar order gives −0 in all four lanes.
        let c = Coef { a0: -0.0, dadx: -0.0, dady: -0.0 };
        assert!(c.quad(0.0, 0.0).iter().all(|v| v.to_bits() == (-0.0f32).to_bits()));
        // a0 = +0, steps −0: base = +0 + −0 + −0 = +0; +0 + −0 = +0 in every lane.
        let c = Coef { a0: 0.0, dadx: -0.0, dady: -0.0 };
        assert!(c.quad(0.0, 0.0).iter().all(|v| v.to_bits() == 0));
    }

    #[test]
    fn perspective_divides_by_lane_inverse_w() {
        let c = Coef { a0: 1.0, dadx: 0.0, dady: 0.0 };
        let v = eval_quad(&c, Mode::Perspective, 0.0, 0.0, &[1.0, 2.0, 4.0, 0.5]);
        assert_eq!(v, [1.0, 0.5, 0.25, 2.0]);
    }

    #[test]
    fn rows_match_single_quads() {
        // Steps chosen so that the lane order of the additions matters in f32: dadx and dady are
        // far below base's last bit on their own but not summed first.
        let c = Coef { a0: 1.0, dadx: 3.0e-8, dady: 5.0e-8 };
        let w = Coef { a0: 0.5, dadx: 0.125, dady: 0.25 };
        let origins = [[0.0, 0.0], [2.0, 0.0], [6.0, 4.0], [510.0, 300.0]];
        let inv_w: Vec<[f32; 4]> = origins.iter().map(|&[x, y]| w.quad(x, y)).collect();
        for mode in [Mode::Constant, Mode::Linear, Mode::Perspective] {
            let mut row = vec![[0.0f32; 4]; origins.len()];
            eval_row(&mut row, &c, mode, &origins, &inv_w);
            let mut bits = vec![crate::exec::Lanes::ZERO; origins.len()];
            eval_row(&mut bits, &c, mode, &origins, &inv_w);
            for (q, &[x, y]) in origins.iter().enumerate() {
                let one = eval_quad(&c, mode, x, y, &inv_w[q]);
                assert_eq!(
                    row[q].map(f32::to_bits),
                    one.map(f32::to_bits),
                    "{:?} quad {}",
                    mode,
                    q
                );
                assert_eq!(bits[q].0, one.map(f32::to_bits));
            }
        }
        // By hand at (0, 0): base = 1; 1 + 3e-8 rounds to 1 (half an ulp is 5.96e-8), and so
        // does (1 + 3e-8) + 5e-8, while 1 + 8e-8 would round up to 1 + 2^-23.
        let mut row = [[0.0f32; 4]];
        eval_row(&mut row, &c, Mode::Linear, &[[0.0, 0.0]], &[]);
        assert_eq!(row[0], [1.0; 4]);
        assert_eq!(1.0f32 + 8.0e-8, 1.0 + f32::EPSILON);
    }

    #[test]
    fn fragcoord_lower_left_counts_from_the_last_row() {
        let c = fragcoord_coefs(64, true, false, Coef::default(), Coef::constant(1.0));
        // Row 0 → 63.5, row 1 → 62.5 (softpipe's setup_fragcoord_coeff).
        assert_eq!(c[1].quad(0.0, 0.0), [63.5, 63.5, 62.5, 62.5]);
        assert_eq!(c[0].quad(2.0, 0.0), [2.5, 3.5, 2.5, 3.5]);
    }
}
