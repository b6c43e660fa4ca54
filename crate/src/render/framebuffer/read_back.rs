//! Reading a framebuffer back in picture order (top row first): RGBA8 rows for the page, PNG
//! files and the tests, float bytes for `.f32` files, the depth buffer as grey or as floats.
//! The storage is quad by quad and tile by tile (the parent module); these turn it into rows.

use super::{unorm8, unorm8_quad, Format, Framebuffer, TILE};

/// One tile's part of an output row as RGBA8 (`span`, up to `TILE` pixels) from the run `run`
/// of a target's quads (a missing target leaves zeros): each quad's `[channel][lane]` bytes
/// (`bytes`) give two pixels, lanes `lanes` and `lanes + 1`.
#[inline]
fn put_run<Q>(
    span: &mut [u8],
    target: Option<&[Q]>,
    run: std::ops::Range<usize>,
    lanes: usize,
    bytes: impl Fn(&Q) -> [[u8; 4]; 4],
) {
    let quads = target.and_then(|t| t.get(run)).unwrap_or_default();
    // The pixels of lanes `lanes` and `lanes + 1`: bytes from `lanes * 4` of the pixel-major quad.
    let pair_of = |q: &Q| {
        let pixels = pixel_major(bytes(q));
        let (first, second) = pixels.split_at(8);
        let mut pair = [0u8; 8];
        pair.copy_from_slice(if lanes == 0 { first } else { second });
        pair
    };
    let full_pairs = span.len() / 8;
    let mut pairs = span.chunks_exact_mut(8);
    for (pair, q) in (&mut pairs).zip(quads) {
        // Eight bytes of a known length: one store, not a call to copy a slice.
        pair.copy_from_slice(&pair_of(q));
    }
    // The right edge of an odd width: one pixel of the next quad.
    if let (Some(dst), Some(q)) = (pairs.into_remainder().get_mut(..4), quads.get(full_pairs)) {
        dst.copy_from_slice(&pair_of(q)[..4]);
    }
}

/// [`put_run`] of both rows of a quad row pair at once, from one transpose per quad: `upper`
/// (the pair's odd window row, lanes 2 and 3, which comes first in a top-first picture) and
/// `lower` (its even row, lanes 0 and 1), spans of the same length.
fn put_pair<Q>(
    upper: &mut [u8],
    lower: &mut [u8],
    target: Option<&[Q]>,
    run: std::ops::Range<usize>,
    bytes: impl Fn(&Q) -> [[u8; 4]; 4],
) {
    let quads = target.and_then(|t| t.get(run)).unwrap_or_default();
    let full_pairs = upper.len() / 8;
    let mut ups = upper.chunks_exact_mut(8);
    let mut lows = lower.chunks_exact_mut(8);
    for ((up, low), q) in (&mut ups).zip(&mut lows).zip(quads) {
        let pixels = pixel_major(bytes(q));
        let (first, second) = pixels.split_at(8);
        up.copy_from_slice(second);
        low.copy_from_slice(first);
    }
    // The right edge of an odd width: one pixel of the next quad in each row.
    let (up, low) = (ups.into_remainder(), lows.into_remainder());
    if let (Some(up), Some(low), Some(q)) =
        (up.get_mut(..4), low.get_mut(..4), quads.get(full_pairs))
    {
        let pixels = pixel_major(bytes(q));
        up.copy_from_slice(&pixels[8..12]);
        low.copy_from_slice(&pixels[..4]);
    }
}

/// A quad's `[channel][lane]` bytes as its four RGBA pixels in lane order: a 4x4 byte
/// transpose, one byte shuffle (wasm SIMD's swizzle in the page's engine, where reading a band
/// back runs every frame).
#[inline]
fn pixel_major(quad: [[u8; 4]; 4]) -> [u8; 16] {
    use wide::{i8x16, u8x16};
    // Byte `lane * 4 + channel` of the result is byte `channel * 4 + lane` of the quad.
    const TRANSPOSE: [i8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
    let flat: [u8; 16] = std::array::from_fn(|i| quad[i / 4][i % 4]);
    let pixels = u8x16::new(flat).swizzle(i8x16::new(TRANSPOSE)).to_array();
    pixels.map(|b| b as u8)
}

impl Framebuffer {
    /// Rows `rows` (counted from the top of the picture) of target 0 as RGBA8, top row first;
    /// values clamped to [0, 1] and rounded to nearest (NaN gives 0).
    pub fn rgba8_rows(&self, rows: std::ops::Range<u32>) -> Vec<u8> {
        self.target_rgba8_rows(0, rows)
    }

    /// [`Self::rgba8_rows`] of any render target (a missing one reads 0).
    pub fn target_rgba8_rows(&self, target: usize, rows: std::ops::Range<u32>) -> Vec<u8> {
        let rows = rows.start.min(self.height)..rows.end.min(self.height);
        let width = self.width as usize;
        let mut out = vec![0u8; rows.len() * width * 4];
        let tiling = self.tiling();
        let span = TILE as usize * 4;
        // The page reads a whole band every frame: each row is walked tile by tile, one run of
        // consecutive quads per tile (`Tiling::row_run`), not one quad lookup per pixel pair;
        // the two rows of a quad row pair together when both are asked for (a band may start or
        // end between them), each quad transposed once for both.
        let mut lines = out.chunks_exact_mut(width * 4);
        let mut yt = rows.start;
        while yt < rows.end {
            let y = self.height - 1 - yt;
            let pair =
                if y & 1 == 1 && yt + 1 < rows.end { lines.next().zip(lines.next()) } else { None };
            if let Some((upper, lower)) = pair {
                for (tx, (up, low)) in
                    upper.chunks_mut(span).zip(lower.chunks_mut(span)).enumerate()
                {
                    let run = tiling.row_run(y, tx);
                    match self.format {
                        Format::Rgba32F => {
                            put_pair(up, low, self.targets.get(target).map(|t| &t[..]), run, |q| {
                                unorm8_quad(q.0)
                            })
                        }
                        Format::Rgba8 => {
                            put_pair(up, low, self.targets8.get(target).map(|t| &t[..]), run, |q| {
                                q.0
                            })
                        }
                    }
                }
                yt += 2;
                continue;
            }
            let Some(line) = lines.next() else { break };
            let lanes = 2 * (y & 1) as usize;
            for (tx, span) in line.chunks_mut(span).enumerate() {
                let run = tiling.row_run(y, tx);
                match self.format {
                    Format::Rgba32F => {
                        put_run(span, self.targets.get(target).map(|t| &t[..]), run, lanes, |q| {
                            unorm8_quad(q.0)
                        })
                    }
                    Format::Rgba8 => {
                        put_run(span, self.targets8.get(target).map(|t| &t[..]), run, lanes, |q| {
                            q.0
                        })
                    }
                }
            }
            yt += 1;
        }
        out
    }

    /// Rows `rows` (from the top) of the depth buffer as opaque greyscale RGBA8, top row first:
    /// grey [`unorm8`] of the depth (0 black = near, 1 white = far, the cleared value).
    pub fn depth_rgba8_rows(&self, rows: std::ops::Range<u32>) -> Vec<u8> {
        let rows = rows.start.min(self.height)..rows.end.min(self.height);
        let mut out = Vec::with_capacity(rows.len() * self.width as usize * 4);
        for yt in rows {
            let y = self.height - 1 - yt;
            for x in 0..self.width {
                let g = unorm8(self.depth_at(x, y));
                out.extend_from_slice(&[g, g, g, 255]);
            }
        }
        out
    }

    /// Target 0 as little-endian float32 RGBA, top row first.
    pub fn f32_bytes(&self) -> Vec<u8> {
        self.target_f32_bytes(0)
    }

    /// A target as little-endian float32 RGBA, top row first.
    pub fn target_f32_bytes(&self, target: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize * 16);
        for yt in 0..self.height {
            for x in 0..self.width {
                for c in self.pixel(target, x, self.height - 1 - yt) {
                    out.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        out
    }

    /// A target as RGBA8 ([`unorm8`] of each channel), top row first: for target 0 the same
    /// bytes as [`Framebuffer::rgba8_rows`] of every row.
    pub fn target_rgba8(&self, target: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize * 4);
        for yt in 0..self.height {
            for x in 0..self.width {
                let px = self.pixel(target, x, self.height - 1 - yt);
                out.extend(px.map(|c| match self.format {
                    Format::Rgba32F => unorm8(c),
                    // Already 8-bit: the stored byte back.
                    Format::Rgba8 => (c * 255.0).round() as u8,
                }));
            }
        }
        out
    }

    /// The depth buffer, one float per pixel, top row first.
    pub fn depth_top_first(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize);
        for yt in 0..self.height {
            for x in 0..self.width {
                out.push(self.depth_at(x, self.height - 1 - yt));
            }
        }
        out
    }
}
