//! Texture sampling, fetches and queries: they need a bound texture, which a lane table does
//! not have, so each page draws its example with the widget's built-in `checker` texture.

use super::{example, Entry};
use crate::opcode::Opcode as O;

const WHY: &str = "it samples a texture; the example draws it with a checker texture";
const CHECKER: &str = "0=checker";
const MIP: &str = "0=mip-levels,mipmap";
const SAMPLER: &str = "Filtering, wrapping and LOD selection follow softpipe's sampler (docs/textures.md): NaN coordinates wrap like 0, LOD is computed from the quad's coordinate differences.";
const NO_AGAL: &str =
    "The export refuses it: AGAL's `tex` has no explicit LOD, derivatives, fetches or queries.";

pub(super) static ENTRIES: &[Entry] = &[
    example(O::TEX, SAMPLER, "", "`tex`: the export writes it for 2D and cube targets.", "TXP TXB TXL SAMPLE",
        WHY, example_program!("tex"), CHECKER),
    example(O::TXP, "Divides the coordinates by w before sampling; w = 0 gives infinite coordinates, which wrap as the sampler decides.", "", "The export divides by w, then writes `tex`.", "TEX",
        WHY, example_program!("txp"), CHECKER),
    example(O::TXB, "Adds src0.w to the computed LOD before clamping.", "", "Only with an immediate bias (a constant of AGAL's sampler).", "TEX TXL TXB2 SAMPLE_B",
        "it samples a texture; the example biases the LOD on a mipmapped texture",
        example_program!("txb"), MIP),
    example(O::TXL, "Uses src0.w as the LOD (clamped to the view's levels); no derivatives are needed, so it works in any stage.", "", NO_AGAL, "TEX TXB TXL2 SAMPLE_L TEX_LZ",
        "it samples a texture; the example reads level 1 of a mipmapped texture",
        example_program!("txl"), MIP),
    example(O::TEX_LZ, "Samples level 0 whatever the derivatives.", "", NO_AGAL, "TXL TEX",
        WHY, example_program!("tex_lz"), CHECKER),
    example(O::TXD, "Derivatives come from src1 (d/dx) and src2 (d/dy) instead of the quad.", "", NO_AGAL, "TEX SAMPLE_D DDX DDY",
        WHY, example_program!("txd"), CHECKER),
    example(O::TEX2, "Like TEX with the extra coordinate (array layer or shadow reference) in src1.x.", "", NO_AGAL, "TEX TXB2 TXL2",
        WHY, example_program!("tex2"), ""),
    example(O::TXB2, "Bias in src1.x.", "", NO_AGAL, "TXB TEX2",
        WHY, example_program!("txb2"), ""),
    example(O::TXL2, "LOD in src1.x.", "", NO_AGAL, "TXL TEX2",
        WHY, example_program!("txl2"), ""),
    example(O::TXF, "Integer texel coordinates and LOD in src0.w; coordinates outside the level are clamped to its edges and every lane reads lane 0's level, as softpipe's sp_get_texels.", "", NO_AGAL, "TXF_LZ SAMPLE_I",
        WHY, example_program!("txf"), CHECKER),
    example(O::TXF_LZ, "As TXF at level 0.", "", NO_AGAL, "TXF",
        WHY, example_program!("txf_lz"), CHECKER),
    example(O::TXQ, "Width, height, depth of level src0.x, and the number of levels in w; one answer for the whole quad (lane 0's level), as tgsi_exec.", "tgsi_exec reads the level of lane 0 only, as we do.", NO_AGAL, "SVIEWINFO TXQS RESQ",
        "it queries a texture; the example shows the size as a colour", example_program!("txq"), CHECKER),
    example(O::TXQS, "Number of samples of the view (1 for single-sampled textures).", "", NO_AGAL, "TXQ SAMPLE_INFO",
        "it queries a texture", example_program!("txqs"), CHECKER),
    example(O::LODQ, "x = the LOD the sampler would use (clamped), y = the computed LOD before clamping.", "", NO_AGAL, "LOD TEX",
        WHY, example_program!("lodq"), MIP),
    example(O::TG4, "Gathers one component (src1.x) of the four texels bilinear filtering would use.", "", NO_AGAL, "GATHER4",
        WHY, example_program!("tg4"), CHECKER),
    example(O::SAMPLE, SAMPLER, "", "The export writes `tex`.", "TEX SAMPLE_L SAMPLE_B",
        WHY, example_program!("sample"), CHECKER),
    example(O::SAMPLE_B, "Bias in src3.x.", "", NO_AGAL, "SAMPLE TXB",
        WHY, example_program!("sample_b"), MIP),
    example(O::SAMPLE_L, "LOD in src3.x.", "", NO_AGAL, "SAMPLE TXL",
        WHY, example_program!("sample_l"), MIP),
    example(O::SAMPLE_D, "Explicit derivatives in src3 and src4.", "", NO_AGAL, "SAMPLE TXD",
        WHY, example_program!("sample_d"), CHECKER),
    example(O::SAMPLE_C, "Compares src3.x with the texel (depth textures); the result is 0 or 1, filtered.", "", NO_AGAL, "SAMPLE_C_LZ TEX",
        "it samples a depth texture; the example is shown, not drawn", example_program!("sample_c"), ""),
    example(O::SAMPLE_C_LZ, "As SAMPLE_C at level 0.", "", NO_AGAL, "SAMPLE_C",
        "it samples a depth texture; the example is shown, not drawn", example_program!("sample_c_lz"), ""),
    example(O::SAMPLE_I, "Integer texel fetch through a view, LOD in src0.w; coordinates outside the level are clamped to its edges and every lane reads lane 0's level, as softpipe's sp_get_texels.", "tgsi.rst says an address or level out of range reads 0; softpipe clamps, and so do we.", NO_AGAL, "TXF SAMPLE_I_MS",
        WHY, example_program!("sample_i"), CHECKER),
    example(O::SAMPLE_I_MS, "Fetches sample src2.x of a multisampled texel.", "", NO_AGAL, "SAMPLE_I",
        "it reads a multisampled texture; the example is shown, not drawn", example_program!("sample_i_ms"), ""),
    example(O::GATHER4, "Gathers the red component of the four bilinear texels.", "", NO_AGAL, "TG4",
        WHY, example_program!("gather4"), CHECKER),
    example(O::SVIEWINFO, "Size of level src0.x of the view and its number of levels.", "", NO_AGAL, "TXQ RESQ",
        "it queries a texture", example_program!("sviewinfo"), CHECKER),
    example(O::SAMPLE_POS, "Position of sample src1.x inside the pixel; single-sampled targets have one sample at the centre.", "", NO_AGAL, "SAMPLE_INFO INTERP_SAMPLE",
        "it describes the render target's samples", example_program!("sample_pos"), ""),
    example(O::SAMPLE_INFO, "Number of samples of the render target in x.", "", NO_AGAL, "SAMPLE_POS TXQS",
        "it describes the render target's samples", example_program!("sample_info"), ""),
    example(O::LOD, "As LODQ, written with a view and a sampler.", "", NO_AGAL, "LODQ",
        WHY, example_program!("lod"), MIP),
];
