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
