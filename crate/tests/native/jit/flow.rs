//! SWITCH, subroutines and indirect operands in the compiled module, with values and work
//! (quad-instructions, `exec/work.rs`) worked out by hand here: each instruction is charged once
//! per quad with an active lane when it starts, CASE, DEFAULT, ELSE, ENDIF, ENDLOOP and ENDSWITCH
//! by the exec mask they leave. Every case checks that the module finished the batch (no
//! fallback), that the interpreter agrees, and that the module validates.

use super::differential::{compare, program, run_counted, Tally};
use super::validate::validate;
use std::sync::atomic::Ordering;
use tgsi::exec::{Batch, Constants, Lanes, Machine, Program};

fn ints(v: [u32; 4]) -> Lanes {
    Lanes(v)
}

fn floats(v: [f32; 4]) -> Lanes {
    Lanes(v.map(f32::to_bits))
}

/// Runs `p` on `b` in the module with a large budget: the module must finish the batch itself.
fn run_in_module(p: &Program, b: &mut Batch) -> u64 {
    validate(&tgsi::jit::compile(p).expect("compiles").bytes, "hand program");
    let (r, tally) = run_counted(p, b, 1 << 20);
    let stats = r.expect("runs");
    assert_eq!(tally.done.load(Ordering::Relaxed), 1, "the module ran the batch");
    assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0, "no fallback");
    stats.work
}

#[test]
fn a_switch_with_fall_through_where_quads_take_different_cases() {
    // CASE 1 falls through into CASE 2 (+1 then +10), CASE 2 breaks, DEFAULT adds 100.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n\
         IMM[0] UINT32 {0, 1, 2, 10}\nIMM[1] UINT32 {100, 0, 0, 0}\n\
         MOV TEMP[0].x, IMM[0].xxxx\n\
         SWITCH IN[0].xxxx\n\
         CASE IMM[0].yyyy\n\
         UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
         CASE IMM[0].zzzz\n\
         UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
         BRK\n\
         DEFAULT\n\
         UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx\n\
         ENDSWITCH\n\
         MOV OUT[0].x, TEMP[0].xxxx\n\
         END\n",
    );
    let sel = [[1, 1, 1, 1], [2, 2, 2, 2], [5, 5, 5, 5], [1, 2, 7, 2]];
    let mut b = Batch::new(&p, 4);
    for (q, s) in sel.iter().enumerate() {
        b.set_input(0, 0, q, ints(*s));
    }
    let work = run_in_module(&p, &mut b);
    // Selector 1: 1 + 10; 2: 10; anything else: 100.
    assert_eq!(b.output(0, 0, 0).0, [11; 4]);
    assert_eq!(b.output(0, 0, 1).0, [10; 4]);
    assert_eq!(b.output(0, 0, 2).0, [100; 4]);
    assert_eq!(b.output(0, 0, 3).0, [11, 10, 100, 10]);
    // Per quad, in program order MOV SWITCH CASE UADD CASE UADD BRK DEFAULT UADD ENDSWITCH
    // MOV END:
    //   all 1:     1 1 1 1 1 1 1 0 0 1 1 1 = 10 (DEFAULT leaves no lane: all broke)
    //   all 2:     1 1 0 0 1 1 1 0 0 1 1 1 = 8
    //   all 5:     1 1 0 0 0 0 0 1 1 1 1 1 = 7
    //   1, 2, 7, 2: every one                = 12
    assert_eq!(work, 10 + 8 + 7 + 12);
    compare(&p, 3, 4, 1 << 20, &Tally::default()).expect("the interpreter agrees");
}

#[test]
fn a_default_before_the_cases_and_a_switch_inside_a_loop() {
    // DEFAULT first and without BRK: its lanes fall into CASE 1's body too. Around it a loop of
    // two passes; a BRK of the switch does not leave the loop.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\n\
         IMM[0] UINT32 {0, 1, 2, 10}\n\
         BGNLOOP\n\
         USGE TEMP[1].x, TEMP[1].yyyy, IMM[0].zzzz\n\
         UIF TEMP[1].xxxx\n\
         BRK\n\
         ENDIF\n\
         UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy\n\
         SWITCH IN[0].xxxx\n\
         DEFAULT\n\
         UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
         CASE IMM[0].yyyy\n\
         UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
         BRK\n\
         ENDSWITCH\n\
         ENDLOOP\n\
         MOV OUT[0].x, TEMP[0].xxxx\n\
         END\n",
    );
    let mut b = Batch::new(&p, 2);
    b.set_input(0, 0, 0, ints([1, 1, 1, 1]));
    b.set_input(0, 0, 1, ints([0, 1, 3, 1]));
    let work = run_in_module(&p, &mut b);
    // Two passes: selector 1 adds 1 each time, any other 10 + 1.
    assert_eq!(b.output(0, 0, 0).0, [2; 4]);
    assert_eq!(b.output(0, 0, 1).0, [22, 2, 22, 2]);
    // Quad 0 (all selector 1): BGNLOOP 1; each of two passes USGE 1, UIF 1, ENDIF 1, UADD 1,
    // SWITCH 1, DEFAULT 0 (no lane), UADD 0, CASE 1, UADD 1, BRK 1, ENDSWITCH 1, ENDLOOP 1 =
    // 10; the third pass USGE 1, UIF 1, BRK 1, ENDIF 0, then ENDLOOP leaving 1 = 4; MOV 1,
    // END 1. 1 + 20 + 4 + 2 = 27.
    // Quad 1 (mixed): DEFAULT 1 and its UADD 1 more in each pass: 1 + 24 + 4 + 2 = 31.
    assert_eq!(work, 27 + 31);
    compare(&p, 4, 2, 1 << 20, &Tally::default()).expect("the interpreter agrees");
}

#[test]
fn a_call_whose_ret_some_lanes_take() {
    // The subroutine adds 1, returns in the lanes where 1 < in.x, and adds 10 in the others;
    // after the call every lane adds 1 to y.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n\
         IMM[0] UINT32 {0, 1, 10, 0}\n\
         MOV OUT[0], IMM[0].xxxx\n\
         CAL :4\n\
         UADD OUT[0].y, OUT[0].yyyy, IMM[0].yyyy\n\
         END\n\
         BGNSUB\n\
         UADD OUT[0].x, OUT[0].xxxx, IMM[0].yyyy\n\
         USLT TEMP[0].x, IMM[0].yyyy, IN[0].xxxx\n\
         UIF TEMP[0].xxxx\n\
         RET\n\
         ENDIF\n\
         UADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz\n\
         ENDSUB\n",
    );
    let mut b = Batch::new(&p, 3);
    b.set_input(0, 0, 0, ints([0, 1, 2, 5]));
    b.set_input(0, 0, 1, ints([5; 4]));
    b.set_input(0, 0, 2, ints([0; 4]));
    let work = run_in_module(&p, &mut b);
    assert_eq!(b.output(0, 0, 0).0, [11, 11, 1, 1]);
    assert_eq!(b.output(0, 0, 1).0, [1; 4]);
    assert_eq!(b.output(0, 0, 2).0, [11; 4]);
    for q in 0..3 {
        assert_eq!(b.output(0, 1, q).0, [1; 4], "every lane is back after the call");
    }
    // In order MOV CAL UADD USLT UIF RET ENDIF UADD ENDSUB UADD END:
    //   mixed:        1 1 1 1 1 1 1 1 1 1 1 = 11
    //   all return:   1 1 1 1 1 1 0 0 0 1 1 = 8 (ENDIF leaves no lane; ENDSUB not reached)
    //   none returns: 1 1 1 1 1 0 1 1 1 1 1 = 10 (no lane enters the UIF: RET not run)
    assert_eq!(work, 11 + 8 + 10);
    compare(&p, 5, 3, 1 << 20, &Tally::default()).expect("the interpreter agrees");
}

#[test]
fn a_ret_inside_a_loop_of_a_subroutine_and_in_the_main_program() {
    // The subroutine counts to in.x but returns when the count reaches 2; the main program
    // then returns in the lanes where in.y is non-zero before writing w.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n\
         IMM[0] UINT32 {0, 1, 2, 7}\n\
         CAL :6\n\
         UIF IN[0].yyyy\n\
         RET\n\
         ENDIF\n\
         MOV OUT[0].w, IMM[0].wwww\n\
         END\n\
         BGNSUB\n\
         BGNLOOP\n\
         USGE TEMP[0].x, OUT[0].xxxx, IN[0].xxxx\n\
         UIF TEMP[0].xxxx\n\
         BRK\n\
         ENDIF\n\
         UADD OUT[0].x, OUT[0].xxxx, IMM[0].yyyy\n\
         USEQ TEMP[0].y, OUT[0].xxxx, IMM[0].zzzz\n\
         UIF TEMP[0].yyyy\n\
         RET\n\
         ENDIF\n\
         ENDLOOP\n\
         ENDSUB\n",
    );
    let mut b = Batch::new(&p, 2);
    b.set_input(0, 0, 0, ints([0, 1, 3, 9]));
    b.set_input(0, 1, 0, ints([0, 1, 0, 1]));
    b.set_input(0, 0, 1, ints([1; 4]));
    b.set_input(0, 1, 1, ints([0; 4]));
    let work = run_in_module(&p, &mut b);
    // x = min(in.x, 2); w = 7 where in.y is 0.
    assert_eq!(b.output(0, 0, 0).0, [0, 1, 2, 2]);
    assert_eq!(b.output(0, 3, 0).0, [7, 0, 7, 0]);
    assert_eq!(b.output(0, 0, 1).0, [1; 4]);
    assert_eq!(b.output(0, 3, 1).0, [7; 4]);
    // Quad 0, in.x = 0, 1, 3, 9: CAL 1, BGNLOOP 1. Pass 1: USGE 1, UIF 1, BRK 1 (lane 0),
    // ENDIF 1, UADD 1, USEQ 1, UIF 1 (no lane: skipped), ENDIF 1, ENDLOOP 1 = 9. Pass 2:
    // USGE, UIF, BRK (lane 1), ENDIF, UADD, USEQ, UIF, RET (lanes 2, 3), ENDIF leaving no lane
    // 0, ENDLOOP 1 (the loop ends: lanes 0 and 1 broke out of it and go on) = 9; ENDSUB 1.
    // Main: UIF 1, RET 1, ENDIF 1, MOV 1, END 1 = 5. 2 + 9 + 9 + 1 + 5 = 26.
    // Quad 1, in.x = 1: CAL, BGNLOOP 2; pass 1 with no BRK and no RET: USGE, UIF, ENDIF,
    // UADD, USEQ, UIF, ENDIF, ENDLOOP = 8; pass 2 USGE, UIF, BRK, ENDIF leaving no lane 0 = 3,
    // ENDLOOP leaving 1, ENDSUB 1; main UIF 1 (no lane), ENDIF 1, MOV 1, END 1 = 4.
    // 2 + 8 + 3 + 2 + 4 = 19.
    assert_eq!(work, 26 + 19);
    compare(&p, 6, 2, 1 << 20, &Tally::default()).expect("the interpreter agrees");
}

#[test]
fn indirect_operands_read_and_write_each_lanes_register() {
    // ADDR[0].x per lane: −1, 0, 1, 5. TEMP[0..3] hold 10, 20, 30, 40.
    let p = program(
        "FRAG\nDCL IN[0]\nDCL OUT[0..1]\nDCL TEMP[0..3]\nDCL ADDR[0]\n\
         IMM[0] FLT32 {10, 20, 30, 40}\n\
         MOV TEMP[0], IMM[0].xxxx\n\
         MOV TEMP[1], IMM[0].yyyy\n\
         MOV TEMP[2], IMM[0].zzzz\n\
         MOV TEMP[3], IMM[0].wwww\n\
         UARL ADDR[0].x, IN[0].xxxx\n\
         MOV OUT[0].x, TEMP[ADDR[0].x+1].xxxx\n\
         MOV TEMP[ADDR[0].x].y, IMM[0].wwww\n\
         MOV OUT[0].y, TEMP[0].yyyy\n\
         MOV OUT[0].z, TEMP[1].yyyy\n\
         MOV OUT[ADDR[0].x].w, IMM[0].xxxx\n\
         MOV OUT[1].x, IN[ADDR[0].x+1].yyyy\n\
         MOV OUT[1].y, -TEMP[ADDR[0].x+1].xxxx\n\
         IF IN[0].zzzz\n\
         MOV OUT[1].z, TEMP[ADDR[0].x+2].xxxx\n\
         ENDIF\n\
         END\n",
    );
    let mut b = Batch::new(&p, 1);
    b.set_input(0, 0, 0, ints([u32::MAX, 0, 1, 5]));
    b.set_input(0, 1, 0, floats([7.0; 4]));
    b.set_input(0, 2, 0, floats([1.0, 1.0, 0.0, 1.0]));
    let work = run_in_module(&p, &mut b);
    // Register a + 1 = 0, 1, 2, 6: the last is outside TEMP[0..3] and reads 0.
    assert_eq!(b.output(0, 0, 0), floats([10.0, 20.0, 30.0, 0.0]));
    // TEMP[a].y = 40 in lanes 1 (TEMP[0]) and 2 (TEMP[1]); a = −1 and 5 write nothing.
    assert_eq!(b.output(0, 1, 0), floats([10.0, 40.0, 10.0, 10.0]));
    assert_eq!(b.output(0, 2, 0), floats([20.0, 20.0, 40.0, 20.0]));
    // OUT[a].w = 10 in lane 1 (OUT[0]) and lane 2 (OUT[1]).
    assert_eq!(b.output(0, 3, 0), floats([0.0, 10.0, 0.0, 0.0]));
    assert_eq!(b.output(1, 3, 0), floats([0.0, 0.0, 10.0, 0.0]));
    // IN[a + 1]: only lane 0 (IN[0]) is inside the file.
    assert_eq!(b.output(1, 0, 0), floats([7.0, 0.0, 0.0, 0.0]));
    // Negated: −10, −20, −30 and −0 (the zero read outside the file, negated).
    assert_eq!(
        b.output(1, 1, 0).0,
        [(-10f32).to_bits(), (-20f32).to_bits(), (-30f32).to_bits(), 0x8000_0000]
    );
    // Inside the IF (lanes 0, 1, 3): register a + 2 = 1, 2, 7 → 20, 30, 0; lane 2 keeps 0.
    assert_eq!(b.output(1, 2, 0), floats([20.0, 30.0, 0.0, 0.0]));
    // 12 instructions before the IF, IF 1, MOV 1, ENDIF 1, END 1: one quad, all active.
    assert_eq!(work, 12 + 4);
    compare(&p, 7, 1, 1 << 20, &Tally::default()).expect("the interpreter agrees");
}

/// An endless loop inside a subroutine and one inside a CASE: the module hands the batch back
/// and the interpreter stops with `X005` at the same instruction, for budgets on both sides of
/// each point; a budget that fits is finished by the module with the interpreter's work.
#[test]
fn budget_exhaustion_inside_a_subroutine_and_a_switch() {
    let endless_sub = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
        MOV OUT[0], IMM[0].yyyy\nCAL :3\nEND\n\
        BGNSUB\nBGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nMOV OUT[0], TEMP[0]\nENDLOOP\nENDSUB\n";
    let endless_case = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 1, 0, 0}\n\
        SWITCH IN[0].xxxx\nCASE IMM[0].xxxx\nBGNLOOP\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
        MOV OUT[0], TEMP[0]\nENDLOOP\nBRK\nDEFAULT\nMOV OUT[0].y, IMM[0].yyyy\nENDSWITCH\nEND\n";
    for text in [endless_sub, endless_case] {
        let p = program(text);
        let tally = Tally::default();
        for budget in [1, 2, 3, 4, 5, 6, 7, 10, 99, 100, 101, 1000] {
            compare(&p, 9, 3, budget, &tally).unwrap_or_else(|e| panic!("budget {budget}: {e}"));
            // All inputs 0: every lane runs the endless loop. The interpreter alone, then the
            // module (which gives the batch back to the interpreter): the same error.
            let mut b = Batch::new(&p, 3);
            let alone = Machine::with_budget(budget)
                .run(&p, &mut b, &Constants::default())
                .expect_err("never ends");
            let mut b = Batch::new(&p, 3);
            let (r, t) = run_counted(&p, &mut b, budget);
            let e = r.expect_err("never ends");
            assert_eq!(e, alone, "budget {budget}");
            assert_eq!(e.diagnostic.code, "X005");
            assert!(e.diagnostic.message.contains(&format!("stopped after {budget} instructions")));
            assert_eq!(t.handed_back.load(Ordering::Relaxed), 1, "the module ran and gave up");
        }
    }
    // A CASE no lane takes holds the endless loop: 1 quad, selector 1 everywhere. SWITCH 1,
    // CASE 0 (no lane), loop never entered, BRK 0, DEFAULT 1, MOV 1, ENDSWITCH 1, END 1 = 5.
    let p = program(endless_case);
    for budget in [4, 5] {
        let mut b = Batch::new(&p, 1);
        b.set_input(0, 0, 0, ints([1; 4]));
        let (r, t) = run_counted(&p, &mut b, budget);
        match budget {
            4 => {
                assert_eq!(r.expect_err("one short").diagnostic.code, "X005");
                assert_eq!(t.handed_back.load(Ordering::Relaxed), 1);
            }
            _ => {
                assert_eq!(r.expect("fits").work, 5);
                assert_eq!(t.done.load(Ordering::Relaxed), 1, "the module finished it");
                assert_eq!(b.output(0, 1, 0).0, [1; 4]);
            }
        }
    }
}

/// Calls nested deeper than the bound are refused with the reason (recursion never gets here:
/// the validator refuses it, V115).
#[test]
fn calls_nested_deeper_than_the_bound_are_refused_with_a_reason() {
    // A chain of 9 subroutines, each calling the next: one more than MAX_JIT_CALL_DEPTH (8).
    let n = tgsi::limits::MAX_JIT_CALL_DEPTH + 1;
    let mut t = String::from("FRAG\nDCL OUT[0]\nIMM[0] FLT32 {1, 0, 0, 0}\nCAL :2\nEND\n");
    for k in 0..n {
        if k + 1 < n {
            t.push_str(&format!("BGNSUB\nCAL :{}\nENDSUB\n", 2 + 3 * (k + 1)));
        } else {
            t.push_str("BGNSUB\nMOV OUT[0].x, IMM[0].xxxx\nENDSUB\n");
        }
    }
    let u = tgsi::jit::compile(&program(&t)).expect_err("too deep");
    assert!(u.reason.contains("nested deeper than 8"), "{}", u.reason);
    // One level less compiles, and writes 1.
    let t8 = t.replace(&format!("CAL :{}", 2 + 3 * (n - 1)), "MOV OUT[0].x, IMM[0].xxxx");
    let p = program(&t8);
    let mut b = Batch::new(&p, 1);
    run_in_module(&p, &mut b);
    assert_eq!(b.output(0, 0, 0), floats([1.0; 4]));
}

/// The bounds of indirect operands: a file of 256 registers compiles and one of 257 does not;
/// sixteen 4-channel reads over 256 registers are 16 x 4 x 256 = 16384 selects, the bound, and
/// a seventeenth passes it. Each refusal says why.
#[test]
fn indirect_operands_past_their_bounds_are_refused_with_a_reason() {
    let text = |regs: u32, reads: usize| {
        let mut t = format!(
            "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..{}]\nDCL ADDR[0]\nUARL ADDR[0].x, IN[0].xxxx\n",
            regs - 1
        );
        for _ in 0..reads {
            t.push_str("ADD OUT[0], OUT[0], TEMP[ADDR[0].x]\n");
        }
        t.push_str("END\n");
        t
    };
    let max = tgsi::limits::MAX_JIT_INDIRECT_REGISTERS;
    assert_eq!(max, 256);
    let fits = program(&text(max, 1));
    validate(&tgsi::jit::compile(&fits).expect("256 registers compile").bytes, "256 registers");
    let u = tgsi::jit::compile(&program(&text(max + 1, 1))).expect_err("257 registers");
    assert!(u.reason.contains("more than 256 registers"), "{}", u.reason);
    assert_eq!(tgsi::limits::MAX_JIT_INDIRECT_SELECTS, 16384);
    let p = program(&text(max, 16));
    tgsi::jit::compile(&p).expect("16384 selects compile");
    // The 16 reads through the module: TEMP[a] is 0 everywhere (nothing written), so OUT stays 0
    // in every lane, whatever the address (−1, 0, 255, 256).
    let mut b = Batch::new(&p, 1);
    b.set_input(0, 0, 0, ints([u32::MAX, 0, 255, 256]));
    run_in_module(&p, &mut b);
    assert_eq!(b.output(0, 0, 0).0, [0; 4]);
    let u = tgsi::jit::compile(&program(&text(max, 17))).expect_err("16385 and more");
    assert!(u.reason.contains("more than 16384 register channels"), "{}", u.reason);
}
