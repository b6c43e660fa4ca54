//! A dispatch on several threads (`exec::dispatch_threads`, docs/resources.md "Threads") leaves
//! what one thread leaves: every byte of every resource, the run's counts, the diagnostic of a
//! dispatch that stops and the resources as it left them. Each case runs 2, 3 and 7 threads
//! against one: every compute program of the repository, random grids over stores that
//! overlap between blocks, programs that must stay on one thread, and dispatches that the
//! budget or a stop from outside ends. Expected values of the overlapping stores are worked out
//! here from the program, never taken from the engine.

use crate::rng::Rng;
use crate::support::compile;
use std::path::Path;
use tgsi::exec::{
    dispatch_threads, Constants, ExecError, Fewer, FrameBudget, ImageBuffer, ImageFormat, Machine,
    MakeAccelerator, NoTextures, Program, Resources, RunStats, Stop, Threads, ThreadsUsed,
};

const THREADS: [usize; 3] = [2, 3, 7];

fn program(text: &str) -> Program {
    let parsed = tgsi::text::parse(text);
    let shader = parsed.shader.unwrap_or_else(|| panic!("parse: {:?}", parsed.diagnostics));
    compile(&shader).unwrap_or_else(|d| panic!("compile: {}", d.message))
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn random_bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next() as u8).collect()
}

/// What a dispatch leaves for its caller: the result and every resource.
#[derive(Debug, PartialEq)]
struct After {
    result: Result<RunStats, ExecError>,
    buffers: Vec<(u32, Vec<u8>)>,
    images: Vec<(u32, ImageBuffer)>,
    atomic_buffers: Vec<(u32, Vec<u8>)>,
    global: Vec<u8>,
    shared: Vec<u8>,
    private: Vec<Vec<u8>>,
}

/// Where two dispatches' leavings first differ (the result, or a resource and a byte), if they
/// do.
fn first_difference(a: &After, b: &After) -> Option<String> {
    if a.result != b.result {
        return Some(format!("results {:?} and {:?}", a.result, b.result));
    }
    let bytes = |what: String, x: &[u8], y: &[u8]| {
        let at = x.iter().zip(y).position(|(p, q)| p != q);
        (x.len() != y.len() || at.is_some()).then(|| {
            format!("{what}: lengths {} and {}, first different byte {at:?}", x.len(), y.len())
        })
    };
    let named = |kind: &str, x: &[(u32, Vec<u8>)], y: &[(u32, Vec<u8>)]| {
        if x.iter().map(|e| e.0).ne(y.iter().map(|e| e.0)) {
            return Some(format!("{kind}: other indices"));
        }
        x.iter().zip(y).find_map(|((n, p), (_, q))| bytes(format!("{kind}[{n}]"), p, q))
    };
    let images = |x: &[(u32, ImageBuffer)]| -> Vec<(u32, Vec<u8>)> {
        x.iter().map(|(n, i)| (*n, i.data.clone())).collect()
    };
    let private = |x: &[Vec<u8>]| -> Vec<(u32, Vec<u8>)> {
        x.iter().enumerate().map(|(n, p)| (n as u32, p.clone())).collect()
    };
    named("BUFFER", &a.buffers, &b.buffers)
        .or_else(|| named("IMAGE", &images(&a.images), &images(&b.images)))
        .or_else(|| named("HWATOMIC", &a.atomic_buffers, &b.atomic_buffers))
        .or_else(|| bytes("global memory".into(), &a.global, &b.global))
        .or_else(|| bytes("shared memory".into(), &a.shared, &b.shared))
        .or_else(|| named("private memory", &private(&a.private), &private(&b.private)))
        .or_else(|| (a != b).then(|| "image sizes or formats".to_string()))
}

/// One dispatch as `tgsi run` makes it: a machine drawing from one frame of `budget` for the
/// whole grid, on `threads` threads, from a copy of `res`.
struct Case<'a> {
    program: &'a Program,
    res: &'a Resources,
    consts: &'a Constants,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
    budget: u64,
}

impl Case<'_> {
    fn run(&self, threads: usize) -> (After, Option<ThreadsUsed>) {
        let frame = FrameBudget::new(self.budget);
        self.run_with(Machine::in_frame(self.budget, &frame), None, threads)
    }

    fn run_with(
        &self,
        mut machine: Machine,
        accel: Option<&dyn MakeAccelerator>,
        threads: usize,
    ) -> (After, Option<ThreadsUsed>) {
        let mut res = self.res.clone();
        let (result, used) = dispatch_threads(
            &mut machine,
            self.program,
            self.consts,
            &mut NoTextures,
            &mut res,
            self.grid,
            self.block,
            Threads { count: threads, accel },
        );
        assert!(res.written.is_none(), "the caller's resources keep no log");
        let after = After {
            result,
            buffers: res.buffers.into_iter().collect(),
            images: res.images.into_iter().collect(),
            atomic_buffers: res.atomic_buffers.into_iter().collect(),
            global: res.global,
            shared: res.shared,
            private: res.private,
        };
        (after, used)
    }

    /// Runs on one thread and on each of [`THREADS`]; asserts they leave the same and returns
    /// one thread's run and the threads each other run used.
    fn same_on_every_count(&self, name: &str) -> (After, Vec<ThreadsUsed>) {
        let (one, used) = self.run(1);
        assert_eq!(used.map(|u| u.threads), Some(1), "{name}");
        let mut uses = Vec::new();
        for n in THREADS {
            let (many, used) = self.run(n);
            if let Some(what) = first_difference(&many, &one) {
                panic!("{name}: {n} threads left something else than one: {what}");
            }
            let used = used.unwrap_or_else(|| panic!("{name}: the sizes were accepted"));
            assert!(used.threads >= 1 && used.threads <= n, "{name}: {used:?}");
            uses.push(used);
        }
        (one, uses)
    }
}

/// Every compute program in the repository's files (`programs/`, `tests/`: the gallery, the
/// stage starter, the reference's examples, the corpus, the snapshot and diff inputs) and the
/// compute tests' own programs.
fn repository_compute_programs() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "node_modules") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "tgsi") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if text.trim_start().starts_with("COMP") {
                    out.push((path.display().to_string(), text));
                }
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    walk(&root.join("programs"), &mut found);
    walk(&root.join("tests"), &mut found);
    for (name, text) in [
        ("compute::dispatch HISTOGRAM", super::dispatch::HISTOGRAM),
        ("compute::dispatch IMAGE_STORES", super::dispatch::IMAGE_STORES),
        ("compute::cli DOUBLE", super::cli::DOUBLE),
    ] {
        found.push((name.to_string(), text.to_string()));
    }
    found
}

/// Random contents for what a program may touch: eight buffers, four counter buffers, each
/// declared image in its declared format (R32_UINT when it names none the engine stores),
/// global memory, and the first constants.
fn random_resources(p: &Program, rng: &mut Rng) -> (Resources, Constants) {
    let mut res = Resources::new();
    for n in 0..8 {
        let len = 4 * (16 + rng.below(240));
        res.buffers.insert(n, random_bytes(rng, len));
    }
    for n in 0..4 {
        res.atomic_buffers.insert(n, random_bytes(rng, 64));
    }
    for (n, _, format) in &p.images {
        let format =
            format.as_deref().and_then(ImageFormat::from_name).unwrap_or(ImageFormat::R32Uint);
        let [w, h, d] = [1 + rng.below(24), 1 + rng.below(12), 1 + rng.below(3)].map(|v| v as u32);
        let mut img = ImageBuffer::new(format, w, h, d).expect("a small image");
        img.data = random_bytes(rng, img.data.len());
        res.images.insert(*n, img);
    }
    res.global = random_bytes(rng, 4096);
    let mut consts = Constants::new();
    for i in 0..8 {
        consts.set_bits(0, i, [0; 4].map(|_: u32| rng.next() as u32 % 64));
    }
    (res, consts)
}

/// (a) Every compute program of the repository on random grids (its own block size when it
/// fixes one, else a random one) and random resources: 2, 3 and 7 threads leave what one
/// leaves. The programs that may run on several threads must do so, or the comparison would
/// compare one thread with itself.
#[test]
fn every_compute_program_leaves_one_threads_bytes() {
    let mut rng = Rng(0x7d5_c0de);
    let (mut ran, mut parallel, mut skipped) = (0, Vec::new(), Vec::new());
    for (name, text) in repository_compute_programs() {
        let parsed = tgsi::text::parse(&text);
        let Some(p) = parsed.shader.as_ref().and_then(|s| compile(s).ok()) else {
            skipped.push(name);
            continue;
        };
        ran += 1;
        let fixed = tgsi::exec::compute::fixed_block_size(&p).is_some();
        for _ in 0..2 {
            let (res, consts) = random_resources(&p, &mut rng);
            let grid = [1 + rng.below(9), 1 + rng.below(3), 1 + rng.below(2)].map(|v| v as u32);
            let block =
                (!fixed).then(|| [1 + rng.below(12), 1 + rng.below(3), 1].map(|v| v as u32));
            let budget = tgsi::exec::compute::default_budget(&p, grid, block);
            let case = Case { program: &p, res: &res, consts: &consts, grid, block, budget };
            let (_, uses) = case.same_on_every_count(&name);
            if uses.iter().any(|u| u.threads > 1) && !parallel.contains(&name) {
                parallel.push(name.clone());
            }
        }
    }
    // 63 files begin with COMP, and three programs are the tests' own: 48 build. The others
    // are the corpus's templates (preprocessor lines) and its programs of the older syntax
    // (RES, LOCAL), which the validator refuses (not this test's business).
    assert!(ran >= 48, "only {ran} compute programs ran; skipped: {skipped:?}");
    for must in ["image-write.cs.tgsi", "starters/compute.cs.tgsi", "store.cs.tgsi", "resq.cs.tgsi"]
    {
        assert!(
            parallel.iter().any(|n| n.ends_with(must)),
            "{must} stores without reading: it must run on several threads ({parallel:?})"
        );
    }
    // 22 of them only store to what they share (the corpus's video and copy shaders among them).
    assert!(parallel.len() >= 22, "{} ran on several threads: {parallel:?}", parallel.len());
}

/// Every block stores into the same words (tgsi.rst STORE; the block's linear index
/// id = (z * gy + y) * gx + x, of `total` blocks):
/// * word i (i < 64): `total - 1 - id`, so the last block writes 0, which is also what the
///   buffer held, and every earlier block something else;
/// * word 64 + i: `id + 1`, written by odd blocks only;
/// * word 128 + i: `id + 1`, written by every block, over random contents.
///
/// for i = THREAD_ID.x. One thread leaves 0 in the first words, the last odd block's id + 1 in
/// the second, `total` in the third.
const OVERLAPPING: &str = "COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], GRID_SIZE
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 1, 256, 512}
UMAD TEMP[0].x, SV[1].zzzz, SV[2].yyyy, SV[1].yyyy
UMAD TEMP[0].x, TEMP[0].xxxx, SV[2].xxxx, SV[1].xxxx
UMUL TEMP[1].x, SV[2].xxxx, SV[2].yyyy
UMUL TEMP[1].x, TEMP[1].xxxx, SV[2].zzzz
NOT TEMP[0].y, TEMP[0].xxxx
UADD TEMP[1].x, TEMP[1].xxxx, TEMP[0].yyyy
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].zzzz, TEMP[1].xxxx
UADD TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy
UADD TEMP[2].y, TEMP[0].zzzz, IMM[0].wwww
STORE BUFFER[0].x, TEMP[2].yyyy, TEMP[2].xxxx
AND TEMP[0].w, TEMP[0].xxxx, IMM[0].yyyy
UIF TEMP[0].wwww
  UADD TEMP[2].y, TEMP[0].zzzz, IMM[0].zzzz
  STORE BUFFER[0].x, TEMP[2].yyyy, TEMP[2].xxxx
ENDIF
END
";

/// (b) Random grids and blocks over [`OVERLAPPING`]: N threads leave one thread's bytes, and
/// those are the hand-derived ones (the last block's stores win). Why each region can fail:
/// with two or more ranges, an earlier range wrote a non-zero word where the last block
/// writes 0, the buffer's own value, so a merge that kept only bytes which differ from the
/// original would leave that non-zero word; and the first range ends before the last block,
/// so taking its copy, or laying the copies in another order than the blocks', would leave a
/// smaller id + 1 than `total` in the third region.
#[test]
fn overlapping_stores_keep_the_last_blocks_bytes() {
    let p = program(OVERLAPPING);
    let mut rng = Rng(0x0be_71a9);
    let mut several = 0;
    for _ in 0..40 {
        let grid = [1 + rng.below(12), 1 + rng.below(3), 1 + rng.below(3)].map(|v| v as u32);
        let block = [1 + rng.below(40), 1 + rng.below(3), 1 + rng.below(2)].map(|v| v as u32);
        let mut res = Resources::new();
        let mut bytes = vec![0u8; 4 * 128];
        bytes.extend(random_bytes(&mut rng, 4 * 64));
        res.buffers.insert(0, bytes.clone());
        let consts = Constants::new();
        let case = Case {
            program: &p,
            res: &res,
            consts: &consts,
            grid,
            block: Some(block),
            budget: 1 << 30,
        };
        let (one, uses) = case.same_on_every_count("overlapping");
        let total = grid.iter().product::<u32>();
        let width = (block[0] as usize).min(64);
        let last_odd = (0..total).rev().find(|id| id & 1 == 1);
        let mut want = words(&bytes);
        for i in 0..width {
            want[i] = 0;
            want[128 + i] = total;
            if let Some(id) = last_odd {
                want[64 + i] = id + 1;
            }
        }
        assert_eq!(words(&one.buffers[0].1), want, "grid {grid:?} block {block:?}");
        // The program only stores: every count of threads is used, up to one per block.
        for (n, used) in THREADS.iter().zip(&uses) {
            let expect = (*n as u32).min(total) as usize;
            assert_eq!(used.threads, expect, "grid {grid:?}, {n} threads: {used:?}");
            if expect > 1 {
                several += 1;
            }
        }
    }
    assert!(several > 60, "only {several} runs used several threads");
}

/// (c) Atomics on resources every block shares keep a dispatch on one thread (what they return
/// follows the blocks' order), and so do loads of what the program stores; the result is one
/// thread's. Atomics on shared memory, which belongs to one block, do not.
#[test]
fn atomics_and_loads_of_stores_stay_on_one_thread() {
    let one_thread = |why: Fewer| ThreadsUsed { threads: 1, fewer: Some(why) };
    let cases: [(&str, &str, Option<[u32; 3]>, Fewer); 5] = [
        ("histogram (dispatch.rs)", super::dispatch::HISTOGRAM, Some([6, 1, 1]), Fewer::Atomics),
        ("double (cli.rs)", super::cli::DOUBLE, None, Fewer::Atomics),
        ("histogram example", program!("examples/histogram.cs"), None, Fewer::Atomics),
        ("ATOMUADD example", program!("reference-examples/atomuadd.cs"), None, Fewer::Atomics),
        ("prefix sum", program!("examples/prefix-sum.cs"), None, Fewer::ReadsStores),
    ];
    let mut rng = Rng(0xa7_0a1c);
    for (name, text, block, why) in cases {
        let p = program(text);
        let (res, consts) = random_resources(&p, &mut rng);
        let grid = [5, 2, 1];
        let budget = tgsi::exec::compute::default_budget(&p, grid, block);
        let case = Case { program: &p, res: &res, consts: &consts, grid, block, budget };
        let (_, uses) = case.same_on_every_count(name);
        assert!(uses.iter().all(|u| *u == one_thread(why)), "{name}: {uses:?}");
    }

    // Counting into shared memory, then one store per block: several threads.
    let shared = program(
        "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 6
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL MEMORY[0], SHARED
DCL TEMP[0..1]
IMM[0] UINT32 {0, 1, 4, 0}
ATOMUADD TEMP[0].x, MEMORY[0], IMM[0].xxxx, IMM[0].yyyy
BARRIER
LOAD TEMP[0].x, MEMORY[0], IMM[0].xxxx
UMUL TEMP[1].x, SV[1].xxxx, IMM[0].zzzz
STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx
END
",
    );
    let mut res = Resources::new();
    res.buffers.insert(0, vec![0; 4 * 9]);
    let consts = Constants::new();
    let case = Case {
        program: &shared,
        res: &res,
        consts: &consts,
        grid: [9, 1, 1],
        block: None,
        budget: 1 << 20,
    };
    let (one, uses) = case.same_on_every_count("shared counter");
    assert_eq!(words(&one.buffers[0].1), vec![6; 9]);
    assert_eq!(uses.iter().map(|u| u.threads).collect::<Vec<_>>(), THREADS);

    // One program storing channels x and y of a texel: with an R32 image it writes the only
    // channel there is; with an RGBA8 or RGBA16F image it keeps z and w as decoded and encoded
    // again, which reads the image.
    let xy = program(
        "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0]
MOV TEMP[0].xy, SV[0].xxxx
MOV TEMP[0].y, SV[1].xxxx
STORE IMAGE[0].xy, TEMP[0], SV[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
END
",
    );
    for (format, expect) in [
        (ImageFormat::R32Uint, ThreadsUsed { threads: 3, fewer: None }),
        (ImageFormat::Rgba16Float, one_thread(Fewer::ReadsStores)),
        (ImageFormat::Rgba8Unorm, one_thread(Fewer::ReadsStores)),
    ] {
        let mut res = Resources::new();
        let mut img = ImageBuffer::new(format, 4, 8, 1).expect("small");
        img.data = random_bytes(&mut rng, img.data.len());
        if format == ImageFormat::Rgba16Float {
            // Signalling NaNs in z and w come back quiet from the decode and encode (`half`):
            // on several threads the texels would keep them, so the bytes show the difference.
            for texel in img.data.chunks_exact_mut(8) {
                texel[4..8].copy_from_slice(&[0x55, 0x7d, 0x01, 0xfc]);
            }
        }
        res.images.insert(0, img);
        let case = Case {
            program: &xy,
            res: &res,
            consts: &consts,
            grid: [8, 1, 1],
            block: None,
            budget: 1 << 20,
        };
        case.same_on_every_count("xy store");
        assert_eq!(case.run(3).1, Some(expect), "{format:?}");
    }

    // A load through an index known only when it runs may read the buffer that is stored to.
    let loads = |index: &str| {
        program(&format!(
            "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL BUFFER[0..1]
DCL ADDR[0]
DCL TEMP[0]
IMM[0] UINT32 {{4, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UARL ADDR[0].x, IMM[0].yyyy
LOAD TEMP[0].y, {index}, TEMP[0].xxxx
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[0].yyyy
END
"
        ))
    };
    let mut res = Resources::new();
    res.buffers.insert(0, random_bytes(&mut rng, 16));
    res.buffers.insert(1, random_bytes(&mut rng, 16));
    for (index, expect) in [
        ("BUFFER[0]", ThreadsUsed { threads: 2, fewer: None }),
        ("BUFFER[ADDR[0].x]", one_thread(Fewer::ReadsStores)),
    ] {
        let p = loads(index);
        let case = Case {
            program: &p,
            res: &res,
            consts: &consts,
            grid: [6, 1, 1],
            block: None,
            budget: 1 << 20,
        };
        case.same_on_every_count(index);
        assert_eq!(case.run(2).1, Some(expect), "{index}");
    }
}

/// Stores one word per invocation, then loops: `LOOP` times (a counted loop) or forever.
fn looping(count: Option<u32>) -> Program {
    let exit = count.map_or(String::new(), |_| {
        "USGE TEMP[1].x, TEMP[0].xxxx, IMM[1].xxxx\nUIF TEMP[1].xxxx\nBRK\nENDIF\n".to_string()
    });
    let imm = count.map_or(String::new(), |n| format!("IMM[1] UINT32 {{{n}, 0, 0, 0}}\n"));
    program(&format!(
        "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {{4, 1, 8, 0}}
{imm}UMAD TEMP[0].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].xxxx, SV[1].xxxx
MOV TEMP[0].x, IMM[0].wwww
BGNLOOP
{exit}UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
ENDLOOP
END
"
    ))
}

/// (d) A budget that runs out: N threads give one thread's X005 (the same message, span and
/// instruction) and leave the buffer as one thread left it (the blocks before the one that
/// stopped, and that one's stores). An endless loop stops every thread; a counted one lets
/// every range finish within the budget while their sum passes it by one, which only the check
/// of the sum catches (without it N threads would succeed where one stops: this case fails).
#[test]
fn a_budget_that_runs_out_gives_one_threads_diagnostic() {
    let consts = Constants::new();
    let mut res = Resources::new();
    res.buffers.insert(0, vec![0xAB; 4 * 8 * 12]);
    let grid = [12, 1, 1];

    let endless = looping(None);
    let case =
        Case { program: &endless, res: &res, consts: &consts, grid, block: None, budget: 5000 };
    let (one, uses) = case.same_on_every_count("endless");
    let err = one.result.as_ref().expect_err("the budget stops it");
    assert_eq!(err.diagnostic.code, "X005");
    assert!(err.diagnostic.message.contains("stopped after 5000 instructions"), "{err:?}");
    assert!(uses.iter().all(|u| u.fewer == Some(Fewer::Rerun)), "{uses:?}");

    let counted = looping(Some(50));
    let mut case =
        Case { program: &counted, res: &res, consts: &consts, grid, block: None, budget: 1 << 30 };
    let (whole, _) = case.run(1);
    let work = whole.result.as_ref().expect("it ends").work;
    // Each of twelve blocks does the same work, so every range of 2, 3 or 7 does at most half
    // of it.
    case.budget = work;
    let (fits, uses) = case.same_on_every_count("counted, exact budget");
    assert!(fits.result.is_ok());
    assert_eq!(uses.iter().map(|u| u.threads).collect::<Vec<_>>(), THREADS);
    case.budget = work - 1;
    let (short, uses) = case.same_on_every_count("counted, one short");
    let err = short.result.as_ref().expect_err("one short");
    assert_eq!(err.diagnostic.code, "X005");
    assert!(uses.iter().all(|u| u.fewer == Some(Fewer::Rerun)), "{uses:?}");
    // The last block stopped: the others' stores are there.
    assert_eq!(
        words(&short.buffers[0].1)[..8 * 11],
        (0..11).flat_map(|b| [b; 8]).collect::<Vec<u32>>()
    );

    // A machine without a frame gives each block its own budget: a block over it stops.
    let per_block = work / 12;
    for budget in [per_block, per_block - 1] {
        let run = |n| case.run_with(Machine::with_budget(budget), None, n);
        let (one, _) = run(1);
        for n in THREADS {
            let diff = first_difference(&run(n).0, &one);
            assert!(diff.is_none(), "{n} threads, a budget of {budget} per block: {diff:?}");
        }
        assert_eq!(one.result.is_ok(), budget == per_block);
    }

    // A frame stopped from outside before the dispatch: every thread count reports the stop
    // where the first block is, and nothing is written.
    for n in [1, 2, 3, 7] {
        let frame = FrameBudget::new(1 << 30);
        frame.stop(Stop::Interrupted);
        let (after, _) = case.run_with(Machine::in_frame(1 << 30, &frame), None, n);
        let err = after.result.as_ref().expect_err("stopped");
        assert_eq!(err.diagnostic.code, "X011", "{n} threads");
        assert_eq!(err.instruction, 0, "{n} threads");
        assert_eq!(after.buffers[0].1, res.buffers[&0], "{n} threads");
    }
}

/// The compiling tier on every thread: a loop without stores compiles, and its budget
/// diagnostic and counts are one thread's (compiled runs report no dispatched instructions, so
/// a thread running another engine than the others would show in the counts).
#[test]
fn compiled_dispatches_leave_one_threads_counts() {
    let p = program("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL TEMP[0..1]\nIMM[0] FLT32 {1.0, 100.0, 0.0, 0.0}\nBGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nSGE TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy\nIF TEMP[1].xxxx\nBRK\nENDIF\nENDLOOP\nEND\n");
    let Ok(maker) = tgsi::jit::accelerator(&p, true) else {
        return; // a build without the compiling tier's runtime
    };
    let res = Resources::new();
    let consts = Constants::new();
    for budget in [1 << 30, 2000] {
        let case =
            Case { program: &p, res: &res, consts: &consts, grid: [9, 1, 1], block: None, budget };
        let run = |n| {
            let frame = FrameBudget::new(budget);
            case.run_with(Machine::in_frame(budget, &frame), Some(&*maker), n)
        };
        let (one, _) = run(1);
        for n in THREADS {
            let diff = first_difference(&run(n).0, &one);
            assert!(diff.is_none(), "{n} threads, budget {budget}: {diff:?}");
        }
        assert_eq!(one.result.is_ok(), budget > 2000, "{:?}", one.result);
    }
}

/// The copies of the resources stay within `limits::MAX_DISPATCH_COPY_BYTES`: as many threads
/// as fit, at least one; a dispatch whose one copy would pass it runs on one thread (the zeroed
/// global memory below is never written, so its pages cost nothing).
#[test]
fn copies_of_the_resources_stay_within_their_limit() {
    use tgsi::exec::parallel::threads_within;
    use tgsi::limits::MAX_DISPATCH_COPY_BYTES as MAX;
    assert_eq!(threads_within(MAX / 3, 7), 3);
    assert_eq!(threads_within(MAX / 3 + 1, 7), 2);
    assert_eq!(threads_within(MAX + 1, 4), 1);
    assert_eq!(threads_within(0, 5), 5);
    assert_eq!(threads_within(1, 5), 5);

    // Called directly: a copy of the caller's resources here would be one.
    let p = program(program!("starters/compute.cs"));
    let mut res = Resources::new();
    res.buffers.insert(0, vec![0; 64]);
    res.global = vec![0; MAX as usize + 1];
    let frame = FrameBudget::new(1 << 20);
    let (result, used) = dispatch_threads(
        &mut Machine::in_frame(1 << 20, &frame),
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [4, 1, 1],
        None,
        Threads { count: 4, accel: None },
    );
    assert!(result.is_ok());
    assert_eq!(used, Some(ThreadsUsed { threads: 1, fewer: Some(Fewer::Memory) }));
    assert_eq!(words(&res.buffers[&0]), [0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}
