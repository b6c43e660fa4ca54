//! The resource limits of every entry point, in one table (`docs/limits.md` shows it). Each
//! is checked before the memory or time it bounds is spent: input bytes before parsing, the
//! framebuffer's bytes and the textures' bytes before allocating, the instruction budget of a
//! whole frame while running.

use crate::diag::Diagnostic;
use crate::ir::Span;

/// One limit: its name, value, the diagnostic code that reports it, and why it is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limit {
    pub name: &'static str,
    pub value: u64,
    pub code: &'static str,
    pub why: &'static str,
}

/// Bytes of TGSI (or AGAL assembly) text one call reads.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;
/// Diagnostics kept for one input; the rest are counted in a last "and N more" note.
pub const MAX_DIAGNOSTICS: usize = 1000;
/// Default work per quad of a frame or dispatch, in quad-instructions (each instruction counted
/// once per quad it runs on, `exec::work`): on average each quad may run 2^15 instructions, so
/// a 512x512 frame (65536 quads) gets 2^31. The budget is the whole frame's (every batch, draw
/// and stage of one render, every block of one dispatch); a quad may use more than its share.
pub const DEFAULT_WORK_PER_QUAD: u64 = 1 << 15;
/// The least default budget of a frame or dispatch: a frame of a few quads still runs loops of
/// 2^20 instructions, and an endless loop in one quad stops in well under a second (the
/// interpreter is slowest per quad-instruction on tiny batches).
pub const MIN_FRAME_BUDGET: u64 = 1 << 20;
/// The largest budget a caller may ask for (quad-instructions).
pub const MAX_BUDGET: u64 = 1 << 41;
/// Bytes of all render targets and the depth buffer of one render.
pub const MAX_FRAMEBUFFER_BYTES: u64 = 2 << 30;
/// Bytes of all textures of one render or dispatch, counted from their descriptions.
pub const MAX_TEXTURE_BYTES: u64 = 512 << 20;
/// Vertices of one vertices file (`tgsi render --vertices`).
pub const MAX_VERTICES: usize = 1 << 16;
/// Vertex attributes: locations 0..32, the vertex shader's `IN` registers (the validator's V503
/// allows 32 vertex inputs).
pub const MAX_VERTEX_ATTRIBUTES: usize = 32;
/// Draws of one vertices file.
pub const MAX_DRAWS: usize = 256;
/// Vertices all the draws of one vertices file read together (the sum of their counts).
pub const MAX_DRAWN_VERTICES: u64 = 1 << 20;
/// Nesting of arrays and objects in a vertices file.
pub const MAX_JSON_DEPTH: usize = 64;
/// Buffers, counter buffers or images of each kind one wasm `compute` call binds (each at most
/// `exec::memory::MAX_MEMORY_BYTES`).
pub const MAX_BOUND_RESOURCES: usize = 32;
/// Bytes of the copies of a dispatch's resources that its threads run on (`tgsi run
/// --threads`, `exec::parallel`): one copy per thread of every buffer, image, counter buffer
/// and the global memory, with their logs of written bytes and a block's shared and private
/// memory. Past it the dispatch runs on fewer threads, down to one, which makes no copy.
pub const MAX_DISPATCH_COPY_BYTES: u64 = 512 << 20;
/// Linear memory of one compiled shader module in the browser (`wasm/jit.rs`); a program whose
/// module would need more is drawn by the interpreter.
pub const MAX_JIT_MODULE_MEMORY: u64 = 32 << 20;
/// Linear memory of all the compiled shader instances one render worker keeps registered (the
/// oldest are dropped first).
pub const MAX_JIT_WORKER_MEMORY: u64 = 64 << 20;

/// Calls the compiling tier inlines one inside another (deeper: the interpreter runs the
/// shader, with the reason).
pub const MAX_JIT_CALL_DEPTH: usize = 8;
/// Subroutine instructions the compiling tier inlines in all, over every call site.
pub const MAX_JIT_INLINED: usize = 4096;
/// Registers of a file an indirect operand compiled by the JIT may select among.
pub const MAX_JIT_INDIRECT_REGISTERS: u32 = 256;
/// Register channels all the indirect operands of one compiled module select among (one
/// `v128.bitselect` each, counted over every inlined copy).
pub const MAX_JIT_INDIRECT_SELECTS: u64 = 16384;

/// Constant buffers (`CONST[0..64]`) and registers of one buffer the engine holds
/// (`exec::Constants`); a read outside them gives 0. A compiled shader that reads a buffer
/// through an index keeps a copy of the whole buffer in its module's memory (docs/jit.md,
/// "Constant buffers"), so a module's area for a buffer is sized by this bound, whatever the
/// declaration says.
pub const MAX_CONST_BUFFERS: usize = 64;
pub const MAX_CONST_REGISTERS: usize = 4096;

/// The table.
pub const LIMITS: &[Limit] = &[
    Limit {
        name: "input bytes (TGSI or AGAL text; a vertices file; a texture description)",
        value: MAX_INPUT_BYTES,
        code: "P013",
        why: "shaders are a few kilobytes; a parsed shader takes about 13 times its text (the parser benchmark reads 10 MB)",
    },
    Limit {
        name: "diagnostics per input",
        value: MAX_DIAGNOSTICS as u64,
        code: "(note)",
        why: "past a thousand, more of them help nobody; the last note counts the rest",
    },
    Limit {
        name: "quad-instructions per quad of a frame (default)",
        value: DEFAULT_WORK_PER_QUAD,
        code: "X005",
        why: "the default budget grows with the frame so that it bounds time at every size; the heaviest corpus shader (a Mandelbrot loop) at 2048x2048 does about 2.4 × 10^8 (2^28)",
    },
    Limit {
        name: "quad-instructions per frame (least default)",
        value: MIN_FRAME_BUDGET,
        code: "X005",
        why: "an endless loop in a one-quad run stops in well under a second",
    },
    Limit {
        name: "quad-instructions per frame (most a caller may ask for)",
        value: MAX_BUDGET,
        code: "usage",
        why: "bounds the time of one frame (about a minute on one core at worst)",
    },
    Limit {
        name: "framebuffer bytes",
        value: MAX_FRAMEBUFFER_BYTES,
        code: "R001",
        why: "width × height × (targets × bytes per texel + depth), checked before allocating",
    },
    Limit {
        name: "texture bytes (all textures of one description)",
        value: MAX_TEXTURE_BYTES,
        code: "(texture description error)",
        why: "counted from the descriptions before any texel is allocated",
    },
    Limit {
        name: "vertices of a vertices file",
        value: MAX_VERTICES as u64,
        code: "R007",
        why: "counted while reading, before each vertex is stored; the vertex stage's inputs and outputs stay under about 120 MB",
    },
    Limit {
        name: "vertex attributes (locations) of a vertices file",
        value: MAX_VERTEX_ATTRIBUTES as u64,
        code: "R007",
        why: "a vertex shader has at most 32 inputs (V503)",
    },
    Limit {
        name: "draws of a vertices file",
        value: MAX_DRAWS as u64,
        code: "R007",
        why: "more than the oracle's 64; each draw is one pass over its vertices",
    },
    Limit {
        name: "vertices read by all draws of a vertices file",
        value: MAX_DRAWN_VERTICES,
        code: "R007",
        why: "bounds the triangles of one render (about a million) before any is assembled",
    },
    Limit {
        name: "nesting depth of a vertices file",
        value: MAX_JSON_DEPTH as u64,
        code: "R007",
        why: "the format needs four levels; the reader is recursive",
    },
    Limit {
        name: "resources of each kind in one wasm compute call",
        value: MAX_BOUND_RESOURCES as u64,
        code: "R009",
        why: "every register index a shader names on the page fits; each resource stays under 64 MiB as with tgsi run",
    },
    Limit {
        name: "bytes of the per-thread copies of a dispatch's resources (tgsi run --threads)",
        value: MAX_DISPATCH_COPY_BYTES,
        code: "(fewer threads, down to one)",
        why: "each thread runs its blocks on its own copy of the resources; checked before any copy is made, as the texture bytes are",
    },
    Limit {
        name: "memory of one compiled shader module (browser)",
        value: MAX_JIT_MODULE_MEMORY,
        code: "(the interpreter draws, with the reason)",
        why: "16 KiB per row crossing the boundary (IN/SV rows read, OUT rows written; 1024 quads of 16 bytes): about 2000 rows; shaders use tens",
    },
    Limit {
        name: "memory of the compiled shader instances of one render worker (browser)",
        value: MAX_JIT_WORKER_MEMORY,
        code: "(the oldest instances are dropped)",
        why: "keeps each worker's instances bounded whatever shaders it has drawn",
    },
    Limit {
        name: "calls the JIT inlines one inside another",
        value: MAX_JIT_CALL_DEPTH as u64,
        code: "(the interpreter runs the shader, with the reason)",
        why: "each call is inlined: bounds the module's size; recursion is never compiled",
    },
    Limit {
        name: "subroutine instructions the JIT inlines in all",
        value: MAX_JIT_INLINED as u64,
        code: "(the interpreter runs the shader, with the reason)",
        why: "each call site gets its own copy of the body: bounds the module's size",
    },
    Limit {
        name: "registers an indirect operand compiled by the JIT selects among",
        value: MAX_JIT_INDIRECT_REGISTERS as u64,
        code: "(the interpreter runs the shader, with the reason)",
        why: "registers are wasm locals: each indirect read or write is a select over the file's registers",
    },
    Limit {
        name: "register selects of all the indirect operands of one JIT module",
        value: MAX_JIT_INDIRECT_SELECTS,
        code: "(the interpreter runs the shader, with the reason)",
        why: "one v128.bitselect and a compare each: bounds the module's size and compile time",
    },
    Limit {
        name: "registers of one constant buffer (each of CONST[0..63])",
        value: MAX_CONST_REGISTERS as u64,
        code: "(reads past it give 0; the CLI refuses a --const past it)",
        why: "Gallium's 64 KiB constant buffers of 16-byte registers; a compiled shader that indexes a buffer keeps all of it in its module's memory (64 KiB)",
    },
];

/// The error when `text` is longer than [`MAX_INPUT_BYTES`].
pub fn check_input(text: &str) -> Result<(), Diagnostic> {
    let n = text.len() as u64;
    if n > MAX_INPUT_BYTES {
        return Err(Diagnostic::error(
            "P013",
            format!(
                "the input is {} bytes; the limit is {} bytes ({} MiB)",
                n,
                MAX_INPUT_BYTES,
                MAX_INPUT_BYTES >> 20
            ),
            Span::new(0, 0),
        ));
    }
    Ok(())
}

/// Keeps the first [`MAX_DIAGNOSTICS`] diagnostics and replaces the rest by one note that
/// counts them (at the position of the first one left out).
pub fn cap_diagnostics(diags: &mut Vec<Diagnostic>) {
    if diags.len() <= MAX_DIAGNOSTICS {
        return;
    }
    let more = diags.len() - MAX_DIAGNOSTICS;
    let at = diags.get(MAX_DIAGNOSTICS).map(|d| d.span).unwrap_or_default();
    diags.truncate(MAX_DIAGNOSTICS);
    diags.push(Diagnostic::note("D001", format!("… and {} more diagnostics", more), at));
}

/// The default budget of a frame or dispatch of `quads` quads: [`DEFAULT_WORK_PER_QUAD`] per
/// quad, at least [`MIN_FRAME_BUDGET`], at most [`MAX_BUDGET`]. Proportional so that the time
/// it bounds stays short for tiny runs, whose quad-instructions are the slowest.
pub fn default_frame_budget(quads: u64) -> u64 {
    quads.saturating_mul(DEFAULT_WORK_PER_QUAD).clamp(MIN_FRAME_BUDGET, MAX_BUDGET)
}

/// Quads of a `width` x `height` frame: each quad covers 2x2 pixels, partial ones at the edges.
pub fn frame_quads(width: u32, height: u32) -> u64 {
    u64::from(width.div_ceil(2)) * u64::from(height.div_ceil(2))
}

/// The `--budget` option of the CLI: `default` (the frame's [`default_frame_budget`]) when
/// absent, else the number, if it is one and within [`MAX_BUDGET`] (an absolute total).
pub fn parse_budget(value: Option<&str>, default: u64) -> Result<u64, String> {
    match value {
        None => Ok(default),
        Some(b) => {
            b.parse::<u64>().map_err(|_| format!("'{b}' is not a number")).and_then(check_budget)
        }
    }
}

/// A budget a caller asked for, if it is within [`MAX_BUDGET`].
pub fn check_budget(asked: u64) -> Result<u64, String> {
    if asked > MAX_BUDGET {
        Err(format!(
            "a budget of {} quad-instructions is more than the limit of {}",
            asked, MAX_BUDGET
        ))
    } else {
        Ok(asked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_has_a_reason_and_a_value() {
        for l in LIMITS {
            assert!(l.value > 0 && !l.why.is_empty() && !l.code.is_empty(), "{}", l.name);
        }
        assert!(check_budget(MAX_BUDGET).is_ok() && check_budget(MAX_BUDGET + 1).is_err());
    }

    /// The default budget at and around its clamps, by hand: 2^15 per quad, within
    /// [2^20, 2^41].
    #[test]
    fn default_frame_budget_clamps() {
        assert_eq!(default_frame_budget(0), 1 << 20);
        assert_eq!(default_frame_budget(1), 1 << 20); // 2^15 < 2^20
        assert_eq!(default_frame_budget(31), 1 << 20); // 31 * 2^15 < 2^20
        assert_eq!(default_frame_budget(32), 1 << 20); // 32 * 2^15 = 2^20 exactly
        assert_eq!(default_frame_budget(33), 33 << 15); // just over the minimum
        assert_eq!(default_frame_budget(65536), 1 << 31); // 512x512: 256 * 256 quads
        assert_eq!(default_frame_budget(1 << 26), 1 << 41); // 2^26 * 2^15 = 2^41 exactly
        assert_eq!(default_frame_budget((1 << 26) + 1), 1 << 41);
        assert_eq!(default_frame_budget(u64::MAX), 1 << 41); // no overflow
                                                             // Quads of a frame: partial quads at odd edges count whole.
        assert_eq!(frame_quads(2, 2), 1);
        assert_eq!(frame_quads(3, 1), 2);
        assert_eq!(frame_quads(512, 512), 65536);
        assert!(check_input("FRAG\n").is_ok());
    }

    #[test]
    fn capping_keeps_the_first_and_counts_the_rest() {
        let mut v: Vec<Diagnostic> = (0..MAX_DIAGNOSTICS + 5)
            .map(|i| Diagnostic::error("P001", format!("e{i}"), Span::new(i, i + 1)))
            .collect();
        cap_diagnostics(&mut v);
        assert_eq!(v.len(), MAX_DIAGNOSTICS + 1);
        assert_eq!(v[MAX_DIAGNOSTICS].message, "… and 5 more diagnostics");
        assert_eq!(v[MAX_DIAGNOSTICS - 1].message, format!("e{}", MAX_DIAGNOSTICS - 1));
    }
}
