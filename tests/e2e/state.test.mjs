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

test('every wrap mode survives a link, unknown ones are dropped', async () => {
  for (const wrap of ['border', 'mirror-clamp', 'mirror-edge', 'mirror-border', 'gl-clamp']) {
    const state = { ...defaultState(), textures: { 0: { name: 'checker', wrap } } };
    assert.deepEqual(await decodeState(await encodeState(state)), state, wrap);
  }
  const state = await decodeState(await linkOf(JSON.stringify({ textures: { 0: { wrap: 'mirror_clamp' } } })));
  assert.deepEqual(state?.textures, { 0: {} }, 'the unknown wrap word is dropped');
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

test('generated fragments and JSON never throw and always give a state of the right shape', async () => {
  // A seeded generator (xorshift32), so a failure can be replayed.
  let seed = 0x9e3779b9;
  const next = () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed; };
  const pick = (list) => list[next() % list.length];
  const values = [null, true, 0, -1, 1e309, 'x', '<b>', [], {}, [1, 2], { a: 1 }, 'fullscreen', 256, '0:0', NaN];
  const randomJson = (depth = 0) => {
    if (depth > 3 || next() % 3 === 0) return pick(values);
    const keys = ['fs', 'vs', 'useVs', 'mesh', 'size', 'constants', 'textures', 'example', '0:1', '3', 'name', 'wrap', '__proto__'];
    const o = {};
    for (let i = next() % 6; i > 0; i -= 1) o[pick(keys)] = randomJson(depth + 1);
    return next() % 5 === 0 ? [o] : o;
  };
  const shapeOk = (s) => s === null || (typeof s.fs === 'string' && typeof s.vs === 'string' && typeof s.useVs === 'boolean'
    && [128, 256, 512, 1024].includes(s.size) && Object.values(s.constants).every((v) => Array.isArray(v) && v.every(Number.isFinite))
    && Object.values(s.textures).every((b) => b && typeof b === 'object'));
  for (let i = 0; i < 600; i += 1) {
    const state = await decodeState(await linkOf(JSON.stringify(randomJson())));
    assert.ok(shapeOk(state), JSON.stringify(state));
    const chars = Array.from({ length: next() % 80 }, () => 'AZaz09-_=.%s#'[next() % 13]).join('');
    assert.ok(shapeOk(await decodeState(`s=1.${chars}`)));
  }
});
