//! Operand rules (files, ADDR, samplers, indices, write masks, modifiers, texture targets,
//! memory qualifiers). Columns are counted by hand from the program text.

use crate::valid_support::*;

#[test]
fn v201_no_writes_to_read_only_files() {
    // "MOV IN[0], IN[0]": the destination IN[0] is at column 5.
    expect("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nMOV IN[0], IN[0]\nEND\n", &[("V201", 3, 5)]);
    expect("FRAG\nDCL CONST[0]\nMOV CONST[0], CONST[0]\nEND\n", &[("V201", 3, 5)]);
    expect("FRAG\nIMM FLT32 { 1.0, 0.0, 0.0, 1.0 }\nMOV IMM[0], IMM[0]\nEND\n", &[("V201", 3, 5)]);
    expect("FRAG\nDCL SV[0], FACE\nMOV SV[0], SV[0]\nEND\n", &[("V201", 3, 5)]);
    clean("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n");
}

#[test]
fn v202_v203_samplers_only_in_sampler_slots() {
    // "MOV OUT[0], SAMP[0]": SAMP at column 13.
    expect("FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nMOV OUT[0], SAMP[0]\nEND\n", &[("V202", 4, 13)]);
    // "TEX OUT[0], TEMP[0], TEMP[0], 2D": the sampler slot (second TEMP) is at column 22.
    expect(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nTEX OUT[0], TEMP[0], TEMP[0], 2D\nEND\n",
        &[("V203", 4, 22)],
    );
    // "SAMPLE OUT[0], IN[0], SAMP[0], SVIEW[0]": view and sampler swapped (columns 23 and 32).
    expect(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nSAMPLE OUT[0], IN[0], SAMP[0], SVIEW[0]\nEND\n",
        &[("V203", 6, 23), ("V203", 6, 32)],
    );
    clean("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nSAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]\nEND\n");
}

#[test]
fn v204_v205_address_registers() {
    // "MOV ADDR[0].x, TEMP[0]": ADDR at column 5.
    expect("FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nMOV ADDR[0].x, TEMP[0]\nEND\n", &[("V204", 4, 5)]);
    // "MOV TEMP[0], ADDR[0]": ADDR read as a value at column 14.
    expect(
        "FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[0], ADDR[0]\nEND\n",
        &[("V205", 5, 14)],
    );
    clean("FRAG\nDCL ADDR[0]\nDCL TEMP[0..3]\nUARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[0], TEMP[ADDR[0].x+1]\nEND\n");
}

#[test]
fn v206_indirect_from_a_non_address_file() {
    let d = diags("FRAG\nDCL TEMP[0..3]\nMOV TEMP[0], TEMP[TEMP[1].x+1]\nEND\n");
    // "MOV TEMP[0], TEMP[TEMP[1].x+1]": the inner TEMP[1] starts at column 19.
    assert_eq!(
        triples(&d).iter().filter(|t| t.0 == "V206").copied().collect::<Vec<_>>(),
        vec![("V206", 3, 19)]
    );
    clean("FRAG\nDCL ADDR[0]\nDCL TEMP[0..3]\nUARL ADDR[0].x, TEMP[1].xxxx\nMOV TEMP[0], TEMP[ADDR[0].x+1]\nEND\n");
}

#[test]
fn v207_arrays_and_vertex_indices() {
    // "(3)" names an array id no declaration has. In "MOV TEMP[0], TEMP[ADDR[0].x+1](3)" the
    // index bracket opens at column 18.
    expect(
        "FRAG\nDCL ADDR[0]\nDCL TEMP[0..3], ARRAY(1)\nARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[0], TEMP[ADDR[0].x+1](3)\nEND\n",
        &[("V207", 5, 18)],
    );
    // Offset 9 is outside ARRAY(1) = TEMP[0..3]; the note shows the array's declaration.
    let d = expect(
        "FRAG\nDCL ADDR[0]\nDCL TEMP[0..3], ARRAY(1)\nARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[0], TEMP[ADDR[0].x+9](1)\nEND\n",
        &[("V207", 5, 18)],
    );
    assert_eq!(d[0].related[0].line, 3);
    clean("FRAG\nDCL ADDR[0]\nDCL TEMP[0..3], ARRAY(1)\nARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[0], TEMP[ADDR[0].x+1](1)\nEND\n");
    // Triangles have 3 vertices: IN[3][0] is out of range. "MOV OUT[0], IN[3][0]": the vertex
    // bracket "[3]" starts at column 15.
    let gs = |v: u32| {
        format!(
            "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nMOV OUT[0], IN[{}][0]\nEND\n",
            v
        )
    };
    let d = diags(&gs(3));
    assert_eq!((one(&d, "V207").line, one(&d, "V207").column), (7, 15));
    no_errors(&gs(2));
}

#[test]
fn v208_number_of_indices() {
    // "MOV OUT[0], TEMP[1][0]": TEMP takes one index; the extra brackets start at column 17.
    let d = diags("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nMOV OUT[0], TEMP[1][0]\nEND\n");
    assert_eq!((one(&d, "V208").line, one(&d, "V208").column), (4, 17));
    // A geometry-shader input is per vertex: IN[0] alone is missing its vertex index.
    let d = diags("GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n");
    assert_eq!((one(&d, "V208").line, one(&d, "V208").column), (7, 13));
    clean("FRAG\nDCL OUT[0], COLOR\nDCL CONST[1][0]\nMOV OUT[0], CONST[1][0]\nEND\n");
}

#[test]
fn v209_channel_results_masked_to_constants() {
    // LIT writes 1.0 to x; "LIT TEMP[0].x, TEMP[0]": the destination is at column 5.
    let d = expect(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nLIT TEMP[0].x, TEMP[0]\nMOV OUT[0], TEMP[0]\nEND\n",
        &[("V209", 4, 5)],
    );
    assert!(!d[0].is_error());
    clean(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nLIT TEMP[0].yz, TEMP[0]\nMOV OUT[0], TEMP[0]\nEND\n",
    );
}

#[test]
fn v210_64_bit_masks_are_pairs() {
    expect("FRAG\nDCL TEMP[0]\nDADD TEMP[0].x, TEMP[0], TEMP[0]\nEND\n", &[("V210", 3, 6)]);
    expect("FRAG\nDCL TEMP[0]\nDADD TEMP[0].yz, TEMP[0], TEMP[0]\nEND\n", &[("V210", 3, 6)]);
    clean("FRAG\nDCL TEMP[0]\nDADD TEMP[0].zw, TEMP[0], TEMP[0]\nEND\n");
}

#[test]
fn v212_modifiers_per_operand_type() {
    // "UADD TEMP[0], |TEMP[0]|, TEMP[0]": the |…| operand starts at column 15.
    expect("FRAG\nDCL TEMP[0]\nUADD TEMP[0], |TEMP[0]|, TEMP[0]\nEND\n", &[("V212", 3, 15)]);
    // Negation of an integer source is two's-complement negation in tgsi_exec: allowed.
    clean("FRAG\nDCL TEMP[0]\nUADD TEMP[0], -TEMP[0], TEMP[0]\nEND\n");
    clean("FRAG\nDCL TEMP[0]\nADD TEMP[0], |TEMP[0]|, -TEMP[0]\nEND\n");
    // A modifier on a sampler: "TEX TEMP[0], TEMP[0], -SAMP[0], 2D": column 23.
    let d = diags("FRAG\nDCL TEMP[0]\nDCL SAMP[0]\nTEX TEMP[0], TEMP[0], -SAMP[0], 2D\nEND\n");
    assert_eq!((one(&d, "V212").line, one(&d, "V212").column), (4, 23));
}

#[test]
fn v213_saturate_on_integer_results() {
    let d =
        expect("FRAG\nDCL TEMP[0]\nUADD_SAT TEMP[0], TEMP[0], TEMP[0]\nEND\n", &[("V213", 3, 1)]);
    assert!(!d[0].is_error());
    clean("FRAG\nDCL TEMP[0]\nADD_SAT TEMP[0], TEMP[0], TEMP[0]\nEND\n");
}

#[test]
fn v214_texture_target_against_the_view() {
    let base = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n";
    let d = expect(&format!("{}TEX OUT[0], IN[0], SAMP[0], 3D\nEND\n", base), &[("V214", 6, 1)]);
    assert_eq!(d[0].related[0].line, 5);
    clean(&format!("{}TEX OUT[0], IN[0], SAMP[0], 2D\nEND\n", base));
    // A shadow target reads a view of its plain target.
    clean(&format!("{}TEX OUT[0], IN[0], SAMP[0], SHADOW2D\nEND\n", base));
}

#[test]
fn v216_memory_qualifiers_only_on_memory_opcodes() {
    clean("COMP\nDCL TEMP[0]\nDCL BUFFER[0]\nLOAD TEMP[0], BUFFER[0], TEMP[0], COHERENT\nEND\n");
}

#[test]
fn v211_scalar_opcode_reading_x_for_another_channel() {
    // "RCP TEMP[0].y, TEMP[1]": the source at column 16 has no swizzle, so RCP reads .x.
    let d = expect("FRAG\nDCL TEMP[0..1]\nRCP TEMP[0].y, TEMP[1]\nEND\n", &[("V211", 3, 16)]);
    assert!(!d[0].is_error());
    assert!(d[0].message.contains("TEMP[1].yyyy"), "{}", d[0].message);
    clean("FRAG\nDCL TEMP[0..1]\nRCP TEMP[0].y, TEMP[1].yyyy\nEND\n");
    clean("FRAG\nDCL TEMP[0..1]\nRCP TEMP[0].x, TEMP[1]\nEND\n");
    // Dot products read several channels: no warning.
    clean("FRAG\nDCL TEMP[0..1]\nDP3 TEMP[0].y, TEMP[1], TEMP[1]\nEND\n");
}
