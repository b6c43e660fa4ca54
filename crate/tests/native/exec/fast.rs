//! The fast paths of the interpreter (`exec/kernels.rs`, `exec/fast.rs`): single-pass kernels
//! with sources that alias the destination, `_SAT`, source modifiers and partial exec masks,
//! and the fused `UIF c; BRK; ENDIF` with lanes leaving at different iterations and the exact
//! instruction count / budget behaviour of the unfused instructions. Expected values are worked
//! out by hand in the comments.
use crate::exec_support::*;
use tgsi::exec::{Batch, Constants, Lanes, Machine, NoTextures};
use tgsi::opcode::Opcode;

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// OUT[0] of each lane as floats, channel `c`.
fn chan(out: &[[[u32; 4]; 4]], c: usize) -> [f32; 4] {
    [0, 1, 2, 3].map(|l| f32::from_bits(out[0][l][c]))
}

/// TEMP[0] = (1, 10, _, _) then an aliasing instruction; lanes 0 and 2 run it (IN[0].w set),
/// lanes 1 and 3 keep (1, 10) from before the IF.
fn aliasing(inst: &str) -> [[f32; 4]; 2] {
    let text = format!(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0]
        IMM FLT32 {{1.0, 10.0, 0.0, 0.0}}
        MOV TEMP[0].xy, IMM[0].xyyy
        {inst}
        IF IN[0].wwww
          {inst}
        ENDIF
        MOV OUT[0], TEMP[0]
        END"
    );
    // The first copy runs with every lane active (plain stores), the second one masked.
    let w = [f(1.0), 0, f(1.0), 0];
    let ins = [[0, 1, 2, 3].map(|l| [f(100.0), f(1000.0), 0, w[l]])];
    let out = run_quad_bits(&text, &ins, &Constants::default());
    [chan(&out, 0), chan(&out, 1)]
}

#[test]
fn a_source_reading_another_channel_of_the_destination_sees_old_values() {
    // ADD TEMP[0].xy, TEMP[0].yx, IN[0].xy: x = 10 + 100 = 110, y = 1 + 1000 = 1001 (y must
    // read x before channel x was written). Twice: x = 1001 + 100 = 1101, y = 110 + 1000 = 1110.
    let [x, y] = aliasing("ADD TEMP[0].xy, TEMP[0].yxxx, IN[0].xyyy");
    assert_eq!(x, [1101.0, 110.0, 1101.0, 110.0]);
    assert_eq!(y, [1110.0, 1001.0, 1110.0, 1001.0]);
}

#[test]
fn a_swizzled_move_onto_itself_swaps() {
    // MOV TEMP[0].xy, TEMP[0].yx: (1, 10) → (10, 1) → (1, 10) in the lanes that run it twice.
    let [x, y] = aliasing("MOV TEMP[0].xy, TEMP[0].yxxx");
    assert_eq!(x, [1.0, 10.0, 1.0, 10.0]);
    assert_eq!(y, [10.0, 1.0, 10.0, 1.0]);
}

#[test]
fn in_place_operands_on_either_side() {
    // SUB x = x − 3 (destination is operand a), y = 3 − y (operand b):
    // once: (−2, −7); twice: (−5, 10).
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0]
        IMM FLT32 {1.0, 10.0, 3.0, 0.0}
        MOV TEMP[0].xy, IMM[0].xyyy
        SUB TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
        SUB TEMP[0].y, IMM[0].zzzz, TEMP[0].yyyy
        IF IN[0].wwww
          SUB TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
          SUB TEMP[0].y, IMM[0].zzzz, TEMP[0].yyyy
        ENDIF
        MOV OUT[0], TEMP[0]
        END";
    let ins = [[0, 1, 2, 3].map(|l| [0, 0, 0, if l % 2 == 0 { f(1.0) } else { 0 }])];
    let out = run_quad_bits(text, &ins, &Constants::default());
    assert_eq!(chan(&out, 0), [-5.0, -2.0, -5.0, -2.0]);
    assert_eq!(chan(&out, 1), [10.0, -7.0, 10.0, -7.0]);
}

#[test]
fn dot_and_mad_reading_their_destination() {
    // DP2 TEMP[0].x, TEMP[0].xy, TEMP[0].xy from (1, 10): 1 + 100 = 101; then from (101, 10):
    // 10201 + 100 = 10301.
    let [x, y] = aliasing("DP2 TEMP[0].x, TEMP[0].xyxx, TEMP[0].xyxx");
    assert_eq!(x, [10301.0, 101.0, 10301.0, 101.0]);
    assert_eq!(y, [10.0; 4]);
    // MAD TEMP[0].xy, TEMP[0].yx, TEMP[0].xy, TEMP[0].xy: x = y·x + x, y = x·y + y with the old
    // x and y. (1, 10) → (11, 20) → (20·11 + 11, 11·20 + 20) = (231, 240).
    let [x, y] = aliasing("MAD TEMP[0].xy, TEMP[0].yxxx, TEMP[0].xyyy, TEMP[0].xyyy");
    assert_eq!(x, [231.0, 11.0, 231.0, 11.0]);
    assert_eq!(y, [240.0, 20.0, 240.0, 20.0]);
}

#[test]
fn saturate_clamps_in_the_same_pass() {
    // ADD_SAT: 0.75 + 0.5 = 1.25 → 1; −2 + 1 → 0; NaN → 0; −0 + −0 = −0 → +0.
    let a = [f(0.75), f(-2.0), f(f32::NAN), f(-0.0)];
    let b = [f(0.5), f(1.0), f(1.0), f(-0.0)];
    let ins = [[0, 1, 2, 3].map(|l| [a[l]; 4]), [0, 1, 2, 3].map(|l| [b[l]; 4])];
    let text = "FRAG\nDCL IN[0..1]\nDCL OUT[0]\nADD_SAT OUT[0], IN[0], IN[1]\nEND";
    let out = run_quad_bits(text, &ins, &Constants::default());
    assert_eq!([0, 1, 2, 3].map(|l| out[0][l][0]), [f(1.0), 0, 0, 0]);
    // MAD_SAT x: 0.75·0.5 + 0.5 = 0.875; DP2_SAT: 0.75·0.5 + 0.75·0.5 = 0.75 (lane 0),
    // −2·1 + −2·1 = −4 → 0 (lane 1).
    let text = "FRAG\nDCL IN[0..1]\nDCL OUT[0]\nMAD_SAT OUT[0].x, IN[0], IN[1], IN[1]\nDP2_SAT OUT[0].y, IN[0], IN[1]\nEND";
    let out = run_quad_bits(text, &ins, &Constants::default());
    assert_eq!(out[0][0][0], f(0.875));
    assert_eq!(out[0][0][1], f(0.75));
    assert_eq!(out[0][1][1], 0);
}

#[test]
fn negate_and_abs_on_kernel_sources() {
    // MAD: −2 · |−3| + (−|−1|) = −7; MIN(−x, |y|) = min(−2, 3) = −2; MAX: max(2, −3) = 2.
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        MAD OUT[0].x, -IN[0].xxxx, |IN[0].yyyy|, -|IN[0].zzzz|
        MIN OUT[0].y, -IN[0].xxxx, |IN[0].yyyy|
        MAX OUT[0].z, IN[0].xxxx, -|IN[0].yyyy|
        END";
    let out = run_quad_bits(text, &[[[f(2.0), f(-3.0), f(-1.0), 0]; 4]], &Constants::default());
    assert_eq!(out[0][0][..3], [f(-7.0), f(-2.0), f(2.0)]);
    // Integer negation is two's complement (general path): −5 + 7 = 2.
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nUADD OUT[0].x, -IN[0].xxxx, IN[0].yyyy\nEND";
    let out = run_quad_bits(text, &[[[5, 7, 0, 0]; 4]], &Constants::default());
    assert_eq!(out[0][0][0], 2);
}

#[test]
fn common_instructions_get_kernels_and_breaks_fuse() {
    let p = program(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0]
        IMM UINT32 {0, 1, 0, 0}
        MAD TEMP[0].x, IN[0].xxxx, -IN[0].yyyy, IN[0].zzzz
        UADD TEMP[0].y, -IN[0].xxxx, IN[0].yyyy
        BGNLOOP
          UIF TEMP[0].xxxx
            BRK
          ENDIF
          IF TEMP[0].yyyy
            BRK
          ELSE
            MOV TEMP[0].x, IMM[0].yyyy
          ENDIF
        ENDLOOP
        END",
    );
    let kernel = |op: Opcode| p.code.iter().find(|i| i.op == op).map(|i| i.kernel.is_some());
    assert_eq!(kernel(Opcode::MAD), Some(true));
    // An integer negate is not a kernel's sign flip.
    assert_eq!(kernel(Opcode::UADD), Some(false));
    assert_eq!(kernel(Opcode::MOV), Some(true));
    let fused: Vec<Opcode> = p.code.iter().filter(|i| i.cond_break).map(|i| i.op).collect();
    // The IF with an ELSE is not fused.
    assert_eq!(fused, [Opcode::UIF]);
}

/// Counts up to IN[0].x per lane: lanes leave at iterations 0, 1, 3 and 7.
const COUNTER: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0..1]
    IMM UINT32 {0, 1, 0, 0}
    MOV TEMP[0].x, IMM[0].xxxx
    BGNLOOP
      USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
      UIF TEMP[1].xxxx
        BRK
      ENDIF
      UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
    ENDLOOP
    MOV OUT[0].x, TEMP[0].xxxx
    END";

fn counter_batch(p: &tgsi::exec::Program) -> Batch {
    let mut b = Batch::new(p, 1);
    b.set_input(0, 0, 0, Lanes([0, 1, 3, 7]));
    b
}

#[test]
fn fused_break_with_lanes_leaving_at_different_iterations() {
    let p = program(COUNTER);
    let mut b = counter_batch(&p);
    let stats = Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output(0, 0, 0).0, [0, 1, 3, 7]);
    // MOV, BGNLOOP; iterations 0..=7 of USGE, UIF, ENDIF, UADD, ENDLOOP (5 each) plus a BRK in
    // the 4 iterations where a lane leaves (0, 1, 3, 7); MOV, END: 2 + 8·5 + 4 + 2 = 48.
    assert_eq!(stats.instructions, 48);
    // The work (one quad: 1 per instruction it starts with an active lane, closers by the
    // lanes they leave): the same 48 but for iteration 7's ENDIF and UADD, which run after the
    // last lane left (ENDIF leaves none, UADD starts with none): 48 − 2 = 46.
    assert_eq!(stats.work, 46);
    // The traced run executes every instruction unfused and counts the same.
    let mut b = counter_batch(&p);
    let (trace, r) =
        Machine::new().run_traced(&p, &mut b, &Constants::default(), &mut NoTextures, 0);
    let r = r.unwrap();
    assert_eq!((r.instructions, r.work), (48, 46));
    // The trace leaves out steps in which no lane of its quad was active before or after: in
    // iteration 7 the last lane leaves at the BRK, so that iteration's ENDIF and UADD run with
    // no lane (the ENDLOOP that follows ends the loop and turns the lanes back on: kept).
    assert_eq!(trace.steps.len(), 48 - 2);
    assert_eq!(trace.steps.iter().filter(|s| s.opcode == "BRK").count(), 4);
}

#[test]
fn the_budget_stops_at_the_same_instruction_as_unfused() {
    let p = program(COUNTER);
    // The work after each instruction (one quad, each charged 1 while a lane is active): 1 MOV,
    // 2 BGNLOOP, 3 USGE, 4 UIF, 5 BRK, 6 ENDIF, 7 UADD, 8 ENDLOOP; iteration 1 the same (9–14);
    // the untaken iteration 2: 15 USGE, 16 UIF, 17 ENDIF, 18 UADD, 19 ENDLOOP; … iteration 7:
    // 41 USGE, 42 UIF, 43 BRK, ENDIF and UADD 0 (no lane left), 44 ENDLOOP; 45 MOV, 46 END.
    // An instruction is charged before the check, a closer (ENDIF, ENDLOOP) after it, so a
    // budget B stops at the first non-closer that takes the work past B: B = 5 passes ENDIF
    // (checked at 5) and stops at UADD (7); B = 43 passes ENDIF, UADD and ENDLOOP (all checked
    // at 43) and stops at the last MOV (45). IR indices: UIF 3, BRK 4, UADD 6, MOV 8, END 9.
    for (budget, ir, name) in [
        (4, 4, "BRK"),
        (5, 6, "UADD"),
        (15, 3, "UIF"),
        (16, 6, "UADD"),
        (42, 4, "BRK"),
        (43, 8, "MOV"),
        (45, 9, "END"),
    ] {
        let mut b = counter_batch(&p);
        let e = Machine::with_budget(budget).run(&p, &mut b, &Constants::default()).unwrap_err();
        assert_eq!(e.diagnostic.code, "X005");
        assert_eq!(e.instruction, ir, "budget {budget}");
        assert!(e.diagnostic.message.contains(&format!("at {name}:")), "{}", e.diagnostic.message);
    }
    let mut b = counter_batch(&p);
    assert_eq!(Machine::with_budget(46).run(&p, &mut b, &Constants::default()).unwrap().work, 46);
}

#[test]
fn float_if_break_treats_negative_zero_as_false_and_nan_as_true() {
    // Lanes break on the first iteration where IN[0].x is "true" as a float; x never changes, so
    // the budget-free lanes (−0 and 0) are held by a counter limit of 3.
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..1]
        IMM UINT32 {0, 1, 3, 0}
        MOV TEMP[0].x, IMM[0].xxxx
        BGNLOOP
          IF IN[0].xxxx
            BRK
          ENDIF
          USGE TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz
          UIF TEMP[1].xxxx
            BRK
          ENDIF
          UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
        ENDLOOP
        MOV OUT[0].x, TEMP[0].xxxx
        END";
    let x = [f(2.0), f(-0.0), f(f32::NAN), 0];
    let out = run_quad_bits(text, &[[0, 1, 2, 3].map(|l| [x[l], 0, 0, 0])], &Constants::default());
    assert_eq!([0, 1, 2, 3].map(|l| out[0][l][0]), [0, 3, 0, 3]);
}

#[test]
fn a_large_batch_keeps_every_quad_counting_until_its_own_exit() {
    // 37 quads (runs are whole groups of quads; the last group is partial): lane l of quad q
    // counts to (q·7 + l·3) mod 23, and each lane must end with exactly its own limit.
    let p = program(COUNTER);
    let n = 37;
    let mut b = Batch::new(&p, n);
    let limit = |q: usize, l: usize| ((q * 7 + l * 3) % 23) as u32;
    for q in 0..n {
        b.set_input(0, 0, q, Lanes([0, 1, 2, 3].map(|l| limit(q, l))));
    }
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    for q in 0..n {
        assert_eq!(b.output(0, 0, q).0, [0, 1, 2, 3].map(|l| limit(q, l)), "quad {q}");
    }
}

#[test]
fn wide_dot_products_replicate_and_read_old_values() {
    // DP3 TEMP[0], TEMP[0], TEMP[0] from (1, 10, 0, 0): 1 + 100 + 0 = 101 in every channel;
    // run again from (101, 101, 101, 101): 3 · 10201 = 30603.
    let [x, y] = aliasing("DP3 TEMP[0], TEMP[0], TEMP[0]");
    assert_eq!(x, [30603.0, 101.0, 30603.0, 101.0]);
    assert_eq!(y, [30603.0, 101.0, 30603.0, 101.0]);
    // DP4 with modifiers: −(1, 2, 3, 4) · |(−1, 2, −3, 0.5)| = −(1 + 4 + 9 + 2) = −16.
    let text = "FRAG\nDCL IN[0..1]\nDCL OUT[0]\nDP4 OUT[0].xz, -IN[0], |IN[1]|\nEND";
    let ins = [[[f(1.0), f(2.0), f(3.0), f(4.0)]; 4], [[f(-1.0), f(2.0), f(-3.0), f(0.5)]; 4]];
    let out = run_quad_bits(text, &ins, &Constants::default());
    assert_eq!([out[0][0][0], out[0][0][1], out[0][0][2]], [f(-16.0), 0, f(-16.0)]);
}
