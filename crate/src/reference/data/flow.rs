//! Control flow. Structured flow runs in a lane table through a small program: each lane
//! takes its own path under the execution mask, which is what the rows show.

use super::{example, lanes_in, Entry};
use crate::opcode::Opcode as O;

macro_rules! fs {
    ($($line:literal)*) => {
        concat!("FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n", $($line, "\n"),*)
    };
}
pub(super) use fs;

const IF_PROGRAM: &str = fs!(
    "IMM[0] FLT32 { 1.0, 2.0, 0.0, 0.0 }"
    "  0: IF IN[0].xxxx"
    "  1:   MOV OUT[0], IMM[0].xxxx"
    "  2: ELSE"
    "  3:   MOV OUT[0], IMM[0].yyyy"
    "  4: ENDIF"
    "  5: END"
);
const IF_ROWS: [&str; 4] = ["1 => 1", "0 => 2", "-0 => 2", "nan => 1"];
const IF_EDGE: &str = "Lanes where the float src.x is not 0.0 take the first branch: −0.0 equals 0.0 and is false, NaN is not equal to 0.0 and is true. Both branches run under the execution mask; writes happen only in the lanes that took them.";

const UIF_PROGRAM: &str = fs!(
    "IMM[0] FLT32 { 1.0, 2.0, 0.0, 0.0 }"
    "  0: UIF IN[0].xxxx"
    "  1:   MOV OUT[0], IMM[0].xxxx"
    "  2: ELSE"
    "  3:   MOV OUT[0], IMM[0].yyyy"
    "  4: ENDIF"
    "  5: END"
);

const LOOP_PROGRAM: &str = fs!(
    "DCL TEMP[0..1]"
    "IMM[0] FLT32 { 0.0, 1.0, 0.0, 0.0 }"
    "  0: MOV TEMP[0], IMM[0].xxxx"
    "  1: BGNLOOP"
    "  2:   SGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx"
    "  3:   IF TEMP[1].xxxx"
    "  4:     BRK"
    "  5:   ENDIF"
    "  6:   ADD TEMP[0], TEMP[0], IMM[0].yyyy"
    "  7: ENDLOOP"
    "  8: MOV OUT[0], TEMP[0]"
    "  9: END"
);
const LOOP_ROWS: [&str; 4] = ["3 => 3", "0 => 0", "-1 => 0", "2.5 => 3"];
const LOOP_EDGE: &str = "The loop counts up to src.x: each lane leaves at its own BRK and the loop runs until no lane is left (a NaN bound would never break: the instruction budget stops such runs with X005).";

const CONT_PROGRAM: &str = fs!(
    "DCL TEMP[0..2]"
    "IMM[0] FLT32 { 0.0, 1.0, 2.0, 0.0 }"
    "  0: MOV TEMP[0], IMM[0].xxxx"
    "  1: MOV TEMP[2], IMM[0].xxxx"
    "  2: BGNLOOP"
    "  3:   SGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx"
    "  4:   IF TEMP[1].xxxx"
    "  5:     BRK"
    "  6:   ENDIF"
    "  7:   ADD TEMP[0], TEMP[0], IMM[0].yyyy"
    "  8:   SLT TEMP[1].x, IMM[0].zzzz, TEMP[0].xxxx"
    "  9:   IF TEMP[1].xxxx"
    " 10:     CONT"
    " 11:   ENDIF"
    " 12:   ADD TEMP[2], TEMP[2], IMM[0].yyyy"
    " 13: ENDLOOP"
    " 14: MOV OUT[0], TEMP[2]"
    " 15: END"
);

const SWITCH_PROGRAM: &str = fs!(
    "IMM[0] UINT32 { 1, 2, 0, 0 }"
    "IMM[1] FLT32 { 10.0, 20.0, 99.0, 0.0 }"
    "  0: SWITCH IN[0].xxxx"
    "  1:   CASE IMM[0].xxxx"
    "  2:     MOV OUT[0], IMM[1].xxxx"
    "  3:     BRK"
    "  4:   CASE IMM[0].yyyy"
    "  5:     MOV OUT[0], IMM[1].yyyy"
    "  6:     BRK"
    "  7:   DEFAULT"
    "  8:     MOV OUT[0], IMM[1].zzzz"
    "  9:     BRK"
    " 10: ENDSWITCH"
    " 11: END"
);
const SWITCH_ROWS: [&str; 4] = ["u:1 => 10", "u:2 => 20", "u:7 => 99", "u:0 => 99"];
const SWITCH_EDGE: &str = "The selector is compared as bits (an unsigned integer): 1.0 as a float is 0x3F800000, not 1. Each lane runs the case it selects; BRK leaves the switch for that lane only.";
const SWITCH_MESA: &str = "tgsi_exec handles DEFAULT only as the last case and its BRK clears the whole switch mask; DEFAULT may appear anywhere here and BRK clears only the breaking lanes (tgsi.rst allows both).";

const SUB_PROGRAM: &str = fs!(
    "DCL TEMP[0..1]"
    "IMM[0] FLT32 { 2.0, 0.0, 0.0, 0.0 }"
    "  0: MOV TEMP[0], IN[0]"
    "  1: CAL :4"
    "  2: MOV OUT[0], TEMP[0]"
    "  3: END"
    "  4: BGNSUB"
    "  5:   SLT TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy"
    "  6:   IF TEMP[1].xxxx"
    "  7:     RET"
    "  8:   ENDIF"
    "  9:   MUL TEMP[0], TEMP[0], IMM[0].xxxx"
    " 10: ENDSUB"
);
const SUB_ROWS: [&str; 4] = ["3 => 6", "-1 => -1", "0 => 0", "inf => inf"];
const SUB_EDGE: &str = "The subroutine doubles its argument except for negative values, where it returns early: a lane that runs RET waits masked off until the other lanes return.";
const SUB_MESA: &str = "In tgsi_exec a RET outside any call ends the shader and ENDSUB acts as a return; a subroutine here returns as soon as no calling lane is left.";

const NO_LOOPS: &str =
    "The export refuses loops, subroutines and switches: AGAL has only if/else (AGAL 2).";
const AGAL_IF: &str = "AGAL 2 writes `ine x, 0` … `els` … `eif`.";

pub(super) static ENTRIES: &[Entry] = &[
    lanes_in(O::IF, IF_EDGE, "Since Mesa 21.1 tgsi_exec jumps over a branch no lane takes; the results are the same.", AGAL_IF, "UIF ELSE ENDIF", IF_PROGRAM, IF_ROWS),
    lanes_in(O::ELSE, IF_EDGE, "", "AGAL 2 `els`.", "IF UIF ENDIF", IF_PROGRAM, IF_ROWS),
    lanes_in(O::ENDIF, IF_EDGE, "", "AGAL 2 `eif`.", "IF UIF ELSE", IF_PROGRAM, IF_ROWS),
    lanes_in(O::UIF,
        "The x component is tested as bits: any non-zero pattern is true, so −0.0 (0x80000000) and NaN take the first branch, unlike IF.",
        "", AGAL_IF, "IF ELSE ENDIF", UIF_PROGRAM,
        ["1 => 1", "0 => 2", "0x80000000 => 1", "0x7fc00000 => 1"]),
    lanes_in(O::BGNLOOP, LOOP_EDGE, "", NO_LOOPS, "ENDLOOP BRK CONT", LOOP_PROGRAM, LOOP_ROWS),
    lanes_in(O::ENDLOOP, LOOP_EDGE, "", NO_LOOPS, "BGNLOOP BRK CONT", LOOP_PROGRAM, LOOP_ROWS),
    lanes_in(O::BRK, LOOP_EDGE, "", NO_LOOPS, "BGNLOOP ENDLOOP CONT BREAKC", LOOP_PROGRAM, LOOP_ROWS),
    lanes_in(O::CONT,
        "The loop counts i up to src.x but CONT skips the add once i > 2, so the result is min(ceil(src.x), 2) for src.x ≥ 0. Lanes that continue are masked until the next iteration.",
        "", NO_LOOPS, "BRK BGNLOOP ENDLOOP", CONT_PROGRAM,
        ["5 => 2", "1 => 1", "0 => 0", "2 => 2"]),
    lanes_in(O::SWITCH, SWITCH_EDGE, SWITCH_MESA, NO_LOOPS, "CASE DEFAULT ENDSWITCH BRK", SWITCH_PROGRAM, SWITCH_ROWS),
    lanes_in(O::CASE, SWITCH_EDGE, SWITCH_MESA, NO_LOOPS, "SWITCH DEFAULT ENDSWITCH", SWITCH_PROGRAM, SWITCH_ROWS),
    lanes_in(O::DEFAULT, SWITCH_EDGE, SWITCH_MESA, NO_LOOPS, "SWITCH CASE ENDSWITCH", SWITCH_PROGRAM, SWITCH_ROWS),
    lanes_in(O::ENDSWITCH, SWITCH_EDGE, SWITCH_MESA, NO_LOOPS, "SWITCH CASE DEFAULT", SWITCH_PROGRAM, SWITCH_ROWS),
    lanes_in(O::CAL, SUB_EDGE, SUB_MESA, NO_LOOPS, "RET BGNSUB ENDSUB CALLNZ", SUB_PROGRAM, SUB_ROWS),
    lanes_in(O::RET, SUB_EDGE, SUB_MESA, NO_LOOPS, "CAL BGNSUB ENDSUB END", SUB_PROGRAM, SUB_ROWS),
    lanes_in(O::BGNSUB, SUB_EDGE, "Falling into a BGNSUB skips to after its ENDSUB here; subroutines are entered only by CAL.", NO_LOOPS, "CAL RET ENDSUB", SUB_PROGRAM, SUB_ROWS),
    lanes_in(O::ENDSUB, SUB_EDGE, SUB_MESA, NO_LOOPS, "CAL RET BGNSUB", SUB_PROGRAM, SUB_ROWS),
    lanes_in(O::END, "Stops the program; subroutine bodies may follow it.", "", "Every AGAL program simply ends.", "RET NOP",
        fs!("  0: MOV OUT[0], IN[0]" "  1: END"),
        ["1 => 1", "-0 => -0", "nan => nan", "inf => inf"]),
    lanes_in(O::NOP, "Does nothing.", "", "Nothing is emitted.", "END",
        fs!("  0: NOP" "  1: MOV OUT[0], IN[0]" "  2: END"),
        ["1 => 1", "-0 => -0", "0x7fc00001 => 0x7fc00001", "inf => inf"]),
    lanes_in(O::KILL,
        "Discards the lanes that reach it. Killed lanes keep running (their values still feed derivatives) but their outputs are dropped. Under IF, NaN is true, so the NaN lane is killed too.",
        "", "The export writes `kil` of −1.", "KILL_IF DEMOTE KILP",
        fs!("  0: IF IN[0].xxxx" "  1:   KILL" "  2: ENDIF" "  3: MOV OUT[0], IN[0]" "  4: END"),
        ["1 => killed", "0 => 0", "nan => killed", "-0 => -0"]),
    lanes_in(O::KILL_IF,
        "Kills a lane when any component of the (swizzled) source is below 0: −0 is not below 0 and NaN compares false, so neither kills.",
        "", "The export writes one `kil` per distinct component.", "KILL KIL DEMOTE",
        fs!("  0: KILL_IF IN[0]" "  1: MOV OUT[0], IN[0]" "  2: END"),
        ["-1 => killed", "(1 2 3 -0.5) => killed", "-0 => -0", "nan => nan"]),
    lanes_in(O::DEMOTE,
        "Turns the lane into a helper: it keeps running (for derivatives) but writes nothing and its output is discarded, as for KILL; READ_HELPER then reads ~0 in it.",
        "tgsi_exec does not implement DEMOTE (it asserts); we implement tgsi.rst's meaning.", "AGAL has no helper lanes.", "KILL READ_HELPER",
        fs!("DCL TEMP[0]" "  0: IF IN[0].xxxx" "  1:   DEMOTE" "  2: ENDIF" "  3: READ_HELPER TEMP[0]" "  4: MOV OUT[0], TEMP[0]" "  5: END"),
        ["1 => killed", "0 => 0", "0 => 0", "0 => 0"]),
    example(O::EMIT, "Emits the current outputs as a vertex of stream src.x (geometry shaders only); a primitive needs enough vertices for the output type.",
        "", "AGAL has no geometry stage.", "ENDPRIM",
        "geometry shaders run per primitive, not per quad; the example passes a triangle through",
        example_program!("emit.gs"), ""),
    example(O::ENDPRIM, "Ends the current primitive of stream src.x; END ends the last one too.",
        "", "AGAL has no geometry stage.", "EMIT",
        "geometry shaders run per primitive, not per quad",
        example_program!("emit.gs"), ""),
];
