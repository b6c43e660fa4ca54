//! The unit of the instruction budget: quad-instructions ("work"), `docs/interpreter.md`
//! "Budget".
//!
//! Each dispatched instruction is charged once for every quad of the batch that has an active
//! lane (a non-zero exec mask): measured when the instruction starts, except for the closers
//! ELSE, ENDIF, ENDLOOP, CASE, DEFAULT and ENDSWITCH, which are measured by the exec mask they
//! leave. Exec masks are lane-local (`mesa-tgsi-notes.md` §5.2: every mask operation works lane
//! by lane), so a batch is charged exactly the sum of what its quads would be charged run one
//! at a time: the count does not depend on how quads are grouped into batches, and an engine
//! that runs each quad with its own control flow can reproduce it. An instruction the batch
//! skips (a body no lane enters) is one where every quad has exec = 0, so it would be charged
//! nothing.
//!
//! The dispatch clock (`Machine::clock`: CLOCK, traces, "image at instruction N") still counts
//! one per dispatch; only the budget is charged work.

use super::lanes::Lanes;
use crate::opcode::Opcode;

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
