//! Rasterization of a set-up triangle into 2x2 quads with coverage masks. The region is walked
//! in 16x16-pixel blocks aligned to the framebuffer's tiles (64 quads each): a block whose four
//! corner pixel centres are inside every edge is entirely covered (edge functions are linear), a
//! block whose corners are all outside one edge is empty, and only the others are tested pixel
//! by pixel.

use super::setup::Triangle;
use super::stage::Quad;

const BLOCK: i64 = super::framebuffer::TILE as i64;
/// Quads per block.
const BLOCK_QUADS: usize = (BLOCK as usize / 2) * (BLOCK as usize / 2);

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
    // Blocks start on multiples of 16 so that each one is a tile of the framebuffer's storage.
    let x0 = tri.bbox[0].max(region.x0) & !(BLOCK - 1);
    let x1 = (tri.bbox[2] + 1).min(region.x1);
    let y0 = tri.bbox[1].max(region.y0) & !(BLOCK - 1);
    let y1 = (tri.bbox[3] + 1).min(region.y1);
    if x0 >= x1 || y0 >= y1 {
        return Ok(());
    }
    let mut block = [Quad { x: 0, y: 0, coverage: 0 }; BLOCK_QUADS];
    let mut by = y0;
    while by < y1 {
        let mut bx = x0;
        while bx < x1 {
            let (ex, ey) = ((bx + BLOCK).min(x1), (by + BLOCK).min(y1));
            let corners = [(bx, by), (ex - 1, by), (bx, ey - 1), (ex - 1, ey - 1)];
            let mut full = true;
            let mut empty = false;
            for e in &tri.edges {
                let inside = corners.iter().filter(|&&(x, y)| e.inside(x, y)).count();
                if inside == 0 {
                    empty = true;
                    break;
                }
                if inside < 4 {
                    full = false;
                }
            }
            // A full block must also lie inside the region on every side, with whole quads.
            let whole =
                bx >= region.x0 && by >= region.y0 && (ex - bx) % 2 == 0 && (ey - by) % 2 == 0;
            let mut n = 0;
            if !empty {
                let mut qy = by;
                while qy < ey {
                    let mut qx = bx;
                    while qx < ex {
                        let coverage = if full && whole {
                            0xF
                        } else {
                            let mut c = 0u8;
                            for lane in 0..4 {
                                let (px, py) = (qx + (lane & 1), qy + (lane >> 1));
                                if px >= region.x0
                                    && px < region.x1
                                    && py >= region.y0
                                    && py < region.y1
                                    && tri.covers(px, py)
                                {
                                    c |= 1 << lane;
                                }
                            }
                            c
                        };
                        if let (true, Some(slot)) = (coverage != 0, block.get_mut(n)) {
                            *slot = Quad { x: qx as u32, y: qy as u32, coverage };
                            n += 1;
                        }
                        qx += 2;
                    }
                    qy += 2;
                }
            }
            if n > 0 {
                emit(block.get(..n).unwrap_or_default())?;
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
}
