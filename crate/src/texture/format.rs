//! Texel formats and their decoding into the 4-component values the sampler works on.
//!
//! Every texel is stored already expanded to four 32-bit components following the Gallium column
//! of the "Texture Sampling and Texture Formats" table of `tgsi.rst`: R → (r, 0, 0, 1),
//! RG → (r, g, 0, 1), A → (0, 0, 0, a), L → (l, l, l, 1), LA → (l, l, l, a), I → (i, i, i, i).
//! Depth formats read as (d, 0, 0, 1) when no comparison is made (GL core profile, as softpipe).
//!
//! Normalised and float formats store `f32` values; integer formats store the integer's bits in
//! the same 32-bit slot (as softpipe, whose integer texels travel through float registers).

use crate::half::{from_f32, to_f32};

/// What the stored components mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Unsigned normalised 8-bit, stored as integers 0..255 in descriptions.
    Unorm8,
    /// 8-bit sRGB-encoded colour with linear alpha.
    Srgb8,
    /// 16-bit unsigned normalised (depth).
    Unorm16,
    /// Half float (stored as binary16 in images, decoded exactly to f32).
    Half,
    /// Binary32 float.
    Float,
    /// Unsigned integer (the sampler returns the bits).
    Uint,
    /// Signed integer (the sampler returns the bits).
    Sint,
}

/// How the stored channels map to (x, y, z, w) (the tgsi.rst table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    R,
    Rg,
    Rgba,
    Alpha,
    Luminance,
    LuminanceAlpha,
    Intensity,
    Depth,
}

/// The texel formats a texture can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Rgba8,
    Srgb8Alpha8,
    R8,
    Rg8,
    A8,
    L8,
    L8A8,
    I8,
    Rgba16F,
    Rgba32F,
    Rg32F,
    R32F,
    R32Ui,
    R32I,
    Rgba8Ui,
    Rgba8I,
    Rgba32Ui,
    Rgba32I,
    Depth16,
    Depth32F,
}

/// (format, canonical name, other accepted names)
const NAMES: &[(Format, &str, &[&str])] = &[
    (Format::Rgba8, "RGBA8", &["RGBA8_UNORM", "R8G8B8A8_UNORM"]),
    (Format::Srgb8Alpha8, "SRGB8_ALPHA8", &["RGBA8_SRGB", "SRGBA8", "R8G8B8A8_SRGB"]),
    (Format::R8, "R8", &["R8_UNORM"]),
    (Format::Rg8, "RG8", &["RG8_UNORM", "R8G8_UNORM"]),
    (Format::A8, "A8", &["ALPHA8", "A8_UNORM"]),
    (Format::L8, "L8", &["LUMINANCE8", "L8_UNORM"]),
    (Format::L8A8, "L8A8", &["LUMINANCE8_ALPHA8", "LA8", "L8A8_UNORM"]),
    (Format::I8, "I8", &["INTENSITY8", "I8_UNORM"]),
    (Format::Rgba16F, "RGBA16F", &["R16G16B16A16_FLOAT"]),
    (Format::Rgba32F, "RGBA32F", &["R32G32B32A32_FLOAT"]),
    (Format::Rg32F, "RG32F", &["R32G32_FLOAT"]),
    (Format::R32F, "R32F", &["R32_FLOAT"]),
    (Format::R32Ui, "R32UI", &["R32_UINT"]),
    (Format::R32I, "R32I", &["R32_SINT"]),
    (Format::Rgba8Ui, "RGBA8UI", &["R8G8B8A8_UINT"]),
    (Format::Rgba8I, "RGBA8I", &["R8G8B8A8_SINT"]),
    (Format::Rgba32Ui, "RGBA32UI", &["R32G32B32A32_UINT"]),
    (Format::Rgba32I, "RGBA32I", &["R32G32B32A32_SINT"]),
    (Format::Depth16, "DEPTH_COMPONENT16", &["Z16_UNORM", "DEPTH16"]),
    (Format::Depth32F, "DEPTH_COMPONENT32F", &["Z32_FLOAT", "DEPTH32F"]),
];

impl Format {
    /// Looks a format up by any of its names (ASCII case ignored).
    pub fn from_name(word: &str) -> Option<Format> {
        NAMES
            .iter()
            .find(|(_, name, other)| {
                name.eq_ignore_ascii_case(word)
                    || other.iter().any(|o| o.eq_ignore_ascii_case(word))
            })
            .map(|(f, _, _)| *f)
    }

    /// The canonical name (the one used in texture descriptions).
    pub fn name(self) -> &'static str {
        NAMES.iter().find(|(f, _, _)| *f == self).map(|(_, n, _)| *n).unwrap_or("?")
    }

    /// All canonical names, for messages and docs.
    pub fn all_names() -> Vec<&'static str> {
        NAMES.iter().map(|(_, n, _)| *n).collect()
    }

    pub fn kind(self) -> Kind {
        use Format::*;
        match self {
            Rgba8 | R8 | Rg8 | A8 | L8 | L8A8 | I8 => Kind::Unorm8,
            Srgb8Alpha8 => Kind::Srgb8,
            Depth16 => Kind::Unorm16,
            Rgba16F => Kind::Half,
            Rgba32F | Rg32F | R32F | Depth32F => Kind::Float,
            R32Ui | Rgba8Ui | Rgba32Ui => Kind::Uint,
            R32I | Rgba8I | Rgba32I => Kind::Sint,
        }
    }

    pub fn layout(self) -> Layout {
        use Format::*;
        match self {
            R8 | R32F | R32Ui | R32I => Layout::R,
            Rg8 | Rg32F => Layout::Rg,
            A8 => Layout::Alpha,
            L8 => Layout::Luminance,
            L8A8 => Layout::LuminanceAlpha,
            I8 => Layout::Intensity,
            Depth16 | Depth32F => Layout::Depth,
            _ => Layout::Rgba,
        }
    }

    /// Number of values a texel has in a description (`components` in the JSON).
    pub fn components(self) -> usize {
        match self.layout() {
            Layout::R | Layout::Alpha | Layout::Luminance | Layout::Intensity | Layout::Depth => 1,
            Layout::Rg | Layout::LuminanceAlpha => 2,
            Layout::Rgba => 4,
        }
    }

    /// Integer formats return raw integer bits and are never filtered.
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::Uint | Kind::Sint)
    }

    pub fn is_depth(self) -> bool {
        self.layout() == Layout::Depth
    }

    /// Decodes one stored channel value (as written in a description) to its 32-bit slot.
    /// `alpha` marks the alpha channel of an sRGB format, which stays linear.
    pub fn decode_channel(self, value: StoredValue, alpha: bool) -> u32 {
        match self.kind() {
            Kind::Unorm8 => unorm8_to_float(value.as_u8()).to_bits(),
            Kind::Srgb8 if alpha => unorm8_to_float(value.as_u8()).to_bits(),
            Kind::Srgb8 => srgb8_to_linear(value.as_u8()).to_bits(),
            Kind::Unorm16 => (f32::from(value.as_u16()) * (1.0f32 / 65535.0)).to_bits(),
            Kind::Half | Kind::Float => value.as_f32().to_bits(),
            Kind::Uint => match value {
                StoredValue::Bits(b) => b,
                _ => value.as_int().clamp(0, u32::MAX as i64) as u32,
            },
            Kind::Sint => match value {
                StoredValue::Bits(b) => b,
                _ => value.as_int().clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32,
            },
        }
    }

    /// Expands the decoded channels of one texel to (x, y, z, w) per the tgsi.rst table.
    pub fn expand(self, ch: &[u32]) -> [u32; 4] {
        let get = |i: usize| ch.get(i).copied().unwrap_or(0);
        let one = if self.is_integer() { 1 } else { 1.0f32.to_bits() };
        let zero = 0u32;
        match self.layout() {
            Layout::R | Layout::Depth => [get(0), zero, zero, one],
            Layout::Rg => [get(0), get(1), zero, one],
            Layout::Rgba => [get(0), get(1), get(2), get(3)],
            Layout::Alpha => [zero, zero, zero, get(0)],
            Layout::Luminance => [get(0), get(0), get(0), one],
            Layout::LuminanceAlpha => [get(0), get(0), get(0), get(1)],
            Layout::Intensity => [get(0); 4],
        }
    }

    /// Re-encodes a filtered float value into what this format can store (used by mip
    /// generation so that generated levels hold representable texels).
    pub fn requantize(self, v: f32, alpha: bool) -> f32 {
        match self.kind() {
            Kind::Unorm8 => unorm8_to_float((v.clamp(0.0, 1.0) * 255.0).round() as u8),
            Kind::Srgb8 if alpha => unorm8_to_float((v.clamp(0.0, 1.0) * 255.0).round() as u8),
            Kind::Srgb8 => srgb8_to_linear(linear_to_srgb8(v)),
            Kind::Unorm16 => (v.clamp(0.0, 1.0) * 65535.0).round() * (1.0f32 / 65535.0),
            Kind::Half => to_f32(from_f32(v)),
            _ => v,
        }
    }
}

/// A channel value as written in a description: an integer, a float, or raw bits ("0x...").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StoredValue {
    Int(i64),
    Float(f64),
    Bits(u32),
}

impl StoredValue {
    fn as_int(self) -> i64 {
        match self {
            StoredValue::Int(i) => i,
            StoredValue::Float(f) if f.is_finite() => {
                f.round().clamp(i64::MIN as f64, i64::MAX as f64) as i64
            }
            StoredValue::Float(_) => 0,
            StoredValue::Bits(b) => b as i64,
        }
    }
    /// An 8-bit code: integers are codes 0..255, numbers written with a fraction or decimal
    /// point (`0.5`, `1.0`) are normalised values scaled by 255 and rounded.
    fn as_u8(self) -> u8 {
        match self {
            StoredValue::Float(f) if f.is_finite() => (f.clamp(0.0, 1.0) * 255.0).round() as u8,
            _ => self.as_int().clamp(0, 255) as u8,
        }
    }
    /// A 16-bit code, with the same rule as [`StoredValue::as_u8`].
    fn as_u16(self) -> u16 {
        match self {
            StoredValue::Float(f) if f.is_finite() => (f.clamp(0.0, 1.0) * 65535.0).round() as u16,
            _ => self.as_int().clamp(0, 65535) as u16,
        }
    }
    fn as_f32(self) -> f32 {
        match self {
            StoredValue::Int(i) => i as f32,
            StoredValue::Float(f) => f as f32,
            StoredValue::Bits(b) => f32::from_bits(b),
        }
    }
}

/// UNORM8 → float exactly as softpipe: a single-precision multiply by the reciprocal
/// (docs/textures.md "How a sample is computed"), not the correctly rounded v/255.
pub fn unorm8_to_float(v: u8) -> f32 {
    f32::from(v) * (1.0f32 / 255.0f32)
}

/// sRGB 8-bit → linear float with the sRGB transfer function, computed in double precision and
/// rounded once (how Mesa builds its 256-entry table).
pub fn srgb8_to_linear(v: u8) -> f32 {
    let c = f64::from(v) / 255.0;
    let lin = if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) };
    lin as f32
}

/// Linear float → nearest sRGB 8-bit code.
pub fn linear_to_srgb8(v: f32) -> u8 {
    let c = f64::from(v).clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (s * 255.0).round().clamp(0.0, 255.0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm8_uses_reciprocal_multiply() {
        // 3 * f32(1/255) rounds differently from the correctly rounded 3/255 in binary32
        // (126 of the 256 values differ, softpipe's `util_format` conversion); check the definition
        // directly.
        assert_eq!(unorm8_to_float(3), 3.0f32 * (1.0f32 / 255.0));
        assert_eq!(unorm8_to_float(255), 255.0f32 * (1.0f32 / 255.0));
        let differing =
            (0..=255u8).filter(|&v| unorm8_to_float(v) != (f64::from(v) / 255.0) as f32).count();
        assert_eq!(differing, 126);
    }

    #[test]
    fn component_mapping_follows_tgsi_table() {
        let one = 1.0f32.to_bits();
        let (r, g) = (11u32, 22u32);
        assert_eq!(Format::R8.expand(&[r]), [r, 0, 0, one]);
        assert_eq!(Format::Rg8.expand(&[r, g]), [r, g, 0, one]);
        assert_eq!(Format::A8.expand(&[r]), [0, 0, 0, r]);
        assert_eq!(Format::L8.expand(&[r]), [r, r, r, one]);
        assert_eq!(Format::L8A8.expand(&[r, g]), [r, r, r, g]);
        assert_eq!(Format::I8.expand(&[r]), [r, r, r, r]);
        assert_eq!(Format::Depth32F.expand(&[r]), [r, 0, 0, one]);
        // integer formats fill with integer 1
        assert_eq!(Format::R32Ui.expand(&[7]), [7, 0, 0, 1]);
    }

    #[test]
    fn half_floats_decode_exactly() {
        assert_eq!(to_f32(0x3c00), 1.0);
        assert_eq!(to_f32(0xc000), -2.0);
        assert_eq!(to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(to_f32(0x7c00), f32::INFINITY);
        assert!(to_f32(0x7e00).is_nan());
        assert_eq!(from_f32(1.0), 0x3c00);
        assert_eq!(from_f32(0.5), 0x3800);
        assert_eq!(from_f32(1.0e6), 0x7c00);
    }

    #[test]
    fn srgb_endpoints_and_midpoint() {
        assert_eq!(srgb8_to_linear(0), 0.0);
        assert_eq!(srgb8_to_linear(255), 1.0);
        // 188/255 = 0.737…; ((0.737+0.055)/1.055)^2.4 ≈ 0.5029
        assert!((srgb8_to_linear(188) - 0.502_886).abs() < 1e-5);
        assert_eq!(linear_to_srgb8(srgb8_to_linear(100)), 100);
    }

    #[test]
    fn names_round_trip() {
        for name in Format::all_names() {
            assert_eq!(Format::from_name(name).map(Format::name), Some(name));
        }
        assert_eq!(Format::from_name("r32_sint"), Some(Format::R32I));
        assert_eq!(Format::from_name("nope"), None);
    }

    #[test]
    fn unorm_values_as_codes_or_normalised() {
        assert_eq!(
            Format::R8.decode_channel(StoredValue::Int(1), false),
            unorm8_to_float(1).to_bits()
        );
        // 0.5 · 255 = 127.5 → 128; 1.0 → 255
        assert_eq!(
            Format::R8.decode_channel(StoredValue::Float(0.5), false),
            unorm8_to_float(128).to_bits()
        );
        assert_eq!(Format::R8.decode_channel(StoredValue::Float(1.0), false), 1.0f32.to_bits());
    }

    #[test]
    fn integer_values_keep_their_bits() {
        assert_eq!(Format::Rgba8I.decode_channel(StoredValue::Int(-5), false), (-5i32) as u32);
        assert_eq!(Format::R32Ui.decode_channel(StoredValue::Int(-5), false), 0);
        assert_eq!(Format::R32F.decode_channel(StoredValue::Bits(0x7fc0_0001), false), 0x7fc0_0001);
    }
}
