//! The framebuffer: float RGBA render targets and a depth buffer, stored quad by quad (the 4
//! lanes of each channel of a 2x2 quad side by side, 64 bytes per quad) so the fragment
//! stage's outputs are written with whole-quad stores, and tile by tile: the 8x8 quads of each
//! 16x16-pixel tile are contiguous (row by row), tiles follow each other row by row. The
//! rasterizer walks the same 16x16 blocks in the same order, so a frame's writes run through
//! memory sequentially instead of jumping a whole picture row every 8 quads (measured in
//! docs/render.md). Window row 0 is the bottom row of the picture; the readers below flip so that
//! files start with the top row.

mod read_back;
mod storage;

pub use storage::TargetQuads;

/// One 2x2 quad of a render target as raw float bits (the shader's outputs are copied without
/// conversion): `[channel][lane]`, lanes (x, y), (x+1, y), (x, y+1), (x+1, y+1). Aligned to a
/// cache line so a whole-quad write touches one line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct QuadPixels(pub [[u32; 4]; 4]);

impl QuadPixels {
    /// Writes a whole quad with streaming (non-temporal) stores on x86-64: a frame's pixels are
    /// written once and not read back while drawing, so they go to memory without first reading
    /// each line into the cache (and without evicting the interpreter's registers from it).
    /// Measured in docs/render.md: the framebuffer writes of a fullscreen RGBA32F frame went from
    /// about a third of the frame to a few per cent. Call [`end_streaming_stores`] before the
    /// pixels are read or written in any other way.
    #[inline]
    pub fn store_streaming(&mut self, value: [[u32; 4]; 4]) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_set_epi32, _mm_stream_si128};
            let base = (self as *mut QuadPixels).cast::<__m128i>();
            for (i, c) in value.iter().enumerate() {
                // SAFETY: `base` comes from `&mut self`: 64 bytes, aligned to 64 and not aliased,
                // so chunk i (0..4) of 16 bytes is in bounds and 16-byte aligned, as the store
                // requires; SSE2 is part of every x86-64 CPU. The weak ordering of streaming
                // stores is closed by `end_streaming_stores` (SFENCE) before any other access.
                unsafe {
                    _mm_stream_si128(
                        base.add(i),
                        _mm_set_epi32(c[3] as i32, c[2] as i32, c[1] as i32, c[0] as i32),
                    )
                };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.0 = value;
        }
    }
}

/// Orders the streaming stores of [`QuadPixels::store_streaming`] before everything that
/// follows (SFENCE on x86-64; nothing elsewhere).
#[inline]
pub fn end_streaming_stores() {
    // SAFETY: SFENCE has no operands; SSE is part of every x86-64 CPU.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

/// One 2x2 quad of an RGBA8 render target: `[channel][lane]`, each value [`unorm8`] of the
/// shader's output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct QuadBytes(pub [[u8; 4]; 4]);

/// What the render targets store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The raw 32-bit output bits (like the softpipe oracle's render target): `tgsi bench`'s
    /// headline figure, `.f32` files and the conformance suite.
    #[default]
    Rgba32F,
    /// 8 bits per channel, converted as [`unorm8`] when written: enough for PNG and the
    /// canvas, a quarter of the memory traffic.
    Rgba8,
}

/// Render targets cleared to (0, 0, 0, 0) and a depth buffer cleared to 1.0.
#[derive(Clone, Debug)]
pub struct Framebuffer {
    pub width: u32,
    pub height: u32,
    pub format: Format,
    /// Tiles per row: ⌈width / 16⌉.
    tiles_x: usize,
    /// The window row the storage starts at (see [`Tiling`]); 0 for a whole picture.
    origin: u32,
    /// `targets[n][quad]`, quad = [`Framebuffer::quad_index`] (`Rgba32F`; empty otherwise).
    /// Natively the first is [`TargetQuads::lendable`] (a compiled module may store into it).
    pub(crate) targets: Vec<TargetQuads>,
    /// The same for `Rgba8`.
    pub(crate) targets8: Vec<Vec<QuadBytes>>,
    /// Depth per quad, `[lane]`; written only through [`Framebuffer::depth_mut`].
    depth: Vec<[f32; 4]>,
    /// Whether any depth may differ from the cleared 1.0 (`depth_mut` was called): until then
    /// clearing rows leaves the depth buffer alone.
    depth_written: bool,
}

/// Side of a storage tile in pixels (the rasterizer's block size).
pub const TILE: u32 = 16;
/// Quads per tile.
const TILE_QUADS: usize = (TILE as usize / 2) * (TILE as usize / 2);

/// The storage order of a framebuffer's quads (see the module comment).
#[derive(Clone, Copy, Debug)]
pub struct Tiling {
    tiles_x: usize,
    /// The window row the storage starts at (a multiple of [`TILE`]; 0 but for a band's
    /// framebuffer, [`Framebuffer::band`]). Rows below it have no storage: their index lies
    /// past the end, so every access (all through `get`) finds nothing.
    origin: u32,
}

impl Tiling {
    /// Tile `tx`'s quads of the row pair holding window row `y`: each tile keeps its part of a
    /// row pair as `TILE / 2` consecutive quads (the last tile's may run past the width).
    fn row_run(self, y: u32, tx: usize) -> std::ops::Range<usize> {
        let start = self.quad_index(0, y) + tx * TILE_QUADS;
        start..start + TILE as usize / 2
    }

    #[inline]
    pub fn quad_index(self, x: u32, y: u32) -> usize {
        let y = y.wrapping_sub(self.origin);
        let tile = (y / TILE) as usize * self.tiles_x + (x / TILE) as usize;
        let inside = (y % TILE / 2) * (TILE / 2) + x % TILE / 2;
        tile * TILE_QUADS + inside as usize
    }
}

/// Largest accepted width or height, and largest pixel count (64 Mpix), so that a bad size
/// gives a diagnostic instead of an allocation failure.
pub const MAX_DIMENSION: u32 = 16384;
pub const MAX_PIXELS: u64 = 1 << 26;
/// Colour buffers a framebuffer can have (COLOR[0..7]).
pub const MAX_TARGETS: usize = 8;

impl Framebuffer {
    /// A framebuffer with `targets` render targets (1..8) of RGBA32F.
    pub fn new(width: u32, height: u32, targets: usize) -> Result<Framebuffer, String> {
        Framebuffer::with_format(width, height, targets, Format::Rgba32F)
    }

    /// Checks that a framebuffer of this size, target count and format fits the byte limit
    /// (`limits::MAX_FRAMEBUFFER_BYTES`): every target plus the depth buffer, counted before
    /// anything is allocated. Bytes, not pixels, are what is bounded.
    pub fn check_bytes(
        width: u32,
        height: u32,
        targets: usize,
        format: Format,
    ) -> Result<(), String> {
        let bytes = Framebuffer::bytes(width, height, targets, format);
        if bytes > crate::limits::MAX_FRAMEBUFFER_BYTES {
            return Err(format!(
                "a {}x{} framebuffer with {} render target(s) needs {} MiB; the limit is {} MiB",
                width,
                height,
                targets.clamp(1, MAX_TARGETS),
                bytes >> 20,
                crate::limits::MAX_FRAMEBUFFER_BYTES >> 20
            ));
        }
        Ok(())
    }

    /// The bytes a framebuffer of this size, target count and format holds (every target plus
    /// the depth buffer, whole tiles).
    pub fn bytes(width: u32, height: u32, targets: usize, format: Format) -> u64 {
        let texel: u64 = match format {
            Format::Rgba32F => 16,
            Format::Rgba8 => 4,
        };
        let pixels =
            u64::from(width.div_ceil(TILE) * TILE) * u64::from(height.div_ceil(TILE) * TILE);
        pixels * (texel * targets.clamp(1, MAX_TARGETS) as u64 + 4)
    }

    /// Copies the tile rows holding window rows `rows` (row 0 = bottom; `rows.start` a multiple
    /// of [`TILE`], `rows.end` too or the picture's height) of every target and the depth buffer
    /// from `from`, a framebuffer of the same size, format and targets (a band another thread
    /// drew): whole tile rows are contiguous in storage, so each is one slice copy. Returns
    /// false (and copies nothing) when the framebuffers or the rows do not fit that.
    pub fn copy_tile_rows_from(&mut self, from: &Framebuffer, rows: std::ops::Range<u32>) -> bool {
        let fits = from.width == self.width
            && from.height == self.height
            && from.format == self.format
            && from.target_count() == self.target_count()
            && rows.start.is_multiple_of(TILE)
            && rows.start <= rows.end
            && (rows.end.is_multiple_of(TILE) || rows.end == self.height)
            && rows.end <= self.height;
        if !fits {
            return false;
        }
        // Each side's own storage range for those tile rows (a band's starts at its origin).
        let span_of = |fb: &Framebuffer| {
            let tiling = fb.tiling();
            let first = tiling.quad_index(0, rows.start);
            let last =
                if rows.end == fb.height { fb.depth.len() } else { tiling.quad_index(0, rows.end) };
            first..last.max(first)
        };
        let (to_span, from_span) = (span_of(self), span_of(from));
        if to_span.len() != from_span.len() {
            return false;
        }
        for (to, src) in self.targets.iter_mut().zip(&from.targets) {
            if let (Some(d), Some(s)) = (to.get_mut(to_span.clone()), src.get(from_span.clone())) {
                d.copy_from_slice(s);
            }
        }
        for (to, src) in self.targets8.iter_mut().zip(&from.targets8) {
            if let (Some(d), Some(s)) = (to.get_mut(to_span.clone()), src.get(from_span.clone())) {
                d.copy_from_slice(s);
            }
        }
        if from.depth_written || self.depth_written {
            let (to_d, from_d) = (self.depth.get_mut(to_span), from.depth.get(from_span));
            if let (Some(d), Some(s)) = (to_d, from_d) {
                d.copy_from_slice(s);
            }
            self.depth_written = true;
        }
        true
    }

    /// The size limits (each side 1..=[`MAX_DIMENSION`], at most [`MAX_PIXELS`] pixels),
    /// checked before anything is allocated.
    pub fn check_size(width: u32, height: u32) -> Result<(), String> {
        if width == 0
            || height == 0
            || width > MAX_DIMENSION
            || height > MAX_DIMENSION
            || (width as u64 * height as u64) > MAX_PIXELS
        {
            return Err(format!(
                "size {}x{} is not supported (each side 1..{}, at most {} pixels)",
                width, height, MAX_DIMENSION, MAX_PIXELS
            ));
        }
        Ok(())
    }

    pub fn with_format(
        width: u32,
        height: u32,
        targets: usize,
        format: Format,
    ) -> Result<Framebuffer, String> {
        Framebuffer::check_size(width, height)?;
        Framebuffer::check_bytes(width, height, targets, format)?;
        Ok(Framebuffer::with_storage(width, height, targets, format, 0..height))
    }

    /// A framebuffer for a band of a `width` x `height` picture: storage only for the tile
    /// rows holding window rows `rows` (`rows.start` rounded down to a multiple of [`TILE`]),
    /// addressed by the picture's own coordinates. Another thread draws the band into it
    /// ([`crate::render::bands::run_in_bands`]); [`Framebuffer::copy_tile_rows_from`] copies it
    /// into the picture.
    pub fn band(
        width: u32,
        height: u32,
        targets: usize,
        format: Format,
        rows: std::ops::Range<u32>,
    ) -> Result<Framebuffer, String> {
        Framebuffer::check_bytes(width, height, targets, format)?;
        let start = rows.start.min(height) / TILE * TILE;
        Ok(Framebuffer::with_storage(width, height, targets, format, start..rows.end.min(height)))
    }

    /// [`Framebuffer::new`] with its first target lendable whatever its size (natively; the
    /// fuzzing target draws small frames through the colour-storing path with it).
    pub fn new_lendable(width: u32, height: u32, targets: usize) -> Result<Framebuffer, String> {
        let mut fb = Framebuffer::new(width, height, targets)?;
        if let Some(first) = fb.targets.first_mut() {
            *first = TargetQuads::lendable_from(first.len(), 1);
        }
        Ok(fb)
    }

    /// Storage for window rows `rows` (`rows.start` a multiple of [`TILE`]) of a checked size.
    fn with_storage(
        width: u32,
        height: u32,
        targets: usize,
        format: Format,
        rows: std::ops::Range<u32>,
    ) -> Framebuffer {
        let tiles_x = width.div_ceil(TILE) as usize;
        let tile_rows = rows.end.div_ceil(TILE).saturating_sub(rows.start / TILE) as usize;
        let quads = tiles_x * tile_rows * TILE_QUADS;
        Framebuffer {
            width,
            height,
            format,
            tiles_x,
            origin: rows.start,
            targets: match format {
                Format::Rgba32F => (0..targets.clamp(1, MAX_TARGETS))
                    .map(|t| {
                        if t == 0 {
                            TargetQuads::lendable(quads)
                        } else {
                            TargetQuads::heap(quads)
                        }
                    })
                    .collect(),
                Format::Rgba8 => Vec::new(),
            },
            targets8: match format {
                Format::Rgba32F => Vec::new(),
                Format::Rgba8 => {
                    vec![vec![QuadBytes::default(); quads]; targets.clamp(1, MAX_TARGETS)]
                }
            },
            depth: vec![[1.0; 4]; quads],
            depth_written: false,
        }
    }

    /// Index of the quad whose lane 0 is at (x, y) (both even): its tile, then its row and
    /// column of quads inside the tile.
    #[inline]
    pub fn quad_index(&self, x: u32, y: u32) -> usize {
        self.tiling().quad_index(x, y)
    }

    /// The storage order on its own (so that it can be used while the storage is borrowed).
    pub fn tiling(&self) -> Tiling {
        Tiling { tiles_x: self.tiles_x, origin: self.origin }
    }

    /// Whether this framebuffer has storage for window rows `rows` (a band's
    /// [`Framebuffer::band`] holds only its own).
    pub fn stores_rows(&self, rows: std::ops::Range<u32>) -> bool {
        let stored_rows = (self.depth.len() / TILE_QUADS / self.tiles_x.max(1)) as u32 * TILE;
        rows.start >= self.origin && rows.end <= self.origin + stored_rows
    }

    /// Number of render targets.
    pub fn target_count(&self) -> usize {
        self.targets.len().max(self.targets8.len())
    }

    /// Pixel (x, y) of a target, y counted from the bottom row; (0, 0, 0, 0) outside.
    pub fn pixel(&self, target: usize, x: u32, y: u32) -> [f32; 4] {
        if x >= self.width || y >= self.height {
            return [0.0; 4];
        }
        let lane = (x & 1) as usize + 2 * (y & 1) as usize;
        let index = self.quad_index(x, y);
        match self.format {
            Format::Rgba32F => {
                self.targets.get(target).and_then(|t| t.get(index)).map_or([0.0; 4], |q| {
                    [q.0[0][lane], q.0[1][lane], q.0[2][lane], q.0[3][lane]].map(f32::from_bits)
                })
            }
            Format::Rgba8 => {
                self.targets8.get(target).and_then(|t| t.get(index)).map_or([0.0; 4], |q| {
                    [q.0[0][lane], q.0[1][lane], q.0[2][lane], q.0[3][lane]]
                        .map(|b| b as f32 / 255.0)
                })
            }
        }
    }

    /// Depth of pixel (x, y), y from the bottom row.
    pub fn depth_at(&self, x: u32, y: u32) -> f32 {
        let lane = (x & 1) as usize + 2 * (y & 1) as usize;
        self.depth.get(self.quad_index(x, y)).map_or(1.0, |d| d[lane])
    }

    /// Sets every depth back to 1.0.
    pub fn clear_depth(&mut self) {
        self.depth.fill([1.0; 4]);
        self.depth_written = false;
    }

    /// The depth buffer to write (per quad, `[lane]`, in [`Framebuffer::quad_index`] order).
    pub fn depth_mut(&mut self) -> &mut [[f32; 4]] {
        self.depth_written = true;
        &mut self.depth
    }

    /// Pixel (x, y) of target 0 with y counted from the top row of the picture.
    pub fn pixel_from_top(&self, x: u32, y_top: u32) -> [f32; 4] {
        if y_top >= self.height {
            return [0.0; 4];
        }
        self.pixel(0, x, self.height - 1 - y_top)
    }

    /// Clears window rows `rows` (row 0 = bottom) of every target to 0 and their depth to 1.0,
    /// by whole quads (a quad straddling the range's edge is cleared as a whole; the quads a
    /// tile keeps past the right edge too, which nothing reads). The whole rows of tiles inside
    /// the range are one run of quads each (the tiles follow each other row by row), cleared in
    /// one go; the rows at its ends pair by pair, tile by tile.
    pub fn clear_rows(&mut self, rows: std::ops::Range<u32>) {
        let rows = rows.start.min(self.height)..rows.end.min(self.height);
        if rows.is_empty() {
            // (Rounding the start down to its quad row would clear a row pair of no band.)
            return;
        }
        let tiling = self.tiling();
        let whole = rows.start.next_multiple_of(TILE)..rows.end / TILE * TILE;
        if whole.start < whole.end {
            self.clear_quads(tiling.quad_index(0, whole.start)..tiling.quad_index(0, whole.end));
            self.clear_row_pairs(rows.start..whole.start);
            self.clear_row_pairs(whole.end..rows.end);
        } else {
            self.clear_row_pairs(rows);
        }
    }

    /// [`Framebuffer::clear_rows`] of the row pairs that hold rows `rows`, a tile's run of
    /// quads at a time.
    fn clear_row_pairs(&mut self, rows: std::ops::Range<u32>) {
        if rows.is_empty() {
            return;
        }
        let tiling = self.tiling();
        for y in (rows.start & !1..rows.end).step_by(2) {
            for tx in 0..tiling.tiles_x {
                self.clear_quads(tiling.row_run(y, tx));
            }
        }
    }

    /// Quads `quads` of every target to 0, and their depth to 1.0 if any was written.
    fn clear_quads(&mut self, quads: std::ops::Range<usize>) {
        for target in self.targets.iter_mut() {
            if let Some(q) = target.get_mut(quads.clone()) {
                q.fill(QuadPixels::default());
            }
        }
        for target in self.targets8.iter_mut() {
            if let Some(q) = target.get_mut(quads.clone()) {
                q.fill(QuadBytes::default());
            }
        }
        if self.depth_written {
            if let Some(d) = self.depth.get_mut(quads) {
                d.fill([1.0; 4]);
            }
        }
    }
}

/// The four lanes of one channel (raw float bits) as [`unorm8`], in vector operations (the
/// scalar form compiled to a branch per value).
#[inline]
pub fn unorm8_lanes(bits: [u32; 4]) -> [u8; 4] {
    unorm8_ints(bits).to_array().map(|i| i as u8)
}

/// [`unorm8`] of the four lanes, as integers in 0..=255.
#[inline]
fn unorm8_ints(bits: [u32; 4]) -> wide::i32x4 {
    use wide::{f32x4, CmpGt, CmpLt};
    let v = f32x4::from(bits.map(f32::from_bits));
    let (zero, one) = (f32x4::splat(0.0), f32x4::splat(1.0));
    // Comparisons with NaN are false: NaN and v ≤ 0 give 0, v ≥ 1 gives 1, as in `unorm8`.
    let clamped = v.cmp_gt(zero).blend(v.cmp_lt(one).blend(v, one), zero);
    let scaled = clamped * f32x4::splat(255.0) + f32x4::splat(0.5);
    // Within [0.5, 255.5], so truncating to an integer is exactly `as u8`.
    scaled.fast_trunc_int()
}

/// A whole quad's channels (`[channel][lane]`, raw float bits) as [`unorm8`], in the same
/// layout: [`unorm8_lanes`] of each channel, narrowed together (two saturating packs, which
/// change nothing in 0..=255) instead of one byte at a time.
#[cfg(not(target_arch = "wasm32"))]
#[inline]
pub fn unorm8_quad(value: [[u32; 4]; 4]) -> [[u8; 4]; 4] {
    use wide::{i16x8, i32x8, u8x16};
    let [r, g, b, a] = value.map(|c| unorm8_ints(c).to_array());
    let pair = |x: [i32; 4], y: [i32; 4]| {
        i16x8::from_i32x8_saturate(i32x8::new([x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]))
    };
    let bytes = u8x16::narrow_i16x8(pair(r, g), pair(b, a)).to_array();
    std::array::from_fn(|c| std::array::from_fn(|lane| bytes[c * 4 + lane]))
}

/// [`unorm8_quad`] in WebAssembly's own vector instructions. The `wide` form's 8-lane narrowing
/// and its truncating conversion have no single WebAssembly instruction: V8 expands both into
/// compare-and-fix-up sequences, on the page's hottest loop (docs/perf-log.md). Here
/// `pmax(0, v)` is `0 < v ? v : 0`, so NaN and v ≤ 0 give +0, and `pmin(1, x)` is
/// `x < 1 ? x : 1`; then v·255 + 0.5 in two roundings as in [`unorm8`], and its floor (the
/// truncation of a positive value) plus 2^23, which is exact for 0..=255 and leaves the integer
/// in the float's low byte; three shuffles gather those bytes.
#[cfg(target_arch = "wasm32")]
#[inline]
pub fn unorm8_quad(value: [[u32; 4]; 4]) -> [[u8; 4]; 4] {
    use core::arch::wasm32::*;
    let channel = |c: [u32; 4]| {
        let v = u32x4(c[0], c[1], c[2], c[3]);
        let clamped = f32x4_pmin(f32x4_splat(1.0), f32x4_pmax(f32x4_splat(0.0), v));
        let scaled = f32x4_add(f32x4_mul(clamped, f32x4_splat(255.0)), f32x4_splat(0.5));
        // floor(scaled) is an integer in 0..=255, so adding 2^23 is exact and leaves it in the
        // low byte of the float's bits.
        f32x4_add(f32x4_floor(scaled), f32x4_splat(8_388_608.0))
    };
    let [r, g, b, a] = value.map(channel);
    let rg = i8x16_shuffle::<0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0>(r, g);
    let ba = i8x16_shuffle::<0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0>(b, a);
    let bytes = i64x2_shuffle::<0, 2>(rg, ba);
    [
        u32x4_extract_lane::<0>(bytes).to_le_bytes(),
        u32x4_extract_lane::<1>(bytes).to_le_bytes(),
        u32x4_extract_lane::<2>(bytes).to_le_bytes(),
        u32x4_extract_lane::<3>(bytes).to_le_bytes(),
    ]
}

/// Float to 8-bit unsigned normalized: clamp to [0, 1], scale by 255, round to nearest.
#[inline]
pub fn unorm8(v: f32) -> u8 {
    if v.is_nan() {
        return 0;
    }
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Depth 0.25 → grey round(0.25 · 255) = 64; the cleared depth 1.0 → 255. Target 1's red
    /// byte is read from target 1 only. Pixel (0, 0) from the bottom is the first pixel of the
    /// second row from the top (byte 8 of a 2×2 picture).
    #[test]
    fn depth_and_other_targets_read_back_by_rows() {
        let mut fb = Framebuffer::with_format(2, 2, 2, Format::Rgba8).unwrap();
        let i = fb.quad_index(0, 0);
        fb.depth_mut()[i][0] = 0.25;
        fb.targets8[1][i].0[0][0] = 200;
        let d = fb.depth_rgba8_rows(0..2);
        assert_eq!(&d[8..12], &[64, 64, 64, 255]);
        assert_eq!(&d[0..4], &[255, 255, 255, 255]);
        assert_eq!(fb.target_rgba8_rows(1, 0..2)[8], 200);
        assert_eq!(fb.target_rgba8_rows(0, 0..2)[8], 0);
        // Only the bottom row: one row of two pixels.
        assert_eq!(fb.depth_rgba8_rows(1..2).len(), 8);
    }

    #[test]
    fn rows_come_out_top_first() {
        let mut fb = Framebuffer::new(1, 2, 1).unwrap();
        // One quad: lane 0 = (0, 0) the bottom row, lane 2 = (0, 1) the top row.
        let q = [[1.0f32, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0; 4], [1.0, 0.0, 1.0, 0.0]];
        fb.targets[0][0].0 = q.map(|c| c.map(f32::to_bits));
        assert_eq!(fb.pixel(0, 0, 0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(fb.rgba8_rows(0..2), vec![0, 255, 0, 255, 255, 0, 0, 255]);
        let f = fb.f32_bytes();
        assert_eq!(f.len(), 32);
        assert_eq!(f32::from_le_bytes([f[4], f[5], f[6], f[7]]), 1.0); // top row's green
    }

    #[test]
    fn odd_sizes_have_whole_tiles() {
        // 3x3 pixels: one 16x16 tile of 8x8 quads; quad (2, 2) is the second quad of the
        // tile's second quad row: 8 + 1.
        let fb = Framebuffer::new(3, 3, 2).unwrap();
        assert_eq!(fb.targets[1].len(), 64);
        assert_eq!(fb.quad_index(2, 2), 9);
        assert_eq!(fb.pixel(0, 3, 0), [0.0; 4]);
        assert_eq!(fb.depth_at(2, 2), 1.0);
    }

    #[test]
    fn streamed_quads_read_back() {
        let mut fb = Framebuffer::new(2, 2, 1).unwrap();
        // Channel c of lane l holds c·10 + l.
        let value: [[u32; 4]; 4] =
            std::array::from_fn(|c| std::array::from_fn(|l| (c * 10 + l) as u32));
        fb.targets[0][0].store_streaming(value.map(|c| c.map(|v| (v as f32).to_bits())));
        end_streaming_stores();
        assert_eq!(fb.pixel(0, 1, 1), [3.0, 13.0, 23.0, 33.0]); // lane 3 = (x+1, y+1)
        assert_eq!(fb.pixel(0, 0, 0), [0.0, 10.0, 20.0, 30.0]);
    }

    #[test]
    fn tiles_are_contiguous_row_by_row() {
        // 40x20 pixels: 3 tiles per row, 2 tile rows, 64 quads per tile.
        let fb = Framebuffer::new(40, 20, 1).unwrap();
        assert_eq!(fb.targets[0].len(), 6 * 64);
        assert_eq!(fb.quad_index(0, 0), 0);
        assert_eq!(fb.quad_index(14, 0), 7); // last quad of the first quad row
        assert_eq!(fb.quad_index(0, 2), 8); // next quad row, same tile
        assert_eq!(fb.quad_index(14, 14), 63); // last quad of tile 0
        assert_eq!(fb.quad_index(16, 0), 64); // tile 1
        assert_eq!(fb.quad_index(34, 18), 5 * 64 + 8 + 1); // tile (2, 1), quad row 1, column 1
    }

    #[test]
    fn rgba8_targets_store_unorm8() {
        let mut fb = Framebuffer::with_format(1, 2, 1, Format::Rgba8).unwrap();
        assert!(fb.targets.is_empty());
        assert_eq!(fb.target_count(), 1);
        // Lane 0 = (0, 0) the bottom row, lane 2 = (0, 1) the top row, as in the float test.
        fb.targets8[0][0].0 = [[255, 0, 0, 0], [0, 0, 128, 0], [0; 4], [255, 0, 255, 0]];
        assert_eq!(fb.rgba8_rows(0..2), vec![0, 128, 0, 255, 255, 0, 0, 255]);
        assert_eq!(fb.pixel(0, 0, 1), [0.0, 128.0 / 255.0, 0.0, 1.0]);
        assert_eq!(unorm8_lanes([0.5f32, -1.0, 2.0, f32::NAN].map(f32::to_bits)), [128, 0, 255, 0]);
        // The branch-free form agrees with `unorm8` on the edges and at every rounding step.
        let mut edges = vec![
            0.0f32,
            -0.0,
            1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            1e-45,
            0.99999994,
            1.0000001,
        ];
        edges.extend((0..=2550).map(|i| i as f32 / 2550.0));
        edges.extend((0..255).map(|i| (i as f32 + 0.5) / 255.0));
        for v in edges {
            assert_eq!(unorm8_lanes([v.to_bits(); 4]), [unorm8(v); 4], "{}", v);
        }
    }

    /// A whole quad converted at once gives each channel's `unorm8` in place: every channel
    /// and lane distinct (a swapped byte would show), over NaN, the clamps and rounding steps.
    #[test]
    fn unorm8_quad_converts_every_channel_and_lane_in_place() {
        let values = [f32::NAN, -1.0, 0.0, 0.5 / 255.0, 1.5 / 255.0, 0.25, 0.5, 0.75, 1.0, 7.0];
        let mut k = 0usize;
        for _ in 0..40 {
            let quad: [[u32; 4]; 4] = std::array::from_fn(|c| {
                std::array::from_fn(|lane| {
                    k += 1;
                    // A spread of values that differ between channels and lanes.
                    let v = values[(k * 7 + c * 3 + lane) % values.len()] + (k % 5) as f32 / 255.0;
                    v.to_bits()
                })
            });
            let want = quad.map(|c| c.map(|bits| unorm8(f32::from_bits(bits))));
            assert_eq!(unorm8_quad(quad), want, "{:?}", quad);
        }
    }

    /// Rows 20..40 of a 40x40 framebuffer (two rows of 16x16 tiles, three tiles across) are
    /// cleared whole; rows below keep their value.
    #[test]
    fn clear_rows_clears_exactly_the_rows_across_tiles() {
        let Ok(mut fb) = Framebuffer::new(40, 40, 1) else { panic!("40x40 is a valid size") };
        for t in fb.targets.iter_mut() {
            t.fill(QuadPixels([[1.0f32.to_bits(); 4]; 4]));
        }
        fb.clear_rows(20..40);
        for y in 0..40 {
            for x in 0..40 {
                let expected = if y >= 20 { [0.0; 4] } else { [1.0; 4] };
                assert_eq!(fb.pixel(0, x, y), expected, "pixel ({}, {})", x, y);
            }
        }
    }

    /// Clearing a range of rows, in both formats and at sizes with partial tiles: exactly the
    /// rows of the quad row pairs the range touches (from its start rounded down to even to its
    /// end rounded up to even) become 0 with depth 1.0, whether the range holds whole rows of
    /// tiles (cleared as one run of quads) or not; every other pixel keeps its colour and depth.
    #[test]
    fn clear_rows_clears_the_quad_rows_of_the_range_and_nothing_else() {
        for (w, h) in [(40, 40), (33, 50), (64, 64), (7, 3)] {
            for format in [Format::Rgba8, Format::Rgba32F] {
                for rows in [0..h, 3..37, 16..32, 15..33, 20..40, 0..17, 32..h, 1..2, 5..5] {
                    let mut fb = Framebuffer::with_format(w, h, 2, format).unwrap();
                    for t in fb.targets.iter_mut() {
                        t.fill(QuadPixels([[1.0f32.to_bits(); 4]; 4]));
                    }
                    for t in fb.targets8.iter_mut() {
                        t.fill(QuadBytes([[9; 4]; 4]));
                    }
                    fb.depth_mut().fill([0.5; 4]);
                    fb.clear_rows(rows.clone());
                    // (Rows past the picture are no rows.)
                    let inside = rows.start.min(h)..rows.end.min(h);
                    let quad_rows = (inside.start & !1)..((inside.end + 1) & !1).min(h);
                    for y in 0..h {
                        for x in 0..w {
                            let cleared = !inside.is_empty() && quad_rows.contains(&y);
                            let kept = match format {
                                Format::Rgba8 => [9.0 / 255.0; 4],
                                Format::Rgba32F => [1.0; 4],
                            };
                            let want = if cleared { [0.0; 4] } else { kept };
                            let at = format!("{w}x{h} {format:?} rows {rows:?} ({x}, {y})");
                            for t in 0..2 {
                                assert_eq!(fb.pixel(t, x, y), want, "{at} target {t}");
                            }
                            assert_eq!(fb.depth_at(x, y), if cleared { 1.0 } else { 0.5 }, "{at}");
                        }
                    }
                }
            }
        }
    }

    /// Every pixel (x, y) (y from the bottom) holds the bytes (x, y, x ^ y, 7), placed through
    /// `quad_index` and lane (x & 1) + 2 (y & 1): the rows come out top first, pixel by pixel,
    /// whatever the size (partial tiles, odd widths and heights), in both formats; clearing a
    /// band of rows zeroes exactly those rows and sets their depth back to 1.
    #[test]
    fn rows_read_back_and_clear_at_any_size() {
        for (w, h) in [(1, 1), (3, 5), (17, 3), (40, 20), (33, 34)] {
            for format in [Format::Rgba8, Format::Rgba32F] {
                let mut fb = Framebuffer::with_format(w, h, 1, format).unwrap();
                let bytes = |x: u32, y: u32| [x as u8, y as u8, (x ^ y) as u8, 7];
                for y in 0..h {
                    for x in 0..w {
                        let (i, lane) =
                            (fb.quad_index(x, y), (x & 1) as usize + 2 * (y & 1) as usize);
                        for (c, b) in bytes(x, y).into_iter().enumerate() {
                            match format {
                                Format::Rgba8 => fb.targets8[0][i].0[c][lane] = b,
                                Format::Rgba32F => {
                                    fb.targets[0][i].0[c][lane] = (b as f32 / 255.0).to_bits()
                                }
                            }
                        }
                    }
                }
                let expected: Vec<u8> =
                    (0..h).rev().flat_map(|y| (0..w).flat_map(move |x| bytes(x, y))).collect();
                assert_eq!(fb.target_rgba8_rows(0, 0..h), expected, "{w}x{h} {format:?}");
                let from = (w * 4) as usize;
                assert_eq!(fb.target_rgba8_rows(0, 1..h), expected[from.min(expected.len())..]);
                // Bands that start and end on either row of a quad row pair.
                for (a, b) in [(0, h - 1), (1, h.saturating_sub(1).max(1)), (2, h), (1, 2.min(h))] {
                    let (a, b) = (a.min(h), b.min(h).max(a.min(h)));
                    let (i, j) = ((a * w * 4) as usize, (b * w * 4) as usize);
                    assert_eq!(
                        fb.target_rgba8_rows(0, a..b),
                        expected[i..j],
                        "{w}x{h} {format:?} rows {a}..{b}"
                    );
                }
                // Window rows 2..4 (a whole quad row pair where the picture has them).
                fb.clear_rows(2..4);
                let rows = fb.target_rgba8_rows(0, 0..h);
                for y in 0..h {
                    for x in 0..w {
                        let at = (((h - 1 - y) * w + x) * 4) as usize;
                        let cleared = (2..4).contains(&y);
                        let want = if cleared { [0; 4] } else { bytes(x, y) };
                        assert_eq!(rows[at..at + 4], want, "{w}x{h} {format:?} ({x}, {y})");
                        let depth = if cleared { 1.0 } else { fb.depth_at(x, y) };
                        assert_eq!(fb.depth_at(x, y), depth);
                    }
                }
            }
        }
    }

    #[test]
    fn unorm8_clamps_and_rounds() {
        assert_eq!(unorm8(-1.0), 0);
        assert_eq!(unorm8(2.0), 255);
        assert_eq!(unorm8(0.5), 128); // 127.5 rounds up
        assert_eq!(unorm8(f32::NAN), 0);
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Framebuffer::new(0, 4, 1).is_err());
        assert!(Framebuffer::new(16384, 16384, 1).is_err());
    }
}
