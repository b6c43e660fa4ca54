//! wasm bindings: exec.
