//! Control flow with divergent lanes, the instruction budget, KILL/DEMOTE, derivatives,
//! indirect addressing, constants and inter-lane ops. Expected values are computed in the tests
//! by plain Rust loops over each lane (the reference semantics of `tgsi.rst`), or by hand.
use crate::exec_support::*;
use crate::support::compile;
use tgsi::exec::{Batch, Constants, Lanes, Machine};

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// Inputs: one per-lane scalar in IN[0].x (other channels 0); output OUT[0] per lane.
fn run_lanes(text: &str, x: [u32; 4]) -> [[u32; 4]; 4] {
    let ins = [[0, 1, 2, 3].map(|l| [x[l], 0, 0, 0])];
    run_quad_bits(text, &ins, &Constants::default())[0]
}

#[test]
fn if_else_diverges_per_lane_with_float_truth() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        IMM FLT32 {1.0, 2.0, 0.0, 0.0}
        IF IN[0].xxxx
          MOV OUT[0].x, IMM[0].xxxx
        ELSE
          MOV OUT[0].x, IMM[0].yyyy
        ENDIF
        END";
    // IF on a float: -0.0 is false, NaN is true.
    let r = run_lanes(text, [f(3.0), f(0.0), f(-0.0), f(f32::NAN)]);
    assert_eq!(r.map(|l| f32::from_bits(l[0])), [1.0, 2.0, 2.0, 1.0]);
}

#[test]
fn uif_tests_bits() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        IMM UINT32 {7, 9, 0, 0}
        UIF IN[0].xxxx
          MOV OUT[0].x, IMM[0].xxxx
        ELSE
          MOV OUT[0].x, IMM[0].yyyy
        ENDIF
        END";
    // -0.0 has bits 0x80000000: true for UIF.
    let r = run_lanes(text, [0, 1, f(-0.0), 0]);
    assert_eq!(r.map(|l| l[0]), [9, 7, 7, 9]);
}

/// Reference: for i in 0.. { if i >= n break; if i odd continue; sum += i }.
fn loop_reference(n: u32) -> (u32, u32) {
    let (mut i, mut sum) = (0u32, 0u32);
    loop {
        if i >= n {
            break;
        }
        i += 1;
        if (i - 1) % 2 == 1 {
            continue;
        }
        sum += i - 1;
    }
    (sum, i)
}

#[test]
fn loop_with_nested_if_brk_and_cont_diverges() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..2]
        IMM UINT32 {0, 1, 2, 0}
        MOV TEMP[0].xy, IMM[0].xxxx
        BGNLOOP
          USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
          UIF TEMP[1].xxxx
            BRK
          ENDIF
          MOV TEMP[2].x, TEMP[0].xxxx
          UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
          AND TEMP[1].x, TEMP[2].xxxx, IMM[0].yyyy
          UIF TEMP[1].xxxx
            CONT
          ENDIF
          UADD TEMP[0].y, TEMP[0].yyyy, TEMP[2].xxxx
        ENDLOOP
        MOV OUT[0].x, TEMP[0].yyyy
        MOV OUT[0].y, TEMP[0].xxxx
        END";
    let n = [0u32, 1, 5, 10];
    let r = run_lanes(text, n);
    for l in 0..4 {
        let (sum, i) = loop_reference(n[l]);
        assert_eq!((r[l][0], r[l][1]), (sum, i), "lane {}", l);
    }
}

#[test]
fn nested_loops_break_only_the_inner_one() {
    // outer: for a in 0..n { for b in 0.. { if b >= a break; count++ } } → count = n(n-1)/2
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..3]
        IMM UINT32 {0, 1, 0, 0}
        MOV TEMP[0], IMM[0].xxxx
        BGNLOOP
          USGE TEMP[3].x, TEMP[0].xxxx, IN[0].xxxx
          UIF TEMP[3].xxxx
            BRK
          ENDIF
          MOV TEMP[1].x, IMM[0].xxxx
          BGNLOOP
            USGE TEMP[3].x, TEMP[1].xxxx, TEMP[0].xxxx
            UIF TEMP[3].xxxx
              BRK
            ENDIF
            UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
            UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
          ENDLOOP
          UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
        ENDLOOP
        MOV OUT[0].x, TEMP[2].xxxx
        END";
    let n = [0u32, 1, 4, 7];
    let r = run_lanes(text, n);
    assert_eq!(r.map(|l| l[0]), n.map(|n| n * n.saturating_sub(1) / 2));
}

fn switch_text(default_pos: usize) -> String {
    // case 1: out += 1 (falls through into case 2); case 2: out += 10; break; default: out += 100; break
    let case1 = "CASE IMM[0].yyyy\n UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n";
    let case2 = "CASE IMM[0].zzzz\n UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n BRK\n";
    let default = "DEFAULT\n UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx\n BRK\n";
    let body = match default_pos {
        0 => format!("{}{}{}", default, case1, case2),
        1 => format!("{}{}{}", case1, case2, default),
        _ => format!("{}{}{}", case1, case2, default),
    };
    let body = if default_pos == 1 {
        // DEFAULT between the two cases: case 1 falls through into default's body.
        format!("{}{}{}", case1, default, case2)
    } else {
        body
    };
    format!(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM UINT32 {{0, 1, 2, 10}}\nIMM UINT32 {{100, 0, 0, 0}}\nMOV TEMP[0].x, IMM[0].xxxx\nSWITCH IN[0].xxxx\n{}ENDSWITCH\nMOV OUT[0].x, TEMP[0].xxxx\nEND",
        body
    )
}

#[test]
fn switch_falls_through_and_default_works_first_middle_last() {
    let sel = [1u32, 2, 3, 0];
    // DEFAULT first: default lanes run default (+100, BRK); case 1 → +1 then +10.
    let r = run_lanes(&switch_text(0), sel);
    assert_eq!(r.map(|l| l[0]), [11, 10, 100, 100]);
    // DEFAULT middle: case 1 falls through into default (+1 +100, BRK); case 2 → +10.
    let r = run_lanes(&switch_text(1), sel);
    assert_eq!(r.map(|l| l[0]), [101, 10, 100, 100]);
    // DEFAULT last.
    let r = run_lanes(&switch_text(2), sel);
    assert_eq!(r.map(|l| l[0]), [11, 10, 100, 100]);
}

#[test]
fn default_first_falls_through_into_the_next_case() {
    // DEFAULT without BRK before CASE 1: default lanes also run case 1's body (+1) then case 2's.
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM UINT32 {0, 1, 2, 10}\nIMM UINT32 {100, 0, 0, 0}
        MOV TEMP[0].x, IMM[0].xxxx
        SWITCH IN[0].xxxx
        DEFAULT
          UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx
        CASE IMM[0].yyyy
          UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
          BRK
        CASE IMM[0].zzzz
          UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
          BRK
        ENDSWITCH
        MOV OUT[0].x, TEMP[0].xxxx
        END";
    let r = run_lanes(text, [1, 2, 3, 0]);
    assert_eq!(r.map(|l| l[0]), [1, 10, 101, 101]);
}

#[test]
fn subroutine_chain_with_early_per_lane_return() {
    // main: CAL A; A: out.x += 1; if x > 1 RET; CAL B; out.x += 10; RET.  B: out.y = 7 for all callers.
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0]
        IMM UINT32 {0, 1, 10, 7}
        MOV OUT[0], IMM[0].xxxx
        CAL :3
        END
        BGNSUB
          UADD OUT[0].x, OUT[0].xxxx, IMM[0].yyyy
          USLT TEMP[0].x, IMM[0].yyyy, IN[0].xxxx
          UIF TEMP[0].xxxx
            RET
          ENDIF
          CAL :13
          UADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz
          RET
        ENDSUB
        BGNSUB
          MOV OUT[0].y, IMM[0].wwww
        ENDSUB";
    let r = run_lanes(text, [0, 1, 2, 5]);
    // lanes with x > 1 return early: only +1, and never reach B.
    assert_eq!(r.map(|l| (l[0], l[1])), [(11, 7), (11, 7), (1, 0), (1, 0)]);
}

#[test]
fn infinite_loop_hits_the_budget_with_a_diagnostic() {
    let p = program("FRAG\nDCL OUT[0]\nIMM FLT32 {1.0, 0, 0, 0}\nBGNLOOP\nADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\nENDLOOP\nEND");
    let mut b = Batch::new(&p, 4);
    let mut m = Machine::with_budget(10_000);
    let e = m.run(&p, &mut b, &Constants::default()).unwrap_err();
    assert_eq!(e.diagnostic.code, "X005");
    assert!(e.instruction <= 2, "stopped at {}", e.instruction);
    assert!(e.diagnostic.message.contains("budget"));
}

#[test]
fn a_branch_no_lane_enters_is_skipped() {
    let p = program("FRAG\nDCL IN[0]\nDCL OUT[0]\nIF IN[0].xxxx\nMOV OUT[0], IN[0]\nMOV OUT[0], IN[0]\nMOV OUT[0], IN[0]\nENDIF\nEND");
    let mut b = Batch::new(&p, 2);
    let mut m = Machine::new();
    let s = m.run(&p, &mut b, &Constants::default()).unwrap();
    // IF jumps straight to ENDIF, then END: 3 dispatches instead of 6.
    assert_eq!(s.instructions, 3);
}

#[test]
fn kill_if_marks_lanes_that_keep_running_for_derivatives() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        KILL_IF IN[0].xxxx
        DDX OUT[0].x, IN[0].xxxx
        MOV OUT[0].y, IN[0].xxxx
        END";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    b.set_input(0, 0, 0, Lanes::from_f32([1.0, -2.0, 4.0, -8.0]));
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.killed[0], 0b1010);
    // Killed lanes still computed: DDX coarse = BR - BL = -8 - 4 for every lane.
    assert_eq!(b.output(0, 0, 0).f32s(), [-12.0; 4]);
    assert_eq!(b.output(0, 1, 0).f32s(), [1.0, -2.0, 4.0, -8.0]);
}

#[test]
fn kill_marks_only_active_lanes() {
    let p = program("FRAG\nDCL IN[0]\nDCL OUT[0]\nIF IN[0].xxxx\nKILL\nENDIF\nEND");
    let mut b = Batch::new(&p, 1);
    b.set_input(0, 0, 0, Lanes::from_f32([1.0, 0.0, 0.0, 1.0]));
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.killed[0], 0b1001);
}

#[test]
fn demote_makes_helpers_that_read_helper_sees() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL SV[0], HELPER_INVOCATION
        MOV OUT[0].x, SV[0].xxxx
        IF IN[0].xxxx
          DEMOTE
        ENDIF
        READ_HELPER OUT[0].y
        END";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    b.coverage[0] = 0b0111; // lane 3 is a helper from the start
    b.set_input(0, 0, 0, Lanes::from_f32([1.0, 0.0, 0.0, 0.0]));
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    let m = u32::MAX;
    assert_eq!(b.output(0, 0, 0).0, [0, 0, 0, m]);
    assert_eq!(b.output(0, 1, 0).0, [m, 0, 0, m]);
    assert_eq!(b.helpers[0], 0b1001);
    assert_eq!(b.killed[0] & 1, 1);
}

/// Without KILL or DEMOTE a run keeps no kill mask (`exec/setup.rs`): none is killed, the helpers
/// handed back are the coverage's (lanes 1 and 3 uncovered), and a later program that kills on
/// the same machine starts from nothing killed.
#[test]
fn a_program_that_cannot_kill_hands_back_the_coverages_helpers() {
    let plain = program("FRAG\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND");
    let kills = program("FRAG\nDCL IN[0]\nDCL OUT[0]\nKILL_IF IN[0].xxxx\nMOV OUT[0], IN[0]\nEND");
    let mut m = Machine::new();
    for (p, killed) in [(&plain, 0), (&kills, 0b0010), (&plain, 0)] {
        let mut b = Batch::new(p, 2);
        b.coverage = vec![0b0101, 0b1111];
        b.set_input(0, 0, 0, Lanes::from_f32([1.0, -1.0, 1.0, 1.0]));
        m.run(p, &mut b, &Constants::default()).unwrap();
        assert_eq!(b.helpers, vec![0b1010, 0b0000]);
        assert_eq!(b.killed, vec![killed, 0]);
    }
}

#[test]
fn derivatives_coarse_and_fine_as_tgsi_exec() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0..3]\nDDX OUT[0], IN[0]\nDDY OUT[1], IN[0]\nDDX_FINE OUT[2], IN[0]\nDDY_FINE OUT[3], IN[0]\nEND";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    let v = [1.0f32, 3.0, 10.0, 30.0]; // TL TR BL BR
    b.set_input(0, 0, 0, Lanes::from_f32(v));
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output(0, 0, 0).f32s(), [20.0; 4]); // BR - BL
    assert_eq!(b.output(1, 0, 0).f32s(), [9.0; 4]); // BL - TL
    assert_eq!(b.output(2, 0, 0).f32s(), [2.0, 2.0, 20.0, 20.0]);
    assert_eq!(b.output(3, 0, 0).f32s(), [9.0, 27.0, 9.0, 27.0]);
}

#[test]
fn indirect_sources_and_destinations_use_each_lanes_address() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..3]
        DCL ADDR[0]
        IMM FLT32 {10.0, 20.0, 30.0, 40.0}
        MOV TEMP[0], IMM[0].xxxx
        MOV TEMP[1], IMM[0].yyyy
        MOV TEMP[2], IMM[0].zzzz
        MOV TEMP[3], IMM[0].wwww
        UARL ADDR[0].x, IN[0].xxxx
        MOV OUT[0].x, TEMP[ADDR[0].x+1]
        MOV TEMP[ADDR[0].x], IN[0].yyyy
        MOV OUT[0].y, TEMP[0].xxxx
        MOV OUT[0].z, TEMP[2].xxxx
        END";
    let ins = [[0, 1, 2, 3].map(|l: usize| [[0u32, 2, 1, 7][l], f(-1.0), 0, 0])];
    let r = run_quad_bits(text, &ins, &Constants::default())[0];
    let x: Vec<f32> = r.iter().map(|l| f32::from_bits(l[0])).collect();
    // lane addresses 0,2,1,7: reads TEMP[1], TEMP[3], TEMP[2], out of range → 0
    assert_eq!(x, [20.0, 40.0, 30.0, 0.0]);
    // lane 0 wrote TEMP[0], lane 1 wrote TEMP[2]; lane 3's write (TEMP[7]) is dropped.
    let y: Vec<f32> = r.iter().map(|l| f32::from_bits(l[1])).collect();
    let z: Vec<f32> = r.iter().map(|l| f32::from_bits(l[2])).collect();
    assert_eq!(y, [-1.0, 10.0, 10.0, 10.0]);
    assert_eq!(z, [30.0, -1.0, 30.0, 30.0]);
}

#[test]
fn constant_buffers_two_dimensional_indirect_and_out_of_range() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL ADDR[0]
        DCL CONST[0][0..900]
        DCL CONST[1][0..3]
        DCL CONST[3][0]
        UARL ADDR[0].x, IN[0].xxxx
        MOV OUT[0].x, CONST[1][ADDR[0].x]
        MOV OUT[0].y, CONST[0][1].yyyy
        MOV OUT[0].z, CONST[3][0].xxxx
        MOV OUT[0].w, CONST[0][900].xxxx
        END";
    let mut c = Constants::new();
    c.set_f32(0, 1, [0.0, 5.5, 0.0, 0.0]);
    for i in 0..4 {
        c.set_f32(1, i, [i as f32 * 2.0, 0.0, 0.0, 0.0]);
    }
    let ins = [[0, 1, 2, 3].map(|l: usize| [[3u32, 0, 9, 1][l], 0, 0, 0])];
    let r = run_quad_bits(text, &ins, &c)[0];
    let got: Vec<[f32; 4]> = r.iter().map(|l| l.map(f32::from_bits)).collect();
    assert_eq!(got.iter().map(|v| v[0]).collect::<Vec<_>>(), [6.0, 0.0, 0.0, 2.0]);
    assert!(got.iter().all(|v| v[1] == 5.5 && v[2] == 0.0 && v[3] == 0.0));
}

#[test]
fn votes_ballot_and_reads_over_the_quad() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0..2]
        VOTE_ANY OUT[0].x, IN[0].xxxx
        VOTE_ALL OUT[0].y, IN[0].xxxx
        VOTE_EQ OUT[0].z, IN[0].xxxx
        BALLOT OUT[1].xy, IN[0].xxxx
        READ_FIRST OUT[2].x, IN[0].yyyy
        READ_INVOC OUT[2].y, IN[0].yyyy, IN[0].zzzz
        END";
    let ins = [[0, 1, 2, 3].map(|l: usize| [[0u32, 5, 0, 5][l], [11u32, 22, 33, 44][l], 2, 0])];
    let r = run_quad_bits(text, &ins, &Constants::default());
    let m = u32::MAX;
    assert_eq!(r[0][0][..3], [m, 0, 0]);
    assert_eq!(r[1][0][..2], [0b1010, 0]);
    assert_eq!(r[2][0][..2], [11, 33]);
}

#[test]
fn trace_lists_instructions_and_lane_values() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0]
        IMM FLT32 {1.0, 0.0, 0.0, 0.0}
        ADD TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
        IF IN[0].yyyy
          MUL OUT[0].x, TEMP[0].xxxx, TEMP[0].xxxx
        ENDIF
        END";
    let p = program(text);
    let mut b = Batch::new(&p, 2);
    b.set_input(0, 0, 1, Lanes::from_f32([1.0, 2.0, 3.0, 4.0]));
    b.set_input(0, 1, 1, Lanes::from_f32([1.0, 0.0, 1.0, 0.0]));
    let (trace, r) = Machine::new().run_traced(
        &p,
        &mut b,
        &Constants::default(),
        &mut tgsi::exec::NoTextures,
        1,
    );
    r.unwrap();
    let ops: Vec<&str> = trace.steps.iter().map(|s| s.opcode).collect();
    assert_eq!(ops, ["ADD", "IF", "MUL", "ENDIF", "END"]);
    let add = &trace.steps[0];
    assert_eq!(add.writes.len(), 1);
    assert_eq!(add.writes[0].register, "TEMP[0]");
    assert_eq!(add.writes[0].channel, 'x');
    assert_eq!(add.writes[0].floats(), [2.0, 3.0, 4.0, 5.0]);
    assert_eq!(add.writes[0].hex()[0], "0x40000000");
    let mul = &trace.steps[2];
    assert_eq!(mul.exec_mask, 0b0101);
    // Lanes 1 and 3 were masked: OUT keeps its initial 0.
    assert_eq!(mul.writes[0].floats(), [4.0, 0.0, 16.0, 0.0]);
    assert!(trace.render().contains("MUL"));
}

#[test]
fn batches_run_many_quads_like_single_quads() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nIMM FLT32 {0.5, 0, 0, 0}\nIF IN[0].xxxx\nMUL OUT[0].x, IN[0].xxxx, IMM[0].xxxx\nELSE\nMOV OUT[0].x, IMM[0].xxxx\nENDIF\nEND";
    let p = compile(&build(text)).unwrap();
    let n = 37;
    let mut b = Batch::new(&p, n);
    for q in 0..n {
        b.set_input(0, 0, q, Lanes::from_f32([0, 1, 2, 3].map(|l| ((q * 4 + l) % 3) as f32)));
    }
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    for q in 0..n {
        for l in 0..4 {
            let x = ((q * 4 + l) % 3) as f32;
            let want = if x != 0.0 { x * 0.5 } else { 0.5 };
            assert_eq!(b.output_f32(0, q, l)[0], want);
        }
    }
}

#[test]
fn unbalanced_control_flow_is_refused_by_the_validator_before_running() {
    for (text, code) in [
        ("FRAG\nENDIF\nEND", "V102"),
        ("FRAG\nBGNLOOP\nEND", "V103"),
        ("FRAG\nDCL IN[0]\nIF IN[0].xxxx\nENDLOOP\nEND", "V103"),
        ("FRAG\nBRK\nEND", "V105"),
        ("FRAG\nCAL :7\nEND", "V113"),
    ] {
        let e = compile(&build(text)).unwrap_err();
        assert_eq!(e.code, code, "{}", text);
    }
}

#[test]
fn recursion_is_refused_and_the_deepest_allowed_call_chain_runs() {
    let e = compile(&build("FRAG\nDCL OUT[0]\nCAL :2\nEND\nBGNSUB\nCAL :2\nENDSUB")).unwrap_err();
    assert_eq!(e.code, "V115");
    // A chain of n subroutines, each calling the next; the last writes OUT[0].x = 1.
    let chain = |n: usize| {
        let mut t =
            String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nIMM FLT32 {1, 0, 0, 0}\nCAL :2\nEND\n");
        for k in 0..n {
            // Subroutine k starts at instruction 2 + 3k: BGNSUB, CAL (or MOV), ENDSUB.
            if k + 1 < n {
                t.push_str(&format!("BGNSUB\nCAL :{}\nENDSUB\n", 2 + 3 * (k + 1)));
            } else {
                t.push_str("BGNSUB\nMOV OUT[0].x, IMM[0].xxxx\nENDSUB\n");
            }
        }
        t
    };
    // The validator's limit (V510, 32 as tgsi_exec) and the machine's call stack agree: 32
    // nested calls run to the end, 33 are refused before running.
    let r = run_lanes(&chain(32), [0, 0, 0, 0]);
    assert_eq!(r.map(|l| f32::from_bits(l[0])), [1.0; 4]);
    assert_eq!(compile(&build(&chain(33))).unwrap_err().code, "V510");
}

#[test]
fn huge_register_files_are_refused_not_allocated() {
    let e = compile(&build("FRAG\nDCL TEMP[0..100000]\nEND")).unwrap_err();
    assert_eq!(e.code, "V501");
    let e = compile(&build("FRAG\nDCL TEMP[0..4000]\nDCL OUT[0..4000]\nEND")).unwrap_err();
    assert_eq!(e.code, "V504");
    // Every file within its limit, but 4096 temporaries + 2100 immediates exceed the 6144
    // registers one batch holds.
    let mut t = String::from("FRAG\nDCL TEMP[0..4095]\n");
    for _ in 0..2100 {
        t.push_str("IMM FLT32 {0, 0, 0, 0}\n");
    }
    t.push_str("END\n");
    assert_eq!(compile(&build(&t)).unwrap_err().code, "V512");
}

#[test]
fn in_place_results_respect_write_masks_and_aliasing() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0..2]
        DCL TEMP[0..1]
        DCL ADDR[0]
        IMM FLT32 {1.0, 2.0, 3.0, 4.0}
        IMM UINT32 {1, 0, 0, 0}
        MOV TEMP[0], IMM[0]
        MOV TEMP[1], IMM[0].wzyx
        ADD TEMP[1].xz, TEMP[0], TEMP[0].yzwx
        MOV TEMP[0], TEMP[0].yxwz
        MOV OUT[0], TEMP[1]
        MOV OUT[1], TEMP[0]
        UARL ADDR[0].x, IMM[1].xxxx
        MOV OUT[2], TEMP[ADDR[0].x]
        END";
    let r = run_quad_bits(text, &[[[0; 4]; 4]], &Constants::default());
    let lane0 = |o: usize| r[o][0].map(f32::from_bits);
    // TEMP[1] = (4,3,2,1); .xz += (1+2, 3+4) → (3, 3, 7, 1)
    assert_eq!(lane0(0), [3.0, 3.0, 7.0, 1.0]);
    // Swizzled self-move reads the old values: (2, 1, 4, 3)
    assert_eq!(lane0(1), [2.0, 1.0, 4.0, 3.0]);
    // ADDR = 1 → OUT[2] = TEMP[1]
    assert_eq!(lane0(2), [3.0, 3.0, 7.0, 1.0]);
}
