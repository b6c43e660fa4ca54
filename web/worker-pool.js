// @ts-check
// The engine's workers, for the page and for the widgets: each worker holds its own engine
// instance. A job sent to a worker ends with the worker's answer, or, after the watchdog's time
// (an engine call cannot be interrupted), with a stop: the worker is ended and a fresh one takes
// its place. How the workers are shared is the users' part: the page splits each frame into
// bands, one per worker (render-pool.js); the widgets of a page take turns on a few workers
// (widget/engine.js). Both stop runaway work here and nowhere else.

/**
 * How long a job may run before its worker is replaced. The engine's instruction budget and a
 * band's time limit stop a runaway shader well before; this is the safety net.
 */
export const WATCHDOG_MS = 8000;

/**
 * The machine's cores as far as a page can tell, for the size of its worker pools. WebKit
 * reports 4 or 8 whatever the machine has (a fingerprinting defence: 4 stands for four cores or
 * fewer), so its 4 is read as the fewest it may stand for, 2: on a 2-core machine the page's
 * three render workers then shared two cores with the page and the compositor, and two workers
 * drew the first picture sooner and every frame at least as fast (docs/perf-log.md,
 * "WebKitGTK's render workers"). Chromium and Firefox report the machine's count.
 * @param {{hardwareConcurrency?: number, vendor?: string} | undefined} nav the `navigator`
 */
export function machineCores(nav = globalThis.navigator) {
  const reported = nav?.hardwareConcurrency || 2;
  const clamped = nav?.vendor === 'Apple Computer, Inc.' && reported <= 4;
  return clamped ? 2 : reported;
}

/**
 * A message from a worker: a job's answer carries the job's `id`.
 * @typedef {{type?: string, id?: number, [key: string]: any}} WorkerMessage
 */
/**
 * How a job ended: its worker's answer; stopped by the watchdog (the worker replaced); its
 * worker failed (an uncaught error, or an engine that could not start; the worker replaced); or
 * its worker was replaced by the pool's user meanwhile (`restart`).
 * @typedef {{answer: WorkerMessage} | {stopped: true} | {failed: string} | {replaced: true}} JobEnd
 */
/** @typedef {{worker: Worker, end: (e: JobEnd) => void, timer: any}} Job */

export class WorkerPool {
  /**
   * @param {() => Worker} start makes a worker and sends it what it needs to start its engine
   * @param {{onMessage?: (worker: Worker, msg: WorkerMessage) => void,
   *   onFailure?: (worker: Worker, message: string) => void}} [hooks] `onMessage`: a message
   *   that answers no job (e.g. a compiled shader module to share); `onFailure`: a worker failed
   *   (it is replaced after this returns)
   */
  constructor(start, hooks = {}) {
    this.start = start;
    this.hooks = hooks;
    /** @type {Worker[]} */
    this.workers = [];
    /** Jobs waiting for their answer, by id. @type {Map<number, Job>} */
    this.jobs = new Map();
    /**
     * Workers that failed with no job in flight: replaced when next sent one (replacing them at
     * once could start a worker that fails the same way, again and again).
     * @type {Set<Worker>}
     */
    this.dead = new Set();
    this.nextId = 1;
  }

  /** Starts one more worker; returns its index. */
  add() {
    this.workers.push(this.spawn());
    return this.workers.length - 1;
  }

  /** @returns {Worker} */
  spawn() {
    const worker = this.start();
    worker.onmessage = (event) => this.route(worker, event.data);
    // An uncaught failure in a worker (its script, or its engine running out of memory) ends its
    // jobs at once; the worker is replaced.
    worker.onerror = (e) => {
      e.preventDefault();
      this.failed(worker, e.message || 'unknown error');
    };
    return worker;
  }

  /**
   * @param {Worker} worker
   * @param {WorkerMessage} msg
   */
  route(worker, msg) {
    const job = typeof msg?.id === 'number' ? this.jobs.get(msg.id) : undefined;
    if (job?.worker === worker) this.settle(/** @type {number} */ (msg.id), { answer: msg });
    else if (msg?.type === 'failed') this.failed(worker, `the engine failed to start: ${msg.message}`);
    else this.hooks.onMessage?.(worker, msg);
  }

  /**
   * @param {Worker} worker
   * @param {string} message
   */
  failed(worker, message) {
    const i = this.workers.indexOf(worker);
    if (i < 0) return;
    this.hooks.onFailure?.(worker, message);
    // The hook may have replaced every worker already.
    if (this.workers[i] !== worker) return;
    if ([...this.jobs.values()].some((job) => job.worker === worker)) this.replace(i, { failed: message });
    else this.dead.add(worker);
  }

  /**
   * @param {number} id
   * @param {JobEnd} end
   */
  settle(id, end) {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    clearTimeout(job.timer);
    job.end(end);
  }

  /**
   * Sends a job to worker `index` (the message gets the job's `id`); resolves with how it ended.
   * @param {number} index
   * @param {WorkerMessage} message
   * @param {{transfer?: Transferable[], limitMs?: number}} [options] `limitMs`: the watchdog's
   *   time for this job (the default, plus any grace the user gives)
   * @returns {Promise<JobEnd>}
   */
  send(index, message, { transfer = [], limitMs = WATCHDOG_MS } = {}) {
    if (this.dead.has(this.workers[index])) this.replace(index);
    const worker = this.workers[index];
    const id = this.nextId++;
    return new Promise((end) => {
      const timer = setTimeout(() => {
        if (this.workers[index] === worker) this.replace(index, { stopped: true });
        else this.settle(id, { stopped: true });
      }, limitMs);
      this.jobs.set(id, { worker, end, timer });
      worker.postMessage({ ...message, id }, transfer);
    });
  }

  /**
   * Ends worker `index` and starts a fresh one; its jobs end with `end`.
   * @param {number} index
   * @param {JobEnd} [end]
   */
  replace(index, end = { replaced: true }) {
    const old = this.workers[index];
    if (!old) return;
    this.dead.delete(old);
    old.onmessage = null;
    old.onerror = null;
    old.terminate();
    this.workers[index] = this.spawn();
    for (const [id, job] of [...this.jobs]) if (job.worker === old) this.settle(id, end);
  }

  /** Replaces every worker (their jobs end as replaced). */
  restart() {
    for (let i = 0; i < this.workers.length; i += 1) this.replace(i);
  }

  /** Whether worker `index` has a job in flight. */
  busy(/** @type {number} */ index) {
    const worker = this.workers[index];
    for (const job of this.jobs.values()) if (job.worker === worker) return true;
    return false;
  }
}
