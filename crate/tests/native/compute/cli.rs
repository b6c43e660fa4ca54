//! `tgsi run` end to end: a compute shader doubles a buffer read from a file and counts into an
//! atomic counter; the results written back are checked against the formulas here.

use std::process::Command;

fn dir(name: &str) -> std::path::PathBuf {
    crate::scratch::dir(&format!("compute-cli-{name}"))
}

const DOUBLE: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL HWATOMIC[0][0]
DCL TEMP[0..1]
IMM[0] UINT32 {4, 8, 1, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].yyyy, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
UADD TEMP[1].x, TEMP[1].xxxx, TEMP[1].xxxx
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx
ATOMUADD TEMP[1].x, HWATOMIC[0][0], IMM[0].wwww, IMM[0].zzzz
END
";

#[test]
fn run_writes_buffers_back() {
    let d = dir("double");
    let cs = d.join("double.tgsi");
    std::fs::write(&cs, DOUBLE).unwrap();
    let input: Vec<u32> = (0..16).map(|i| i * 3 + 1).collect();
    let inp = d.join("in.bin");
    let outp = d.join("out.bin");
    std::fs::write(&inp, input.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("run")
        .arg(&cs)
        .args(["--grid", "2"])
        .arg("--buffer")
        .arg(format!("0={}:{}", inp.display(), outp.display()))
        .args(["--atomic", "0=@4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&outp).unwrap();
    let got: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    assert_eq!(got, input.iter().map(|v| v * 2).collect::<Vec<_>>());
    // The counter has no output file, so it is printed: 16 invocations added 1 each.
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("HWATOMIC[0]: 16"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn run_reports_errors_and_usage() {
    let d = dir("errors");
    let cs = d.join("bad.tgsi");
    std::fs::write(&cs, "COMP\nDCL TEMP[0]\nEND\n").unwrap();
    // No block size anywhere: a dispatch diagnostic, exit 1.
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("run")
        .arg(&cs)
        .args(["--grid", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("X009"));
    // Missing --grid: usage, exit 2.
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi")).arg("run").arg(&cs).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("compute")
        .arg(&cs)
        .args(["--grid", "1", "--image", "0=NOPE,4x4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn run_binds_textures() {
    // TXF of texel (1, 0) of a 2×1 RGBA8 texture whose texel 1 is (255, 0, 255, 255): UNORM
    // gives (1, 0, 1, 1); F2U stores (1, 0, 1, 1).
    let d = dir("texture");
    let cs = d.join("fetch.tgsi");
    std::fs::write(
        &cs,
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL BUFFER[0]\nDCL TEMP[0]\nIMM[0] INT32 {1, 0, 0, 0}\n\
TXF TEMP[0], IMM[0], SAMP[0], 2D\nF2U TEMP[0], TEMP[0]\nSTORE BUFFER[0], IMM[0].yyyy, TEMP[0]\nEND\n",
    )
    .unwrap();
    let tex = d.join("tex.json");
    std::fs::write(
        &tex,
        r#"{"width": 2, "height": 1, "texels": [[0, 0, 0, 255], [255, 0, 255, 255]]}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("run")
        .arg(&cs)
        .args(["--grid", "1", "--buffer", "0=@16"])
        .arg("--texture")
        .arg(format!("0={}", tex.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("BUFFER[0]: 1 0 1 1"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `--const` takes the same syntax as `tgsi render` (one parser): raw bits in hex, floats,
/// a buffer index. The shader copies CONST[0][0] and CONST[1][2] into a buffer.
#[test]
fn run_accepts_the_render_constant_syntax() {
    let d = dir("consts");
    let cs = d.join("copy.tgsi");
    std::fs::write(
        &cs,
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL BUFFER[0]\nDCL CONST[0][0]\nDCL CONST[1][2]\n\
         IMM[0] UINT32 {0, 4, 8, 12}\n\
         STORE BUFFER[0].x, IMM[0].xxxx, CONST[0][0].xxxx\n\
         STORE BUFFER[0].x, IMM[0].yyyy, CONST[0][0].yyyy\n\
         STORE BUFFER[0].x, IMM[0].zzzz, CONST[1][2].zzzz\n\
         STORE BUFFER[0].x, IMM[0].wwww, CONST[1][2].wwww\nEND\n",
    )
    .unwrap();
    let outp = d.join("out.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("run")
        .arg(&cs)
        .args([
            "--grid",
            "1",
            "--const",
            "0:0=0x3f800000,0,0,0",
            "--const",
            "1:2=0,0,-2.5,0x7fc00001",
        ])
        .arg("--buffer")
        .arg(format!("0=@16:{}", outp.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&outp).unwrap();
    let got: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    // 0x3f800000 is 1.0's bits; -2.5 is 0xc0200000; a NaN payload passes unchanged.
    assert_eq!(got, [0x3f80_0000, 0, 0xc020_0000, 0x7fc0_0001]);
}
