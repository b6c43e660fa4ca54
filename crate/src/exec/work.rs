//! The unit of the instruction budget: quad-instructions ("work"), `docs/interpreter.md`
//! "Budget".
//!
//! Each dispatched instruction is charged its [`weight`] once for every quad of the batch that
//! has an active lane (a non-zero exec mask): measured when the instruction starts, except for
//! the closers ELSE, ENDIF, ENDLOOP, CASE, DEFAULT and ENDSWITCH, which are measured by the exec
//! mask they leave. Exec masks are lane-local (tgsi_exec.c `UPDATE_EXEC_MASK`: every mask operation
//! works lane by lane), so a batch is charged exactly the sum of what its quads would be charged
//! run one at a time: the count does not depend on how quads are grouped into batches, and an
//! engine that runs each quad with its own control flow can reproduce it. An instruction the
//! batch skips (a body no lane enters) is one where every quad has exec = 0, so it would be
//! charged nothing.
//!
//! The weight is 1 but for the instructions that cost far more than a lane-wise operation, so
//! that a budget bounds a frame's time and not only its instruction count: a texture sample
//! reads and filters texels for each lane ([`SAMPLE_WEIGHT`]), SIN, COS and the legacy SCS run
//! glibc's `sinf`/`cosf` lane by lane ([`TRIG_WEIGHT`]), and EX2, LG2, POW and the legacy EXP,
//! LOG and LIT glibc's `powf`/`logf` ([`LIBM_WEIGHT`]).
//!
//! The dispatch clock (`Machine::clock`: CLOCK, traces, "image at instruction N") still counts
//! one per dispatch; only the budget is charged work.

use super::lanes::Lanes;
use crate::opcode::{Family, Opcode};

/// What a texture instruction that reads texels is charged per active quad. A bilinear 2D
/// sample costs the interpreter about 140 ns a quad, a lane-wise ADD under 1 ns
/// (docs/perf-log.md, 2026-11-28): charged 1, an endless sampling loop at 512x512 would run
/// about 100 s before the default budget stopped it (2^31 / 3 passes of 140 ns); charged 128
/// it stops after 2.5 s (an endless loop of additions: 1.5 s). The default budget still leaves
/// 256 samples a pixel on average.
pub const SAMPLE_WEIGHT: u64 = 128;

/// What EX2, LG2, POW, EXP, LOG and LIT are charged per active quad: glibc's `powf`/`logf` on
/// each lane (`ops/exp_log.rs`), about 11 ns a quad in an endless loop against under 1 ns for
/// a lane-wise operation.
pub const LIBM_WEIGHT: u64 = 4;

/// What SIN, COS and SCS are charged per active quad: glibc's `sinf`/`cosf` on each lane
/// (`ops/trig.rs`), in the interpreter about 20 ns a quad for arguments past 120 (the
/// reduction with 2/π's bits), 5 below (docs/perf-log.md, 2026-11-28). Charged 1, an endless
/// loop of SIN of large arguments at 512x512 ran 14 s before the default budget stopped it;
/// charged 8, 4.3 s.
pub const TRIG_WEIGHT: u64 = 8;

/// The work one instruction of `op` is charged per quad with an active lane (module text).
/// The interpreter keeps it with each decoded instruction (`Inst::weight`) and the compiling
/// tier adds it to the straight path's charge: one function, so both count the same.
pub fn weight(op: Opcode) -> u64 {
    use Opcode as O;
    match op {
        // Texture queries read no texel.
        O::TXQ | O::TXQS | O::SVIEWINFO | O::SAMPLE_POS | O::SAMPLE_INFO | O::LODQ | O::LOD => 1,
        O::SIN | O::COS | O::SCS => TRIG_WEIGHT,
        O::EX2 | O::LG2 | O::POW | O::EXP | O::LOG | O::LIT => LIBM_WEIGHT,
        _ if op.info().family == Family::Texture => SAMPLE_WEIGHT,
        _ => 1,
    }
}

/// Whether `op` is charged by the exec mask it leaves (after it ran) rather than the one it
/// starts with.
#[inline]
pub fn charged_at_end(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::ELSE
            | Opcode::ENDIF
            | Opcode::ENDLOOP
            | Opcode::CASE
            | Opcode::DEFAULT
            | Opcode::ENDSWITCH
    )
}

/// Whether a quad's mask has an active lane.
#[inline(always)]
pub fn quad_active(m: &Lanes) -> bool {
    let [a, b, c, d] = m.0;
    a | b | c | d != 0
}

/// How many quads of `exec` have an active lane: what each instruction of the batch is charged.
pub fn active_quads(exec: &[Lanes]) -> u64 {
    exec.iter().map(|m| quad_active(m) as u64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flow instructions weigh 1: the fused conditional break (`fast.rs`) and the compiling
    /// tier's flow code (`jit/codegen/flow.rs`) charge each of them 1, not their weight.
    #[test]
    fn flow_instructions_weigh_one() {
        for op in Opcode::all().filter(|&op| op.info().family == Family::Flow) {
            assert_eq!(weight(op), 1, "{}", op.name());
        }
    }

    /// Every texture instruction that reads texels is weighted, and no other instruction
    /// weighs more than SIN.
    #[test]
    fn only_texel_reads_weigh_a_sample() {
        let queries = ["TXQ", "TXQS", "SVIEWINFO", "SAMPLE_POS", "SAMPLE_INFO", "LODQ", "LOD"];
        for op in Opcode::all() {
            let texel_read = op.info().family == Family::Texture && !queries.contains(&op.name());
            assert_eq!(weight(op) == SAMPLE_WEIGHT, texel_read, "{}", op.name());
            assert!(texel_read || weight(op) <= TRIG_WEIGHT, "{}", op.name());
        }
        assert_eq!(weight(Opcode::TEX), 128);
        assert_eq!(weight(Opcode::POW), 4);
        assert_eq!(weight(Opcode::SIN), 8);
    }
}
