// The page's built-in textures made without a browser (web/textures.js is plain data code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTexture } from '../../../web/textures.js';

test('the noise texture follows the 32-bit LCG seed = seed * 1103515245 + 12345 (mod 2^32)', () => {
  const noise = makeTexture('noise');
  const { width, height, data } = noise.levels[0];
  assert.equal(width * height * 4, data.length);
  // The same sequence in exact integer arithmetic (BigInt), texel by texel in row order:
  // grey = the top 8 bits of each new seed, alpha 255.
  let seed = 12345n;
  for (let i = 0; i < width * height; i += 1) {
    seed = (seed * 1103515245n + 12345n) % 4294967296n;
    const v = Number(seed >> 24n);
    assert.deepEqual([...data.subarray(i * 4, i * 4 + 4)], [v, v, v, 255], `texel ${i}`);
  }
});

test('the checker texture alternates its two colours', () => {
  const { width, data } = makeTexture('checker').levels[0];
  const at = (x, y) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)];
  assert.deepEqual(at(0, 0), [40, 40, 48, 255]);
  assert.deepEqual(at(1, 0), [240, 240, 240, 255]);
  assert.deepEqual(at(1, 1), [40, 40, 48, 255]);
});
