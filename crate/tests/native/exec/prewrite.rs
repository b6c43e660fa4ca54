//! Registers start at zero for every run even though the machine keeps its storage between runs
//! and skips clearing the rows a program writes before reading (`exec/prewrite.rs`), and skips
//! refilling the masks of programs that never change them. Expected values: a register nobody
//! wrote in this run reads 0 (`docs/interpreter.md` "Registers between runs"); the others are the
//! immediates moved.
use crate::exec_support::*;
use tgsi::exec::{Batch, Constants, Machine};

/// Storage row of TEMP[t] channel c, OUT[o] channel c.
fn temp_row(p: &tgsi::exec::Program, t: u32, c: u32) -> u32 {
    p.layout.temp.0 + t * 4 + c
}
fn out_row(p: &tgsi::exec::Program, o: u32, c: u32) -> u32 {
    p.layout.out.0 + o * 4 + c
}

#[test]
fn rows_written_before_any_read_are_found_with_their_first_writer() {
    let p = program(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..1]
        MOV TEMP[0].x, IN[0].xxxx
        ADD OUT[0].x, TEMP[0].xxxx, TEMP[1].yyyy
        MOV TEMP[1].y, IN[0].yyyy
        ADD TEMP[0].z, TEMP[0].zzzz, IN[0].xxxx
        END",
    );
    // TEMP[0].x first written by instruction 0, OUT[0].x by 1. TEMP[1].y is read (by 1) before
    // instruction 2 writes it; TEMP[0].z is read by the instruction that writes it.
    let mut found = p.prewritten.clone();
    found.sort();
    let mut want = vec![(temp_row(&p, 0, 0), 0), (out_row(&p, 0, 0), 1)];
    want.sort();
    assert_eq!(found, want);
    assert!(!p.touches_masks, "END alone does not change the masks");
}

#[test]
fn the_scan_stops_at_control_flow_and_at_indirect_operands() {
    let p = program(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..1]
        MOV TEMP[0].x, IN[0].xxxx
        IF IN[0].xxxx
          MOV TEMP[1].x, IN[0].xxxx
        ENDIF
        MOV OUT[0], TEMP[1]
        END",
    );
    // Only the write before the IF counts: inside the IF only some lanes may write.
    assert_eq!(p.prewritten, vec![(temp_row(&p, 0, 0), 0)]);
    assert!(p.touches_masks);
    let q = program(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0..1]
        DCL ADDR[0]
        MOV TEMP[0].x, IN[0].xxxx
        MOV TEMP[1].x, TEMP[ADDR[0].x].xxxx
        MOV OUT[0], TEMP[1]
        END",
    );
    assert_eq!(q.prewritten, vec![(temp_row(&q, 0, 0), 0)]);
}

/// Program A writes all of TEMP[0]; program B, on the same machine, writes only TEMP[0].x and
/// then reads all of it: y, z and w must be 0 again, not A's 6, 7, 8.
#[test]
fn channels_a_previous_run_wrote_read_zero_in_the_next() {
    let a = program(
        "FRAG
        DCL OUT[0]
        DCL TEMP[0]
        IMM[0] FLT32 {5.0, 6.0, 7.0, 8.0}
        MOV TEMP[0], IMM[0]
        MOV OUT[0], TEMP[0]
        END",
    );
    let b = program(
        "FRAG
        DCL OUT[0]
        DCL TEMP[0]
        IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}
        MOV TEMP[0].x, IMM[0].xxxx
        MOV OUT[0], TEMP[0]
        END",
    );
    let (a_out, b_out) = ([5.0, 6.0, 7.0, 8.0], [1.0, 0.0, 0.0, 0.0]);
    run_in_turn(&[(&a, 3, a_out), (&b, 3, b_out), (&a, 3, a_out), (&b, 3, b_out)]);
}

/// Runs each program on its number of quads, in turn on one machine: OUT[0] of every lane
/// must read the values given with it.
fn run_in_turn(runs: &[(&tgsi::exec::Program, usize, [f32; 4])]) {
    let mut m = Machine::new();
    let consts = Constants::default();
    for &(p, quads, want) in runs {
        let mut batch = Batch::new(p, quads);
        m.run(p, &mut batch, &consts).unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
        for q in 0..quads {
            for lane in 0..4 {
                assert_eq!(batch.output_f32(0, q, lane), want, "quad {} lane {}", q, lane);
            }
        }
    }
}

/// A run stopped by the budget before the instruction that writes OUT[1] first: OUT[1] reads 0
/// (it was not written in this run), not the 2.0 the previous full run left in the storage.
#[test]
fn a_run_stopped_early_leaves_unwritten_rows_zero() {
    let p = program(
        "FRAG
        DCL OUT[0..1]
        IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}
        MOV OUT[0], IMM[0].xxxx
        MOV OUT[1], IMM[0].yyyy
        END",
    );
    let consts = Constants::default();
    let mut m = Machine::new();
    let mut batch = Batch::new(&p, 2);
    m.run(&p, &mut batch, &consts).unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
    assert_eq!(batch.output_f32(1, 0, 0), [2.0; 4]);
    // The first MOV over both quads costs 1 x 2 = 2; the second would make it 4.
    m.budget = 2;
    let mut batch = Batch::new(&p, 2);
    let err = m.run(&p, &mut batch, &consts).err().map(|e| e.diagnostic.code);
    assert_eq!(err, Some("X005"));
    assert_eq!(batch.output_f32(0, 0, 0), [1.0; 4]);
    assert_eq!(batch.output_f32(1, 0, 0), [0.0; 4]);
    assert_eq!(batch.output_f32(1, 1, 3), [0.0; 4]);
}

/// A program with control flow stopped by the budget inside its IF leaves the masks changed
/// (only lanes 0 and 3, where IN[0].x ≠ 0, active). The straight-line program run next on the
/// same machine must find every lane active again: VOTE_ALL of IN[0].x = (1, 0, 0, 1) over all
/// four lanes is false (0 in every lane); over the stale lanes 0 and 3 only it would be true.
#[test]
fn masks_left_changed_by_one_program_are_refilled_for_the_next() {
    let branchy = program(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        IMM[0] FLT32 {3.0, 0.0, 0.0, 0.0}
        IF IN[0].xxxx
          MOV OUT[0].x, IMM[0].xxxx
          MOV OUT[0].y, IMM[0].xxxx
        ENDIF
        END",
    );
    let straight = program(
        "FRAG
        DCL IN[0]
        DCL OUT[0]
        VOTE_ALL OUT[0].x, IN[0].xxxx
        END",
    );
    let consts = Constants::default();
    // IF and the first MOV fit in the budget; the run stops at the second MOV, inside the IF.
    let mut m = Machine::with_budget(2);
    for _ in 0..2 {
        let mut batch = Batch::new(&straight, 1);
        batch.set_input_f32(0, 0, [[1.0, 0.0, 0.0, 0.0], [0.0; 4], [0.0; 4], [1.0, 0.0, 0.0, 0.0]]);
        m.run(&straight, &mut batch, &consts)
            .unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
        assert_eq!(batch.output(0, 0, 0).0, [0; 4]);
        let mut batch = Batch::new(&branchy, 1);
        batch.set_input_f32(0, 0, [[1.0, 0.0, 0.0, 0.0], [0.0; 4], [0.0; 4], [1.0, 0.0, 0.0, 0.0]]);
        let err = m.run(&branchy, &mut batch, &consts).err().map(|e| e.diagnostic.code);
        assert_eq!(err, Some("X005"));
        assert_eq!([0, 1, 2, 3].map(|l| batch.output_f32(0, 0, l)[0]), [3.0, 0.0, 0.0, 3.0]);
    }
}

/// The IMM rows are broadcast once and kept while the same program runs again on batches of
/// the same size (`Machine::imm_filled`). Program B's OUT[0] lies in the storage rows of A's
/// IMM[0] (both have 16 rows: A's TEMP[0], OUT[0], IMM[0..1]; B's TEMP[0..1], OUT[0], IMM[0]),
/// so after B has run, A must find its immediates broadcast again, not B's 25, 36, 49, 64.
#[test]
fn immediates_are_filled_again_after_another_program_wrote_their_rows() {
    let a = program(
        "FRAG
        DCL OUT[0]
        DCL TEMP[0]
        IMM[0] FLT32 {5.0, 6.0, 7.0, 8.0}
        IMM[1] FLT32 {1.0, 1.0, 1.0, 1.0}
        MUL TEMP[0], IMM[0], IMM[1]
        MOV OUT[0], TEMP[0]
        END",
    );
    let b = program(
        "FRAG
        DCL OUT[0]
        DCL TEMP[0..1]
        IMM[0] FLT32 {5.0, 6.0, 7.0, 8.0}
        MUL TEMP[1], IMM[0], IMM[0]
        MOV OUT[0], TEMP[1]
        END",
    );
    assert_eq!((a.layout.rows, b.layout.rows), (16, 16));
    // B's OUT[0] is A's IMM[0].
    assert_eq!(b.layout.out.0, a.layout.imm.0);
    let (five, squares) = ([5.0, 6.0, 7.0, 8.0], [25.0, 36.0, 49.0, 64.0]);
    run_in_turn(&[
        (&a, 3, five),
        (&a, 3, five),
        (&b, 3, squares),
        (&a, 3, five),
        (&a, 5, five),
        (&b, 5, squares),
        (&b, 5, squares),
        (&a, 5, five),
        (&a, 3, five),
    ]);
}
