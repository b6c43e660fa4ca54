//! Buffers, images, atomics, barriers and the framebuffer fetch: they act on memory that a
//! lane table does not have, so each page shows a compute (or fragment) example instead.

use super::{example, Entry};
use crate::opcode::Opcode as O;

macro_rules! cs {
    ($($line:literal)*) => {
        concat!(
            "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n",
            "DCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 { 0, 4, 3, 1 }\n",
            $($line, "\n"),*
        )
    };
}

const WHY: &str = "it reads or writes a buffer; the example is a compute shader (run it with `tgsi run`, which prints the buffers before and after)";
const ATOMIC: &str = "All four lanes of a quad and all invocations of the dispatch are applied one after another in invocation order, so the returned old values are reproducible. Helper and killed lanes do not touch memory. Out-of-range addresses do nothing and return 0.";
const NO_AGAL: &str = "AGAL has no buffers, images or atomics.";
const MESA_ATOM: &str = "softpipe runs invocations one at a time as well; the order of the returned values is the same.";

pub(super) static ENTRIES: &[Entry] = &[
    example(O::LOAD, "Reads 1 to 4 dwords at a byte address (buffers) or a texel (images); out-of-range reads give 0.", "", NO_AGAL, "STORE RESQ",
        WHY, cs!("  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].yyyy" "  1: LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx" "  2: UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].wwww" "  3: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx" "  4: END"), ""),
    example(O::STORE, "Writes the enabled channels as consecutive dwords; out-of-range writes are dropped; helper and killed lanes write nothing.", "", NO_AGAL, "LOAD ATOMXCHG",
        WHY, cs!("  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].yyyy" "  1: STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx" "  2: END"), ""),
    example(O::RESQ, "Size of a buffer in bytes, or width, height, layers of an image.", "", NO_AGAL, "TXQ SVIEWINFO",
        WHY, cs!("  0: RESQ TEMP[0].x, BUFFER[0]" "  1: UMUL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy" "  2: STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx" "  3: END"), ""),
    example(O::ATOMUADD, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMFADD ATOMXCHG UADD",
        WHY, cs!("  0: ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].wwww" "  1: UMUL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy" "  2: UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy" "  3: STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx" "  4: END"), ""),
    example(O::ATOMXCHG, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMCAS STORE",
        WHY, cs!("  0: ATOMXCHG TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMCAS, "Writes src3 only where memory equals src2; returns the old value either way.", MESA_ATOM, NO_AGAL, "ATOMXCHG",
        WHY, cs!("  0: ATOMCAS TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMAND, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMOR ATOMXOR AND",
        WHY, cs!("  0: ATOMAND TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMOR, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMAND ATOMXOR OR",
        WHY, cs!("  0: ATOMOR TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMXOR, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMAND ATOMOR XOR",
        WHY, cs!("  0: ATOMXOR TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMUMIN, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMUMAX ATOMIMIN UMIN",
        WHY, cs!("  0: ATOMUMIN TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMUMAX, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMUMIN ATOMIMAX UMAX",
        WHY, cs!("  0: ATOMUMAX TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMIMIN, "Signed comparison with memory.", MESA_ATOM, NO_AGAL, "ATOMIMAX ATOMUMIN IMIN",
        WHY, cs!("  0: ATOMIMIN TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMIMAX, "Signed comparison with memory.", MESA_ATOM, NO_AGAL, "ATOMIMIN ATOMUMAX IMAX",
        WHY, cs!("  0: ATOMIMAX TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMFADD, "Float add in memory with single rounding per invocation; NaN and ∞ follow IEEE addition.", MESA_ATOM, NO_AGAL, "ATOMUADD ADD",
        WHY, cs!("  0: U2F TEMP[1].x, SV[0].xxxx" "  1: ATOMFADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, TEMP[1].xxxx" "  2: END"), ""),
    example(O::ATOMINC_WRAP, "Increments, wrapping to 0 when the old value is at least src2.", MESA_ATOM, NO_AGAL, "ATOMDEC_WRAP ATOMUADD",
        WHY, cs!("  0: ATOMINC_WRAP TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::ATOMDEC_WRAP, "Decrements, wrapping to src2 when the old value is 0 or above src2.", MESA_ATOM, NO_AGAL, "ATOMINC_WRAP",
        WHY, cs!("  0: ATOMDEC_WRAP TEMP[0].x, BUFFER[0], IMM[0].xxxx, SV[0].xxxx" "  1: END"), ""),
    example(O::MEMBAR, "Orders memory accesses; our invocations run one after another, so it only marks the point.", "", NO_AGAL, "BARRIER",
        WHY, cs!("  0: STORE BUFFER[0].x, IMM[0].xxxx, SV[0].xxxx" "  1: MEMBAR IMM[0].wwww" "  2: LOAD TEMP[0].x, BUFFER[0], IMM[0].xxxx" "  3: END"), ""),
    example(O::BARRIER, "Every invocation of the block reaches it before any goes on (compute only).", "tgsi_exec returns to softpipe at a barrier so the other invocations can run; we do the same.", NO_AGAL, "MEMBAR",
        WHY, cs!("  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].yyyy" "  1: STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx" "  2: BARRIER" "  3: LOAD TEMP[1].x, BUFFER[0], IMM[0].xxxx" "  4: END"), ""),
    example(O::IMG2HND, "Bindless image handles are not modelled: the instruction validates, but running it stops with X008.", "", NO_AGAL, "SAMP2HND",
        "bindless handles have no effect defined here (X008)", "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT\nDCL TEMP[0]\n  0: IMG2HND TEMP[0].xy, IMAGE[0]\n  1: END\n", ""),
    example(O::SAMP2HND, "Bindless sampler handles are not modelled: running it stops with X008.", "", NO_AGAL, "IMG2HND",
        "bindless handles have no effect defined here (X008)", "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n  0: SAMP2HND TEMP[0].xy, SAMP[0], 2D\n  1: MOV OUT[0], TEMP[0]\n  2: END\n", ""),
    example(O::FBFETCH, "Reads the colour already in the framebuffer under the fragment for the given COLOR output.", "", NO_AGAL, "",
        "it reads the framebuffer under the fragment", "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 { 0.5, 0.0, 0.0, 0.0 }\n  0: FBFETCH TEMP[0], OUT[0]\n  1: ADD OUT[0], TEMP[0], IMM[0].xyyx\n  2: END\n", ""),
];
