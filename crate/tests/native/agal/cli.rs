//! The AGAL subcommands end to end: output files, printed text, diagnostics format and exit
//! status (0 ok, 1 diagnostics with errors, 2 usage or I/O).

use std::process::Command;

const CORPUS: &str = corpus!("/agal");

fn tgsi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> String {
    crate::scratch::file("agal-cli", name)
}

#[test]
fn agal_asm_writes_adobes_bytes() {
    let out = temp("f01.bin");
    let (code, _, err) =
        tgsi(&["agal-asm", "fragment", &format!("{}/f01_tex_2d_basic.agal", CORPUS), "-o", &out]);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(format!("{}/f01_tex_2d_basic.bin", CORPUS)).unwrap()
    );
}

#[test]
fn agal_asm_errors_are_diagnostics_with_exit_1() {
    let src = temp("bad.agal");
    std::fs::write(&src, "mov ft0, v0\nmove oc, ft0\n").unwrap();
    let (code, _, err) = tgsi(&["agal-asm", "fragment", &src, "-o", &temp("bad.bin")]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.agal:2:1: error: unknown opcode 'move'") && err.contains("[A0101]"),
        "{}",
        err
    );
    // Validator findings are errors too.
    std::fs::write(&src, "mov ft0, v0\nmov oc.xyz, ft0\n").unwrap();
    let (code, _, err) = tgsi(&["agal-asm", "fragment", &src, "-o", &temp("bad.bin")]);
    assert_eq!(code, 1);
    assert!(err.contains(":2:1: error: ") && err.contains("[A3701]"), "{}", err);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(tgsi(&["agal-asm", "pixel", "x.agal", "-o", "y"]).0, 2);
    assert_eq!(tgsi(&["agal-asm", "vertex", "x.agal", "--agal-version", "7", "-o", "y"]).0, 2);
    assert_eq!(tgsi(&["agal-asm", "vertex", "/nonexistent/x.agal", "-o", "y"]).0, 2);
    assert_eq!(tgsi(&["agal-dis"]).0, 2);
    assert_eq!(tgsi(&["agal", "x.tgsi"]).0, 2);
}

#[test]
fn agal_dis_prints_reassemblable_text() {
    let bin = format!("{}/adobe/ruffle_relative_vertex.bin", CORPUS);
    let (code, text, _) = tgsi(&["agal-dis", &bin]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with("// AGAL 2 vertex program, 3 instructions\nmov vt0, vc[va0.x+5]\n"),
        "{}",
        text
    );
    let src = temp("rel.agal");
    std::fs::write(&src, &text).unwrap();
    let out = temp("rel.bin");
    assert_eq!(tgsi(&["agal-asm", "vertex", &src, "--agal-version", "2", "-o", &out]).0, 0);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&bin).unwrap());
    // Broken bytes: offset and reason, exit 1.
    let bad = temp("bad.bin");
    std::fs::write(&bad, [0xA0, 1, 0, 0, 0, 0xA1]).unwrap();
    let (code, _, err) = tgsi(&["agal-dis", &bad]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.bin:byte 6: error: ") && err.contains("[A3615]"), "{}", err);
}

#[test]
fn agal_export_writes_bytes_assembly_and_layout() {
    let src = temp("fs.tgsi");
    std::fs::write(&src, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.5, 0.0, 0.0, 0.0 }\n  MUL OUT[0], IN[0], IMM[0].xxxx\n  END\n").unwrap();
    let out = temp("fs.bin");
    let (code, text, err) = tgsi(&["agal", &src, "-o", &out, "--asm", "--layout"]);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(text, "// AGAL 1 fragment program\nmul oc, v2, fc0.x\nfc0 = IMM[0].x (0.5, 0, 0, 0)\nv2 = GENERIC[0]\noc = OUT[0] (COLOR[0])\n");
    let (code, dis, _) = tgsi(&["agal-dis", &out]);
    assert_eq!(code, 0);
    assert!(dis.ends_with("mul oc, v2, fc0.x\n"), "{}", dis);
    let (code, json, _) = tgsi(&["agal", &src, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["layout"]["constants"][0]["register"], "fc0");
}

#[test]
fn agal_export_refusal_is_a_located_diagnostic() {
    let src = temp("loop.tgsi");
    std::fs::write(&src, "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  BGNLOOP\n  BRK\n  ENDLOOP\n  MOV OUT[0], TEMP[0]\n  END\n").unwrap();
    let (code, _, err) = tgsi(&["agal", &src, "-o", &temp("loop.bin")]);
    assert_eq!(code, 1);
    assert!(err.contains("loop.tgsi:4:3: error: BGNLOOP: AGAL has no loops [A0200]"), "{}", err);
}

#[test]
fn agal_export_with_link_packs_varyings() {
    let vs = temp("pair.vs.tgsi");
    let fs = temp("pair.fs.tgsi");
    std::fs::write(&vs, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[9]\n  MOV OUT[0], IN[0]\n  MOV OUT[1], IN[0]\n  END\n").unwrap();
    std::fs::write(
        &fs,
        "FRAG\nDCL IN[0], GENERIC[9], PERSPECTIVE\nDCL OUT[0], COLOR\n  MOV OUT[0], IN[0]\n  END\n",
    )
    .unwrap();
    // Alone, GENERIC[9] would be v11, beyond every version's 10 varyings.
    assert_eq!(tgsi(&["agal", &fs, "--asm"]).0, 1);
    let (code, text, err) = tgsi(&["agal", &fs, "--link", &vs, "--asm"]);
    assert_eq!(code, 0, "{}", err);
    assert!(text.contains("mov oc, v0"), "{}", text);
    let (code, text, _) = tgsi(&["agal", &vs, "--link", &fs, "--asm"]);
    assert_eq!(code, 0);
    assert!(text.contains("mov v0, va0"), "{}", text);
}
