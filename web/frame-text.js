// @ts-check
// Text that changes with every animation frame: the frame time and the built-in uniforms'
// values. Writing it 60 times a second made the browser lay out the whole page for every frame
// (a changed line of text can change the size of what holds it): in Chromium about a third of
// the page thread's time while playing 01_arith at 512x512 (docs/perf-log.md), time that the
// render workers then wait for on a 2-core machine. Nobody reads a number that changes 60 times
// a second, so while frames follow each other the text is written at most every
// `FRAME_TEXT_INTERVAL_MS`; the newest values always land (a trailing write), and when frames
// do not follow each other (paused, a single redraw after an edit) they are written at once.

/** How often the frame's numbers are written while playing (10 times a second). */
export const FRAME_TEXT_INTERVAL_MS = 100;

export class FrameText {
  /**
   * @param {() => boolean} playing whether frames follow each other (the writes are spaced)
   * @param {number} [intervalMs]
   */
  constructor(playing, intervalMs = FRAME_TEXT_INTERVAL_MS) {
    this.playing = playing;
    this.intervalMs = intervalMs;
    /** The newest write of each key, not yet made. @type {Map<string, () => void>} */
    this.queued = new Map();
    /** When the queued writes were last made (performance.now). */
    this.writtenAt = -Infinity;
    this.timer = 0;
  }

  /**
   * Writes `write` now or at the next slot; a later write of the same `key` replaces it.
   * @param {string} key
   * @param {() => void} write
   */
  set(key, write) {
    this.queued.set(key, write);
    const wait = this.playing() ? this.writtenAt + this.intervalMs - performance.now() : 0;
    if (wait <= 0) this.flush();
    else if (!this.timer) this.timer = window.setTimeout(() => this.flush(), wait);
  }

  /**
   * Drops the queued write of `key` (its text is out of date: the caller writes another one
   * itself).
   * @param {string} key
   */
  cancel(key) {
    this.queued.delete(key);
  }

  /** Makes every queued write. */
  flush() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.writtenAt = performance.now();
    const writes = [...this.queued.values()];
    this.queued.clear();
    for (const write of writes) write();
  }
}
