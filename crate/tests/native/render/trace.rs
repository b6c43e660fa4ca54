//! The trace of a pixel shows what the image holds: for every softpipe corpus shader (rendered
//! as the conformance suite renders it), the last values the trace records for the colour
//! output at a set of pixels are, bit for bit, the image's pixels there (and the conformance
//! suite compares those pixels with softpipe's).

use crate::conformance::{corpus_cases, corpus_request, corpus_textures};
use tgsi::render::inspect::{first_nonfinite, probe_frame, trace_pixel, Watched};
use tgsi::render::job::{prepare, run, Request};

const PIXELS: &[(u32, u32)] = &[(0, 0), (63, 63), (17, 42), (31, 5), (40, 40), (1, 62)];

#[test]
fn traced_outputs_are_the_rendered_pixels() {
    let dir = corpus!("/softpipe");
    let names = corpus_cases();
    let mut compared = 0;
    for name in &names {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}{ext}")).expect("read");
        let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        let req = Request { width: 64, height: 64, ..corpus_request(&fs, &vs, &json) };
        let (job, diags) = prepare(&req);
        let job = job.unwrap_or_else(|| panic!("{name}: {diags:?}"));
        let budget = job.default_budget();
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

/// A closed mesh draws some pixels more than once (no culling; the depth test keeps the
/// nearest): the trace is of the fragment the picture shows, not of a later one the depth test
/// hid. Every drawn pixel of a sphere and a cube, shaded with its interpolated uv, traced and
/// compared with the stored colour bit for bit.
#[test]
fn a_trace_follows_the_fragment_the_depth_test_kept() {
    let vs =
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL TEMP[0]\n\
              IMM[0] FLT32 { 0.5, 1.0, 0.0, 0.0 }\n  0: MUL TEMP[0], IN[0], IMM[0].xxxy\n\
              1: ADD TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx\n  2: MOV OUT[0], TEMP[0]\n\
              3: MOV OUT[1], IN[1]\n  4: END\n";
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
    for mesh in ["sphere", "cube"] {
        let req = Request {
            fs,
            vs: Some(vs),
            mesh: Some(mesh),
            width: 16,
            height: 16,
            ..Request::default()
        };
        let (job, diags) = prepare(&req);
        let job = job.unwrap_or_else(|| panic!("{mesh}: {diags:?}"));
        let budget = job.default_budget();
        let image = run(&job, None, &mut tgsi::exec::NoTextures, budget).expect("renders");
        let mut compared = 0;
        for y in 0..16 {
            for x in 0..16 {
                let want = image.framebuffer.pixel_from_top(x, y).map(f32::to_bits);
                if want == [0; 4] {
                    continue;
                }
                let t =
                    trace_pixel(&job, x, y, &mut tgsi::exec::NoTextures, budget).expect("traced");
                assert_eq!(t.outputs[0].bits, want, "{mesh} at ({x}, {y})");
                compared += 1;
            }
        }
        assert!(compared >= 16, "{mesh}: only {compared} pixels drawn");
    }
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

fn prepared(fs: &str, width: u32, height: u32) -> tgsi::render::job::Job {
    let req = Request { fs, width, height, ..Request::default() };
    let (job, diags) = prepare(&req);
    job.unwrap_or_else(|| panic!("{diags:?}"))
}

fn corpus_job(name: &str, size: u32) -> (tgsi::render::job::Job, serde_json::Value) {
    let dir = corpus!("/softpipe");
    let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}{ext}")).expect("read");
    let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
    let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
    let req = Request { width: size, height: size, ..corpus_request(&fs, &vs, &json) };
    let (job, diags) = prepare(&req);
    (job.unwrap_or_else(|| panic!("{name}: {diags:?}")), json)
}

/// DDX and DDY in a trace are the differences between lanes of their source in the same
/// trace. Coarse derivatives as tgsi_exec computes them (tgsi_exec.c `micro_ddx`/`micro_ddy`):
/// every lane gets DDX = v[3] − v[2] and DDY = v[2] − v[0] in the interpreter's lane order (lane =
/// dx + 2·dy, window rows growing upwards).
#[test]
fn derivatives_are_lane_differences_of_their_source() {
    let (job, json) = corpus_job("17_derivatives", 16);
    let mut checked = 0;
    for (x, y) in [(0, 0), (5, 9), (14, 3)] {
        let t = trace_pixel(&job, x, y, &mut corpus_textures(&json), job.default_budget())
            .expect("traces");
        for step in t.trace.steps.iter().filter(|s| s.opcode == "DDX" || s.opcode == "DDY") {
            let src = step.sources[0].values[0].map(f32::from_bits);
            let want = if step.opcode == "DDX" { src[3] - src[2] } else { src[2] - src[0] };
            for l in 0..4 {
                let got = f32::from_bits(step.writes[0].bits[l]);
                assert_eq!(got.to_bits(), want.to_bits(), "{} at ({x}, {y})", step.opcode);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * 4, "four derivative instructions per trace");
}

/// The heat map counts, per pixel, the instructions its lane ran: a straight-line program of
/// four instructions (END included) is 4 everywhere (hand count); with loops, the count of a
/// pixel equals the steps its trace shows with its lane active.
#[test]
fn heat_map_counts_the_instructions_each_pixel_ran() {
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
              0: MOV TEMP[0], IN[0]\n1: ADD TEMP[0], TEMP[0], TEMP[0]\n2: MOV OUT[0], TEMP[0]\n3: END\n";
    let job = prepared(fs, 8, 8);
    let probe =
        probe_frame(&job, None, &mut tgsi::exec::NoTextures, job.default_budget()).expect("probes");
    assert!(probe.counts.iter().all(|&n| n == 4), "{:?}", probe.counts);
    assert_eq!(probe.totals(), (4 * 64, 4));

    let (job, json) = corpus_job("11_while_dynamic", 32);
    let probe =
        probe_frame(&job, None, &mut corpus_textures(&json), job.default_budget()).expect("probes");
    let (_, max) = probe.totals();
    let min = probe.counts.iter().copied().min().unwrap_or(0);
    assert!(max > min, "loops make the count vary ({min}..{max})");
    for (x, y) in [(0, 0), (31, 31), (7, 20), (25, 4)] {
        let t = trace_pixel(&job, x, y, &mut corpus_textures(&json), job.default_budget())
            .expect("traces");
        let ran = t.trace.steps.iter().filter(|s| s.exec_mask >> t.lane & 1 != 0).count();
        assert_eq!(probe.counts[(y * 32 + x) as usize] as usize, ran, "({x}, {y})");
    }
}

/// The image at instruction N: watching the channel the last instruction writing OUT[0].x
/// writes, right after it, gives the rendered image's red channel bit for bit; watching an
/// earlier instruction gives what the trace shows after that step.
#[test]
fn image_at_instruction_n_is_what_the_program_held_there() {
    for name in ["11_while_dynamic", "26_mandelbrot", "08_if_else", "01_arith"] {
        let (job, json) = corpus_job(name, 24);
        let image =
            run(&job, None, &mut corpus_textures(&json), job.default_budget()).expect("renders");
        let last_red = (0..job.fs.code.len())
            .rev()
            .find(|&pc| {
                let i = &job.fs.code[pc];
                i.num_dst > 0
                    && i.dst[0].file == Some(tgsi::ir::File::Out)
                    && i.dst[0].index == 0
                    && i.dst[0].mask & 1 != 0
            })
            .expect("writes OUT[0].x");
        let watched = Watched::parse(last_red as u32, "OUT[0].x").expect("register");
        let probe =
            probe_frame(&job, Some(watched), &mut corpus_textures(&json), job.default_budget())
                .expect("probes");
        for y in 0..24 {
            for x in 0..24 {
                let i = (y * 24 + x) as usize;
                assert_eq!(probe.state[i], 2, "{name} ({x}, {y}) ran the last write");
                let want = image.framebuffer.pixel_from_top(x, y)[0].to_bits();
                assert_eq!(probe.values[i], want, "{name} ({x}, {y})");
            }
        }
        // An earlier instruction: the trace's value after its last run in the pixel's lane.
        let t = trace_pixel(&job, 5, 7, &mut corpus_textures(&json), job.default_budget())
            .expect("traces");
        let step = t.trace.steps.iter().rev().find(|s| {
            s.exec_mask >> t.lane & 1 != 0
                && s.writes.first().is_some_and(|w| w.register.starts_with("TEMP"))
        });
        if let Some(step) = step {
            let w = &step.writes[0];
            let reg = format!("{}.{}", w.register, w.channel);
            let watched = Watched::parse(step.pc, &reg).expect("register");
            let probe =
                probe_frame(&job, Some(watched), &mut corpus_textures(&json), job.default_budget())
                    .expect("probes");
            assert_eq!(probe.values[7 * 24 + 5], w.bits[t.lane], "{name} {reg} after {}", step.pc);
        }
    }
}

/// Run to the first NaN or Inf stops at the instruction that produced one in the pixel's
/// lane. Generated cases: `x / (x - c)` is ±Inf where x = c exactly and `sqrt(x - c)` is NaN
/// where x < c (tgsi.rst RCP, SQRT); the position input's x is (pixel column + 0.5).
#[test]
fn first_nonfinite_is_the_instruction_that_made_it() {
    for column in [0u32, 3, 6] {
        let c = column as f32 + 0.5;
        let fs = format!(
            "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
             IMM[0] FLT32 {{{c:?}, 1.0, 0.0, 0.0}}\n\
             0: ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx\n\
             1: MOV TEMP[1].x, IN[0].xxxx\n\
             2: RCP TEMP[0].y, TEMP[0].xxxx\n\
             3: SQRT TEMP[0].z, TEMP[0].xxxx\n\
             4: MOV OUT[0], TEMP[0]\n5: END\n"
        );
        let job = prepared(&fs, 8, 8);
        for x in 0..8u32 {
            let t = trace_pixel(&job, x, 2, &mut tgsi::exec::NoTextures, job.default_budget())
                .expect("traces");
            let want = match x.cmp(&column) {
                std::cmp::Ordering::Equal => Some(2), // 1/0 = +Inf at RCP
                std::cmp::Ordering::Less => Some(3),  // sqrt of a negative at SQRT
                std::cmp::Ordering::Greater => None,
            };
            let got = first_nonfinite(&t.trace, t.lane).map(|i| t.trace.steps[i].pc);
            assert_eq!(got, want, "column {column}, pixel x {x}");
        }
    }
}

/// Registers read 0 until written (`docs/interpreter.md` "Registers between runs"), in every batch
/// of a frame: the image after instruction 0 of a register first written by instruction 2 is 0
/// everywhere, even though the plain path skips clearing such registers between batches.
#[test]
fn image_at_instruction_n_shows_unwritten_registers_as_zero() {
    let fs = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
              IMM[0] FLT32 {64.0, 0.0078125, 1.0, 0.0}\n\
              0: ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx\n1: SQRT TEMP[0].y, TEMP[0].xxxx\n\
              2: MUL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy\n3: MOV OUT[0], TEMP[1].xxxx\n\
              4: MOV OUT[0].w, IMM[0].zzzz\n5: END\n";
    let job = prepared(fs, 64, 64);
    let watched = Watched::parse(0, "TEMP[1].x").expect("register");
    let probe = probe_frame(&job, Some(watched), &mut tgsi::exec::NoTextures, job.default_budget())
        .expect("probes");
    assert!(probe.state.iter().all(|&s| s == 2));
    assert!(probe.values.iter().all(|&v| v == 0), "stale values from an earlier batch");
    // After instruction 2 it is (x + 0.5 − 64) / 128 (exact in binary).
    let watched = Watched::parse(2, "TEMP[1].x").expect("register");
    let probe = probe_frame(&job, Some(watched), &mut tgsi::exec::NoTextures, job.default_budget())
        .expect("probes");
    for x in 0..64u32 {
        assert_eq!(f32::from_bits(probe.values[x as usize]), (x as f32 + 0.5 - 64.0) / 128.0);
    }
}

/// A sampling step records what the sampler did for each pixel of the quad: with 21_tex_linear
/// (a 4x4 texture, bilinear, drawn at 64x64: magnified) each lane reads one level through four
/// texels whose weights sum to 1, each texel holds the colour the corpus describes
/// (R = i·85, G = j·85, B = ((i xor j) & 1)·255 over 255), and the result is what TEX wrote.
#[test]
fn sampling_steps_show_levels_texels_and_weights() {
    let (job, json) = corpus_job("21_tex_linear", 64);
    for (x, y) in [(3, 4), (40, 17), (63, 0)] {
        let t = trace_pixel(&job, x, y, &mut corpus_textures(&json), job.default_budget())
            .expect("traces");
        let tex = t.trace.steps.iter().find(|s| s.opcode == "TEX").expect("a TEX step");
        let sample = tex.sample.as_ref().expect("the sampler's record");
        for (l, lane) in sample.lanes.iter().enumerate() {
            assert!(lane.magnified, "({x}, {y}) lane {l}");
            assert_eq!(lane.levels.len(), 1);
            let level = &lane.levels[0];
            assert_eq!(level.taps.len(), 4, "bilinear reads four texels");
            let total: f32 = level.taps.iter().map(|t| t.weight).sum();
            assert!((total - 1.0).abs() < 1e-6, "weights sum to 1, got {total}");
            for tap in &level.taps {
                let (i, j) = (tap.x.rem_euclid(4), tap.y.rem_euclid(4));
                let want = [i * 85, j * 85, ((i ^ j) & 1) * 255].map(|v| v as f32 / 255.0);
                for c in 0..3 {
                    assert!((tap.value[c] - want[c]).abs() < 1e-6, "texel ({i}, {j}) channel {c}");
                }
            }
            for w in &tex.writes {
                let c = "xyzw".find(w.channel).expect("channel");
                assert_eq!(w.bits[l], lane.result[c].to_bits(), "lane {l} {}", w.channel);
            }
        }
    }
}

/// The render's instruction budget applies to a trace: a loop that never ends is stopped with
/// X005 and the trace shows the steps up to there (each ADD adding 1, by hand), and a trace
/// longer than the step cap says it was truncated after exactly the cap.
#[test]
fn budget_and_step_cap_bound_a_trace() {
    let fs = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
              IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n0: MOV TEMP[0], IMM[0].yyyy\n1: BGNLOOP\n\
              2: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n3: ENDLOOP\n4: MOV OUT[0], TEMP[0]\n5: END\n";
    let job = prepared(fs, 2, 2);
    let t = trace_pixel(&job, 0, 0, &mut tgsi::exec::NoTextures, 1000).expect("a partial trace");
    assert_eq!(t.stopped.as_ref().map(|d| d.code), Some("X005"));
    assert!(!t.truncated);
    let adds: Vec<_> = t.trace.steps.iter().filter(|s| s.opcode == "ADD").collect();
    assert!(adds.len() > 100);
    for (i, add) in adds.iter().enumerate() {
        assert_eq!(f32::from_bits(add.writes[0].bits[t.lane]), (i + 1) as f32);
    }
    let cap = tgsi::exec::trace::MAX_TRACE_STEPS;
    let t = trace_pixel(&job, 0, 0, &mut tgsi::exec::NoTextures, 4 * cap as u64)
        .expect("a partial trace");
    assert!(t.truncated && t.stopped.is_some());
    assert_eq!(t.trace.steps.len(), cap);
    assert!(t.trace.dropped > 0);
}

/// The vertex side: the table holds what the vertex shader read and wrote for every vertex of
/// the mesh, and a vertex's trace ends with the same outputs. 01_arith's vertex shader on the
/// fullscreen triangle — (−1, −1), (3, −1), (−1, 3) — writes POSITION = (x, y, 0, 1) and
/// GENERIC[0].xy = (x, y)·0.5 + 0.5 (hand formula from its three instructions); on the sphere
/// (561 vertices: three batches of up to 256) a shader's trace of any vertex ends with
/// that vertex's table row.
#[test]
fn vertex_table_and_vertex_traces() {
    use tgsi::render::inspect::{trace_vertex, vertex_table};
    let (job, _) = corpus_job("01_arith", 16);
    let table =
        vertex_table(&job, &mut tgsi::exec::NoTextures, job.default_budget()).expect("table");
    assert_eq!(table.vertex_count(), 3);
    let lines = tgsi::ir::LineIndex::new("");
    for (v, (x, y)) in [(-1.0f32, -1.0f32), (3.0, -1.0), (-1.0, 3.0)].into_iter().enumerate() {
        let out = &table.outputs[v * table.output_registers..][..2];
        assert_eq!(out[0], [x, y, 0.0, 1.0], "vertex {v} POSITION");
        assert_eq!([out[1][0], out[1][1]], [x * 0.5 + 0.5, y * 0.5 + 0.5], "vertex {v} GENERIC");
        let t = trace_vertex(&job, v, &mut tgsi::exec::NoTextures, job.default_budget())
            .expect("trace");
        let json = t.to_json("", &lines);
        let pos = &json["outputs"][1]["bits"];
        assert_eq!(json["outputs"][1]["reg"], "OUT[0]");
        for c in 0..4 {
            assert_eq!(pos[c].as_u64(), Some(out[0][c].to_bits() as u64), "vertex {v} .{c}");
        }
    }
    let vs =
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
              0: MOV OUT[0], IN[0]\n1: MUL OUT[1], IN[2], IN[1].xxxx\n2: END\n";
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n0: MOV OUT[0], IN[0]\n1: END\n";
    let req = Request {
        fs,
        vs: Some(vs),
        mesh: Some("sphere"),
        width: 8,
        height: 8,
        ..Request::default()
    };
    let (job, diags) = prepare(&req);
    let job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let table =
        vertex_table(&job, &mut tgsi::exec::NoTextures, job.default_budget()).expect("table");
    let n = table.vertex_count();
    assert!(n > 512, "{n} vertices: more than two batches of 256");
    for v in [0, 5, 257, n / 2 + 3, n - 1] {
        let t = trace_vertex(&job, v, &mut tgsi::exec::NoTextures, job.default_budget())
            .expect("trace");
        assert_eq!(t.vertex - t.lane, v / 4 * 4);
        let mul = t.trace.steps.iter().find(|s| s.opcode == "MUL").expect("MUL");
        let row = table.outputs[v * table.output_registers + 1];
        let input = &table.inputs[v * table.input_registers..];
        for (c, w) in mul.writes.iter().enumerate() {
            assert_eq!(w.bits[t.lane], row[c].to_bits(), "vertex {v} OUT[1].{c}");
            // The hand formula: IN[2] · IN[1].x.
            assert_eq!(f32::from_bits(w.bits[t.lane]), input[2][c] * input[1][0]);
        }
    }
    assert!(trace_vertex(&job, n, &mut tgsi::exec::NoTextures, job.default_budget()).is_err());
}

/// Every texture case of `tests/texture-cases/` (Mesa's softpipe pixels, 32x32): the trace of a
/// set of pixels ends with softpipe's colour bit for bit — the same pixels the render shows
/// (`txq_size` excepted against softpipe: its quads asking for a missing level are
/// uninitialised there, see `texture::pipeline`).
#[test]
fn traces_of_the_texture_cases_end_with_softpipes_pixels() {
    let cases = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/texture-cases/");
    let mut names: Vec<String> = std::fs::read_dir(cases)
        .expect("texture cases")
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".glsl"))
        .map(|n| n.trim_end_matches(".glsl").to_string())
        .collect();
    names.sort();
    assert!(names.len() >= 30, "{} cases", names.len());
    let mut compared = 0;
    for name in &names {
        let read =
            |ext: &str| std::fs::read_to_string(format!("{cases}{name}{ext}")).expect("read");
        let (fs, vs, json) = (read(".tgsi"), read(".vs.tgsi"), read(".textures.json"));
        let mut bindings = tgsi::texture::bind::Bindings::new();
        for (unit, t) in tgsi::texture::desc::parse_all(&json, &|n| Err(n.to_string()))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
        {
            bindings.bind(unit, t);
        }
        let bytes = std::fs::read(format!("{cases}{name}.f32")).expect("f32");
        let softpipe: Vec<u32> =
            bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let req = Request {
            fs: &fs,
            vs: Some(&vs),
            mesh: Some("fullscreen"),
            width: 32,
            height: 32,
            ..Request::default()
        };
        let (job, diags) = prepare(&req);
        let job = job.unwrap_or_else(|| panic!("{name}: {diags:?}"));
        let image = run(&job, None, &mut bindings.clone(), job.default_budget()).expect("renders");
        for (x, y) in [(0u32, 0u32), (31, 31), (7, 12), (20, 3), (16, 16)] {
            let t = trace_pixel(&job, x, y, &mut bindings.clone(), job.default_budget())
                .unwrap_or_else(|e| panic!("{name} ({x}, {y}): {}", e.diagnostic.message));
            assert!(t.stopped.is_none() && !t.truncated, "{name}");
            let color = t
                .outputs
                .iter()
                .find(|o| o.semantic.as_ref().is_some_and(|(n, i)| n == "COLOR" && *i == 0))
                .unwrap_or_else(|| panic!("{name}: no COLOR output"));
            let shown = image.framebuffer.pixel_from_top(x, y).map(f32::to_bits);
            assert_eq!(color.bits, shown, "{name} ({x}, {y}) against the render");
            if name != "txq_size" {
                // softpipe's rows run from the bottom.
                let i = (((31 - y) * 32 + x) * 4) as usize;
                assert_eq!(
                    color.bits[..],
                    softpipe[i..i + 4],
                    "{name} ({x}, {y}) against softpipe"
                );
            }
            compared += 1;
        }
    }
    assert!(compared >= 150, "{compared} pixels");
}

/// The trace JSON names, for each derivative result, the two pixels it is the difference of:
/// the written value is (source there) − (source there), per pixel, for every DDX/DDY step of
/// 17_derivatives.
#[test]
fn derivative_steps_name_the_pixels_they_subtract() {
    let (job, json) = corpus_job("17_derivatives", 16);
    let lines = tgsi::ir::LineIndex::new("");
    let t =
        trace_pixel(&job, 5, 9, &mut corpus_textures(&json), job.default_budget()).expect("traces");
    let j = t.to_json("", &lines);
    let mut checked = 0;
    for step in j["steps"].as_array().expect("steps") {
        let Some(pairs) = step["derivative"].as_array() else { continue };
        let write = &step["writes"][0];
        let c = "xyzw".find(write["chan"].as_str().expect("chan")).expect("channel");
        let src = &step["sources"][0]["values"][c];
        for (i, pair) in pairs.iter().enumerate() {
            let (a, b) = (pair[0].as_u64().unwrap() as usize, pair[1].as_u64().unwrap() as usize);
            let f = |k: usize| f32::from_bits(src[k].as_u64().unwrap() as u32);
            let got = f32::from_bits(write["after"][i].as_u64().unwrap() as u32);
            assert_eq!(got.to_bits(), (f(a) - f(b)).to_bits(), "lane {i}");
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}
