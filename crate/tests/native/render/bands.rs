//! A frame drawn on several threads (`render --threads N`, `bands::run_in_bands`) is the frame
//! drawn on one, bit for bit: every softpipe corpus shader (with its vertex shader, mesh and
//! textures, as the conformance suite renders it) at sizes whose rows do not divide evenly into
//! bands, with the interpreter and the compiling tier; a mesh with a depth test; and a frame
//! that runs out of budget stops in every band with the same diagnostic code. The threads that
//! draw the bands are kept from frame to frame.

use crate::conformance::{corpus_cases, corpus_request, corpus_textures};
use tgsi::exec::FrameBudget;
use tgsi::render::bands::{band_rows, bands_for, run_in_bands, BandScratch};
use tgsi::render::framebuffer::{Format, Framebuffer, TILE};
use tgsi::render::job::{prepare, run_in_frame, Request};

/// Every target's float bits and the depth of every pixel, top row first.
fn bits(fb: &Framebuffer) -> Vec<u32> {
    let mut out = Vec::new();
    for y in 0..fb.height {
        for x in 0..fb.width {
            for t in 0..fb.target_count() {
                out.extend(fb.pixel(t, x, y).map(f32::to_bits));
            }
            out.push(fb.depth_at(x, y).to_bits());
        }
    }
    out
}

/// The prepared job of `req`, which must prepare.
fn job_of(req: &Request) -> tgsi::render::job::Job {
    let (job, diags) = prepare(req);
    job.unwrap_or_else(|| panic!("{diags:?}"))
}

#[test]
fn bands_are_whole_tile_rows_that_cover_the_picture_once() {
    for height in [1, 15, 16, 17, 61, 64, 97, 130, 512, 1024] {
        for bands in 1..=9 {
            let mut next = 0;
            for k in 0..bands {
                let rows = band_rows(height, bands, k);
                assert_eq!(
                    rows.start,
                    next.min(height),
                    "height {height}, {bands} bands, band {k}"
                );
                assert!(
                    rows.start.is_multiple_of(TILE) || rows.is_empty(),
                    "{height} {bands} {k}: {rows:?}"
                );
                next = rows.end;
            }
            assert_eq!(
                next, height,
                "height {height}, {bands} bands: the last band ends at the top"
            );
        }
    }
}

#[test]
fn band_count_is_at_most_the_tile_rows_and_bands_store_only_their_rows() {
    // 61 rows are 4 tile rows: 4 bands at most; 3 threads make bands of ⌈4 / 3⌉ = 2 tile rows,
    // so 2 bands.
    assert_eq!(bands_for(61, 16), 4);
    assert_eq!(bands_for(61, 3), 2);
    assert_eq!(bands_for(64, 1), 1);
    assert_eq!(bands_for(1024, 8), 8);
    // A band's framebuffer has storage for its own tile rows only: rows 32..61 of a 61-row
    // picture are 2 of its 4 tile rows (32..48 and 48..61).
    let whole = Framebuffer::new(40, 61, 2).expect("picture");
    let band = Framebuffer::band(40, 61, 2, Format::Rgba32F, 32..61).expect("band");
    assert!(band.stores_rows(32..61) && !band.stores_rows(16..61) && !band.stores_rows(0..1));
    assert!(whole.stores_rows(0..61));
    // Rows it does not store read as nothing (zeros, depth 1).
    assert_eq!(band.pixel(0, 3, 5), [0.0; 4]);
    assert_eq!(band.depth_at(3, 5), 1.0);
}

#[test]
fn every_corpus_shader_draws_the_same_bits_on_one_and_on_several_threads() {
    let dir = corpus!("/softpipe");
    let mut compared = 0;
    for name in corpus_cases() {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}{ext}")).expect("read");
        let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        for (width, height) in [(97, 61), (33, 130)] {
            let req = Request { width, height, ..corpus_request(&fs, &vs, &json) };
            let (job, diags) = prepare(&req);
            let mut job = job.unwrap_or_else(|| panic!("{name}: {diags:?}"));
            for engine in [tgsi::jit::Engine::Interpreter, tgsi::jit::Engine::Jit] {
                // The compiling tier where it takes the shader (else the interpreter again).
                let _ = tgsi::jit::attach(&mut job, engine, false);
                let targets = job.color_targets();
                let mut one = Framebuffer::new(width, height, targets).expect("fb");
                let frame = FrameBudget::new(job.default_budget());
                run_in_frame(&job, &mut one, None, &mut corpus_textures(&json), &frame)
                    .unwrap_or_else(|e| panic!("{name}: {}", e.diagnostic.message));
                let want = bits(&one);
                // One scratch for every thread count: its bands and threads change with it.
                let mut scratch = BandScratch::default();
                for threads in [2, 3, 8] {
                    let mut many = Framebuffer::new(width, height, targets).expect("fb");
                    let frame = FrameBudget::new(job.default_budget());
                    let textures = corpus_textures(&json);
                    // Twice with the same scratch: the second frame reuses the band framebuffers.
                    for pass in 0..2 {
                        run_in_bands(
                            &job,
                            &mut many,
                            threads,
                            &textures,
                            &frame,
                            &mut scratch,
                            true,
                        )
                        .unwrap_or_else(|e| panic!("{name}: {}", e.diagnostic.message));
                        assert!(
                            bits(&many) == want,
                            "{name} {width}x{height} {engine:?}: {threads} threads (pass {pass}) differ from one"
                        );
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 100, "only {compared} comparisons");
}

#[test]
fn a_depth_tested_mesh_draws_the_same_on_several_threads() {
    // An oblique view (x and y shifted by z, w grows with z) so that faces overlap and the depth
    // test decides pixels in every band; the colour is the mesh's attribute IN[2].
    let vs = super::OBLIQUE_VS;
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
    for mesh in ["cube", "sphere"] {
        let req = Request {
            fs,
            vs: Some(vs),
            width: 90,
            height: 70,
            mesh: Some(mesh),
            ..Request::default()
        };
        let job = job_of(&req);
        assert!(job.mesh.wants_depth, "{mesh} is depth-tested");
        let mut one = Framebuffer::new(90, 70, 1).expect("fb");
        run_in_frame(
            &job,
            &mut one,
            None,
            &mut tgsi::exec::NoTextures,
            &FrameBudget::new(job.default_budget()),
        )
        .expect("draws");
        let mut many = Framebuffer::new(90, 70, 1).expect("fb");
        run_in_bands(
            &job,
            &mut many,
            4,
            &tgsi::exec::NoTextures,
            &FrameBudget::new(job.default_budget()),
            &mut BandScratch::default(),
            true,
        )
        .expect("draws");
        assert!(bits(&many) == bits(&one), "{mesh}");
        // The depth buffer was written (the mesh covers some pixels at a depth below 1).
        assert!((0..70).any(|y| (0..90).any(|x| many.depth_at(x, y) < 1.0)), "{mesh}");
    }
}

#[test]
fn a_frame_out_of_budget_stops_in_every_band_with_the_budget_code() {
    // An endless loop: every band runs out of the one frame budget.
    let fs = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: BGNLOOP\n  1:   ADD TEMP[0].x, TEMP[0].xxxx, TEMP[0].xxxx\n  2: ENDLOOP\n  3: MOV OUT[0], TEMP[0]\n  4: END\n";
    let req = Request { fs, width: 64, height: 64, ..Request::default() };
    let job = job_of(&req);
    let one = run_in_frame(
        &job,
        &mut Framebuffer::new(64, 64, 1).expect("fb"),
        None,
        &mut tgsi::exec::NoTextures,
        &FrameBudget::new(1 << 20),
    );
    let many = run_in_bands(
        &job,
        &mut Framebuffer::new(64, 64, 1).expect("fb"),
        4,
        &tgsi::exec::NoTextures,
        &FrameBudget::new(1 << 20),
        &mut BandScratch::default(),
        true,
    );
    let (Err(a), Err(b)) = (one, many) else {
        panic!("an endless loop must run out of its budget")
    };
    assert_eq!(a.diagnostic.code, b.diagnostic.code);
    assert!(a.diagnostic.code.starts_with('X'), "{}", a.diagnostic.code);
}

#[test]
fn the_band_threads_are_kept_from_frame_to_frame() {
    // Every fragment samples, so the hooks see which threads drew. 32 rows are two tile rows:
    // two bands, the first drawn by the calling thread, the second by a kept thread.
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";
    let req = Request { fs, width: 32, height: 32, ..Request::default() };
    let job = job_of(&req);
    let log = crate::support::Asked::new(tgsi::exec::NoTextures);
    let mut scratch = BandScratch::default();
    let mut fb = Framebuffer::new(32, 32, 1).expect("fb");
    let drawn_by = |scratch: &mut BandScratch, fb: &mut Framebuffer, threads: usize| {
        log.log.lock().expect("log").threads.clear();
        let frame = FrameBudget::new(job.default_budget());
        run_in_bands(&job, fb, threads, &log, &frame, scratch, true).expect("draws");
        let mut ids = log.log.lock().expect("log").threads.clone();
        ids.sort_by_key(|id| format!("{id:?}"));
        ids.dedup();
        ids
    };
    let me = std::thread::current().id();
    let mut helpers = Vec::new();
    for _ in 0..4 {
        let ids = drawn_by(&mut scratch, &mut fb, 2);
        assert!(ids.contains(&me), "the first band is drawn by the calling thread");
        assert_eq!(ids.len(), 2, "two bands, two threads: {ids:?}");
        helpers.extend(ids.into_iter().filter(|id| *id != me));
    }
    helpers.dedup();
    assert_eq!(helpers.len(), 1, "one kept thread drew the second band of every frame");
    assert_eq!(scratch.pools_started(), 1);
    // Another number of bands starts new threads once, and keeps them.
    let mut fb = Framebuffer::new(32, 48, 1).expect("fb");
    let req = Request { fs, width: 32, height: 48, ..Request::default() };
    let job3 = job_of(&req);
    for _ in 0..3 {
        let frame = FrameBudget::new(job3.default_budget());
        run_in_bands(&job3, &mut fb, 3, &log, &frame, &mut scratch, true).expect("draws");
    }
    assert_eq!(scratch.pools_started(), 2);
}
