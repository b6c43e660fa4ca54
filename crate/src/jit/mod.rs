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

/// Copies into the module's memory (`slot * ROW_BYTES + quad * 16`) what a run reads from the
/// machine's storage (`row * nq + quad`): the IN and SV rows the program reads, and quad 0's
/// lanes of each cached constant (the same for every quad).
pub fn stage_in(layout: &Layout, regs: &[crate::exec::Lanes], nq: usize, mem: &mut [u8]) {
    let stride = codegen::ROW_BYTES as usize;
    for (slot, &r) in layout.rows_in.iter().enumerate() {
        let r = r as usize;
        if let (Some(src), Some(dst)) =
            (regs.get(r * nq..r * nq + nq), mem.get_mut(slot * stride..slot * stride + nq * 16))
        {
            dst.copy_from_slice(crate::exec::lanes::bytes(src));
        }
    }
    let base = layout.const_base() as usize;
    for (k, &r) in layout.consts.iter().enumerate() {
        let at = base + k * 16;
        if let (Some(src), Some(dst)) =
            (regs.get(r as usize * nq..r as usize * nq + 1), mem.get_mut(at..at + 16))
        {
            dst.copy_from_slice(crate::exec::lanes::bytes(src));
        }
    }
}

/// Copies the OUT rows the program writes and, if it may kill, the kill mask back.
pub fn stage_out(
    layout: &Layout,
    mem: &[u8],
    regs: &mut [crate::exec::Lanes],
    kill: &mut [crate::exec::Lanes],
    nq: usize,
) {
    let stride = codegen::ROW_BYTES as usize;
    let first = layout.rows_in.len();
    for (i, &r) in layout.rows_out.iter().enumerate() {
        let (r, slot) = (r as usize, first + i);
        if let (Some(dst), Some(src)) =
            (regs.get_mut(r * nq..r * nq + nq), mem.get(slot * stride..slot * stride + nq * 16))
        {
            crate::exec::lanes::bytes_mut(dst).copy_from_slice(src);
        }
    }
    if layout.kill {
        let k = layout.kill_slot() as usize;
        if let (Some(dst), Some(src)) =
            (kill.get_mut(..nq), mem.get(k * stride..k * stride + nq * 16))
        {
            crate::exec::lanes::bytes_mut(dst).copy_from_slice(src);
        }
    }
}

/// The engine used when none is asked for: the JIT where the build has its runtime (it is
/// faster than the interpreter on the benchmark shaders, docs/jit.md "Speed"; a shader it does
/// not compile runs in the interpreter silently), else the interpreter.
#[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
pub const DEFAULT_ENGINE: Engine = Engine::Jit;
/// The engine used when none is asked for: this build has no JIT runtime.
#[cfg(not(all(feature = "jit", not(target_arch = "wasm32"))))]
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
