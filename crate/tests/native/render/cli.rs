//! `tgsi render` and `tgsi bench` as scripts use them: output formats and orientation, constant
//! syntax, fragment-only inputs, diagnostics and exit statuses.

use std::process::Command;

const CORPUS: &str = corpus!("/softpipe");

fn tgsi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi")).args(args).output().expect("run tgsi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    crate::scratch::file("render-cli", name)
}

fn write(name: &str, text: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn floats(path: &str) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn f32_output_starts_with_the_top_row_and_hex_constants_are_exact() {
    // 00_inputs with gl_FbWposYTransform given as raw bits; Mesa's .f32 has row 0 at the bottom.
    let out = tmp("inputs.f32");
    let fs = format!("{}/00_inputs.tgsi", CORPUS);
    let vs = format!("{}/00_inputs.vs.tgsi", CORPUS);
    let (code, _, err) = tgsi(&[
        "render",
        &fs,
        "--vs",
        &vs,
        "--size",
        "64x64",
        "--const",
        "0:0=0x3f800000,0x00000000,0xbf800000,0x42800000",
        "-o",
        &out,
    ]);
    assert_eq!(code, 0, "{}", err);
    let ours = floats(&out);
    let theirs = floats(&format!("{}/00_inputs.f32", CORPUS));
    assert_eq!(ours.len(), 64 * 64 * 4);
    for y in 0..64 {
        let a = &ours[y * 256..(y + 1) * 256];
        let b = &theirs[(63 - y) * 256..(64 - y) * 256];
        assert!(
            a.iter().zip(b).all(|(p, q)| p.to_bits() == q.to_bits()),
            "row {} from the top differs",
            y
        );
    }
}

#[test]
fn fragment_only_png_and_f32() {
    // No --vs: GENERIC[0] reads (u, v, 0, 1) with u = (x+0.5)/W, v = (y+0.5)/H, y from the bottom.
    let fs = write(
        "uv.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
    );
    let f32_path = tmp("uv.f32");
    let (code, _, err) = tgsi(&["render", &fs, "--size", "16x8", "-o", &f32_path]);
    assert_eq!(code, 0, "{}", err);
    let px = floats(&f32_path);
    // First pixel of the file = top-left: u = 0.5/16, v = 7.5/8.
    assert_eq!(&px[0..4], &[0.5 / 16.0, 7.5 / 8.0, 0.0, 1.0]);
    // Last pixel = bottom-right: u = 15.5/16, v = 0.5/8.
    assert_eq!(&px[px.len() - 4..], &[15.5 / 16.0, 0.5 / 8.0, 0.0, 1.0]);
    let png_path = tmp("uv.png");
    let (code, _, err) = tgsi(&["render", &fs, "--size", "16x8", "-o", &png_path]);
    assert_eq!(code, 0, "{}", err);
    let img = tgsi::render::image_io::read_png(&png_path).unwrap();
    assert_eq!((img.width, img.height), (16, 8));
    // Top-left: round(255·0.03125) = 8, round(255·0.9375) = 239.
    assert_eq!(img.pixels[0], [8, 239, 0, 255]);
}

#[test]
fn default_size_is_256() {
    let fs = write(
        "red.tgsi",
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n",
    );
    let out = tmp("red.f32");
    let (code, _, err) = tgsi(&["render", &fs, "-o", &out]);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 256 * 256 * 16);
}

#[test]
fn errors_are_diagnostics_with_status_1() {
    let bad = write("bad.tgsi", "FRAG\nDCL OUT[0], COLOR\nFOO OUT[0], IN[0]\nEND\n");
    let (code, _, err) = tgsi(&["render", &bad, "-o", &tmp("bad.png")]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.tgsi:3:"), "{}", err);
    assert!(err.contains("error"), "{}", err);

    // A vertex shader given where a fragment shader is expected.
    let vs = format!("{}/01_arith.vs.tgsi", CORPUS);
    let (code, _, err) = tgsi(&["render", &vs, "-o", &tmp("x.png")]);
    assert_eq!(code, 1);
    assert!(err.contains("[R100]"), "{}", err);

    // The instruction budget stops an endless loop (one quad keeps this fast).
    let endless = write("loop.tgsi", "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nBGNLOOP\nADD TEMP[0], TEMP[0], TEMP[0]\nENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n");
    let (code, _, err) =
        tgsi(&["render", &endless, "--size", "2x2", "--budget", "100000", "-o", &tmp("loop.png")]);
    assert_eq!(code, 1);
    assert!(err.contains("loop.tgsi:") && err.contains("X005"), "{}", err);

    // A broken geometry shader is reported against its own file.
    let (code, _, err) =
        tgsi(&["render", &format!("{}/01_arith.tgsi", CORPUS), "--gs", &bad, "-o", &tmp("g.png")]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.tgsi:3"), "{}", err);
}

#[test]
fn usage_problems_are_status_2() {
    let fs = format!("{}/01_arith.tgsi", CORPUS);
    assert_eq!(tgsi(&["render", &fs]).0, 2);
    assert_eq!(tgsi(&["render", &fs, "-o", &tmp("a.bmp")]).0, 2);
    assert_eq!(tgsi(&["render", &fs, "--const", "0:1=0x12", "-o", &tmp("a.png")]).0, 2);
    assert_eq!(tgsi(&["render", &fs, "--size", "0x4", "-o", &tmp("a.png")]).0, 2);
    assert_eq!(tgsi(&["render", &fs, "--bogus", "1", "-o", &tmp("a.png")]).0, 2);
}

#[test]
fn meshes_with_a_vertex_shader() {
    // The cube through an identity vertex shader: the −z face (nearest) covers the centre.
    let vs = write("cube.vs.tgsi", "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nEND\n");
    let fs = write(
        "normal.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
    );
    let out = tmp("cube.f32");
    let (code, _, err) =
        tgsi(&["render", &fs, "--vs", &vs, "--mesh", "cube", "--size", "8x8", "-o", &out]);
    assert_eq!(code, 0, "{}", err);
    let px = floats(&out);
    let centre = ((3 * 8) + 3) * 4;
    assert_eq!(&px[centre..centre + 4], &[0.0, 0.0, -1.0, 0.0]);
    assert_eq!(&px[0..4], &[0.0; 4], "corner outside the cube");
    let (code, _, err) =
        tgsi(&["render", &fs, "--vs", &vs, "--mesh", "teapot", "-o", &tmp("t.png")]);
    assert_eq!(code, 1);
    assert!(err.contains("R002"), "{}", err);
}

#[test]
fn bench_prints_mpix_last() {
    let fs = format!("{}/01_arith.tgsi", CORPUS);
    let vs = format!("{}/01_arith.vs.tgsi", CORPUS);
    let (code, stdout, err) =
        tgsi(&["bench", &fs, "--vs", &vs, "--size", "32x32", "--seconds", "0"]);
    assert_eq!(code, 0, "{}", err);
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("Mpix/s: "), "{}", stdout);
    assert!(last["Mpix/s: ".len()..].trim().parse::<f64>().unwrap() > 0.0);
    assert!(stdout.contains("frames: "));
}

#[test]
fn bench_takes_an_rgba8_format() {
    let fs = format!("{}/01_arith.tgsi", CORPUS);
    let vs = format!("{}/01_arith.vs.tgsi", CORPUS);
    let (code, stdout, err) = tgsi(&[
        "bench",
        &fs,
        "--vs",
        &vs,
        "--size",
        "32x32",
        "--seconds",
        "0",
        "--format",
        "rgba8",
    ]);
    assert_eq!(code, 0, "{}", err);
    assert!(stdout.contains("format: rgba8"), "{}", stdout);
    assert!(stdout.lines().last().unwrap_or("").starts_with("Mpix/s: "), "{}", stdout);
    let (code, stdout, _) = tgsi(&["bench", &fs, "--vs", &vs, "--size", "32x32", "--seconds", "0"]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("format:"), "the default is the RGBA32F figure: {}", stdout);
    let (code, _, err) = tgsi(&["bench", &fs, "--format", "rgb565"]);
    assert_eq!(code, 2);
    assert!(err.contains("--format"), "{}", err);
}

#[test]
fn textures_are_read_upright() {
    // A 2x2 PNG, top row red | green, bottom row blue | white. Sampling each pixel centre of a
    // 2x2 fragment-only frame with NEAREST gives the image back: the file's top row is t = 1.
    let rgba = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255];
    let png = tmp("tex.png");
    std::fs::write(&png, tgsi::render::image_io::encode_png(2, 2, &rgba).unwrap()).unwrap();
    let fs = write("tex.tgsi", "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[1]\nDCL SVIEW[1], 2D, FLOAT\nTEX OUT[0], IN[0], SAMP[1], 2D\nEND\n");
    let out = tmp("tex.f32");
    let spec = format!("1={},nearest,clamp", png);
    let (code, _, err) = tgsi(&["render", &fs, "--size", "2x2", "--texture", &spec, "-o", &out]);
    assert_eq!(code, 0, "{}", err);
    let px = floats(&out);
    let expected: Vec<f32> = rgba.iter().map(|&b| b as f32 / 255.0).collect();
    assert_eq!(px, expected);
    // A missing file is a usage/I-O problem.
    let (code, _, _) = tgsi(&["render", &fs, "--texture", "0=/nonexistent.png", "-o", &out]);
    assert_eq!(code, 2);
}

#[test]
fn missing_vertex_outputs_warn_and_still_render() {
    // The vertex shader writes only POSITION; the fragment shader's GENERIC[0] reads
    // (0, 0, 0, 1), with the validator's L001 as a warning pointing into the fragment shader.
    let vs = write(
        "pos_only.vs.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n",
    );
    let fs = write(
        "uv_copy.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
    );
    let out = tmp("missing.f32");
    let (code, _, err) = tgsi(&["render", &fs, "--vs", &vs, "--size", "4x4", "-o", &out]);
    assert_eq!(code, 0, "{}", err);
    assert!(
        err.contains("uv_copy.tgsi:2:") && err.contains("warning") && err.contains("L001"),
        "{}",
        err
    );
    assert_eq!(&floats(&out)[0..4], &[0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn each_stage_reads_its_own_constants() {
    // The vertex shader passes CONST[0][0] + CONST[0][1] as a flat varying; the fragment shader
    // adds CONST[0][0] · CONST[0][1] of its own store. `--const` sets slot 1 = 2 for every
    // stage, `--fs-const` overrides it with 0.5 in the fragment stage (given before `--const`:
    // a stage's own values win whatever the order), and each stage has its own slot 0.
    // By hand: VS (1, 2, 3, 4) + (2, 2, 2, 2) = (3, 4, 5, 6);
    // FS (10, 20, 30, 40) · 0.5 = (5, 10, 15, 20); sum (8, 14, 20, 26) on every pixel.
    let vs = write(
        "consts.vs.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL CONST[0][0..1]\n\
         MOV OUT[0], IN[0]\nADD OUT[1], CONST[0][0], CONST[0][1]\nEND\n",
    );
    let fs = write(
        "consts.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL CONST[0][0..1]\n\
         DCL TEMP[0]\nMUL TEMP[0], CONST[0][0], CONST[0][1]\nADD OUT[0], IN[0], TEMP[0]\nEND\n",
    );
    let out = tmp("consts.f32");
    let (code, _, err) = tgsi(&[
        "render",
        &fs,
        "--vs",
        &vs,
        "--size",
        "4x2",
        "--vs-const",
        "0:0=1,2,3,4",
        "--fs-const",
        "0:1=0.5,0.5,0.5,0.5",
        "--const",
        "0:1=2,2,2,2",
        "--fs-const",
        "0=10,20,30,40",
        "-o",
        &out,
    ]);
    assert_eq!(code, 0, "{}", err);
    let px = floats(&out);
    assert_eq!(px.len(), 4 * 2 * 4);
    for p in px.chunks(4) {
        assert_eq!(p, [8.0, 14.0, 20.0, 26.0]);
    }
    // The same parser as --const: a bad value is a usage error.
    let (code, _, err) =
        tgsi(&["render", &fs, "--vs", &vs, "--vs-const", "0:0=x", "-o", &tmp("c.png")]);
    assert_eq!(code, 2);
    assert!(err.contains("bad constant value 'x'"), "{}", err);
}

/// A bad constant and a bad texture description read the same from the CLI as from the shared
/// entry the page's engine calls (`render::options::read`): the same codes and messages, in
/// `render --format json` and in `bench`'s short lines, and a usage error (2) either way.
#[test]
fn bad_constants_and_textures_are_the_shared_entrys_diagnostics() {
    use tgsi::render::{
        job::Request,
        options::{read, RenderOptions},
    };
    use tgsi::texture::desc::{TextureData, TextureSpec};
    let fs = write(
        "opts.tgsi",
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1, 0, 0, 1 }\nMOV OUT[0], IMM[0]\nEND\n",
    );
    let bad_json = r#"{"width": 2, "height": 1, "texels": [[0, 0, 0, 0]]}"#;
    let texture = write("opts.json", bad_json);
    let (consts, fs_consts) = (vec!["0:1=1,x".to_string()], vec!["40000=1".to_string()]);
    let specs = [TextureSpec {
        unit: 2,
        data: TextureData::Description(bad_json.to_string()),
        options: vec!["nearest".into()],
        images: None,
    }];
    let shared = read(&RenderOptions {
        frame: Request { fs: "", width: 4, height: 4, ..Request::default() },
        consts: &consts,
        fs_consts: &fs_consts,
        textures: &specs,
        ..RenderOptions::default()
    });
    let want: Vec<(String, String)> = shared
        .diagnostics
        .iter()
        .map(|d| (d.diagnostic.code.to_string(), d.diagnostic.message.clone()))
        .collect();
    let codes: Vec<&str> = want.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, ["R004", "R004", "R005"], "{want:?}");
    let binding = format!("2={texture},nearest");
    let flags = ["--const", "0:1=1,x", "--fs-const", "40000=1", "--texture", binding.as_str()];
    let png = tmp("opts.png");
    let mut args = vec!["render", "--format", "json", fs.as_str(), "-o", png.as_str()];
    args.extend(flags);
    let (code, _, err) = tgsi(&args);
    assert_eq!(code, 2, "{err}");
    let got: Vec<(String, String)> = err
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
            (
                v["code"].as_str().unwrap_or("").to_string(),
                v["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(got, want, "{err}");
    let mut args = vec!["bench", fs.as_str(), "--seconds", "0"];
    args.extend(flags);
    let (code, _, err) = tgsi(&args);
    assert_eq!(code, 2, "{err}");
    let lines: Vec<String> =
        want.iter().map(|(c, m)| format!("tgsi bench: error: {m} [{c}]")).collect();
    assert_eq!(err.lines().collect::<Vec<_>>(), lines, "{err}");
}

#[test]
fn vertices_files_and_their_problems() {
    let vs = write("v.vs.tgsi", "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n");
    let fs = write(
        "v.tgsi",
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1, 0, 0, 1 }\nMOV OUT[0], IMM[0]\nEND\n",
    );
    let good = write(
        "good.vertices.json",
        r#"{"attributes": [{"name": "p", "location": 0, "components": 2}],
            "vertices": [{"p": [-1, -1]}, {"p": [1, -1]}, {"p": [-1, 1]}]}"#,
    );
    // Both a mesh and a vertices file, or a file that is not there: usage (2).
    let png = tmp("v.png");
    let args = ["render", &fs, "--vs", &vs, "--mesh", "quad", "--vertices", &good, "-o", &png];
    let (code, _, err) = tgsi(&args);
    assert_eq!(code, 2, "{}", err);
    assert!(err.contains("either --mesh or --vertices"), "{}", err);
    let missing = tmp("no-such.vertices.json");
    assert_eq!(tgsi(&["render", &fs, "--vs", &vs, "--vertices", &missing, "-o", &png]).0, 2);
    // Without a vertex shader: a diagnostic (1).
    let (code, _, err) = tgsi(&["render", &fs, "--vertices", &good, "-o", &png]);
    assert_eq!(code, 1);
    assert!(err.contains("R003"), "{}", err);
    // A bad file: FILE:LINE:COL (1). Line 2 column 14 is the 'x' where a number should be.
    let bad = write("bad.vertices.json", "{\"attributes\": [],\n \"vertices\": x}");
    let (code, _, err) = tgsi(&["render", &fs, "--vs", &vs, "--vertices", &bad, "-o", &png]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("{bad}:2:14: error: ")) && err.contains("[R006]"), "{}", err);
    // The lower-left triangle, red below the diagonal of an 8x8 frame, with `trace` too.
    let (code, _, err) =
        tgsi(&["render", &fs, "--vs", &vs, "--vertices", &good, "--size", "8x8", "-o", &png]);
    assert_eq!(code, 0, "{}", err);
    let (code, text, err) =
        tgsi(&["trace", &fs, "--vs", &vs, "--vertices", &good, "--size", "8x8", "--pixel", "1,6"]);
    assert_eq!(code, 0, "{}", err);
    assert!(text.contains("MOV OUT[0], IMM[0]"), "{}", text);
}

#[test]
fn an_output_declared_twice_word_for_word_draws_as_declared_once() {
    // Mesa's shape (issue: 64-bit varyings sharing an output): OUT[2], GENERIC[1] again after
    // OUT[3]. The fragment shader copies the flat GENERIC[1], which the vertex shader sets to
    // IMM[0].yxzw = (0.25, 0.5, 0, 1) on every vertex: every pixel of the full-window quad holds
    // exactly that, drawn with the repeat or without it, by either engine, and the warning
    // names the repeat.
    let body = "IMM[0] FLT32 {0.5, 0.25, 0.0, 1.0}\nMOV OUT[0], IN[0]\nMOV OUT[2], IMM[0].yxzw\n\
                MOV OUT[3], IMM[0].wzyx\nEND\n";
    let head =
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[2], GENERIC[1]\nDCL OUT[3], GENERIC[2]\n";
    let twice = write("twice.vs.tgsi", &format!("{head}DCL OUT[2], GENERIC[1]\n{body}"));
    let once = write("once.vs.tgsi", &format!("{head}{body}"));
    let fs = write(
        "flat.tgsi",
        "FRAG\nDCL IN[0], GENERIC[1], CONSTANT\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
    );
    let mut pictures = Vec::new();
    for (vs, engine) in [(&twice, "interp"), (&twice, "jit"), (&once, "interp")] {
        let out = tmp(&format!("twice-{engine}-{}.f32", pictures.len()));
        let args =
            ["render", &fs, "--vs", vs, "--mesh", "quad", "--size", "4x4", "--engine", engine];
        let (code, _, err) = tgsi(&[&args[..], &["-o", &out]].concat());
        assert_eq!(code, 0, "{}", err);
        if vs == &twice {
            assert!(
                err.contains("[V014]") && err.contains("declared again, word for word"),
                "{}",
                err
            );
        }
        let px = floats(&out);
        assert_eq!(px.len(), 4 * 4 * 4);
        for p in px.chunks_exact(4) {
            assert_eq!(p, &[0.25, 0.5, 0.0, 1.0]);
        }
        pictures.push(px);
    }
}

#[test]
fn threads_draw_the_same_file_and_a_bad_count_is_a_usage_error() {
    // 26_mandelbrot at a size whose rows do not divide into the bands evenly.
    let fs = format!("{}/26_mandelbrot.tgsi", CORPUS);
    let mut files = Vec::new();
    for threads in ["1", "2", "5"] {
        let out = tmp(&format!("threads-{threads}.f32"));
        let (status, _, err) =
            tgsi(&["render", &fs, "--size", "70x45", "--threads", threads, "-o", &out]);
        assert_eq!(status, 0, "{threads} threads: {err}");
        files.push(std::fs::read(&out).unwrap());
    }
    assert!(files[1] == files[0] && files[2] == files[0], "the same bytes on 1, 2 and 5 threads");
    for bad in ["0", "257", "two", "-1"] {
        let (status, _, err) = tgsi(&["render", &fs, "--threads", bad, "-o", &tmp("bad.png")]);
        assert_eq!(status, 2, "--threads {bad}");
        assert!(
            err.contains(&format!("--threads: '{bad}' is not a whole number from 1 to 256")),
            "{err}"
        );
    }
    // bench --json says how many bands it drew side by side (2 threads, 45 rows = 3 tile rows:
    // bands of ⌈3 / 2⌉ = 2 tile rows, so 2 bands).
    let (status, out, err) =
        tgsi(&["bench", &fs, "--size", "70x45", "--seconds", "0", "--threads", "2", "--json"]);
    assert_eq!(status, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("bench --json");
    assert_eq!(json["threads"], 2);
}
