// Loads the wasm engine (built into web/pkg by scripts/build-wasm.sh) and is the one place the
// page talks to it. The engine runs on the main thread for now; moving it into Web Workers later
// only changes this module.

import init, * as wasm from './pkg/tgsi.js';

let ready = null;

/** Loads and instantiates the engine once; resolves to the wasm-bindgen exports. */
export function loadEngine() {
  ready ??= init().then(() => wasm);
  return ready;
}

/** The engine's version string, as reported by the wasm module itself. */
export async function engineVersion() {
  const engine = await loadEngine();
  return engine.version();
}
