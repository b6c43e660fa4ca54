//! The CLI's conventions (README "The `tgsi` command"): exit status 0 / 1 / 2 for every
//! subcommand (success / diagnostics / usage), never Rust's 101; shell completions for bash, zsh
//! and fish; `bench --json`; `render --target N` and `--depth` on a shader writing two colour
//! buffers and depth, with the expected values worked out by hand from its constants.

use std::process::Command;

fn tgsi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run tgsi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    crate::scratch::file("cli-conventions", name)
}

fn write(name: &str, text: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, text).expect("write scratch file");
    p
}

const GOOD_FS: &str = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0, 0.5, 0.25, 1.0 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
const BAD_FS: &str = "FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[7]\n  1: END\n";
const GOOD_CS: &str = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL BUFFER[0]\nIMM[0] UINT32 { 0, 7, 0, 0 }\n  0: STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy\n  1: END\n";

#[test]
fn every_subcommand_exits_0_1_or_2_as_documented() {
    let good = write("good.tgsi", GOOD_FS);
    let bad = write("bad.tgsi", BAD_FS);
    let syntax = write("syntax.tgsi", "FRAG\n  0: FOO OUT[0]\n");
    let cs = write("good_cs.tgsi", GOOD_CS);
    let png = tmp("out.png");
    let bin = tmp("out.bin");
    #[rustfmt::skip]
    let cases: &[(&[&str], i32)] = &[
        (&["fmt", &good], 0), (&["fmt", &syntax], 1), (&["fmt", "--style", "pretty", &good], 2),
        (&["check", &good], 0), (&["check", &bad], 1), (&["check"], 2),
        (&["render", &good, "--size", "4x4", "-o", &png], 0), (&["render", &bad, "-o", &png], 1),
        (&["render", &good], 2), (&["render", &good, "--target", "1", "-o", &png], 2),
        (&["trace", &good, "--size", "4x4", "--pixel", "1,1"], 0),
        (&["trace", &bad, "--pixel", "1,1"], 1), (&["trace", &good], 2),
        (&["run", &cs, "--grid", "1", "--buffer", "0=@4"], 0), (&["run", &bad, "--grid", "1"], 1),
        (&["run", &cs], 2), (&["compute", &cs, "--grid", "1", "--buffer", "0=@4"], 0),
        (&["bench", &good, "--size", "4x4", "--seconds", "0"], 0),
        (&["bench", &bad, "--seconds", "0"], 1), (&["bench", &good, "--seconds", "soon"], 2),
        (&["agal", &good, "-o", &bin], 0), (&["agal", &bad, "-o", &bin], 1), (&["agal", &good], 2),
        (&["agal-asm", "pixel", &good, "-o", &bin], 2), (&["agal-dis", &good], 1),
        (&["agal-dis"], 2), (&["completions", "bash"], 0), (&["completions", "tcsh"], 2),
        (&["explain", "add"], 0), (&["explain", "UDIV", "--lane", "1, 1 => 2"], 1),
        (&["explain", "frob"], 2), (&["explain"], 2), (&["explain", "--list"], 0),
        (&["--version"], 0), (&["version"], 0), (&["--help"], 0), (&["help", "render"], 0),
        (&[], 2), (&["frobnicate"], 2), (&["render", "--no-such-option", &good], 2),
    ];
    for (args, want) in cases {
        let (code, out, err) = tgsi(args);
        assert_eq!(code, *want, "tgsi {}:\n{out}\n{err}", args.join(" "));
        assert!(!err.contains("panicked"), "tgsi {}: {err}", args.join(" "));
    }
}

#[test]
fn old_spellings_still_work() {
    let good = write("spell.tgsi", GOOD_FS);
    let png = tmp("spell.png");
    // `--name=value`, a repeated option's last value, a negative number as a value, `-o` first.
    let args = [
        "render",
        "-o",
        &png,
        "--size=8x8",
        &good,
        "--size",
        "4x4",
        "--time",
        "-2",
        "--const=0:0=1,2,3,4",
    ];
    let (code, _, err) = tgsi(&args);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = tgsi(&["check", "--link", &good, &good]);
    assert_eq!(code, 1, "FS linked as a VS is a diagnostic, not a usage error: {err}");
}

#[test]
fn completions_are_produced_for_three_shells() {
    for shell in ["bash", "zsh", "fish"] {
        let (code, script, err) = tgsi(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        // Every subcommand and a render option are in each script.
        for word in ["render", "check", "agal-asm", "completions", "vs-const", "format"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[test]
fn bench_json_has_the_documented_fields() {
    let good = write("bench.tgsi", GOOD_FS);
    let (code, out, err) = tgsi(&["bench", &good, "--size", "8x8", "--seconds", "0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("bench --json prints JSON");
    // The default engine: the JIT in this (default-feature) build; the shader compiles.
    assert_eq!(v["engine"], "jit");
    assert_eq!(v["width"], 8);
    assert_eq!(v["height"], 8);
    assert!(v["frames"].as_u64().is_some_and(|f| f >= 1), "{out}");
    assert!(v["mpix_per_s"].as_f64().is_some_and(|m| m > 0.0), "{out}");
    assert!(v["ms_per_frame"].as_f64().is_some_and(|m| m > 0.0), "{out}");
    // MOV and END.
    assert_eq!(v["instructions"]["fs"], 2, "{out}");
    assert!(v["machine"]["cores"].as_u64().is_some_and(|c| c >= 1), "{out}");
    assert_eq!(v["machine"]["os"], std::env::consts::OS);
    assert_eq!(v["machine"]["arch"], std::env::consts::ARCH);
}

/// COLOR[0] = CONST[0][0], COLOR[1] = CONST[0][1] and depth = CONST[0][2].z (the fragment's
/// POSITION output) over the cube mesh (edge 1, centred, so it covers the middle of an 8x8
/// image and not its corners; the cube turns the depth test on).
const MRT_FS: &str = "FRAG
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], POSITION
DCL CONST[0..2]
  0: MOV OUT[0], CONST[0]
  1: MOV OUT[1], CONST[1]
  2: MOV OUT[2], CONST[2]
  3: END
";

/// Passes the mesh's position through.
const PASS_VS: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
  0: MOV OUT[0], IN[0]
  1: END
";

fn floats(path: &str) -> Vec<f32> {
    std::fs::read(path)
        .expect("output written")
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn render_writes_any_colour_target_and_the_depth_buffer() {
    let fs = write("mrt.tgsi", MRT_FS);
    let vs = write("mrt.vs.tgsi", PASS_VS);
    let render = |target: &str, out: &str, depth: &str| {
        let (code, _, err) = tgsi(&[
            "render",
            &fs,
            "--vs",
            &vs,
            "--mesh",
            "cube",
            "--size",
            "8x8",
            "--const",
            "0:0=0.25,0.5,0.75,1",
            "--const",
            "0:1=1,0,0.5,1",
            "--const",
            "0:2=0,0,0.375,1",
            "--target",
            target,
            "--depth",
            depth,
            "-o",
            out,
        ]);
        assert_eq!(code, 0, "{err}");
    };
    let (c0, c1, d) = (tmp("c0.f32"), tmp("c1.f32"), tmp("depth.f32"));
    render("0", &c0, &d);
    render("1", &c1, &tmp("depth.png"));
    let (c0, c1, d) = (floats(&c0), floats(&c1), floats(&d));
    let centre = 4 * 8 + 4; // pixel (4, 4), rows top first
    let corner = 0;
    assert_eq!(&c0[centre * 4..centre * 4 + 4], &[0.25, 0.5, 0.75, 1.0]);
    assert_eq!(&c1[centre * 4..centre * 4 + 4], &[1.0, 0.0, 0.5, 1.0]);
    assert_eq!(&c1[corner * 4..corner * 4 + 4], &[0.0; 4], "cleared to 0 outside the cube");
    assert_eq!(d.len(), 64, "one float per pixel");
    assert_eq!(d[centre], 0.375);
    assert_eq!(d[corner], 1.0, "the depth buffer is cleared to 1.0");
    // The PNG: grey = round(depth * 255): 0.375 * 255 = 95.625 → 96; 1.0 → 255.
    let png = tgsi_png(&tmp("depth.png"));
    assert_eq!(png[centre], [96, 96, 96, 255]);
    assert_eq!(png[corner], [255, 255, 255, 255]);
}

fn tgsi_png(path: &str) -> Vec<[u8; 4]> {
    tgsi::render::image_io::read_png(path).expect("a PNG").pixels
}

/// Every bad program of the parser's suite (tests/diagnostics/) in all three formats: the same
/// diagnostics (count, codes, positions) whatever the format, every JSON line in the documented
/// schema, and a rich excerpt for each.
#[test]
fn the_three_formats_report_the_same_diagnostics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/diagnostics");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/diagnostics")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tgsi"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the suite is there");
    for f in files {
        let path = f.to_string_lossy().into_owned();
        let (short_code, short, _) = tgsi(&["check", "--format", "short", &path]);
        let (json_code, json, _) = tgsi(&["check", "--format", "json", &path]);
        let (rich_code, rich, _) = tgsi(&["check", "--format", "rich", &path]);
        assert!(short_code == json_code && json_code == rich_code, "{path}: statuses differ");
        assert!(short_code == 0 || short_code == 1, "{path}: status {short_code}");
        let objects: Vec<serde_json::Value> = json
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
            .collect();
        for o in &objects {
            for key in ["file", "code", "severity", "message", "span", "labels", "notes", "help"] {
                assert!(o.get(key).is_some(), "{path}: no {key} in {o}");
            }
            // The short line of the same diagnostic: FILE:LINE:COL: severity: message [CODE].
            let line = format!(
                "{}:{}:{}: {}: {} [{}]",
                path,
                o["span"]["line"],
                o["span"]["column"],
                o["severity"].as_str().unwrap_or_default(),
                o["message"].as_str().unwrap_or_default(),
                o["code"].as_str().unwrap_or_default()
            );
            assert!(short.lines().any(|l| l == line), "{path}: short lacks {line}\n{short}");
            // Rich: the title and the place.
            let title = format!(
                "{}[{}]: {}",
                o["severity"].as_str().unwrap_or_default(),
                o["code"].as_str().unwrap_or_default(),
                o["message"].as_str().unwrap_or_default()
            );
            let at = format!("--> {}:{}:{}", path, o["span"]["line"], o["span"]["column"]);
            assert!(rich.contains(&title) && rich.contains(&at), "{path}: rich lacks {title} {at}");
        }
        let titles = rich
            .lines()
            .filter(|l| {
                l.starts_with("error[") || l.starts_with("warning[") || l.starts_with("note[")
            })
            .count();
        assert_eq!(titles, objects.len(), "{path}: one rich report per diagnostic\n{rich}");
    }
}
