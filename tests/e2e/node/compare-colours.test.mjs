// The Compare mode's map colours (web/compare-colours.js): grey for the same, yellow for one ulp
// to red for 2^31 ulps, magenta where a sign, an infinity or a NaN differs, and redder the
// farther apart (the ramp's ends written by hand).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAR, mapColour } from '../../../web/compare-colours.js';

test('the map: grey the same, yellow to red by ulps, magenta for a sign or NaN', () => {
  assert.deepEqual(mapColour(0), [58, 61, 68]);
  assert.deepEqual(mapColour(1), [255, 220, 0]);
  assert.deepEqual(mapColour(2 ** 31), [220, 30, 30]);
  assert.deepEqual(mapColour(FAR), [230, 0, 230]);
  assert.equal(FAR, 2 ** 32 - 1, 'diff::values::distance gives u32::MAX for a sign, an infinity or a NaN');
  let green = 256;
  for (let e = 0; e <= 31; e += 1) {
    const [, g] = mapColour(2 ** e);
    assert.ok(g < green, `2^${e} ulps is not redder than 2^${e - 1}`);
    green = g;
  }
});
