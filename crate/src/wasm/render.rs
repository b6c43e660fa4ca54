//! wasm bindings: render.
