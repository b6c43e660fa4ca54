//! wasm bindings: agal.
