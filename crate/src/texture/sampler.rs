//! Sampler state, sampler-view state and the texture unit that binds them to a texture
//! (Gallium's `pipe_sampler_state` and `pipe_sampler_view`; tgsi.rst "Texture Sampling and
//! Texture Formats" and the SVIEW declaration).

use std::sync::Arc;

use super::image::Texture;

/// Magnification / minification filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

/// Filter between mip levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MipFilter {
    None,
    Nearest,
    Linear,
}

/// Wrap mode of one coordinate axis: every `PIPE_TEX_WRAP_*` of Gallium (p_defines.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Repeat,
    /// Legacy GL_CLAMP: coordinates clamp to [0, 1]; linear filtering at the edge blends the
    /// edge texel with the border colour.
    Clamp,
    ClampToEdge,
    ClampToBorder,
    MirroredRepeat,
    /// GL_MIRROR_CLAMP_EXT: |s| then legacy CLAMP.
    MirrorClamp,
    /// GL_MIRROR_CLAMP_TO_EDGE: |s| then CLAMP_TO_EDGE.
    MirrorClampToEdge,
    /// GL_MIRROR_CLAMP_TO_BORDER_EXT: |s| then CLAMP_TO_BORDER.
    MirrorClampToBorder,
}

/// Each wrap mode once: its GL name (texture JSON) and its option word (`--texture U=FILE,word`,
/// the page's sampler menu and the widget's `textures` attribute).
pub const WRAP_NAMES: &[(Wrap, &str, &str)] = &[
    (Wrap::Repeat, "REPEAT", "repeat"),
    (Wrap::Clamp, "CLAMP", "gl-clamp"),
    (Wrap::ClampToEdge, "CLAMP_TO_EDGE", "clamp"),
    (Wrap::ClampToBorder, "CLAMP_TO_BORDER", "border"),
    (Wrap::MirroredRepeat, "MIRRORED_REPEAT", "mirror"),
    (Wrap::MirrorClamp, "MIRROR_CLAMP", "mirror-clamp"),
    (Wrap::MirrorClampToEdge, "MIRROR_CLAMP_TO_EDGE", "mirror-edge"),
    (Wrap::MirrorClampToBorder, "MIRROR_CLAMP_TO_BORDER", "mirror-border"),
];

/// Depth comparison function: the result is `ref OP texel` (GL/Gallium convention).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl Filter {
    pub fn from_name(w: &str) -> Option<Filter> {
        match w.to_ascii_uppercase().as_str() {
            "NEAREST" => Some(Filter::Nearest),
            "LINEAR" => Some(Filter::Linear),
            _ => None,
        }
    }
}

impl MipFilter {
    pub fn from_name(w: &str) -> Option<MipFilter> {
        match w.to_ascii_uppercase().as_str() {
            "NONE" => Some(MipFilter::None),
            "NEAREST" => Some(MipFilter::Nearest),
            "LINEAR" => Some(MipFilter::Linear),
            _ => None,
        }
    }
}

/// Splits a GL minification filter name (`LINEAR_MIPMAP_NEAREST`, …) into image and mip filter.
pub fn parse_min_filter(w: &str) -> Option<(Filter, MipFilter)> {
    let up = w.to_ascii_uppercase();
    // `split_once("_MIPMAP_")` without core's substring searcher (its only other user here is
    // `Wrap::from_name`; about 1 KB gzipped of the widget's engine). An ASCII byte always
    // starts a character, so `at` and `at + 8` are character boundaries.
    const SEP: &[u8] = b"_MIPMAP_";
    match up.as_bytes().windows(SEP.len()).position(|w| w == SEP) {
        Some(at) => {
            Some((Filter::from_name(&up[..at])?, MipFilter::from_name(&up[at + SEP.len()..])?))
        }
        None => Some((Filter::from_name(&up)?, MipFilter::None)),
    }
}

impl Wrap {
    /// A GL name (any case; `_EXT` suffixes and `MIRROR_REPEAT` accepted). `CLAMP` is legacy
    /// GL_CLAMP, as in GL and Gallium.
    pub fn from_name(w: &str) -> Option<Wrap> {
        let up = w.to_ascii_uppercase();
        // `trim_end_matches("_EXT")`, without core's substring searcher (see parse_min_filter).
        let mut up = up.as_str();
        while let Some(rest) = up.strip_suffix("_EXT") {
            up = rest;
        }
        let up = if up == "MIRROR_REPEAT" { "MIRRORED_REPEAT" } else { up };
        WRAP_NAMES.iter().find(|(_, gl, _)| *gl == up).map(|(m, _, _)| *m)
    }

    /// An option word (`clamp` is clamp to edge here), or else a GL name.
    pub fn from_word(w: &str) -> Option<Wrap> {
        let low = w.to_ascii_lowercase();
        let word = match low.as_str() {
            "wrap" => "repeat",
            "edge" => "clamp",
            other => other,
        };
        WRAP_NAMES.iter().find(|(_, _, wd)| *wd == word).map(|(m, _, _)| *m).or_else(|| {
            if low == "clamp" {
                None
            } else {
                Wrap::from_name(w)
            }
        })
    }

    /// The GL name used by the texture JSON.
    pub fn gl_name(self) -> &'static str {
        WRAP_NAMES.iter().find(|(m, _, _)| *m == self).map_or("REPEAT", |(_, gl, _)| gl)
    }
}

impl CompareFunc {
    pub fn from_name(w: &str) -> Option<CompareFunc> {
        use CompareFunc::*;
        Some(match w.to_ascii_uppercase().as_str() {
            "NEVER" => Never,
            "LESS" => Less,
            "EQUAL" => Equal,
            "LEQUAL" | "LESS_EQUAL" => LessEqual,
            "GREATER" => Greater,
            "NOTEQUAL" | "NOT_EQUAL" => NotEqual,
            "GEQUAL" | "GREATER_EQUAL" => GreaterEqual,
            "ALWAYS" => Always,
            _ => return None,
        })
    }
}

/// Sampler state (`pipe_sampler_state`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerState {
    pub mag_filter: Filter,
    pub min_filter: Filter,
    pub mip_filter: MipFilter,
    /// Wrap of s, t, r.
    pub wrap: [Wrap; 3],
    /// Colour read for texels outside the image under CLAMP_TO_BORDER (floats, as given).
    pub border_color: [f32; 4],
    pub lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    /// `Some` enables depth comparison (`compare_mode = COMPARE_REF_TO_TEXTURE`).
    pub compare: Option<CompareFunc>,
    /// False for RECT textures: coordinates are in texels.
    pub normalized_coords: bool,
}

impl Default for SamplerState {
    /// Linear filtering without mipmaps, repeat on every axis, black transparent border.
    fn default() -> SamplerState {
        SamplerState {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mip_filter: MipFilter::None,
            wrap: [Wrap::Repeat; 3],
            border_color: [0.0; 4],
            lod_bias: 0.0,
            min_lod: -1000.0,
            max_lod: 1000.0,
            compare: None,
            normalized_coords: true,
        }
    }
}

/// One component selector of a view swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    R,
    G,
    B,
    A,
    Zero,
    One,
}

impl Swizzle {
    pub fn from_name(w: &str) -> Option<Swizzle> {
        Some(match w.to_ascii_uppercase().as_str() {
            "R" | "RED" | "X" => Swizzle::R,
            "G" | "GREEN" | "Y" => Swizzle::G,
            "B" | "BLUE" | "Z" => Swizzle::B,
            "A" | "ALPHA" | "W" => Swizzle::A,
            "0" | "ZERO" => Swizzle::Zero,
            "1" | "ONE" => Swizzle::One,
            _ => return None,
        })
    }
    pub const IDENTITY: [Swizzle; 4] = [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A];
}

/// Sampler-view state (`pipe_sampler_view`): which levels are visible and the swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewState {
    /// First visible level (GL base level); LODs and TXF/TXQ levels are relative to it.
    pub first_level: u32,
    /// Last visible level (GL max level, clamped to the stored levels).
    pub last_level: u32,
    pub swizzle: [Swizzle; 4],
}

impl Default for ViewState {
    fn default() -> ViewState {
        ViewState { first_level: 0, last_level: u32::MAX, swizzle: Swizzle::IDENTITY }
    }
}

/// A texture bound to a unit, with its view and sampler state.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureUnit {
    pub texture: Arc<Texture>,
    pub view: ViewState,
    pub sampler: SamplerState,
}

impl TextureUnit {
    pub fn new(texture: Texture, sampler: SamplerState) -> TextureUnit {
        let mut u = TextureUnit { texture: Arc::new(texture), view: ViewState::default(), sampler };
        u.normalize_view();
        u
    }

    /// Clamps the view's levels to what is stored and forces unnormalised coordinates for RECT.
    pub fn normalize_view(&mut self) {
        let last_stored = self.texture.num_levels().saturating_sub(1);
        self.view.first_level = self.view.first_level.min(last_stored);
        self.view.last_level = self.view.last_level.clamp(self.view.first_level, last_stored);
        if self.texture.dim == super::image::Dim::Rect {
            self.sampler.normalized_coords = false;
        }
    }

    /// Applies the view swizzle to a sampled colour. Integer textures get integer 1 for ONE.
    pub fn swizzle(&self, rgba: [f32; 4]) -> [f32; 4] {
        self.swizzle_channels(rgba, 0.0, self.one())
    }

    /// The view swizzle on four channels of anything (one lane's values, or each channel's
    /// lanes), with `zero` and `one` for ZERO and ONE.
    #[inline]
    pub fn swizzle_channels<T: Copy>(&self, rgba: [T; 4], zero: T, one: T) -> [T; 4] {
        self.view.swizzle.map(|s| match s {
            Swizzle::R => rgba[0],
            Swizzle::G => rgba[1],
            Swizzle::B => rgba[2],
            Swizzle::A => rgba[3],
            Swizzle::Zero => zero,
            Swizzle::One => one,
        })
    }

    /// What the swizzle's ONE reads as: 1.0, or the integer 1 of an integer texture.
    #[inline]
    pub fn one(&self) -> f32 {
        if self.texture.format.is_integer() {
            f32::from_bits(1)
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names read as `split_once("_MIPMAP_")` and `trim_end_matches("_EXT")` read them.
    #[test]
    fn filter_and_wrap_names_split_as_the_library_would() {
        let words = [
            "LINEAR_MIPMAP_NEAREST",
            "linear_mipmap_linear",
            "NEAREST",
            "_MIPMAP_",
            "_MIPMAP_LINEAR",
            "LINEAR_MIPMAP_",
            "LINEAR_MIPMAP_NEAREST_MIPMAP_LINEAR",
            "é_MIPMAP_LINEAR",
            "LINEAR_MIPMAPNEAREST",
            "LINEAR__MIPMAP_NEAREST",
            "NONE_MIPMAP_NONE",
            "",
        ];
        for w in words {
            let up = w.to_ascii_uppercase();
            let want = match up.split_once("_MIPMAP_") {
                Some((img, mip)) => Filter::from_name(img).zip(MipFilter::from_name(mip)),
                None => Filter::from_name(&up).map(|f| (f, MipFilter::None)),
            };
            assert_eq!(parse_min_filter(w), want, "{w}");
        }
        for w in ["REPEAT_EXT", "repeat_ext_ext", "_EXT", "CLAMP_TO_EDGE_EXT_", "MIRROR_REPEAT_EXT"]
        {
            let up = w.to_ascii_uppercase();
            let up = up.trim_end_matches("_EXT");
            let up = if up == "MIRROR_REPEAT" { "MIRRORED_REPEAT" } else { up };
            let want = WRAP_NAMES.iter().find(|(_, gl, _)| *gl == up).map(|(m, _, _)| *m);
            assert_eq!(Wrap::from_name(w), want, "{w}");
        }
        assert_eq!(Wrap::from_name("repeat_ext_ext"), Some(Wrap::Repeat));
        assert_eq!(
            parse_min_filter("linear_mipmap_nearest"),
            Some((Filter::Linear, MipFilter::Nearest))
        );
    }

    #[test]
    fn gl_min_filter_names_split() {
        assert_eq!(
            parse_min_filter("LINEAR_MIPMAP_NEAREST"),
            Some((Filter::Linear, MipFilter::Nearest))
        );
        assert_eq!(parse_min_filter("nearest"), Some((Filter::Nearest, MipFilter::None)));
        assert_eq!(parse_min_filter("cubic"), None);
    }

    #[test]
    fn names_parse() {
        assert_eq!(Wrap::from_name("clamp_to_border"), Some(Wrap::ClampToBorder));
        // GL's names: CLAMP is legacy GL_CLAMP; the option word `clamp` is clamp to edge.
        assert_eq!(Wrap::from_name("CLAMP"), Some(Wrap::Clamp));
        assert_eq!(Wrap::from_word("clamp"), Some(Wrap::ClampToEdge));
        assert_eq!(Wrap::from_word("gl-clamp"), Some(Wrap::Clamp));
        assert_eq!(Wrap::from_name("MIRROR_CLAMP_EXT"), Some(Wrap::MirrorClamp));
        assert_eq!(Wrap::from_name("mirror_clamp_to_border_ext"), Some(Wrap::MirrorClampToBorder));
        assert_eq!(Wrap::from_word("MIRROR_CLAMP_TO_EDGE"), Some(Wrap::MirrorClampToEdge));
        assert_eq!(Wrap::from_word("mirror-edge"), Some(Wrap::MirrorClampToEdge));
        for (m, gl, word) in WRAP_NAMES {
            assert_eq!(Wrap::from_name(gl), Some(*m));
            assert_eq!(Wrap::from_word(word), Some(*m));
            assert_eq!(m.gl_name(), *gl);
        }
        assert_eq!(CompareFunc::from_name("GEQUAL"), Some(CompareFunc::GreaterEqual));
        assert_eq!(Swizzle::from_name("ONE"), Some(Swizzle::One));
    }
}
