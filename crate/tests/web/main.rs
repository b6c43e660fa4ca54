//! The browser tests of the wasm API, in one binary run by `wasm-bindgen-test-runner` in headless
//! browsers: `cargo wasm-test` (`.cargo/config.toml`). Native `cargo test`
//! compiles it to an empty test crate.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod conformance;
mod jit;
mod page;
mod smoke;
mod stages;
mod unorm8;
mod webkit_trap;
