//! What one sampling operation did, for the teaching views: the LOD each lane used, the level(s)
//! it read, and every texel with its weight. TEX's implicit derivatives give one λ per quad;
//! TXD's explicit ones give a λ per lane — the trace shows both side by side.

use serde::Serialize;

/// One texel read by a filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tap {
    /// Texel indices (x, y, slice) in the level; may lie outside for border texels.
    pub x: i32,
    pub y: i32,
    pub z: i32,
    /// Weight of this texel in the level's result (bilinear product; 1 for nearest).
    pub weight: f32,
    /// True when the index lay outside the image and the border colour was read.
    pub border: bool,
    pub value: [f32; 4],
}

/// The taps read in one level.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LevelTaps {
    /// Absolute level index in the texture.
    pub level: u32,
    /// Weight of this level in the lane's result (1 − frac, frac for linear mip filtering).
    pub weight: f32,
    /// Cube face, when sampling a cube.
    pub face: Option<u32>,
    pub taps: Vec<Tap>,
}

/// How the LOD of a lane was obtained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum LodSource {
    /// From the quad's coordinate differences (TEX, TXB, TXP, SAMPLE, SAMPLE_B …).
    #[default]
    Implicit,
    /// From explicit derivatives of this lane (TXD, SAMPLE_D).
    Gradients,
    /// Given by the shader (TXL, SAMPLE_L) or zero (TEX_LZ, SAMPLE_C_LZ, gathers).
    Explicit,
    /// Integer fetch (TXF, SAMPLE_I).
    Fetch,
}

/// Trace of one lane.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LaneTrace {
    /// Coordinates the filter used (after cube face projection), in [s, t, r].
    pub coords: [f32; 3],
    /// λ before the sampler's min/max clamp (bias included).
    pub lambda: f32,
    /// LOD after clamping: the value that chose the level(s).
    pub lod: f32,
    /// True when the magnification filter was used (lod ≤ 0).
    pub magnified: bool,
    pub levels: Vec<LevelTaps>,
    pub result: [f32; 4],
}

/// Trace of one sampling instruction over a quad.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampleTrace {
    pub lod_source: LodSource,
    /// The derivatives that fed the LOD: d/dx and d/dy of s, t, r per lane.
    pub derivatives: [[[f32; 4]; 2]; 3],
    pub lanes: [LaneTrace; 4],
    /// Set when the instruction's coordinate form did not match the texture (zeros returned).
    pub mismatch: Option<String>,
}

impl SampleTrace {
    /// One line per pixel in words, for the teaching views, e.g.
    /// `pixel 0: λ 1.25 from the quad's differences → LOD 1.25: level 1 ×0.75 (texels (2,3) ×0.5,
    /// …), level 2 ×0.25 (…) → (0.5, 0.25, 0, 1)`.
    pub fn describe(&self) -> Vec<String> {
        if let Some(m) = &self.mismatch {
            return vec![m.clone()];
        }
        (0..4).map(|i| format!("pixel {i}: {}", self.describe_lane(i))).collect()
    }

    /// What the sampler did for lane `i`, in words (without the `pixel i:` prefix).
    pub fn describe_lane(&self, i: usize) -> String {
        if let Some(m) = &self.mismatch {
            return m.clone();
        }
        let source = match self.lod_source {
            LodSource::Implicit => "from the quad's differences (one λ for all four pixels)",
            LodSource::Gradients => "from this pixel's explicit derivatives",
            LodSource::Explicit => "given by the instruction",
            LodSource::Fetch => "texel fetch",
        };
        self.lanes
            .get(i)
            .map(|lane| {
                let levels: Vec<String> = lane
                    .levels
                    .iter()
                    .map(|l| {
                        let taps: Vec<String> = l
                            .taps
                            .iter()
                            .map(|t| {
                                format!(
                                    "({},{}){} ×{}",
                                    t.x,
                                    t.y,
                                    if t.border { " border" } else { "" },
                                    t.weight
                                )
                            })
                            .collect();
                        let face = l
                            .face
                            .map(|f| {
                                format!(
                                    " face {}",
                                    super::cube::FACE_NAMES.get(f as usize).unwrap_or(&"?")
                                )
                            })
                            .unwrap_or_default();
                        format!(
                            "level {}{face} ×{} (texels {})",
                            l.level,
                            l.weight,
                            taps.join(", ")
                        )
                    })
                    .collect();
                let mag = if lane.magnified { ", magnified" } else { "" };
                let r = lane.result;
                format!(
                    "λ {} {source} → LOD {}{mag}: {} → ({}, {}, {}, {})",
                    lane.lambda,
                    lane.lod,
                    levels.join("; "),
                    r[0],
                    r[1],
                    r[2],
                    r[3]
                )
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_names_levels_texels_and_weights() {
        let mut t = SampleTrace { lod_source: LodSource::Gradients, ..SampleTrace::default() };
        t.lanes[0] = LaneTrace {
            lambda: 1.5,
            lod: 1.5,
            levels: vec![
                LevelTaps {
                    level: 1,
                    weight: 0.5,
                    face: None,
                    taps: vec![Tap { x: 2, y: 3, weight: 1.0, ..Tap::default() }],
                },
                LevelTaps {
                    level: 2,
                    weight: 0.5,
                    face: Some(4),
                    taps: vec![Tap { x: -1, y: 0, weight: 1.0, border: true, ..Tap::default() }],
                },
            ],
            result: [0.5, 0.0, 0.0, 1.0],
            ..LaneTrace::default()
        };
        let d = t.describe();
        assert_eq!(d.len(), 4);
        assert_eq!(
            d[0],
            "pixel 0: λ 1.5 from this pixel's explicit derivatives → LOD 1.5: level 1 ×0.5 (texels (2,3) ×1); \
             level 2 face +Z ×0.5 (texels (-1,0) border ×1) → (0.5, 0, 0, 1)"
        );
        t.mismatch = Some("2D coordinates on a 3D texture: zeros returned".into());
        assert_eq!(t.describe().len(), 1);
    }
}
