// A render worker: its own instance of the engine (from the module the page compiled), drawing
// one band of rows of a frame. Several run side by side; the page stitches their bands.

import init, * as engine from './pkg/tgsi.js';

let ready = null;

/**
 * Renders rows [top, bottom) (row 0 = top of the picture) and returns RGBA8 bytes for those
 * rows, top row first, with the engine's diagnostics.
 */
function renderBand(req) {
  const result = engine.render({
    fs: req.fs,
    vs: req.vs ?? undefined,
    mesh: req.mesh,
    width: req.width,
    height: req.height,
    constants: req.constants,
    time: req.builtins.time,
    timeDelta: req.builtins.timeDelta,
    frame: req.builtins.frame,
    mouse: req.builtins.mouse,
    mouseDown: req.builtins.mouseDown,
    textures: req.textures,
    rowStart: req.rows[0],
    rowEnd: req.rows[1],
    budget: req.budget,
  });
  return result;
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'init') {
    ready = init({ module_or_path: msg.module }).then(() => true);
    try {
      await ready;
      self.postMessage({ type: 'ready' });
    } catch (err) {
      self.postMessage({ type: 'failed', message: String(err?.message ?? err) });
    }
    return;
  }
  if (msg.type !== 'render') return;
  await ready;
  const start = performance.now();
  try {
    const result = renderBand(msg.request);
    const pixels = result.pixels instanceof Uint8Array ? result.pixels : new Uint8Array(result.pixels ?? []);
    self.postMessage({
      type: 'band',
      id: msg.id,
      rows: msg.request.rows,
      pixels,
      diagnostics: result.diagnostics ?? [],
      stats: result.stats ?? null,
      ms: performance.now() - start,
    }, [pixels.buffer]);
  } catch (err) {
    self.postMessage({ type: 'band', id: msg.id, rows: msg.request.rows, pixels: null, error: String(err?.message ?? err), diagnostics: [], ms: performance.now() - start });
  }
};
