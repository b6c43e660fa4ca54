//! Texture sampling, fetches and queries: they need a bound texture, which a lane table does
//! not have, so each page draws its example with the widget's built-in `checker` texture.

use super::{example, Entry};
use crate::opcode::Opcode as O;

macro_rules! tex_fs {
    ($($line:literal)*) => {
        concat!(
            "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n",
            $($line, "\n"),*
        )
    };
}

const WHY: &str = "it samples a texture; the example draws it with a checker texture";
const CHECKER: &str = "0=checker";
const MIP: &str = "0=mip-levels,mipmap";
const SAMPLER: &str = "Filtering, wrapping and LOD selection follow softpipe's sampler (docs/textures.md): NaN coordinates wrap like 0, LOD is computed from the quad's coordinate differences.";
const NO_AGAL: &str =
    "The export refuses it: AGAL's `tex` has no explicit LOD, derivatives, fetches or queries.";

pub(super) static ENTRIES: &[Entry] = &[
    example(O::TEX, SAMPLER, "", "`tex`: the export writes it for 2D and cube targets.", "TXP TXB TXL SAMPLE",
        WHY, tex_fs!("  0: TEX OUT[0], IN[0], SAMP[0], 2D" "  1: END"), CHECKER),
    example(O::TXP, "Divides the coordinates by w before sampling; w = 0 gives infinite coordinates, which wrap as the sampler decides.", "", "The export divides by w, then writes `tex`.", "TEX",
        WHY, tex_fs!("DCL TEMP[0..1]" "IMM[0] FLT32 { 0.0, 0.0, 0.0, 0.5 }" "  0: MOV TEMP[0], IN[0]" "  1: MOV TEMP[0].w, IMM[0].wwww" "  2: TXP OUT[0], TEMP[0], SAMP[0], 2D" "  3: END"), CHECKER),
    example(O::TXB, "Adds src0.w to the computed LOD before clamping.", "", "Only with an immediate bias (a constant of AGAL's sampler).", "TEX TXL TXB2 SAMPLE_B",
        "it samples a texture; the example biases the LOD on a mipmapped texture",
        tex_fs!("DCL TEMP[0..1]" "IMM[0] FLT32 { 0.0, 0.0, 0.0, 2.0 }" "  0: MOV TEMP[0], IN[0]" "  1: MOV TEMP[0].w, IMM[0].wwww" "  2: TXB OUT[0], TEMP[0], SAMP[0], 2D" "  3: END"), MIP),
    example(O::TXL, "Uses src0.w as the LOD (clamped to the view's levels); no derivatives are needed, so it works in any stage.", "", NO_AGAL, "TEX TXB TXL2 SAMPLE_L TEX_LZ",
        "it samples a texture; the example reads level 1 of a mipmapped texture",
        tex_fs!("DCL TEMP[0..1]" "IMM[0] FLT32 { 0.0, 0.0, 0.0, 1.0 }" "  0: MOV TEMP[0], IN[0]" "  1: MOV TEMP[0].w, IMM[0].wwww" "  2: TXL OUT[0], TEMP[0], SAMP[0], 2D" "  3: END"), MIP),
    example(O::TEX_LZ, "Samples level 0 whatever the derivatives.", "", NO_AGAL, "TXL TEX",
        WHY, tex_fs!("  0: TEX_LZ OUT[0], IN[0], SAMP[0], 2D" "  1: END"), CHECKER),
    example(O::TXD, "Derivatives come from src1 (d/dx) and src2 (d/dy) instead of the quad.", "", NO_AGAL, "TEX SAMPLE_D DDX DDY",
        WHY, tex_fs!("IMM[0] FLT32 { 0.01, 0.0, 0.0, 0.0 }" "  0: TXD OUT[0], IN[0], IMM[0].xyzw, IMM[0].yxzw, SAMP[0], 2D" "  1: END"), CHECKER),
    example(O::TEX2, "Like TEX with the extra coordinate (array layer or shadow reference) in src1.x.", "", NO_AGAL, "TEX TXB2 TXL2",
        WHY, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], CUBEARRAY, FLOAT\nIMM[0] FLT32 { 0.0, 0.0, 0.0, 0.0 }\n  0: TEX2 OUT[0], IN[0], IMM[0], SAMP[0], CUBEARRAY\n  1: END\n", ""),
    example(O::TXB2, "Bias in src1.x.", "", NO_AGAL, "TXB TEX2",
        WHY, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], CUBEARRAY, FLOAT\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }\n  0: TXB2 OUT[0], IN[0], IMM[0], SAMP[0], CUBEARRAY\n  1: END\n", ""),
    example(O::TXL2, "LOD in src1.x.", "", NO_AGAL, "TXL TEX2",
        WHY, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], CUBEARRAY, FLOAT\nIMM[0] FLT32 { 0.0, 0.0, 0.0, 0.0 }\n  0: TXL2 OUT[0], IN[0], IMM[0], SAMP[0], CUBEARRAY\n  1: END\n", ""),
    example(O::TXF, "Integer texel coordinates and LOD in src0.w; coordinates outside the level are clamped to its edges and every lane reads lane 0's level, as softpipe's sp_get_texels.", "", NO_AGAL, "TXF_LZ SAMPLE_I",
        WHY, tex_fs!("DCL TEMP[0..1]" "IMM[0] FLT32 { 8.0, 8.0, 0.0, 0.0 }" "  0: MUL TEMP[0], IN[0], IMM[0]" "  1: F2I TEMP[1], TEMP[0]" "  2: TXF OUT[0], TEMP[1], SAMP[0], 2D" "  3: END"), CHECKER),
    example(O::TXF_LZ, "As TXF at level 0.", "", NO_AGAL, "TXF",
        WHY, tex_fs!("DCL TEMP[0..1]" "IMM[0] FLT32 { 8.0, 8.0, 0.0, 0.0 }" "  0: MUL TEMP[0], IN[0], IMM[0]" "  1: F2I TEMP[1], TEMP[0]" "  2: TXF_LZ OUT[0], TEMP[1], SAMP[0], 2D" "  3: END"), CHECKER),
    example(O::TXQ, "Width, height, depth of level src0.x, and the number of levels in w; one answer for the whole quad (lane 0's level), as tgsi_exec.", "tgsi_exec reads the level of lane 0 only, as we do.", NO_AGAL, "SVIEWINFO TXQS RESQ",
        "it queries a texture; the example shows the size as a colour", "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] INT32 { 0, 0, 0, 0 }\nIMM[1] FLT32 { 0.01, 0.01, 0.0, 1.0 }\n  0: TXQ TEMP[0], IMM[0], SAMP[0], 2D\n  1: I2F TEMP[0], TEMP[0]\n  2: MUL OUT[0], TEMP[0], IMM[1]\n  3: END\n", CHECKER),
    example(O::TXQS, "Number of samples of the view (1 for single-sampled textures).", "", NO_AGAL, "TXQ SAMPLE_INFO",
        "it queries a texture", "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n  0: TXQS TEMP[0], SAMP[0], 2D\n  1: U2F OUT[0], TEMP[0]\n  2: END\n", CHECKER),
    example(O::LODQ, "x = the LOD the sampler would use (clamped), y = the computed LOD before clamping.", "", NO_AGAL, "LOD TEX",
        WHY, tex_fs!("  0: LODQ OUT[0], IN[0], SAMP[0], 2D" "  1: END"), MIP),
    example(O::TG4, "Gathers one component (src1.x) of the four texels bilinear filtering would use.", "", NO_AGAL, "GATHER4",
        WHY, tex_fs!("IMM[0] FLT32 { 0.0, 0.0, 0.0, 0.0 }" "  0: TG4 OUT[0], IN[0], IMM[0], SAMP[0], 2D" "  1: END"), CHECKER),
    example(O::SAMPLE, SAMPLER, "", "The export writes `tex`.", "TEX SAMPLE_L SAMPLE_B",
        WHY, tex_fs!("  0: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]" "  1: END"), CHECKER),
    example(O::SAMPLE_B, "Bias in src3.x.", "", NO_AGAL, "SAMPLE TXB",
        WHY, tex_fs!("IMM[0] FLT32 { 2.0, 0.0, 0.0, 0.0 }" "  0: SAMPLE_B OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx" "  1: END"), MIP),
    example(O::SAMPLE_L, "LOD in src3.x.", "", NO_AGAL, "SAMPLE TXL",
        WHY, tex_fs!("IMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }" "  0: SAMPLE_L OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx" "  1: END"), MIP),
    example(O::SAMPLE_D, "Explicit derivatives in src3 and src4.", "", NO_AGAL, "SAMPLE TXD",
        WHY, tex_fs!("IMM[0] FLT32 { 0.01, 0.0, 0.0, 0.0 }" "  0: SAMPLE_D OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyzw, IMM[0].yxzw" "  1: END"), CHECKER),
    example(O::SAMPLE_C, "Compares src3.x with the texel (depth textures); the result is 0 or 1, filtered.", "", NO_AGAL, "SAMPLE_C_LZ TEX",
        "it samples a depth texture; the example is shown, not drawn", "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT\nIMM[0] FLT32 { 0.5, 0.0, 0.0, 0.0 }\n  0: SAMPLE_C OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx\n  1: END\n", ""),
    example(O::SAMPLE_C_LZ, "As SAMPLE_C at level 0.", "", NO_AGAL, "SAMPLE_C",
        "it samples a depth texture; the example is shown, not drawn", "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT\nIMM[0] FLT32 { 0.5, 0.0, 0.0, 0.0 }\n  0: SAMPLE_C_LZ OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx\n  1: END\n", ""),
    example(O::SAMPLE_I, "Integer texel fetch through a view, LOD in src0.w; coordinates outside the level are clamped to its edges and every lane reads lane 0's level, as softpipe's sp_get_texels.", "tgsi.rst says an address or level out of range reads 0; softpipe clamps, and so do we.", NO_AGAL, "TXF SAMPLE_I_MS",
        WHY, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..1]\nIMM[0] FLT32 { 8.0, 8.0, 0.0, 0.0 }\n  0: MUL TEMP[0], IN[0], IMM[0]\n  1: F2I TEMP[1], TEMP[0]\n  2: SAMPLE_I OUT[0], TEMP[1], SVIEW[0]\n  3: END\n", CHECKER),
    example(O::SAMPLE_I_MS, "Fetches sample src2.x of a multisampled texel.", "", NO_AGAL, "SAMPLE_I",
        "it reads a multisampled texture; the example is shown, not drawn", "FRAG\nDCL OUT[0], COLOR\nDCL SVIEW[0], 2D_MSAA, FLOAT\nIMM[0] INT32 { 0, 0, 0, 0 }\n  0: SAMPLE_I_MS OUT[0], IMM[0], SVIEW[0], IMM[0].xxxx\n  1: END\n", ""),
    example(O::GATHER4, "Gathers the red component of the four bilinear texels.", "", NO_AGAL, "TG4",
        WHY, tex_fs!("  0: GATHER4 OUT[0], IN[0], SVIEW[0], SAMP[0]" "  1: END"), CHECKER),
    example(O::SVIEWINFO, "Size of level src0.x of the view and its number of levels.", "", NO_AGAL, "TXQ RESQ",
        "it queries a texture", "FRAG\nDCL OUT[0], COLOR\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] INT32 { 0, 0, 0, 0 }\nIMM[1] FLT32 { 0.01, 0.01, 0.0, 1.0 }\n  0: SVIEWINFO TEMP[0], IMM[0], SVIEW[0]\n  1: I2F TEMP[0], TEMP[0]\n  2: MUL OUT[0], TEMP[0], IMM[1]\n  3: END\n", CHECKER),
    example(O::SAMPLE_POS, "Position of sample src1.x inside the pixel; single-sampled targets have one sample at the centre.", "", NO_AGAL, "SAMPLE_INFO INTERP_SAMPLE",
        "it describes the render target's samples", "FRAG\nDCL OUT[0], COLOR\nIMM[0] INT32 { 0, 0, 0, 0 }\n  0: SAMPLE_POS OUT[0], IMM[0], IMM[0]\n  1: END\n", ""),
    example(O::SAMPLE_INFO, "Number of samples of the render target in x.", "", NO_AGAL, "SAMPLE_POS TXQS",
        "it describes the render target's samples", "FRAG\nDCL OUT[0], COLOR\nIMM[0] INT32 { 0, 0, 0, 0 }\n  0: SAMPLE_INFO OUT[0], IMM[0], IMM[0]\n  1: END\n", ""),
    example(O::LOD, "As LODQ, written with a view and a sampler.", "", NO_AGAL, "LODQ",
        WHY, tex_fs!("  0: LOD OUT[0], IN[0], SVIEW[0], SAMP[0]" "  1: END"), MIP),
];
