// The share-link and autosave format (web/state.js) with hostile input, run in Node (the same
// CompressionStream and JSON the browsers have): a link is input from anyone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_STATE_BYTES, decodeState, defaultState, encodeState, normalizeState } from '../../web/state.js';

/** A link fragment holding exactly `text` (deflate-raw, base64url), as encodeState makes them. */
async function linkOf(text) {
  const packed = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  return `s=1.${Buffer.from(packed).toString('base64url')}`;
}

test('a state survives its link', async () => {
  const state = { ...defaultState(), fs: 'FRAG\nEND\n', size: 512, constants: { '0:1': [1, 2, 3, 4] }, textures: { 0: { name: 'noise', min: 'nearest', wrap: 'mirror', lodBias: 1.5 } } };
  assert.deepEqual(await decodeState(await encodeState(state)), state);
});

test('a link that inflates past the limit is refused without inflating it all', async () => {
  // 64 MB of spaces compress to about 64 KB; decoding stops at MAX_STATE_BYTES.
  const bomb = `{"fs":"${' '.repeat(64 * 1024 * 1024)}"}`;
  const link = await linkOf(bomb);
  assert.ok(link.length < 200_000, `link is ${link.length} characters`);
  const before = process.memoryUsage().arrayBuffers;
  assert.equal(await decodeState(link), null);
  assert.ok(process.memoryUsage().arrayBuffers - before < 4 * MAX_STATE_BYTES, 'decoding kept the inflated bytes');
});

test('malformed fields are dropped, not passed on', async () => {
  const hostile = {
    fs: 42, vs: ['x'], useVs: 'yes', mesh: '<img src=x>', size: 1e9, example: '../../etc',
    constants: { '0:0': 'not an array', '0:1': [1, 'NaN', 2], '0:2': [1, 2, 3, 4, 5], 'x:y': [1], '1:3': [0.5] },
    textures: { 0: { name: '<b>', min: 'cubic', wrap: 'clamp', lodBias: 1e9 }, 99: { name: 'noise' }, 1: 'checker', 2: { name: 'gradient' } },
    extra: { deep: true },
  };
  const state = await decodeState(await linkOf(JSON.stringify(hostile)));
  assert.deepEqual(state, { ...defaultState(), constants: { '1:3': [0.5] }, textures: { 0: { wrap: 'clamp' }, 2: { name: 'gradient' } } });
});

test('garbage is no state', async () => {
  for (const fragment of ['', '#', 's=1.', 's=1.%%%', 's=2.AAAA', 's=0.AAAA', 's=1.AAAA', `s=1.${'A'.repeat(3 * 1024 * 1024)}`, null, 12]) {
    assert.equal(await decodeState(/** @type {any} */ (fragment)), null, String(fragment).slice(0, 20));
  }
  assert.deepEqual(normalizeState(null), defaultState());
  assert.deepEqual(normalizeState('text'), defaultState());
  assert.deepEqual(await decodeState(await linkOf('[1,2,3]')), defaultState());
});
