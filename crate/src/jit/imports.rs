//! The functions a generated module imports from the engine: the lane formulas the interpreter
//! computes with its own functions (`exec/ops/float.rs`), so a compiled SIN gives the very bits
//! the interpreter's does on either host, texture sampling, and the frame's stop flag. An
//! import takes whole quads (`v128` arguments, one result `v128`) and applies the interpreter's
//! own scalar function to each lane: one call per quad and channel, not one per lane (a host
//! call is the expensive part natively, and the lane extracts and inserts in the module).
//!
//! This table is the one place the imports are named: the code generator imports the entries a
//! program needs (module [`MODULE`], field [`Import::name`]), the native runtime defines every
//! entry as a host function (`jit/native.rs`), and the browser's engine exports each as a raw
//! wasm function ([`Import::export`], `wasm/jit.rs`) that `jitImports()` hands to the render
//! worker, so the module calls the engine wasm to wasm.

use crate::exec::ops::float;
use crate::opcode::Opcode as O;

/// The import module name of every entry.
pub const MODULE: &str = "env";

/// A quad's four lanes as raw bits, lane i in element i (WebAssembly's `v128` lane order).
pub type Quad = [u32; 4];

/// A scalar lane formula.
#[derive(Clone, Copy)]
pub enum Lane {
    F1(fn(f32) -> f32),
    F2(fn(f32, f32) -> f32),
    F3(fn(f32, f32, f32) -> f32),
    /// A float and an integer (the lane's bits as `i32`), as LDEXP's.
    FI(fn(f32, i32) -> f32),
}

impl Lane {
    /// Number of `v128` parameters (the result is one `v128`).
    pub fn arity(self) -> usize {
        match self {
            Lane::F1(_) => 1,
            Lane::F2(_) | Lane::FI(_) => 2,
            Lane::F3(_) => 3,
        }
    }
    /// The formula applied to each lane of the argument quads; missing arguments read 0.
    /// Always inlined, so that where the formula is a constant (each import's own function,
    /// [`Import::quad`] and the browser's exports) the calls are direct ones the compiler can
    /// inline, not four calls through a pointer. (Four calls spelled out: no array `map`.)
    #[inline(always)]
    pub fn quad(self, [a, b, c]: [Quad; 3]) -> Quad {
        let lane = |v: Quad, i: usize| f32::from_bits(v[i]);
        match self {
            Lane::F1(f) => lanes4(|i| f(lane(a, i))),
            Lane::F2(f) => lanes4(|i| f(lane(a, i), lane(b, i))),
            Lane::F3(f) => lanes4(|i| f(lane(a, i), lane(b, i), lane(c, i))),
            Lane::FI(f) => lanes4(|i| f(lane(a, i), b[i] as i32)),
        }
    }
}

/// `g(0)`, …, `g(3)` as the lanes of a quad.
#[inline(always)]
fn lanes4(g: impl Fn(usize) -> f32) -> Quad {
    [g(0).to_bits(), g(1).to_bits(), g(2).to_bits(), g(3).to_bits()]
}

/// One imported function.
#[derive(Clone, Copy)]
pub struct Import {
    /// Field name in the module's import section.
    pub name: &'static str,
    /// Name of the engine's raw wasm export that implements it in the browser.
    pub export: &'static str,
    pub lane: Lane,
    /// `lane.quad` with the formula fixed, over raw little-endian 128-bit values (wasmtime's
    /// `V128`, lane 0 lowest): a function of its own per import, whose four lane calls are
    /// direct (the native runtime's host functions call this). A `u128` result comes back in
    /// registers; a returned `[u32; 4]` went through memory, written a lane at a time and read
    /// back 8 bytes at a time by the caller, a store-forwarding stall per call.
    pub quad: fn([u128; 3]) -> u128,
}

macro_rules! lane_imports {
    ($($id:ident $name:literal $export:ident $kind:ident($f:path) $(, $arg:ident)*;)*) => {
        /// Indices into [`LANE_IMPORTS`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Which { $($id),* }
        /// Every lane import, in [`Which`] order.
        pub const LANE_IMPORTS: &[Import] = &[
            $(Import {
                name: $name,
                export: stringify!($export),
                lane: Lane::$kind($f),
                quad: |a| u128_of_quad(Lane::$kind($f).quad(a.map(quad_of_u128))),
            }),*
        ];
        /// The browser's raw exports (feature `jit`, wasm32): a module's import calls the
        /// engine's own function, wasm to wasm, with `v128` quads (not wasm-bindgen functions:
        /// JavaScript cannot pass a `v128`, and no JavaScript is between the two modules).
        #[cfg(all(target_arch = "wasm32", feature = "jit"))]
        pub mod exports {
            use super::float;
            use core::arch::wasm32::v128;
            $(
                // `v128` has no C type, hence the lint; the only callers are generated modules,
                // whose import type `(v128 …) -> v128` is what this compiles to with simd128
                // (the browser tests `jit::transcendentals_…` instantiate and run them).
                #[allow(improper_ctypes_definitions)]
                #[no_mangle]
                pub extern "C" fn $export($($arg: v128),*) -> v128 {
                    super::to_v128(super::Lane::$kind($f).quad(super::from_v128s(&[$($arg),*])))
                }
            )*
        }
    };
}

lane_imports! {
    Sin "sin" jit_sin F1(float::sin), x;
    Cos "cos" jit_cos F1(float::cos), x;
    Ex2 "ex2" jit_ex2 F1(float::ex2), x;
    Lg2 "lg2" jit_lg2 F1(float::lg2), x;
    Pow "pow" jit_pow F2(float::pow), x, y;
    Lg2Daz "lg2_daz" jit_lg2_daz F1(float::lg2_daz), x;
    PowDaz "pow_daz" jit_pow_daz F2(float::pow_daz), x, y;
    Rcc "rcc" jit_rcc F1(float::rcc), x;
    LitZ "lit_z" jit_lit_z F3(float::lit_z), x, y, w;
    Fma "fma" jit_fma F3(float::fma), x, y, z;
    Ldexp "ldexp" jit_ldexp FI(float::ldexp), x, n;
}

/// The browser's `v128` arguments as quads (missing ones 0).
#[cfg(all(target_arch = "wasm32", feature = "jit"))]
#[inline(always)]
fn from_v128s(args: &[core::arch::wasm32::v128]) -> [Quad; 3] {
    use core::arch::wasm32::u32x4_extract_lane as at;
    let mut q = [[0u32; 4]; 3];
    for (slot, &v) in q.iter_mut().zip(args) {
        *slot = [at::<0>(v), at::<1>(v), at::<2>(v), at::<3>(v)];
    }
    q
}

/// A quad as the browser's `v128`.
#[cfg(all(target_arch = "wasm32", feature = "jit"))]
#[inline(always)]
fn to_v128([a, b, c, d]: Quad) -> core::arch::wasm32::v128 {
    core::arch::wasm32::u32x4(a, b, c, d)
}

/// A raw little-endian 128-bit value (wasmtime's `V128`) as a quad, and back.
#[inline(always)]
fn quad_of_u128(v: u128) -> Quad {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

/// See [`quad_of_u128`].
#[inline(always)]
fn u128_of_quad([a, b, c, d]: Quad) -> u128 {
    a as u128 | (b as u128) << 32 | (c as u128) << 64 | (d as u128) << 96
}

/// The texture-sampling import: `(index: i32, at: i32) -> i32` (`jit::host`), 1 when the
/// results were written, 0 when the module must give the batch back to the interpreter.
pub const SAMPLE: (&str, &str) = ("sample", "jit_sample");

/// The texture-sampling import for a whole batch: `(index: i32, at: i32, nq: i32) -> i32`
/// (`jit::host::sample_rows`): the staged operands and results are rows of `nq` quads
/// ([`crate::jit::codegen::Layout::sample_rows`]), sampled in one call after a pass over the
/// quads. 1 when the results were written, 0 when the module must give the batch back.
pub const SAMPLE_ROWS: (&str, &str) = ("sample_rows", "jit_sample_rows");

/// The stop-flag import of every module that calls the engine (the others look at no clock:
/// `codegen::Gen::check_limit` says why): `() -> i32`, 1 once the frame of the run in progress
/// has been stopped (`--timeout`, Ctrl-C, a band's time limit; `jit::host::stopped`). The
/// module calls it each time its work passes another `exec::STOP_CHECK_INTERVAL`, at a loop's
/// back-edge or a quad's end, and gives the batch back when it says 1.
pub const POLL: (&str, &str) = ("poll", "jit_poll");

impl Which {
    pub fn import(self) -> Import {
        LANE_IMPORTS[self as usize]
    }
}

/// The lane imports the compiled form of `inst` calls: [`used_by`], but LG2 and POW in a
/// program that flushes denormals call the C library's forms under DAZ (`Inst::libm_daz`,
/// `exec::ops::float`'s `lg2_daz` and `pow_daz`, as the interpreter).
pub fn used_by_inst(inst: &crate::exec::program::Inst) -> &'static [Which] {
    match inst.op {
        O::LG2 if inst.libm_daz => &[Which::Lg2Daz],
        O::POW if inst.libm_daz => &[Which::PowDaz],
        op => used_by(op),
    }
}

/// The lane imports the compiled form of `op` calls.
pub fn used_by(op: O) -> &'static [Which] {
    use Which::*;
    match op {
        O::SIN => &[Sin],
        O::COS => &[Cos],
        O::SCS => &[Cos, Sin],
        O::EX2 => &[Ex2],
        O::LG2 => &[Lg2],
        O::EXP => &[Ex2],
        O::LOG => &[Lg2, Ex2],
        O::POW => &[Pow],
        O::RCC => &[Rcc],
        O::LIT => &[LitZ],
        O::FMA => &[Fma],
        O::LDEXP => &[Ldexp],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Special bit patterns: zeros, ±1, denormals, the largest finite, infinities, NaNs, a
    /// large SIN argument and small integers (LDEXP's exponents).
    const BITS: [u32; 12] = [
        0x0000_0000,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x0000_0001,
        0x807f_ffff,
        0x7f7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x4b80_0001,
        0x0000_0003,
    ];

    #[test]
    fn each_import_applies_its_formula_to_each_lane_in_order() {
        for im in LANE_IMPORTS {
            for start in 0..BITS.len() {
                // Lane i of argument k: a different pattern per lane and argument.
                let arg = |k: usize| -> Quad {
                    std::array::from_fn(|i| BITS[(start + 5 * k + i) % BITS.len()])
                };
                let args = [arg(0), arg(1), arg(2)];
                let f = |k: usize, i: usize| f32::from_bits(args[k][i]);
                let want: Quad = std::array::from_fn(|i| {
                    match im.lane {
                        Lane::F1(g) => g(f(0, i)),
                        Lane::F2(g) => g(f(0, i), f(1, i)),
                        Lane::F3(g) => g(f(0, i), f(1, i), f(2, i)),
                        Lane::FI(g) => g(f(0, i), args[1][i] as i32),
                    }
                    .to_bits()
                });
                let same = |q: Quad| q.iter().zip(&want).all(|(a, b)| a == b);
                assert!(same(im.lane.quad(args)), "{}: {args:x?}", im.name);
                // The native runtime's form: wasmtime's raw 128-bit values, lane i in bits
                // 32·i.. (built here by hand).
                let raw = |q: Quad| (0..4).map(|i| (q[i] as u128) << (32 * i)).sum::<u128>();
                let got = (im.quad)(args.map(raw));
                assert_eq!(got, raw(want), "{}: {args:x?}", im.name);
            }
        }
    }
}
