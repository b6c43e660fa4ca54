// The playing page's wait before it asks for a picture (web/frame-start.js), by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPOSITOR_MS, REFRESH_MARGIN_MS, nextFrameDelay } from '../../../web/frame-start.js';

test('a picture ready long before its refresh lets the next frame wait for the compositor', () => {
  assert.equal(COMPOSITOR_MS, 4);
  assert.equal(REFRESH_MARGIN_MS, 8);
  // The first frame after Play: the last picture is long done (100 ms spare): 0 + 100 - 8, at most 4.
  assert.equal(nextFrameDelay(0, 100), 4);
  // Waited 4 ms, ready 9 ms before the refresh: 4 + 9 - 8 = 5, at most 4.
  assert.equal(nextFrameDelay(4, 9), 4);
  // Waited 1 ms, ready 9.5 ms before: 1 + 9.5 - 8 = 2.5.
  assert.equal(nextFrameDelay(1, 9.5), 2.5);
});

test('a picture ready with less than the margin to spare shortens the wait', () => {
  // Waited 4 ms, ready 6 ms before the refresh: 4 + 6 - 8 = 2.
  assert.equal(nextFrameDelay(4, 6), 2);
  // A 60 Hz refresh (16.7 ms), 10 ms frames asked for at once, ready 5.7 ms before the refresh:
  // 0 + 5.7 - 8 < 0, so such a frame never waits.
  assert.equal(nextFrameDelay(0, 5.7), 0);
  // Ready only as the refresh began: 3 + 0 - 8 < 0.
  assert.equal(nextFrameDelay(3, 0), 0);
});
