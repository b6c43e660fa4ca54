//! Browser smoke tests of the wasm API (`crate/src/wasm/`), run in headless Chromium by
//! `wasm-bindgen-test-runner`: `cargo test --target wasm32-unknown-unknown --test 'web_*'`.
//! Native `cargo test` compiles this file to an empty test crate.

use wasm_bindgen_test::*;

/// The exported `version()` follows the documented format `tgsi-playground <crate version>`
/// (see `tgsi::version`), with the version cargo gives this package.
#[wasm_bindgen_test]
fn version_export_names_the_engine_and_its_crate_version() {
    let expected = format!("tgsi-playground {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(tgsi::wasm::version(), expected);
}

/// The wasm build must have SIMD enabled (`.cargo/config.toml`); an exported RUSTFLAGS would
/// silently drop it.
#[wasm_bindgen_test]
// The constant is the point: it is decided by the build flags this test checks.
#[allow(clippy::assertions_on_constants)]
fn built_with_simd128() {
    assert!(cfg!(target_feature = "simd128"));
}

/// The test really runs in a browser page: there is a window with a document.
#[wasm_bindgen_test]
fn runs_in_a_browser_window() {
    let global = js_sys::global();
    let document = js_sys::Reflect::get(&global, &"document".into()).unwrap_or_default();
    assert!(document.is_object(), "expected a DOM document in the test page");
}
