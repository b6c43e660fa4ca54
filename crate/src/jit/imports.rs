//! The functions a generated module imports from the engine: the lane formulas the interpreter
//! computes with the host's libm (`exec/ops/float.rs`), so a compiled SIN gives the very bits
//! the interpreter's does — natively glibc's, in the browser the engine's own wasm libm. Each
//! import is one scalar call of the interpreter's own function, made once per lane.
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
}

impl Lane {
    /// Number of `f32` parameters (the result is one `f32`).
    pub fn arity(self) -> usize {
        match self {
            Lane::F1(_) => 1,
            Lane::F2(_) => 2,
            Lane::F3(_) => 3,
        }
    }
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
        /// engine's own function, wasm to wasm.
        #[cfg(all(target_arch = "wasm32", feature = "jit"))]
        pub mod exports {
            use crate::exec::ops::float;
            use wasm_bindgen::prelude::*;
            $(
                #[wasm_bindgen]
                pub fn $export($($arg: f32),*) -> f32 {
                    $f($($arg),*)
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
        _ => &[],
    }
}
