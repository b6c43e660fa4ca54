// The playing page's wait before it asks for a picture (web/frame-start.js), by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPOSITOR_MS, FrameStart, REFRESH_MARGIN_MS, nextFrameDelay } from '../../../web/frame-start.js';

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

test('after a missed refresh the next frame starts at once, then waits again', () => {
  const start = new FrameStart();
  // A picture shown 100 ms before this animation frame: the full wait, 4 ms.
  start.pictureAt = 0;
  assert.equal(start.next(100), 4);
  // The next animation frame began while that frame was still drawing: no wait, however long
  // ago the last picture was shown.
  start.missedRefresh();
  assert.equal(start.next(200), 0);
  // Then from that 0: ready 10 ms before the next animation frame, 0 + 10 - 8 = 2.
  start.pictureAt = 290;
  assert.equal(start.next(300), 2);
});
