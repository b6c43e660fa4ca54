//! Colours stored by the module (docs/jit.md "Colours stored by the module"): natively a
//! compiled program with one RGBA32F colour and no depth stores each quad's colour into the
//! render target itself, blending the lanes outside the primitive. What it stores is what the
//! interpreter's frame holds, bit for bit: every corpus shader at sizes with partly covered
//! quads at the edges, on the fullscreen triangle and on the two triangles of `quad` (whose
//! shared diagonal leaves quads partly covered by each), a second frame over the first, bands
//! on several threads, another program drawn into the same target, and a frame that runs out
//! of budget. The interpreter is conformance-tested against softpipe; `softpipe_corpus_jit`
//! compares this path with Mesa's pixels at the corpus's 64x64 directly.

use crate::conformance::{corpus_cases, corpus_request, corpus_textures};
use tgsi::exec::FrameBudget;
use tgsi::jit::Engine;
use tgsi::render::bands::{run_in_bands, BandScratch};
use tgsi::render::framebuffer::Framebuffer;
use tgsi::render::job::{prepare, run_in_frame, Job, Request};
use tgsi::render::DrawStats;

/// Every pixel's float bits of target 0, bottom row first.
fn bits(fb: &Framebuffer) -> Vec<u32> {
    (0..fb.height)
        .flat_map(|y| (0..fb.width).flat_map(move |x| fb.pixel(0, x, y).map(f32::to_bits)))
        .collect()
}

/// `job` drawn once with `engine` into `fb`; its counters.
fn draw(
    job: &mut Job,
    engine: Engine,
    fb: &mut Framebuffer,
    json: &serde_json::Value,
) -> DrawStats {
    let _ = tgsi::jit::attach(job, engine, true);
    let frame = FrameBudget::new(job.default_budget());
    run_in_frame(job, fb, None, &mut corpus_textures(json), &frame)
        .unwrap_or_else(|e| panic!("{}", e.diagnostic.message))
        .0
}

#[test]
fn every_corpus_shader_stores_the_interpreters_bits() {
    let dir = corpus!("/softpipe");
    let (mut fused_shaders, mut compared) = (0, 0);
    for name in corpus_cases() {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}{ext}")).expect("read");
        let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        let mut fused_any = false;
        for mesh in ["fullscreen", "quad"] {
            for (width, height) in [(97, 61), (130, 33)] {
                let req =
                    Request { width, height, mesh: Some(mesh), ..corpus_request(&fs, &vs, &json) };
                let (job, diags) = prepare(&req);
                let mut job = job.unwrap_or_else(|| panic!("{name}: {diags:?}"));
                let targets = job.color_targets();
                let mut want = Framebuffer::new(width, height, targets).expect("fb");
                let interpreted = draw(&mut job, Engine::Interpreter, &mut want, &json);
                let mut got = Framebuffer::new(width, height, targets).expect("fb");
                // Twice: the second frame runs the instance the target kept, over the first.
                for pass in 0..2 {
                    let stats = draw(&mut job, Engine::Jit, &mut got, &json);
                    fused_any |= stats.fused_quads > 0;
                    assert!(stats.fused_quads <= stats.quads, "{name}");
                    // The same fragments counted as written (covered lanes, none killed).
                    assert_eq!(
                        stats.fragments_written, interpreted.fragments_written,
                        "{name} {mesh} {width}x{height}"
                    );
                    for t in 0..targets {
                        let of = |fb: &Framebuffer| -> Vec<u32> {
                            (0..height)
                                .flat_map(|y| {
                                    (0..width)
                                        .flat_map(move |x| fb.pixel(t, x, y).map(f32::to_bits))
                                })
                                .collect()
                        };
                        assert!(
                            of(&got) == of(&want),
                            "{name} {mesh} {width}x{height} target {t} (pass {pass}): the compiled \
                             frame differs from the interpreter's"
                        );
                    }
                    compared += 1;
                }
            }
        }
        // Every corpus shader writes one colour: the module stores it exactly when the program
        // has a colour-storing form (no KILL, no loop or call, no sampling quad by quad).
        let (job, _) = prepare(&corpus_request(&fs, &vs, &json));
        let program = &job.expect("prepares").fs;
        let storing = tgsi::jit::codegen::compile_fused(program, 0).is_ok();
        assert_eq!(fused_any, storing, "{name}: stored by the module");
        if fs.contains("KILL") || fs.contains("BGNLOOP") {
            assert!(!storing, "{name} kills or loops");
        }
        fused_shaders += fused_any as usize;
    }
    assert!(compared >= 100, "only {compared} comparisons");
    assert!(fused_shaders >= 15, "only {fused_shaders} corpus shaders stored their colours");
}

/// A shader whose colour is its input's uv and whose lanes differ (a partly covered quad that
/// took the wrong lanes would show).
const UV_FS: &str = "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
    IMM[0] FLT32 {0.5, 1.0, 0.0, 0.0}\n  0: MAD TEMP[0], IN[0].xyxy, IMM[0].yyxx, IMM[0].zzxx\n\
    1: MOV OUT[0], TEMP[0]\n  2: END\n";

#[test]
fn the_stored_path_runs_and_matches_on_bands_and_across_programs() {
    let json = serde_json::json!({});
    let req = Request { fs: UV_FS, width: 160, height: 90, ..Request::default() };
    let (job, diags) = prepare(&req);
    let mut job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let mut want = Framebuffer::new(160, 90, 1).expect("fb");
    draw(&mut job, Engine::Interpreter, &mut want, &json);

    // One thread: every quad's colour stored by the module.
    let mut got = Framebuffer::new(160, 90, 1).expect("fb");
    let stats = draw(&mut job, Engine::Jit, &mut got, &json);
    assert_eq!(stats.fused_quads, stats.quads, "every quad stored by the module");
    assert!(bits(&got) == bits(&want));

    // Bands on several threads, twice with one scratch (its band framebuffers are kept).
    let mut scratch = BandScratch::default();
    for threads in [2, 3] {
        let mut many = Framebuffer::new(160, 90, 1).expect("fb");
        for pass in 0..2 {
            let frame = FrameBudget::new(job.default_budget());
            let (stats, _) = run_in_bands(
                &job,
                &mut many,
                threads,
                &tgsi::exec::NoTextures,
                &frame,
                &mut scratch,
                true,
            )
            .expect("draws");
            assert!(stats.fused_quads > 0, "{threads} threads: bands store their colours too");
            assert!(bits(&many) == bits(&want), "{threads} threads, pass {pass}");
        }
    }

    // Another program drawn into the same target: its own instance, its own bits.
    let other = "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n\
        0: ADD OUT[0], IN[0].yxyx, IN[0].xxyy\n  1: END\n";
    let req = Request { fs: other, width: 160, height: 90, ..Request::default() };
    let (job2, diags) = prepare(&req);
    let mut job2 = job2.unwrap_or_else(|| panic!("{diags:?}"));
    let mut want2 = Framebuffer::new(160, 90, 1).expect("fb");
    draw(&mut job2, Engine::Interpreter, &mut want2, &json);
    let stats = draw(&mut job2, Engine::Jit, &mut got, &json);
    assert_eq!(stats.fused_quads, stats.quads);
    assert!(bits(&got) == bits(&want2), "the second program's frame");
    // And back to the first program.
    draw(&mut job, Engine::Jit, &mut got, &json);
    assert!(bits(&got) == bits(&want), "the first program's frame again");
}

#[test]
fn programs_that_kill_or_targets_too_small_leave_the_colours_to_the_render() {
    let json = serde_json::json!({});
    let kill = "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n\
        IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\n  0: KILL_IF IN[0].xxxx\n  1: MOV OUT[0], IN[0]\n  2: END\n";
    for (fs, width, height) in [(kill, 160, 90), (UV_FS, 40, 30)] {
        let req = Request { fs, width, height, ..Request::default() };
        let (job, diags) = prepare(&req);
        let mut job = job.unwrap_or_else(|| panic!("{diags:?}"));
        let mut want = Framebuffer::new(width, height, 1).expect("fb");
        draw(&mut job, Engine::Interpreter, &mut want, &json);
        let mut got = Framebuffer::new(width, height, 1).expect("fb");
        let stats = draw(&mut job, Engine::Jit, &mut got, &json);
        assert_eq!(stats.fused_quads, 0, "{width}x{height}");
        assert!(stats.quads > 0);
        assert!(bits(&got) == bits(&want));
    }
}

#[test]
fn a_stored_frame_out_of_budget_keeps_the_interpreters_partial_picture() {
    // UV_FS charges 3 a quad (MAD, MOV, END): 160x90 is 3600 quads, 10800 in all; a budget of
    // 5000 runs out in the batch holding quad 1667. That batch stores nothing in either engine
    // (the module gives it back before running it), the batches before it are in the picture.
    let req = Request { fs: UV_FS, width: 160, height: 90, ..Request::default() };
    let (job, diags) = prepare(&req);
    let mut job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let mut run = |engine| {
        let _ = tgsi::jit::attach(&mut job, engine, true);
        let mut fb = Framebuffer::new(160, 90, 1).expect("fb");
        let r =
            run_in_frame(&job, &mut fb, None, &mut tgsi::exec::NoTextures, &FrameBudget::new(5000));
        (r, bits(&fb))
    };
    let ((a, want), (b, got)) = (run(Engine::Interpreter), run(Engine::Jit));
    let (Err(a), Err(b)) = (a, b) else { panic!("a budget of 5000 must run out") };
    assert_eq!(a.diagnostic.code, b.diagnostic.code);
    assert_eq!(a.diagnostic.message, b.diagnostic.message);
    assert!(want.iter().any(|&w| w != 0), "some batches were drawn");
    assert!(got == want, "the partial pictures differ");
}

#[test]
fn an_endless_loop_leaves_its_colours_to_the_render_and_stops_as_the_interpreter_does() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: BGNLOOP\n  1:   ADD TEMP[0].x, TEMP[0].xxxx, TEMP[0].xxxx\n  2: ENDLOOP\n  3: MOV OUT[0], TEMP[0]\n  4: END\n";
    let req = Request { fs, width: 128, height: 64, ..Request::default() };
    let (job, diags) = prepare(&req);
    let job = job.unwrap_or_else(|| panic!("{diags:?}"));
    assert!(tgsi::jit::codegen::compile_fused(&job.fs, 0).is_err(), "a loop has no bound");
}

#[test]
fn the_colour_storing_form_moves_the_constants_after_two_record_rows() {
    use tgsi::jit::codegen::{compile, compile_fused, ROW_BYTES};
    let p = super::differential::program(UV_FS);
    let (plain, fused) = (compile(&p).expect("compiles"), compile_fused(&p, 0).expect("compiles"));
    assert_eq!(plain.layout.colour, None);
    assert_eq!(fused.layout.colour, Some(0));
    // The records follow the kill slot; everything after them moves by the two rows.
    assert_eq!(fused.layout.records_base(), plain.layout.const_base());
    assert_eq!(fused.layout.const_base(), plain.layout.const_base() + 2 * ROW_BYTES as u64);
    assert_eq!(fused.layout.memory_bytes(), plain.layout.memory_bytes() + 2 * ROW_BYTES as u64);
    super::validate::validate(&fused.bytes, "the colour-storing form");
    // No such OUT register; a program that kills.
    assert!(compile_fused(&p, 1).is_err());
    let kill = super::differential::program(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: KILL_IF IN[0]\n  1: MOV OUT[0], IN[0]\n  2: END\n",
    );
    assert!(compile(&kill).is_ok() && compile_fused(&kill, 0).is_err());
}

#[test]
fn one_accelerator_at_a_time_stores_into_a_target() {
    use tgsi::exec::MakeAccelerator;
    use tgsi::render::framebuffer::TargetQuads;
    let p = super::differential::program(UV_FS);
    let native = tgsi::jit::native::NativeProgram::new(&p).expect("compiles");
    let target = TargetQuads::lendable(32 * 32);
    let small = TargetQuads::lendable(32 * 32 - 1);
    assert!(small.region().is_none(), "a target below the size limit is not lendable");
    let region = target.region().expect("a lendable target");
    let mut a = native.make().expect("instance");
    let mut b = native.make().expect("instance");
    assert!(!a.fuse(Some((region, 1))), "no such OUT register");
    assert!(a.fuse(Some((region, 0))));
    assert!(a.colour_records(64).is_some());
    assert!(!b.fuse(Some((region, 0))), "the instance is lent to a");
    assert!(b.colour_records(64).is_none());
    assert!(!a.fuse(None) && a.colour_records(64).is_none(), "a stops storing");
    drop(a);
    assert!(b.fuse(Some((region, 0))), "a gave the instance back");
}

#[test]
fn a_small_target_made_lendable_is_stored_by_the_module_with_the_same_bits() {
    // 37x23: partly covered quads at the right and top edges of a three-tile target.
    let json = serde_json::json!({});
    let req = Request { fs: UV_FS, width: 37, height: 23, ..Request::default() };
    let (job, diags) = prepare(&req);
    let mut job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let mut want = Framebuffer::new(37, 23, 1).expect("fb");
    draw(&mut job, Engine::Interpreter, &mut want, &json);
    let mut got = Framebuffer::new_lendable(37, 23, 1).expect("fb");
    let stats = draw(&mut job, Engine::Jit, &mut got, &json);
    assert_eq!(stats.fused_quads, stats.quads);
    assert!(bits(&got) == bits(&want));
}
