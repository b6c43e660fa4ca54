// @ts-check
// When a playing page asks for its next picture. Right after an animation frame's own work
// (style, layout, paint, commit) the browser's compositor goes on for a few milliseconds drawing
// the last picture. On a 2-core machine a frame asked for at that moment had its two render
// workers share the cores with the compositor: one band waited 0.5–1.9 ms to start, and the bands
// ran slower (docs/perf-log.md, "when a playing page asks for its frame"). So the page waits up
// to `COMPOSITOR_MS` after the animation frame's work, but only out of the time the frame would
// otherwise spend waiting for the next refresh: it measures how early the last picture was
// ready before the refresh that showed it, and a picture that missed its refresh makes the next
// frame start at once.

/** How long the compositor goes on after an animation frame's own work. */
export const COMPOSITOR_MS = 4;
/**
 * Time kept free between a picture being ready and the refresh that shows it: enough that a
 * frame needing more than about half of a 60 Hz refresh interval never waits (with less, such
 * frames missed their refresh now and then: docs/perf-log.md).
 */
export const REFRESH_MARGIN_MS = 8;

/**
 * The wait before the next frame is asked for (ms), from the last one's: longer by how much more
 * than `REFRESH_MARGIN_MS` the last picture was ready before the next animation frame began
 * (`spareMs`; shorter when it was less), between 0 and `COMPOSITOR_MS`.
 * @param {number} lastDelayMs the wait before the last frame
 * @param {number} spareMs from the last picture's arrival to the animation frame now beginning
 */
export function nextFrameDelay(lastDelayMs, spareMs) {
  return Math.max(0, Math.min(COMPOSITOR_MS, lastDelayMs + spareMs - REFRESH_MARGIN_MS));
}

/** A playing page's account of its pictures, for `nextFrameDelay`. */
export class FrameStart {
  constructor() {
    /** When the last picture reached the canvas (performance.now). */
    this.pictureAt = 0;
    /** The wait before the last frame. */
    this.delay = 0;
    /** Whether an animation frame began while a frame was still drawing (it missed a refresh). */
    this.missed = false;
  }

  /** A picture reached the canvas. */
  shown() {
    this.pictureAt = performance.now();
  }

  /** An animation frame began while a frame was still drawing: that frame missed its refresh. */
  missedRefresh() {
    this.missed = true;
  }

  /**
   * The wait before asking for the frame of the animation frame that began at `now`: none after
   * a missed refresh, else `nextFrameDelay` of the time the last picture had to spare.
   * @param {number} now the animation frame's timestamp (performance.now's clock)
   */
  next(now) {
    this.delay = this.missed ? 0 : nextFrameDelay(this.delay, now - this.pictureAt);
    this.missed = false;
    return this.delay;
  }
}
