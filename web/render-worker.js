// @ts-check
// A render worker: its own instance of the engine (from the module the page compiled), drawing
// one band of rows of a frame. Several run side by side; the page stitches their bands.

import init, * as engine from './pkg/tgsi.js';
import { engineOptions as options } from './engine-options.js';

let ready = null;

/**
 * Renders rows [top, bottom) (row 0 = top of the picture) with the engine's
 * `render(fsText, vsText | null, options)`; the result holds RGBA8 bytes of those rows, top row
 * first, and the diagnostics (each with its `source`: fragment, vertex or render).
 */
function renderBand(req) {
  // renderPage takes textures as JSON descriptions (mip levels, cube faces, sampler state).
  const draw = typeof engine.renderPage === 'function' ? engine.renderPage : engine.render;
  return draw(req.fs, req.vs ?? null, options(req));
}

/** The inspector's calls: a pixel's or a vertex's trace, the vertex table, a frame's probe. */
function inspect(msg) {
  const req = msg.request;
  if (msg.type === 'trace') return engine.tracePixel(req.fs, req.vs ?? null, options(req), msg.x, msg.y);
  if (msg.type === 'vertex') return engine.traceVertex(req.fs, req.vs ?? null, options(req), msg.index);
  if (msg.type === 'vertices') return engine.vertexTable(req.fs, req.vs ?? null, options(req));
  // The stage selector's calls (stage-panel.js, compute-panel.js).
  if (msg.type === 'primitives') return engine.geometryPrimitives(req.fs, req.vs ?? null, options(req));
  if (msg.type === 'compute') return engine.compute(req.cs, req.options);
  return engine.probeFrame(req.fs, req.vs ?? null, options(req), msg.watch ?? null);
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
  if (['trace', 'probe', 'vertex', 'vertices', 'primitives', 'compute'].includes(msg.type)) {
    await ready;
    try {
      const result = inspect(msg);
      const transfer = msg.type === 'probe' && result.ok ? [result.counts.buffer, result.values.buffer, result.state.buffer] : [];
      self.postMessage({ type: 'inspected', id: msg.id, result }, { transfer });
    } catch (err) {
      self.postMessage({ type: 'inspected', id: msg.id, result: null, error: String(err?.message ?? err) });
    }
    return;
  }
  if (msg.type !== 'render') return;
  await ready;
  if (msg.request.crashForTest) {
    // A test's stand-in for a worker that dies (an uncaught error reaches the page's onerror).
    setTimeout(() => { throw new Error('simulated worker failure'); });
    return;
  }
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
      // Which buffers the frame has (targets.js shows a tab for each).
      targets: { count: result.targets ?? 1, depthTest: Boolean(result.depthTest), writesDepth: Boolean(result.writesDepth), target: result.target ?? 0 },
      ms: performance.now() - start,
    }, { transfer: [pixels.buffer] });
  } catch (err) {
    // The engine never throws for bad input (diagnostics instead): an exception is a trap (out of
    // memory, …), after which this instance may be unusable, so the pool replaces the worker.
    self.postMessage({ type: 'band', id: msg.id, rows: msg.request.rows, pixels: null, error: String(err?.message ?? err), fatal: true, diagnostics: [], ms: performance.now() - start });
  }
};
