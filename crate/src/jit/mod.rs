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
pub mod host;
pub mod imports;
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

/// A constant buffer the module reads through an index (`codegen::Layout::const_buffers`):
/// before each run the host writes the run's `CONST[buffer]` into the module's memory at byte
/// `module` — its length in registers as a little-endian `u32`, then from `module + 16` its
/// registers, 16 bytes each ([`buffer_words`]). A buffer of more than `capacity` registers
/// cannot be staged: the batch runs in the interpreter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferCopy {
    pub buffer: u32,
    pub module: usize,
    pub capacity: usize,
}

/// What a run of `nq` quads copies where: `inputs` and `buffers` into the module before the
/// run, and after the run `outputs` back (the module starts every quad's masks itself, and
/// its constant table is its data segment). The one place that knows the module's memory layout from the host's side:
/// the native runtime (`stage_in` / `stage_out`) and the browser's (`wasm/jit.rs`) both follow
/// it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub nq: usize,
    /// The IN rows (skipped when the caller wrote them into the module's memory in place,
    /// `exec::Accelerator::input_rows`).
    pub in_rows: Vec<Copy>,
    /// The SV rows and the cached constants.
    pub inputs: Vec<Copy>,
    pub buffers: Vec<BufferCopy>,
    pub outputs: Vec<Copy>,
}

/// The words of the run's `CONST[copy.buffer]` (4 per register; none for a buffer the run does
/// not bind), or None when the buffer has more registers than the module's area holds.
pub fn buffer_words<'c>(
    consts: &'c crate::exec::Constants,
    copy: &BufferCopy,
) -> Option<&'c [u32]> {
    let regs = consts.buffers.get(copy.buffer as usize).map_or(&[][..], Vec::as_slice);
    (regs.len() <= copy.capacity).then_some(regs.as_flattened())
}

/// The plan of a batch of `nq` quads for a module of `layout` (`codegen::Layout`): in, the IN
/// rows and the SV rows the program reads (`row * nq + quad` in the machine, `slot * ROW_BYTES + quad *
/// 16` in the module) and quad 0's lanes of each cached constant (uniform, 16 bytes each from
/// `const_base`); out, the OUT rows the program writes (slots after the inputs) and, for a
/// program that may kill, the kill mask; and each constant buffer read through an index, whole,
/// into its area (`Layout::buffer_area`). None when the module cannot run `nq` quads (none, or more than
/// `codegen::MAX_QUADS`).
pub fn plan(layout: &Layout, nq: usize) -> Option<Plan> {
    if nq == 0 || nq > codegen::MAX_QUADS as usize {
        return None;
    }
    let stride = codegen::ROW_BYTES as usize;
    let len = nq * 16;
    let row = |side, slot: usize, machine_row: usize| Copy {
        side,
        at: machine_row * len,
        module: slot * stride,
        bytes: len,
    };
    let mut inputs: Vec<Copy> = layout
        .rows_in
        .iter()
        .enumerate()
        .map(|(slot, &r)| row(Side::Regs, slot, r as usize))
        .collect();
    // The IN rows the program reads (the module loads no other IN slot).
    let in_rows: Vec<Copy> =
        layout.in_read.iter().filter_map(|&slot| inputs.get(slot as usize).copied()).collect();
    inputs.drain(..(layout.in_slots as usize).min(inputs.len()));
    let base = layout.const_base() as usize;
    inputs.extend(layout.consts.iter().enumerate().map(|(k, &r)| Copy {
        side: Side::Regs,
        at: r as usize * len,
        module: base + k * 16,
        bytes: 16,
    }));
    let first = layout.rows_in.len();
    let mut outputs: Vec<Copy> = layout
        .rows_out
        .iter()
        .enumerate()
        .map(|(i, &r)| row(Side::Regs, first + i, r as usize))
        .collect();
    if layout.kill {
        outputs.push(row(Side::Kill, layout.kill_slot() as usize, 0));
    }
    let buffers = layout
        .const_buffers
        .iter()
        .enumerate()
        .map(|(k, &buffer)| BufferCopy {
            buffer,
            module: layout.buffer_area(k) as usize,
            capacity: codegen::BUFFER_REGISTERS as usize,
        })
        .collect();
    Some(Plan {
        nq,
        in_rows: merged(in_rows),
        inputs: merged(inputs),
        buffers,
        outputs: merged(outputs),
    })
}

/// `copies` with each run of copies that follow each other on both sides (a batch of
/// `codegen::MAX_QUADS` quads: the machine's rows are then as long as the module's) made one:
/// the page copies each through a JavaScript call.
fn merged(copies: Vec<Copy>) -> Vec<Copy> {
    let mut out: Vec<Copy> = Vec::with_capacity(copies.len());
    for c in copies {
        match out.last_mut() {
            Some(last)
                if last.side == c.side
                    && last.at + last.bytes == c.at
                    && last.module + last.bytes == c.module =>
            {
                last.bytes += c.bytes;
            }
            _ => out.push(c),
        }
    }
    out
}

/// What a host keeps of a compiled program to stage its runs (made once per program): the
/// browser's runtime holds only this, so a change of the module's layout changes this type
/// and `plan`, not the hosts.
#[derive(Clone, Debug)]
pub struct Stage {
    layout: Layout,
}

impl Stage {
    pub fn of(compiled: &Compiled) -> Stage {
        Stage { layout: compiled.layout.clone() }
    }
    /// The plan of a batch of `nq` quads ([`plan`]).
    pub fn plan(&self, nq: usize) -> Option<Plan> {
        plan(&self.layout, nq)
    }
    /// The module samples textures ([`Layout::sampling`]).
    pub fn samples(&self) -> bool {
        self.layout.sampling
    }
}

/// Copies the machine's storage and the run's constant buffers into the module's memory as
/// `plan` says, the IN rows only when `in_rows` (otherwise the caller wrote them there,
/// `exec::Accelerator::input_rows`). False when a buffer does not fit its area (the batch then
/// runs in the interpreter).
pub fn stage_in(
    plan: &Plan,
    regs: &[crate::exec::Lanes],
    kill: &[crate::exec::Lanes],
    consts: &crate::exec::Constants,
    mem: &mut [u8],
    in_rows: bool,
) -> bool {
    for b in &plan.buffers {
        let Some(words) = buffer_words(consts, b) else { return false };
        let end = b.module + 16 + words.len() * 4;
        let Some(area) = mem.get_mut(b.module..end) else { return false };
        area[..4].copy_from_slice(&((words.len() / 4) as u32).to_le_bytes());
        for (dst, w) in area[16..].chunks_exact_mut(4).zip(words) {
            dst.copy_from_slice(&w.to_le_bytes());
        }
    }
    let ins: &[Copy] = if in_rows { &plan.in_rows } else { &[] };
    for c in ins.iter().chain(&plan.inputs) {
        let bytes = match c.side {
            Side::Regs => crate::exec::lanes::bytes(regs),
            Side::Kill => crate::exec::lanes::bytes(kill),
        };
        if let (Some(src), Some(dst)) =
            (bytes.get(c.at..c.at + c.bytes), mem.get_mut(c.module..c.module + c.bytes))
        {
            dst.copy_from_slice(src);
        }
    }
    true
}

/// Copies the kill mask back as `plan` says, and the OUT rows too when `rows` (otherwise the
/// caller reads them where they are, `exec::Accelerator::kept_outputs`).
pub fn stage_out(
    plan: &Plan,
    mem: &[u8],
    regs: &mut [crate::exec::Lanes],
    kill: &mut [crate::exec::Lanes],
    rows: bool,
) {
    for c in plan.outputs.iter().filter(|c| rows || c.side == Side::Kill) {
        let bytes = match c.side {
            Side::Regs => crate::exec::lanes::bytes_mut(regs),
            Side::Kill => crate::exec::lanes::bytes_mut(kill),
        };
        if let (Some(dst), Some(src)) =
            (bytes.get_mut(c.at..c.at + c.bytes), mem.get(c.module..c.module + c.bytes))
        {
            dst.copy_from_slice(src);
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

/// Why the default engine leaves a program the JIT compiles to the interpreter.
pub const SLOWER_WITH_IMPORTS: &str = "the interpreter runs shaders that call host functions \
     (texture sampling, SIN, POW, ...) unless --engine jit is given: it is faster on them";

/// A compiled form of `program` for machines that run it, or why the interpreter runs it.
/// `named`: the JIT was asked for by name; otherwise (the default engine) a program whose
/// module calls host functions is left to the interpreter, which runs it faster.
pub fn accelerator(
    program: &crate::exec::Program,
    named: bool,
) -> Result<std::sync::Arc<dyn crate::exec::MakeAccelerator>, String> {
    #[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
    {
        let compiled = codegen::compile(program).map_err(|u| u.reason)?;
        if compiled.calls_host && !named {
            return Err(SLOWER_WITH_IMPORTS.to_string());
        }
        let mut native = native::NativeProgram::from_compiled(&compiled).map_err(|u| u.reason)?;
        native.keep_source(program);
        Ok(std::sync::Arc::new(native) as std::sync::Arc<dyn crate::exec::MakeAccelerator>)
    }
    #[cfg(not(all(feature = "jit", not(target_arch = "wasm32"))))]
    {
        let _ = (program, named);
        Err("this build has no JIT runtime (cargo feature `jit`)".to_string())
    }
}

/// Sets which engine runs `job`'s fragment batches (`named`: asked for by name, see
/// [`accelerator`]); `Err` says why the interpreter runs them although the JIT was chosen.
pub fn attach(
    job: &mut crate::render::job::Job,
    engine: Engine,
    named: bool,
) -> Result<(), String> {
    job.fs_accel = None;
    job.fs_in_draw_accel = None;
    if engine == Engine::Jit {
        job.fs_accel = Some(accelerator(&job.fs, named)?);
        // The flushing form for draw chunks inside the view (docs/interpreter.md
        // "Denormals"), compiled from the same code with its flushes; where it is not, those
        // chunks run in the interpreter.
        job.fs_in_draw_accel = job.fs_in_draw.as_ref().and_then(|p| accelerator(p, named).ok());
    }
    Ok(())
}
