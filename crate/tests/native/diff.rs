//! `tgsi diff` on the hand-written pairs of `tests/diff-pairs/` (their README gives each
//! answer and why): equivalent rewrites report no difference with any seed; each subtly
//! different pair is found with every seed tried, within the default trials, and the reported
//! bits are the ones the pair's formula gives for the reported inputs.

use tgsi::diff::{compare, Difference, Found, Options, Outcome, Place, Side};
use tgsi::exec::NoTextures;

const PAIRS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/diff-pairs/");
const SEEDS: [u64; 5] = [1, 2, 3, 1234, 0xdead_beef];

fn options(seed: u64) -> Options {
    Options {
        seed,
        trials: 1000,
        exact_nan: false,
        budget: tgsi::limits::default_frame_budget(1),
        size: 32,
        grid: [1, 1, 1],
        block: None,
    }
}

fn side(text: &str) -> Side<'_> {
    let shader = tgsi::text::parse(text).shader.expect("the pair parses");
    let program = tgsi::exec::build(&shader).expect("the pair validates");
    Side { text, shader, program }
}

fn run_pair(name: &str, seed: u64) -> Outcome {
    let read = |s: &str| std::fs::read_to_string(format!("{PAIRS}{name}.{s}.tgsi")).expect("pair");
    let (ta, tb) = (read("a"), read("b"));
    let (a, b) = (side(&ta), side(&tb));
    compare(&a, &b, &options(seed), &mut NoTextures, &mut NoTextures).expect("comparable")
}

fn difference(name: &str, seed: u64) -> Difference {
    let out = run_pair(name, seed);
    assert!(out.interface.is_empty(), "{name}: {:?}", out.interface);
    out.difference.unwrap_or_else(|| panic!("{name} (seed {seed}): no difference found"))
}

/// The reported output channel and both bits.
fn output(d: &Difference) -> (String, usize, u32, u32) {
    match &d.found {
        Found::Output { key, channel, a, b } => (key.clone(), *channel, *a, *b),
        other => panic!("not an output difference: {other:?}"),
    }
}

/// The value of input `key`'s channel `c` in the reported lane.
fn input(d: &Difference, key: &str, c: usize) -> u32 {
    d.inputs.iter().find(|(k, _)| k == key).map(|(_, v)| v[c]).expect(key)
}

#[test]
fn equivalent_rewrites_show_no_difference() {
    for name in ["swizzle", "mad_mul_add", "folded", "vs_rename", "vs_commuted", "cs_double"] {
        for seed in SEEDS {
            let out = run_pair(name, seed);
            assert!(out.same(), "{name} (seed {seed}): {:?} {:?}", out.interface, out.difference);
            assert!(!out.checked.is_empty());
        }
    }
}

#[test]
fn fma_and_mad_differ_by_their_rounding() {
    for seed in SEEDS {
        let d = difference("fma_mad", seed);
        let (key, c, a, b) = output(&d);
        assert_eq!(key, "COLOR[0]");
        // MAD: two roundings; FMA: one (fmaf), for the reported lane's inputs (a random quad's,
        // or as the draw fed the pixel's fragment).
        let x = f32::from_bits(input(&d, "GENERIC[0]", c));
        let y = f32::from_bits(input(&d, "GENERIC[1]", c));
        let z = f32::from_bits(input(&d, "GENERIC[2]", c));
        assert_eq!(a, (x * y + z).to_bits(), "seed {seed}");
        assert_eq!(b, x.mul_add(y, z).to_bits(), "seed {seed}");
    }
}

#[test]
fn slt_and_one_minus_sge_differ_only_on_nan() {
    for seed in SEEDS {
        let d = difference("slt_not_sge", seed);
        assert!(matches!(d.place, Place::Trial(_)), "the picture holds no NaN: {:?}", d.place);
        let (_, c, a, b) = output(&d);
        let (x, y) = (input(&d, "GENERIC[0]", c), input(&d, "GENERIC[1]", c));
        assert!(f32::from_bits(x).is_nan() || f32::from_bits(y).is_nan(), "seed {seed}");
        assert_eq!((a, b), (0.0f32.to_bits(), 1.0f32.to_bits()), "seed {seed}");
    }
}

#[test]
fn a_dropped_write_mask_is_found_in_the_channel_it_left() {
    for seed in SEEDS {
        let d = difference("mask_dropped", seed);
        let (_, c, a, b) = output(&d);
        assert_eq!((c, b), (3, 0), "seed {seed}: w is never written by B");
        assert_ne!(a, 0);
        let d = difference("vs_mask", seed);
        // The cube's first vertex has z = 0.5 (render::mesh::cube: the +x face's corner).
        assert_eq!(d.place, Place::MeshVertex { mesh: "cube", vertex: 0 });
        assert_eq!(output(&d), ("POSITION[0]".into(), 2, 0.5f32.to_bits(), 0));
    }
}

#[test]
fn adding_zero_differs_from_a_move_only_on_negative_zero() {
    for seed in SEEDS {
        let d = difference("neg_zero", seed);
        assert!(matches!(d.place, Place::Trial(_)), "{:?}", d.place);
        let (_, c, a, b) = output(&d);
        assert_eq!(input(&d, "GENERIC[0]", c), 0x8000_0000, "seed {seed}");
        assert_eq!((a, b), (0, 0x8000_0000), "seed {seed}");
        let d = difference("cs_plus_zero", seed);
        let Place::Dispatch { buffer: 0, word, writer, .. } = d.place else {
            panic!("{:?}", d.place)
        };
        // Invocation i stores word i (cs_plus_zero: address = THREAD_ID.x * 4).
        assert_eq!(writer, Some(([0, 0, 0], word)), "seed {seed}");
        let (ta, tb) = d.traces.as_ref().expect("both traces of the writing quad");
        assert!(
            ta.steps.iter().any(|s| s.opcode == "ADD")
                && tb.steps.iter().any(|s| s.opcode == "MOV")
        );
        assert!(word < 8, "only the eight invocations' words are written");
        assert_eq!(d.found, Found::Word { a: 0, b: 0x8000_0000 }, "seed {seed}");
    }
}

#[test]
fn a_loop_bound_off_by_one_is_found_at_the_first_pixel() {
    for seed in SEEDS {
        let d = difference("loop_bound", seed);
        // The picture comes first and differs everywhere: the top-left pixel.
        assert_eq!(d.place, Place::Pixel { mesh: "fullscreen", x: 0, y: 0 });
        assert_eq!(output(&d), ("COLOR[0]".into(), 0, 4.0f32.to_bits(), 5.0f32.to_bits()));
        let (ta, tb) = d.traces.as_ref().expect("both traces");
        // A's fifth loop test leaves the loop; B's goes round once more: 4 and 5 ADDs.
        let adds = |t: &tgsi::exec::Trace| t.steps.iter().filter(|s| s.opcode == "ADD").count();
        assert_eq!((adds(ta), adds(tb)), (8, 10));
    }
}

#[test]
fn the_first_unmatched_step_is_where_the_traces_part() {
    let d = difference("loop_bound", 1);
    let (ta, tb) = d.traces.as_ref().expect("traces");
    // Both write 1, 2, 3, 4 into TEMP[0].x; only B goes on to 5.0, at its 5th counter ADD
    // pair: the first value A never writes is B's 5.0 (TEMP[0].x), A has none.
    assert_eq!(tgsi::diff::report::first_unmatched(ta, tb, d.lane, false), None);
    let k = tgsi::diff::report::first_unmatched(tb, ta, d.lane, false).expect("B's 5.0");
    let w = &tb.steps[k].writes[0];
    assert_eq!((w.register.as_str(), w.bits[d.lane]), ("TEMP[0]", 5.0f32.to_bits()));
}

#[test]
fn shaders_of_two_kinds_do_not_compare() {
    let (ta, tb) = (
        std::fs::read_to_string(format!("{PAIRS}neg_zero.a.tgsi")).unwrap(),
        std::fs::read_to_string(format!("{PAIRS}vs_mask.a.tgsi")).unwrap(),
    );
    let (a, b) = (side(&ta), side(&tb));
    let e = compare(&a, &b, &options(1), &mut NoTextures, &mut NoTextures).unwrap_err();
    assert!(e.contains("FRAG") && e.contains("VERT"), "{e}");
}

/// `tgsi trace --backends`: a quad of two softpipe corpus shaders in the interpreter, the
/// compiling tier and the AGAL executor, each pixel checked against softpipe's own float pixel
/// (`tests/corpus/softpipe/NAME.f32`, row 0 at the bottom).
#[test]
fn a_corpus_quad_in_every_engine_gives_softpipes_pixels() {
    use crate::conformance::{corpus_request, corpus_textures};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/softpipe/");
    for name in ["03_trig", "28_matrix"] {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}{name}{ext}")).expect("case");
        let (fs, vs) = (read(".tgsi"), read(".vs.tgsi"));
        let json: serde_json::Value = serde_json::from_str(&read(".json")).expect("json");
        let req = corpus_request(&fs, &vs, &json);
        let (w, h) = (req.width, req.height);
        let mut job = tgsi::render::job::prepare(&req).0.expect("prepares");
        let compiled = tgsi::jit::accelerator(&job.fs, true);
        let mut textures = corpus_textures(&json);
        let budget = job.default_budget();
        let b =
            tgsi::diff::backends::gather(&fs, &mut job, compiled, 21, 30, &mut textures, budget)
                .expect("gathers");
        assert_eq!(b.quad, [20, 30]);
        let theirs = std::fs::read(format!("{dir}{name}.f32")).expect("pixels");
        for (p, (dx, dy)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
            let (x, y_top) = (20 + dx, 30 + dy);
            let at = (((h - 1 - y_top) * w + x) * 16) as usize;
            let want: [u32; 4] = std::array::from_fn(|c| {
                let b = &theirs[at + 4 * c..at + 4 * c + 4];
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            });
            assert!(!b.skipped[p]);
            assert_eq!(b.interpreter[p], want, "{name} pixel {p}: interpreter");
            assert_eq!(
                b.compiled.as_ref().expect("compiled")[p],
                want,
                "{name} pixel {p}: compiled"
            );
            assert_eq!(b.agal.as_ref().expect("exported")[p], want, "{name} pixel {p}: AGAL");
        }
    }
}

#[test]
fn the_backends_table_says_which_engine_differs_in_which_channel_and_why_one_is_missing() {
    let one = 1.0f32.to_bits();
    let mut agal = [[0, 0, 0, one]; 4];
    agal[2][3] = one + 1; // the bottom-left pixel's w, one ulp up
    let b = tgsi::diff::backends::Backends {
        pixel: [5, 7],
        quad: [4, 6],
        at: [Some([4, 6]), Some([5, 6]), Some([4, 7]), Some([5, 7])],
        skipped: [false, true, false, false],
        interpreter: [[0, 0, 0, one]; 4],
        compiled: Err("not compiled: a reason".into()),
        agal: Ok(agal),
    };
    let text = tgsi::diff::backends::text(&b);
    assert!(text.contains("  compiled: not compiled: a reason\n"), "{text}");
    assert!(text.contains("  top-right (5, 6): outside the traced primitive (another may draw it) or killed: not compared\n"), "{text}");
    assert!(text.contains("  bottom-left (4, 7)\n"), "{text}");
    assert!(text.contains("3f800001  (0, 0, 0, 1.0000001)  differs in w"), "{text}");
    assert_eq!(text.matches("the same").count(), 2, "{text}");
}
