//! The findings of the resource review, each bounded by a limit of `tgsi::limits` and checked
//! through the limit's error or the budget counter (never the wall clock). Each test says how
//! the code before the limit behaved.

use std::process::Command;
use tgsi::limits;
use tgsi::render::job::{prepare, run_into, Request};

fn tgsi(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().expect("tgsi runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn scratch(name: &str, text: &str) -> String {
    let p = crate::scratch::file("limits", name);
    std::fs::write(&p, text).expect("write");
    p
}

/// Finding 1: the budget was per batch and reset for every batch, so a loop that each batch
/// finishes under the budget made a big render take minutes. Now the budget is the frame's:
/// 200 iterations per pixel need about 1000 instructions per batch (5 per iteration) — well
/// under a budget of 10 000 per batch, so the old code drew all 256x256 pixels — but the
/// frame's 32 batches of 512 quads need about 32 000 together, so the render stops with X005.
#[test]
fn the_budget_is_the_whole_frames() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 200.0, 0.0, 0.0}\n\
              MOV TEMP[0], IMM[0].zzzz\nBGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n\
              SGE TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\nIF TEMP[0].yyyy\nBRK\nENDIF\nENDLOOP\n\
              MOV OUT[0], TEMP[0]\nEND\n";
    let req = Request { fs, width: 256, height: 256, ..Default::default() };
    let (job, diags) = prepare(&req);
    let job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let mut fb = tgsi::render::framebuffer::Framebuffer::new(256, 256, 1).expect("framebuffer");
    let mut hooks = tgsi::exec::NoTextures;
    let small = run_into(&job, &mut fb, None, &mut hooks, 10_000);
    assert_eq!(small.err().map(|d| d.diagnostic.code), Some("X005"));
    // With the default frame budget the same render completes.
    let whole = run_into(&job, &mut fb, None, &mut hooks, job.default_budget());
    assert!(whole.is_ok(), "{:?}", whole.err().map(|d| d.diagnostic.message));
    // The CLI takes it as --budget, and writes the partial image with exit status 1.
    let path = scratch("frame.tgsi", fs);
    let png = crate::scratch::file("limits", "frame.png");
    let (code, text) =
        tgsi(&["render", &path, "--size", "256x256", "--budget", "10000", "-o", &png]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("X005"), "{text}");
    assert!(std::fs::metadata(&png).is_ok(), "the partial image is written");
}

/// Finding 2: `tgsi run --budget 18446744073709551615` on an endless loop hung. A budget over
/// limits::MAX_BUDGET is a usage error now (exit 2, before anything runs).
#[test]
fn budgets_are_capped() {
    let cs = scratch(
        "endless.tgsi",
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\nBGNLOOP\nENDLOOP\nEND\n",
    );
    let (code, text) = tgsi(&["run", &cs, "--grid", "1", "--budget", "18446744073709551615"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("limit"), "{text}");
    let fs = scratch("fs.tgsi", "FRAG\nDCL OUT[0], COLOR\nEND\n");
    let over = (tgsi::limits::MAX_BUDGET + 1).to_string();
    let (code, _) = tgsi(&["render", &fs, "--budget", &over, "-o", "/dev/null.png"]);
    assert_eq!(code, 2);
    // Within the cap, the endless loop stops at the budget (the whole dispatch's).
    let (code, text) = tgsi(&["run", &cs, "--grid", "4", "--budget", "5000"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("X005"), "{text}");
}

/// Finding 3: the pixel cap ignored the outputs: 8192x8192 with 8 colour outputs reached
/// ~9.7 GB. The framebuffer's bytes are checked before it is allocated (R001).
#[test]
fn framebuffer_bytes_are_checked_before_allocating() {
    let mut fs = String::from("FRAG\n");
    for k in 0..8 {
        fs.push_str(&format!("DCL OUT[{k}], COLOR[{k}]\n"));
    }
    fs.push_str("END\n");
    let req = Request { fs: &fs, width: 8192, height: 8192, ..Default::default() };
    let (job, diags) = prepare(&req);
    assert!(job.is_none());
    assert!(diags.iter().any(|d| d.diagnostic.code == "R001"), "{diags:?}");
    assert!(tgsi::render::framebuffer::Framebuffer::check_bytes(
        8192,
        8192,
        8,
        tgsi::render::framebuffer::Format::Rgba32F
    )
    .is_err());
    // One target at that size fits.
    assert!(tgsi::render::framebuffer::Framebuffer::check_bytes(
        8192,
        8192,
        1,
        tgsi::render::framebuffer::Format::Rgba32F
    )
    .is_ok());
}

/// Finding 4: a few kilobytes of description (many large textures) allocated 1.75 GB, and a
/// multi-texture file was refused only after every texture was built. The bytes of all its
/// textures are counted from the description first.
#[test]
fn texture_bytes_are_counted_before_allocating() {
    // Eight 2048x2048 textures with their mip chains: 8 × 5.6 M texels × 16 bytes = 716 MB,
    // each under the one-texture limit, together over limits::MAX_TEXTURE_BYTES.
    let one = r#"{"target": "2D", "format": "RGBA8", "width": 2048, "height": 2048, "levels": 12, "texels": [[0,0,0,0]]}"#;
    let json = format!(r#"{{"textures": [{}]}}"#, [one; 8].join(","));
    assert!(json.len() < 2000);
    let loader = |_: &str| Err("no files".to_string());
    let err = tgsi::texture::desc::parse_all(&json, &loader).err().unwrap_or_default();
    assert!(err.contains("MiB in all"), "{err}");
}

/// Finding 5: 50 MB of input used 1–2.3 GB; one input gave 3.5 million diagnostics. Input
/// bytes are checked before parsing (P013) and diagnostics are capped with a last note.
#[test]
fn input_bytes_and_diagnostics_are_capped() {
    let big = "; padding\n".repeat((limits::MAX_INPUT_BYTES as usize / 10) + 1);
    let parsed = tgsi::text::parse(&big);
    assert!(parsed.shader.is_none());
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].code, "P013");
    // 5000 bad lines: the first 1000 diagnostics, then one note counting the rest.
    let bad = format!("FRAG\n{}END\n", "FOO TEMP[0]\n".repeat(5000));
    let parsed = tgsi::text::parse(&bad);
    assert_eq!(parsed.diagnostics.len(), limits::MAX_DIAGNOSTICS + 1);
    assert_eq!(parsed.diagnostics.last().map(|d| d.code), Some("D001"));
}

/// The texture bytes of one render are counted across all its units and files: three textures
/// of 50x50 texels (stored as 4 floats, 16 bytes each: 40 000 bytes apiece) under a job budget
/// of 100 000 bytes — the first two bind, the third is refused before its texels are built.
#[test]
fn texture_bytes_are_counted_across_a_job() {
    use tgsi::texture::desc::{parse_all_charged, TextureBytes};
    let texels = vec!["[1,2,3,4]"; 50 * 50].join(",");
    let json = format!(
        r#"{{"target": "2D", "format": "RGBA8", "width": 50, "height": 50, "texels": [{texels}]}}"#
    );
    let loader = |_: &str| Err("no files".to_string());
    let mut job = TextureBytes::new(100_000);
    assert!(parse_all_charged(&json, &loader, &mut job).is_ok());
    assert!(parse_all_charged(&json, &loader, &mut job).is_ok());
    let err = parse_all_charged(&json, &loader, &mut job).err().unwrap_or_default();
    assert!(
        err.contains("more than 100000 bytes in all (the limit of one render's textures)"),
        "{err}"
    );
    // A fresh job has the whole budget again.
    assert!(parse_all_charged(&json, &loader, &mut TextureBytes::new(100_000)).is_ok());
}
