// @ts-check
// A widget render worker: one engine instance (the flavour the page asked for), drawing whole
// frames for any widget on the page. The engine keeps the last few prepared jobs, so widgets
// that take turns on this worker do not compile their shaders again.

import { engineOptions as options } from '../engine-options.js';

/** @type {Promise<any> | null} */
let ready = null;

/**
 * Loads the engine's JS glue from its URL and instantiates the compiled module.
 * @param {string} glue
 * @param {WebAssembly.Module} module
 */
async function load(glue, module) {
  const engine = await import(glue);
  await engine.default({ module_or_path: module });
  return engine;
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'init') {
    ready = load(msg.glue, msg.module);
    ready.then(() => self.postMessage({ type: 'ready' }),
      (err) => self.postMessage({ type: 'failed', message: String(err?.message ?? err) }));
    return;
  }
  const id = msg.id;
  try {
    const engine = await ready;
    const req = msg.request;
    let result;
    if (msg.type === 'render') {
      // `spare`: the widget's last picture, handed back after it was painted; the engine
      // copies the new frame's pixels into it when the size fits (`pixelsInto`) instead of
      // into a new array.
      const into = msg.spare instanceof ArrayBuffer ? new Uint8Array(msg.spare) : null;
      result = engine.renderPage(req.fs, req.vs ?? null, into ? { ...options(req), pixelsInto: into } : options(req));
      if (result?.pixels && into) result.intoSpare = result.pixels.buffer === into.buffer;
    } else if (msg.type === 'trace') {
      result = engine.tracePixel(req.fs, req.vs ?? null, options(req), msg.x, msg.y);
    } else {
      return;
    }
    const transfer = result?.pixels?.buffer ? [result.pixels.buffer] : [];
    self.postMessage({ type: 'done', id, result }, { transfer });
  } catch (err) {
    self.postMessage({ type: 'done', id, result: null, error: String(/** @type {any} */ (err)?.message ?? err) });
  }
};
