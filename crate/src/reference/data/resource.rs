//! Buffers, images, atomics, barriers and the framebuffer fetch: they act on memory that a
//! lane table does not have, so each page shows a compute (or fragment) example instead.

use super::{example, Entry};
use crate::opcode::Opcode as O;
use crate::reference::BufferCheck;

const WHY: &str = "it reads or writes a buffer; the example is a compute shader (run it with `tgsi run`, which prints the buffers before and after)";
const ATOMIC: &str = "All four lanes of a quad and all invocations of the dispatch are applied one after another in invocation order, so the returned old values are reproducible. Helper and killed lanes do not touch memory. Out-of-range addresses do nothing and return 0.";
const NO_AGAL: &str = "AGAL has no buffers, images or atomics.";
const MESA_ATOM: &str = "softpipe runs invocations one at a time as well; the order of the returned values is the same.";

pub(super) static ENTRIES: &[Entry] = &[
    example(O::LOAD, "Reads 1 to 4 dwords at a byte address (buffers) or a texel (images); out-of-range reads give 0.", "", NO_AGAL, "STORE RESQ",
        WHY, example_program!("load.cs"), ""),
    example(O::STORE, "Writes the enabled channels as consecutive dwords; out-of-range writes are dropped; helper and killed lanes write nothing.", "", NO_AGAL, "LOAD ATOMXCHG",
        WHY, example_program!("store.cs"), ""),
    example(O::RESQ, "Size of a buffer in bytes, or width, height, layers of an image.", "", NO_AGAL, "TXQ SVIEWINFO",
        WHY, example_program!("resq.cs"), ""),
    example(O::ATOMUADD, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMFADD ATOMXCHG UADD",
        WHY, example_program!("atomuadd.cs"), ""),
    example(O::ATOMXCHG, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMCAS STORE",
        WHY, example_program!("atomxchg.cs"), ""),
    example(O::ATOMCAS, "Writes src3 only where memory equals src2; returns the old value either way.", MESA_ATOM, NO_AGAL, "ATOMXCHG",
        WHY, example_program!("atomcas.cs"), ""),
    example(O::ATOMAND, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMOR ATOMXOR AND",
        WHY, example_program!("atomand.cs"), ""),
    example(O::ATOMOR, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMAND ATOMXOR OR",
        WHY, example_program!("atomor.cs"), ""),
    example(O::ATOMXOR, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMAND ATOMOR XOR",
        WHY, example_program!("atomxor.cs"), ""),
    example(O::ATOMUMIN, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMUMAX ATOMIMIN UMIN",
        WHY, example_program!("atomumin.cs"), ""),
    example(O::ATOMUMAX, ATOMIC, MESA_ATOM, NO_AGAL, "ATOMUMIN ATOMIMAX UMAX",
        WHY, example_program!("atomumax.cs"), ""),
    example(O::ATOMIMIN, "Signed comparison with memory.", MESA_ATOM, NO_AGAL, "ATOMIMAX ATOMUMIN IMIN",
        WHY, example_program!("atomimin.cs"), ""),
    example(O::ATOMIMAX, "Signed comparison with memory.", MESA_ATOM, NO_AGAL, "ATOMIMIN ATOMUMAX IMAX",
        WHY, example_program!("atomimax.cs"), ""),
    example(O::ATOMFADD, "Float add in memory with single rounding per invocation; NaN and ∞ follow IEEE addition.", MESA_ATOM, NO_AGAL, "ATOMUADD ADD",
        WHY, example_program!("atomfadd.cs"), ""),
    example(O::ATOMINC_WRAP, "Increments, wrapping to 0 when the old value is at least src2; returns the old value.", "tgsi.rst writes the returned value as the old value + 1; we return the old value, as the other atomics do.", NO_AGAL, "ATOMDEC_WRAP ATOMUADD",
        WHY, example_program!("atominc_wrap.cs"), ""),
    example(O::ATOMDEC_WRAP, "Decrements while the old value is above 0 and below src2; otherwise writes 0 (so it never wraps up to src2, unlike GL's decrement-wrap). Returns the old value.", "tgsi.rst's rule, `(old > 0 && old < src) ? old − 1 : 0`, is what we run; it is not the wrap-to-limit rule of GL and Vulkan.", NO_AGAL, "ATOMINC_WRAP",
        WHY, example_program!("atomdec_wrap.cs"), ""),
    example(O::MEMBAR, "Orders memory accesses; our invocations run one after another, so it only marks the point.", "", NO_AGAL, "BARRIER",
        WHY, example_program!("membar.cs"), ""),
    example(O::BARRIER, "Every invocation of the block reaches it before any goes on (compute only).", "tgsi_exec returns to softpipe at a barrier so the other invocations can run; we do the same.", NO_AGAL, "MEMBAR",
        WHY, example_program!("barrier.cs"), ""),
    example(O::IMG2HND, "Bindless image handles are not modelled: the instruction validates, but running it stops with X008.", "", NO_AGAL, "SAMP2HND",
        "bindless handles have no effect defined here (X008)", example_program!("img2hnd.cs"), ""),
    example(O::SAMP2HND, "Bindless sampler handles are not modelled: running it stops with X008.", "", NO_AGAL, "IMG2HND",
        "bindless handles have no effect defined here (X008)", example_program!("samp2hnd"), ""),
    example(O::FBFETCH, "Reads the colour already in the framebuffer under the fragment for the given COLOR output.", "", NO_AGAL, "",
        "it reads the framebuffer under the fragment", example_program!("fbfetch"), ""),
];

/// BUFFER[0] (eight words) before and after one block of four invocations of the example,
/// worked out by hand from the formulas, invocations applied in order 0, 1, 2, 3 (asserted by
/// `tests/native/reference`).
pub(in crate::reference) static BUFFERS: &[BufferCheck] = &[
    // word i += 1 for i = thread id.
    BufferCheck {
        op: O::LOAD,
        before: [10, 20, 30, 40, 0, 0, 0, 0],
        after: [11, 21, 31, 41, 0, 0, 0, 0],
    },
    BufferCheck { op: O::STORE, before: [9; 8], after: [0, 1, 2, 3, 9, 9, 9, 9] },
    // 8 words = 32 bytes, stored at word i by invocation i.
    BufferCheck { op: O::RESQ, before: [0; 8], after: [32, 32, 32, 32, 0, 0, 0, 0] },
    // word 0 counts the invocations; each stores the old value at word i + 1.
    BufferCheck { op: O::ATOMUADD, before: [0; 8], after: [4, 0, 1, 2, 3, 0, 0, 0] },
    // the last exchange leaves 3.
    BufferCheck {
        op: O::ATOMXCHG,
        before: [7, 0, 0, 0, 0, 0, 0, 0],
        after: [3, 0, 0, 0, 0, 0, 0, 0],
    },
    // 0 == 0: invocation 0 writes 0, invocation 1 writes 1, then 1 != 0 keeps it.
    BufferCheck { op: O::ATOMCAS, before: [0; 8], after: [1, 0, 0, 0, 0, 0, 0, 0] },
    // ~0 & 0 & 1 & 2 & 3 = 0.
    BufferCheck { op: O::ATOMAND, before: [u32::MAX, 0, 0, 0, 0, 0, 0, 0], after: [0; 8] },
    // 0x10 | 0 | 1 | 2 | 3 = 0x13.
    BufferCheck {
        op: O::ATOMOR,
        before: [0x10, 0, 0, 0, 0, 0, 0, 0],
        after: [0x13, 0, 0, 0, 0, 0, 0, 0],
    },
    // 5 ^ 0 ^ 1 ^ 2 ^ 3 = 5.
    BufferCheck {
        op: O::ATOMXOR,
        before: [5, 0, 0, 0, 0, 0, 0, 0],
        after: [5, 0, 0, 0, 0, 0, 0, 0],
    },
    // min(2, 0, 1, 2, 3) = 0.
    BufferCheck { op: O::ATOMUMIN, before: [2, 0, 0, 0, 0, 0, 0, 0], after: [0; 8] },
    // max(2, 0, 1, 2, 3) = 3.
    BufferCheck {
        op: O::ATOMUMAX,
        before: [2, 0, 0, 0, 0, 0, 0, 0],
        after: [3, 0, 0, 0, 0, 0, 0, 0],
    },
    // signed: −1 is below 0..3, so it stays (unsigned it would be the largest).
    BufferCheck {
        op: O::ATOMIMIN,
        before: [u32::MAX, 0, 0, 0, 0, 0, 0, 0],
        after: [u32::MAX, 0, 0, 0, 0, 0, 0, 0],
    },
    BufferCheck {
        op: O::ATOMIMAX,
        before: [u32::MAX, 0, 0, 0, 0, 0, 0, 0],
        after: [3, 0, 0, 0, 0, 0, 0, 0],
    },
    // limit = thread id: 0 >= 0 → 0; 0 < 1 → 1; 1 < 2 → 2; 2 < 3 → 3.
    BufferCheck { op: O::ATOMINC_WRAP, before: [0; 8], after: [3, 0, 0, 0, 0, 0, 0, 0] },
    // limit 4: 3 → 2 → 1 → 0, then 0 stays 0; the old values 3, 2, 1, 0 go to words 1..4.
    BufferCheck {
        op: O::ATOMDEC_WRAP,
        before: [3, 0, 0, 0, 0, 0, 0, 0],
        after: [0, 3, 2, 1, 0, 0, 0, 0],
    },
    // 0.0 + 0 + 1 + 2 + 3 = 6.0 = 0x40C00000.
    BufferCheck { op: O::ATOMFADD, before: [0; 8], after: [0x40c0_0000, 0, 0, 0, 0, 0, 0, 0] },
    // every invocation stores its id at word 0; the last is 3.
    BufferCheck { op: O::MEMBAR, before: [0; 8], after: [3, 0, 0, 0, 0, 0, 0, 0] },
    BufferCheck { op: O::BARRIER, before: [9; 8], after: [0, 1, 2, 3, 9, 9, 9, 9] },
];
