//! The budget's unit, quad-instructions ("work", `exec::work`): each dispatched instruction is
//! charged its weight (1; a texture sample 128, the libm formulas 4) once per quad with an
//! active lane, measured at its start, except the closers (ELSE, ENDIF, ENDLOOP, CASE, DEFAULT,
//! ENDSWITCH), measured by the exec mask they leave.
//!
//! The property a per-quad engine (the JIT) relies on: a batch of N quads is charged exactly the
//! sum of what the same quads are charged run one at a time. Hand-worked totals and the exact
//! X005 boundary follow.
use crate::exec_support::*;
use tgsi::exec::{Batch, Constants, FrameBudget, Lanes, Machine, NoTextures, Program};

/// Per quad, per lane, IN[0] as raw bits: x and y small unsigned integers (loop counts and
/// selectors), z and w floats.
type Quad = [[u32; 4]; 4];

/// if / else, nested.
const IF_ELSE: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0]
    IMM UINT32 {0, 1, 2, 3}
    MOV TEMP[0].x, IMM[0].xxxx
    USLT TEMP[0].y, IN[0].xxxx, IMM[0].zzzz
    UIF TEMP[0].yyyy
      UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
      USEQ TEMP[0].z, IN[0].yyyy, IMM[0].yyyy
      UIF TEMP[0].zzzz
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
      ENDIF
    ELSE
      UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
      UIF IN[0].yyyy
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
      ELSE
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
      ENDIF
    ENDIF
    MOV OUT[0].x, TEMP[0].xxxx
    END";

/// Nested loops: fused IF/BRK/ENDIF, CONT, an inner loop with a fused break, and a BRK in an
/// IF with an ELSE (not fused).
const LOOPS: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0..2]
    IMM UINT32 {0, 1, 2, 5}
    MOV TEMP[0], IMM[0].xxxx
    BGNLOOP
      USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
      UIF TEMP[1].xxxx
        BRK
      ENDIF
      UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
      AND TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
      UIF TEMP[1].xxxx
        CONT
      ENDIF
      MOV TEMP[0].z, IMM[0].xxxx
      BGNLOOP
        USGE TEMP[1].y, TEMP[0].zzzz, IN[0].yyyy
        UIF TEMP[1].yyyy
          BRK
        ENDIF
        UADD TEMP[0].z, TEMP[0].zzzz, IMM[0].yyyy
        UADD TEMP[0].w, TEMP[0].wwww, IMM[0].yyyy
      ENDLOOP
      USGE TEMP[2].x, TEMP[0].wwww, IMM[0].wwww
      UIF TEMP[2].xxxx
        BRK
      ELSE
        UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
      ENDIF
    ENDLOOP
    MOV OUT[0].x, TEMP[0].wwww
    MOV OUT[0].y, TEMP[0].yyyy
    END";

/// A float loop whose break condition is negated (the fused break's general path), with
/// KILL_IF and a KILL inside an IF.
const FLOAT_KILL: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0..1]
    IMM FLT32 {1.0, 0.5, 0.0, 3.0}
    MOV TEMP[0].x, IN[0].zzzz
    BGNLOOP
      SGE TEMP[1].x, IMM[0].zzzz, TEMP[0].xxxx
      IF -TEMP[1].xxxx
        BRK
      ENDIF
      ADD TEMP[1].y, TEMP[0].xxxx, -IMM[0].wwww
      KILL_IF TEMP[1].yyyy
      ADD TEMP[0].x, TEMP[0].xxxx, -IMM[0].xxxx
    ENDLOOP
    IF IN[0].wwww
      KILL
    ENDIF
    MOV OUT[0].x, TEMP[0].xxxx
    END";

/// SWITCH with DEFAULT first (falling through), CASEs with and without BRK, inside a loop.
const SWITCH: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0..1]
    IMM UINT32 {0, 1, 2, 3}
    MOV TEMP[0], IMM[0].xxxx
    BGNLOOP
      USGE TEMP[1].x, TEMP[0].yyyy, IN[0].yyyy
      UIF TEMP[1].xxxx
        BRK
      ENDIF
      UADD TEMP[1].y, IN[0].xxxx, TEMP[0].yyyy
      SWITCH TEMP[1].yyyy
      DEFAULT
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
      CASE IMM[0].yyyy
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
        BRK
      CASE IMM[0].zzzz
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
      CASE IMM[0].wwww
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
        BRK
      ENDSWITCH
      UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
    ENDLOOP
    MOV OUT[0].x, TEMP[0].xxxx
    END";

/// Subroutines with a per-lane early RET (from `flow.rs`), called inside an IF.
const CALLS: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0]
    IMM UINT32 {0, 1, 10, 7}
    MOV OUT[0], IMM[0].xxxx
    UIF IN[0].yyyy
      CAL :5
    ENDIF
    END
    BGNSUB
      UADD OUT[0].x, OUT[0].xxxx, IMM[0].yyyy
      USLT TEMP[0].x, IMM[0].yyyy, IN[0].xxxx
      UIF TEMP[0].xxxx
        RET
      ENDIF
      CAL :15
      UADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz
      RET
    ENDSUB
    BGNSUB
      MOV OUT[0].y, IMM[0].wwww
    ENDSUB";

const PROGRAMS: [(&str, &str); 5] = [
    ("if/else", IF_ELSE),
    ("loops", LOOPS),
    ("float loop with kills", FLOAT_KILL),
    ("switch", SWITCH),
    ("calls", CALLS),
];

/// A small linear congruential generator (Knuth's MMIX constants): reproducible inputs.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    /// Mostly 0 or 1, sometimes up to 11: most quads finish early, a few run long (so that
    /// the batch has long stretches of finished quads between live ones).
    fn count(&mut self) -> u32 {
        if self.next().is_multiple_of(6) {
            self.next() % 12
        } else {
            self.next() % 2
        }
    }
    fn quad(&mut self) -> Quad {
        std::array::from_fn(|_| {
            let z = (self.next() % 9) as f32 - 2.0;
            let w = if self.next().is_multiple_of(5) { 1.0 } else { 0.0 };
            [self.count(), self.count(), z.to_bits(), f32::to_bits(w)]
        })
    }
}

fn batch_of(p: &Program, quads: &[Quad]) -> Batch {
    let mut b = Batch::new(p, quads.len());
    for (q, lanes) in quads.iter().enumerate() {
        for c in 0..4 {
            b.set_input(0, c, q, Lanes([0, 1, 2, 3].map(|l| lanes[l][c])));
        }
    }
    b
}

/// The work of one run of `quads` as one batch, fused (the plain run) and unfused (traced),
/// and OUT[0].x of each quad.
fn work_of(p: &Program, quads: &[Quad]) -> (u64, u64, Vec<Lanes>) {
    let mut b = batch_of(p, quads);
    let plain = Machine::new().run(p, &mut b, &Constants::default()).expect("runs").work;
    let out = (0..quads.len()).map(|q| b.output(0, 0, q)).collect();
    let mut b = batch_of(p, quads);
    let (_, traced) =
        Machine::new().run_traced(p, &mut b, &Constants::default(), &mut NoTextures, 0);
    (plain, traced.expect("runs").work, out)
}

#[test]
fn a_batch_is_charged_the_sum_of_its_quads_run_alone() {
    let mut rng = Lcg(0x5eed);
    for (name, text) in PROGRAMS {
        let p = program(text);
        // Batch sizes around the run grouping (4 quads a group, gaps of 16 groups bridged) and
        // the renderer's largest batch.
        for n in [1usize, 2, 5, 37, 130, 512] {
            let quads: Vec<Quad> = (0..n).map(|_| rng.quad()).collect();
            let (batch, batch_traced, batch_out) = work_of(&p, &quads);
            let mut alone = 0;
            for (q, quad) in quads.iter().enumerate() {
                let (w, w_traced, out) = work_of(&p, std::slice::from_ref(quad));
                assert_eq!(w, w_traced, "{name}: quad {q} alone, fused vs unfused");
                assert_eq!(out[0], batch_out[q], "{name}: quad {q}'s result");
                alone += w;
            }
            assert_eq!(batch, alone, "{name}: {n} quads as one batch vs one at a time");
            assert_eq!(batch_traced, alone, "{name}: {n} quads traced (unfused)");
        }
    }
}

#[test]
fn batches_of_any_split_are_charged_the_same() {
    // The renderer's bands and workers cut a frame's quads anywhere: any split costs the same.
    let mut rng = Lcg(42);
    for (name, text) in PROGRAMS {
        let p = program(text);
        let quads: Vec<Quad> = (0..200).map(|_| rng.quad()).collect();
        let whole = work_of(&p, &quads).0;
        for cut in [1usize, 3, 64, 150, 199] {
            let (a, b) = quads.split_at(cut);
            assert_eq!(work_of(&p, a).0 + work_of(&p, b).0, whole, "{name}: cut at {cut}");
        }
    }
}

fn run_work(text: &str, quads: &[Quad]) -> (u64, u64) {
    let p = program(text);
    let mut b = batch_of(&p, quads);
    let s = Machine::new().run(&p, &mut b, &Constants::default()).expect("runs");
    let mut b = batch_of(&p, quads);
    let (_, t) = Machine::new().run_traced(&p, &mut b, &Constants::default(), &mut NoTextures, 0);
    assert_eq!(t.expect("runs").work, s.work, "traced (unfused) run");
    (s.instructions, s.work)
}

/// Every lane of a quad with IN[0].x = `x`.
fn quad_x(x: u32) -> Quad {
    [[x, 0, 0, 0]; 4]
}

#[test]
fn straight_line_costs_instructions_times_quads() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        MOV OUT[0], IN[0]
        ADD OUT[0], OUT[0], IN[0]
        MUL OUT[0], OUT[0], IN[0]
        END";
    let quads = [quad_x(0), quad_x(1), quad_x(2), quad_x(3), quad_x(4)];
    // 4 instructions (END included), each over all 5 quads: 4 x 5 = 20.
    assert_eq!(run_work(text, &quads), (4, 20));
    // One quad: 4 x 1.
    assert_eq!(run_work(text, &quads[..1]), (4, 4));
}

#[test]
fn samples_and_libm_formulas_cost_their_weight() {
    // docs/limits.md: an instruction is charged 1 per quad with an active lane, a texture
    // instruction that reads texels 128, SIN, COS and SCS 8, EX2, LG2, POW, EXP, LOG and LIT 4;
    // queries (TXQ) 1.
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL SAMP[0]
        DCL SVIEW[0], 2D, FLOAT
        DCL TEMP[0..1]
        TEX TEMP[0], IN[0], SAMP[0], 2D
        TXQ TEMP[1], IN[0].xxxx, SAMP[0], 2D
        POW TEMP[0].x, IN[0].zzzz, IN[0].wwww
        EX2 TEMP[0].y, IN[0].zzzz
        LG2 TEMP[0].z, IN[0].wwww
        SIN TEMP[0].w, IN[0].xxxx
        COS TEMP[1].x, IN[0].yyyy
        ADD OUT[0], TEMP[0], TEMP[1]
        END";
    let quads = [quad_x(0), quad_x(1), quad_x(2)];
    // Per quad: TEX 128 + TXQ 1 + POW 4 + EX2 4 + LG2 4 + SIN 8 + COS 8 + ADD 1 + END 1 = 159;
    // 9 dispatched.
    assert_eq!(run_work(text, &quads[..1]), (9, 159));
    assert_eq!(run_work(text, &quads), (9, 3 * 159));
}

#[test]
fn an_endless_sampling_loop_stops_where_its_weight_says() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL SAMP[0]
        DCL SVIEW[0], 2D, FLOAT
        DCL TEMP[0..1]
        MOV TEMP[0], IN[0]
        BGNLOOP
          TEX TEMP[1], IN[0], SAMP[0], 2D
          ADD TEMP[0], TEMP[0], TEMP[1]
        ENDLOOP
        MOV OUT[0], TEMP[0]
        END";
    let p = program(text);
    // One quad: MOV 1 + BGNLOOP 1, then each pass TEX 128 + ADD 1 + ENDLOOP 1 = 130. Three
    // passes end at 2 + 390 = 392: the fourth TEX brings it to 520, its ADD to 521.
    let stop = |budget: u64| {
        let mut b = batch_of(&p, &[quad_x(0)]);
        let e = Machine::with_budget(budget).run(&p, &mut b, &Constants::default());
        e.expect_err("never ends").diagnostic.message
    };
    assert!(stop(519).ends_with("at TEX: the shader may loop forever"), "{}", stop(519));
    assert!(stop(520).ends_with("at ADD: the shader may loop forever"), "{}", stop(520));
}

const IF_TWO_ADDS: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    IMM FLT32 {1.0, 0.0, 0.0, 0.0}
    MOV OUT[0], IMM[0].xxxx
    IF IN[0].xxxx
      ADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx
      ADD OUT[0].y, OUT[0].yyyy, IMM[0].xxxx
    ENDIF
    END";

#[test]
fn an_if_taken_by_one_quad_of_two() {
    // Quad 0: lane 0 takes the IF (x = 1.0); quad 1: no lane does.
    let one = f32::to_bits(1.0);
    let quads = [[[one, 0, 0, 0], [0; 4], [0; 4], [0; 4]], quad_x(0)];
    // MOV 2 + IF 2 (both active at its start) + ADD 1 + ADD 1 (quad 0 only)
    // + ENDIF 2 (both active after the pop) + END 2 = 10; dispatched: 6.
    assert_eq!(run_work(IF_TWO_ADDS, &quads), (6, 10));
    // Alone: quad 0 pays 1 + 1 + 1 + 1 + 1 + 1 = 6; quad 1's IF jumps to its ENDIF:
    // MOV 1 + IF 1 + ENDIF 1 + END 1 = 4 (4 dispatched). 6 + 4 = 10.
    assert_eq!(run_work(IF_TWO_ADDS, &quads[..1]), (6, 6));
    assert_eq!(run_work(IF_TWO_ADDS, &quads[1..]), (4, 4));
}

#[test]
fn else_is_charged_by_the_lanes_it_leaves() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        IMM FLT32 {1.0, 0.0, 0.0, 0.0}
        MOV OUT[0], IMM[0].xxxx
        IF IN[0].xxxx
          ADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx
        ELSE
          ADD OUT[0].y, OUT[0].yyyy, IMM[0].xxxx
          ADD OUT[0].z, OUT[0].zzzz, IMM[0].xxxx
        ENDIF
        END";
    let one = f32::to_bits(1.0);
    // Quad 0: every lane takes the IF; quad 1: none.
    let quads = [[[one, 0, 0, 0]; 4], quad_x(0)];
    // MOV 2 + IF 2 + ADD 1 (quad 0) + ELSE 1 (it leaves only quad 1's lanes active)
    // + 2 x ADD 1 (quad 1) + ENDIF 2 + END 2 = 12, over 8 dispatches.
    assert_eq!(run_work(text, &quads), (8, 12));
    // Quad 0 has a lane of each side: every instruction is charged 1: 8.
    let mixed = [[[one, 0, 0, 0], [0; 4], [0; 4], [0; 4]]];
    assert_eq!(run_work(text, &mixed), (8, 8));
}

const COUNT_UP: &str = "FRAG
    DCL IN[0]
    DCL OUT[0]
    DCL TEMP[0..1]
    IMM UINT32 {0, 1, 0, 0}
    MOV TEMP[0].x, IMM[0].xxxx
    BGNLOOP
      UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
      USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
      UIF TEMP[1].xxxx
        BRK
      ENDIF
    ENDLOOP
    MOV OUT[0].x, TEMP[0].xxxx
    END";

#[test]
fn a_loop_where_quads_run_one_and_three_iterations() {
    // A quad alone running k iterations: MOV 1 + BGNLOOP 1; k - 1 iterations of UADD, USGE,
    // UIF, ENDIF, ENDLOOP (5); the last: UADD, USGE, UIF, BRK 1 each, ENDIF 0 (no lane left),
    // ENDLOOP 1 (charged after the loop's pop: the quad is active again); MOV 1 + END 1.
    // 4 + 5k: k = 1 → 9, k = 3 → 19.
    let quads = [quad_x(1), quad_x(3)];
    assert_eq!(run_work(COUNT_UP, &quads[..1]).1, 4 + 5);
    assert_eq!(run_work(COUNT_UP, &quads[1..]).1, 4 + 5 * 3);
    // Together: MOV 2, BGNLOOP 2; iteration 1: UADD 2, USGE 2, UIF 2, BRK 1, ENDIF 1, ENDLOOP 1;
    // iteration 2: 5 x 1 (no BRK); iteration 3: UADD 1, USGE 1, UIF 1, BRK 1, ENDIF 0,
    // ENDLOOP 2 (both quads active after the pop); MOV 2, END 2.
    // 4 + 9 + 5 + 6 + 4 = 28 = 9 + 19, over 2 + 6 + 5 + 6 + 2 = 21 dispatches.
    assert_eq!(run_work(COUNT_UP, &quads), (21, 28));
}

#[test]
fn a_switch_charges_its_closers_after_them() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        IMM UINT32 {0, 1, 2, 0}
        SWITCH IN[0].xxxx
        CASE IMM[0].yyyy
          MOV OUT[0].x, IMM[0].yyyy
          BRK
        DEFAULT
          MOV OUT[0].x, IMM[0].zzzz
        ENDSWITCH
        END";
    // Quad 0 selects CASE 1, quad 1 the DEFAULT.
    let quads = [quad_x(1), quad_x(5)];
    // SWITCH 2 (both active at its start; after it no lane is active until a CASE)
    // + CASE 1 (quad 0 active after it) + MOV 1 + BRK 1 + DEFAULT 1 (quad 1 after it)
    // + MOV 1 + ENDSWITCH 2 (both after the pop) + END 2 = 11, over 8 dispatches.
    assert_eq!(run_work(text, &quads), (8, 11));
    // Alone: quad 0: SWITCH, CASE, MOV, BRK 1 each, DEFAULT 0, MOV 0, ENDSWITCH 1, END 1 = 6;
    // quad 1: SWITCH 1, CASE 0, MOV 0, BRK 0, DEFAULT 1, MOV 1, ENDSWITCH 1, END 1 = 5.
    assert_eq!(run_work(text, &quads[..1]).1, 6);
    assert_eq!(run_work(text, &quads[1..]).1, 5);
}

#[test]
fn x005_comes_exactly_past_the_total() {
    let mut rng = Lcg(7);
    for (name, text) in PROGRAMS {
        let p = program(text);
        let quads: Vec<Quad> = (0..37).map(|_| rng.quad()).collect();
        let total = work_of(&p, &quads).0;
        assert!(total > 0);
        // A run's own budget.
        let mut b = batch_of(&p, &quads);
        let s = Machine::with_budget(total).run(&p, &mut b, &Constants::default());
        assert_eq!(s.map(|s| s.work).ok(), Some(total), "{name}: budget = total passes");
        let mut b = batch_of(&p, &quads);
        let e = Machine::with_budget(total - 1).run(&p, &mut b, &Constants::default());
        let e = e.expect_err("budget = total - 1 stops");
        assert_eq!(e.diagnostic.code, "X005", "{name}");
        assert!(e.diagnostic.message.contains("instructions of work"), "{}", e.diagnostic.message);
        // A frame's budget: charged the work, to the last unit.
        let frame = FrameBudget::new(total);
        let mut b = batch_of(&p, &quads);
        assert!(Machine::in_frame(u64::MAX, &frame).run(&p, &mut b, &Constants::default()).is_ok());
        assert_eq!(frame.left(), 0, "{name}");
        let frame = FrameBudget::new(total - 1);
        let mut b = batch_of(&p, &quads);
        let e = Machine::in_frame(u64::MAX, &frame).run(&p, &mut b, &Constants::default());
        assert_eq!(e.map_err(|e| e.diagnostic.code).err(), Some("X005"), "{name}");
    }
}

#[test]
fn fused_and_unfused_breaks_stop_at_the_same_instruction_for_every_budget() {
    // Near the budget the fused IF/BRK/ENDIF runs unfused; it must stop where the three
    // instructions (the traced run never fuses) stop, whatever the budget.
    let p = program(COUNT_UP);
    let quads = [quad_x(1), quad_x(3), quad_x(0), quad_x(2)];
    for budget in 0..=55 {
        let mut b = batch_of(&p, &quads);
        let plain = Machine::with_budget(budget).run(&p, &mut b, &Constants::default());
        let mut b = batch_of(&p, &quads);
        let (_, traced) = Machine::with_budget(budget).run_traced(
            &p,
            &mut b,
            &Constants::default(),
            &mut NoTextures,
            0,
        );
        let at = |r: Result<tgsi::exec::RunStats, tgsi::exec::ExecError>| {
            r.map(|s| s.work).map_err(|e| e.instruction)
        };
        assert_eq!(at(plain), at(traced), "budget {budget}");
    }
}
