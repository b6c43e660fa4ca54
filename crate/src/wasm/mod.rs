//! The WebAssembly API used by the page and its workers. Each area has its own file; values
//! cross the boundary as plain JS objects (serde-wasm-bindgen). Without the default features
//! (the widget's lean engine) only `version`, `validate`, `link` and the render calls remain.

#[cfg(feature = "agal")]
pub mod agal;
#[cfg(feature = "full")]
pub mod diff;
#[cfg(feature = "inspect")]
pub mod exec;
#[cfg(feature = "text-tools")]
pub mod front;
#[cfg(feature = "inspect")]
pub mod inspect;
#[cfg(feature = "jit")]
pub mod jit;
#[cfg(feature = "full")]
pub mod page;
pub mod read;
#[cfg(all(feature = "text-tools", feature = "inspect"))]
pub mod reference;
pub mod render;
#[cfg(feature = "full")]
pub mod stages;
pub mod valid;

use wasm_bindgen::prelude::*;

/// Installs the panic hook so that a Rust panic shows a readable message in the console.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The engine's version string.
#[wasm_bindgen]
pub fn version() -> String {
    crate::version()
}
