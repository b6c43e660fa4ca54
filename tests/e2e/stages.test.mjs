// The stage selector and the render-target tabs: compute examples give the buffers a hand
// calculation predicts and that `tgsi run` gives for the same program; the geometry example draws
// and lists the primitives its shader's arithmetic predicts; a shader with two colour outputs and
// POSITION shows COLOR[1] and the depth buffer with the values written in it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
import { canvasPixels, listedProblems, openPlayground, renderCount, runTgsi, typeShader, waitForRender } from './playground.mjs';
import { defaultState, encodeState } from '../../web/state.js';

let server;
let browser;

before(async () => {
  server = await startServer(0);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Loads an example and waits for its compute run (the result table's run counter grows). */
async function loadCompute(page, id) {
  const runs = await page.evaluate(() => Number(document.querySelector('#compute-result')?.dataset.runs ?? 0));
  await page.evaluate((x) => window.tgsiPlayground.loadExample(x), id);
  await page.waitForFunction((n) => Number(document.querySelector('#compute-result')?.dataset.runs ?? 0) > n, runs, { timeout: 30_000 });
}

/** The words after the run of one resource's table (`buffer-0`, `atomic-0`, …), as shown. */
function shownWords(page, resource) {
  return page.$$eval(`table.compute-words[data-resource="${resource}"] tbody tr`, (rows) => rows.map((r) => Number(r.dataset.after)));
}

/** Little-endian bytes of 32-bit words. */
function bytesOf(words) {
  return Buffer.from(new Uint32Array(words).buffer);
}

/** The 32-bit words of a file `tgsi run` wrote. */
async function wordsOf(out, name) {
  const b = await out.read(name);
  return [...new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))];
}

test('the prefix-sum example scans each block and equals tgsi run', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await loadCompute(page, 'prefix-sum');
  assert.equal(await page.locator('#compute-result').getAttribute('data-state'), 'ok', await page.locator('#compute-status').textContent());
  assert.equal(await page.locator('#stage').inputValue(), 'compute');
  // Input 1..32, two blocks of 16: word k (1-based) of block 0 is 1 + … + k = k(k + 1)/2; of
  // block 1, 17 + … + k = k(k + 1)/2 − 136 (the sum of 1..16).
  const input = Array.from({ length: 32 }, (_, i) => i + 1);
  const want = input.map((k) => (k <= 16 ? (k * (k + 1)) / 2 : (k * (k + 1)) / 2 - 136));
  assert.deepEqual(await shownWords(page, 'buffer-0'), want);
  const cs = await page.evaluate(() => window.tgsiPlayground.state.cs);
  const out = await runTgsi(['run', 'cs.tgsi', '--grid', '2', '--buffer', '0=in.bin:out.bin'], { 'cs.tgsi': cs, 'in.bin': bytesOf(input) });
  const cli = await wordsOf(out, 'out.bin');
  await out.cleanup();
  assert.deepEqual(cli, want);

  // Editing the initial words runs again: sixteen 2s scan to 2, 4, …, 32.
  const runs = await page.evaluate(() => Number(document.querySelector('#compute-result').dataset.runs));
  await page.locator('tr[data-resource="buffer-0"] textarea').fill(Array(16).fill('2').join(' '));
  await page.locator('tr[data-resource="buffer-0"] textarea').dispatchEvent('change');
  await page.waitForFunction((n) => Number(document.querySelector('#compute-result').dataset.runs) > n, runs, { timeout: 30_000 });
  const twos = Array.from({ length: 16 }, (_, i) => 2 * (i + 1));
  // The buffer keeps its size of 32 words; the rest are zeros, whose sums stay 0.
  assert.deepEqual(await shownWords(page, 'buffer-0'), [...twos, ...Array(16).fill(0)]);
  await saveScreenshot(page, 'stage-compute-prefix-sum');
  // The widget cannot run a compute dispatch: the Embed dialog says so.
  await page.locator('#open-embed').click();
  await page.waitForFunction(() => document.querySelector('#embed-status')?.textContent.includes('leaves out'), undefined, { timeout: 10_000 });
  assert.match(await page.locator('#embed-status').textContent(), /^The embed leaves out the compute stage \(it embeds the fragment shader\)/);
  await page.locator('#embed-dialog [data-close]').click();
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the histogram example counts with atomics and equals tgsi run', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await loadCompute(page, 'histogram');
  assert.equal(await page.locator('#compute-result').getAttribute('data-state'), 'ok', await page.locator('#compute-status').textContent());
  // Values i² + 1 for i = 0..23; bin (value & 3). i² mod 4 is 0 for even i and 1 for odd i, so
  // the values fall in bin 1 (12 even i) and bin 2 (12 odd i). The counter sees all 24.
  const input = Array.from({ length: 24 }, (_, i) => i * i + 1);
  assert.deepEqual(await shownWords(page, 'buffer-1'), [0, 12, 12, 0]);
  assert.deepEqual(await shownWords(page, 'atomic-0'), [24]);
  const cs = await page.evaluate(() => window.tgsiPlayground.state.cs);
  const out = await runTgsi(['run', 'cs.tgsi', '--grid', '3', '--buffer', '0=in.bin', '--buffer', '1=@16:bins.bin', '--atomic', '0=@4:counter.bin'],
    { 'cs.tgsi': cs, 'in.bin': bytesOf(input) });
  const [bins, counter] = [await wordsOf(out, 'bins.bin'), await wordsOf(out, 'counter.bin')];
  await out.cleanup();
  assert.deepEqual(bins, [0, 12, 12, 0]);
  assert.deepEqual(counter, [24]);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the image example writes an RGBA8 image shown as a picture', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await loadCompute(page, 'image-write');
  assert.equal(await page.locator('#compute-result').getAttribute('data-state'), 'ok', await page.locator('#compute-status').textContent());
  // Texel (x, y) = (x·0.1429, y·0.1429, 0.5, 1) stored as unorm8: round(v·255).
  const words = await shownWords(page, 'image-0');
  assert.equal(words.length, 64);
  const unorm = (v) => Math.round(Math.min(1, Math.max(0, v)) * 255);
  for (const [x, y] of [[0, 0], [7, 0], [3, 5], [7, 7]]) {
    const f = Math.fround(0.1429);
    const [r, g] = [unorm(Math.fround(x * f)), unorm(Math.fround(y * f))];
    const want = (r | (g << 8) | (128 << 16) | (255 << 24)) >>> 0;
    assert.equal(words[y * 8 + x], want, `texel (${x}, ${y})`);
  }
  assert.equal(await page.locator('canvas.compute-image').count(), 1);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('compute diagnostics: a bad register at its line and column, an endless loop stopped by the budget', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await loadCompute(page, 'prefix-sum');
  // Line 4 is `MOV TEMP[1].x, TEMP[7].xxxx`: `MOV ` (4) and `TEMP[1].x, ` (11) come before
  // TEMP[7], so it starts at column 16; it is not declared.
  await typeShader(page, 'COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL TEMP[0..1]\nMOV TEMP[1].x, TEMP[7].xxxx\nEND\n');
  await page.waitForFunction(() => [...document.querySelectorAll('#problems li')].some((li) => li.dataset.line === '4'), undefined, { timeout: 20_000 });
  const bad = (await listedProblems(page)).find((p) => p.severity === 'error');
  assert.deepEqual([bad.line, bad.column], [4, 16], JSON.stringify(bad));
  assert.match(bad.text, /^error\s*compute 4:16/);
  // The compute panel's own verdict on that text comes after the list (it is not run); wait for
  // it, or it could be taken for the verdict on the next text.
  await page.waitForFunction(() => /^Not run: source register TEMP\[7\] is not declared/.test(document.querySelector('#compute-status').textContent), undefined, { timeout: 20_000 });

  const runs = await page.evaluate(() => Number(document.querySelector('#compute-result').dataset.runs ?? 0));
  await typeShader(page, 'COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL TEMP[0]\nIMM[0] UINT32 {1, 0, 0, 0}\nBGNLOOP\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nENDLOOP\nEND\n');
  await page.waitForFunction((n) => Number(document.querySelector('#compute-result').dataset.runs ?? 0) > n
    && document.querySelector('#compute-result').dataset.state === 'error', runs, { timeout: 60_000 });
  assert.match(await page.locator('#compute-status').textContent(), /^Stopped: /);
  const listed = await listedProblems(page);
  assert.ok(listed.some((p) => p.code === 'X005' && p.line > 0), JSON.stringify(listed));
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the geometry example draws and lists the shrunk triangles', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const n = await renderCount(page);
  await page.evaluate(() => window.tgsiPlayground.loadExample('geometry-shrink'));
  await waitForRender(page, n);
  await page.waitForFunction(() => document.querySelector('#output').dataset.state === 'ok' && window.tgsiPlayground.rendered?.gs?.includes('GEOM'), undefined, { timeout: 30_000 });
  await page.waitForSelector('#primitives[data-state="ok"]', { timeout: 30_000 });
  // The quad strip is two triangles: (−1,−1) (1,−1) (−1,1) and (1,−1) (−1,1) (1,1). Each is
  // emitted as (v + c)/2 around its centroid c: for the first, c = (−1/3, −1/3), giving
  // (−2/3, −2/3), (1/3, −2/3), (−2/3, 1/3); its colour is (1 − 0, 0, 0.5, 1); the second's
  // colour is (0, 1, 0.5, 1).
  const listed = await page.evaluate(() => window.tgsiPlayground.primitives);
  assert.equal(listed.count, 2);
  assert.equal(listed.inputPrimitives, 2);
  assert.deepEqual(listed.primitives.map((p) => [p.stream, p.vertices.length]), [[0, 3], [0, 3]]);
  const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-5);
  const first = listed.primitives[0].vertices.map((v) => v[0]);
  for (const want of [[-2 / 3, -2 / 3, 0, 1], [1 / 3, -2 / 3, 0, 1], [-2 / 3, 1 / 3, 0, 1]]) {
    assert.ok(first.some((got) => close(got, want)), `no vertex at ${want} in ${JSON.stringify(first)}`);
  }
  assert.ok(listed.primitives[0].vertices.every((v) => close(v[1], [1, 0, 0.5, 1])));
  assert.ok(listed.primitives[1].vertices.every((v) => close(v[1], [0, 1, 0.5, 1])));
  assert.equal(await page.locator('#primitives section.primitive').count(), 2);

  // 256×256: NDC (−0.5, −0.5) is pixel (64, 192) from the top-left, inside the first triangle;
  // (0.5, 0.5) is (192, 64), inside the second; the centre lies between them (x + y = 0 is
  // outside both: the first ends at x + y = −1/3, the second starts at 1/3).
  const px = await canvasPixels(page);
  const at = (x, y) => [...px.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)];
  assert.deepEqual(at(64, 192), [255, 0, 128, 255]);
  assert.deepEqual(at(192, 64), [0, 255, 128, 255]);
  assert.deepEqual(at(128, 128), [0, 0, 0, 0]);
  await saveScreenshot(page, 'stage-geometry');
  // The widget draws without a geometry shader: the Embed dialog says so.
  await page.locator('#open-embed').click();
  await page.waitForFunction(() => document.querySelector('#embed-status')?.textContent.includes('leaves out'), undefined, { timeout: 10_000 });
  assert.match(await page.locator('#embed-status').textContent(), /^The embed leaves out the geometry shader/);
  await page.locator('#embed-dialog [data-close]').click();
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

/** Two colour outputs and POSITION: COLOR[0] = (0.2, 0.4, 0.6, 1), COLOR[1] = (1, 0.5, 0.25, 1), depth 0.25. */
const MRT_FS = `FRAG
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
DCL OUT[2], POSITION
IMM[0] FLT32 {0.2000, 0.4000, 0.6000, 1.0000}
IMM[1] FLT32 {1.0000, 0.5000, 0.2500, 1.0000}
  0: MOV OUT[0], IMM[0]
  1: MOV OUT[1], IMM[1]
  2: MOV OUT[2].z, IMM[1].zzzz
  3: END
`;
/** The cube (which has a depth test) at half size: it covers NDC [−0.25, 0.25]². */
const HALF_VS = `VERT
DCL IN[0]
DCL OUT[0], POSITION
IMM[0] FLT32 {0.5000, 0.5000, 0.5000, 1.0000}
  0: MUL OUT[0], IN[0], IMM[0]
  1: END
`;

test('render-target tabs show COLOR[1] and the depth buffer', { timeout: 120_000 }, async () => {
  const state = { ...defaultState(), fs: MRT_FS, vs: HALF_VS, useVs: true, mesh: 'cube', size: 256 };
  const { page, problems } = await openPlayground(browser, server, { hash: `#${await encodeState(state)}` });
  await waitForRender(page, 0);
  await page.waitForSelector('#target-tabs:not([hidden]) #target-depth', { timeout: 20_000 });
  assert.deepEqual(await page.$$eval('#target-tabs button', (b) => b.map((x) => x.textContent)), ['COLOR[0]', 'COLOR[1]', 'Depth']);
  // 256×256: the cube covers pixels 96..159 in both directions; (128, 128) is inside, (10, 10)
  // outside. Colours are round(v·255): 0.2 → 51, 0.4 → 102, 0.6 → 153, 0.5 → 128, 0.25 → 64.
  // Depth is written by the depth test (LESS, cleared to 1): 0.25 → grey 64, 1 → 255.
  const at = (px, x, y) => [...px.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)];
  const shown = async (target) => {
    const n = await renderCount(page);
    if (target !== 0) await page.locator(`#target-${target}`).click();
    await page.waitForFunction(([t, c]) => document.querySelector('#output').dataset.target === String(t)
      && Number(document.querySelector('#output').dataset.renders) > c - (t === 0 ? 1 : 0), [target, n], { timeout: 20_000 });
    return canvasPixels(page);
  };
  const color0 = await shown(0);
  assert.deepEqual(at(color0, 128, 128), [51, 102, 153, 255]);
  assert.deepEqual(at(color0, 10, 10), [0, 0, 0, 0]);
  const color1 = await shown(1);
  assert.deepEqual(at(color1, 128, 128), [255, 128, 64, 255]);
  assert.deepEqual(at(color1, 10, 10), [0, 0, 0, 0]);
  assert.equal(await page.locator('#target-1').getAttribute('aria-selected'), 'true');
  const depth = await shown('depth');
  assert.deepEqual(at(depth, 128, 128), [64, 64, 64, 255]);
  assert.deepEqual(at(depth, 10, 10), [255, 255, 255, 255]);
  await saveScreenshot(page, 'stage-depth');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('a share link keeps the stage, its shaders and the compute set-up', { timeout: 120_000 }, async () => {
  const first = await browser.newContext();
  const { page, problems } = await openPlayground(browser, server, { context: first });
  await loadCompute(page, 'histogram');
  const words = await shownWords(page, 'buffer-1');
  const saved = await page.evaluate(() => ({ stage: window.tgsiPlayground.state.stage, cs: window.tgsiPlayground.state.cs, compute: window.tgsiPlayground.state.compute }));
  const url = await page.evaluate(() => window.tgsiPlayground.copyLink());
  await first.close();
  const fresh = await browser.newContext();
  const { page: other, problems: more } = await openPlayground(browser, server, { context: fresh, hash: new URL(url).hash });
  await other.waitForFunction(() => document.querySelector('#compute-result')?.dataset.state === 'ok', undefined, { timeout: 30_000 });
  const restored = await other.evaluate(() => ({ stage: window.tgsiPlayground.state.stage, cs: window.tgsiPlayground.state.cs, compute: window.tgsiPlayground.state.compute }));
  assert.deepEqual(restored, saved);
  assert.equal(await other.locator('#stage').inputValue(), 'compute');
  assert.deepEqual(await shownWords(other, 'buffer-1'), words);
  assert.deepEqual([...problems, ...more], [], 'the pages reported problems');
  await fresh.close();
});

test('the stage selector shows each stage\'s tabs and panels and keeps every text', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const fs = await page.evaluate(() => window.tgsiPlayground.state.fs);
  const shown = () => page.evaluate(() => ({
    tabs: ['fs', 'vs', 'gs', 'cs'].filter((t) => !document.querySelector(`#tab-${t}`).hidden),
    selected: document.querySelector('[role="tab"][aria-selected="true"][id^="tab-"]:not([id="tab-formatted"]):not([id="tab-agal"])')?.id,
    canvas: !document.querySelector('.canvas-wrap').classList.contains('stage-hidden'),
    compute: !document.querySelector('#compute-panel').hidden,
    primitives: !document.querySelector('#geometry-panel').hidden,
  }));
  await page.locator('#stage').selectOption('geometry');
  assert.deepEqual(await shown(), { tabs: ['fs', 'vs', 'gs'], selected: 'tab-gs', canvas: true, compute: false, primitives: true });
  // The empty geometry tab starts with a pass-through shader: one primitive per input triangle.
  await page.waitForSelector('#primitives[data-state="ok"]', { timeout: 30_000 });
  assert.equal(await page.evaluate(() => window.tgsiPlayground.primitives.count), 1);
  // Line 2 is `DCL OUT[0], POSITON`: the misspelt semantic starts at column 13.
  await typeShader(page, 'GEOM\nDCL OUT[0], POSITON\nEND\n');
  await page.waitForFunction(() => [...document.querySelectorAll('#problems li')].some((li) => li.dataset.line === '2'), undefined, { timeout: 20_000 });
  const bad = (await listedProblems(page)).find((p) => p.severity === 'error');
  assert.deepEqual([bad.line, bad.column], [2, 13], JSON.stringify(bad));
  assert.match(bad.text, /geometry 2:13/);

  await page.locator('#stage').selectOption('compute');
  assert.deepEqual(await shown(), { tabs: ['cs'], selected: 'tab-cs', canvas: false, compute: true, primitives: false });
  // An empty compute tab starts with a shader in which invocation i of a block of 4 stores i
  // into word i of BUFFER[0], bound with 4 words: 0, 1, 2, 3.
  await page.waitForFunction(() => document.querySelector('#compute-result')?.dataset.state === 'ok', undefined, { timeout: 30_000 });
  assert.deepEqual(await shownWords(page, 'buffer-0'), [0, 1, 2, 3]);
  await page.locator('#stage').selectOption('pipeline');
  assert.deepEqual(await shown(), { tabs: ['fs', 'vs'], selected: 'tab-fs', canvas: true, compute: false, primitives: false });
  const texts = await page.evaluate(() => ({ fs: window.tgsiPlayground.editor.text('fs'), gs: window.tgsiPlayground.editor.text('gs'), state: window.tgsiPlayground.state.gs }));
  assert.deepEqual(texts, { fs, gs: 'GEOM\nDCL OUT[0], POSITON\nEND\n', state: 'GEOM\nDCL OUT[0], POSITON\nEND\n' });
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});
