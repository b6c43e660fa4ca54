//! # TGSI Playground engine
//!
//! Reads, checks, explains and runs TGSI — the text shader IR of Mesa's Gallium drivers — and
//! exports it as AGAL (Adobe Stage3D) bytecode. The same crate is the native `tgsi` CLI and,
//! compiled to WebAssembly, the engine of the playground page.
//!
//! Data flow (see `design.md`):
//! ```text
//!  TGSI text ──text::parse──▶ ir::Shader ──valid::check──▶ diagnostics
//!                                 ├──exec::compile──▶ exec::Program ──Machine::run──▶ lanes
//!                                 ├──render::draw (VS → raster → FS, textures) ──▶ RGBA
//!                                 ├──text::print (mesa | exact) ──▶ TGSI text
//!                                 └──agal::lower ──▶ agal::Program ──encode──▶ bytes
//! ```

#[cfg(feature = "agal")]
pub mod agal;
pub mod diag;
/// `tgsi diff`: whether two shaders compute the same, and the first difference.
#[cfg(feature = "full")]
pub mod diff;
pub mod exec;
/// The fuzz targets' bodies (`fuzz/`, and the smoke run in the native tests).
#[cfg(feature = "full")]
#[doc(hidden)]
pub mod fuzzing;
pub mod half;
pub mod ir;
pub mod jit;
pub mod json;
pub mod limits;
pub mod opcode;
/// The opcode reference's page data and generator (`tgsi reference`).
#[cfg(feature = "text-tools")]
pub mod reference;
pub mod render;
pub mod sort;
pub mod text;
pub mod texture;
pub mod valid;

#[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// The engine's version string, e.g. `tgsi-playground 0.1.0`.
pub fn version() -> String {
    format!("tgsi-playground {}", env!("CARGO_PKG_VERSION"))
}
