// The share-link and autosave format (web/state.js) with hostile input, run in Node (the same
// CompressionStream and JSON the browsers have): a link is input from anyone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LINK_IMAGES, MAX_LINK_IMAGE_BYTES, MAX_STATE_BYTES, MAX_VERTICES_CHARS, decodeState, defaultState, encodeState, normalizeState } from '../../../web/state.js';
import { parseWords, resourceBytes } from '../../../web/stage-state.js';

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

test('the engine switch survives a link; an unknown engine is the default, auto', async () => {
  for (const engine of ['auto', 'interpreter', 'compiled']) {
    const state = { ...defaultState(), engine };
    assert.deepEqual(await decodeState(await encodeState(state)), state, engine);
  }
  for (const engine of ['jit', '<script>', 3, null]) {
    const state = await decodeState(await linkOf(JSON.stringify({ fs: 'FRAG', engine })));
    assert.equal(state?.engine, 'auto', String(engine));
  }
});

test('malformed fields are dropped, not passed on', async () => {
  const hostile = {
    fs: 42, vs: ['x'], useVs: 'yes', mesh: '<img src=x>', size: 1e9, example: '../../../etc',
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
    const keys = ['fs', 'vs', 'useVs', 'mesh', 'size', 'constants', 'vsConstants', 'fsConstants', 'vertices', 'images', 'textures', 'example', '0:1', '3', 'name', 'wrap', 'data', 'omitted', 'bytes', '__proto__'];
    const o = {};
    for (let i = next() % 6; i > 0; i -= 1) o[pick(keys)] = randomJson(depth + 1);
    return next() % 5 === 0 ? [o] : o;
  };
  const shapeOk = (s) => s === null || (typeof s.fs === 'string' && typeof s.vs === 'string' && typeof s.useVs === 'boolean'
    && [128, 256, 512, 1024].includes(s.size) && Object.values(s.constants).every((v) => Array.isArray(v) && v.every(Number.isFinite))
    && Object.values(s.textures).every((b) => b && typeof b === 'object')
    && [s.vsConstants, s.fsConstants].every((m) => Object.values(m).every((v) => Array.isArray(v) && v.every(Number.isFinite)))
    && typeof s.vertices === 'string'
    && Object.values(s.images).every((i) => (typeof i.data === 'string' && i.data.startsWith('data:image/')) || Number.isInteger(i.omitted?.bytes)));
  for (let i = 0; i < 600; i += 1) {
    const state = await decodeState(await linkOf(JSON.stringify(randomJson())));
    assert.ok(shapeOk(state), JSON.stringify(state));
    const chars = Array.from({ length: next() % 80 }, () => 'AZaz09-_=.%s#'[next() % 13]).join('');
    assert.ok(shapeOk(await decodeState(`s=1.${chars}`)));
  }
});

// Issue 19's fields: custom vertices, per-stage constants, user images.
const PNG_URL = 'data:image/png;base64,iVBORw0KGgo=';

test('vertices, per-stage constants and images survive a link', async () => {
  const state = {
    ...defaultState(), useVs: true, mesh: 'custom', vertices: '{"attributes": []}\n',
    constants: { '0:0': [0, 0, 1, 1] }, vsConstants: { '0:0': [0.5, 0, 0, 0] }, fsConstants: { '2:7': [1, 0.2] }, gsConstants: { '1:3': [0.25] },
    images: { 0: { data: PNG_URL }, 1: { data: 'data:image/webp;base64,UklGRg==', lossy: true }, 3: { omitted: { bytes: 264_000, width: 256, height: 256 } } },
  };
  assert.deepEqual(await decodeState(await encodeState(state)), state);
});

test('malformed vertices, per-stage constants and images are dropped', async () => {
  const hostile = {
    vertices: 42,
    vsConstants: { '0:0': [1, 2, 3, 4, 5], '0:1': 'x', 'a:b': [1], '1:2': [3] },
    fsConstants: [[1, 2, 3, 4]],
    gsConstants: { '0:0': 'y', '3:1': [2, 'z'], '0:2': [7] },
    images: {
      0: { data: 'javascript:alert(1)' },
      1: { data: 'data:image/svg+xml;base64,PHN2Zz4=' },
      2: { data: 'data:image/png;base64,<script>' },
      3: { data: `data:image/png;base64,${'A'.repeat(Math.ceil(MAX_LINK_IMAGE_BYTES / 3) * 4 + 4)}` },
      4: { omitted: { bytes: -1, width: 2, height: 2 } },
      5: { omitted: { bytes: 1.5, width: 2, height: 2 } },
      6: { omitted: { bytes: 10, width: 1e9, height: 2 } },
      7: { data: PNG_URL, lossy: 'yes' },
      8: { omitted: { bytes: 100_000, width: 300, height: 200, extra: '<b>' } },
      99: { data: PNG_URL },
      x: { data: PNG_URL },
      9: 'data:image/png;base64,AAAA',
    },
  };
  const state = await decodeState(await linkOf(JSON.stringify(hostile)));
  assert.deepEqual(state, {
    ...defaultState(), vsConstants: { '1:2': [3] }, gsConstants: { '0:2': [7] },
    // A lossy flag that is not `true` is dropped, the picture kept.
    images: { 7: { data: PNG_URL }, 8: { omitted: { bytes: 100_000, width: 300, height: 200 } } },
  });
});

test('vertices longer than the limit are dropped; more pictures than the limit keep only markers past it', () => {
  assert.equal(normalizeState({ vertices: ' '.repeat(MAX_VERTICES_CHARS) }).vertices.length, MAX_VERTICES_CHARS);
  assert.equal(normalizeState({ vertices: ' '.repeat(MAX_VERTICES_CHARS + 1) }).vertices, '');
  /** @type {Record<string, any>} */
  const images = {};
  for (let unit = 0; unit < 20; unit += 1) images[unit] = unit % 2 ? { omitted: { bytes: 70_000, width: 256, height: 256 } } : { data: PNG_URL };
  const kept = normalizeState({ images }).images;
  const pictures = Object.values(kept).filter((i) => 'data' in i).length;
  const markers = Object.values(kept).filter((i) => 'omitted' in i).length;
  assert.equal(pictures, MAX_LINK_IMAGES);
  assert.equal(markers, 10);
  // The first MAX_LINK_IMAGES pictures (units 0, 2, 4, …) are the ones kept.
  assert.deepEqual(Object.keys(kept).filter((u) => 'data' in kept[u]).map(Number), [0, 2, 4, 6, 8, 10, 12, 14]);
});

test('a link leaves out vertex data over its limit and keeps the rest', async () => {
  const state = { ...defaultState(), fs: 'FRAG\nEND\n', useVs: true, mesh: 'custom', vertices: `{"note": "${'x'.repeat(MAX_VERTICES_CHARS)}"}` };
  const back = await decodeState(await encodeState(state));
  assert.equal(back?.vertices, '');
  assert.equal(back?.fs, 'FRAG\nEND\n');
  assert.equal(back?.mesh, 'custom');
});

// ---- the stage selector's fields (web/stage-state.js) ----------------------------------------

test('a state with a compute set-up and a geometry shader survives its link', async () => {
  const state = {
    ...defaultState(), stage: 'compute', gs: 'GEOM\nEND\n', cs: 'COMP\nEND\n',
    compute: { grid: [2, 3, 1], block: [16, 1, 1], shared: 256, resources: [
      { kind: 'buffer', index: 0, words: '1 2 0x10 1.5', size: 8 },
      { kind: 'atomic', index: 1, words: '', size: 1 },
      { kind: 'image', index: 2, words: '', size: 0, format: 'R8G8B8A8_UNORM', width: 8, height: 4 }] },
  };
  assert.deepEqual(await decodeState(await encodeState(state)), state);
});

test('malformed stage fields are dropped or bounded', async () => {
  const many = Array.from({ length: 40 }, (_, i) => ({ kind: 'buffer', index: i % 32, words: '', size: 1 }));
  const hostile = {
    stage: 'tessellation', gs: 42, cs: ['COMP'],
    compute: { grid: [0, 1, 1], block: [2000, 1, 1], shared: -1, resources: [
      { kind: 'texture', index: 0, words: '', size: 1 },
      { kind: 'buffer', index: 40, words: '', size: 1 },
      { kind: 'buffer', index: 1, words: 7, size: 1e9 },
      { kind: 'buffer', index: 2, words: 'x'.repeat(70_000), size: 4 },
      { kind: 'image', index: 3, words: '', format: '<b>', width: 1000, height: 2.5 },
      'buffer', null] },
  };
  const state = await decodeState(await linkOf(JSON.stringify(hostile)));
  assert.deepEqual(state, { ...defaultState(), compute: { grid: [1, 1, 1], block: null, shared: 0, resources: [
    { kind: 'buffer', index: 1, words: '', size: 0 },
    { kind: 'buffer', index: 2, words: '', size: 4 },
    { kind: 'image', index: 3, words: '', size: 0, format: 'R32_UINT', width: 1, height: 1 }] } });
  // At most 16 resources are kept.
  const capped = await decodeState(await linkOf(JSON.stringify({ compute: { resources: many } })));
  assert.equal(capped.compute.resources.length, 16);
  // Not an object: the defaults.
  assert.deepEqual((await decodeState(await linkOf(JSON.stringify({ compute: [1, 2] })))).compute, defaultState().compute);
});

test('resource words: integers, hex, negative and float values as 32-bit words', () => {
  // −1 is 0xffffffff; 1.5 is 0x3fc00000 and 2e0 is 0x40000000 in IEEE 754 single precision.
  assert.deepEqual(parseWords('1, -1 0x10\n1.5 2e0'), { words: [1, 0xffffffff, 16, 0x3fc00000, 0x40000000], error: null });
  assert.equal(parseWords('1 two 3').error, "'two' is not a number");
  assert.equal(parseWords('4294967296').error, "'4294967296' is not a number");
  // The words fill the buffer's size from the start; an image holds width × height texels.
  const { bytes } = resourceBytes({ kind: 'buffer', index: 0, words: '7 8', size: 3 });
  assert.deepEqual([...new Uint32Array(bytes.buffer)], [7, 8, 0]);
  const image = resourceBytes({ kind: 'image', index: 0, words: '1', size: 0, format: 'R32G32B32A32_UINT', width: 2, height: 1 }, 16);
  assert.equal(image.bytes.length, 32);
});
