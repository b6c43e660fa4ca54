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

/// Copies the machine's row-major storage (`row * nq + quad`) into the module's quad-major
/// memory (`quad * quad_rows + row`) with the mask rows set for a new run: exec, cond, loop and
/// cont all ones, kill from `kill`.
pub fn stage_in(
    layout: &Layout,
    regs: &[crate::exec::Lanes],
    kill: &[crate::exec::Lanes],
    nq: usize,
    mem: &mut [u8],
) {
    let (rows, qr) = (layout.rows as usize, layout.quad_rows as usize);
    for q in 0..nq {
        let Some(quad) = mem.get_mut(q * qr * 16..(q + 1) * qr * 16) else { return };
        for r in 0..rows {
            let v = regs.get(r * nq + q).copied().unwrap_or_default();
            put(quad, r, v.0);
        }
        for r in 0..4 {
            put(quad, layout.masks as usize + r, [u32::MAX; 4]);
        }
        put(quad, layout.kill() as usize, kill.get(q).copied().unwrap_or_default().0);
    }
}

/// Copies storage rows and the kill mask back (the inverse of [`stage_in`]).
pub fn stage_out(
    layout: &Layout,
    mem: &[u8],
    regs: &mut [crate::exec::Lanes],
    kill: &mut [crate::exec::Lanes],
    nq: usize,
) {
    let (rows, qr) = (layout.rows as usize, layout.quad_rows as usize);
    for q in 0..nq {
        let Some(quad) = mem.get(q * qr * 16..(q + 1) * qr * 16) else { return };
        for r in 0..rows {
            if let Some(v) = regs.get_mut(r * nq + q) {
                v.0 = get(quad, r);
            }
        }
        if let Some(k) = kill.get_mut(q) {
            k.0 = get(quad, layout.kill() as usize);
        }
    }
}

#[inline]
fn put(quad: &mut [u8], row: usize, v: [u32; 4]) {
    if let Some(d) = quad.get_mut(row * 16..row * 16 + 16) {
        for (c, w) in d.chunks_exact_mut(4).zip(v) {
            c.copy_from_slice(&w.to_le_bytes());
        }
    }
}

#[inline]
fn get(quad: &[u8], row: usize) -> [u32; 4] {
    let mut v = [0u32; 4];
    if let Some(s) = quad.get(row * 16..row * 16 + 16) {
        for (w, c) in v.iter_mut().zip(s.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }
    v
}
