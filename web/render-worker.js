// @ts-check
// A render worker: its own instance of the engine (from the module the page compiled), drawing
// one band of rows of a frame. Several run side by side; the page stitches their bands.

import init, * as engine from './pkg/tgsi.js';
import { engineOptions as options } from './engine-options.js';

/** Settled by the 'init' message (the engine's instance, then the warm-up); every other message
 * waits for it, as the page may send work while its module is still compiling. */
let instantiated = (/** @type {(started: Promise<boolean>) => void} */ (() => {}));
const ready = new Promise((resolve) => { instantiated = resolve; });

// ---- the compiling tier (crate/src/wasm/jit.rs, docs/jit.md "Browser") ----------------------
// A band the engine could run compiled but for which no instance is registered yet reports
// `jit.state: 'pending'`: the worker asks for the module's bytes, compiles them without blocking
// (WebAssembly.compile), registers an instance, and says `jit-ready` so the page draws again.

/** Compiled shader modules kept, by the hash of their bytes (the oldest is dropped first). */
const MODULES_KEPT = 16;
/** @type {Map<string, WebAssembly.Module>} */
const modules = new Map();
/** Modules being compiled, by key: the module once registered, or null if refused (`compileModule`). */
/** @type {Map<string, Promise<WebAssembly.Module | null>>} */
const compiling = new Map();
/** Why the browser refused a module, by key (as bounded as the cache). */
/** @type {Map<string, string>} */
const refused = new Map();

/**
 * @param {string} key
 * @param {string} reason
 */
function refuse(key, reason) {
  if (refused.size >= MODULES_KEPT) refused.delete(/** @type {string} */ (refused.keys().next().value));
  refused.set(key, reason);
}

/**
 * Keeps a compiled module (newest last) and registers an instance of it with the engine;
 * whether the engine took it (else the shader is marked refused, with why).
 * @param {string} key
 * @param {WebAssembly.Module} module
 */
function useModule(key, module) {
  modules.delete(key);
  modules.set(key, module);
  while (modules.size > MODULES_KEPT) {
    const oldest = /** @type {string} */ (modules.keys().next().value);
    modules.delete(oldest);
    engine.jitForget(oldest);
  }
  try {
    // The module's imports are the engine's own raw exports (jit::imports): SIN and the other
    // libm formulas give the interpreter's bits.
    if (engine.jitRegister(key, new WebAssembly.Instance(module, engine.jitImports() ?? undefined))) return true;
    refuse(key, 'the engine did not take the compiled module (over its memory limit)');
  } catch (err) {
    refuse(key, `the compiled module could not be instantiated (${err?.message ?? err})`);
  }
  modules.delete(key);
  return false;
}

/**
 * Compiles a generated module without blocking and registers it (`useModule`), once per key
 * however many ask while it compiles. Resolves to the module, or null when the browser or the
 * engine refused it (then marked refused, with why).
 * @param {string} key
 * @param {BufferSource} bytes  the engine's `jitModule(…).bytes`
 */
function compileModule(key, bytes) {
  let pending = compiling.get(key);
  if (!pending) {
    pending = WebAssembly.compile(bytes).then((module) => (useModule(key, module) ? module : null), (/** @type {any} */ err) => {
      refuse(key, `the browser refused the generated module (${err?.message ?? err})`);
      return null;
    }).finally(() => compiling.delete(key));
    compiling.set(key, pending);
  }
  return pending;
}

/**
 * After a band: starts making the module of a shader that waits for one. Returns the `jit`
 * report to send (a module the browser refused turns `pending` into `refused`).
 * @param {any} req
 * @param {any} jit
 */
function afterBand(req, jit) {
  if (!jit || jit.state !== 'pending' || typeof engine.jitModule !== 'function') return jit;
  const key = jit.key;
  if (refused.has(key)) return { ...jit, state: 'refused', reason: refused.get(key) };
  const cached = modules.get(key);
  if (cached) {
    if (useModule(key, cached)) self.postMessage({ type: 'jit-ready', key });
    return jit;
  }
  if (compiling.has(key)) return jit;
  const started = performance.now();
  const generated = engine.jitModule(req.fs, req.vs ?? null, options(req));
  if (!generated.ok) return { ...jit, state: 'refused', reason: generated.reason };
  compileModule(key, generated.bytes).then((module) => {
    // The pool hands the module to the other workers (a module is shared, not compiled again).
    if (module) self.postMessage({ type: 'jit-ready', key, module, codegenMs: generated.ms, ms: performance.now() - started });
    else self.postMessage({ type: 'jit-ready', key, refused: true });
  });
  return jit;
}

/**
 * Before the inspector's "each engine" panel runs a quad compiled in this worker: compiles and
 * registers the module of `req`'s shaders if this worker has none yet. The canvas may have been
 * drawn by the interpreter, or by other workers (this one may be a fresh replacement for a worker
 * that failed), and the panel is about every engine, whichever draws the canvas. A shader the
 * compiling tier cannot run is left alone: the panel then says why.
 * @param {any} req
 */
async function compiledReady(req) {
  if (typeof engine.jitModule !== 'function') return;
  const generated = engine.jitModule(req.fs, req.vs ?? null, options(req));
  if (!generated.ok || modules.has(generated.key) || refused.has(generated.key)) return;
  await compileModule(generated.key, generated.bytes);
}

/**
 * Renders rows [top, bottom) (row 0 = top of the picture) with the engine's
 * `render(fsText, vsText | null, options)`; the result holds RGBA8 bytes of those rows, top row
 * first, and the diagnostics (each with its `source`: fragment, vertex or render).
 */
function renderBand(req, into = /** @type {Uint8Array | null} */ (null)) {
  // renderPage takes textures as JSON descriptions (mip levels, cube faces, sampler state).
  const draw = typeof engine.renderPage === 'function' ? engine.renderPage : engine.render;
  // `into`: the array the page handed back (render-pool.js); the engine copies the band's
  // pixels into it when its size fits (`pixelsInto`).
  return draw(req.fs, req.vs ?? null, into ? { ...options(req), pixelsInto: into } : options(req));
}

/**
 * A shader for `warmUp`: a little of what most first frames run (arithmetic, a libm call, a
 * branch, the fast kernels and the general path).
 */
const WARM_UP_SHADER = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[15][0..1]
DCL TEMP[0..1]
IMM[0] FLT32 { 6.2832, 0.5000, 0.2000, 1.0000 }
  0: MAD TEMP[0], IN[0], IMM[0].xxxx, CONST[15][1].xxxx
  1: COS TEMP[1].x, TEMP[0].xxxx
  2: FSLT TEMP[1].y, TEMP[1].xxxx, IMM[0].yyyy
  3: UIF TEMP[1].yyyy
  4:   MUL TEMP[0], -TEMP[0], IMM[0].zzzz
  5: ELSE
  6:   DP3_SAT TEMP[0].w, TEMP[0], |TEMP[1]|
  7: ENDIF
  8: MOV OUT[0], TEMP[0]
  9: END
`;

/**
 * Draws one small frame and throws it away. A browser compiles a WebAssembly function the first
 * time it is called, on its baseline tier: without this, the page's first frame would pay for
 * compiling most of the engine (about 100 ms of a cold start; docs/perf-log.md). The compiled
 * code belongs to the module, so every worker and the page gain from it.
 */
function warmUp() {
  try {
    renderBand({ fs: WARM_UP_SHADER, width: 16, height: 16, engine: 'interpreter', builtins: { time: 0 } });
  } catch {
    // Only a head start: a failure here shows again, and is reported, with the first real band.
  }
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
  // The Compare mode (compare-panel.js): `tgsi diff` of two shaders.
  if (msg.type === 'compare') return engine.compareShaders(req.a, req.b, req.options);
  // The inspector's "each engine" panel: the quad in the interpreter, compiled and AGAL.
  if (msg.type === 'backends') return engine.pixelBackends(req.fs, req.vs ?? null, options(req), msg.x, msg.y);
  return engine.probeFrame(req.fs, req.vs ?? null, options(req), msg.watch ?? null);
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'jit-module') {
    // Another worker compiled it.
    await ready;
    if (!modules.has(msg.key)) useModule(msg.key, msg.module);
    return;
  }
  if (msg.type === 'init') {
    const started = init({ module_or_path: msg.module }).then(() => {
      if (msg.warm) warmUp();
      return true;
    });
    instantiated(started);
    try {
      await started;
      self.postMessage({ type: 'ready' });
    } catch (err) {
      self.postMessage({ type: 'failed', message: String(err?.message ?? err) });
    }
    return;
  }
  if (['trace', 'probe', 'vertex', 'vertices', 'primitives', 'compute', 'compare', 'backends'].includes(msg.type)) {
    await ready;
    try {
      if (msg.type === 'backends') await compiledReady(msg.request);
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
  // Wall-clock times (ms since the epoch, comparable with the page's) of the band's arrival
  // here and of its answer, for the page's account of where a frame's time goes.
  const receivedAt = performance.timeOrigin + start;
  try {
    const result = renderBand(msg.request, msg.spare instanceof ArrayBuffer ? new Uint8Array(msg.spare) : null);
    const pixels = result.pixels instanceof Uint8Array ? result.pixels : new Uint8Array(result.pixels ?? []);
    const jit = afterBand(msg.request, result.jit ?? null);
    self.postMessage({
      type: 'band',
      id: msg.id,
      rows: msg.request.rows,
      pixels,
      diagnostics: result.diagnostics ?? [],
      stats: result.stats ?? null,
      // Which engine drew the band's fragments, and the compiling tier's state for its shader.
      engine: result.engine ?? 'interpreter',
      jit,
      // Which buffers the frame has (targets.js shows a tab for each).
      targets: { count: result.targets ?? 1, depthTest: Boolean(result.depthTest), writesDepth: Boolean(result.writesDepth), target: result.target ?? 0 },
      ms: performance.now() - start,
      receivedAt,
      answeredAt: performance.timeOrigin + performance.now(),
    }, { transfer: [pixels.buffer] });
  } catch (err) {
    // The engine never throws for bad input (diagnostics instead): an exception is a trap (out of
    // memory, …), after which this instance may be unusable, so the pool replaces the worker.
    self.postMessage({ type: 'band', id: msg.id, rows: msg.request.rows, pixels: null, error: String(err?.message ?? err), fatal: true, diagnostics: [], ms: performance.now() - start });
  }
};
