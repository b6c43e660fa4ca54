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

/// Copies the machine's storage (`row * nq + quad`) into the module's memory (`row *
/// MAX_QUADS + quad`) with the mask rows set for a new run: exec, cond, loop and cont all ones,
/// kill from `kill`.
pub fn stage_in(
    layout: &Layout,
    staging: &Staging,
    regs: &[crate::exec::Lanes],
    kill: &[crate::exec::Lanes],
    nq: usize,
    mem: &mut [u8],
) {
    let stride = codegen::ROW_BYTES as usize;
    for &r in &staging.rows_in {
        let r = r as usize;
        if let (Some(src), Some(dst)) =
            (regs.get(r * nq..r * nq + nq), mem.get_mut(r * stride..r * stride + nq * 16))
        {
            to_bytes(crate::exec::lanes::flat(src), dst);
        }
    }
    for r in layout.masks as usize..layout.masks as usize + 4 {
        if let Some(dst) = mem.get_mut(r * stride..r * stride + nq * 16) {
            dst.fill(0xff);
        }
    }
    let k = layout.kill() as usize;
    if let (Some(src), Some(dst)) = (kill.get(..nq), mem.get_mut(k * stride..k * stride + nq * 16))
    {
        to_bytes(crate::exec::lanes::flat(src), dst);
    }
}

/// Copies the OUT rows and the kill mask back.
pub fn stage_out(
    layout: &Layout,
    staging: &Staging,
    mem: &[u8],
    regs: &mut [crate::exec::Lanes],
    kill: &mut [crate::exec::Lanes],
    nq: usize,
) {
    let stride = codegen::ROW_BYTES as usize;
    for &r in &staging.rows_out {
        let r = r as usize;
        if let (Some(dst), Some(src)) =
            (regs.get_mut(r * nq..r * nq + nq), mem.get(r * stride..r * stride + nq * 16))
        {
            from_bytes(src, crate::exec::lanes::flat_mut(dst));
        }
    }
    let k = layout.kill() as usize;
    if let (Some(dst), Some(src)) = (kill.get_mut(..nq), mem.get(k * stride..k * stride + nq * 16))
    {
        from_bytes(src, crate::exec::lanes::flat_mut(dst));
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
