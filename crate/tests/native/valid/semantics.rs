//! Semantic indices per the Gallium semantics RFC (mesa-dev): NORMAL removed; index 0 only except
//! GENERIC, COLOR, BCOLOR; COLOR/BCOLOR 0..1 except fragment outputs; GENERIC 0..218 portable,
//! 0..216 with BCOLOR, ≤255 with a warning; no (semantic, index) twice.

use crate::valid_support::*;

/// A vertex shader declaring `OUT[0]` with `semantic` and writing it.
fn vs_out(semantic: &str) -> String {
    format!("VERT\nDCL IN[0]\nDCL OUT[0], {}\nMOV OUT[0], IN[0]\nEND\n", semantic)
}

#[test]
fn v401_normal_removed() {
    // "DCL OUT[0], NORMAL": column 13.
    let d = expect(&vs_out("NORMAL"), &[("V401", 3, 13)]);
    assert!(d[0].is_error());
    // In legacy text (here: SUB, removed in 2016) it is only a warning.
    let legacy = "VERT\nDCL IN[0]\nDCL OUT[0], NORMAL\nSUB OUT[0], IN[0], IN[0]\nEND\n";
    let d = diags(legacy);
    let n = one(&d, "V401");
    assert!(!n.is_error());
    clean(&vs_out("GENERIC[0]"));
}

#[test]
fn v402_index_zero_only() {
    expect(&vs_out("POSITION[1]"), &[("V402", 3, 13)]);
    expect(&vs_out("PSIZE[1]"), &[("V402", 3, 13)]);
    expect(&vs_out("FOG[2]"), &[("V402", 3, 13)]);
    clean(&vs_out("POSITION"));
    // Semantics newer than the RFC keep their documented ranges.
    clean(&vs_out("TEXCOORD[7]"));
    expect(&vs_out("TEXCOORD[8]"), &[("V402", 3, 13)]);
    clean(&vs_out("CLIPDIST[1]"));
}

#[test]
fn v403_color_indices() {
    expect(&vs_out("COLOR[2]"), &[("V403", 3, 13)]);
    expect(&vs_out("BCOLOR[2]"), &[("V403", 3, 13)]);
    clean(&vs_out("COLOR[1]"));
    clean(&vs_out("BCOLOR[1]"));
    // Fragment outputs (render targets) are not limited to 0..1.
    clean("FRAG\nDCL OUT[0], COLOR[3]\nMOV OUT[0], OUT[0]\nEND\n");
}

#[test]
fn v404_v405_generic_indices() {
    // 218 is the last portable index (219 SM3 slots) …
    clean(&vs_out("GENERIC[218]"));
    let d = expect(&vs_out("GENERIC[219]"), &[("V404", 3, 13)]);
    assert!(!d[0].is_error());
    clean(&vs_out("GENERIC[0]"));
    let d = expect(&vs_out("GENERIC[255]"), &[("V404", 3, 13)]);
    assert!(!d[0].is_error());
    expect(&vs_out("GENERIC[256]"), &[("V405", 3, 13)]);
    // … 216 when BCOLOR takes two slots.
    let with_bcolor = |g: u32| {
        format!(
            "VERT\nDCL IN[0]\nDCL OUT[0], BCOLOR\nDCL OUT[1], GENERIC[{}]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[0]\nEND\n",
            g
        )
    };
    clean(&with_bcolor(216));
    expect(&with_bcolor(217), &[("V404", 4, 13)]);
    // A range gives consecutive indices: OUT[0..3], GENERIC[216] reaches GENERIC[219].
    let d = diags("VERT\nDCL IN[0]\nDCL OUT[0..3], GENERIC[216]\nMOV OUT[0], IN[0]\nEND\n");
    assert!(one(&d, "V404").message.contains("219"), "{}", one(&d, "V404").message);
}

#[test]
fn v406_same_semantic_twice() {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0..1], GENERIC[0]\nDCL OUT[2], GENERIC[1]\nMOV OUT[0], IN[0]\nMOV OUT[2], IN[0]\nEND\n";
    // "DCL OUT[2], GENERIC[1]": the semantic at column 13; the note shows line 3.
    let d = expect(text, &[("V406", 4, 13)]);
    assert_eq!(d[0].related[0].line, 3);
    clean("VERT\nDCL IN[0]\nDCL OUT[0..1], GENERIC[0]\nDCL OUT[2], GENERIC[2]\nMOV OUT[0], IN[0]\nMOV OUT[2], IN[0]\nEND\n");
    // Inputs and outputs are separate files.
    clean("FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n");
}
