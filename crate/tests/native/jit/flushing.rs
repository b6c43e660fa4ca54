//! Programs that flush denormals (`exec::program::Denormals::InDraw`: the fragment shader of
//! a draw chunk softpipe shades inside its draw call, docs/interpreter.md "Denormals") in the
//! module: the same bits as the interpreter over the corpus and seeded random programs whose
//! inputs are a third special bit patterns (denormals among them), and hand values for the
//! rules a plain module would get wrong.

use super::differential::{compare, corpus_programs, counting_machine, Tally};
use super::random::gen_program;
use crate::rng::Rng;
use std::sync::atomic::Ordering;
use tgsi::exec::program::Denormals;
use tgsi::exec::{Batch, Constants, Lanes, Program, DEFAULT_BUDGET};
use tgsi::jit::native::NativeProgram;

/// `text` compiled as the render compiles a fragment shader for draw chunks inside the view.
fn flushing(text: &str) -> Option<Program> {
    let shader = tgsi::text::parse(text).shader?;
    let analysed = tgsi::valid::analyse(&shader, &tgsi::valid::Options::default()).ok()?;
    tgsi::exec::compile_with(&analysed, Denormals::InDraw).ok()
}

fn flushes(p: &Program) -> bool {
    p.code.iter().any(|i| i.daz != 0 || i.ftz)
}

#[test]
fn flushing_corpus_shaders_match_the_interpreter() {
    let tally = Tally::default();
    let mut compared = 0;
    for (name, _) in corpus_programs() {
        let Some(p) = std::fs::read_to_string(&name).ok().and_then(|t| flushing(&t)) else {
            continue;
        };
        if !flushes(&p) || tgsi::jit::compile(&p).is_err() {
            continue;
        }
        for (seed, nq) in [(1u64, 1usize), (2, 7), (3, 64)] {
            let budget = tgsi::limits::default_frame_budget(nq as u64);
            if let Err(e) = compare(&p, seed, nq, budget, &tally) {
                panic!("{name} flushing (seed {seed}, {nq} quads): {e}");
            }
        }
        compared += 1;
    }
    eprintln!("jit flushing corpus: {compared} shaders compared");
    assert!(compared >= 20, "only {compared} flushing corpus shaders compiled");
    assert!(tally.done.load(Ordering::Relaxed) >= 3 * 20, "the JIT finished too few batches");
}

#[test]
fn flushing_random_programs_match_the_interpreter() {
    let tally = Tally::default();
    let mut rng = Rng(0x0f15_ada2);
    let runs = 600;
    let mut compared = 0;
    for i in 0..runs {
        let text = gen_program(&mut rng);
        let seed = rng.next();
        let nq = 1 + rng.below(12);
        let Some(p) = flushing(&text) else { continue };
        let budget = 4000 * nq as u64;
        if let Err(e) = compare(&p, seed, nq, budget, &tally) {
            panic!("random flushing program {i} (seed {seed:#x}, {nq} quads): {e}\n{text}");
        }
        compared += 1;
    }
    eprintln!("jit flushing random: {compared} of {runs} programs compared");
    assert!(compared >= runs * 9 / 10, "only {compared} of {runs} random programs compiled");
    assert!(tally.done.load(Ordering::Relaxed) >= runs / 2, "the JIT finished too few batches");
}

/// Runs one quad of `p` through the module (which must finish it) with IN[0] = `x` in every
/// lane, as raw bits.
fn run_in_module(p: &Program, x: [u32; 4]) -> Batch {
    let native = NativeProgram::new(p).expect("compiles");
    let tally = Tally::default();
    let mut m = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut b = Batch::new(p, 1);
    for (c, &v) in x.iter().enumerate() {
        b.set_input(0, c, 0, Lanes([v; 4]));
    }
    m.run(p, &mut b, &Constants::default()).expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
    b
}

#[test]
fn flushing_rules_give_hand_values_in_the_module() {
    // Worked by hand (docs/interpreter.md, "Denormals"):
    // - MUL: 2^-63 · (2^-64 · (2 − 2^-23)) = 2^-126 · (1 − 2^-24) exactly, which rounds (to
    //   even) up to 2^-126 = 0x00800000; x86 FTZ detects tininess before rounding, so the
    //   flushing product is +0 (and −0 with the sign of −2^-63).
    // - ADD: 2^-149 (0x00000001) read as zero: 0 + 0 = +0, where IEEE gives 0x00000001.
    // - MIN(−0, +0): equal operands give the first, −0 (glibc's fminf would give +0).
    // - MAD 2^-63 · 2^-63 + 0: the product 2^-126 is normal and kept.
    let text =
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n\
                IMM[0] UINT32 {536870911, 1, 2147483648, 0}\n\
                MUL OUT[0].x, IN[0].xxxx, IMM[0].xxxx\n\
                MUL OUT[0].y, -IN[0].xxxx, IMM[0].xxxx\n\
                ADD OUT[0].z, IMM[0].yyyy, IMM[0].wwww\n\
                MIN OUT[0].w, IMM[0].zzzz, IMM[0].wwww\n\
                MAD OUT[1].x, IN[0].xxxx, IN[0].xxxx, IMM[0].wwww\n\
                MUL OUT[1].y, IN[0].xxxx, IMM[0].xxxx\n\
                END\n";
    let flushed = flushing(text).expect("compiles flushing");
    let b = run_in_module(&flushed, [0x2000_0000; 4]);
    let all = |v: u32| Lanes([v; 4]);
    assert_eq!(b.output(0, 0, 0), all(0), "MUL: tininess before rounding");
    assert_eq!(b.output(0, 1, 0), all(0x8000_0000), "MUL: the zero keeps the sign");
    assert_eq!(b.output(0, 2, 0), all(0), "ADD: a denormal operand is zero");
    assert_eq!(b.output(0, 3, 0), all(0x8000_0000), "MIN: the first of equal zeros");
    assert_eq!(b.output(1, 0, 0), all(0x0080_0000), "MAD: a normal product is kept");
    // The same program keeping denormals: IEEE results (the rules above are the flushing ones).
    let plain = super::differential::program(text);
    let b = run_in_module(&plain, [0x2000_0000; 4]);
    assert_eq!(b.output(0, 0, 0), all(0x0080_0000), "plain MUL rounds up to 2^-126");
    assert_eq!(b.output(0, 2, 0), all(1), "plain ADD keeps the denormal");
    assert_eq!(b.output(0, 3, 0), all(0), "plain MIN: fminf gives the second zero");
}

#[test]
fn a_read_after_a_flushing_write_in_the_same_run_uses_the_written_lanes() {
    // TEMP[0].x holds 2^-128 (a denormal, 0x00200000) in every lane. Inside the UIF, which lanes
    // 0 and 1 enter (IN[0].y), a flushing ADD writes 2^-125 (0x01000000) into them, and the
    // next ADD, in the same run, reads TEMP[0].x without a flush of its own
    // (`codegen::flush::flushed_reads`): its entered lanes give 2^-125 + 2^-125 = 2^-124
    // (0x01800000), and lanes 2 and 3, which read the denormal, are blended away (OUT stays 0).
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
                IMM[0] UINT32 {2097152, 0, 16777216, 0}\n\
                MOV TEMP[0].x, IMM[0].xxxx\n\
                UIF IN[0].yyyy\n\
                ADD TEMP[0].x, IN[0].xxxx, IMM[0].yyyy\n\
                ADD OUT[0].x, TEMP[0].xxxx, IMM[0].zzzz\n\
                ENDIF\n\
                END\n";
    let p = flushing(text).expect("compiles flushing");
    let inputs = |b: &mut Batch| {
        b.set_input(0, 0, 0, Lanes([0x0100_0000; 4]));
        b.set_input(0, 1, 0, Lanes([1, 1, 0, 0]));
    };
    let native = NativeProgram::new(&p).expect("compiles");
    let tally = Tally::default();
    let mut m = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut b = Batch::new(&p, 1);
    inputs(&mut b);
    m.run(&p, &mut b, &Constants::default()).expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
    let expected = Lanes([0x0180_0000, 0x0180_0000, 0, 0]);
    assert_eq!(b.output(0, 0, 0), expected, "the module");
    let mut interp = Batch::new(&p, 1);
    inputs(&mut interp);
    let mut machine = tgsi::exec::Machine::with_budget(DEFAULT_BUDGET);
    machine.run(&p, &mut interp, &Constants::default()).expect("runs");
    assert_eq!(interp.output(0, 0, 0), expected, "the interpreter");
}

#[test]
fn a_row_moved_from_a_denormal_immediate_is_still_read_flushed() {
    // TEMP[0].x is written by a MOV of 2^-149 (0x00000001, a denormal: MOV keeps bits) and by
    // a flushing ADD; TEMP[1].x by a MOV of 1.0 and the ADD. Inside the UIF (a flow
    // instruction between the writes and the reads):
    // - MUL reads TEMP[0].x's denormal as zero: 0 · 2^127 = +0, where the denormal as written
    //   would give 2^-149 · 2^127 = 2^-22 (0x34800000);
    // - ADD reads TEMP[1].x's 1.0 as it is (`flush::clean_rows`: a MOV of 1.0 writes no
    //   denormal): 1.0 + 0 = 1.0 (0x3f800000).
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
                IMM[0] UINT32 {1, 1065353216, 0, 2130706432}\n\
                MOV TEMP[0].x, IMM[0].xxxx\n\
                MOV TEMP[1].x, IMM[0].yyyy\n\
                UIF IN[0].yyyy\n\
                MUL OUT[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
                ADD OUT[0].y, TEMP[1].xxxx, IMM[0].zzzz\n\
                ENDIF\n\
                ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz\n\
                ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz\n\
                END\n";
    let p = flushing(text).expect("compiles flushing");
    let b = run_in_module(&p, [0, 1, 0, 0]);
    assert_eq!(b.output(0, 0, 0), Lanes([0; 4]), "the denormal moved in is read as zero");
    assert_eq!(b.output(0, 1, 0), Lanes([0x3f80_0000; 4]), "1.0 moved in is read as it is");
}

#[test]
fn rows_copied_from_a_denormal_are_still_read_flushed() {
    // TEMP[0].x holds 2^-149 (0x00000001, a MOV keeps bits). Copies of it: TEMP[1].x by a MOV,
    // TEMP[2].x by a UCMP whose condition IN[0].y = 1 selects it, and TEMP[3].x by a MOV of
    // TEMP[4].x, itself a MOV of TEMP[1].x (dirty only as the copy of a copy: `flush::clean_rows`
    // passes dirtiness along the copies). Inside the UIF each is
    // multiplied by 2^127 and read as zero: +0, where the denormal as written would give
    // 2^-149 · 2^127 = 2^-22 (0x34800000). TEMP[5].x is a MOV of IN[0].x, which holds 2^-149
    // too: an input may hold anything, so its copy is read as zero as well.
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..5]\n\
                IMM[0] UINT32 {1, 1065353216, 0, 2130706432}\n\
                MOV TEMP[0].x, IMM[0].xxxx\n\
                MOV TEMP[1].x, TEMP[0].xxxx\n\
                UCMP TEMP[2].x, IN[0].yyyy, TEMP[0].xxxx, IMM[0].yyyy\n\
                MOV TEMP[4].x, TEMP[1].xxxx\n\
                MOV TEMP[3].x, TEMP[4].xxxx\n\
                MOV TEMP[5].x, IN[0].xxxx\n\
                UIF IN[0].yyyy\n\
                MUL OUT[0].x, TEMP[1].xxxx, IMM[0].wwww\n\
                MUL OUT[0].y, TEMP[2].xxxx, IMM[0].wwww\n\
                MUL OUT[0].z, TEMP[3].xxxx, IMM[0].wwww\n\
                MUL OUT[0].w, TEMP[5].xxxx, IMM[0].wwww\n\
                ENDIF\n\
                END\n";
    let p = flushing(text).expect("compiles flushing");
    let b = run_in_module(&p, [1, 1, 0, 0]);
    for (c, what) in [(0, "MOV"), (1, "UCMP"), (2, "MOV of a MOV"), (3, "MOV of an input")] {
        assert_eq!(b.output(0, c, 0), Lanes([0; 4]), "the {what} copy is read as zero");
    }
}

/// The softpipe corpus's shaders with their vertex shaders on the `quad` mesh, which lies
/// inside the view, so every chunk is shaded flushing denormals: the frame the flushing module
/// draws is the interpreter's, bit for bit (NaNs may differ in payload, as in `compare`).
#[test]
fn corpus_shaders_inside_the_view_draw_the_interpreters_pixels() {
    use crate::conformance::{corpus_cases, corpus_request, corpus_textures};
    use tgsi::jit::{attach, Engine};
    use tgsi::render::job::{prepare, run};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/softpipe");
    let mut compiled = 0;
    for name in corpus_cases() {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}{ext}")).expect("file");
        let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        let mut req = corpus_request(&fs, &vs, &json);
        req.mesh = Some("quad");
        let Some(mut job) = prepare(&req).0 else { continue };
        let textures = corpus_textures(&json);
        let frame = |job: &tgsi::render::job::Job| {
            let out = run(job, None, &mut textures.clone(), job.default_budget())
                .unwrap_or_else(|d| panic!("{name}: {}", d.diagnostic.message));
            (out.framebuffer.f32_bytes(), out.stats.flushed_quads)
        };
        attach(&mut job, Engine::Interpreter, false).expect("the interpreter");
        let (theirs, flushed) = frame(&job);
        assert!(flushed > 0, "{name}: the quad is inside the view, its chunk flushes");
        if attach(&mut job, Engine::Jit, true).is_err() || job.fs_in_draw_accel.is_none() {
            continue;
        }
        // Count the batches the flushing module finishes, so the test fails if it never runs.
        let tally = Tally::default();
        let inner = job.fs_in_draw_accel.take().expect("compiled");
        job.fs_in_draw_accel = Some(std::sync::Arc::new(Counted { inner, tally: tally.clone() }));
        let (ours, _) = frame(&job);
        assert!(tally.done.load(Ordering::Relaxed) > 0, "{name}: the flushing module drew");
        let word = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        for i in (0..theirs.len()).step_by(4) {
            let (a, b) = (word(&ours, i), word(&theirs, i));
            let nans = f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan();
            assert!(a == b || nans, "{name}: float {}: jit {a:08x}, interpreter {b:08x}", i / 4);
        }
        compiled += 1;
    }
    eprintln!("flushing module drew {compiled} corpus shaders inside the view");
    assert!(compiled >= 20, "only {compiled} corpus shaders drawn by the flushing module");
}

/// A compiled form whose machines' batches are counted ([`Tally`]).
struct Counted {
    inner: std::sync::Arc<dyn tgsi::exec::MakeAccelerator>,
    tally: Tally,
}

impl tgsi::exec::MakeAccelerator for Counted {
    fn make(&self) -> Option<Box<dyn tgsi::exec::Accelerator>> {
        Some(Box::new(super::differential::Counting::new(self.inner.make()?, &self.tally)))
    }
}

/// One frame of three draws: a triangle with a vertex outside the view (shaded keeping
/// denormals), one inside it (flushing), one outside again. The shader's outputs are
/// denormal, so the two programs give different pixels: each chunk is drawn by its own
/// module (both count batches) and the frame is the interpreter's.
#[test]
fn a_frame_switches_between_the_plain_and_the_flushing_module() {
    use tgsi::jit::{attach, Engine};
    use tgsi::render::job::{prepare, run, Request};
    let fs = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n\
              IMM[0] FLT32 {0.00000000000000000000000000000000000001, 0.0, 0.0, 0.0}\n\
              MUL OUT[0], IN[0], IMM[0].xxxx\nEND\n";
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
              MOV OUT[0], IN[0]\nMOV OUT[1], IN[0]\nEND\n";
    let tri = |p: [[f32; 2]; 3]| p.map(|[x, y]| format!("{{\"p\": [{x}, {y}, 0.5, 1]}}")).join(",");
    let vertices = format!(
        "{{\"attributes\": [{{\"name\": \"p\", \"location\": 0, \"components\": 4, \"kind\": \"f\"}}],\
          \"vertices\": [{}, {}, {}],\
          \"draws\": [{{\"mode\": \"TRIANGLES\", \"first\": 0, \"count\": 3}},\
                      {{\"mode\": \"TRIANGLES\", \"first\": 3, \"count\": 3}},\
                      {{\"mode\": \"TRIANGLES\", \"first\": 6, \"count\": 3}}]}}",
        tri([[-1.0, -1.0], [3.0, -1.0], [-1.0, 0.5]]),
        tri([[-1.0, 0.0], [1.0, 0.0], [1.0, 1.0]]),
        tri([[0.0, 0.5], [3.0, 0.5], [0.0, 3.0]]),
    );
    let req = Request {
        fs,
        vs: Some(vs),
        vertices: Some(&vertices),
        mesh: None,
        width: 16,
        height: 16,
        ..Request::default()
    };
    let (job, diags) = prepare(&req);
    let mut job = job.unwrap_or_else(|| panic!("{:?}", diags.first().map(|d| &d.diagnostic)));
    let frame = |job: &tgsi::render::job::Job| {
        let out = run(job, None, &mut tgsi::texture::bind::Bindings::new(), job.default_budget())
            .unwrap_or_else(|d| panic!("{}", d.diagnostic.message));
        (out.framebuffer.f32_bytes(), out.stats.flushed_quads)
    };
    attach(&mut job, Engine::Interpreter, false).expect("the interpreter");
    let (theirs, flushed) = frame(&job);
    assert!(flushed > 0, "the second draw flushes");
    // The two programs differ on these pixels: the frame drawn with the plain program only.
    let plain_only = {
        let mut j = prepare(&Request { vs: Some(vs), ..req.clone() }).0.expect("job");
        j.fs_in_draw = None;
        frame(&j).0
    };
    assert_ne!(plain_only, theirs, "flushing changes this frame");
    attach(&mut job, Engine::Jit, true).expect("compiled");
    let (plain, flushing) = (Tally::default(), Tally::default());
    for (slot, tally) in [(&mut job.fs_accel, &plain), (&mut job.fs_in_draw_accel, &flushing)] {
        let inner = slot.take().expect("both programs compiled");
        *slot = Some(std::sync::Arc::new(Counted { inner, tally: tally.clone() }));
    }
    let (ours, _) = frame(&job);
    assert!(plain.done.load(Ordering::Relaxed) >= 2, "the plain module drew the outer draws");
    assert!(flushing.done.load(Ordering::Relaxed) >= 1, "the flushing module drew the inner one");
    assert_eq!(ours, theirs, "the interpreter's frame");
}
