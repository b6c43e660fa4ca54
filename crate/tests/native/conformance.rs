//! Conformance with softpipe: every shader of `tests/corpus/softpipe/` rendered at 64x64 with
//! its `.vs.tgsi` on the `fullscreen` mesh, the exact constant bits of its `.json` and its
//! samplers bound to the 4x4 texture of `tests/corpus/README.md`, compared
//! with Mesa's `.f32` (whose row 0 is the bottom row; ours starts with the top row).
//!
//! Every shader bit-exact: the transcendental functions are the engine's own, glibc's formulas
//! (`exec/ops/trig.rs`, `exec/ops/exp_log.rs`), so no host libm decides a last bit.
//! Run with `--nocapture` to see the table that docs/render.md shows (with notes there).

use tgsi::render::job::{prepare, run};

const CORPUS: &str = corpus!("/softpipe");

#[path = "../common/corpus_inputs.rs"]
mod corpus_inputs;
pub(crate) use corpus_inputs::{constants_of, corpus_request, corpus_textures};

/// Distance in representable floats between two values (0 for identical bits or two NaNs).
pub(crate) fn ulp_distance(a: f32, b: f32) -> u64 {
    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    // Map the sign-magnitude bits onto a monotonic integer line (−0 sits one step below +0).
    let key = |x: f32| -> i64 {
        let i = x.to_bits() as i32 as i64;
        if i < 0 {
            i64::from(i32::MIN) - i - 1
        } else {
            i
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

#[test]
fn softpipe_corpus() {
    check_corpus(tgsi::jit::Engine::Interpreter);
}

/// The same cases with the fragment shader compiled (`--engine jit`): Mesa's pixels within the
/// same allowances, and for the shaders the JIT compiles the interpreter's pixels bit for bit.
#[test]
fn softpipe_corpus_jit() {
    let compiled = check_corpus(tgsi::jit::Engine::Jit);
    println!("compiled by the JIT: {compiled}");
    assert!(compiled >= 25, "only {compiled} corpus shaders compiled");
}

/// The softpipe corpus's case names (each `NAME.tgsi` with `NAME.vs.tgsi` and `NAME.json`), sorted.
pub(crate) fn corpus_cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(CORPUS)
        .expect("corpus directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tgsi") && !n.ends_with(".vs.tgsi"))
        .map(|n| n.trim_end_matches(".tgsi").to_string())
        .collect();
    names.sort();
    assert!(names.len() >= 20, "corpus not found at {}", CORPUS);
    names
}

/// Renders every case with `engine`; returns how many ran compiled.
fn check_corpus(engine: tgsi::jit::Engine) -> usize {
    let mut compiled = 0;
    let names = corpus_cases();
    let mut failures = Vec::new();
    println!("| shader | status | max ulp |\n|---|---|---|");
    for name in &names {
        let read = |ext: &str| {
            std::fs::read_to_string(format!("{}/{}{}", CORPUS, name, ext)).expect("corpus file")
        };
        let fs = read(".tgsi");
        let vs = read(".vs.tgsi");
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        let req = corpus_request(&fs, &vs, &json);
        let (w, h) = (req.width, req.height);
        let (job, diags) = prepare(&req);
        let Some(mut job) = job else {
            failures.push(format!(
                "{}: does not prepare: {:?}",
                name,
                diags.iter().map(|d| &d.diagnostic.message).collect::<Vec<_>>()
            ));
            continue;
        };
        let mut textures = corpus_textures(&json);
        let reference = if engine == tgsi::jit::Engine::Jit
            && tgsi::jit::attach(&mut job, engine, true).is_ok()
        {
            compiled += 1;
            // The interpreter's frame of the same job, for the bit-for-bit comparison.
            let accel = job.fs_accel.take();
            let out = run(&job, None, &mut textures.clone(), job.default_budget());
            job.fs_accel = accel;
            out.ok().map(|o| o.framebuffer.f32_bytes())
        } else {
            None
        };
        let out = match run(&job, None, &mut textures, job.default_budget()) {
            Ok(o) => o,
            Err(d) => {
                failures.push(format!("{}: render error {}", name, d.diagnostic.message));
                continue;
            }
        };
        if let Some(r) = reference {
            if r != out.framebuffer.f32_bytes() {
                failures.push(format!("{name}: the JIT's pixels differ from the interpreter's"));
            }
        }
        let ours = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes());
        let bytes = std::fs::read(format!("{}/{}.f32", CORPUS, name)).expect("f32");
        let theirs = tgsi::render::image_io::f32_pixels(&bytes);
        assert_eq!(theirs.len(), (w * h) as usize);
        let mut max_ulp = 0u64;
        let mut first_bad = None;
        for y in 0..h {
            for x in 0..w {
                // Ours: row 0 = top. Corpus: row 0 = bottom.
                let a = ours[(y * w + x) as usize];
                let b = theirs[((h - 1 - y) * w + x) as usize];
                for c in 0..4 {
                    let d = ulp_distance(a[c], b[c]);
                    if d > max_ulp {
                        max_ulp = d;
                        first_bad = Some((x, h - 1 - y, c, a[c], b[c]));
                    }
                }
            }
        }
        let status = if max_ulp == 0 { "bit-exact" } else { "FAIL" };
        println!("| {} | {} | {} |", name, status, max_ulp);
        if max_ulp > 0 {
            failures.push(format!("{}: max {} ulp, first worst at (x {}, y {} from bottom, channel {}): ours {} vs softpipe {}", name, max_ulp, first_bad.map_or(0, |f| f.0), first_bad.map_or(0, |f| f.1), first_bad.map_or(0, |f| f.2), first_bad.map_or(0.0, |f| f.3), first_bad.map_or(0.0, |f| f.4)));
        }
    }
    assert!(failures.is_empty(), "conformance failures:\n{}", failures.join("\n"));
    compiled
}

#[test]
fn ulp_distance_is_symmetric_and_counts_across_zero() {
    assert_eq!(ulp_distance(1.0, 1.0), 0);
    assert_eq!(ulp_distance(1.0, f32::from_bits(1.0f32.to_bits() + 2)), 2);
    assert_eq!(ulp_distance(-0.0, 0.0), 1);
    assert_eq!(ulp_distance(f32::from_bits(1), -f32::from_bits(1)), 3);
}
