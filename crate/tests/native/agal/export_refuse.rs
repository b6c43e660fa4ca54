//! Constructs AGAL cannot express are refused with a diagnostic that names the instruction and
//! says why (code A0200), and nothing is exported.

use crate::agal_common::*;

/// Exports and returns the messages of the A0200 errors.
fn refusals(src: &str) -> Vec<String> {
    let e = export(&parse(src), &ExportOptions::default());
    assert!(e.program.is_none(), "expected a refusal for:\n{}\ngot:\n{}", src, e.assembly);
    e.diagnostics.iter().filter(|d| d.code == "A0200").map(|d| d.message.clone()).collect()
}

fn fs(body: &str) -> String {
    format!("{}DCL ADDR[0]\nDCL SAMP[0]\nDCL CONST[0..3]\nIMM[1] FLT64 {{ 1.0, 2.0 }}\n{}\n  MOV OUT[0], TEMP[0]\n  END\n", FS_HEAD, body)
}

#[test]
fn each_unsupported_construct_has_its_diagnostic() {
    let cases: &[(&str, &str)] = &[
        ("BGNLOOP\n  BRK\n  ENDLOOP", "BGNLOOP: AGAL has no loops"),
        ("UADD TEMP[0], IN[0], IN[1]", "UADD: AGAL registers hold only floats"),
        ("AND TEMP[0], IN[0], IN[1]", "AND: AND of values that are not comparison results"),
        ("I2F TEMP[0], IN[0]", "I2F: AGAL registers hold only floats; conversions"),
        ("MOV TEMP[0], IMM[1]", "MOV: IMM[1]: FLT64 immediates are 64-bit"),
        (
            "ARL ADDR[0].x, IN[0].xxxx\n  MOV TEMP[ADDR[0].x], IN[0]",
            "MOV: AGAL cannot write registers indirectly",
        ),
        (
            "ARL ADDR[0].x, IN[0].xxxx\n  MOV TEMP[0], CONST[ADDR[0].x]",
            "AGAL fragment programs cannot address constants indirectly",
        ),
        ("TXL TEMP[0], IN[0], SAMP[0], 2D", "TXL: AGAL's tex has no explicit level of detail"),
        ("TXB TEMP[0], IN[0], SAMP[0], 2D", "TXB: TXB takes its bias from coord.w per pixel"),
        ("TEX TEMP[0], IN[0], SAMP[0], RECT", "TEX: AGAL textures use normalized coordinates"),
        ("TEX TEMP[0], IN[0], SAMP[0], SHADOW2D", "TEX: AGAL has no depth-comparison"),
        (
            "TEX TEMP[0], IN[0], SAMP[0], 2D_ARRAY",
            "TEX: AGAL samples only 2D, cube and 3D textures",
        ),
        ("DDX_FINE TEMP[0], IN[0]", "DDX_FINE: AGAL's ddx/ddy give one derivative per quad"),
        ("SWITCH IN[0].xxxx\n  ENDSWITCH", "SWITCH: AGAL has no switch"),
        ("DADD TEMP[0], IN[0], IN[1]", "DADD: AGAL has no double precision"),
        ("LIT TEMP[0], IN[0]", "LIT: AGAL has no instruction or sequence for LIT"),
        // The reason follows what the opcode computes (the table's family and value types).
        ("F2I TEMP[0], IN[0]", "F2I: AGAL registers hold only floats; conversions"),
        ("LDEXP TEMP[0], IN[0], IN[1]", "LDEXP: AGAL registers hold only floats; integer"),
        ("U2I64 TEMP[0], IN[0]", "U2I64: AGAL registers hold only floats; integer"),
        ("F2U64 TEMP[0], IN[0]", "F2U64: AGAL registers hold only floats; conversions"),
        ("F2D TEMP[0], IN[0]", "F2D: AGAL has no double precision"),
        ("DDIV TEMP[0], IN[0], IN[1]", "DDIV: AGAL has no double precision"),
        ("READ_FIRST TEMP[0], IN[0]", "READ_FIRST: AGAL has no cross-lane operations"),
        ("INTERP_CENTROID TEMP[0], IN[0]", "INTERP_CENTROID: AGAL interpolates varyings itself"),
    ];
    for (body, want) in cases {
        let msgs = refusals(&fs(body));
        assert!(msgs.iter().any(|m| m.contains(want)), "{}: wanted '{}' in {:?}", body, want, msgs);
    }
    // A subroutine lives after END, so this case is a whole program.
    let sub =
        format!("{}  CAL :3\n  MOV OUT[0], IN[0]\n  END\n  BGNSUB\n  RET\n  ENDSUB\n", FS_HEAD);
    let msgs = refusals(&sub);
    assert!(msgs.iter().any(|m| m.contains("CAL: AGAL has no subroutines")), "{:?}", msgs);
}

#[test]
fn stage_and_register_refusals() {
    let vs_tex = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL SAMP[0]\nDCL TEMP[0]\n  TEX TEMP[0], IN[0], SAMP[0], 2D\n  MOV OUT[0], TEMP[0]\n  END\n";
    assert!(refusals(vs_tex).iter().any(|m| m.contains("vertex programs cannot sample textures")));
    let face = "FRAG\nDCL IN[0], FACE, CONSTANT\nDCL OUT[0], COLOR\n  MOV OUT[0], IN[0]\n  END\n";
    assert!(refusals(face).iter().any(|m| m.contains("no FACE input")));
    let sv = "FRAG\nDCL SV[0], POSITION\nDCL OUT[0], COLOR\n  MOV OUT[0], SV[0]\n  END\n";
    assert!(refusals(sv).iter().any(|m| m.contains("SV registers have no AGAL counterpart")));
    let cb = "FRAG\nDCL CONST[1][0]\nDCL OUT[0], COLOR\n  MOV OUT[0], CONST[1][0]\n  END\n";
    assert!(refusals(cb).iter().any(|m| m.contains("constant buffers other than 0")));
    let gs = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\n  END\n";
    assert!(refusals(gs).iter().any(|m| m.contains("AGAL has only vertex and fragment programs")));
    let offset = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL CONST[0..3]\nDCL ADDR[0]\n  ARL ADDR[0].x, IN[0].xxxx\n  MOV OUT[0], CONST[ADDR[0].x-1]\n  END\n";
    assert!(refusals(offset).iter().any(|m| m.contains("unsigned byte")));
}

#[test]
fn refusals_point_at_the_instruction() {
    let src = fs("  UADD TEMP[0], IN[0], IN[1]");
    let e = export(&parse(&src), &ExportOptions::default());
    let d = e.diagnostics.iter().find(|d| d.code == "A0200").unwrap();
    assert_eq!(&src[d.span.start as usize..d.span.end as usize], "UADD");
}

/// Flash rules that no AGAL version lifts are reported for the first version tried.
#[test]
fn rules_of_every_version_are_reported_once() {
    let src = fs("  SLT TEMP[1], IN[0], IN[1]\n  IF TEMP[1].xxxx\n    ADD TEMP[2], IN[0], IN[1]\n    TEX TEMP[0], TEMP[2], SAMP[0], 2D\n  ENDIF");
    let e = export(&parse(&src), &ExportOptions::default());
    assert!(e.program.is_none());
    let d = e.diagnostics.iter().find(|d| d.code == "A3741").expect("A3741");
    assert!(d.message.starts_with("AGAL 2: "), "{}", d.message);
    assert!(src[d.span.start as usize..d.span.end as usize].starts_with("TEX"));
}

/// Two semantics that the fixed varying rule puts in one register are refused, not merged.
#[test]
fn colliding_varyings_are_refused() {
    let src = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], TEXCOORD[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  ADD OUT[0], IN[0], IN[1]\n  END\n";
    assert!(refusals(src).iter().any(|m| m.contains("both map to v2")));
}
