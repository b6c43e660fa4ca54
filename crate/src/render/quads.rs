//! The two ends of the fragment stage for a batch of quads: interpolated inputs into the input
//! rows (the pipeline's `QuadBatch` or the interpreter's registers), and the outputs of the
//! covered, surviving lanes into the framebuffer (depth test, render targets).

use super::framebuffer::{
    end_streaming_stores, unorm8_lanes, unorm8_quad, Format, Framebuffer, QuadBytes, QuadPixels,
    Tiling,
};
use super::interp::{eval_row, Coef, LaneSlot, Mode};
use super::stage::{FsInterface, InputPlanes, Quad};
use crate::exec::{Lanes, Rows};

/// Per-batch lane positions shared by every input channel.
#[derive(Default)]
pub struct LanePlan {
    /// Window position of each quad's lane 0.
    pub origins: Vec<[f32; 2]>,
    /// Each quad's lanes' interpolated 1/w (empty when 1/w is 1 everywhere).
    pub inv_w: Vec<[f32; 4]>,
}

impl LanePlan {
    pub fn prepare(&mut self, quads: &[Quad], inv_w: &Coef) {
        self.origins.clear();
        self.origins.extend(quads.iter().map(Quad::origin));
        self.inv_w.clear();
        if !unit_w(inv_w) {
            self.inv_w.extend(self.origins.iter().map(|&[x, y]| inv_w.quad(x, y)));
        }
    }
}

/// 1/w = 1 everywhere: dividing by it changes no bit, so perspective becomes linear.
fn unit_w(inv_w: &Coef) -> bool {
    *inv_w == Coef::constant(1.0)
}

/// Fills `rows` (`(register * 4 + channel) * stride + quad`, `quads` quads of each): the
/// declared channels of the planes' registers interpolated, everything else 0 — unless
/// `keep_zeros`, when those rows already hold zeros (they were cleared for an earlier batch of
/// the same size and nothing else writes them).
pub fn fill_inputs<T: LaneSlot>(
    rows: &mut [T],
    stride: usize,
    quads: usize,
    planes: &[Option<InputPlanes>],
    lanes: &LanePlan,
    keep_zeros: bool,
) {
    if quads == 0 || stride < quads {
        return;
    }
    for (i, row) in rows.chunks_mut(stride).enumerate() {
        let Some(row) = row.get_mut(..quads) else { continue };
        let (reg, c) = (i / 4, i % 4);
        match planes.get(reg).copied().flatten() {
            Some(p) if p.mask & (1 << c) != 0 => {
                let mode = if lanes.inv_w.is_empty() && p.mode == Mode::Perspective {
                    Mode::Linear
                } else {
                    p.mode
                };
                eval_row(row, &p.coefs[c], mode, &lanes.origins, &lanes.inv_w);
            }
            _ if keep_zeros => {}
            _ => row.iter_mut().for_each(|slot| slot.set([0.0; 4])),
        }
    }
}

/// One quad's four lanes of output bits: the pipeline's `[u32; 4]` or the interpreter's
/// [`Lanes`].
pub trait LaneBits {
    fn bits(&self) -> [u32; 4];
}

impl LaneBits for [u32; 4] {
    #[inline]
    fn bits(&self) -> [u32; 4] {
        *self
    }
}

impl LaneBits for Lanes {
    #[inline]
    fn bits(&self) -> [u32; 4] {
        self.0
    }
}

/// Where a batch's outputs go.
pub struct Target<'a> {
    pub fb: &'a mut Framebuffer,
    pub fs_if: &'a FsInterface,
    pub depth_test: bool,
}

/// Writes the outputs of a batch: row `register * 4 + channel` of `values` holds each quad's
/// output (the rows may be further apart than the batch), `killed[quad]` the lanes that write
/// nothing. `live` is scratch; returns the fragments written.
pub fn write_quads<T: LaneBits>(
    target: &mut Target,
    quads: &[Quad],
    values: Rows<T>,
    killed: &[u8],
    depth_plane: &Coef,
    live: &mut Vec<u8>,
) -> u64 {
    let nq = quads.len();
    let fb = &mut *target.fb;
    let row = |r: u32, c: usize| -> &[T] { values.row(r as usize * 4 + c, nq) };
    // Lanes to write per quad: covered, not killed, and passing the depth test.
    live.clear();
    live.extend(quads.iter().map(|quad| quad.coverage));
    for (mask, k) in live.iter_mut().zip(killed) {
        *mask &= !k;
    }
    if target.depth_test {
        let tiling = fb.tiling();
        let depths = fb.depth_mut();
        let z_row = target.fs_if.depth.map(|r| row(r, 2));
        for (q, (quad, mask)) in quads.iter().zip(live.iter_mut()).enumerate() {
            let z = match z_row {
                Some(zs) => zs.get(q).map_or([0; 4], LaneBits::bits).map(|b| {
                    let z = f32::from_bits(b);
                    if z.is_nan() {
                        0.0
                    } else {
                        z.clamp(0.0, 1.0)
                    }
                }),
                None => {
                    let [x, y] = quad.origin();
                    depth_plane.quad(x, y)
                }
            };
            let Some(depth) = depths.get_mut(tiling.quad_index(quad.x, quad.y)) else { continue };
            for (lane, d) in depth.iter_mut().enumerate() {
                if *mask & (1 << lane) != 0 {
                    if z[lane] < *d {
                        *d = z[lane];
                    } else {
                        *mask &= !(1 << lane);
                    }
                }
            }
        }
    }
    let tiling = fb.tiling();
    for &(t, r) in &target.fs_if.colors {
        let channels = [0, 1, 2, 3].map(|c| row(r, c));
        let t = t as usize;
        match fb.format {
            Format::Rgba32F => {
                if let Some(pixels) = fb.targets.get_mut(t) {
                    write_target(pixels, tiling, quads, live, channels);
                }
            }
            Format::Rgba8 => {
                if let Some(pixels) = fb.targets8.get_mut(t) {
                    write_target(pixels, tiling, quads, live, channels);
                }
            }
        }
    }
    end_streaming_stores();
    live.iter().map(|m| m.count_ones() as u64).sum()
}

/// A quad of a render target, in one of the framebuffer's formats.
trait QuadStore {
    /// All four lanes of every channel (`[channel][lane]`, raw float bits).
    fn store_all(&mut self, value: [[u32; 4]; 4]);
    /// The lanes whose bit is set in `mask`.
    fn store_lanes(&mut self, value: [[u32; 4]; 4], mask: u8);
}

impl QuadStore for QuadPixels {
    #[inline]
    fn store_all(&mut self, value: [[u32; 4]; 4]) {
        // One cache line, streamed to memory.
        self.store_streaming(value);
    }
    fn store_lanes(&mut self, value: [[u32; 4]; 4], mask: u8) {
        for (dst, src) in self.0.iter_mut().zip(value.iter()) {
            for (lane, (d, v)) in dst.iter_mut().zip(src.iter()).enumerate() {
                if mask & (1 << lane) != 0 {
                    *d = *v;
                }
            }
        }
    }
}

impl QuadStore for QuadBytes {
    #[inline]
    fn store_all(&mut self, value: [[u32; 4]; 4]) {
        self.0 = unorm8_quad(value);
    }
    fn store_lanes(&mut self, value: [[u32; 4]; 4], mask: u8) {
        for (dst, src) in self.0.iter_mut().zip(value.iter()) {
            for (lane, (d, v)) in dst.iter_mut().zip(unorm8_lanes(*src).iter()).enumerate() {
                if mask & (1 << lane) != 0 {
                    *d = *v;
                }
            }
        }
    }
}

/// Writes the live lanes of each quad into one render target.
fn write_target<P: QuadStore, T: LaneBits>(
    pixels: &mut [P],
    tiling: Tiling,
    quads: &[Quad],
    live: &[u8],
    [c0, c1, c2, c3]: [&[T]; 4],
) {
    let lanes = c0.iter().zip(c1).zip(c2).zip(c3);
    for ((quad, &mask), (((v0, v1), v2), v3)) in quads.iter().zip(live.iter()).zip(lanes) {
        if mask == 0 {
            continue;
        }
        let Some(px) = pixels.get_mut(tiling.quad_index(quad.x, quad.y)) else { continue };
        let value = [v0.bits(), v1.bits(), v2.bits(), v3.bits()];
        if mask == 0xF {
            px.store_all(value);
        } else {
            px.store_lanes(value, mask);
        }
    }
}
