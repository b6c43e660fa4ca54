//! Per-stage rules: opcodes, shared memory, system values, properties, vertex inputs and
//! fragment outputs.

use crate::valid_support::*;

#[test]
fn v301_stage_only_opcodes() {
    expect("VERT\nKILL\nEND\n", &[("V301", 2, 1)]);
    expect("FRAG\nDCL TEMP[0]\nEMIT TEMP[0].xxxx\nEND\n", &[("V301", 3, 1)]);
    expect("FRAG\nBARRIER\nEND\n", &[("V301", 2, 1)]);
    expect("VERT\nDCL TEMP[0]\nDDX TEMP[0], TEMP[0]\nEND\n", &[("V301", 3, 1)]);
    clean("FRAG\nKILL\nEND\n");
    clean("FRAG\nDCL TEMP[0]\nDDX TEMP[0], TEMP[0]\nEND\n");
    clean("COMP\nBARRIER\nEND\n");
}

#[test]
fn v302_shared_memory_only_in_compute() {
    let d = diags("FRAG\nDCL MEMORY[0], SHARED\nEND\n");
    assert_eq!((one(&d, "V302").line, one(&d, "V302").column), (2, 1));
    let d = diags("COMP\nDCL MEMORY[0], SHARED\nEND\n");
    assert!(d.iter().all(|x| x.code != "V302"));
}

#[test]
fn v303_system_values_per_stage() {
    // "DCL SV[0], FACE": FACE starts at column 12.
    expect(
        "VERT\nDCL SV[0], FACE\nDCL OUT[0], POSITION\nMOV OUT[0], SV[0]\nEND\n",
        &[("V303", 2, 12)],
    );
    expect(
        "FRAG\nDCL SV[0], GENERIC[0]\nDCL OUT[0], COLOR\nMOV OUT[0], SV[0]\nEND\n",
        &[("V303", 2, 12)],
    );
    clean("FRAG\nDCL SV[0], FACE\nDCL OUT[0], COLOR\nMOV OUT[0], SV[0]\nEND\n");
    clean("VERT\nDCL SV[0], INSTANCEID\nDCL OUT[0], POSITION\nMOV OUT[0], SV[0]\nEND\n");
}

#[test]
fn v304_properties_per_stage() {
    expect("VERT\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\nEND\n", &[("V304", 2, 1)]);
    expect("FRAG\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\nEND\n", &[("V304", 2, 1)]);
    clean("FRAG\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\nEND\n");
    clean("VERT\nPROPERTY NEXT_SHADER FRAG\nEND\n");
}

#[test]
fn v306_fragment_outputs() {
    // "DCL OUT[0], GENERIC[0]": the semantic is at column 13.
    expect("FRAG\nDCL OUT[0], GENERIC[0]\nMOV OUT[0], OUT[0]\nEND\n", &[("V306", 2, 13)]);
    clean("FRAG\nDCL OUT[0], COLOR\nDCL OUT[1], POSITION\nMOV OUT[0], OUT[0]\nMOV OUT[1].z, OUT[0].xxxx\nEND\n");
}

#[test]
fn v307_implicit_level_of_detail_outside_fragment_shaders() {
    let vs = |op: &str| {
        format!("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n{} OUT[0], IN[0], SAMP[0], 2D\nEND\n", op)
    };
    let d = expect(&vs("TEX"), &[("V307", 6, 1)]);
    assert!(!d[0].is_error());
    clean(&vs("TXL"));
    clean(&vs("TEX_LZ"));
    clean("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND\n");
}

#[test]
fn v308_geometry_shader_properties() {
    let body = "DCL IN[][0], POSITION\nDCL OUT[0], POSITION\nIMM[0] UINT32 {0, 0, 0, 0}\nMOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nEND\n";
    let full = format!(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\n{}",
        body
    );
    clean(&full);
    let missing = full.replace("PROPERTY GS_MAX_OUTPUT_VERTICES 1\n", "");
    let d = expect(&missing, &[("V308", 1, 1)]);
    assert!(d[0].message.contains("GS_MAX_OUTPUT_VERTICES"), "{}", d[0].message);
}
