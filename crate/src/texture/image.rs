//! Texture storage: a resource target, a format and a chain of mip levels.
//!
//! As in Gallium, array layers and cube faces are slices of each level: a level is
//! `width × height × slices` texels, where `slices` is the depth for 3D textures, the layer count
//! for arrays, 6 for cubes (faces +X, −X, +Y, −Y, +Z, −Z) and 6·layers for cube arrays
//! (slice = 6·layer + face). Row 0 is the bottom row (t near 0), x runs fastest, then y, then the
//! slice. Every texel is stored expanded to four 32-bit slots (see [`super::format`]).

use super::format::Format;

/// The shape of a texture resource (Gallium's `pipe_texture_target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Buffer,
    D1,
    D2,
    D3,
    Cube,
    Rect,
    D1Array,
    D2Array,
    CubeArray,
    /// Multisampled 2D; one sample is stored (see docs/textures.md).
    D2Msaa,
    D2ArrayMsaa,
}

const DIM_NAMES: &[(Dim, &str, &[&str])] = &[
    (Dim::Buffer, "BUFFER", &[]),
    (Dim::D1, "1D", &[]),
    (Dim::D2, "2D", &[]),
    (Dim::D3, "3D", &[]),
    (Dim::Cube, "CUBE", &[]),
    (Dim::Rect, "RECT", &["RECTANGLE"]),
    (Dim::D1Array, "1D_ARRAY", &[]),
    (Dim::D2Array, "2D_ARRAY", &[]),
    (Dim::CubeArray, "CUBE_ARRAY", &["CUBEARRAY"]),
    (Dim::D2Msaa, "2D_MSAA", &["2D_MULTISAMPLE"]),
    (Dim::D2ArrayMsaa, "2D_ARRAY_MSAA", &["2D_MULTISAMPLE_ARRAY"]),
];

impl Dim {
    pub fn from_name(word: &str) -> Option<Dim> {
        DIM_NAMES
            .iter()
            .find(|(_, n, o)| {
                n.eq_ignore_ascii_case(word) || o.iter().any(|x| x.eq_ignore_ascii_case(word))
            })
            .map(|(d, _, _)| *d)
    }
    pub fn name(self) -> &'static str {
        DIM_NAMES.iter().find(|(d, _, _)| *d == self).map(|(_, n, _)| *n).unwrap_or("?")
    }
    pub fn is_array(self) -> bool {
        matches!(self, Dim::D1Array | Dim::D2Array | Dim::CubeArray | Dim::D2ArrayMsaa)
    }
    pub fn is_cube(self) -> bool {
        matches!(self, Dim::Cube | Dim::CubeArray)
    }
    pub fn is_msaa(self) -> bool {
        matches!(self, Dim::D2Msaa | Dim::D2ArrayMsaa)
    }
    /// Only 3D textures shrink in depth from level to level.
    pub fn has_depth(self) -> bool {
        self == Dim::D3
    }
    /// 1D shapes have height 1.
    pub fn is_1d(self) -> bool {
        matches!(self, Dim::Buffer | Dim::D1 | Dim::D1Array)
    }
    /// Textures that may have more than one level.
    pub fn allows_mips(self) -> bool {
        !matches!(self, Dim::Buffer | Dim::Rect | Dim::D2Msaa | Dim::D2ArrayMsaa)
    }
}

/// Upper bound on the texels of one texture, all levels and slices (16 Mi texels, 256 MiB as
/// stored): descriptions beyond it are refused instead of exhausting memory (the page's too).
pub const MAX_TEXELS: u64 = 1 << 24;
/// Upper bound on any single dimension.
pub const MAX_SIZE: u32 = 1 << 16;

/// Bytes one stored texel takes (four 32-bit values).
pub const TEXEL_BYTES: u64 = 16;

/// One mip level: all slices (layers, faces or depth) of that level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub width: u32,
    pub height: u32,
    pub slices: u32,
    /// `width·height·slices` texels, each (x, y, z, w) as 32-bit values.
    pub texels: Vec<[u32; 4]>,
}

impl Level {
    pub fn new(width: u32, height: u32, slices: u32) -> Level {
        let n = width as usize * height as usize * slices as usize;
        Level { width, height, slices, texels: vec![[0; 4]; n] }
    }
    /// The texel at (x, y, slice), or `None` outside the level.
    #[inline]
    pub fn get(&self, x: i32, y: i32, z: i32) -> Option<[u32; 4]> {
        if x < 0
            || y < 0
            || z < 0
            || x as u32 >= self.width
            || y as u32 >= self.height
            || z as u32 >= self.slices
        {
            return None;
        }
        let i = (z as usize * self.height as usize + y as usize) * self.width as usize + x as usize;
        self.texels.get(i).copied()
    }
    /// The texel at (x, y, slice) as the float bits it holds, or `None` outside the level.
    #[inline]
    pub fn value(&self, x: i32, y: i32, z: i32) -> Option<[f32; 4]> {
        self.get(x, y, z).map(|t| t.map(f32::from_bits))
    }
    /// Writes a texel; positions outside the level are ignored.
    pub fn set(&mut self, x: u32, y: u32, z: u32, v: [u32; 4]) {
        if x < self.width && y < self.height && z < self.slices {
            let i =
                (z as usize * self.height as usize + y as usize) * self.width as usize + x as usize;
            if let Some(t) = self.texels.get_mut(i) {
                *t = v;
            }
        }
    }
}

/// A texture resource: shape, format, level-0 size and the stored levels.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub dim: Dim,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    /// Depth of level 0 (3D only, 1 otherwise).
    pub depth: u32,
    /// Array layers (1 for non-arrays; for cube arrays the number of cubes).
    pub layers: u32,
    pub levels: Vec<Level>,
}

/// Size of level `level` of a dimension of size `size` (Gallium's `u_minify`).
pub fn minify(size: u32, level: u32) -> u32 {
    if level >= 32 {
        1
    } else {
        (size >> level).max(1)
    }
}

impl Texture {
    /// An all-zero texture with `levels` levels, after checking sizes against the limits.
    pub fn new(
        dim: Dim,
        format: Format,
        width: u32,
        height: u32,
        depth: u32,
        layers: u32,
        levels: u32,
    ) -> Result<Texture, String> {
        let levels = Texture::checked_levels(dim, width, height, depth, layers, levels)?;
        let height = if dim.is_1d() { 1 } else { height };
        let depth = if dim.has_depth() { depth } else { 1 };
        let layers = if dim.is_array() { layers } else { 1 };
        let mut t = Texture { dim, format, width, height, depth, layers, levels: Vec::new() };
        t.levels = (0..levels)
            .map(|l| {
                let (w, h, s) = t.level_size(l);
                Level::new(w, h, s)
            })
            .collect();
        Ok(t)
    }

    /// Texels a texture of this shape stores (every level, layer and face), computed without
    /// allocating; the same checks as [`Texture::new`].
    pub fn planned_texels(
        dim: Dim,
        width: u32,
        height: u32,
        depth: u32,
        layers: u32,
        levels: u32,
    ) -> Result<u64, String> {
        let levels = Texture::checked_levels(dim, width, height, depth, layers, levels)?;
        let t = Texture {
            dim,
            format: Format::Rgba8,
            width,
            height: if dim.is_1d() { 1 } else { height },
            depth: if dim.has_depth() { depth } else { 1 },
            layers: if dim.is_array() { layers } else { 1 },
            levels: Vec::new(),
        };
        Ok((0..levels)
            .map(|l| {
                let (w, h, s) = t.level_size(l);
                u64::from(w) * u64::from(h) * u64::from(s)
            })
            .sum())
    }

    /// The level count a texture of this shape gets, after the size checks.
    fn checked_levels(
        dim: Dim,
        width: u32,
        height: u32,
        depth: u32,
        layers: u32,
        levels: u32,
    ) -> Result<u32, String> {
        let height = if dim.is_1d() { 1 } else { height };
        let depth = if dim.has_depth() { depth } else { 1 };
        let layers = if dim.is_array() { layers } else { 1 };
        for (what, v) in
            [("width", width), ("height", height), ("depth", depth), ("layers", layers)]
        {
            if v == 0 || v > MAX_SIZE {
                return Err(format!("texture {what} {v} is outside 1..{MAX_SIZE}"));
            }
        }
        if dim.is_cube() && width != height {
            return Err(format!("cube faces must be square, got {width}x{height}"));
        }
        let max_levels = 32 - width.max(height).max(depth).leading_zeros();
        let levels = if dim.allows_mips() { levels.clamp(1, max_levels) } else { 1 };
        let t = Texture {
            dim,
            format: Format::Rgba8,
            width,
            height,
            depth,
            layers,
            levels: Vec::new(),
        };
        let mut total: u64 = 0;
        for l in 0..levels {
            let (w, h, s) = t.level_size(l);
            total += u64::from(w) * u64::from(h) * u64::from(s);
            if total > MAX_TEXELS {
                return Err(format!("texture too large: more than {MAX_TEXELS} texels"));
            }
        }
        Ok(levels)
    }

    /// Slices per level: depth (3D), layers, 6 (cube) or 6·layers (cube array).
    pub fn slices_at(&self, level: u32) -> u32 {
        match self.dim {
            Dim::D3 => minify(self.depth, level),
            Dim::Cube => 6,
            Dim::CubeArray => 6 * self.layers,
            _ => self.layers,
        }
    }

    /// (width, height, slices) of a level.
    pub fn level_size(&self, level: u32) -> (u32, u32, u32) {
        (minify(self.width, level), minify(self.height, level), self.slices_at(level))
    }

    pub fn num_levels(&self) -> u32 {
        self.levels.len() as u32
    }

    #[inline]
    pub fn level(&self, level: u32) -> Option<&Level> {
        self.levels.get(level as usize)
    }

    /// Rebuilds levels 1.. from level 0 with a box filter: each texel averages the 2×2 (2×2×2
    /// for 3D) texels it covers in the level above; odd sizes repeat the last row/column.
    /// Results are re-quantised to the format, so generated levels hold storable values.
    /// Integer formats take the top-left texel instead of averaging.
    pub fn generate_mipmaps(&mut self, levels: u32) {
        if !self.dim.allows_mips() {
            return;
        }
        let max_levels = 32 - self.width.max(self.height).max(self.depth).leading_zeros();
        let levels = levels.clamp(1, max_levels);
        self.levels.truncate(1);
        for l in 1..levels {
            let (w, h, s) = self.level_size(l);
            let mut next = Level::new(w, h, s);
            if let Some(prev) = self.levels.last() {
                for z in 0..s {
                    for y in 0..h {
                        for x in 0..w {
                            next.set(x, y, z, self.box_texel(prev, x, y, z));
                        }
                    }
                }
            }
            self.levels.push(next);
        }
    }

    fn box_texel(&self, prev: &Level, x: u32, y: u32, z: u32) -> [u32; 4] {
        let xs = [2 * x, (2 * x + 1).min(prev.width - 1)];
        let ys = [2 * y, (2 * y + 1).min(prev.height - 1)];
        let zs =
            if self.dim.has_depth() { [2 * z, (2 * z + 1).min(prev.slices - 1)] } else { [z, z] };
        let first = prev.get(xs[0] as i32, ys[0] as i32, zs[0] as i32).unwrap_or([0; 4]);
        if self.format.is_integer() {
            return first;
        }
        let mut sum = [0f64; 4];
        let mut n = 0.0;
        for &zz in &zs {
            for &yy in &ys {
                for &xx in &xs {
                    let t = prev.get(xx as i32, yy as i32, zz as i32).unwrap_or([0; 4]);
                    for c in 0..4 {
                        sum[c] += f64::from(f32::from_bits(t[c]));
                    }
                    n += 1.0;
                }
            }
        }
        let mut out = [0u32; 4];
        for c in 0..4 {
            out[c] = self.format.requantize((sum[c] / n) as f32, c == 3).to_bits();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::format::unorm8_to_float;

    #[test]
    fn sizes_follow_minify() {
        let t =
            Texture::new(Dim::D2, Format::Rgba8, 8, 2, 1, 1, 10).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.num_levels(), 4); // 8x2, 4x1, 2x1, 1x1
        assert_eq!(t.level_size(3), (1, 1, 1));
        let c = Texture::new(Dim::CubeArray, Format::Rgba8, 4, 4, 1, 2, 1)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.slices_at(0), 12);
        let v = Texture::new(Dim::D3, Format::R8, 4, 4, 8, 1, 9).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.level_size(2), (1, 1, 2));
    }

    #[test]
    fn limits_are_enforced() {
        assert!(Texture::new(Dim::D2, Format::Rgba8, 0, 4, 1, 1, 1).is_err());
        assert!(Texture::new(Dim::D2, Format::Rgba8, 65536, 65536, 1, 1, 1).is_err());
        assert!(Texture::new(Dim::Cube, Format::Rgba8, 4, 2, 1, 1, 1).is_err());
    }

    #[test]
    fn box_filter_averages_and_requantises() {
        let mut t =
            Texture::new(Dim::D2, Format::R8, 2, 2, 1, 1, 1).unwrap_or_else(|e| panic!("{e}"));
        // texels 0, 255, 255, 255 → mean 191.25 → stored as 191
        for (i, v) in [0u8, 255, 255, 255].iter().enumerate() {
            let x = unorm8_to_float(*v).to_bits();
            t.levels[0].set(i as u32 % 2, i as u32 / 2, 0, [x, 0, 0, 1f32.to_bits()]);
        }
        t.generate_mipmaps(5);
        assert_eq!(t.num_levels(), 2);
        assert_eq!(
            t.levels[1].get(0, 0, 0).map(|v| f32::from_bits(v[0])),
            Some(unorm8_to_float(191))
        );
    }
}
