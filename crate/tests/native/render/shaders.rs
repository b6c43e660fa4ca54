//! Rendering TGSI shaders through the interpreter: POSITION with FS_COORD_ORIGIN /
//! FS_COORD_PIXEL_CENTER, FACE and BCOLOR, flat inputs, KILL, built-in uniforms and row bands.
//! Expected values are hand calculations written next to each check.

use tgsi::render::job::{prepare, run, Request};
use tgsi::render::uniforms::Builtins;

/// Renders and returns target 0 as rows from the top of the picture.
fn render(req: &Request) -> Vec<Vec<[f32; 4]>> {
    let (job, diags) = prepare(req);
    let job = job.unwrap_or_else(|| {
        panic!("{:?}", diags.iter().map(|d| &d.diagnostic.message).collect::<Vec<_>>())
    });
    let out = run(&job, None, &mut tgsi::exec::NoTextures, job.default_budget())
        .unwrap_or_else(|d| panic!("{}", d.diagnostic.message));
    let fb = out.framebuffer;
    (0..fb.height).map(|y| (0..fb.width).map(|x| fb.pixel_from_top(x, y)).collect()).collect()
}

fn fs_only(fs: &str, w: u32, h: u32) -> Vec<Vec<[f32; 4]>> {
    render(&Request { fs, width: w, height: h, ..Request::default() })
}

const POSITION_FS: &str =
    "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";

#[test]
fn position_follows_origin_and_pixel_centre_properties() {
    let (w, h) = (6u32, 4u32);
    // Default UPPER_LEFT / HALF_INTEGER: x + 0.5 and window row + 0.5, window row 0 being the
    // bottom row of the picture (softpipe rendering into a GL framebuffer object), so the top
    // row of the picture has y = 3.5. z = 0·0.5 + 0.5 (clip z 0), w = 1/w = 1.
    let img = fs_only(POSITION_FS, w, h);
    assert_eq!(img[0][0], [0.5, 3.5, 0.5, 1.0]);
    assert_eq!(img[3][5], [5.5, 0.5, 0.5, 1.0]);
    // LOWER_LEFT: y = (H − 1) − window row + 0.5: the top row of the picture has y = 0.5.
    let ll = POSITION_FS.replace("FRAG\n", "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\n");
    let img = fs_only(&ll, w, h);
    assert_eq!(img[0][0], [0.5, 0.5, 0.5, 1.0]);
    assert_eq!(img[3][5], [5.5, 3.5, 0.5, 1.0]);
    // INTEGER centres: no half-pixel offset.
    let int = POSITION_FS.replace("FRAG\n", "FRAG\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n");
    let img = fs_only(&int, w, h);
    assert_eq!(img[0][0], [0.0, 3.0, 0.5, 1.0]);
    assert_eq!(img[3][5], [5.0, 0.0, 0.5, 1.0]);
}

/// A vertex shader passing the quad mesh through, mirrored in x when `mirror` (which turns the
/// counter-clockwise quad clockwise, i.e. back-facing), with COLOR = red and BCOLOR = blue.
fn two_sided_vs(mirror: bool) -> String {
    format!(
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL OUT[2], BCOLOR\nDCL OUT[3], GENERIC[0]\n\
         IMM[0] FLT32 {{1.0, 0.0, 0.0, 1.0}}\nIMM[1] FLT32 {{0.0, 0.0, 1.0, 1.0}}\nIMM[2] FLT32 {{{}, 1.0, 1.0, 1.0}}\n\
         MUL OUT[0], IN[0], IMM[2]\nMOV OUT[1], IMM[0]\nMOV OUT[2], IMM[1]\nMOV OUT[3], IN[1]\nEND\n",
        if mirror { "-1.0" } else { "1.0" }
    )
}

#[test]
fn face_and_bcolor_through_the_interpreter() {
    // OUT = (COLOR.xyz, FACE.x).
    let fs = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL IN[1], FACE, CONSTANT\nDCL OUT[0], COLOR\nMOV OUT[0].xyz, IN[0]\nMOV OUT[0].w, IN[1].xxxx\nEND\n";
    for (mirror, expected) in [(false, [1.0, 0.0, 0.0, 1.0]), (true, [0.0, 0.0, 1.0, -1.0])] {
        let vs = two_sided_vs(mirror);
        let img = render(&Request {
            fs,
            vs: Some(&vs),
            mesh: Some("quad"),
            width: 4,
            height: 4,
            ..Request::default()
        });
        for row in &img {
            for px in row {
                assert_eq!(*px, expected, "mirror {}", mirror);
            }
        }
    }
}

#[test]
fn flat_inputs_take_the_provoking_vertex() {
    // Quad strip: triangles (0, 1, 2) and (2, 1, 3); the provoking vertex is the last one, so
    // the lower-left half reads vertex 2's uv (0, 1) and the upper-right half vertex 3's (1, 1).
    let fs = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";
    let vs = two_sided_vs(false);
    let img = render(&Request {
        fs,
        vs: Some(&vs),
        mesh: Some("quad"),
        width: 8,
        height: 8,
        ..Request::default()
    });
    assert_eq!(img[7][0], [0.0, 1.0, 0.0, 1.0], "bottom-left pixel");
    assert_eq!(img[0][7], [1.0, 1.0, 0.0, 1.0], "top-right pixel");
}

#[test]
fn killed_fragments_write_nothing() {
    // KILL_IF where u − 0.5 < 0: the left half stays (0, 0, 0, 0).
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {-0.5, 1.0, 0.0, 0.0}\n\
              ADD TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\nKILL_IF TEMP[0].xxxx\nMOV OUT[0], IMM[0].yyyy\nEND\n";
    let img = fs_only(fs, 8, 2);
    for row in &img {
        for (x, px) in row.iter().enumerate() {
            // u = (x + 0.5)/8 < 0.5 for x < 4.
            let expected = if x < 4 { [0.0; 4] } else { [1.0; 4] };
            assert_eq!(*px, expected, "x {}", x);
        }
    }
}

#[test]
fn builtin_uniforms_live_in_buffer_15() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nDCL CONST[15][0..2]\nDCL TEMP[0]\n\
              MOV TEMP[0].xy, CONST[15][0].xyyy\nMOV TEMP[0].z, CONST[15][1].xxxx\nMOV TEMP[0].w, CONST[15][2].yyyy\nMOV OUT[0], TEMP[0]\nEND\n";
    let builtins = Builtins { time: 2.5, mouse: [3.0, 7.0], ..Builtins::default() };
    let img = render(&Request { fs, width: 4, height: 2, builtins, ..Request::default() });
    // (width, height, time, mouse y).
    assert_eq!(img[1][3], [4.0, 2.0, 2.5, 7.0]);
}

#[test]
fn row_bands_match_the_full_frame() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\nDDY TEMP[0], IN[0]\nADD OUT[0], IN[0], TEMP[0]\nEND\n";
    let req = Request { fs, width: 10, height: 9, ..Request::default() };
    let (job, _) = prepare(&req);
    let job = job.unwrap();
    let full =
        run(&job, None, &mut tgsi::exec::NoTextures, job.default_budget()).unwrap().framebuffer;
    // Bands with odd boundaries: quads straddling them run partly as helper lanes, which still
    // feed DDY, so the pixels must not change.
    for (a, b) in [(0u32, 3u32), (3, 4), (4, 9)] {
        let band = run(&job, Some(a..b), &mut tgsi::exec::NoTextures, job.default_budget())
            .unwrap()
            .framebuffer;
        for y in 0..9u32 {
            for x in 0..10u32 {
                let expected = if y >= a && y < b { full.pixel(0, x, y) } else { [0.0; 4] };
                assert_eq!(band.pixel(0, x, y), expected, "band {}..{} pixel {},{}", a, b, x, y);
            }
        }
    }
}

#[test]
fn demoted_fragments_write_nothing() {
    // tgsi.rst DEMOTE: the lane becomes a helper, keeps running, and writes nothing.
    let fs = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\nDEMOTE\nMOV OUT[0], IMM[0]\nEND\n";
    let img = fs_only(fs, 4, 4);
    assert!(img.iter().flatten().all(|px| *px == [0.0; 4]));
}

#[test]
fn undeclared_input_channels_read_zero_in_every_batch() {
    // IN[0] declares x and y only: z and w are not interpolated and read 0. 64x32 pixels are
    // 512 quads, drawn as the clipped fullscreen triangle's fan in batches of several sizes, so
    // the input rows are reused and resized between batches. uv = ((x + 0.5)/64, (y + 0.5)/32)
    // with y the window row from the bottom (exact in binary: the sizes are powers of two).
    let fs =
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";
    let (w, h) = (64u32, 32u32);
    let img = fs_only(fs, w, h);
    for (top, row) in img.iter().enumerate() {
        let y = h - 1 - top as u32;
        for (x, px) in row.iter().enumerate() {
            let u = (x as f32 + 0.5) / w as f32;
            let v = (y as f32 + 0.5) / h as f32;
            assert_eq!(*px, [u, v, 0.0, 0.0], "pixel {},{}", x, y);
        }
    }
}

#[test]
fn rgba8_framebuffers_hold_the_float_pixels_as_unorm8() {
    // The same draw into RGBA32F and RGBA8: every RGBA8 byte is unorm8 of the float pixel
    // (round(clamp(v, 0, 1) · 255)), for values inside and outside [0, 1] (01_arith writes
    // x + y, x·y − 1.5, 3·(x − y) and x / (y + 0.1)).
    use tgsi::render::framebuffer::{unorm8, Format, Framebuffer};
    let corpus = corpus!("/softpipe");
    let fs = std::fs::read_to_string(format!("{}/01_arith.tgsi", corpus)).unwrap();
    let vs = std::fs::read_to_string(format!("{}/01_arith.vs.tgsi", corpus)).unwrap();
    let (job, _) =
        prepare(&Request { fs: &fs, vs: Some(&vs), width: 40, height: 24, ..Request::default() });
    let job = job.unwrap();
    let mut float = Framebuffer::new(40, 24, 1).unwrap();
    let mut bytes = Framebuffer::with_format(40, 24, 1, Format::Rgba8).unwrap();
    for fb in [&mut float, &mut bytes] {
        tgsi::render::job::run_into(
            &job,
            fb,
            None,
            &mut tgsi::exec::NoTextures,
            job.default_budget(),
        )
        .unwrap();
    }
    let mut expected = Vec::new();
    for yt in 0..24 {
        for x in 0..40 {
            expected.extend(float.pixel_from_top(x, yt).map(unorm8));
        }
    }
    assert_eq!(bytes.rgba8_rows(0..24), expected);
    // Both kinds of values occur: some channel clamps, some lies strictly inside (0, 255).
    assert!(
        expected.iter().any(|&b| b == 0 || b == 255) && expected.iter().any(|&b| b > 0 && b < 255)
    );
}

/// The interpreter's fragment stage seen only through `shade` (the `QuadBatch` copies), so that
/// the pipeline takes its general path instead of the in-place one.
struct CopyingStage<'a>(tgsi::render::shaders::ExecFragmentStage<'a>);

impl tgsi::render::FragmentStage for CopyingStage<'_> {
    fn shade(
        &mut self,
        batch: &tgsi::render::QuadBatch,
        out: &mut tgsi::render::QuadOutputs,
    ) -> Result<(), tgsi::diag::Diagnostic> {
        self.0.shade(batch, out)
    }
}

#[test]
fn in_place_and_copied_inputs_render_the_same_bits() {
    // The spinning cube (perspective-correct varyings, depth test, partly covered quads) with a
    // shader that mixes interpolated inputs, FACE and KILL: both ways of handing the batch to
    // the interpreter must give the same framebuffer, bit for bit, and the same counters.
    use tgsi::render::framebuffer::Framebuffer;
    use tgsi::render::pipeline::{draw, DrawConfig};
    use tgsi::render::shaders::{ExecFragmentStage, ExecVertexStage};
    // Sheared by z so that several faces show, w = z + 2 (perspective), uv from IN[2].
    let vs = super::OBLIQUE_VS;
    let fs =
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], FACE, CONSTANT\nDCL OUT[0], COLOR\n\
              DCL TEMP[0]\nIMM[0] FLT32 {0.5, 0.25, 0.0, 1.0}\n\
              ADD TEMP[0], IN[0], -IMM[0].xxxx\nKILL_IF TEMP[0].yyyy\n\
              MUL OUT[0].xyz, IN[0], IN[1].xxxx\nMOV OUT[0].w, IMM[0].yyyy\nEND\n";
    let (job, diags) = prepare(&Request {
        fs,
        vs: Some(vs),
        mesh: Some("cube"),
        width: 45,
        height: 37,
        ..Request::default()
    });
    let job = job.unwrap_or_else(|| {
        panic!("{:?}", diags.iter().map(|d| &d.diagnostic.message).collect::<Vec<_>>())
    });
    let (vs_program, vs_if) = job.vs.as_ref().unwrap();
    let config = DrawConfig { rows: None, depth_test: true, batch_quads: 16 };
    let mut results = Vec::new();
    for copying in [false, true] {
        let mut fb = Framebuffer::new(45, 37, 1).unwrap();
        let (mut none_vs, mut none_fs) = (tgsi::exec::NoTextures, tgsi::exec::NoTextures);
        let mut vs_stage = ExecVertexStage {
            program: vs_program,
            constants: &job.constants.vertex,
            hooks: &mut none_vs,
            machine: tgsi::exec::Machine::new(),
            failed: false,
            trace_vertex: None,
            trace: None,
            record: None,
        };
        let fs_stage = ExecFragmentStage::new(
            &job.fs,
            &job.constants.fragment,
            &mut none_fs,
            tgsi::exec::Machine::new(),
        );
        let mut warnings = Vec::new();
        let stats = if copying {
            let mut stage = CopyingStage(fs_stage);
            draw(
                &mut fb,
                &job.mesh,
                vs_if,
                &mut vs_stage,
                &job.fs_if,
                &mut stage,
                &config,
                &mut warnings,
            )
        } else {
            let mut stage = fs_stage;
            draw(
                &mut fb,
                &job.mesh,
                vs_if,
                &mut vs_stage,
                &job.fs_if,
                &mut stage,
                &config,
                &mut warnings,
            )
        }
        .unwrap();
        results.push((fb.f32_bytes(), stats));
    }
    assert!(
        results[0].1.fragments_written > 0 && results[0].1.fragments_written < 45 * 37,
        "{:?}",
        results[0].1
    );
    assert_eq!(results[0].1, results[1].1);
    assert!(results[0].0 == results[1].0, "in-place and copied paths differ");
}
