//! Inter-lane operations over the 2×2 quad (the subgroup is the quad: 4 lanes, lane i = bit i)
//! and interpolation at other positions. In a lane table all four lanes are active.

use super::{example, lanes, Entry};
use crate::opcode::Opcode as O;

const NO_AGAL: &str = "AGAL has no subgroup or lane operations.";
const QUAD: &str = "tgsi_exec does not implement the subgroup operations; we run them over the quad (4 lanes) so results are reproducible. The lane table's four rows are the quad's four lanes.";

pub(super) static ENTRIES: &[Entry] = &[
    lanes(O::VOTE_ANY, "True (~0) in every lane when src.x is not 0.0 in any active lane; inactive lanes do not vote. NaN counts as non-zero.", QUAD, NO_AGAL, "VOTE_ALL VOTE_EQ BALLOT",
        ["0 => 0xffffffff", "0 => 0xffffffff", "0 => 0xffffffff", "1 => 0xffffffff"]),
    lanes(O::VOTE_ALL, "True only when every active lane's src.x is non-zero; NaN counts as non-zero, so lane 2 votes yes and only lane 3 says no.", QUAD, NO_AGAL, "VOTE_ANY VOTE_EQ",
        ["1 => 0", "2 => 0", "nan => 0", "0 => 0"]),
    lanes(O::VOTE_EQ, "True when every active lane holds the same value.", QUAD, NO_AGAL, "VOTE_ANY VOTE_ALL READ_FIRST",
        ["3 => 0xffffffff", "3 => 0xffffffff", "3 => 0xffffffff", "3 => 0xffffffff"]),
    lanes(O::BALLOT, "Bit i of the 64-bit mask is lane i's vote; here lanes 0, 2, 3 vote yes: 0b1101 = 13 in x, 0 in y.", QUAD, NO_AGAL, "VOTE_ANY READ_FIRST",
        ["1 => (0xd 0 _ _)", "0 => (0xd 0 _ _)", "1 => (0xd 0 _ _)", "1 => (0xd 0 _ _)"]),
    lanes(O::READ_FIRST, "Every lane gets the value of the first active lane (lane 0 here).", QUAD, NO_AGAL, "READ_INVOC BALLOT",
        ["5 => 5", "6 => 5", "7 => 5", "8 => 5"]),
    lanes(O::READ_INVOC, "The lane index is src1.x read as bits (from the first active lane; it must be uniform), taken modulo 4: every lane reads lane 2.", QUAD, NO_AGAL, "READ_FIRST",
        ["5, u:2 => 7", "6, u:2 => 7", "7, u:2 => 7", "8, u:2 => 7"]),
    lanes(O::READ_HELPER, "~0 in helper lanes (not covered, or demoted), 0 elsewhere; a lane table covers all four lanes, so all read 0 (see DEMOTE for a demoted lane).",
        "tgsi_exec does not implement READ_HELPER (it asserts); we read the helper mask.", NO_AGAL, "DEMOTE",
        [" => 0", " => 0", " => 0", " => 0"]),
    example(O::CLOCK, "Counts the instructions dispatched in the run so far (monotonic and reproducible), in x (low word) and y (high word).",
        "Real hardware reads a cycle counter; tgsi_exec has no CLOCK. Ours is deterministic so tests and traces repeat.", NO_AGAL, "",
        "its value depends on how many instructions ran before it, not on a formula of inputs",
        example_program!("clock"), ""),
    example(O::INTERP_CENTROID, "Interpolates the input at the centroid of the covered samples; with one sample per pixel that is the pixel centre.",
        "tgsi_exec fakes sample positions (only sample 0); we interpolate at the pixel centre with one sample.", "AGAL interpolates only at the pixel centre.", "INTERP_SAMPLE INTERP_OFFSET",
        "it needs an interpolated input from the rasterizer; the lane table sets inputs directly",
        example_program!("interp_centroid"), ""),
    example(O::INTERP_SAMPLE, "Interpolates at the position of sample src1.x; with one sample per pixel every sample is the centre.",
        "tgsi_exec fakes sample positions (only sample 0).", "AGAL interpolates only at the pixel centre.", "INTERP_CENTROID INTERP_OFFSET SAMPLE_POS",
        "it needs an interpolated input from the rasterizer",
        example_program!("interp_sample"), ""),
    example(O::INTERP_OFFSET, "Interpolates at the pixel centre plus (src1.x, src1.y) pixels; the example samples a quarter pixel right and down.",
        "", "AGAL interpolates only at the pixel centre.", "INTERP_CENTROID INTERP_SAMPLE DDX",
        "it needs an interpolated input from the rasterizer",
        example_program!("interp_offset"), ""),
];
