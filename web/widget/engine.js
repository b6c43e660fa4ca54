// @ts-check
// The widget's engine: one per page, shared by every <tgsi-shader> on it. The wasm module is
// fetched and compiled once; a small pool of workers draws frames for all widgets, taking the
// widgets in turn (first come, first served, one waiting frame per widget: a newer request
// replaces the older one). The workers and their watchdog (a worker that runs too long is
// replaced) are the shared pool's, as the page's (../worker-pool.js).
//
// Two flavours: the lean engine (rendering and checking, small download) and the full one
// (inspector, AGAL export, the editor's vocabulary), loaded only when a widget needs it. The
// functions exported at the end are the engine API without the element.

import { FULL_ENGINE, LEAN_ENGINE, WORKER } from './locations.js';
import { WATCHDOG_MS, WorkerPool, machineCores } from '../worker-pool.js';

export { WATCHDOG_MS };

/** Workers per engine: enough to keep a page of widgets moving, few enough to stay light. */
const POOL_SIZE = Math.max(1, Math.min(2, machineCores() - 1));

/**
 * @typedef {import('../engine-options.js').FrameRequest & {fs: string, vs?: string | null}} FrameRequest
 * @typedef {{kind: string, request: FrameRequest, extra: Record<string, any>,
 *   resolve: (result: any) => void}} Task
 */

class SharedEngine {
  /** @param {string} glue URL of the engine's wasm-bindgen module */
  constructor(glue) {
    this.glue = glue;
    this.wasmUrl = new URL('tgsi_bg.wasm', glue).href;
    /** @type {Promise<WebAssembly.Module> | null} */ this.compiled = null;
    /** @type {Promise<any> | null} */ this.exports = null;
    /** The module the workers start from, once compiled. @type {WebAssembly.Module | null} */
    this.ready = null;
    /** The workers, started as widgets ask for frames. */
    this.pool = new WorkerPool(() => {
      const worker = new Worker(workerUrl(), { type: 'module' });
      worker.postMessage({ type: 'init', glue: this.glue, module: this.ready });
      return worker;
    });
    /** Workers being started (the module is compiled first). */
    this.starting = 0;
    /** Waiting tasks, one per owner, oldest first. @type {Map<object, Task>} */
    this.waiting = new Map();
    /** The worker that last served an owner: its kept job makes the next frame cheap. */
    this.affinity = new WeakMap();
  }

  /** The compiled module (fetched once; also when the server sends the wrong MIME type). */
  module() {
    this.compiled ??= fetch(this.wasmUrl).then(async (res) => {
      if (!res.ok) throw new Error(`the engine ${this.wasmUrl} could not be loaded (HTTP ${res.status})`);
      if ((res.headers.get('content-type') ?? '').startsWith('application/wasm')) {
        return WebAssembly.compileStreaming(res);
      }
      return WebAssembly.compile(await res.arrayBuffer());
    });
    return this.compiled;
  }

  /** The engine's exports on the main thread, for quick calls (checking, AGAL, vocabulary). */
  api() {
    this.exports ??= Promise.all([import(this.glue), this.module()]).then(async ([engine, module]) => {
      await engine.default({ module_or_path: module });
      return engine;
    });
    return this.exports;
  }


  /**
   * Asks for a frame (`kind` 'render', `extra` = {spare}: an ArrayBuffer the frame may be drawn
   * into) or a pixel's trace ('trace', `extra` = {x, y}) for
   * `owner`. Resolves to the engine's result, `{superseded: true}` when a newer request of the
   * same owner replaced it before it started, or `{ok: false, error}`.
   * @param {object} owner
   * @param {string} kind
   * @param {FrameRequest} request
   * @param {Record<string, any>} [extra]
   * @returns {Promise<any>}
   */
  run(owner, kind, request, extra = {}) {
    return new Promise((resolve) => {
      this.waiting.get(owner)?.resolve({ superseded: true });
      this.waiting.delete(owner);
      this.waiting.set(owner, { kind, request, extra, resolve });
      this.pump();
    });
  }

  /** Drops an owner's waiting task (a widget that left the page or the viewport). */
  cancel(/** @type {object} */ owner) {
    this.waiting.get(owner)?.resolve({ superseded: true });
    this.waiting.delete(owner);
  }

  async pump() {
    const workers = this.pool.workers.length + this.starting;
    if (workers < POOL_SIZE && this.waiting.size > workers) {
      this.starting += 1;
      try {
        this.ready = await this.module();
      } catch (err) {
        for (const task of this.waiting.values()) task.resolve({ ok: false, error: String(/** @type {any} */ (err)?.message ?? err), diagnostics: [] });
        this.waiting.clear();
        return;
      } finally {
        this.starting -= 1;
      }
      this.pool.add();
    }
    for (const [owner, task] of this.waiting) {
      const idle = this.pool.workers.map((_, i) => i).filter((i) => !this.pool.busy(i));
      if (idle.length === 0) return;
      const preferred = idle.find((i) => i === this.affinity.get(owner)) ?? idle[0];
      this.waiting.delete(owner);
      this.affinity.set(owner, preferred);
      this.start(preferred, task);
    }
  }

  /** @param {number} index the worker @param {Task} task */
  async start(index, task) {
    // A spare picture (`extra.spare`, an ArrayBuffer) moves to the worker instead of being copied.
    const transfer = task.extra.spare instanceof ArrayBuffer ? [task.extra.spare] : [];
    const end = await this.pool.send(index, { type: task.kind, request: task.request, ...task.extra }, { transfer });
    if ('answer' in end) {
      task.resolve(end.answer.result ?? { ok: false, error: end.answer.error ?? 'the engine failed', diagnostics: [] });
    } else if ('stopped' in end) {
      task.resolve({ ok: false, stopped: true, diagnostics: [], error: `stopped after ${WATCHDOG_MS / 1000} s (is there an endless loop?)` });
    } else {
      task.resolve({ ok: false, error: 'failed' in end ? end.failed : 'the worker was replaced', diagnostics: [] });
    }
    this.pump();
  }
}

/** @type {string | null} */
let crossOriginWorker = null;

/**
 * The URL to start a render worker from. A page may only start a worker from its own origin, so
 * when the widget is served from another one (an embed whose module comes from the playground's
 * server), the worker is a same-origin blob: module that imports the real one; the browser
 * fetches that with CORS, like the element's own module. A page of the widget's own origin starts
 * it directly, which a `worker-src 'self'` policy allows (blob: it would not).
 * @returns {string | URL}
 */
function workerUrl() {
  if (!globalThis.location || new URL(WORKER).origin === globalThis.location.origin) return WORKER;
  crossOriginWorker ??= URL.createObjectURL(new Blob([`import ${JSON.stringify(new URL(WORKER).href)};\n`], { type: 'text/javascript' }));
  return crossOriginWorker;
}

/** @type {Map<string, SharedEngine>} */
const engines = new Map();

/**
 * The page's engine of one flavour (made on first use).
 * @param {'lean' | 'full'} flavour
 */
export function sharedEngine(flavour) {
  const glue = flavour === 'full' ? FULL_ENGINE : LEAN_ENGINE;
  let e = engines.get(glue);
  if (!e) {
    e = new SharedEngine(glue);
    engines.set(glue, e);
  }
  return e;
}

// ---- the engine API without the element -----------------------------------------------------

/**
 * Renders one frame in a worker: `{ok, width, height, pixels (RGBA8, top row first),
 * diagnostics, ms}`. Options: width, height, mesh, consts (`B:I=X,Y,Z,W` strings), textures
 * (`{unit, description}` JSON texture descriptions), time, budget.
 * @param {string} fs
 * @param {string | null} [vs]
 * @param {{width?: number, height?: number, mesh?: string, consts?: string[],
 *   textures?: {unit: number, description: string}[], time?: number, budget?: number}} [options]
 */
export function render(fs, vs = null, options = {}) {
  const { time, ...rest } = options;
  const request = { width: 256, height: 256, ...rest, builtins: { time: time ?? 0 }, fs, vs };
  return sharedEngine('lean').run({}, 'render', request);
}

/**
 * The diagnostics of a shader text (parse and validation): `[{severity, code, message, line,
 * column}]`; empty when it is correct.
 * @param {string} text
 * @returns {Promise<any[]>}
 */
export async function validate(text) {
  const engine = await sharedEngine('lean').api();
  return engine.validate(text);
}

/** The engine's version string. */
export async function version() {
  const engine = await sharedEngine('lean').api();
  return /** @type {string} */ (engine.version());
}
