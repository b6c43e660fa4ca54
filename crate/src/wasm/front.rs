//! wasm bindings: front.
