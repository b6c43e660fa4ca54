//! Rasterization of a set-up triangle into 2x2 quads with coverage masks. The triangle's rows
//! and their covered columns come from set-up (softpipe's scan conversion, `render::setup`);
//! the region is walked in 16x16-pixel blocks aligned to the framebuffer's tiles (64 quads
//! each): a block whose sixteen rows all cover its sixteen columns is entirely covered, a block
//! no row reaches is skipped, and only the others are tested pixel by pixel.

use super::setup::Triangle;
use super::stage::Quad;

const BLOCK: i64 = super::framebuffer::TILE as i64;
/// Quads per block.
const BLOCK_QUADS: usize = (BLOCK as usize / 2) * (BLOCK as usize / 2);

/// The quads of a fully covered block at the origin, row by row.
const FULL_BLOCK: [Quad; BLOCK_QUADS] = {
    let side = BLOCK as usize / 2;
    let mut quads = [Quad { x: 0, y: 0, coverage: 0xF }; BLOCK_QUADS];
    let mut i = 0;
    while i < BLOCK_QUADS {
        quads[i].x = (i % side * 2) as u32;
        quads[i].y = (i / side * 2) as u32;
        i += 1;
    }
    quads
};

/// The pixel region to rasterize: columns `x0..x1` and rows `y0..y1` (end exclusive), window
/// coordinates with row 0 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub x0: i64,
    pub x1: i64,
    pub y0: i64,
    pub y1: i64,
}

/// Calls `emit(x, y, coverage)` for every quad (even x, y) of `region` that the triangle touches;
/// bit `i` of `coverage` is lane `i`: (x, y), (x+1, y), (x, y+1), (x+1, y+1). Lanes outside the
/// region are never covered.
pub fn rasterize<E>(
    tri: &Triangle,
    region: Region,
    mut emit: impl FnMut(u32, u32, u8) -> Result<(), E>,
) -> Result<(), E> {
    rasterize_blocks(tri, region, |quads| quads.iter().try_for_each(|q| emit(q.x, q.y, q.coverage)))
}

/// The same quads in the same order as [`rasterize`], handed over one block (up to 64 quads, row
/// by row) per call: a covered block costs a tight loop, not a call per quad.
pub fn rasterize_blocks<E>(
    tri: &Triangle,
    region: Region,
    mut emit: impl FnMut(&[Quad]) -> Result<(), E>,
) -> Result<(), E> {
    let mut block = Vec::with_capacity(BLOCK_QUADS);
    rasterize_into(tri, region, &mut block, |block| {
        let result = emit(block);
        block.clear();
        result
    })
}

/// The same quads in the same order as [`rasterize`], appended to `out` one block (up to 64
/// quads, row by row) at a time, with a call to `after_block(out)` after each block: the caller
/// takes what it wants from `out` (the pipeline makes its batches of it without copying them).
pub fn rasterize_into<E>(
    tri: &Triangle,
    region: Region,
    out: &mut Vec<Quad>,
    mut after_block: impl FnMut(&mut Vec<Quad>) -> Result<(), E>,
) -> Result<(), E> {
    let (rows_start, rows_end) = tri.rows();
    // Blocks start on multiples of 16 so that each one is a tile of the framebuffer's storage.
    let y0 = rows_start.max(region.y0) & !(BLOCK - 1);
    let y1 = rows_end.min(region.y1);
    // The covered columns of each row of a band of blocks, cut to the region (empty: 0..0).
    let mut spans = [(0i64, 0i64); BLOCK as usize];
    let mut by = y0;
    while by < y1 {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (k, span) in spans.iter_mut().enumerate() {
            let row = by + k as i64;
            *span = (0, 0);
            if row < region.y0 || row >= y1 {
                continue;
            }
            if let Some((l, r)) = tri.span(row) {
                let (l, r) = (l.max(region.x0), r.min(region.x1));
                if l < r {
                    *span = (l, r);
                    lo = lo.min(l);
                    hi = hi.max(r);
                }
            }
        }
        let mut bx = if lo < hi { lo & !(BLOCK - 1) } else { hi };
        while bx < hi {
            let ex = bx + BLOCK;
            let full = spans.iter().all(|&(l, r)| l <= bx && r >= ex);
            let before = out.len();
            if full {
                // Every quad, row by row, all four lanes covered: no test per quad.
                let (x, y) = (bx as u32, by as u32);
                out.extend(FULL_BLOCK.iter().map(|t| Quad {
                    x: t.x + x,
                    y: t.y + y,
                    coverage: 0xF,
                }));
            } else if spans.iter().any(|&(l, r)| l < ex && r > bx) {
                let mut qy = 0;
                while qy < BLOCK {
                    let (row0, row1) = (spans[qy as usize], spans[qy as usize + 1]);
                    let mut qx = bx;
                    while qx < ex {
                        let inside = |(l, r): (i64, i64), x: i64| x >= l && x < r;
                        let coverage = u8::from(inside(row0, qx))
                            | u8::from(inside(row0, qx + 1)) << 1
                            | u8::from(inside(row1, qx)) << 2
                            | u8::from(inside(row1, qx + 1)) << 3;
                        if coverage != 0 {
                            out.push(Quad { x: qx as u32, y: (by + qy) as u32, coverage });
                        }
                        qx += 2;
                    }
                    qy += 2;
                }
            }
            if out.len() > before {
                after_block(out)?;
            }
            bx += BLOCK;
        }
        by += BLOCK;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::setup::WindowPos;

    fn wp(x: f32, y: f32) -> WindowPos {
        WindowPos { x, y, z: 0.0, inv_w: 1.0 }
    }

    /// Same coverage as testing every pixel centre directly.
    #[test]
    fn blocks_agree_with_per_pixel_tests() {
        let tri = Triangle::new([wp(1.3, 0.2), wp(29.7, 5.1), wp(7.2, 26.9)]).unwrap();
        for region in
            [Region { x0: 0, x1: 31, y0: 0, y1: 27 }, Region { x0: 0, x1: 32, y0: 5, y1: 18 }]
        {
            let mut got = vec![0u8; 32 * 32];
            rasterize::<()>(&tri, region, |x, y, c| {
                for lane in 0..4 {
                    if c & (1 << lane) != 0 {
                        got[((y + (lane >> 1)) * 32 + x + (lane & 1)) as usize] += 1;
                    }
                }
                Ok(())
            })
            .unwrap();
            for y in 0..32i64 {
                for x in 0..32i64 {
                    let inside_region =
                        x >= region.x0 && x < region.x1 && y >= region.y0 && y < region.y1;
                    let expected = (inside_region && tri.covers(x, y)) as u8;
                    assert_eq!(got[(y * 32 + x) as usize], expected, "pixel {},{}", x, y);
                }
            }
        }
    }

    /// A triangle over the whole region: the 16x16 blocks inside are entirely covered, those
    /// at the region's right and top edges are not. Every pixel of the region once, and each
    /// block's quads row by row from the bottom, left to right (the order the tests above
    /// check pixel by pixel for partly covered blocks).
    #[test]
    fn covered_blocks_give_every_quad_row_by_row() {
        let tri =
            Triangle::new([wp(-100.0, -100.0), wp(300.0, -100.0), wp(-100.0, 300.0)]).unwrap();
        let region = Region { x0: 0, x1: 40, y0: 0, y1: 37 };
        let mut got = vec![0u8; 40 * 37];
        let mut blocks = 0;
        rasterize_blocks::<()>(&tri, region, |quads| {
            blocks += 1;
            let order: Vec<(u32, u32)> = quads.iter().map(|q| (q.y, q.x)).collect();
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(order, sorted, "block {blocks}: row by row");
            for q in quads {
                for lane in 0..4 {
                    if q.coverage & (1 << lane) != 0 {
                        got[((q.y + (lane >> 1)) * 40 + q.x + (lane & 1)) as usize] += 1;
                    }
                }
            }
            Ok(())
        })
        .unwrap();
        // Blocks of 16: three columns (0, 16, 32) by three rows (0, 16, 32).
        assert_eq!(blocks, 9);
        assert!(got.iter().all(|&n| n == 1), "every pixel of the region exactly once");
    }
}
