//! The trace of a pixel shows what the image holds: for every softpipe corpus shader (rendered
//! as the conformance suite renders it), the last values the trace records for the colour
//! output at a set of pixels are, bit for bit, the image's pixels there (and the conformance
//! suite compares those pixels with softpipe's).

use crate::conformance::{constants_of, corpus_textures};
use tgsi::render::inspect::trace_pixel;
use tgsi::render::job::{prepare, run, Request};

const PIXELS: &[(u32, u32)] = &[(0, 0), (63, 63), (17, 42), (31, 5), (40, 40), (1, 62)];

#[test]
fn traced_outputs_are_the_rendered_pixels() {
    let dir = corpus!("/softpipe");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("corpus")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tgsi") && !n.ends_with(".vs.tgsi"))
        .map(|n| n.trim_end_matches(".tgsi").to_string())
        .collect();
    names.sort();
    let mut compared = 0;
    for name in &names {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}{ext}")).expect("read");
        let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        let req = Request {
            fs: &fs,
            vs: Some(&vs),
            mesh: Some("fullscreen"),
            width: 64,
            height: 64,
            constants: constants_of(&json),
            ..Request::default()
        };
        let (job, diags) = prepare(&req);
        let job = job.unwrap_or_else(|| panic!("{name}: {diags:?}"));
        let budget = tgsi::limits::DEFAULT_FRAME_BUDGET;
        let image = run(&job, None, &mut corpus_textures(&json), budget).expect("renders");
        for &(x, y) in PIXELS {
            let t = trace_pixel(&job, x, y, &mut corpus_textures(&json), budget)
                .unwrap_or_else(|e| panic!("{name} ({x}, {y}): {}", e.diagnostic.message));
            assert!(!t.trace.steps.is_empty() && !t.truncated, "{name}");
            // A killed pixel keeps the clear colour whatever the shader wrote before KILL.
            let killed = t.trace.steps.last().is_some_and(|s| s.kill_mask >> t.lane & 1 != 0);
            if killed {
                continue;
            }
            let color = t
                .outputs
                .iter()
                .find(|o| o.semantic.as_ref().is_some_and(|(n, i)| n == "COLOR" && *i == 0))
                .unwrap_or_else(|| panic!("{name}: no COLOR output"));
            let want = image.framebuffer.pixel_from_top(x, y).map(f32::to_bits);
            assert_eq!(color.bits, want, "{name} at ({x}, {y}), lane {}", t.lane);
            compared += 1;
        }
    }
    assert!(compared >= 100, "only {compared} pixels compared");
}

/// Each step records the bits before and after for the channels it wrote, and the steps chain:
/// a channel's "before" is the previous write's "after".
#[test]
fn steps_record_before_and_after() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
              IMM[0] FLT32 {2.0, 0.5, 0.0, 1.0}\n  0: MUL TEMP[0], IN[0], IMM[0].xxxx\n\
              1: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n  2: MOV OUT[0], TEMP[0]\n  3: END\n";
    let req = Request { fs, width: 8, height: 8, ..Request::default() };
    let (job, diags) = prepare(&req);
    let job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let t = trace_pixel(&job, 3, 4, &mut tgsi::exec::NoTextures, 1 << 20).expect("traces");
    let mul = &t.trace.steps[0];
    let add = &t.trace.steps[1];
    let x_after_mul = mul.writes.iter().find(|w| w.channel == 'x').expect("x").bits;
    let x_add = add.writes.iter().find(|w| w.channel == 'x').expect("x");
    assert_eq!(x_add.before, x_after_mul);
    // ADD x = MUL x + 0.5 in every lane (hand formula).
    for l in 0..4 {
        assert_eq!(f32::from_bits(x_add.bits[l]), f32::from_bits(x_after_mul[l]) + 0.5);
    }
    // Outside the image: a clear error.
    assert!(trace_pixel(&job, 8, 0, &mut tgsi::exec::NoTextures, 1 << 20).is_err());
}
