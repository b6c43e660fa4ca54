//! The framebuffer: float RGBA render targets and a depth buffer. Window row 0 is the bottom
//! row of the picture; the writers in `image_io` flip so that files start with the top row.

/// Render targets cleared to (0, 0, 0, 0) and a depth buffer cleared to 1.0.
#[derive(Clone, Debug)]
pub struct Framebuffer {
    pub width: u32,
    pub height: u32,
    /// `targets[n][y * width + x]`, y counted from the bottom row.
    pub targets: Vec<Vec<[f32; 4]>>,
    pub depth: Vec<f32>,
}

/// Largest accepted width or height, and largest pixel count (64 Mpix), so that a bad size
/// gives a diagnostic instead of an allocation failure.
pub const MAX_DIMENSION: u32 = 16384;
pub const MAX_PIXELS: u64 = 1 << 26;

impl Framebuffer {
    /// A framebuffer with `targets` render targets (at least one).
    pub fn new(width: u32, height: u32, targets: usize) -> Result<Framebuffer, String> {
        if width == 0 || height == 0 || width > MAX_DIMENSION || height > MAX_DIMENSION || (width as u64 * height as u64) > MAX_PIXELS {
            return Err(format!(
                "size {}x{} is not supported (each side 1..{}, at most {} pixels)",
                width, height, MAX_DIMENSION, MAX_PIXELS
            ));
        }
        let n = (width * height) as usize;
        Ok(Framebuffer {
            width,
            height,
            targets: vec![vec![[0.0; 4]; n]; targets.clamp(1, 8)],
            depth: vec![1.0; n],
        })
    }

    #[inline]
    pub fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// The displayed target (COLOR[0]).
    pub fn color(&self) -> &[[f32; 4]] {
        self.targets.first().map_or(&[], |t| t.as_slice())
    }

    /// Pixel (x, y) of target 0 with y counted from the top row of the picture.
    pub fn pixel_from_top(&self, x: u32, y_top: u32) -> [f32; 4] {
        if x >= self.width || y_top >= self.height {
            return [0.0; 4];
        }
        let i = self.index(x, self.height - 1 - y_top);
        self.color().get(i).copied().unwrap_or([0.0; 4])
    }

    /// Rows `top_first` (counted from the top of the picture) of target 0 as RGBA8, top row first;
    /// values clamped to [0, 1] and rounded to nearest (NaN gives 0).
    pub fn rgba8_rows(&self, rows: std::ops::Range<u32>) -> Vec<u8> {
        let rows = rows.start.min(self.height)..rows.end.min(self.height);
        let mut out = Vec::with_capacity(rows.len() * self.width as usize * 4);
        for yt in rows {
            for x in 0..self.width {
                for c in self.pixel_from_top(x, yt) {
                    out.push(unorm8(c));
                }
            }
        }
        out
    }

    /// Target 0 as little-endian float32 RGBA, top row first.
    pub fn f32_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize * 16);
        for yt in 0..self.height {
            for x in 0..self.width {
                for c in self.pixel_from_top(x, yt) {
                    out.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        out
    }
}

/// Float to 8-bit unsigned normalized: clamp to [0, 1], scale by 255, round to nearest.
pub fn unorm8(v: f32) -> u8 {
    if v.is_nan() {
        return 0;
    }
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_out_top_first() {
        let mut fb = Framebuffer::new(1, 2, 1).unwrap();
        fb.targets[0][0] = [1.0, 0.0, 0.0, 1.0]; // bottom row
        fb.targets[0][1] = [0.0, 1.0, 0.0, 1.0]; // top row
        assert_eq!(fb.rgba8_rows(0..2), vec![0, 255, 0, 255, 255, 0, 0, 255]);
        let f = fb.f32_bytes();
        assert_eq!(f32::from_le_bytes([f[4], f[5], f[6], f[7]]), 1.0); // top row's green
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
