//! Interpreter vs JIT, bit for bit, at the machine level (the same `Machine::run_with` the
//! render stages call): outputs, kill masks, instructions dispatched, and on failure the same
//! diagnostic.

use super::random::{gen_divergent, gen_program, gen_textured, gen_textured_straight};
use crate::rng::Rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tgsi::exec::{
    AccelEnv, Accelerator, Batch, Constants, Lanes, Machine, MakeAccelerator, Program,
    DEFAULT_BUDGET,
};
use tgsi::fuzzing::SPECIAL_BITS;
use tgsi::jit::codegen::{compile_with, Pairing};
use tgsi::jit::native::NativeProgram;

pub fn program(text: &str) -> Program {
    let shader = tgsi::text::parse(text).shader.unwrap_or_else(|| panic!("parses:\n{text}"));
    tgsi::exec::build(&shader).unwrap_or_else(|d| panic!("{text}\n{d:?}"))
}

/// Every fragment shader of the corpus that builds.
pub fn corpus_programs() -> Vec<(String, Program)> {
    let mut files = Vec::new();
    walk(std::path::Path::new(corpus!()), &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.display().to_string();
        if !name.ends_with(".tgsi") || name.ends_with(".vs.tgsi") || name.ends_with(".gs.tgsi") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        let Some(shader) = tgsi::text::parse(&text).shader else { continue };
        if shader.processor != tgsi::ir::Processor::Fragment {
            continue;
        }
        if let Ok(p) = tgsi::exec::build(&shader) {
            out.push((name, p));
        }
    }
    assert!(out.len() > 50, "corpus not found at {}", corpus!());
    out
}

fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Counts the batches the accelerator finished and the ones it handed back.
pub struct Counting {
    inner: Box<dyn Accelerator>,
    done: Arc<AtomicUsize>,
    handed_back: Arc<AtomicUsize>,
}

impl Counting {
    /// `inner`, its batches counted in `tally`.
    pub fn new(inner: Box<dyn Accelerator>, tally: &Tally) -> Counting {
        Counting { inner, done: tally.done.clone(), handed_back: tally.handed_back.clone() }
    }
}

impl Accelerator for Counting {
    fn run(
        &mut self,
        regs: &mut [Lanes],
        kill: &mut [Lanes],
        nq: usize,
        limit: u64,
        env: &mut AccelEnv,
    ) -> Option<u64> {
        let r = self.inner.run(regs, kill, nq, limit, env);
        let c = if r.is_some() { &self.done } else { &self.handed_back };
        c.fetch_add(1, Ordering::Relaxed);
        r
    }
    fn kept_outputs(&self) -> Option<tgsi::exec::Rows<'_>> {
        self.inner.kept_outputs()
    }
    fn input_rows(&mut self, nq: usize) -> Option<tgsi::exec::RowsMut<'_>> {
        self.inner.input_rows(nq)
    }
}

/// A machine with `budget` whose accelerator is an instance of `native`, its batches counted
/// in `tally`.
pub fn counting_machine(native: &NativeProgram, budget: u64, tally: &Tally) -> Option<Machine> {
    let mut m = Machine::with_budget(budget);
    m.accel = Some(Box::new(Counting::new(native.make()?, tally)));
    Some(m)
}

#[derive(Default, Clone)]
pub struct Tally {
    pub done: Arc<AtomicUsize>,
    pub handed_back: Arc<AtomicUsize>,
}

/// Batch inputs: values from `rng`, a third of them special bit patterns; some quads partly
/// covered (helper lanes).
fn batch(p: &Program, nq: usize, rng: &mut Rng) -> Batch {
    let mut b = Batch::new(p, nq);
    for reg in 0..p.input_count() as usize {
        for c in 0..4 {
            for q in 0..nq {
                let lanes = [0; 4].map(|_| match rng.below(3) {
                    0 => *rng.pick(SPECIAL_BITS),
                    1 => ((rng.below(2000) as f32 - 1000.0) / 250.0).to_bits(),
                    _ => (rng.next() >> 32) as u32,
                });
                b.set_input(reg, c, q, Lanes(lanes));
            }
        }
    }
    for q in 0..nq {
        if let Some(c) = b.coverage.get_mut(q) {
            *c = if rng.below(4) == 0 { rng.below(16) as u8 } else { 0xF };
        }
    }
    b
}

/// Constant buffers 0 and 1 for a run (the random programs declare CONST[0][0..5] and
/// CONST[1][0..2] and read them directly and through ADDR[0].x): buffer 0 holds 0 to 9
/// registers, buffer 1 0 to 3 (so the bound buffer is shorter or longer than the declaration),
/// a third of the values special bit patterns.
pub fn random_constants(rng: &mut Rng) -> Constants {
    let mut c = Constants::default();
    for (buffer, most) in [(0usize, 9usize), (1, 3)] {
        for index in 0..rng.below(most + 1) {
            let v = [0; 4].map(|_| match rng.below(3) {
                0 => *rng.pick(SPECIAL_BITS),
                1 => ((rng.below(2000) as f32 - 1000.0) / 250.0).to_bits(),
                _ => (rng.next() >> 32) as u32,
            });
            c.set_bits(buffer, index, v);
        }
    }
    c
}

fn same_bits(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

/// Runs `p` on the same batch and constants ([`random_constants`]) in the interpreter and
/// through the JIT; describes the first difference.
pub fn compare(
    p: &Program,
    seed: u64,
    nq: usize,
    budget: u64,
    tally: &Tally,
) -> Result<(), String> {
    let consts = random_constants(&mut Rng(seed ^ 0xc0a5_7a17));
    compare_with(p, seed, nq, budget, tally, &tgsi::texture::bind::Bindings::new(), &consts)
}

/// [`compare`] with `textures` bound (each engine samples its own copy) and `consts`.
pub fn compare_with(
    p: &Program,
    seed: u64,
    nq: usize,
    budget: u64,
    tally: &Tally,
    textures: &tgsi::texture::bind::Bindings,
    consts: &Constants,
) -> Result<(), String> {
    // Odd seeds run two quads per pass, even ones one (whatever the program's shape), so both
    // forms of the module meet every generator.
    let pairing = if seed & 1 == 1 { Pairing::Pairs } else { Pairing::Single };
    let native = compile_with(p, pairing)
        .and_then(|c| NativeProgram::from_compiled(&c))
        .map_err(|u| format!("not compiled: {}", u.reason))?;
    let mut rng = Rng(seed);
    let mut b1 = batch(p, nq, &mut rng);
    let mut b2 = b1.clone();
    let mut interp = Machine::with_budget(budget);
    let r1 = interp.run_with(p, &mut b1, consts, &mut textures.clone());
    let mut jit = counting_machine(&native, budget, tally).ok_or("no instance")?;
    let r2 = jit.run_with(p, &mut b2, consts, &mut textures.clone());
    match (&r1, &r2) {
        (Ok(s1), Ok(s2)) => {
            // The work (the budget's count) and the quads; the dispatch clock is the
            // interpreter's alone (a compiled run has no batch-wide dispatches).
            if (s1.work, s1.quads) != (s2.work, s2.quads) {
                return Err(format!("stats: interpreter {s1:?}, jit {s2:?}"));
            }
        }
        (Err(e1), Err(e2)) => {
            if e1 != e2 {
                return Err(format!("errors: interpreter {e1:?}, jit {e2:?}"));
            }
            return Ok(());
        }
        _ => return Err(format!("interpreter {r1:?}, jit {r2:?}")),
    }
    for (i, (x, y)) in b1.outputs.iter().zip(&b2.outputs).enumerate() {
        for l in 0..4 {
            if !same_bits(x.0[l], y.0[l]) {
                return Err(format!(
                    "output element {i} lane {l}: interpreter {:08x}, jit {:08x}",
                    x.0[l], y.0[l]
                ));
            }
        }
    }
    if b1.killed != b2.killed {
        return Err(format!("kill masks: interpreter {:?}, jit {:?}", b1.killed, b2.killed));
    }
    Ok(())
}

/// Runs `p` on `b` through the JIT (budget `budget`) and tallies who finished the batch.
pub fn run_counted(
    p: &Program,
    b: &mut Batch,
    budget: u64,
) -> (Result<tgsi::exec::RunStats, tgsi::exec::ExecError>, Tally) {
    let tally = Tally::default();
    let native = NativeProgram::new(p).unwrap_or_else(|u| panic!("not compiled: {}", u.reason));
    let mut m = counting_machine(&native, budget, &tally).expect("instance");
    let r = m.run(p, b, &Constants::default());
    (r, tally)
}

/// The smallest program (dropping one line at a time) that still differs.
fn minimise(text: &str, seed: u64, nq: usize, budget: u64) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut i = 0;
    while i < lines.len() {
        let keep = lines[i].starts_with("DCL") || lines[i].starts_with("IMM") || lines[i] == "FRAG";
        if !keep {
            let mut t = lines.clone();
            t.remove(i);
            let cand = t.join("\n");
            let still = tgsi::text::parse(&cand)
                .shader
                .and_then(|s| tgsi::exec::build(&s).ok())
                .is_some_and(|p| compare(&p, seed, nq, budget, &Tally::default()).is_err());
            if still {
                lines = t;
                continue;
            }
        }
        i += 1;
    }
    lines.join("\n")
}

#[test]
fn corpus_shaders_match_the_interpreter() {
    let tally = Tally::default();
    let mut compared = 0;
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for (name, p) in corpus_programs() {
        if let Err(u) = tgsi::jit::compile(&p) {
            let op = u.reason.split_whitespace().next().unwrap_or("").to_string();
            *reasons.entry(op).or_default() += 1;
            continue;
        }
        for (seed, nq) in [(1u64, 1usize), (2, 7), (3, 64)] {
            // The default budget of a frame of `nq` quads (a corpus shader that loops until the
            // budget stops there, not at the machine's per-run maximum).
            let budget = tgsi::limits::default_frame_budget(nq as u64);
            if let Err(e) = compare(&p, seed, nq, budget, &tally) {
                panic!("{name} (seed {seed}, {nq} quads): {e}");
            }
        }
        compared += 1;
    }
    eprintln!("jit corpus: {compared} shaders compared; not compiled: {reasons:?}");
    assert!(compared >= 20, "only {compared} corpus shaders compiled");
    assert!(tally.done.load(Ordering::Relaxed) >= 3 * 20, "the JIT finished too few batches");
}

#[test]
fn random_programs_match_the_interpreter() {
    let tally = Tally::default();
    let mut rng = Rng(0x7a11_5eed);
    let runs = 1000;
    // Programs with each construct of the later flow (SWITCH, calls, RET, indirect operands,
    // constants read through ADDR).
    let mut with = [0usize; 5];
    for i in 0..runs {
        let text = gen_program(&mut rng);
        let whats = ["SWITCH", "CAL :", "RET", "[ADDR[0].x", "][ADDR[0].x"];
        for (n, what) in with.iter_mut().zip(whats) {
            *n += text.contains(what) as usize;
        }
        let p = program(&text);
        let seed = rng.next();
        let nq = 1 + rng.below(12);
        // Work is counted per quad: 4000 instructions for each.
        let budget = 4000 * nq as u64;
        if let Err(e) = compare(&p, seed, nq, budget, &tally) {
            let min = minimise(&text, seed, nq, budget);
            panic!("random program {i} (seed {seed:#x}, {nq} quads): {e}\nminimal program:\n{min}");
        }
    }
    let done = tally.done.load(Ordering::Relaxed);
    let back = tally.handed_back.load(Ordering::Relaxed);
    eprintln!(
        "jit random: {runs} programs, {done} batches by the JIT, {back} handed back (budget)"
    );
    assert!(done >= runs * 3 / 4, "the JIT finished only {done} of {runs} batches");
    assert!(back > 0, "no random program reached the budget: the budget path was not exercised");
    eprintln!(
        "jit random: programs with SWITCH, CAL, RET, indirect operands, CONST[ADDR..]: {with:?}"
    );
    assert!(with.iter().all(|&n| n >= runs / 5), "too few programs with each construct: {with:?}");
}

/// Per-quad flow's hardest case: loops nested up to three deep whose trip counts differ
/// between lanes and quads, IFs inside them with breaks and continues in either branch, on
/// batches of up to 64 partly covered quads.
#[test]
fn divergent_loops_match_the_interpreter() {
    let tally = Tally::default();
    let mut rng = Rng(0xd1e5_10de);
    let runs = 300;
    for i in 0..runs {
        let text = gen_divergent(&mut rng);
        let p = program(&text);
        let seed = rng.next();
        let nq = 1 + rng.below(64);
        let budget = 20_000 * nq as u64;
        if let Err(e) = compare(&p, seed, nq, budget, &tally) {
            let min = minimise(&text, seed, nq, budget);
            panic!(
                "divergent program {i} (seed {seed:#x}, {nq} quads): {e}\nminimal program:\n{min}"
            );
        }
    }
    let done = tally.done.load(Ordering::Relaxed);
    eprintln!("jit divergent: {runs} programs, {done} batches by the JIT");
    assert!(done >= runs * 3 / 4, "the JIT finished only {done} of {runs} batches");
}

/// A loop that never ends: the JIT hands the batch back, the interpreter reports `X005` at the
/// instruction where the budget ran out, for budgets on both sides of that point.
#[test]
fn budget_exhaustion_gives_the_interpreters_diagnostic() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
                BGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nMOV OUT[0], TEMP[0]\nENDLOOP\nEND\n";
    let p = program(text);
    let tally = Tally::default();
    for budget in [1, 2, 3, 4, 5, 10, 99, 100, 101, 1000] {
        compare(&p, 9, 3, budget, &tally).unwrap_or_else(|e| panic!("budget {budget}: {e}"));
        let mut m = Machine::with_budget(budget);
        m.accel = NativeProgram::new(&p).ok().and_then(|n| n.make());
        let mut b = Batch::new(&p, 3);
        let e = m.run(&p, &mut b, &Constants::default()).expect_err("never ends");
        assert_eq!(e.diagnostic.code, "X005");
        assert!(e.diagnostic.message.contains(&format!("stopped after {budget} instructions")));
    }
    // A loop of 3 iterations on a batch of 2 quads (every lane alike), counted by hand in
    // quad-instructions (each instruction once per quad with an active lane; ELSE, ENDIF,
    // ENDLOOP by the exec mask they leave). Per quad: BGNLOOP 1; three passes that do not
    // break, each USGE 1, UIF 1, (BRK not dispatched or no lane in it) 0, ENDIF 1, UADD 1,
    // ENDLOOP looping back 1: 3 x 5 = 15; the last pass USGE 1, UIF 1, BRK 1, ENDIF leaving no
    // lane 0, UADD with no lane 0, ENDLOOP ending the loop (the enclosing exec, all lanes) 1:
    // 4; MOV 1 and END 1: 2. 1 + 15 + 4 + 2 = 22 per quad, 44 for the batch.
    let counted = "FRAG\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {0, 1, 3, 0}\n\
                   BGNLOOP\nUSGE TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz\nUIF TEMP[0].yyyy\nBRK\nENDIF\n\
                   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";
    let p = program(counted);
    for budget in [43, 44] {
        compare(&p, 1, 2, budget, &tally).unwrap_or_else(|e| panic!("budget {budget}: {e}"));
        let mut m = Machine::with_budget(budget);
        m.accel = NativeProgram::new(&p).ok().and_then(|n| n.make());
        let mut b = Batch::new(&p, 2);
        let r = m.run(&p, &mut b, &Constants::default());
        match budget {
            43 => assert_eq!(r.expect_err("one short").diagnostic.code, "X005"),
            _ => assert_eq!(r.expect("fits").work, 44),
        }
    }
    // Weighted instructions (docs/limits.md): per quad TEX 128 + POW 4 + MOV 1 + END 1 = 134,
    // 268 for two quads; the module charges what the interpreter does.
    let weighted =
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n\
                    TEX TEMP[0], IN[0], SAMP[0], 2D\nPOW TEMP[0].x, IN[0].xxxx, IN[0].yyyy\n\
                    MOV OUT[0], TEMP[0]\nEND\n";
    let p = program(weighted);
    let before = tally.done.load(Ordering::Relaxed);
    for budget in [267, 268] {
        let mut m = counting_machine(&NativeProgram::new(&p).expect("compiles"), budget, &tally)
            .expect("an instance");
        let mut b = Batch::new(&p, 2);
        let r = m.run(&p, &mut b, &Constants::default());
        match budget {
            267 => assert_eq!(r.expect_err("one short").diagnostic.code, "X005"),
            _ => assert_eq!(r.expect("fits").work, 268),
        }
    }
    assert_eq!(
        tally.done.load(Ordering::Relaxed),
        before + 1,
        "the module ran the batch that fits"
    );
    assert!(
        tally.done.load(Ordering::Relaxed) >= 1 && tally.handed_back.load(Ordering::Relaxed) >= 10
    );
}

/// A frame's accelerators borrow instances from the program's pool and give them back, so the
/// next frame instantiates nothing; a reused instance computes what a fresh one does.
#[test]
fn instances_are_pooled_and_reused() {
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {2.0, 0.0, 0.0, 0.0}\n\
         MUL OUT[0], IN[0], IMM[0].xxxx\nEND\n",
    );
    let native = NativeProgram::new(&p).expect("compiles");
    assert_eq!(native.pooled(), 0);
    let (a, b) = (native.make().expect("instance"), native.make().expect("instance"));
    drop(a);
    drop(b);
    assert_eq!(native.pooled(), 2, "both instances went back to the pool");
    let again = native.make().expect("instance");
    assert_eq!(native.pooled(), 1, "one was taken from the pool, none made");
    drop(again);
    assert_eq!(native.pooled(), 2);
    // Reused instances, different batch sizes: each input times 2 (a hand formula).
    for (seed, nq) in [(5u64, 3usize), (6, 40), (7, 1)] {
        let mut m = Machine::new();
        m.accel = native.make();
        let mut b = Batch::new(&p, nq);
        let mut rng = Rng(seed);
        let mut given = Vec::new();
        for c in 0..4 {
            for q in 0..nq {
                let v = [0; 4].map(|_| ((rng.below(2000) as f32 - 1000.0) / 8.0).to_bits());
                b.set_input(0, c, q, Lanes(v));
                given.push((c, q, v));
            }
        }
        m.run(&p, &mut b, &Constants::default()).expect("runs");
        for (c, q, v) in given {
            let want = v.map(|x| (f32::from_bits(x) * 2.0).to_bits());
            assert_eq!(b.output(0, c, q).0, want, "channel {c} quad {q} of {nq}");
        }
        drop(m);
        assert_eq!(native.pooled(), 2, "the machine's instance went back");
    }
}

#[test]
fn division_and_derivatives_give_hand_values_in_the_module() {
    // Hand values: int.rs's guards (by zero: UDIV and MOD all ones, IDIV 0; INT_MIN / −1 =
    // INT_MIN, INT_MIN % −1 = 0) and ops::quad's lane pairs on x = (1, 2, 4, 8) in lane order
    // TL, TR, BL, BR. Inside the IF only lanes 0 and 3 run (y = 1, 0, 0, 1): the derivative
    // reads TEMP[0] in lanes 1 and 2 as the interpreter keeps them (0), so DDX there is 8 − 0.
    // The batch must be finished by the module (a trap would hand it back to the interpreter).
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL OUT[2]\nDCL TEMP[0]\n\
         IMM[0] UINT32 {7, 0, 2147483648, 4294967295}\n\
         UDIV OUT[0].x, IN[0].xxxx, IMM[0].yyyy\n\
         IDIV OUT[0].y, IMM[0].zzzz, IMM[0].wwww\n\
         MOD OUT[0].z, IMM[0].zzzz, IMM[0].wwww\n\
         IDIV OUT[0].w, IMM[0].xxxx, IMM[0].yyyy\n\
         DDX OUT[1].x, IN[0].xxxx\n\
         DDY OUT[1].y, IN[0].xxxx\n\
         DDX_FINE OUT[1].z, IN[0].xxxx\n\
         DDY_FINE OUT[1].w, IN[0].xxxx\n\
         IF IN[0].yyyy\n\
         MOV TEMP[0].x, IN[0].xxxx\n\
         DDX OUT[2].x, TEMP[0].xxxx\n\
         ENDIF\n\
         UMOD OUT[2].y, IMM[0].xxxx, IMM[0].yyyy\n\
         MOD OUT[2].z, IMM[0].wwww, IMM[0].xxxx\n\
         END\n",
    );
    let native = NativeProgram::new(&p).expect("compiles");
    let tally = Tally::default();
    let mut m = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut b = Batch::new(&p, 1);
    let f = |v: [f32; 4]| Lanes(v.map(f32::to_bits));
    b.set_input(0, 0, 0, f([1.0, 2.0, 4.0, 8.0]));
    b.set_input(0, 1, 0, f([1.0, 0.0, 0.0, 1.0]));
    m.run(&p, &mut b, &Constants::default()).expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
    assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0);
    let all = |v: u32| [v; 4];
    assert_eq!(b.output(0, 0, 0).0, all(u32::MAX), "UDIV by zero");
    assert_eq!(b.output(0, 1, 0).0, all(0x8000_0000), "INT_MIN / -1");
    assert_eq!(b.output(0, 2, 0).0, all(0), "INT_MIN % -1");
    assert_eq!(b.output(0, 3, 0).0, all(0), "IDIV by zero");
    assert_eq!(b.output(1, 0, 0), f([4.0; 4]), "DDX: 8 - 4");
    assert_eq!(b.output(1, 1, 0), f([3.0; 4]), "DDY: 4 - 1");
    assert_eq!(b.output(1, 2, 0), f([1.0, 1.0, 4.0, 4.0]), "DDX_FINE per row");
    assert_eq!(b.output(1, 3, 0), f([3.0, 6.0, 3.0, 6.0]), "DDY_FINE per column");
    assert_eq!(b.output(2, 0, 0), f([8.0, 0.0, 0.0, 8.0]), "DDX inside IF");
    assert_eq!(b.output(2, 1, 0).0, all(u32::MAX), "UMOD by zero");
    assert_eq!(b.output(2, 2, 0).0, all(u32::MAX), "-1 % 7 = -1 (the dividend's sign)");
}

/// Runs one quad of `p` through the module (which must finish it, not hand it back) with
/// IN[0] = `x` in every lane.
fn run_in_module(p: &Program, x: [f32; 4]) -> Batch {
    let native = NativeProgram::new(p).expect("compiles");
    let tally = Tally::default();
    let mut m = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut b = Batch::new(p, 1);
    for c in 0..4 {
        b.set_input(0, c, 0, Lanes([x[c].to_bits(); 4]));
    }
    m.run(p, &mut b, &Constants::default()).expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
    assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0);
    b
}

#[test]
fn imported_lane_formulas_give_hand_values_in_the_module() {
    // Exact cases of the C functions (C99 Annex F and tgsi.rst): sin(0) = 0, sin(−0) = −0,
    // cos(0) = 1, 2^3 = 8, log2 of 1 = 0, 2^10 = 1024, RCC(0.5) = 2; the legacy channels:
    // EXP(3) = (2^3, 3 − 3, 2^3, 1), LOG(1) = (0, 1 / 2^0, 0, 1), LIT(1, 2, _, 3) =
    // (1, 1, 2^3, 1) and LIT with x ≤ 0 gives z = 0, SCS(0) = (cos 0, sin 0, 0, 1).
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL OUT[2]\nDCL OUT[3]\nDCL OUT[4]\n\
         DCL OUT[5]\nDCL OUT[6]\n\
         IMM[0] FLT32 {0.0, -0.0, 3.0, 1.0}\n\
         IMM[1] FLT32 {2.0, 10.0, 0.5, -1.0}\n\
         SIN OUT[0].x, IMM[0].xxxx\n\
         SIN OUT[0].y, IMM[0].yyyy\n\
         COS OUT[0].z, IN[0].xxxx\n\
         EX2 OUT[0].w, IMM[0].zzzz\n\
         LG2 OUT[1].x, IMM[0].wwww\n\
         POW OUT[1].y, IMM[1].xxxx, IMM[1].yyyy\n\
         RCC OUT[1].z, IMM[1].zzzz\n\
         EXP OUT[2], IMM[0].zzzz\n\
         LOG OUT[3], IMM[0].wwww\n\
         LIT OUT[4], IN[0].yzxw\n\
         LIT OUT[5], IMM[1].wxxz\n\
         SCS OUT[6], IN[0].xxxx\n\
         END\n",
    );
    // IN[0] = (0, 1, 2, 3): LIT reads (x, y, w) = (1, 2, 3).
    let b = run_in_module(&p, [0.0, 1.0, 2.0, 3.0]);
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    let ch = |o: usize, c: usize| b.output(o, c, 0).0;
    let all = |v: f32| [v.to_bits(); 4];
    assert_eq!(ch(0, 0), all(0.0), "SIN(0)");
    assert_eq!(ch(0, 1), all(-0.0), "SIN(-0)");
    assert_eq!(ch(0, 2), all(1.0), "COS(0)");
    assert_eq!(ch(0, 3), all(8.0), "EX2(3)");
    assert_eq!(ch(1, 0), all(0.0), "LG2(1)");
    assert_eq!(ch(1, 1), all(1024.0), "POW(2, 10)");
    assert_eq!(ch(1, 2), all(2.0), "RCC(0.5)");
    let row = |o: usize| [0, 1, 2, 3].map(|c| f32::from_bits(ch(o, c)[0]));
    assert_eq!(f(row(2)), f([8.0, 0.0, 8.0, 1.0]), "EXP(3)");
    assert_eq!(f(row(3)), f([0.0, 1.0, 0.0, 1.0]), "LOG(1)");
    assert_eq!(f(row(4)), f([1.0, 1.0, 8.0, 1.0]), "LIT(1, 2, _, 3)");
    assert_eq!(f(row(5)), f([1.0, 0.0, 0.0, 1.0]), "LIT(-1, 2, _, 0.5): x <= 0");
    assert_eq!(f(row(6)), f([1.0, 0.0, 0.0, 1.0]), "SCS(0)");
}

/// SIN and COS run in the module as the interpreter's formula on `f64x2` pairs of lanes
/// (`jit/codegen/trig.rs`) when every lane of the quad is below 120 in magnitude, and through the
/// import otherwise: over a sweep of arguments (every quad in range, each lane a different
/// value; quads with one lane past the bound, NaN or infinite; the floats around multiples of
/// π/4, where the quadrant changes), single and paired, the module's bits are the
/// interpreter's.
#[test]
fn sin_and_cos_in_the_module_are_the_interpreters_over_a_sweep() {
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\n\
         SIN OUT[0].x, IN[0].xxxx\n\
         COS OUT[0].y, IN[0].xxxx\n\
         SIN OUT[0].z, IN[0].yyyy\n\
         COS OUT[0].w, -IN[0].yyyy\n\
         SCS OUT[1], IN[0].zzzz\n\
         END\n",
    );
    let mut values: Vec<f32> = (0..40_000).map(|i| (i as f32 - 20_000.0) * 0.006_1).collect();
    for k in -160i32..=160 {
        let m = (k as f64 * std::f64::consts::FRAC_PI_4) as f32;
        values.extend((-2i32..=2).map(|d| f32::from_bits(m.to_bits().wrapping_add_signed(d))));
    }
    values.extend([0.0, -0.0, 1e-40, -1e-6, 2.4e-4, 119.99999, -119.99999]);
    // Quads past the bound: one lane of each group of four replaced.
    let mut far = values.clone();
    let odd = [120.0, -1e30, f32::NAN, f32::INFINITY, -f32::INFINITY, 3.4e38];
    for (i, v) in far.iter_mut().enumerate().filter(|(i, _)| i % 4 == 3) {
        *v = odd[i / 4 % odd.len()];
    }
    values.extend(far);
    let modules = [Pairing::Single, Pairing::Pairs].map(|pairing| {
        let c = compile_with(&p, pairing).expect("compiles");
        (pairing, NativeProgram::from_compiled(&c).expect("instantiates"))
    });
    // Batches of 256 quads (the interpreter's batch size), the sweep's values in order.
    for chunk in values.chunks(256 * 4) {
        let nq = chunk.len().div_ceil(4);
        let mut b1 = Batch::new(&p, nq);
        for q in 0..nq {
            let lanes = |shift: usize| {
                Lanes(std::array::from_fn(|l| {
                    chunk.get((q * 4 + l + shift) % chunk.len()).map_or(0, |v| v.to_bits())
                }))
            };
            b1.set_input(0, 0, q, lanes(0));
            b1.set_input(0, 1, q, lanes(1));
            b1.set_input(0, 2, q, lanes(2));
        }
        let mut want = b1.clone();
        Machine::new().run(&p, &mut want, &Constants::default()).expect("interpreter runs");
        for (pairing, native) in &modules {
            let tally = Tally::default();
            let mut m = counting_machine(native, DEFAULT_BUDGET, &tally).expect("instance");
            let mut b = b1.clone();
            m.run(&p, &mut b, &Constants::default()).expect("module runs");
            assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
            for (i, (x, y)) in want.outputs.iter().zip(&b.outputs).enumerate() {
                for l in 0..4 {
                    assert!(
                        same_bits(x.0[l], y.0[l]),
                        "{pairing:?}: output element {i} lane {l}: interpreter {:08x}, module {:08x}",
                        x.0[l],
                        y.0[l]
                    );
                }
            }
        }
    }
}

#[test]
fn legacy_channel_formulas_fma_and_ldexp_give_hand_values_in_the_module() {
    // By the formulas of tgsi.rst (and docs/opcodes), worked by hand:
    // DST((1,2,3,4), (5,6,7,8)) = (1, 2·6, 3, 8) = (1, 12, 3, 8);
    // XPD(a, b) = (a1·b2 − b1·a2, a2·b0 − b2·a0, a0·b1 − b0·a1, 1) (values below);
    // RFL(a = (0,0,1), b = (1,0,−1)): k = 2·(a·b)/(a·a) = −2, (k·a − b, 1) = (−1, −0, −1, 1)
    // (y: −2·0 = −0, and −0 − 0 = −0 in IEEE arithmetic);
    // X2D((1,2), (3,4), (5,6,7,8)) = (1 + 3·5 + 4·6, 2 + 3·7 + 4·8, …) = (40, 55, 40, 55);
    // NRM(0, −4, 0) = (0, −1, 0, 1); NRM4(1, 1, 1, 1) = 1/√4 = 0.5 in every channel;
    // FMA(1 + 2⁻¹², 1 + 2⁻¹², −(1 + 2⁻¹¹)) (bits 0x3f800800 and 0xbf801000) = 2⁻²⁴ exactly with one rounding (the product
    // rounded first would give 0 or 2⁻²³); LDEXP(3, 4) = 48, LDEXP(3, −2) = 0.75,
    // LDEXP(3, 200) = +inf, LDEXP(3, −200) = 0.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL OUT[2]\nDCL OUT[3]\nDCL OUT[4]\n\
         DCL OUT[5]\nDCL OUT[6]\nDCL OUT[7]\n\
         IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n\
         IMM[1] FLT32 {5.0, 6.0, 7.0, 8.0}\n\
         IMM[2] FLT32 {0.0, 0.0, 1.0, -1.0}\n\
         IMM[3] FLT32 {0.0, -4.0, 0.0, 1.0}\n\
         IMM[4] UINT32 {1065355264, 3212840960, 0, 0}\n\
         IMM[5] INT32 {4, -2, 200, -200}\n\
         DST OUT[0], IMM[0], IMM[1]\n\
         XPD OUT[1], IMM[0], IMM[1].wxyz\n\
         RFL OUT[2], IMM[2].xyzz, IMM[2].zxwx\n\
         X2D OUT[3], IMM[0], IMM[0].zwxx, IMM[1]\n\
         NRM OUT[4], IMM[3]\n\
         NRM4 OUT[5], IMM[0].xxxx\n\
         FMA OUT[6], IMM[4].xxxx, IMM[4].xxxx, IMM[4].yyyy\n\
         LDEXP OUT[7], IMM[0].zzzz, IMM[5]\n\
         END\n",
    );
    let b = run_in_module(&p, [0.0, 1.0, 2.0, 3.0]);
    let row = |o: usize| [0, 1, 2, 3].map(|c| b.output(o, c, 0).0[0]);
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    // XPD's second operand is IMM[1].wxyz = (8, 5, 6, 7): (1,2,3) × (8,5,6) =
    // (2·6 − 5·3, 3·8 − 6·1, 1·5 − 8·2) = (−3, 18, −11).
    assert_eq!(row(0), f([1.0, 12.0, 3.0, 8.0]), "DST");
    assert_eq!(row(1), f([-3.0, 18.0, -11.0, 1.0]), "XPD");
    assert_eq!(row(2), f([-1.0, -0.0, -1.0, 1.0]), "RFL");
    // X2D reads a = IMM[0] (1, 2), b = IMM[0].zw = (3, 4), d = IMM[1] = (5, 6, 7, 8).
    assert_eq!(row(3), f([40.0, 55.0, 40.0, 55.0]), "X2D");
    assert_eq!(row(4), f([0.0, -1.0, 0.0, 1.0]), "NRM");
    assert_eq!(row(5), f([0.5; 4]), "NRM4");
    assert_eq!(row(6)[0], 2f32.powi(-24).to_bits(), "FMA rounds once");
    assert_eq!(row(7), f([48.0, 0.75, f32::INFINITY, 0.0]), "LDEXP");
    // Every lane of the quad, not just lane 0.
    assert!((0..8).all(|o| (0..4).all(|c| {
        let l = b.output(o, c, 0).0;
        l.iter().all(|&x| x == l[0])
    })));
}

#[test]
fn isge_against_immediates_gives_the_formula_at_the_ends_of_the_range() {
    // tgsi.rst ISGE: dst = src0 >= src1 (signed) ? ~0 : 0. The module compares against an
    // immediate k as a > k − 1 (or k + 1 > b), which must hold for every a, with k at the ends
    // of the range (where k − 1 or k + 1 would wrap) and a negated immediate (−64).
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL OUT[2]\n\
         IMM[0] INT32 {-2147483648, 2147483647, 64, -5}\n\
         ISGE OUT[0], IN[0].xxxx, IMM[0]\n\
         ISGE OUT[1], IMM[0], IN[0].xxxx\n\
         ISGE OUT[2], IN[0].xxxx, -IMM[0].zzzz\n\
         END\n",
    );
    let ks = [i32::MIN, i32::MAX, 64, -5];
    let mask = |t: bool| if t { !0u32 } else { 0 };
    let native = NativeProgram::new(&p).expect("compiles");
    let tally = Tally::default();
    let mut m = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    for lanes in [
        [i32::MIN, i32::MIN + 1, -1, 0],
        [1, 63, 64, 65],
        [i32::MAX - 1, i32::MAX, -5, -6],
        [-64, -65, -63, -4],
    ] {
        let mut b = Batch::new(&p, 1);
        b.set_input(0, 0, 0, Lanes(lanes.map(|a| a as u32)));
        m.run(&p, &mut b, &Constants::default()).expect("runs");
        for (c, &k) in ks.iter().enumerate() {
            assert_eq!(b.output(0, c, 0).0, lanes.map(|a| mask(a >= k)), "a >= {k}, a = {lanes:?}");
            assert_eq!(b.output(1, c, 0).0, lanes.map(|a| mask(k >= a)), "{k} >= a, a = {lanes:?}");
            assert_eq!(
                b.output(2, c, 0).0,
                lanes.map(|a| mask(a >= -64)),
                "a >= -64, a = {lanes:?}"
            );
        }
    }
    assert_eq!(tally.done.load(Ordering::Relaxed), 4, "the module ran every batch");
}

#[test]
fn a_tex_in_the_module_samples_known_texels() {
    // A 2x2 RGBA8 texture, NEAREST: texel (i, j) at index j * 2 + i; texel centres at s, t =
    // 0.25 and 0.75. Lane l samples the centre of texel (l & 1, l >> 1), so the quad reads red,
    // green, blue, white (255 → 1.0 exactly). Inside the IF only lanes 0 and 3 (IN[1].x ≠ 0)
    // take the TEX result; lanes 1 and 2 keep OUT[1]'s zero.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0]\nDCL OUT[1]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n\
         TEX OUT[0], IN[0], SAMP[0], 2D\n\
         IF IN[1].xxxx\n\
         TEX OUT[1], IN[0], SAMP[0], 2D\n\
         ENDIF\n\
         END\n",
    );
    let json = r#"{"width": 2, "height": 2, "texels": [[255, 0, 0, 255], [0, 255, 0, 255],
        [0, 0, 255, 255], [255, 255, 255, 255]], "sampler": {"filter": "NEAREST", "wrap": "REPEAT"}}"#;
    let mut bindings = tgsi::texture::bind::Bindings::new();
    bindings.bind(
        0,
        tgsi::texture::desc::parse_description(json, &|n| Err(n.to_string()))
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let native = NativeProgram::new(&p).expect("compiles");
    let tally = Tally::default();
    let mut m = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut b = Batch::new(&p, 1);
    let f = |v: [f32; 4]| Lanes(v.map(f32::to_bits));
    b.set_input(0, 0, 0, f([0.25, 0.75, 0.25, 0.75]));
    b.set_input(0, 1, 0, f([0.25, 0.25, 0.75, 0.75]));
    b.set_input(1, 0, 0, f([1.0, 0.0, 0.0, 1.0]));
    m.run_with(&p, &mut b, &Constants::default(), &mut bindings).expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
    assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0);
    assert_eq!(b.output(0, 0, 0), f([1.0, 0.0, 0.0, 1.0]), "red channel");
    assert_eq!(b.output(0, 1, 0), f([0.0, 1.0, 0.0, 1.0]), "green channel");
    assert_eq!(b.output(0, 2, 0), f([0.0, 0.0, 1.0, 1.0]), "blue channel");
    assert_eq!(b.output(0, 3, 0), f([1.0; 4]), "alpha channel");
    assert_eq!(b.output(1, 0, 0), f([1.0, 0.0, 0.0, 1.0]), "red inside the IF");
    assert_eq!(b.output(1, 1, 0), f([0.0, 0.0, 0.0, 1.0]), "green inside the IF");
    assert_eq!(b.output(1, 3, 0), f([1.0, 0.0, 0.0, 1.0]), "alpha inside the IF");
}

/// A 4x4 RGBA8 texture with two mip levels, LINEAR_MIPMAP_LINEAR and REPEAT, every texel
/// different: implicit LOD, bias, explicit LOD, projection and gradients all show.
fn random_texture() -> tgsi::texture::bind::Bindings {
    let level = |w: usize, k: usize| {
        (0..w * w)
            .map(|n| {
                format!(
                    "[{}, {}, {}, {}]",
                    60 * (n % w) + k,
                    60 * (n / w),
                    17 * n + 3 * k,
                    255 - 9 * n
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let json = format!(
        r#"{{"target": "2D", "format": "RGBA8", "width": 4, "height": 4, "levels": 2,
        "sampler": {{"min_filter": "LINEAR_MIPMAP_LINEAR", "mag_filter": "LINEAR", "wrap": "REPEAT"}},
        "images": [{{"level": 0, "texels": [{}]}}, {{"level": 1, "texels": [{}]}}]}}"#,
        level(4, 0),
        level(2, 20)
    );
    let mut b = tgsi::texture::bind::Bindings::new();
    b.bind(
        0,
        tgsi::texture::desc::parse_description(&json, &|n| Err(n.to_string()))
            .unwrap_or_else(|e| panic!("{e}")),
    );
    b
}

/// Random programs with texture instructions among the ops (TEX, TXP, TXB, TXL, TXD, TXF,
/// TXQ, LODQ with swizzled, negated and absolute operands, NaN/Inf/denormal coordinates, inside
/// IFs and divergent loops), a texture bound: the module samples through its import with the
/// interpreter's own texture code, so outputs, kill masks and work are the interpreter's.
#[test]
fn random_texture_programs_match_the_interpreter() {
    let tally = Tally::default();
    let textures = random_texture();
    let mut rng = Rng(0x7e57_7e55);
    let runs = 300;
    for i in 0..runs {
        let text = gen_textured(&mut rng);
        let p = program(&text);
        let seed = rng.next();
        let nq = 1 + rng.below(16);
        let budget = 20_000 * nq as u64;
        let consts = random_constants(&mut Rng(seed));
        if let Err(e) = compare_with(&p, seed, nq, budget, &tally, &textures, &consts) {
            panic!("textured program {i} (seed {seed:#x}, {nq} quads): {e}\n{text}");
        }
    }
    let done = tally.done.load(Ordering::Relaxed);
    eprintln!("jit textured: {runs} programs, {done} batches by the JIT");
    assert!(done >= runs * 3 / 4, "the JIT finished only {done} of {runs} batches");
}

/// Straight-line random programs with texture instructions (the textured generator without
/// IF, loops, SWITCH or calls): the module samples a batch at a time (`Layout::sample_rows`:
/// a pass over the quads up to each texture instruction, one import call, the next pass), and
/// outputs, kill masks and work are the interpreter's.
#[test]
fn straight_texture_programs_sample_a_batch_at_a_time() {
    let tally = Tally::default();
    let textures = random_texture();
    let mut rng = Rng(0x5a3b_1e5d);
    let runs = 200;
    let mut batched = 0;
    for i in 0..runs {
        let text = gen_textured_straight(&mut rng);
        let p = program(&text);
        let seed = rng.next();
        let nq = 1 + rng.below(16);
        let budget = 20_000 * nq as u64;
        let consts = random_constants(&mut Rng(seed));
        if let Ok(c) = tgsi::jit::compile(&p) {
            let samples = ["TEX", "TXP", "TXB", "TXL", "TXD", "TXF", "TXQ", "LODQ", "TG4"]
                .iter()
                .any(|op| text.lines().any(|l| l.starts_with(op)));
            // (A program indexing registers keeps too many rows between passes and samples
            // quad by quad: `MAX_SPILLS`.)
            assert!(samples || !c.layout.sample_rows, "program {i}:\n{text}");
            batched += c.layout.sample_rows as usize;
        }
        if let Err(e) = compare_with(&p, seed, nq, budget, &tally, &textures, &consts) {
            panic!("straight textured program {i} (seed {seed:#x}, {nq} quads): {e}\n{text}");
        }
    }
    let done = tally.done.load(Ordering::Relaxed);
    eprintln!(
        "jit straight textured: {runs} programs, {batched} batched, {done} batches by the JIT"
    );
    assert!(batched >= runs / 4, "only {batched} of {runs} programs sampled a batch at a time");
    assert!(done >= runs * 3 / 4, "the JIT finished only {done} of {runs} batches");
}

#[test]
fn the_compiled_shader_asks_for_samples_a_batch_of_quads_at_a_time() {
    // 40 quads through two TEX: each TEX is asked for in batches of 16, 16 and 8 quads
    // (`exec::SAMPLE_BATCH`), never quad by quad, and gives the interpreter's bits.
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..1]\n  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n  1: TEX TEMP[1], IN[0].yxzw, SAMP[0], 2D\n  2: ADD OUT[0], TEMP[0], TEMP[1]\n  3: END\n";
    let p = program(text);
    let c = tgsi::jit::compile(&p).expect("compiles");
    assert!(c.layout.sample_rows, "the module samples rows of quads");
    let native = NativeProgram::from_compiled(&c).expect("native");
    let nq = 40;
    let mut rng = Rng(0x7e57_ba7c);
    let mut b1 = batch(&p, nq, &mut rng);
    // Coordinates in 0..1 (the random inputs are mostly outside it, and NaN).
    for q in 0..nq {
        for ch in 0..4 {
            let lanes = [0; 4].map(|_| (rng.below(1000) as f32 / 999.0).to_bits());
            b1.set_input(0, ch, q, Lanes(lanes));
        }
    }
    let mut b2 = b1.clone();
    let consts = Constants::default();
    let mut interp = Machine::with_budget(DEFAULT_BUDGET);
    interp.run_with(&p, &mut b1, &consts, &mut random_texture()).expect("interpreter");
    let tally = Tally::default();
    let mut jit = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut asked = crate::support::Asked::new(random_texture());
    jit.run_with(&p, &mut b2, &consts, &mut asked).expect("jit");
    let asked = asked.log.lock().expect("log");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the compiled module ran the batch");
    assert_eq!(asked.batches, [16, 16, 8, 16, 16, 8], "batches asked for");
    assert_eq!(asked.singles, 0, "no quad asked for alone");
    for (i, (x, y)) in b1.outputs.iter().zip(&b2.outputs).enumerate() {
        assert_eq!(x.0, y.0, "output element {i}");
    }
}
