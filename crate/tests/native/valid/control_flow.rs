//! Structured control flow: nesting, BRK/CONT/RET/CAL placement, END, computed targets and
//! label warnings. Targets follow Mesa's ureg convention (tgsi_ureg.c `ureg_fixup_label`): IF/UIF →
//! its ELSE or ENDIF, ELSE → ENDIF, CAL → BGNSUB; numbers are instruction indices from 0.

use crate::valid_support::*;
use tgsi::opcode::Opcode;

const T: &str = "FRAG\nDCL TEMP[0]\n";

/// The header, plus `DCL TEMP[0]` when the body names it (so it is never "unused").
fn prog(body: &str) -> String {
    if body.contains("TEMP[0]") {
        format!("{}{}", T, body)
    } else {
        format!("FRAG\n{}", body)
    }
}

#[test]
fn v101_else_without_if() {
    expect(&prog("ELSE\nMOV TEMP[0], TEMP[0]\nEND\n"), &[("V101", 3, 1)]);
    let d = expect(&prog("IF TEMP[0].xxxx\nELSE\nELSE\nENDIF\nEND\n"), &[("V101", 5, 1)]);
    assert_eq!(d[0].related[0].line, 4);
    clean(&prog("IF TEMP[0].xxxx\nELSE\nENDIF\nEND\n"));
}

#[test]
fn v102_closer_without_opener() {
    expect(&prog("MOV TEMP[0], TEMP[0]\nENDLOOP\nEND\n"), &[("V102", 4, 1)]);
    expect(&prog("MOV TEMP[0], TEMP[0]\nENDSWITCH\nEND\n"), &[("V102", 4, 1)]);
    clean(&prog("BGNLOOP\nBRK\nENDLOOP\nEND\n"));
}

#[test]
fn v103_unclosed_block_points_at_its_opener() {
    let d = expect(&prog("IF TEMP[0].xxxx\nEND\n"), &[("V103", 3, 1)]);
    assert_eq!(d[0].related[0].line, 4, "the note shows END");
    expect(&prog("BGNLOOP\nBRK\nEND\n"), &[("V103", 2, 1)]);
    clean(&prog("UIF TEMP[0].xxxx\nENDIF\nEND\n"));
}

#[test]
fn v104_crossing_blocks() {
    let d = expect(
        &prog("BGNLOOP\nIF TEMP[0].xxxx\nENDLOOP\nENDIF\nEND\n"),
        &[("V104", 5, 1), ("V102", 6, 1)],
    );
    assert_eq!(d[0].related[0].line, 4, "the note shows the inner IF");
    clean(&prog("BGNLOOP\nIF TEMP[0].xxxx\nENDIF\nBRK\nENDLOOP\nEND\n"));
}

#[test]
fn v105_v106_break_and_continue() {
    expect(&prog("MOV TEMP[0], TEMP[0]\nBRK\nEND\n"), &[("V105", 4, 1)]);
    expect(
        &prog("SWITCH TEMP[0].xxxx\nCASE TEMP[0].xxxx\nCONT\nENDSWITCH\nEND\n"),
        &[("V106", 5, 1)],
    );
    // BRK inside an IF inside a loop, CONT inside a SWITCH inside a loop: both fine.
    clean(&prog("BGNLOOP\nIF TEMP[0].xxxx\nBRK\nENDIF\nSWITCH TEMP[0].xxxx\nCASE TEMP[0].xxxx\nCONT\nBRK\nENDSWITCH\nENDLOOP\nEND\n"));
}

#[test]
fn v105_break_does_not_cross_a_subroutine() {
    let d = diags(&prog("BGNLOOP\nCAL :4\nBRK\nENDLOOP\nEND\nBGNSUB\nBRK\nENDSUB\n"));
    // Instruction 4 is END, so the CAL is also wrong (V113); the BRK at line 8 is outside any loop.
    assert!(triples(&d).contains(&("V105", 8, 1)), "{:?}", triples(&d));
}

#[test]
fn v107_v108_v109_switch_labels() {
    expect(&prog("CASE TEMP[0].xxxx\nEND\n"), &[("V107", 3, 1)]);
    expect(&prog("SWITCH TEMP[0].xxxx\nDEFAULT\nDEFAULT\nENDSWITCH\nEND\n"), &[("V108", 5, 1)]);
    let d = expect(
        &prog("SWITCH TEMP[0].xxxx\nDEFAULT\nCASE TEMP[0].xxxx\nENDSWITCH\nEND\n"),
        &[("V109", 5, 1)],
    );
    assert!(!d[0].is_error());
    clean(&prog("SWITCH TEMP[0].xxxx\nCASE TEMP[0].xxxx\nBRK\nDEFAULT\nBRK\nENDSWITCH\nEND\n"));
}

#[test]
fn v110_v111_what_follows_end() {
    expect(&prog("BGNSUB\nENDSUB\nEND\n"), &[("V110", 2, 1)]);
    expect(&prog("END\nRET\n"), &[("V111", 3, 1)]);
    expect(&prog("END\nMOV TEMP[0], TEMP[0]\n"), &[("V111", 4, 1)]);
    // RET in the main program and inside a subroutine are both fine.
    clean(&prog("CAL :3\nRET\nEND\nBGNSUB\nRET\nENDSUB\n"));
}

#[test]
fn v112_v113_call_targets() {
    expect(&prog("CAL\nEND\n"), &[("V112", 2, 1)]);
    let d = expect(&prog("CAL :1\nEND\n"), &[("V113", 2, 1)]);
    assert_eq!(d[0].related[0].line, 3, "the note shows instruction 1");
    expect(&prog("CAL :9\nEND\n"), &[("V113", 2, 1)]);
    clean(&prog("CAL :2\nEND\nBGNSUB\nMOV TEMP[0], TEMP[0]\nENDSUB\n"));
}

#[test]
fn v114_label_that_disagrees_shows_the_right_value() {
    // 0 IF, 1 ELSE, 2 ENDIF: the IF's label should be :1 and the ELSE's :2.
    let d = expect(
        &prog("IF TEMP[0].xxxx :2\nELSE :5\nENDIF\nEND\n"),
        &[("V114", 3, 1), ("V114", 4, 1)],
    );
    assert!(d[0].message.contains("should be :1"), "{}", d[0].message);
    assert!(d[1].message.contains("should be :2"), "{}", d[1].message);
    assert!(d.iter().all(|x| !x.is_error()));
    clean(&prog("IF TEMP[0].xxxx :1\nELSE :2\nENDIF\nEND\n"));
    // Mesa's dumps carry ":0" on loops (labels never set): accepted.
    clean(&prog("BGNLOOP :0\nBRK\nENDLOOP :0\nEND\n"));
}

#[test]
fn v115_recursion() {
    expect(&prog("CAL :2\nEND\nBGNSUB\nCAL :2\nENDSUB\n"), &[("V115", 5, 1)]);
    clean(&prog("CAL :2\nEND\nBGNSUB\nCAL :5\nENDSUB\nBGNSUB\nRET\nENDSUB\n"));
}

#[test]
fn match_blocks_gives_structural_partners() {
    // 0 BGNLOOP, 1 UIF, 2 BRK, 3 ELSE, 4 CONT, 5 ENDIF, 6 ENDLOOP,
    // 7 SWITCH, 8 CASE, 9 BRK, 10 DEFAULT, 11 ENDSWITCH, 12 CAL, 13 END, 14 BGNSUB, 15 RET, 16 ENDSUB
    let text = prog(
        "BGNLOOP\nUIF TEMP[0].xxxx\nBRK\nELSE\nCONT\nENDIF\nENDLOOP\nSWITCH TEMP[0].xxxx\nCASE TEMP[0].xxxx\nBRK\nDEFAULT\nENDSWITCH\nCAL :14\nEND\nBGNSUB\nRET\nENDSUB\n",
    );
    let t = tgsi::valid::match_blocks(&parse(&text)).expect("well formed");
    let get = |i: usize| tgsi::valid::target_of(&t, i).map(|x| (x.opcode, x.partner, x.end));
    assert_eq!(get(0), Some((Opcode::BGNLOOP, 6, 6)));
    assert_eq!(get(1), Some((Opcode::UIF, 3, 5)));
    assert_eq!(get(2), Some((Opcode::BRK, 6, 6)));
    assert_eq!(get(3), Some((Opcode::ELSE, 5, 5)));
    assert_eq!(get(4), Some((Opcode::CONT, 6, 6)));
    assert_eq!(get(5), Some((Opcode::ENDIF, 1, 5)));
    assert_eq!(get(6), Some((Opcode::ENDLOOP, 0, 6)));
    assert_eq!(get(7), Some((Opcode::SWITCH, 11, 11)));
    assert_eq!(get(8), Some((Opcode::CASE, 10, 11)));
    assert_eq!(get(9), Some((Opcode::BRK, 11, 11)));
    assert_eq!(get(10), Some((Opcode::DEFAULT, 11, 11)));
    assert_eq!(get(12), Some((Opcode::CAL, 14, 16)));
    assert_eq!(get(15), Some((Opcode::RET, 16, 16)));
    assert_eq!(get(16), Some((Opcode::ENDSUB, 14, 16)));
    assert_eq!(get(13), None, "END has no partner");
    assert!(tgsi::valid::match_blocks(&parse(&prog("IF TEMP[0].xxxx\nEND\n"))).is_err());
}

#[test]
fn deep_nesting_gives_one_diagnostic_quickly() {
    let n = 200_000;
    let text = format!("{}{}{}END\n", T, "IF TEMP[0].xxxx\n".repeat(n), "ENDIF\n".repeat(n));
    let start = std::time::Instant::now();
    let d = diags(&text);
    assert_eq!(triples(&d), vec![("V506", 3 + 32, 1)], "the 33rd IF is the first too deep");
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    // Unclosed: one V103 per open IF, reported at END, in linear time; past the first 1000
    // diagnostics the rest are counted in a last note (D001, `limits::MAX_DIAGNOSTICS`).
    let text = format!("{}{}END\n", T, "IF TEMP[0].xxxx\n".repeat(50_000));
    let start = std::time::Instant::now();
    let d = diags(&text);
    assert!(d.iter().all(|x| x.code == "V103" || x.code == "V506" || x.code == "D001"));
    assert_eq!(d.len(), tgsi::limits::MAX_DIAGNOSTICS + 1);
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

#[test]
fn legacy_flow_opcodes_follow_their_modern_forms() {
    // IFC opens an IF block, BREAKC is a BRK, CALLNZ a CAL (the 2010 edition of tgsi.rst).
    no_errors(&prog("BGNLOOP\nIFC TEMP[0].xxxx\nBREAKC TEMP[0].xxxx\nENDIF\nENDLOOP\nCALLNZ TEMP[0].xxxx :7\nEND\nBGNSUB\nRET\nENDSUB\n"));
    let d = diags(&prog("BREAKC TEMP[0].xxxx\nEND\n"));
    assert_eq!(
        triples(&d).iter().filter(|t| t.0 == "V105").copied().collect::<Vec<_>>(),
        vec![("V105", 3, 1)]
    );
    let d = diags(&prog("CALLNZ TEMP[0].xxxx\nEND\n"));
    assert_eq!(
        triples(&d).iter().filter(|t| t.0 == "V112").copied().collect::<Vec<_>>(),
        vec![("V112", 3, 1)]
    );
}

#[test]
fn v116_unstructured_jump() {
    let d = diags("FRAG\nBRA :1\nEND\n");
    assert_eq!(
        triples(&d).iter().filter(|t| t.0 == "V116").copied().collect::<Vec<_>>(),
        vec![("V116", 2, 1)]
    );
}
