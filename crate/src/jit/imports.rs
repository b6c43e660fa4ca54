//! The functions a generated module imports from the engine: the lane formulas the interpreter
//! computes with the host's libm (`exec/ops/float.rs`), so a compiled SIN gives the very bits
//! the interpreter's does — natively glibc's, in the browser the engine's own wasm libm. An
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
    /// The formula applied to each lane of quads given as raw little-endian 128-bit values
    /// (lane i in bits 32·i.. — WebAssembly's `v128` lane order); missing arguments read 0.
    /// (One `match`, then four calls spelled out: no array `map`, which may stay a call.)
    #[inline]
    pub fn quad(self, [a, b, c]: [u128; 3]) -> u128 {
        let bits = |v: u128, i: u32| (v >> (32 * i)) as u32;
        let lane = |v: u128, i: u32| f32::from_bits(bits(v, i));
        match self {
            Lane::F1(f) => lanes4(|i| f(lane(a, i))),
            Lane::F2(f) => lanes4(|i| f(lane(a, i), lane(b, i))),
            Lane::F3(f) => lanes4(|i| f(lane(a, i), lane(b, i), lane(c, i))),
            Lane::FI(f) => lanes4(|i| f(lane(a, i), bits(b, i) as i32)),
        }
    }
}

/// `g(0)`, …, `g(3)` as the lanes of a raw `v128`.
#[inline(always)]
fn lanes4(g: impl Fn(u32) -> f32) -> u128 {
    let b = |i: u32| (g(i).to_bits() as u128) << (32 * i);
    b(0) | b(1) | b(2) | b(3)
}

/// One imported function.
#[derive(Clone, Copy)]
pub struct Import {
    /// Field name in the module's import section.
    pub name: &'static str,
    /// Name of the engine's raw wasm export that implements it in the browser.
    pub export: &'static str,
    pub lane: Lane,
}

macro_rules! lane_imports {
    ($($id:ident $name:literal $export:ident $kind:ident($f:path) $(, $arg:ident)*;)*) => {
        /// Indices into [`LANE_IMPORTS`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Which { $($id),* }
        /// Every lane import, in [`Which`] order.
        pub const LANE_IMPORTS: &[Import] = &[
            $(Import { name: $name, export: stringify!($export), lane: Lane::$kind($f) }),*
        ];
        /// The browser's raw exports (feature `jit`, wasm32): a module's import calls the
        /// engine's own function, wasm to wasm, with `v128` quads (not wasm-bindgen functions:
        /// JavaScript cannot pass a `v128`, and no JavaScript is between the two modules).
        #[cfg(all(target_arch = "wasm32", feature = "jit"))]
        pub mod exports {
            use core::arch::wasm32::v128;
            $(
                // `v128` has no C type, hence the lint; the only callers are generated modules,
                // whose import type `(v128 …) -> v128` is what this compiles to with simd128
                // (the browser tests `jit::transcendentals_…` instantiate and run them).
                #[allow(improper_ctypes_definitions)]
                #[no_mangle]
                pub extern "C" fn $export($($arg: v128),*) -> v128 {
                    super::quad_v128(super::Which::$id, &[$($arg),*])
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
    Rcc "rcc" jit_rcc F1(float::rcc), x;
    LitZ "lit_z" jit_lit_z F3(float::lit_z), x, y, w;
    Fma "fma" jit_fma F3(float::fma), x, y, z;
    Ldexp "ldexp" jit_ldexp FI(float::ldexp), x, n;
}

/// [`Lane::quad`] of `w` over wasm `v128` values (the browser's exports).
#[cfg(all(target_arch = "wasm32", feature = "jit"))]
fn quad_v128(w: Which, args: &[core::arch::wasm32::v128]) -> core::arch::wasm32::v128 {
    use core::arch::wasm32::{u64x2, u64x2_extract_lane};
    let raw = |v: &core::arch::wasm32::v128| {
        u64x2_extract_lane::<0>(*v) as u128 | (u64x2_extract_lane::<1>(*v) as u128) << 64
    };
    let mut a = [0u128; 3];
    for (slot, v) in a.iter_mut().zip(args) {
        *slot = raw(v);
    }
    let r = w.import().lane.quad(a);
    u64x2(r as u64, (r >> 64) as u64)
}

/// The texture-sampling import: `(index: i32, at: i32) -> i32` (`jit::host`), 1 when the
/// results were written, 0 when the module must give the batch back to the interpreter.
pub const SAMPLE: (&str, &str) = ("sample", "jit_sample");

impl Which {
    pub fn import(self) -> Import {
        LANE_IMPORTS[self as usize]
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
