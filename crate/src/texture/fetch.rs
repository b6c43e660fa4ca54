//! Unfiltered texel fetch (TXF, TXF_LZ, SAMPLE_I, SAMPLE_I_MS) and size / sample queries
//! (TXQ, SVIEWINFO, TXQS, SAMPLE_INFO, SAMPLE_POS), following softpipe's `sp_get_texels` and
//! `sp_get_dims` (tgsi.rst "Texture Opcodes"; docs/textures.md "How a sample is computed": TXF, TXQ).

use super::image::{minify, Dim};
use super::sampler::TextureUnit;

/// Fetches texels at integer coordinates for a quad; returns `rgba[channel][lane]` as bits.
///
/// As softpipe: all four lanes use the level of lane 0 (`lod[0]`, relative to the view's base
/// level, clamped to the view's levels); coordinates plus offsets are clamped to the level's
/// edges; array layers are clamped to the layers. Cube textures cannot be fetched and return
/// zeros. For multisampled textures `lod` is the sample index: only sample 0 exists, other
/// indices return zeros. The view swizzle is applied.
pub fn fetch_quad(
    unit: &TextureUnit,
    i: [i32; 4],
    j: [i32; 4],
    k: [i32; 4],
    lod: [i32; 4],
    offsets: [i8; 3],
) -> [[u32; 4]; 4] {
    let tex = &unit.texture;
    let dim = tex.dim;
    let mut out = [[0u32; 4]; 4];
    if dim.is_cube() {
        return out;
    }
    let first = i64::from(unit.view.first_level);
    let last = i64::from(unit.view.last_level);
    let level = if dim.is_msaa() || dim == Dim::Buffer {
        0
    } else {
        (i64::from(lod[0]) + first).clamp(first, last) as u32
    };
    let (w, h, d) = tex.level_size(level);
    let off = offsets.map(i32::from);
    let clamp_to = |v: i32, o: i32, size: u32| v.saturating_add(o).clamp(0, size.max(1) as i32 - 1);
    for lane in 0..4 {
        if dim.is_msaa() && lod[lane] != 0 {
            continue;
        }
        let x = clamp_to(i[lane], off[0], w);
        let (y, z) = match dim {
            Dim::Buffer | Dim::D1 => (0, 0),
            Dim::D1Array => (0, clamp_to(j[lane], 0, d)),
            Dim::D2 | Dim::Rect | Dim::D2Msaa => (clamp_to(j[lane], off[1], h), 0),
            Dim::D2Array | Dim::D2ArrayMsaa => {
                (clamp_to(j[lane], off[1], h), clamp_to(k[lane], 0, d))
            }
            Dim::D3 => (clamp_to(j[lane], off[1], h), clamp_to(k[lane], off[2], d)),
            Dim::Cube | Dim::CubeArray => (0, 0),
        };
        let texel = tex.level(level).and_then(|l| l.get(x, y, z)).unwrap_or([0; 4]);
        let sw = unit.swizzle(texel.map(f32::from_bits)).map(f32::to_bits);
        for c in 0..4 {
            out[c][lane] = sw[c];
        }
    }
    out
}

/// Size of a level relative to the view's base level: (width, height, depth or layers,
/// number of levels), as softpipe's `sp_get_dims`. Levels outside the view give zeros
/// (softpipe leaves them undefined). Buffers report their element count.
pub fn dims(unit: &TextureUnit, level: i32) -> [i32; 4] {
    let tex = &unit.texture;
    let first = unit.view.first_level;
    let count = unit.view.last_level.saturating_sub(first) + 1;
    if level < 0 || level as u32 >= count {
        return [0; 4];
    }
    let l = first + level as u32;
    let w = minify(tex.width, l) as i32;
    let h = minify(tex.height, l) as i32;
    let n = count as i32;
    match tex.dim {
        Dim::Buffer | Dim::D1 => [w, 0, 0, n],
        Dim::D1Array => [w, tex.layers as i32, 0, n],
        Dim::D2 | Dim::Rect | Dim::Cube | Dim::D2Msaa => [w, h, 0, n],
        Dim::D2Array | Dim::D2ArrayMsaa | Dim::CubeArray => [w, h, tex.layers as i32, n],
        Dim::D3 => [w, h, minify(tex.depth, l) as i32, n],
    }
}

/// Samples per texel (TXQS, SAMPLE_INFO.x): one is stored, for every target.
pub fn sample_count(_unit: &TextureUnit) -> u32 {
    1
}

/// Position of a sample within the pixel (SAMPLE_POS): the single stored sample sits at the
/// centre, (0.5, 0.5); other indices give zeros.
pub fn sample_position(index: i32) -> [f32; 4] {
    if index == 0 {
        [0.5, 0.5, 0.0, 0.0]
    } else {
        [0.0; 4]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::format::Format;
    use crate::texture::image::Texture;
    use crate::texture::sampler::{SamplerState, TextureUnit};

    fn numbered(dim: Dim, w: u32, h: u32, layers: u32, levels: u32) -> TextureUnit {
        let mut t = Texture::new(dim, Format::R32Ui, w, h, 1, layers, levels)
            .unwrap_or_else(|e| panic!("{e}"));
        for (li, level) in t.levels.iter_mut().enumerate() {
            for (n, texel) in level.texels.iter_mut().enumerate() {
                *texel = [(li * 1000 + n) as u32, 0, 0, 1];
            }
        }
        TextureUnit::new(t, SamplerState::default())
    }

    #[test]
    fn txf_clamps_and_uses_lane0_level() {
        let u = numbered(Dim::D2, 4, 4, 1, 3);
        // level of lane 0 (1) for everyone; level 1 is 2x2, texel n = y*2 + x
        let r = fetch_quad(&u, [0, 1, 5, -3], [0, 1, 0, 9], [0; 4], [1, 0, 2, 7], [0; 3]);
        assert_eq!(r[0], [1000, 1003, 1001, 1002]);
        // offsets add before clamping: (0+1, 0+1) at level 0 → n = 5
        let r = fetch_quad(&u, [0; 4], [0; 4], [0; 4], [0; 4], [1, 1, 0]);
        assert_eq!(r[0][0], 5);
        // level past the view clamps to the last level (2, 1x1)
        let r = fetch_quad(&u, [0; 4], [0; 4], [0; 4], [99; 4], [0; 3]);
        assert_eq!(r[0][0], 2000);
    }

    #[test]
    fn txf_array_layers_and_msaa_samples() {
        let u = numbered(Dim::D2Array, 2, 2, 3, 1);
        let r = fetch_quad(&u, [1; 4], [1; 4], [0, 1, 2, 50], [0; 4], [0; 3]);
        assert_eq!(r[0], [3, 7, 11, 11]);
        let m = numbered(Dim::D2Msaa, 2, 2, 1, 1);
        let r = fetch_quad(&m, [1; 4], [0; 4], [0; 4], [0, 1, 2, 0], [0; 3]);
        assert_eq!(r[0], [1, 0, 0, 1]);
    }

    #[test]
    fn txq_sizes() {
        let u = numbered(Dim::D2Array, 8, 4, 3, 4);
        assert_eq!(dims(&u, 0), [8, 4, 3, 4]);
        assert_eq!(dims(&u, 2), [2, 1, 3, 4]);
        assert_eq!(dims(&u, 4), [0; 4]);
        assert_eq!(dims(&u, -1), [0; 4]);
        let mut b = numbered(Dim::D2, 8, 8, 1, 4);
        b.view.first_level = 1;
        b.normalize_view();
        assert_eq!(dims(&b, 0), [4, 4, 0, 3]);
    }
}
