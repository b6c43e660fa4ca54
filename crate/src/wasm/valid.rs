//! wasm bindings: valid.
