// @ts-check
// Loads the wasm engine (built into web/pkg by scripts/build-wasm.sh) once: the module is
// compiled on the main thread, instantiated there for the quick calls (parse, validate, format,
// AGAL export) and handed, already compiled, to the render workers, so it is fetched only once.

import init, * as wasm from './pkg/tgsi.js';

const WASM_URL = new URL('./pkg/tgsi_bg.wasm', import.meta.url);
let compiled = null;
let ready = null;

/** The compiled WebAssembly.Module (for the workers). */
export function engineModule() {
  compiled ??= WebAssembly.compileStreaming(fetch(WASM_URL));
  return compiled;
}

/** Loads and instantiates the engine once; resolves to the wasm-bindgen exports. */
export function loadEngine() {
  ready ??= engineModule().then((module) => init({ module_or_path: module })).then(() => wasm);
  return ready;
}

/** The engine's version string, as reported by the wasm module itself. */
export async function engineVersion() {
  const engine = await loadEngine();
  return engine.version();
}

/** Whether the engine has a given export (APIs land one by one). */
export function has(engine, name) {
  return typeof engine[name] === 'function';
}
