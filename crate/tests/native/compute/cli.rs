//! `tgsi run` end to end: a compute shader doubles a buffer read from a file and counts into an
//! atomic counter; the results written back are checked against the formulas here.

use std::process::Command;

fn dir(name: &str) -> std::path::PathBuf {
    crate::scratch::dir(&format!("compute-cli-{name}"))
}

pub(super) const DOUBLE: &str = "COMP
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

fn tgsi(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `--threads N` (docs/resources.md, "Threads"): the files and the printed words are one
/// thread's, the diagnostic of a budget that runs out too; standard error names the threads
/// used, and why one when blocks could see each other.
#[test]
fn run_threads_leave_one_threads_output() {
    let d = dir("threads");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let image_write = format!("{root}/programs/examples/image-write.cs.tgsi");
    let mut written = Vec::new();
    for (n, said) in [("1", "tgsi run: 1 thread\n"), ("3", "tgsi run: 3 threads\n")] {
        let out_file = d.join(format!("image-{n}.bin"));
        let image = format!("0=R8G8B8A8_UNORM,16x16:{}", out_file.display());
        let out = tgsi(&["run", &image_write, "--grid", "2,2", "--image", &image, "--threads", n]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stderr), said);
        written.push((text(&out.stdout), std::fs::read(&out_file).unwrap()));
    }
    assert_eq!(written[0], written[1]);
    // Every block writes texel (x, y) of its 8x8 invocations (THREAD_ID): (x, y) · 0.1429,
    // 0.5, 1 in UNORM8 (round(v · 255)); the rest of the 16x16 image stays zero.
    let unorm = |v: f32| (v * 255.0 + 0.5) as u8;
    let want: Vec<u8> = (0..16u32)
        .flat_map(|y| (0..16u32).map(move |x| (x, y)))
        .flat_map(|(x, y)| match x < 8 && y < 8 {
            true => [unorm(x as f32 * 0.1429), unorm(y as f32 * 0.1429), 128, 255],
            false => [0; 4],
        })
        .collect();
    assert_eq!(written[0].1, want);

    // Atomics keep one thread, and say so.
    let cs = d.join("double.tgsi");
    std::fs::write(&cs, DOUBLE).unwrap();
    let cs = cs.display().to_string();
    let out = tgsi(&[
        "run",
        &cs,
        "--grid",
        "4",
        "--buffer",
        "0=@128",
        "--atomic",
        "0=@4",
        "--threads",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("tgsi run: 1 thread (atomics"), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("HWATOMIC[0]: 32"), "{}", text(&out.stdout));

    // A budget that runs out: one thread's diagnostic and status whatever the count.
    let lp = format!("{root}/tests/snapshots/inputs/loop.tgsi");
    let stopped: Vec<_> = ["1", "4"]
        .iter()
        .map(|n| {
            let out = tgsi(&[
                "run",
                &lp,
                "--grid",
                "8",
                "--block",
                "1",
                "--budget",
                "5000",
                "--threads",
                n,
            ]);
            (out.status.code(), text(&out.stdout))
        })
        .collect();
    assert_eq!(stopped[0], stopped[1]);
    assert_eq!(stopped[0].0, Some(1));
    assert!(
        stopped[0].1.contains("stopped after 5000 instructions") && stopped[0].1.contains("[X005]")
    );

    // `--threads` takes 1 to 256, as `tgsi render --threads`.
    for bad in ["0", "257", "x", ""] {
        let out = tgsi(&["run", &lp, "--grid", "1", "--threads", bad]);
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        assert!(text(&out.stderr).contains("--threads"), "{}", text(&out.stderr));
    }
}
