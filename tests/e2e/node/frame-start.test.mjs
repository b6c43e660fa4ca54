// The playing page's wait before it asks for a picture (web/frame-start.js), by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPOSITOR_MS, REFRESH_MARGIN_MS, nextFrameDelay } from '../../../web/frame-start.js';

test('a picture ready long before its refresh lets the next frame wait for the compositor', () => {
  assert.equal(COMPOSITOR_MS, 4);
  assert.equal(REFRESH_MARGIN_MS, 3);
  // The first frame after Play: the last picture is long done (100 ms spare): 0 + 100 - 3, at most 4.
  assert.equal(nextFrameDelay(0, 100), 4);
  // Waited 4 ms, ready 5 ms before the refresh: 4 + 5 - 3 = 6, at most 4.
  assert.equal(nextFrameDelay(4, 5), 4);
  // Waited 1 ms, ready 4.5 ms before: 1 + 4.5 - 3 = 2.5.
  assert.equal(nextFrameDelay(1, 4.5), 2.5);
});

test('a picture ready with less than the margin to spare shortens the wait', () => {
  // Waited 4 ms, ready 1 ms before the refresh: 4 + 1 - 3 = 2.
  assert.equal(nextFrameDelay(4, 1), 2);
  // Waited 1 ms, ready 0.5 ms before: 1 + 0.5 - 3 < 0, so none.
  assert.equal(nextFrameDelay(1, 0.5), 0);
  // Ready only as the refresh began: 2 + 0 - 3 < 0.
  assert.equal(nextFrameDelay(2, 0), 0);
});
