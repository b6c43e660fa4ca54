//! tgsi_sanity's checks (Mesa's `tgsi_sanity.c`) and the unused-register warning.
//! Each rule: a minimal failing program with its exact diagnostic (code, line, column, counted
//! by hand from the text) and a passing neighbour that stays clean.

use crate::valid_support::*;

#[test]
fn v002_second_end() {
    // Line 3 column 1 is the second END; the note points at the first (line 2).
    let d = expect("FRAG\nEND\nEND\n", &[("V002", 3, 1)]);
    assert_eq!((d[0].related[0].line, d[0].related[0].column), (2, 1));
    clean("FRAG\nEND\n");
}

#[test]
fn v005_undeclared_source_and_destination() {
    // "MOV OUT[0], TEMP[0]": TEMP starts at column 13.
    expect("FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], TEMP[0]\nEND\n", &[("V005", 3, 13)]);
    // "MOV TEMP[1], IN[0]": TEMP[1] at column 5 is outside TEMP[0].
    expect(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL TEMP[0]\nMOV TEMP[1], IN[0]\nMOV TEMP[0], TEMP[0]\nEND\n",
        &[("V005", 4, 5)],
    );
    clean("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nMOV OUT[0], TEMP[0]\nEND\n");
}

#[test]
fn v005_immediates_count_as_declared_by_position() {
    // One immediate: IMM[1] does not exist. "MOV OUT[0], IMM[1]": IMM at column 13.
    expect(
        "FRAG\nDCL OUT[0], COLOR\nIMM FLT32 { 1.0, 0.0, 0.0, 1.0 }\nMOV OUT[0], IMM[1]\nEND\n",
        &[("V011", 3, 1), ("V005", 4, 13)],
    );
    clean("FRAG\nDCL OUT[0], COLOR\nIMM FLT32 { 1.0, 0.0, 0.0, 1.0 }\nMOV OUT[0], IMM[0]\nEND\n");
}

#[test]
fn v005_indirect_needs_the_address_register_declared() {
    // "MOV OUT[0], CONST[ADDR[0].x+1]": ADDR starts at column 19.
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0..3]\nMOV OUT[0], CONST[ADDR[0].x+1]\nEND\n";
    let d = diags(text);
    assert_eq!((one(&d, "V005").line, one(&d, "V005").column), (4, 19));
    no_errors("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0..3]\nDCL ADDR[0]\nDCL TEMP[0]\nARL ADDR[0].x, TEMP[0].xxxx\nMOV OUT[0], CONST[ADDR[0].x+1]\nEND\n");
}

#[test]
fn v007_declaration_after_instruction() {
    let d = expect(
        "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], OUT[0]\nDCL TEMP[0]\nEND\n",
        &[("V007", 4, 1), ("V011", 4, 1)],
    );
    assert_eq!(d[0].related[0].line, 3);
    expect(
        "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], IMM[0]\nIMM FLT32 { 1.0, 0.0, 0.0, 1.0 }\nEND\n",
        &[("V007", 4, 1)],
    );
    clean("FRAG\nDCL OUT[0], COLOR\nIMM FLT32 { 1.0, 0.0, 0.0, 1.0 }\nMOV OUT[0], IMM[0]\nEND\n");
}

#[test]
fn v007_properties_may_come_anywhere() {
    clean(
        "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], OUT[0]\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nEND\n",
    );
}

#[test]
fn v008_register_declared_twice() {
    // TEMP[2] overlaps TEMP[0..3]: reported on the second declaration, note on the first.
    let d = expect(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\nDCL TEMP[2]\nMOV TEMP[0], TEMP[2]\nMOV OUT[0], TEMP[0]\nEND\n",
        &[("V008", 4, 1)],
    );
    assert_eq!((d[0].related[0].line, d[0].related[0].column), (3, 1));
    clean("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\nDCL TEMP[2]\nMOV TEMP[0], TEMP[2]\nMOV TEMP[1], TEMP[0]\nMOV OUT[0], TEMP[1]\nEND\n");
}

#[test]
fn v008_two_constant_buffers_are_different_registers() {
    no_errors("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0..3]\nDCL CONST[1][0..3]\nMOV OUT[0], CONST[1][2]\nEND\n");
    let d = diags("FRAG\nDCL OUT[0], COLOR\nDCL CONST[1][0..3]\nDCL CONST[1][3]\nMOV OUT[0], CONST[1][2]\nEND\n");
    assert_eq!((one(&d, "V008").line, one(&d, "V008").column), (4, 1));
}

#[test]
fn v014_a_word_for_word_repeat_is_a_warning_and_a_conflict_stays_an_error() {
    // Mesa's shape for 64-bit varyings sharing an output (OUT[2] again after OUT[3]): a warning
    // on line 5 with its note on line 3, and no V008 or V406.
    let vs = |again: &str| {
        format!(
            "VERT\nDCL IN[0]\nDCL OUT[2], GENERIC[1]\nDCL OUT[3], GENERIC[2]\n{again}\nDCL OUT[0], POSITION\n\
             MOV OUT[0], IN[0]\nMOV OUT[2], IN[0]\nMOV OUT[3], IN[0]\nEND\n"
        )
    };
    let d = expect(&vs("DCL OUT[2], GENERIC[1]"), &[("V014", 5, 1)]);
    assert_eq!(d[0].severity, tgsi::diag::Severity::Warning);
    assert_eq!((d[0].related[0].line, d[0].related[0].column), (3, 1));
    // The same register with another semantic, another usage mask or another interpolation
    // is not a repeat: the V008 error as before.
    let d = diags(&vs("DCL OUT[2], GENERIC[4]"));
    assert_eq!((one(&d, "V008").line, one(&d, "V008").column), (5, 1));
    assert!(d.iter().all(|x| x.code != "V014"), "{d:?}");
    let d = diags(&vs("DCL OUT[2].xy, GENERIC[1]"));
    assert_eq!(one(&d, "V008").line, 5);
    // A repeated input with its semantic: V014 only (not V406, the semantic's own repeat).
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[0], GENERIC[0], PERSPECTIVE\n\
              DCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";
    expect(fs, &[("V014", 3, 1)]);
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[0], GENERIC[0], LINEAR\n\
              DCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";
    let d = diags(fs);
    assert_eq!(one(&d, "V008").line, 3);
    assert_eq!(one(&d, "V406").line, 3);
}

#[test]
fn v009_64_bit_immediates() {
    expect(
        "FRAG\nDCL OUT[0], COLOR\nIMM FLT64 { 1.0, 2.0 }\nMOV OUT[0], IMM[0]\nEND\n",
        &[("V009", 3, 1)],
    );
    clean("FRAG\nDCL OUT[0], COLOR\nIMM UINT32 { 1, 2, 3, 4 }\nMOV OUT[0], IMM[0]\nEND\n");
}

#[test]
fn v010_missing_end() {
    // Reported just after the last instruction: "MOV OUT[0], OUT[0]" is 18 characters.
    expect("FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], OUT[0]\n", &[("V010", 3, 19)]);
    clean("FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], OUT[0]\nEND\n");
}

#[test]
fn v011_declared_but_never_used() {
    let d = expect(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\nDCL TEMP[2]\nMOV OUT[0], TEMP[0]\nEND\n",
        &[("V011", 4, 1)],
    );
    assert!(!d[0].is_error());
    let d = expect(
        "FRAG\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nMOV OUT[0], OUT[0]\nEND\n",
        &[("V011", 3, 1)],
    );
    assert!(d[0].message.contains("never written"), "{}", d[0].message);
    // A range counts as used when any of its registers is; indirect use covers the file.
    clean("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..9]\nMOV OUT[0], TEMP[7]\nEND\n");
    clean("FRAG\nDCL OUT[0], COLOR\nDCL ADDR[0]\nDCL TEMP[0..9]\nARL ADDR[0].x, TEMP[0].xxxx\nMOV OUT[0], TEMP[ADDR[0].x+2]\nEND\n");
}

#[test]
fn v011_sampler_view_used_through_its_sampler_unit() {
    clean("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND\n");
    let d = diags("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0..1], 2D, FLOAT\nDCL SVIEW[2], 2D, FLOAT\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND\n");
    assert_eq!(triples(&d), vec![("V011", 6, 1)]);
}

#[test]
fn v012_inverted_range() {
    // "DCL TEMP[3..1]": the range's bracket opens at column 9.
    expect("FRAG\nDCL TEMP[3..1]\nEND\n", &[("V012", 2, 9)]);
    clean("FRAG\nDCL TEMP[1..3]\nMOV TEMP[1], TEMP[3]\nEND\n");
}

#[test]
fn v013_array_id() {
    expect("FRAG\nDCL TEMP[0..3], ARRAY(2000)\nMOV TEMP[0], TEMP[1]\nEND\n", &[("V013", 2, 1)]);
    clean("FRAG\nDCL TEMP[0..3], ARRAY(1)\nMOV TEMP[0], TEMP[1]\nEND\n");
}
