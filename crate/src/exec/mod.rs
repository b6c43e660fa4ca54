//! The SIMD quad interpreter: registers of four 128-bit channel vectors (one lane per pixel of
//! a 2x2 quad), execution masks and stacks as tgsi_exec (`mesa-tgsi-notes.md` §5).
