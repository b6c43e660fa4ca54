//! Constant buffers read through an index (`CONST[b][ADDR[a].c + k]`) in the compiled module:
//! each lane reads register `k + its address` of the bound buffer, and 0 outside it (below 0
//! or at or past the buffer's length, whatever the declaration says: tgsi_exec's bounds check
//! on the bound buffer, tgsi_exec.c `fetch_src_file_channel`). Expected values are worked out by
//! hand from that rule; the interpreter must agree, and the module (not a fallback) must have run.

use super::differential::{compare_with, program, random_constants, Tally};
use super::validate::validate;
use crate::rng::Rng;
use std::sync::atomic::Ordering;
use tgsi::exec::{Batch, Constants, Lanes, Machine, Program, DEFAULT_BUDGET};
use tgsi::jit::native::NativeProgram;

/// `CONST[0]`: register i holds (10i + 1, 10i + 2, 10i + 3, 10i + 4) for i < `n`;
/// `CONST[1]`: (100, 200, 300, 400) and (500, 600, 700, 800). `CONST[3]` is not bound.
fn hand_constants(n: usize) -> Constants {
    let mut c = Constants::new();
    for i in 0..n {
        let b = 10.0 * i as f32;
        c.set_f32(0, i, [b + 1.0, b + 2.0, b + 3.0, b + 4.0]);
    }
    c.set_f32(1, 0, [100.0, 200.0, 300.0, 400.0]);
    c.set_f32(1, 1, [500.0, 600.0, 700.0, 800.0]);
    c
}

const INDEXED: &str = "FRAG
DCL IN[0]
DCL IN[1]
DCL OUT[0]
DCL OUT[1]
DCL OUT[2]
DCL OUT[3]
DCL OUT[4]
DCL OUT[5]
DCL OUT[6]
DCL CONST[0][0..3]
DCL CONST[1][0..1]
DCL CONST[3][0]
DCL ADDR[0..1]
ARL ADDR[0].x, IN[0].xxxx
UARL ADDR[1].x, IN[1].xxxx
MOV OUT[0], CONST[0][ADDR[0].x]
MOV OUT[1], CONST[0][ADDR[0].x+2]
MOV OUT[2], -CONST[1][ADDR[0].x-1].yxwz
ADD OUT[3], CONST[0][ADDR[0].x+1], CONST[0][1]
MOV OUT[4], CONST[3][ADDR[0].x]
IF IN[0].yyyy
MOV OUT[5], CONST[0][ADDR[0].x+1].wzyx
ENDIF
MOV OUT[6].x, CONST[0][ADDR[1].x+2147483647].xxxx
MOV OUT[6].y, CONST[0][ADDR[1].x-2147483647].yyyy
END
";

/// One quad of [`INDEXED`]: IN[0].x = (0.5, 2, −1, 3.9) gives ADDR[0].x = floor = (0, 2, −1, 3);
/// IN[0].y = (1, 0, 1, 0) lets lanes 0 and 2 into the IF; IN[1].x holds the integers
/// (−2147483647, −2147483648, −2147483646, 5) for ADDR[1].x.
fn indexed_batch(p: &Program) -> Batch {
    let mut b = Batch::new(p, 1);
    b.set_input(0, 0, 0, Lanes([0.5f32, 2.0, -1.0, 3.9].map(f32::to_bits)));
    b.set_input(0, 1, 0, Lanes([1.0f32, 0.0, 1.0, 0.0].map(f32::to_bits)));
    b.set_input(1, 0, 0, Lanes([0x8000_0001, 0x8000_0000, 0x8000_0002, 5]));
    b
}

/// Runs one quad through `machine`; the module must have finished it.
fn run_in_module(machine: &mut Machine, p: &Program, consts: &Constants, tally: &Tally) -> Batch {
    let mut b = indexed_batch(p);
    let before = tally.done.load(Ordering::Relaxed);
    machine.run(p, &mut b, consts).expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), before + 1, "the module ran the batch");
    assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0);
    b
}

fn interpreted(p: &Program, consts: &Constants) -> Batch {
    let mut b = indexed_batch(p);
    Machine::new().run(p, &mut b, consts).expect("runs");
    b
}

/// Output `o` channel `c` of quad 0, as floats' bits.
fn out(b: &Batch, o: usize, c: usize) -> [u32; 4] {
    b.output(o, c, 0).0
}

fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

#[test]
fn indexed_constants_give_hand_values_in_the_module() {
    let p = program(INDEXED);
    let c = tgsi::jit::compile(&p).expect("compiles");
    validate(&c.bytes, "indexed constants");
    assert_eq!(c.layout.const_buffers, vec![0, 1, 3]);
    let native = NativeProgram::new(&p).expect("compiles");
    let tally = Tally::default();
    let mut m =
        super::differential::counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let consts = hand_constants(4);
    let b = run_in_module(&mut m, &p, &consts, &tally);
    let i = interpreted(&p, &consts);
    for c in 0..4 {
        let k = c as f32;
        // ADDR[0].x = (0, 2, −1, 3): registers 0, 2, none (negative), 3.
        assert_eq!(out(&b, 0, c), f([1.0 + k, 21.0 + k, 0.0, 31.0 + k]), "OUT[0] channel {c}");
        // + 2 = (2, 4, 1, 5): CONST[0] holds 4 registers, so 4 and 5 read 0.
        assert_eq!(out(&b, 1, c), f([21.0 + k, 0.0, 11.0 + k, 0.0]), "OUT[1] channel {c}");
        // − 1 = (−1, 1, −2, 2) in CONST[1] (2 registers): only lane 1 reads one, register 1
        // swizzled .yxwz; the others read 0, negated: −0.
        let r1 = [600.0, 500.0, 800.0, 700.0][c];
        assert_eq!(out(&b, 2, c), f([-0.0, -r1, -0.0, -0.0]), "OUT[2] channel {c}");
        // + 1 = (1, 3, 0, 4), plus the cached CONST[0][1] (11 + c).
        let want = [22.0 + 2.0 * k, 42.0 + 2.0 * k, 12.0 + 2.0 * k, 11.0 + k];
        assert_eq!(out(&b, 3, c), f(want), "OUT[3] channel {c}");
        // CONST[3] is declared but not bound: every register reads 0.
        assert_eq!(out(&b, 4, c), f([0.0; 4]), "OUT[4] channel {c}");
        // Inside the IF (lanes 0 and 2): registers 1 and 0 swizzled .wzyx; lanes 1 and 3 keep
        // OUT[5]'s 0 (lane 1 would have read register 3).
        let (r1, r0) = ([14.0, 13.0, 12.0, 11.0][c], [4.0, 3.0, 2.0, 1.0][c]);
        assert_eq!(out(&b, 5, c), f([r1, 0.0, r0, 0.0]), "OUT[5] channel {c}");
    }
    // ADDR[1].x + 2147483647 = (0, −1, 1, 2147483652): registers 0 and 1 in lanes 0 and 2.
    assert_eq!(out(&b, 6, 0), f([1.0, 0.0, 11.0, 0.0]), "OUT[6].x");
    // ADDR[1].x − 2147483647 = (−4294967294, −4294967295, −4294967293, −2147483642): all
    // outside (a 32-bit wrapping sum would give 2, 1 and 3 in the first three lanes).
    assert_eq!(out(&b, 6, 1), f([0.0; 4]), "OUT[6].y");
    for o in 0..7 {
        for c in 0..4 {
            assert_eq!(out(&b, o, c), out(&i, o, c), "the interpreter: OUT[{o}] channel {c}");
        }
    }
    // The same instance, a shorter CONST[0] (2 registers): the registers the last run copied
    // in are still in the module's memory, but the length says they are outside the buffer.
    let short = hand_constants(2);
    let b = run_in_module(&mut m, &p, &short, &tally);
    for c in 0..4 {
        let k = c as f32;
        assert_eq!(out(&b, 0, c), f([1.0 + k, 0.0, 0.0, 0.0]), "OUT[0] channel {c}, 2 registers");
        assert_eq!(out(&b, 1, c), f([0.0, 0.0, 11.0 + k, 0.0]), "OUT[1] channel {c}, 2 registers");
    }
    let i = interpreted(&p, &short);
    for o in 0..7 {
        for c in 0..4 {
            assert_eq!(out(&b, o, c), out(&i, o, c), "the interpreter, 2 registers: OUT[{o}].{c}");
        }
    }
}

#[test]
fn a_buffer_longer_than_its_area_runs_in_the_interpreter() {
    // A caller may build `Constants` by hand with more registers than the engine's bound
    // (4096): the module's area cannot hold it, so the batch goes back to the interpreter,
    // which reads register 4096. A buffer of exactly 4096 registers runs in the module.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL CONST[0][0..3]\nDCL ADDR[0]\n\
         UARL ADDR[0].x, IN[0].xxxx\nMOV OUT[0], CONST[0][ADDR[0].x]\nEND\n",
    );
    let native = NativeProgram::new(&p).expect("compiles");
    for (len, read, handed_back) in [(4097usize, 4096u32, 1usize), (4096, 4095, 0)] {
        let mut consts = Constants::new();
        consts.buffers = vec![vec![[0; 4]; len]];
        consts.buffers[0][read as usize] = [7.0f32.to_bits(); 4];
        let tally = Tally::default();
        let mut m = super::differential::counting_machine(&native, DEFAULT_BUDGET, &tally)
            .expect("instance");
        let mut b = Batch::new(&p, 1);
        b.set_input(0, 0, 0, Lanes([read, 0, read, read + 1]));
        m.run(&p, &mut b, &consts).expect("runs");
        assert_eq!(tally.handed_back.load(Ordering::Relaxed), handed_back, "{len} registers");
        assert_eq!(tally.done.load(Ordering::Relaxed), 1 - handed_back, "{len} registers");
        // Lane 3 reads register `read + 1`: past a 4096-register buffer, the zero of an
        // unset register in the longer one.
        assert_eq!(b.output(0, 0, 0).0, f([7.0, 0.0, 7.0, 0.0]), "{len} registers");
    }
}

#[test]
fn a_constant_buffer_chosen_through_an_address_is_refused_with_the_reason() {
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL CONST[0][0..3]\nDCL CONST[1][0..3]\nDCL ADDR[0]\n\
         UARL ADDR[0].x, IN[0].xxxx\nMOV OUT[0], CONST[ADDR[0].x][1]\nEND\n",
    );
    let u = tgsi::jit::compile(&p).expect_err("CONST[ADDR..][1] is not compiled");
    assert!(u.reason.contains("chosen through an address register"), "{}", u.reason);
    assert_eq!(u.instruction, Some(1));
}

/// The piglit cases whose fragment shaders read a uniform array through ADDR (refused before
/// constants crossed into the module).
const PIGLIT: &[&str] = &[
    "glsl-1.10-function-calls-glsl-function-chain16-in-array-indirect",
    "glsl-1.10-glsl-fs-uniform-array-2",
    "glsl-1.20-fs-nan-builtin-min",
    "glsl-1.20-fs-vec4-const-array-indirect-access-016-elements",
];

/// Each draw's fragment constants of a piglit case (`case.json`: `consts.fs`, register → four
/// words in hex).
fn piglit_constants(case: &std::path::Path) -> Vec<Constants> {
    let text = std::fs::read_to_string(case.join("case.json")).expect("case.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("case.json parses");
    let mut draws = Vec::new();
    for op in json["ops"].as_array().expect("ops") {
        if op["op"] != "draw" {
            continue;
        }
        let mut c = Constants::new();
        for (k, words) in op["consts"]["fs"].as_object().into_iter().flatten() {
            let w: Vec<u32> = words
                .as_array()
                .expect("four words")
                .iter()
                .map(|x| {
                    let s = x.as_str().expect("hex").trim_start_matches("0x");
                    u32::from_str_radix(s, 16).expect("hex word")
                })
                .collect();
            c.set_bits(0, k.parse().expect("register"), [w[0], w[1], w[2], w[3]]);
        }
        draws.push(c);
    }
    draws
}

#[test]
fn piglit_shaders_indexing_uniform_arrays_compile_and_match_the_interpreter() {
    let root = std::path::Path::new(corpus!()).join("piglit");
    let tally = Tally::default();
    let mut runs = 0;
    for name in PIGLIT {
        let case = root.join(name);
        let text = std::fs::read_to_string(case.join("fs.tgsi")).expect("fs.tgsi");
        assert!(text.contains("][ADDR[0].x]"), "{name} reads CONST through ADDR");
        let p = program(&text);
        let c = tgsi::jit::compile(&p).unwrap_or_else(|u| panic!("{name}: {}", u.reason));
        validate(&c.bytes, name);
        assert!(!c.layout.const_buffers.is_empty(), "{name}");
        let draws = piglit_constants(&case);
        assert!(!draws.is_empty(), "{name}: no draws");
        // The case's own constants, and random ones (shorter and longer buffers, special values).
        let mut rng = Rng(0xc0de_0001);
        let all: Vec<Constants> =
            draws.into_iter().chain((0..4).map(|_| random_constants(&mut rng))).collect();
        for (d, consts) in all.iter().enumerate() {
            for (seed, nq) in [(1u64, 1usize), (2, 7), (3, 64)] {
                let budget = tgsi::limits::default_frame_budget(nq as u64);
                let none = tgsi::texture::bind::Bindings::new();
                compare_with(&p, seed, nq, budget, &tally, &none, consts)
                    .unwrap_or_else(|e| panic!("{name}, constants {d}, {nq} quads: {e}"));
                runs += 1;
            }
        }
    }
    assert_eq!(tally.done.load(Ordering::Relaxed), runs, "every batch ran in the module");
    assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0);
}

/// The pool hands an instance that ran one program's constants to the next machine.
#[test]
fn a_pooled_instance_reads_the_constants_of_its_new_run() {
    let p = program(INDEXED);
    let native = NativeProgram::new(&p).expect("compiles");
    let tally = Tally::default();
    for n in [4usize, 1, 3] {
        let mut m = super::differential::counting_machine(&native, DEFAULT_BUDGET, &tally)
            .expect("instance");
        let b = run_in_module(&mut m, &p, &hand_constants(n), &tally);
        drop(m);
        assert_eq!(native.pooled(), 1, "the one instance went back to the pool");
        // OUT[0].x: registers (0, 2, −, 3) of a buffer of n registers.
        let r = |i: usize| if i < n { 10.0 * i as f32 + 1.0 } else { 0.0 };
        assert_eq!(out(&b, 0, 0), f([r(0), r(2), 0.0, r(3)]), "{n} registers");
    }
}
