//! The compiling tier: each program becomes one WebAssembly SIMD module (`codegen.rs`) that
//! runs a batch of quads bit for bit as the interpreter does. Natively the module runs in
//! wasmtime (`native.rs`, feature `jit`); in the browser the render worker compiles the same
//! bytes with `WebAssembly.compile`. Programs with anything not compiled run in the interpreter,
//! with the reason recorded. See `docs/jit.md`.
//!
//! ```text
//! exec::Program ──codegen::compile──▶ wasm bytes ──native / WebAssembly.compile──▶ Accelerator
//! ```

pub mod codegen;
#[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
pub mod native;

pub use codegen::{compile, Compiled, Layout, Unsupported};

/// Which engine runs shaders (`--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Interpreter,
    Jit,
}

impl Engine {
    pub fn parse(s: &str) -> Option<Engine> {
        match s {
            "interp" | "interpreter" => Some(Engine::Interpreter),
            "jit" => Some(Engine::Jit),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interp",
            Engine::Jit => "jit",
        }
    }
}

/// The storage rows a run must copy: in, every row the program does not write for every lane
/// before reading it (`Program::prewritten`); out, the OUT rows (all that `finish` reads; the
/// machine clears what a run may have changed before the next one).
#[derive(Clone, Debug, Default)]
pub struct Staging {
    pub rows_in: Vec<u32>,
    pub rows_out: Vec<u32>,
}

impl Staging {
    pub fn of(program: &crate::exec::Program) -> Staging {
        let l = program.layout;
        let pre: std::collections::HashSet<u32> = program.prewritten.iter().map(|p| p.0).collect();
        Staging {
            rows_in: (0..l.rows).filter(|r| !pre.contains(r)).collect(),
            rows_out: (l.out.0..l.out.0 + l.out.1 * 4).collect(),
        }
    }
}

/// Which buffer of the machine one copy reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The storage rows (`Machine::regs`, row-major: `row * nq + quad`).
    Regs,
    /// The kill mask (one `Lanes` per quad).
    Kill,
}

/// One contiguous copy of `bytes` bytes between the machine (`side`, from byte `at`) and the
/// module's memory (from byte `module`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy {
    pub side: Side,
    pub at: usize,
    pub module: usize,
    pub bytes: usize,
}

/// What a run of `nq` quads copies where: `inputs` into the module, then `fills` (byte ranges of
/// the module's memory set to all ones: the masks of a new run), and after the run `outputs`
/// back. The one place that knows the module's memory layout from the host's side: the native
/// runtime (`stage_in` / `stage_out`) and the browser's (`wasm/jit.rs`) both follow it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub nq: usize,
    pub inputs: Vec<Copy>,
    pub fills: Vec<std::ops::Range<usize>>,
    pub outputs: Vec<Copy>,
}

/// The plan of a batch of `nq` quads: the staged rows (`row * nq + quad` in the machine, `row *
/// ROW_BYTES + quad * 16` in the module), exec, cond, loop and cont all ones, kill in and out.
/// None when the module cannot run `nq` quads (none, or more than `codegen::MAX_QUADS`).
pub fn plan(layout: &Layout, staging: &Staging, nq: usize) -> Option<Plan> {
    if nq == 0 || nq > codegen::MAX_QUADS as usize {
        return None;
    }
    let stride = codegen::ROW_BYTES as usize;
    let len = nq * 16;
    let row = |side, r: usize, machine_row: usize| Copy {
        side,
        at: machine_row * len,
        module: r * stride,
        bytes: len,
    };
    let kill = layout.kill() as usize;
    let mut inputs: Vec<Copy> =
        staging.rows_in.iter().map(|&r| row(Side::Regs, r as usize, r as usize)).collect();
    inputs.push(row(Side::Kill, kill, 0));
    let mut outputs: Vec<Copy> =
        staging.rows_out.iter().map(|&r| row(Side::Regs, r as usize, r as usize)).collect();
    outputs.push(row(Side::Kill, kill, 0));
    let masks = layout.masks as usize;
    let fills = (masks..masks + 4).map(|r| r * stride..r * stride + len).collect();
    Some(Plan { nq, inputs, fills, outputs })
}

/// What a host keeps of a compiled program to stage its runs (made once per program): the
/// browser's runtime holds only this, so a change of the module's layout changes this type
/// and `plan`, not the hosts.
#[derive(Clone, Debug)]
pub struct Stage {
    layout: Layout,
    staging: Staging,
}

impl Stage {
    pub fn of(program: &crate::exec::Program, compiled: &Compiled) -> Stage {
        Stage { layout: compiled.layout, staging: Staging::of(program) }
    }
    /// The plan of a batch of `nq` quads ([`plan`]).
    pub fn plan(&self, nq: usize) -> Option<Plan> {
        plan(&self.layout, &self.staging, nq)
    }
}

/// Copies the machine's storage into the module's memory as `plan` says.
pub fn stage_in(
    plan: &Plan,
    regs: &[crate::exec::Lanes],
    kill: &[crate::exec::Lanes],
    mem: &mut [u8],
) {
    for c in &plan.inputs {
        let words = match c.side {
            Side::Regs => crate::exec::lanes::flat(regs),
            Side::Kill => crate::exec::lanes::flat(kill),
        };
        if let (Some(src), Some(dst)) =
            (words.get(c.at / 4..(c.at + c.bytes) / 4), mem.get_mut(c.module..c.module + c.bytes))
        {
            to_bytes(src, dst);
        }
    }
    for f in &plan.fills {
        if let Some(dst) = mem.get_mut(f.clone()) {
            dst.fill(0xff);
        }
    }
}

/// Copies the OUT rows and the kill mask back as `plan` says.
pub fn stage_out(
    plan: &Plan,
    mem: &[u8],
    regs: &mut [crate::exec::Lanes],
    kill: &mut [crate::exec::Lanes],
) {
    for c in &plan.outputs {
        let words = match c.side {
            Side::Regs => crate::exec::lanes::flat_mut(regs),
            Side::Kill => crate::exec::lanes::flat_mut(kill),
        };
        if let (Some(dst), Some(src)) =
            (words.get_mut(c.at / 4..(c.at + c.bytes) / 4), mem.get(c.module..c.module + c.bytes))
        {
            from_bytes(src, dst);
        }
    }
}

#[inline]
fn to_bytes(src: &[u32], dst: &mut [u8]) {
    for (d, w) in dst.chunks_exact_mut(4).zip(src) {
        d.copy_from_slice(&w.to_le_bytes());
    }
}

#[inline]
fn from_bytes(src: &[u8], dst: &mut [u32]) {
    for (w, s) in dst.iter_mut().zip(src.chunks_exact(4)) {
        *w = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
    }
}

/// The engine used when none is asked for: the interpreter, until the JIT is faster than it
/// (docs/jit.md, "Speed": today it is about half as fast on the benchmark shaders).
pub const DEFAULT_ENGINE: Engine = Engine::Interpreter;

/// A compiled form of `program` for machines that run it, or why the interpreter runs it.
pub fn accelerator(
    program: &crate::exec::Program,
) -> Result<std::sync::Arc<dyn crate::exec::MakeAccelerator>, String> {
    #[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
    {
        native::NativeProgram::new(program)
            .map(|p| std::sync::Arc::new(p) as std::sync::Arc<dyn crate::exec::MakeAccelerator>)
            .map_err(|u| u.reason)
    }
    #[cfg(not(all(feature = "jit", not(target_arch = "wasm32"))))]
    {
        let _ = program;
        Err("this build has no JIT runtime (cargo feature `jit`)".to_string())
    }
}

/// Sets which engine runs `job`'s fragment batches; `Err` says why the interpreter runs them
/// although the JIT was asked for.
pub fn attach(job: &mut crate::render::job::Job, engine: Engine) -> Result<(), String> {
    job.fs_accel = None;
    if engine == Engine::Jit {
        job.fs_accel = Some(accelerator(&job.fs)?);
    }
    Ok(())
}
