//! Two quads per pass (`jit/codegen/pairs.rs`, docs/jit.md "Two quads per pass"): quads of one
//! pair that leave a loop at different iterations, and a batch with an odd number of quads
//! (its last quad runs as both halves of a pair), give the values and the work worked out by
//! hand here, the same with one quad per pass. Work is charged as `exec/work.rs` says: each
//! instruction once per quad with an active lane when it starts; a conditional break's BRK when
//! a lane of the quad takes it, its ENDIF when it leaves a lane active; ENDLOOP each time round
//! and once at the exit.

use super::differential::{counting_machine, program, Tally};
use super::validate::validate;
use std::sync::atomic::Ordering;
use tgsi::exec::{Batch, Constants, Lanes};
use tgsi::jit::codegen::{compile, compile_with, Pairing};
use tgsi::jit::native::NativeProgram;

/// Counts up to IN[0].x in each lane.
const COUNT_UP: &str = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\n\
     IMM[0] UINT32 {0, 1, 0, 0}\n\
     BGNLOOP\n\
     USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx\n\
     UIF TEMP[1].xxxx\n\
     BRK\n\
     ENDIF\n\
     UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
     ENDLOOP\n\
     MOV OUT[0].x, TEMP[0].xxxx\n\
     END\n";

#[test]
fn quads_of_a_pair_leave_a_loop_at_different_passes_with_the_work_of_each() {
    let p = program(COUNT_UP);
    // Three quads: the pair (0, 1), then quad 2 alone (as both halves of the last pair).
    let limits = [[0u32; 4], [3; 4], [1, 2, 0, 2]];
    for pairing in [Pairing::Pairs, Pairing::Single] {
        let compiled = compile_with(&p, pairing).expect("compiles");
        validate(&compiled.bytes, "count-up");
        let native = NativeProgram::from_compiled(&compiled).expect("runs natively");
        let tally = Tally::default();
        let mut m = counting_machine(&native, 1 << 20, &tally).expect("instance");
        let mut b = Batch::new(&p, 3);
        for (q, l) in limits.iter().enumerate() {
            b.set_input(0, 0, q, Lanes(*l));
        }
        let stats = m.run(&p, &mut b, &Constants::default()).expect("runs");
        assert_eq!(tally.done.load(Ordering::Relaxed), 1, "{pairing:?}: the module ran it");
        assert_eq!(tally.handed_back.load(Ordering::Relaxed), 0, "{pairing:?}: no fallback");
        // Each lane counts to its limit.
        for (q, l) in limits.iter().enumerate() {
            assert_eq!(b.output(0, 0, q).0, *l, "{pairing:?}: quad {q}");
        }
        // Quad 0 (limits 0): BGNLOOP, then USGE UIF BRK (every lane breaks: no ENDIF), the
        //   ENDLOOP at the exit, MOV, END: 1 + 3 + 1 + 2 = 7.
        // Quad 1 (limits 3): BGNLOOP; three passes of USGE UIF ENDIF UADD ENDLOOP (5 each);
        //   the fourth USGE UIF BRK; ENDLOOP at the exit; MOV END: 1 + 15 + 3 + 1 + 2 = 22.
        // Quad 2 (limits 1, 2, 0, 2): BGNLOOP; pass 1 (lane 2 breaks, others go on) USGE UIF
        //   BRK ENDIF UADD ENDLOOP = 6; pass 2 (lane 0 breaks) 6; pass 3 (lanes 1 and 3, the
        //   last ones, break) USGE UIF BRK = 3; ENDLOOP at the exit; MOV END:
        //   1 + 6 + 6 + 3 + 1 + 2 = 19.
        assert_eq!(stats.work, 7 + 22 + 19, "{pairing:?}");
    }
}

#[test]
fn a_loop_without_host_calls_runs_in_pairs_and_others_one_quad_per_pass() {
    // `Pairing::Auto`: the pair's second quad doubles the `v128` locals and adds the pair's
    // own (B's row base, its presence, the active count), so the two forms differ in size.
    let form = |text: &str, pairing| compile_with(&program(text), pairing).expect("compiles");
    let auto = |text: &str| compile(&program(text)).expect("compiles").bytes;
    assert_eq!(auto(COUNT_UP), form(COUNT_UP, Pairing::Pairs).bytes);
    let straight = "FRAG\nDCL IN[0]\nDCL OUT[0]\nADD OUT[0], IN[0], IN[0]\nEND\n";
    assert_eq!(auto(straight), form(straight, Pairing::Single).bytes);
    let with_sin = COUNT_UP.replace("MOV OUT[0].x, TEMP[0].xxxx", "SIN OUT[0].x, TEMP[0].xxxx");
    assert_eq!(auto(&with_sin), form(&with_sin, Pairing::Single).bytes);
    assert_ne!(form(COUNT_UP, Pairing::Pairs).bytes, form(COUNT_UP, Pairing::Single).bytes);
    // A flushing program (draw chunks inside the view) with a loop runs in pairs too, as the
    // same text keeping denormals does.
    let with_add =
        COUNT_UP.replace("MOV OUT[0].x, TEMP[0].xxxx", "ADD OUT[0].x, IN[0].yyyy, IN[0].zzzz");
    let flushing = |pairing| {
        let shader = tgsi::text::parse(&with_add).shader.expect("parses");
        let analysed =
            tgsi::valid::analyse(&shader, &tgsi::valid::Options::default()).expect("valid");
        let p = tgsi::exec::compile_with(&analysed, tgsi::exec::program::Denormals::InDraw)
            .expect("decodes");
        assert!(p.code.iter().any(|i| i.ftz), "the ADD flushes its result");
        match pairing {
            None => compile(&p).expect("compiles").bytes,
            Some(pairing) => compile_with(&p, pairing).expect("compiles").bytes,
        }
    };
    assert_eq!(flushing(None), flushing(Some(Pairing::Pairs)));
    assert_ne!(flushing(None), flushing(Some(Pairing::Single)));
    assert_eq!(auto(&with_add), form(&with_add, Pairing::Pairs).bytes);
}
