//! Texture lane tables (`reference::texlanes`): the lanes of one quad sample the page's
//! built-in textures (`web/textures.js`). Every expected value is derived by hand below from
//! the texel values and the filter formula (docs/textures.md; softpipe's `sp_tex_sample.c`):
//!
//! * `checker` is 8×8 RGBA8: texel (x, y) is light (240, 240, 240, 255) when x + y is odd, dark
//!   (40, 40, 48, 255) when even; bilinear, repeat. UNORM8 reads byte / 255.
//! * `mip-levels` with `mipmap` is 32×32 down to 1×1 (levels 0–5), each level one flat colour:
//!   L0 (230, 60, 60), L1 (60, 200, 80), L2 (60, 110, 240), L3 (240, 210, 50),
//!   L4 (200, 70, 220), L5 (60, 210, 220), alpha 255; LINEAR_MIPMAP_LINEAR. A flat level reads
//!   its colour whatever the coordinates, so only the LOD decides.
//!
//! Bilinear filtering at (s, t) on a w × h level: u = w·s − ½, v = h·t − ½; the texels
//! ⌊u⌋, ⌊u⌋ + 1 (wrapped) × ⌊v⌋, ⌊v⌋ + 1 weigh (1 − fu)(1 − fv), fu(1 − fv), (1 − fu)fv, fu·fv.
//! λ = log2 ρ with ρ the largest texel distance between neighbouring lanes (TEX, TXB: the
//! quad's differences) or of the lane's own derivatives (TXD); λ ≤ 0 magnifies (level 0).
//! The quad's differences are softpipe's: x along the bottom row (lane 3 − lane 2), y along the
//! left column (lane 0 − lane 2); lane 1 (top right) takes no part. log2 is Mesa's
//! `util_fast_log2`, exact on powers of two; log2 3 = 1 + log2 1.5 = 1.5849625 (its table
//! entry for the mantissa 1.5, docs/textures.md "How a sample is computed": LOD).
//! * `cube-faces` is a cube of 16×16 faces, each one flat colour: +X (230, 60, 60),
//!   −X (60, 200, 80), +Y (60, 110, 240), −Y (240, 210, 50), +Z (200, 70, 220),
//!   −Z (60, 210, 220); the face is the direction's largest component (by magnitude and sign).
//! * The sampler word `shadow` turns on depth comparison with LEQUAL: the result is 1 where the
//!   reference (clamped to [0, 1] for UNORM formats) is ≤ the filtered red channel, else 0, as
//!   (k, k, k, 1); softpipe filters first and compares the filtered value (docs/textures.md
//!   "How a sample is computed": Shadow).
//! * Gathers (TG4, GATHER4) read the 2×2 footprint of bilinear filtering at level 0: with
//!   i0 = ⌊u⌋, j0 = ⌊v⌋ (wrapped) and i1 = i0 + 1, j1 = j0 + 1, the result is
//!   (i0, j1), (i1, j1), (i1, j0), (i0, j0) in x, y, z, w (tgsi.rst "TG4", "GATHER4").

use crate::opcode::Opcode as O;
use crate::reference::texlanes::TexLanes;

macro_rules! tex_lanes_fs {
    ($inputs:expr, $($line:literal)*) => {
        tex_lanes_fs!(view "2D", $inputs, $($line)*)
    };
    (view $target:literal, $inputs:expr, $($line:literal)*) => {
        concat!("FRAG\n", $inputs, "DCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], ", $target, ", FLOAT\n", $($line, "\n"),*)
    };
    // A view without a sampler (fetches and view queries).
    (view_only, $inputs:expr, $($line:literal)*) => {
        concat!("FRAG\n", $inputs, "DCL OUT[0], COLOR\nDCL SVIEW[0], 2D, FLOAT\n", $($line, "\n"),*)
    };
}

/// IN[0] … IN[n − 1], constant inputs.
macro_rules! ins {
    (1) => {
        "DCL IN[0], GENERIC[0], CONSTANT\n"
    };
    (2) => {
        concat!(ins!(1), "DCL IN[1], GENERIC[1], CONSTANT\n")
    };
    (3) => {
        concat!(ins!(2), "DCL IN[2], GENERIC[2], CONSTANT\n")
    };
}

/// The LOD / level column of a sampling opcode: the sampler's own trace, shown per lane.
const SAMPLED: &str = "";

pub(in crate::reference) static TEX_LANES: &[TexLanes] = &[
    // A quad ½ texel apart (ds/dx = dt/dy = 1/16 on 8 texels: ρ = ½, λ = −1, magnified).
    // s = 1.0625 wraps to 0.0625. Lane 0: u = 8.5 − ½ = 8 → texel 8 ≡ 0, v = 0: exactly the
    // dark texel (0, 0). Lanes 1 and 2: half-way between the dark (0, 0) and a light
    // neighbour: ½ · 40 + ½ · 240 = 140, ½ · 48 + ½ · 240 = 144. Lane 3: the corner of four
    // texels (two dark, two light), ¼ each: the same 140, 144.
    TexLanes {
        op: O::TEX,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TEX OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=checker",
        rows: [
            "(1.0625 0.0625 0 0) => (40/255 40/255 48/255 1)",
            "(1.125 0.0625 0 0) => (140/255 140/255 144/255 1)",
            "(1.0625 0.125 0 0) => (140/255 140/255 144/255 1)",
            "(1.125 0.125 0 0) => (140/255 140/255 144/255 1)",
        ],
        level: SAMPLED,
        shows: "the bilinear filter at a texel's centre, between two texels and at the corner of four (one λ for the quad, from its coordinate differences)",
    },
    // The quad is one texel apart on level 0 (1/32 on 32 texels): ρ = 1, λ = 0; src0.w adds a
    // bias per lane. LOD 0: magnified, L0. LOD 1: level 1 alone. LOD 1.5: L1 and L2 half each,
    // (60, (200 + 110)/2, (80 + 240)/2) = (60, 155, 160). LOD 10: past the last level, L5.
    TexLanes {
        op: O::TXB,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TXB OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0) => (230/255 60/255 60/255 1)",
            "(0.28125 0.25 0 1) => (60/255 200/255 80/255 1)",
            "(0.25 0.28125 0 1.5) => (60/255 155/255 160/255 1)",
            "(0.28125 0.28125 0 10) => (60/255 210/255 220/255 1)",
        ],
        level: SAMPLED,
        shows: "the bias in w added to the quad's λ (0) per lane, on a texture whose levels have distinct colours",
    },
    // The LOD is src0.w. 0: L0. 2: L2. 3.25: ¾ L3 + ¼ L4 = (180 + 50, 157.5 + 17.5,
    // 37.5 + 55) = (230, 175, 92.5). −2: magnified, L0.
    TexLanes {
        op: O::TXL,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TXL OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0) => (230/255 60/255 60/255 1)",
            "(0.28125 0.25 0 2) => (60/255 110/255 240/255 1)",
            "(0.25 0.28125 0 3.25) => (230/255 175/255 92.5/255 1)",
            "(0.28125 0.28125 0 -2) => (230/255 60/255 60/255 1)",
        ],
        level: SAMPLED,
        shows: "the explicit LOD in w: one level, two levels mixed by the LOD's fraction, and magnification below 0",
    },
    // Each lane's own derivatives (src1 = d/dx, src2 = d/dy) on 32 texels: ρ = 32 · the longer
    // one = 1, 2, 4, 8 → λ = 0, 1, 2, 3 → L0 (magnified), L1, L2, L3.
    TexLanes {
        op: O::TXD,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\nDCL IN[1], GENERIC[1], CONSTANT\nDCL IN[2], GENERIC[2], CONSTANT\n", "  0: TXD OUT[0], IN[0], IN[1], IN[2], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0), (0.03125 0 0 0), (0 0.03125 0 0) => (230/255 60/255 60/255 1)",
            "(0.25 0.25 0 0), (0.0625 0 0 0), (0 0.0625 0 0) => (60/255 200/255 80/255 1)",
            "(0.25 0.25 0 0), (0.125 0 0 0), (0 0.125 0 0) => (60/255 110/255 240/255 1)",
            "(0.25 0.25 0 0), (0.25 0 0 0), (0 0.125 0 0) => (240/255 210/255 50/255 1)",
        ],
        level: SAMPLED,
        shows: "a λ per lane from the lane's explicit derivatives (not the quad's differences)",
    },
    // Integer texel coordinates, no filtering. (0, 0): 0 even, dark. (3, 0): odd, light.
    // (7, 7): 14 even, dark. (9, 2): clamped to the edge, (7, 2): 9 odd, light.
    TexLanes {
        op: O::TXF,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TXF OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=checker",
        rows: [
            "(0 0 0 0) => (40/255 40/255 48/255 1)",
            "(3 0 0 0) => (240/255 240/255 240/255 1)",
            "(7 7 0 0) => (40/255 40/255 48/255 1)",
            "(9 2 0 0) => (240/255 240/255 240/255 1)",
        ],
        level: "lane 0's level (src0.w) for the whole quad; one texel, no filtering",
        shows: "one texel by integer coordinates, clamped to the level's edges (softpipe's sp_get_texels)",
    },
    // Level src0.x of lane 0 (1) answers for every lane, as tgsi_exec: 32 >> 1 = 16 wide and
    // high, depth 0 for 2D, 6 levels (32, 16, 8, 4, 2, 1).
    TexLanes {
        op: O::TXQ,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TXQ OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: ["(1 0 0 0) => (16 16 0 6)", "(0 0 0 0) => (16 16 0 6)", "(2 0 0 0) => (16 16 0 6)", "(9 0 0 0) => (16 16 0 6)"],
        level: "no texels: the size of lane 0's level (src0.x) for the whole quad",
        shows: "the size of lane 0's level for the whole quad (width, height, depth, number of levels)",
    },
    // The quad is 4 texels apart (1/8 on 32 texels: ρ = 4, λ = 2, TEX would read L2), but
    // TEX_LZ reads level 0 whatever the derivatives: L0 in every lane.
    TexLanes {
        op: O::TEX_LZ,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TEX_LZ OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0) => (230/255 60/255 60/255 1)",
            "(0.375 0.25 0 0) => (230/255 60/255 60/255 1)",
            "(0.25 0.375 0 0) => (230/255 60/255 60/255 1)",
            "(0.375 0.375 0 0) => (230/255 60/255 60/255 1)",
        ],
        level: SAMPLED,
        shows: "level 0 whatever the quad's differences (here 4 texels apart: TEX would read level 2)",
    },
    // As TXF with w ignored. (1, 0): odd, light. (2, 2) with w = 5: level 0 anyway, even, dark.
    // (0, 7): odd, light. (−1, 0): clamped to (0, 0), dark.
    TexLanes {
        op: O::TXF_LZ,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TXF_LZ OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=checker",
        rows: [
            "(1 0 0 0) => (240/255 240/255 240/255 1)",
            "(2 2 0 5) => (40/255 40/255 48/255 1)",
            "(0 7 0 0) => (240/255 240/255 240/255 1)",
            "(i:-1 0 0 0) => (40/255 40/255 48/255 1)",
        ],
        level: "level 0; one texel, no filtering",
        shows: "one texel of level 0 by integer coordinates (w is not read), clamped to the edges",
    },
    // The LOD is src3.x (IN[1]). 1: L1. 0.5: ½ L0 + ½ L1 = ((230 + 60)/2, (60 + 200)/2,
    // (60 + 80)/2) = (145, 130, 70). 4: L4. 7: past the last level, L5.
    TexLanes {
        op: O::SAMPLE_L,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\nDCL IN[1], GENERIC[1], CONSTANT\n", "  0: SAMPLE_L OUT[0], IN[0], SVIEW[0], SAMP[0], IN[1].xxxx" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0), 1 => (60/255 200/255 80/255 1)",
            "(0.28125 0.25 0 0), 0.5 => (145/255 130/255 70/255 1)",
            "(0.25 0.28125 0 0), 4 => (200/255 70/255 220/255 1)",
            "(0.28125 0.28125 0 0), 7 => (60/255 210/255 220/255 1)",
        ],
        level: SAMPLED,
        shows: "the explicit LOD in src3.x through a view and a sampler: one level, two levels mixed, and the last level past the end",
    },
    // TXP divides s, t, r by w before sampling (tgsi.rst "TXP"): 2.125/2 = 1.0625,
    // 0.125/2 = 0.0625; 1.125/1; 4.25/4 = 1.0625, 0.5/4 = 0.125; 0.5625/0.5 = 1.125,
    // 0.0625/0.5 = 0.125. So the lanes sample TEX's quad: (1.0625, 0.0625) is the dark texel
    // (0, 0) alone (u = 8·1.0625 − ½ = 8 ≡ 0, v = 0); the others lie half-way between a dark
    // and a light texel or on the corner of four: 140, 140, 144. The divided coordinates are
    // ½ texel apart: λ = −1, magnified.
    TexLanes {
        op: O::TXP,
        program: tex_lanes_fs!(ins!(1), "  0: TXP OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=checker",
        rows: [
            "(2.125 0.125 0 2) => (40/255 40/255 48/255 1)",
            "(1.125 0.0625 0 1) => (140/255 140/255 144/255 1)",
            "(4.25 0.5 0 4) => (140/255 140/255 144/255 1)",
            "(0.5625 0.0625 0 0.5) => (140/255 140/255 144/255 1)",
        ],
        level: SAMPLED,
        shows: "the coordinates divided by w per lane before sampling: four different w, the same texels as TEX's table",
    },
    // TEX2 on a cube reads the direction from src0.xyz; src1.x (the reference of a shadow cube
    // array) is not read for a CUBE target. The face is the largest component: (1, 0, 0) +X
    // (230, 60, 60); (0, −1, 0) −Y (240, 210, 50); (0.2, 0.3, 1) +Z (200, 70, 220);
    // (−1, 0.5, −0.25) −X (60, 200, 80). Each face is flat: its colour wherever it is read.
    TexLanes {
        op: O::TEX2,
        program: tex_lanes_fs!(view "CUBE", ins!(2), "  0: TEX2 OUT[0], IN[0], IN[1], SAMP[0], CUBE" "  1: END"),
        textures: "0=cube-faces",
        rows: [
            "(1 0 0 0), (0.75 0 0 0) => (230/255 60/255 60/255 1)",
            "(0 -1 0 0), (0.1 0 0 0) => (240/255 210/255 50/255 1)",
            "(0.2 0.3 1 0), (0.5 0 0 0) => (200/255 70/255 220/255 1)",
            "(-1 0.5 -0.25 0), (0.9 0 0 0) => (60/255 200/255 80/255 1)",
        ],
        level: SAMPLED,
        shows: "a cube face chosen per lane by the direction's largest component; src1.x, the reference of a shadow cube array, is not read for a cube",
    },
    // The quad is one texel apart (1/32 on 32 texels): λ = 0; the bias is src1.x, and src0.w
    // is not read. Bias 0: L0. 2: L2. 0.5: ½ L0 + ½ L1 = (145, 130, 70). 3 with w = 7: λ = 3,
    // L3 (240, 210, 50).
    TexLanes {
        op: O::TXB2,
        program: tex_lanes_fs!(ins!(2), "  0: TXB2 OUT[0], IN[0], IN[1], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0), 0 => (230/255 60/255 60/255 1)",
            "(0.28125 0.25 0 0), 2 => (60/255 110/255 240/255 1)",
            "(0.25 0.28125 0 0), 0.5 => (145/255 130/255 70/255 1)",
            "(0.28125 0.28125 0 7), 3 => (240/255 210/255 50/255 1)",
        ],
        level: SAMPLED,
        shows: "the bias in src1.x (not src0.w, which lane 3 sets to 7 to no effect) added to the quad's λ (0)",
    },
    // The LOD is src1.x. 1: L1. 2.5: ½ L2 + ½ L3 = ((60 + 240)/2, (110 + 210)/2,
    // (240 + 50)/2) = (150, 160, 145). −1: magnified, L0. 5 with w = 4: L5.
    TexLanes {
        op: O::TXL2,
        program: tex_lanes_fs!(ins!(2), "  0: TXL2 OUT[0], IN[0], IN[1], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0), 1 => (60/255 200/255 80/255 1)",
            "(0.28125 0.25 0 0), 2.5 => (150/255 160/255 145/255 1)",
            "(0.25 0.28125 0 0), -1 => (230/255 60/255 60/255 1)",
            "(0.28125 0.28125 0 4), 5 => (60/255 210/255 220/255 1)",
        ],
        level: SAMPLED,
        shows: "the explicit LOD in src1.x (src0.w is not read): one level, two levels mixed, magnification below 0",
    },
    // tgsi.rst "TXQS": a texture that is not multisampled has 1 sample, in x as an unsigned
    // integer; y, z, w are undefined. The instruction has no per-lane operand: every lane
    // answers the same.
    TexLanes {
        op: O::TXQS,
        program: tex_lanes_fs!("", "  0: TXQS OUT[0], SAMP[0], 2D" "  1: END"),
        textures: "0=checker",
        rows: [" => (1 _ _ _)", " => (1 _ _ _)", " => (1 _ _ _)", " => (1 _ _ _)"],
        level: "no texels: the number of samples per texel of the view",
        shows: "the number of samples of a single-sampled texture (every built-in texture has one)",
    },
    // One λ for the quad: s differs by 3/32 along the bottom row (lane 3 − lane 2), 3 texels
    // of 32: ρ = 3, λ = log2 3 = 1.5849625 (y). x is the level used: λ clamped to the levels
    // [0, 5], not rounded for linear mip filtering: 1.5849625 too. Lane 1's s (0.9) and t
    // (0.5) are far off, but softpipe's differences never read lane 1.
    TexLanes {
        op: O::LODQ,
        program: tex_lanes_fs!(ins!(1), "  0: LODQ OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0) => (1.5849625 1.5849625 _ _)",
            "(0.9 0.5 0 0) => (1.5849625 1.5849625 _ _)",
            "(0.25 0.25 0 0) => (1.5849625 1.5849625 _ _)",
            "(0.34375 0.25 0 0) => (1.5849625 1.5849625 _ _)",
        ],
        level: "no texels: the result is the LOD (x the level used, y λ), one λ for the quad",
        shows: "the λ of the quad's differences (3 texels: log2 3) and the level it would use; lane 1 takes no part in softpipe's differences",
    },
    // The component is src1.x of lane 0 as an integer: 2, blue (dark 48, light 240). With
    // the footprint rule of the header: (0.125, 0.125): u = v = ½, i0 = j0 = 0: (0, 1) light,
    // (1, 1) dark, (1, 0) light, (0, 0) dark. (0.25, 0.125): i0 = 1: (1, 1) dark, (2, 1)
    // light, (2, 0) dark, (1, 0) light. (0, 0.125): u = −½, i0 = −1 wraps to 7, i1 = 0:
    // (7, 1) dark, (0, 1) light, (0, 0) dark, (7, 0) light. (0.9375, 0.9375): u = v = 7,
    // i1 = j1 = 8 wrap to 0: (7, 0) light, (0, 0) dark, (0, 7) light, (7, 7) dark.
    TexLanes {
        op: O::TG4,
        program: tex_lanes_fs!(ins!(2), "  0: TG4 OUT[0], IN[0], IN[1], SAMP[0], 2D" "  1: END"),
        textures: "0=checker",
        rows: [
            "(0.125 0.125 0 0), (i:2 0 0 0) => (240/255 48/255 240/255 48/255)",
            "(0.25 0.125 0 0), (i:2 0 0 0) => (48/255 240/255 48/255 240/255)",
            "(0 0.125 0 0), (i:2 0 0 0) => (48/255 240/255 48/255 240/255)",
            "(0.9375 0.9375 0 0), (i:2 0 0 0) => (240/255 48/255 240/255 48/255)",
        ],
        level: SAMPLED,
        shows: "the blue component (src1.x = 2) of the four texels bilinear filtering would read, in x, y, z, w, wrapped at the edges",
    },
    // As TEX through a view and a sampler. The quad is ¼ texel apart (1/32 on 8 texels):
    // λ = −2, magnified. (0.0625, 0.0625): u = v = 0, the dark texel alone. (0.09375, 0.0625):
    // u = ¼: ¾ dark + ¼ light = (30 + 60, 30 + 60, 36 + 60) = (90, 90, 96); (0.0625, 0.09375)
    // the same along t. (0.09375, 0.09375): (0, 0) 9/16 and (1, 1) 1/16 dark, (1, 0) and (0, 1)
    // 3/16 each light: 10/16 · 40 + 6/16 · 240 = 115, 10/16 · 48 + 90 = 120.
    TexLanes {
        op: O::SAMPLE,
        program: tex_lanes_fs!(ins!(1), "  0: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]" "  1: END"),
        textures: "0=checker",
        rows: [
            "(0.0625 0.0625 0 0) => (40/255 40/255 48/255 1)",
            "(0.09375 0.0625 0 0) => (90/255 90/255 96/255 1)",
            "(0.0625 0.09375 0 0) => (90/255 90/255 96/255 1)",
            "(0.09375 0.09375 0 0) => (115/255 115/255 120/255 1)",
        ],
        level: SAMPLED,
        shows: "bilinear weights ¾ / ¼ and 9/16, 3/16, 3/16, 1/16 a quarter texel from a texel's centre",
    },
    // The quad is two texels apart (1/16 on 32): ρ = 2, λ = 1; the bias is src3.x.
    // 0: L1. −1: λ 0, L0. 0.75: λ 1.75, ¼ L1 + ¾ L2 = (60, 50 + 82.5, 20 + 180) =
    // (60, 132.5, 200). 3: λ 4, L4.
    TexLanes {
        op: O::SAMPLE_B,
        program: tex_lanes_fs!(ins!(2), "  0: SAMPLE_B OUT[0], IN[0], SVIEW[0], SAMP[0], IN[1].xxxx" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0), 0 => (60/255 200/255 80/255 1)",
            "(0.3125 0.25 0 0), -1 => (230/255 60/255 60/255 1)",
            "(0.25 0.3125 0 0), 0.75 => (60/255 132.5/255 200/255 1)",
            "(0.3125 0.3125 0 0), 3 => (200/255 70/255 220/255 1)",
        ],
        level: SAMPLED,
        shows: "the bias in src3.x added to the quad's λ (1): down to level 0, between two levels, and up to level 4",
    },
    // Each lane's own derivatives (src3 = d/dx, src4 = d/dy) on 32 texels; ρ = 32 · the
    // largest component. (1/32, 1/32): ρ 1, λ 0, L0. d/dx = (0, 1/8), d/dy = (1/32, 0): t's
    // 1/8 wins, ρ 4, λ 2, L2. d/dy = (0, 3/32): ρ 3, λ = 1.5849625: L1 × 0.4150375 +
    // L2 × 0.5849625 = (60, 200 − 90 · 0.5849625, 80 + 160 · 0.5849625) =
    // (60, 147.353375, 173.594). d/dx = (1, 0): ρ 32, λ 5, L5.
    TexLanes {
        op: O::SAMPLE_D,
        program: tex_lanes_fs!(ins!(3), "  0: SAMPLE_D OUT[0], IN[0], SVIEW[0], SAMP[0], IN[1], IN[2]" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0), (0.03125 0 0 0), (0 0.03125 0 0) => (230/255 60/255 60/255 1)",
            "(0.25 0.25 0 0), (0 0.125 0 0), (0.03125 0 0 0) => (60/255 110/255 240/255 1)",
            "(0.25 0.25 0 0), (0.03125 0 0 0), (0 0.09375 0 0) => (60/255 147.353375/255 173.594/255 1)",
            "(0.25 0.25 0 0), (1 0 0 0), (0 0 0 0) => (60/255 210/255 220/255 1)",
        ],
        level: SAMPLED,
        shows: "a λ per lane from its explicit derivatives in src3 and src4: the largest component wins, and a non-integer λ mixes two levels",
    },
    // The checker's red is 40/255 ≈ 0.157 (dark) or 240/255 ≈ 0.941 (light); LEQUAL passes
    // where reference ≤ filtered red. (0.0625, 0.0625): the dark texel alone, 0.5 > 0.157: 0.
    // (0.1875, 0.0625): u = 1, the light texel (1, 0) alone: 1. (0.125, 0.0625): u = ½,
    // half dark, half light: red 140/255 ≈ 0.549 ≥ 0.5: 1 (filtered first, then compared: not
    // ½). The same texels with reference 0.6 > 0.549: 0.
    TexLanes {
        op: O::SAMPLE_C,
        program: tex_lanes_fs!(ins!(2), "  0: SAMPLE_C OUT[0], IN[0], SVIEW[0], SAMP[0], IN[1].xxxx" "  1: END"),
        textures: "0=checker,shadow",
        rows: [
            "(0.0625 0.0625 0 0), 0.5 => (0 0 0 1)",
            "(0.1875 0.0625 0 0), 0.5 => (1 1 1 1)",
            "(0.125 0.0625 0 0), 0.5 => (1 1 1 1)",
            "(0.125 0.0625 0 0), 0.6 => (0 0 0 1)",
        ],
        level: SAMPLED,
        shows: "the reference in src3.x compared (LEQUAL) with the filtered red channel: 0 or 1, never a fraction",
    },
    // The quad is 4 texels apart (1/8 on 32: λ 2, where SAMPLE_C would read level 2, red 60),
    // but the LOD is 0: level 0, red 230/255 ≈ 0.902. 0.5 ≤ 0.902: 1. 0.95: 0. −1 is clamped to
    // 0 (UNORM texels): 1. 1.5 is clamped to 1 > 0.902: 0.
    TexLanes {
        op: O::SAMPLE_C_LZ,
        program: tex_lanes_fs!(ins!(2), "  0: SAMPLE_C_LZ OUT[0], IN[0], SVIEW[0], SAMP[0], IN[1].xxxx" "  1: END"),
        textures: "0=mip-levels,mipmap,shadow",
        rows: [
            "(0.25 0.25 0 0), 0.5 => (1 1 1 1)",
            "(0.375 0.25 0 0), 0.95 => (0 0 0 1)",
            "(0.25 0.375 0 0), -1 => (1 1 1 1)",
            "(0.375 0.375 0 0), 1.5 => (0 0 0 1)",
        ],
        level: SAMPLED,
        shows: "the comparison at level 0 whatever the quad's differences, with the reference clamped to [0, 1]",
    },
    // Integer coordinates through a view, no filtering. (1, 1): even, dark. (4, 1): odd, light.
    // (6, 4): even, dark. (9, 0): softpipe's sp_get_texels clamps to the edge, (7, 0): odd,
    // light (tgsi.rst "SAMPLE_I" says 0 out of range; the engine follows softpipe).
    TexLanes {
        op: O::SAMPLE_I,
        program: tex_lanes_fs!(view_only, ins!(1), "  0: SAMPLE_I OUT[0], IN[0], SVIEW[0]" "  1: END"),
        textures: "0=checker",
        rows: [
            "(1 1 0 0) => (40/255 40/255 48/255 1)",
            "(4 1 0 0) => (240/255 240/255 240/255 1)",
            "(6 4 0 0) => (40/255 40/255 48/255 1)",
            "(9 0 0 0) => (240/255 240/255 240/255 1)",
        ],
        level: "lane 0's level (src0.w) for the whole quad; one texel, no filtering",
        shows: "one texel by integer coordinates through a view, clamped to the edges as softpipe's sp_get_texels",
    },
    // GATHER4 gathers red (the view operand has no swizzle): dark 40, light 240. With the
    // footprint rule of the header: (0.125, 0.125): i0 = j0 = 0: light, dark, light, dark.
    // (0.1875, 0.0625): u = 1, v = 0: i0 = 1, j0 = 0: (1, 1) dark, (2, 1) light, (2, 0) dark,
    // (1, 0) light. (0.5, 0.5): u = v = 3.5: i0 = j0 = 3: (3, 4) light, (4, 4) dark, (4, 3)
    // light, (3, 3) dark. (1, 0): u = 7.5, i0 = 7, i1 = 8 wraps to 0; v = −½, j0 = −1 wraps
    // to 7, j1 = 0: (7, 0) light, (0, 0) dark, (0, 7) light, (7, 7) dark.
    TexLanes {
        op: O::GATHER4,
        program: tex_lanes_fs!(ins!(1), "  0: GATHER4 OUT[0], IN[0], SVIEW[0], SAMP[0]" "  1: END"),
        textures: "0=checker",
        rows: [
            "(0.125 0.125 0 0) => (240/255 40/255 240/255 40/255)",
            "(0.1875 0.0625 0 0) => (40/255 240/255 40/255 240/255)",
            "(0.5 0.5 0 0) => (240/255 40/255 240/255 40/255)",
            "(1 0 0 0) => (240/255 40/255 240/255 40/255)",
        ],
        level: SAMPLED,
        shows: "the red component of the four texels bilinear filtering would read, in x, y, z, w, wrapped at the edges",
    },
    // Lane 0's level (6) answers for the quad (as TXQ); the view has levels 0–5, so 6 is out
    // of range: width, height and depth 0, and still the number of levels, 6 (tgsi.rst
    // "SVIEWINFO"). The other lanes' levels are not read.
    TexLanes {
        op: O::SVIEWINFO,
        program: tex_lanes_fs!(view_only, ins!(1), "  0: SVIEWINFO OUT[0], IN[0], SVIEW[0]" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: ["(6 0 0 0) => (0 0 0 6)", "(0 0 0 0) => (0 0 0 6)", "(1 0 0 0) => (0 0 0 6)", "(2 0 0 0) => (0 0 0 6)"],
        level: "no texels: the size of lane 0's level (src0.x) for the whole quad",
        shows: "a level out of range (lane 0 asks for 6 of 0–5): zero sizes, and still the number of levels",
    },
    // tgsi.rst "SAMPLE_POS": a resource that is not multisampled has its sample at the pixel's
    // centre, (0.5, 0.5); z and w are undefined. Sample 0 in every lane.
    TexLanes {
        op: O::SAMPLE_POS,
        program: tex_lanes_fs!(view_only, ins!(1), "  0: SAMPLE_POS OUT[0], SVIEW[0], IN[0]" "  1: END"),
        textures: "0=checker",
        rows: ["i:0 => (0.5 0.5 _ _)", "i:0 => (0.5 0.5 _ _)", "i:0 => (0.5 0.5 _ _)", "i:0 => (0.5 0.5 _ _)"],
        level: "no texels: where the view's sample src1.x lies in the pixel",
        shows: "the one sample of a single-sampled view, at the pixel's centre",
    },
    // tgsi.rst "SAMPLE_INFO": int4 (n, 0, 0, 0), n = 1 for a resource that is not
    // multisampled; the bits of the integers, not floats (the result column's hex reading).
    TexLanes {
        op: O::SAMPLE_INFO,
        program: tex_lanes_fs!(view_only, "", "  0: SAMPLE_INFO OUT[0], SVIEW[0], SVIEW[0]" "  1: END"),
        textures: "0=checker",
        rows: [
            " => (u:1 u:0 u:0 u:0)",
            " => (u:1 u:0 u:0 u:0)",
            " => (u:1 u:0 u:0 u:0)",
            " => (u:1 u:0 u:0 u:0)",
        ],
        level: "no texels: the number of samples of the view",
        shows: "the number of samples of a single-sampled view, as the integer 1 (not the float 1.0)",
    },
    // One λ for the quad: s differs by 2 along the bottom row, 64 texels of 32: ρ = 64,
    // λ = 6 (y). x: clamped to the view's last level, 5 (tgsi.rst "LOD"); z = w = 0.
    TexLanes {
        op: O::LOD,
        program: tex_lanes_fs!(ins!(1), "  0: LOD OUT[0], IN[0], SVIEW[0], SAMP[0]" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: [
            "(0.25 0.25 0 0) => (5 6 0 0)",
            "(0.5 0.25 0 0) => (5 6 0 0)",
            "(0.25 0.25 0 0) => (5 6 0 0)",
            "(2.25 0.25 0 0) => (5 6 0 0)",
        ],
        level: "no texels: the result is the LOD (x the level used, y λ), one λ for the quad",
        shows: "a λ (6) past the last level (5): y is λ, x the level the sampler would use",
    },
];

/// Texture opcodes without a lane table, and why (shown in the opcode's section).
pub(in crate::reference) static NO_TEX_LANES: &[(O, &str)] = &[(
    O::SAMPLE_I_MS,
    "No lane table: every built-in texture of the page is single-sampled (the engine stores one sample per texel, docs/textures.md), so there is no multisampled view to fetch a sample from; on a single-sampled view the table would only repeat SAMPLE_I's fetch under another name",
)];
