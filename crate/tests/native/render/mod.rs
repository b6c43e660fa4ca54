mod bands;
mod cli;
mod options;
mod pipeline;
mod shaders;
mod trace;
mod vertices;

/// A vertex shader for the built-in meshes: x and y sheared by z so that several faces overlap,
/// z halved, w = z + 2 (perspective), the mesh's IN[2] as GENERIC[0].
pub(crate) const OBLIQUE_VS: &str = "VERT\nDCL IN[0]\nDCL IN[2]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL TEMP[0]\n\
    IMM[0] FLT32 {0.5, 0.3, 2.0, 1.8}\n\
    MAD TEMP[0].x, IN[0].zzzz, IMM[0].xxxx, IN[0].xxxx\nMAD TEMP[0].y, IN[0].zzzz, IMM[0].yyyy, IN[0].yyyy\n\
    MUL OUT[0].xy, TEMP[0].xyyy, IMM[0].wwww\nMUL OUT[0].z, IN[0].zzzz, IMM[0].xxxx\n\
    ADD OUT[0].w, IN[0].zzzz, IMM[0].zzzz\nMOV OUT[1], IN[2]\nEND\n";
