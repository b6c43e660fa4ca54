// @ts-check
// Renders frames with several Web Workers, each drawing a band of rows with its own engine
// instance, so typing never waits for a frame. The workers and their watchdog are the shared
// pool's (worker-pool.js: a worker that runs too long is replaced, so an infinite loop is
// reported and the page stays responsive); this module splits frames into bands, abandons a slow
// frame for a newer edit and draws a frame again once after a worker failed.

import { WATCHDOG_MS, WorkerPool } from './worker-pool.js';
/**
 * A frame still drawing this long after a newer one was asked for is abandoned (its workers are
 * replaced) rather than awaited: an edit never waits behind a slow frame of the old text.
 */
export const ABANDON_AFTER_MS = 400;
/**
 * Seconds after which the engine stops a band by itself (X010, keeping what was drawn until
 * then). `Worker.terminate` does not end a worker in the middle of an engine call in every
 * browser (WebKitGTK lets the WebAssembly run on, and new workers then barely run beside it),
 * so an abandoned frame ends on its own within this, well before the watchdog.
 */
export const FRAME_TIME_LIMIT_S = 4;

/**
 * Whether two frame requests draw the same thing but for the built-in uniforms (time, mouse).
 * @param {any} a
 * @param {any} b
 */
function sameInputs(a, b) {
  return a.fs === b.fs && a.vs === b.vs && a.gs === b.gs && a.mesh === b.mesh && a.width === b.width && a.height === b.height
    && a.vertices === b.vertices
    && JSON.stringify([a.constants, a.vsConstants, a.fsConstants, a.gsConstants]) === JSON.stringify([b.constants, b.vsConstants, b.fsConstants, b.gsConstants])
    && a.textures?.length === b.textures?.length
    && (a.textures ?? []).every((/** @type {any} */ t, /** @type {number} */ i) => t.unit === b.textures[i].unit && t.description === b.textures[i].description);
}

export class RenderPool {
  /**
   * @param {WebAssembly.Module | Promise<WebAssembly.Module>} module the compiled engine, or its
   *   compilation: the workers start at once and get it when it is ready (boot.js)
   * @param {number} count number of workers
   */
  constructor(module, count) {
    this.module = Promise.resolve(module);
    this.count = Math.max(1, count);
    /** Frame numbers (a retried frame keeps its request, not its number). */
    this.nextId = 1;
    this.busy = null;
    this.pending = null;
    /** Frames abandoned for a newer edit. */
    this.abandoned = 0;
    /** Workers replaced after they failed. */
    this.replaced = 0;
    /**
     * Until when (performance.now) the workers of the last abandoned frame may still be drawing
     * it, if the browser did not end them: the frame's start plus its time limit.
     */
    this.abandonedUntil = 0;
    /** Frames drawn again on fresh workers after a worker failed while drawing them. */
    this.retried = 0;
    /**
     * The two pictures frames are drawn into (`picture`): the one the last frame resolved with,
     * and a spare that the next frame is drawn into. A new `ImageData` for every frame cost the
     * page's thread about half a millisecond a frame at 512x512 (its fresh memory faulted in
     * while the bands were copied into it).
     * @type {ImageData | null}
     */
    this.shown = null;
    /** @type {ImageData | null} */
    this.spare = null;
    /**
     * The buffer each worker's last band came in, by worker: sent back with its next band, the
     * worker's engine copies that band's pixels into it (`pixelsInto`) instead of into a new
     * array, whose fresh half megabyte cost a 512x256 band about 0.24 ms in Chromium
     * (docs/perf-log.md, "a band's pixels into the array of the band before").
     * @type {(ArrayBuffer | null)[]}
     */
    this.bandBuffers = [];
    /** Set by tests: the first band of this many next frames (retries too) makes its worker fail. */
    this.crashNext = 0;
    /** The frame in flight's reaction to a failed worker. @type {((message: string) => void) | null} */
    this.onWorkerError = null;
    /**
     * Called when a worker has a compiled shader module ready (or the browser refused one): a
     * frame the interpreter drew while it was compiled can be drawn again.
     * @type {((key: string) => void) | null}
     */
    this.onJitReady = null;
    this.pool = new WorkerPool(() => {
      const worker = new Worker(new URL('./render-worker.js', import.meta.url), { type: 'module' });
      // The first worker started warms the engine up while the page is still being built. Jobs
      // sent before the module arrives wait in the worker for its instance.
      const warm = this.pool.workers.length === 0;
      // A failed compilation is the page's to report (loadEngine): the worker never starts.
      this.module.then((module) => worker.postMessage({ type: 'init', module, warm }), () => {});
      return worker;
    }, {
      onMessage: (worker, msg) => {
        if (msg.type === 'ready') performance.mark('worker-ready');
        if (msg.type !== 'jit-ready') return;
        // A compiled shader module goes to every other worker, so each shader compiles once.
        if (msg.module) {
          for (const w of this.workers) if (w !== worker) w.postMessage({ type: 'jit-module', key: msg.key, module: msg.module });
        }
        this.onJitReady?.(msg.key);
      },
      onFailure: (_worker, message) => {
        console.warn('TGSI Playground: a render worker failed', message);
        this.onWorkerError?.(message);
      },
    });
    for (let i = 0; i < this.count; i += 1) this.pool.add();
  }

  /** The workers, band 0's first. */
  get workers() {
    return this.pool.workers;
  }

  /**
   * The picture to draw a frame of this size into: the spare (a new one if it has another
   * size). The picture a frame resolves with becomes `shown` and the one shown before becomes
   * the spare (`finish`), so a picture is not drawn into until a newer frame has resolved with
   * another (its consumer copies it at once: putImageData); a retried or abandoned frame only
   * ever takes the spare. Every pixel of it is written by the frame's bands, or the frame
   * resolves without an image.
   * @param {number} width
   * @param {number} height
   */
  picture(width, height) {
    if (this.spare?.width !== width || this.spare.height !== height) this.spare = new ImageData(width, height);
    return this.spare;
  }

  /** Replaces every worker (after a stop or a failure): a stuck one cannot be interrupted. */
  restart() {
    this.pool.restart();
  }

  /**
   * Renders one frame; resolves to `{image: ImageData|null, diagnostics, ms, stopped, error}`.
   * A request made while a frame is being drawn replaces any earlier waiting request: only
   * the newest is drawn next, and the superseded ones resolve with `superseded: true`.
   * The image is the pool's (`picture`): once a newer frame has resolved, it may be drawn into
   * again, so copy it out (putImageData) before awaiting another frame.
   */
  render(request) {
    return new Promise((resolve) => {
      if (this.busy) {
        this.pending?.resolve({ superseded: true });
        this.pending = { request, resolve };
        // An animation frame (same shaders, new time) waits its turn; an edit does not.
        if (!sameInputs(this.busy.request, request)) {
          const waited = performance.now() - this.busy.started;
          if (waited >= ABANDON_AFTER_MS) this.busy.abandon();
          else this.busy.abandonTimer ??= setTimeout(() => this.busy?.abandon(), ABANDON_AFTER_MS - waited);
        }
        return;
      }
      this.start(request, resolve);
    });
  }

  /**
   * The inspector's calls, answered by the first worker on the same prepared job as its band
   * of the frame: `trace` (args `{x, y}`, y from the top) or `probe` (args `{watch}`).
   * Resolves to the engine's result, or `{ok: false, error}` if the worker failed or took
   * longer than the watchdog allows.
   * @param {'trace' | 'probe' | 'vertex' | 'vertices' | 'primitives' | 'compute' | 'compare' | 'backends'} kind
   * @param {any} request
   * @param {any} args
   * @returns {Promise<any>}
   */
  async inspect(kind, request, args) {
    const end = await this.pool.send(0, { type: kind, request, ...args });
    if ('answer' in end) return end.answer.result ?? { ok: false, error: end.answer.error, diagnostics: [] };
    const error = 'stopped' in end ? `inspecting was stopped after ${WATCHDOG_MS / 1000} s`
      : 'failed' in end ? `the worker failed (${end.failed})` : 'the worker was replaced before it answered';
    return { ok: false, error, diagnostics: [] };
  }

  /**
   * Draws `request`. A frame whose worker failed (an uncaught error, or a trap in the engine:
   * rare, e.g. WebKitGTK's, docs/jit.md "Not done yet") is drawn once more on fresh workers
   * (`attempt` 1) before the failure is reported, unless a newer request is waiting.
   * @param {any} request
   * @param {(result: any) => void} resolve
   * @param {number} [attempt]
   */
  start(request, resolve, attempt = 0) {
    const id = this.nextId++;
    const started = performance.now();
    const { width, height } = request;
    const bands = Math.min(this.count, height);
    const per = Math.ceil(height / bands);
    /** The frame's picture, made once the bands are asked for (the workers draw meanwhile). */
    let image = /** @type {ImageData | null} */ (null);
    const diagnostics = [];
    let remaining = bands;
    let error = null;
    let failed = false;
    let fatal = false;
    /** The frame's render targets, as the first band reports them. */
    let targets = null;
    /** Bands the compiled module drew, and the compiling tier's report of the first band. */
    let compiledBands = 0;
    /** The slowest band's time in its worker (the engine's part of the frame, bands side by side). */
    let engineMs = 0;
    /**
     * Where the rest of the frame went (ms, the slowest band's for the hops): from the page's
     * post to the band's start in its worker, from the worker's answer to its arrival here,
     * and copying the bands into the frame's picture.
     */
    const parts = { toWorker: 0, back: 0, stitch: 0 };
    const now = () => performance.timeOrigin + performance.now();
    /**
     * Bands with no fragment to shade although the module was ready (no triangle reaches their
     * rows): neither engine drew them, so they do not make the frame the interpreter's.
     */
    let idleBands = 0;
    /**
     * Bands with quads of draw chunks inside the view, which the interpreter shades flushing
     * denormals as softpipe does (the compiled module does not flush).
     */
    let flushedBands = 0;
    /** @type {any} */
    let jit = null;
    /** Whether this attempt has ended: how its bands' jobs end from then on does not matter. */
    let closed = false;
    /** Ends this attempt. */
    const close = () => {
      closed = true;
      clearTimeout(this.busy?.abandonTimer);
      this.onWorkerError = null;
      this.busy = null;
    };
    /** After a failed worker: fresh workers, and the same frame again if this was its first try. */
    const retried = () => {
      this.replaced += 1;
      this.restart();
      if (attempt > 0 || this.pending) return false;
      close();
      this.retried += 1;
      this.start(request, resolve, attempt + 1);
      return true;
    };
    const finish = (result) => {
      close();
      if (result.image) [this.shown, this.spare] = [result.image, this.shown];
      resolve(result);
      const next = this.pending;
      this.pending = null;
      if (next) this.start(next.request, next.resolve);
    };
    // Time spent beside an abandoned frame's workers that are still drawing is not this frame's.
    const grace = Math.max(0, this.abandonedUntil - started);
    this.onWorkerError = (message) => {
      if (this.busy?.id !== id) return;
      if (retried()) return;
      finish({ image: null, diagnostics: [], ms: performance.now() - started, stopped: false,
        error: `a render worker failed (${message}); it was replaced, edit or press Play to draw again` });
    };
    const crash = this.crashNext > 0;
    if (crash) this.crashNext -= 1;
    this.busy = {
      id, started, request, abandonTimer: null,
      /** A newer frame is waiting and this one is slow: stop it and start that one. */
      abandon: () => {
        if (this.busy?.id !== id || !this.pending) return;
        this.abandoned += 1;
        this.abandonedUntil = started + FRAME_TIME_LIMIT_S * 1000;
        this.restart();
        finish({ superseded: true, abandoned: true });
      },
    };
    for (let b = 0; b < bands; b += 1) {
      const top = b * per;
      const bottom = Math.min(height, top + per);
      const spare = this.bandBuffers[b] ?? null;
      this.bandBuffers[b] = null;
      const band = { type: 'render', request: { ...request, rows: [top, bottom], bands, timeLimit: FRAME_TIME_LIMIT_S, crashForTest: crash && b === 0 }, spare };
      const postedAt = now();
      this.pool.send(b, band, { limitMs: WATCHDOG_MS + grace, transfer: spare ? [spare] : [] }).then((end) => {
        if (closed) return;
        if ('stopped' in end) {
          // The watchdog replaced this band's worker; the others may be as stuck.
          this.restart();
          finish({ image: null, diagnostics: [], ms: performance.now() - started, stopped: true,
            error: `rendering was stopped after ${WATCHDOG_MS / 1000} s (is there an endless loop?)` });
          return;
        }
        // A failed worker is the failure hook's (onWorkerError); a replaced one, a restart's.
        if (!('answer' in end) || end.answer.type !== 'band') return;
        const msg = end.answer;
        if (msg.error) { error ??= msg.error; failed = true; }
        // The engine threw (a trap: out of memory, …): its instance may be unusable.
        if (msg.fatal) fatal = true;
        targets ??= msg.targets ?? null;
        if (Number.isFinite(msg.ms)) engineMs = Math.max(engineMs, msg.ms);
        if (Number.isFinite(msg.receivedAt)) parts.toWorker = Math.max(parts.toWorker, msg.receivedAt - postedAt);
        if (Number.isFinite(msg.answeredAt)) parts.back = Math.max(parts.back, now() - msg.answeredAt);
        const flushed = (msg.jit?.flushedQuads ?? 0) > 0;
        if (flushed) flushedBands += 1;
        if (msg.engine === 'compiled' && !flushed) compiledBands += 1;
        else if (msg.jit?.state === 'ready' && msg.jit.compiled === 0 && msg.jit.interpreted === 0 && !flushed) idleBands += 1;
        if (msg.jit && (!jit || msg.jit.state === 'refused')) jit = msg.jit;
        const copyStart = performance.now();
        if (image && msg.pixels && msg.pixels.length === (msg.rows[1] - msg.rows[0]) * width * 4) {
          image.data.set(msg.pixels, msg.rows[0] * width * 4);
          if (msg.pixels.byteOffset === 0 && msg.pixels.byteLength === msg.pixels.buffer.byteLength) this.bandBuffers[b] = msg.pixels.buffer;
        } else if (!msg.error) {
          failed = true;
        }
        parts.stitch += performance.now() - copyStart;
        // Every band reports the same shader diagnostics: keep one copy.
        if (b === 0 || diagnostics.length === 0) {
          for (const d of msg.diagnostics ?? []) {
            if (!diagnostics.some((e) => e.code === d.code && e.line === d.line && e.column === d.column && e.source === d.source)) diagnostics.push(d);
          }
        }
        remaining -= 1;
        if (remaining === 0) {
          if (fatal && retried()) return;
          // Which engine drew the frame: "compiled" when every band with fragments to shade ran
          // the compiled module.
          const compiled = compiledBands > 0 && compiledBands + idleBands === bands;
          const engine = { name: compiled ? 'compiled' : 'interpreter', compiledBands, flushedBands, bands, jit };
          finish({ image: failed ? null : image, diagnostics, ms: performance.now() - started, engineMs, parts, stopped: false, error, targets, engine });
        }
      });
    }
    // (No band's answer can arrive before this code has run to its end.)
    image = this.picture(width, height);
  }
}
