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

use crate::opcode::Opcode as O;
use crate::reference::texlanes::TexLanes;

macro_rules! tex_lanes_fs {
    ($inputs:literal, $($line:literal)*) => {
        concat!("FRAG\n", $inputs, "DCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n", $($line, "\n"),*)
    };
}

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
        shows: "one texel by integer coordinates, clamped to the level's edges (softpipe's sp_get_texels)",
    },
    // Level src0.x of lane 0 (1) answers for every lane, as tgsi_exec: 32 >> 1 = 16 wide and
    // high, depth 0 for 2D, 6 levels (32, 16, 8, 4, 2, 1).
    TexLanes {
        op: O::TXQ,
        program: tex_lanes_fs!("DCL IN[0], GENERIC[0], CONSTANT\n", "  0: TXQ OUT[0], IN[0], SAMP[0], 2D" "  1: END"),
        textures: "0=mip-levels,mipmap",
        rows: ["(1 0 0 0) => (16 16 0 6)", "(0 0 0 0) => (16 16 0 6)", "(2 0 0 0) => (16 16 0 6)", "(9 0 0 0) => (16 16 0 6)"],
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
        shows: "the explicit LOD in src3.x through a view and a sampler: one level, two levels mixed, and the last level past the end",
    },
];
