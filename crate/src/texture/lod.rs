//! Level of detail as softpipe computes it (docs/textures.md "How a sample is computed").
//!
//! The scale factor ρ is the largest absolute coordinate difference across the quad, times the
//! size of the view's base level — a max-of-components approximation, not GL's square root —
//! and λ = `fast_log2(ρ)`, Mesa's table-driven log2 (exact for powers of two).

use std::sync::OnceLock;

/// Lane order of a quad (tgsi_exec.h `TILE_*`): 0 top-left, 1 top-right, 2 bottom-left,
/// 3 bottom-right. softpipe takes x differences along the bottom row and y differences along
/// the left column.
pub const TOP_LEFT: usize = 0;
pub const BOTTOM_LEFT: usize = 2;
pub const BOTTOM_RIGHT: usize = 3;

const LOG2_TABLE_BITS: u32 = 8;

fn log2_table() -> &'static [f32; 257] {
    static TABLE: OnceLock<[f32; 257]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0f32; 257];
        for (i, v) in t.iter_mut().enumerate() {
            // computed in double and rounded once, as Mesa's util_init_math
            *v = (1.0 + i as f64 / f64::from(1u32 << LOG2_TABLE_BITS)).log2() as f32;
        }
        t
    })
}

/// Mesa's `util_fast_log2`: exponent − 127 plus a 257-entry table of log2(1 + m/256) indexed by
/// the rounded top 8 mantissa bits. For 0 it gives −127; for ∞ and NaN 128 + table.
pub fn fast_log2(x: f32) -> f32 {
    let bits = x.to_bits();
    let exponent = ((bits & 0x7f80_0000) >> 23) as i32 - 127;
    let index = (((bits & 0x007f_ffff) + (1 << 14)) >> 15) as usize;
    exponent as f32 + log2_table().get(index).copied().unwrap_or(0.0)
}

/// |a − b| for the x difference (bottom row) and the y difference (left column) of one
/// coordinate over the quad.
pub fn quad_diffs(c: &[f32; 4]) -> (f32, f32) {
    ((c[BOTTOM_RIGHT] - c[BOTTOM_LEFT]).abs(), (c[TOP_LEFT] - c[BOTTOM_LEFT]).abs())
}

/// How many coordinates take part in the scale factor and how they are weighted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LambdaShape {
    /// s only, times width.
    OneD { width: f32 },
    /// s and t, times width and height.
    TwoD { width: f32, height: f32 },
    /// s, t and r, times width, height and depth.
    ThreeD { width: f32, height: f32, depth: f32 },
    /// Cube: all three direction components, times width / 2 (docs/textures.md "How a sample is computed": LOD).
    Cube { width: f32 },
}

/// ρ from per-axis maxima of |d/dx|, |d/dy|.
fn rho(shape: LambdaShape, m: [f32; 3]) -> f32 {
    match shape {
        LambdaShape::OneD { width } => m[0] * width,
        LambdaShape::TwoD { width, height } => (m[0] * width).max(m[1] * height),
        LambdaShape::ThreeD { width, height, depth } => {
            (m[0] * width).max(m[1] * height).max(m[2] * depth)
        }
        LambdaShape::Cube { width } => m[0].max(m[1]).max(m[2]) * width / 2.0,
    }
}

/// Implicit λ of a quad from its coordinates s, t, r (one λ for all four lanes).
pub fn lambda_from_quad(shape: LambdaShape, coords: [&[f32; 4]; 3]) -> f32 {
    let m = coords.map(|c| {
        let (dx, dy) = quad_diffs(c);
        dx.max(dy)
    });
    fast_log2(rho(shape, m))
}

/// λ of one lane from explicit derivatives `derivs[axis][0 = d/dx, 1 = d/dy][lane]` (TXD).
pub fn lambda_from_grad(shape: LambdaShape, derivs: &[[[f32; 4]; 2]; 3], lane: usize) -> f32 {
    let lane = lane & 3;
    let m = [0, 1, 2].map(|a| derivs[a][0][lane].abs().max(derivs[a][1][lane].abs()));
    fast_log2(rho(shape, m))
}

/// Gallium's CLAMP macro: NaN passes through (handled later by the mip selection).
pub fn clamp_lod(lod: f32, min: f32, max: f32) -> f32 {
    if lod < min {
        min
    } else if lod > max {
        max
    } else {
        lod
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_log2_exact_on_powers_of_two() {
        for e in -20..20 {
            assert_eq!(fast_log2(2f32.powi(e)), e as f32);
        }
        assert_eq!(fast_log2(0.0), -127.0);
    }

    #[test]
    fn fast_log2_uses_rounded_table_index() {
        // 3.0 = 1.5 · 2^1: mantissa bits 0x400000, index (0x400000 + 0x4000) >> 15 = 128,
        // table[128] = log2(1 + 128/256) = log2(1.5)
        assert_eq!(fast_log2(3.0), 1.0 + (1.5f64.log2() as f32));
        // 1 + 1/512 + tiny rounds up to table[1] = log2(1 + 1/256)
        let x = f32::from_bits(0x3f80_4000);
        assert_eq!(fast_log2(x), (1.0 + 1.0 / 256.0f64).log2() as f32);
    }

    #[test]
    fn quad_lambda_uses_bottom_row_and_left_column() {
        // s grows 1/8 per pixel in x, t grows 1/16 per pixel in y, 16x16 texture:
        // rho = max(1/8·16, 1/16·16) = 2 → λ = 1
        let s = [0.0, 0.125, 0.0, 0.125];
        let t = [0.0, 0.0, 0.0625, 0.0625];
        let r = [0.0; 4];
        let shape = LambdaShape::TwoD { width: 16.0, height: 16.0 };
        assert_eq!(lambda_from_quad(shape, [&s, &t, &r]), 1.0);
        // a change only in the top-right lane is invisible to the softpipe rule
        let s2 = [0.0, 9.0, 0.0, 0.0];
        assert_eq!(lambda_from_quad(shape, [&s2, &[0.0; 4], &r]), -127.0);
    }

    #[test]
    fn cube_lambda_scales_by_half_size() {
        // direction x changes by 0.5 per pixel, 8x8 faces: rho = 0.5·8/2 = 2 → 1
        let x = [0.0, 0.5, 0.0, 0.5];
        let z = [1.0; 4];
        assert_eq!(lambda_from_quad(LambdaShape::Cube { width: 8.0 }, [&x, &[0.0; 4], &z]), 1.0);
    }

    #[test]
    fn grad_lambda_per_lane() {
        let mut d = [[[0f32; 4]; 2]; 3];
        d[0][0] = [0.25, 0.5, 1.0, 2.0];
        let shape = LambdaShape::OneD { width: 4.0 };
        assert_eq!([0, 1, 2, 3].map(|l| lambda_from_grad(shape, &d, l)), [0.0, 1.0, 2.0, 3.0]);
    }
}
