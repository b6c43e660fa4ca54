// Custom geometry and per-stage constants on the page: the vertex-data editor (table and JSON,
// kept in sync) draws what `tgsi render --vertices` draws for the same JSON, a broken JSON is
// reported at its line and column and kept as typed, and the constants panes give each stage
// its own values (`--vs-const` / `--fs-const`), kept by a share link.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
import { canvasPixels, decodePng, openPlayground, renderCount, runTgsi, settle, typeShader, waitForRender } from './playground.mjs';

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

const SIZE = 128;

// Position from IN[0].xy, plus CONST[0][0].xy (0 unless a test sets it); colour from IN[1].
const VS = `VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0]
IMM[0] FLT32 { 0.0000, 1.0000, 0.0000, 0.0000 }
  0: ADD OUT[0].xy, IN[0].xyyy, CONST[0][0].xyyy
  1: MOV OUT[0].zw, IMM[0].xxxy
  2: MOV OUT[1], IN[1]
  3: END
`;

const FS = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
`;

// A strip (a quad on the left) and a fan (a triangle on the right), a colour per vertex.
const STRIP_AND_FAN = `{
  "attributes": [
    {"name": "a_pos", "location": 0, "components": 2, "kind": "f"},
    {"name": "a_color", "location": 1, "components": 4, "kind": "f"}
  ],
  "vertices": [
    {"a_pos": [-0.9, -0.9], "a_color": [1, 0, 0, 1]},
    {"a_pos": [-0.1, -0.9], "a_color": [0, 1, 0, 1]},
    {"a_pos": [-0.9, 0.9], "a_color": [0, 0, 1, 1]},
    {"a_pos": [-0.1, 0.9], "a_color": [1, 1, 1, 1]},
    {"a_pos": [0.1, -0.9], "a_color": [1, 1, 0, 1]},
    {"a_pos": [0.9, -0.9], "a_color": [0, 1, 1, 1]},
    {"a_pos": [0.9, 0.9], "a_color": [1, 0, 1, 1]}
  ],
  "draws": [
    {"mode": "TRIANGLE_STRIP", "first": 0, "count": 4},
    {"mode": "TRIANGLE_FAN", "first": 4, "count": 3}
  ],
  "front_face": "CCW",
  "provoking_vertex": "LAST"
}
`;

function countDifferent(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) n += 1;
  return n;
}

/** `tgsi render` of the test's shaders with `vertices` and extra arguments, RGBA8 top row first. */
async function cliRender(page, vertices, extra = [], vs = VS, fs = FS) {
  const out = await runTgsi(['render', 'fs.tgsi', '--vs', 'vs.tgsi', '--vertices', 'v.json', '--size', `${SIZE}x${SIZE}`, ...extra, '-o', 'out.png'],
    { 'fs.tgsi': fs, 'vs.tgsi': vs, 'v.json': vertices });
  try {
    return (await decodePng(page, await out.read('out.png'))).data;
  } finally {
    await out.cleanup();
  }
}

/** Opens the page at 128×128 with the vertex shader on and both shaders typed in. */
async function openWithShaders(vs = VS, fs = FS, options = {}) {
  const opened = await openPlayground(browser, server, options);
  const { page } = opened;
  let n = await renderCount(page);
  await page.locator('#size').selectOption(String(SIZE));
  n = await waitForRender(page, n);
  await page.locator('#use-vs').check();
  await page.locator('#tab-vs').click();
  await typeShader(page, vs);
  await page.locator('#tab-fs').click();
  await typeShader(page, fs);
  await settle(page);
  return opened;
}

/** Waits until the canvas holds the frame drawn from `text` (the render of that exact JSON). */
async function waitForVertices(page, text) {
  await page.waitForFunction((t) => window.tgsiPlayground.rendered?.vertices === t && document.querySelector('#output').dataset.state !== undefined, text, { timeout: 20_000 });
}

test('the vertex-data editor draws a strip and a fan as tgsi render --vertices does, table and JSON in sync', { timeout: 180_000 }, async () => {
  const { page, problems } = await openWithShaders();
  await page.locator('#mesh').selectOption('custom');
  await page.waitForSelector('#vertices-panel:not([hidden])');
  // The custom mesh starts as a triangle of three vertices, listed in the table.
  await page.waitForFunction(() => document.querySelectorAll('#vertices-table tr[data-vertex]').length === 3, undefined, { timeout: 10_000 });

  // The JSON view: replace the text.
  await page.locator('#vertices-tab-json').click();
  let n = await renderCount(page);
  await page.locator('#vertices-json').fill(STRIP_AND_FAN);
  await waitForRender(page, n);
  await waitForVertices(page, STRIP_AND_FAN);
  assert.equal(await page.locator('#output').getAttribute('data-state'), 'ok', await page.locator('#render-status').textContent());
  const shown = await canvasPixels(page);
  assert.equal(countDifferent(shown, await cliRender(page, STRIP_AND_FAN)), 0, 'the canvas differs from tgsi render --vertices');
  // Hand check: the quad is on the left (x < 64), the triangle's lower right corner on the
  // right; a pixel between them (x = 64, the gap from -0.1 to 0.1) is not drawn.
  const at = (x, y) => [...shown.slice((y * SIZE + x) * 4, (y * SIZE + x) * 4 + 4)];
  assert.equal(at(30, 64)[3], 255, 'the strip is not drawn at (30, 64)');
  assert.equal(at(110, 110)[3], 255, 'the fan is not drawn at (110, 110)');
  assert.deepEqual(at(64, 64), [0, 0, 0, 0], 'the gap between the draws is drawn');

  // The table shows the same vertices; an edit there rewrites the JSON and redraws.
  await page.locator('#vertices-tab-table').click();
  assert.equal(await page.locator('#vertices-table tr[data-vertex]').count(), 7);
  // Every control of the editor has an accessible name.
  const unnamed = await page.$$eval('#vertices-panel button, #vertices-panel select, #vertices-panel input, #vertices-panel textarea', (els) => els
    .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim() || el.title))
    .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, [], 'controls without a name');
  n = await renderCount(page);
  await page.locator('#vertices-table input[aria-label="vertex 0 a_color.x"]').fill('0');
  await waitForRender(page, n);
  const edited = await page.evaluate(() => window.tgsiPlayground.state.vertices);
  assert.match(edited, /\{"a_pos": \[-0\.9, -0\.9\], "a_color": \[0, 0, 0, 1\]\}/, 'the table edit is not in the JSON');
  assert.equal(await page.locator('#vertices-json').inputValue(), edited, 'the JSON view shows another text');
  await waitForVertices(page, edited);
  const redrawn = await canvasPixels(page);
  assert.ok(countDifferent(shown, redrawn) > 0, 'the table edit left the picture unchanged');
  assert.equal(countDifferent(redrawn, await cliRender(page, edited)), 0, 'after the table edit the canvas differs from tgsi render');

  // Clockwise front face through the table's selector reaches the JSON too.
  await page.locator('#vertices-front-face').selectOption('CW');
  assert.match(await page.locator('#vertices-json').inputValue(), /"front_face": "CW"/);
  await saveScreenshot(page, 'vertices-editor');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('a broken vertices JSON is reported at its line and column and kept as typed', { timeout: 120_000 }, async () => {
  const { page, problems } = await openWithShaders();
  await page.locator('#mesh').selectOption('custom');
  await page.locator('#vertices-tab-json').click();
  // Line 3 lacks the comma between "a_pos" and "location": the reader stops at the second
  // key, which starts at column 22 (4 spaces, then `{"name": "a_pos" ` is 17 characters).
  const broken = STRIP_AND_FAN.replace('{"name": "a_pos", "location"', '{"name": "a_pos" "location"');
  let n = await renderCount(page);
  await page.locator('#vertices-json').fill(broken);
  await page.waitForSelector('#vertices-problems li[data-code="R006"]', { timeout: 20_000 });
  const item = page.locator('#vertices-problems li').first();
  assert.equal(await item.getAttribute('data-line'), '3');
  assert.equal(await item.getAttribute('data-column'), '22');
  assert.match(await item.textContent(), /line 3, column 22/);
  // The page's problem list names it too, as vertex data.
  assert.match(await page.locator('#problems li[data-code="R006"]').first().textContent(), /vertex data 3:22/);
  assert.equal(await page.locator('#output').getAttribute('data-state'), 'error');
  // The text stays as typed (in the editor and in the state), and the table says why it is empty.
  assert.equal(await page.locator('#vertices-json').inputValue(), broken);
  assert.equal(await page.evaluate(() => window.tgsiPlayground.state.vertices), broken);
  await page.waitForSelector('#vertices-table[data-state="unreadable"]', { state: 'attached', timeout: 10_000 });

  // A well-formed JSON with a draw past the last vertex: reported at the draw (line 17, whose
  // object starts at column 5).
  const overrun = STRIP_AND_FAN.replace('"first": 4, "count": 3', '"first": 4, "count": 9');
  n = await renderCount(page);
  await page.locator('#vertices-json').fill(overrun);
  await page.waitForFunction(() => document.querySelector('#vertices-problems li')?.textContent.includes('draw 1'), undefined, { timeout: 20_000 });
  const second = page.locator('#vertices-problems li').first();
  assert.equal(await second.getAttribute('data-code'), 'R006');
  assert.equal(await second.getAttribute('data-line'), '17');
  assert.equal(await second.getAttribute('data-column'), '5');
  // A click selects the place in the JSON text.
  await second.locator('button').click();
  const selected = await page.evaluate(() => { const t = document.querySelector('#vertices-json'); return t.value.slice(t.selectionStart, t.selectionEnd); });
  assert.equal(selected, '{"mode": "TRIANGLE_FAN", "first": 4, "count": 9}');

  // Longer than links and the autosave keep (3 MB): drawn, and the editor says it is not kept.
  const long = STRIP_AND_FAN.replace('"front_face"', `"note": "${'x'.repeat(3 * 1024 * 1024)}",\n  "front_face"`);
  await page.locator('#vertices-json').fill(long);
  await page.waitForSelector('#vertices-size-note', { timeout: 10_000 });
  assert.match(await page.locator('#vertices-size-note').textContent(), /over 3 MB: it is drawn, but share links and the autosave do not keep it/);

  // Fixed again: drawn, the problems and the note are gone.
  n = await renderCount(page);
  await page.locator('#vertices-json').fill(STRIP_AND_FAN);
  await waitForRender(page, n);
  await waitForVertices(page, STRIP_AND_FAN);
  assert.equal(await page.locator('#vertices-problems li').count(), 0);
  assert.equal(await page.locator('#vertices-size-note').isVisible(), false);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

// One rectangle from x = -0.5 to 0.5 (pixels 32..95 of 128), white; the shaders move it by a
// vertex-stage constant and colour it with a fragment-stage constant.
const RECT = `{
  "attributes": [{"name": "a_pos", "location": 0, "components": 2, "kind": "f"}],
  "vertices": [{"a_pos": [-0.5, -0.5]}, {"a_pos": [0.5, -0.5]}, {"a_pos": [-0.5, 0.5]}, {"a_pos": [0.5, 0.5]}],
  "draws": [{"mode": "TRIANGLE_STRIP", "first": 0, "count": 4}]
}
`;
const FS_CONST = `FRAG
DCL OUT[0], COLOR
DCL CONST[0][0]
  0: MOV OUT[0], CONST[0][0]
  1: END
`;

/** Sets CONST[0][0] in a pane of the Constants panel (`both`, `vs` or `fs`). */
async function setConstant(page, stage, values) {
  await page.locator(`#const-tab-${stage}`).click();
  const pane = stage === 'both' ? '#constants' : `#constants-${stage}`;
  for (const [k, c] of ['x', 'y', 'z', 'w'].entries()) {
    await page.locator(`${pane} fieldset[data-key="0:0"] input[data-component="${c}"]`).fill(String(values[k]));
  }
}

test('per-stage constants: a vertex-only constant moves the geometry, a fragment-only one colours it', { timeout: 180_000 }, async () => {
  const first = await browser.newContext();
  const { page, problems } = await openWithShaders(VS, FS_CONST, { context: first });
  await page.locator('#mesh').selectOption('custom');
  await page.locator('#vertices-tab-json').click();
  await page.locator('#vertices-json').fill(RECT);
  await waitForVertices(page, RECT);

  // Shared CONST[0][0] = (0, 0, 1, 1): both stages read it, the rectangle stays and is blue.
  await setConstant(page, 'both', [0, 0, 1, 1]);
  // Vertex stage only: (0.5, 0, 0, 0) moves it right by a quarter of the picture (pixels
  // 64..127); the fragment stage still reads the shared blue.
  await setConstant(page, 'vs', [0.5, 0, 0, 0]);
  await page.waitForFunction(() => window.tgsiPlayground.rendered?.vsConstants?.[0]?.values.join() === '0.5,0,0,0', undefined, { timeout: 20_000 });
  let shown = await canvasPixels(page);
  const at = (px, x, y) => [...px.slice((y * SIZE + x) * 4, (y * SIZE + x) * 4 + 4)];
  assert.deepEqual(at(shown, 100, 64), [0, 0, 255, 255], 'the moved rectangle is not blue at x = 100');
  assert.deepEqual(at(shown, 40, 64), [0, 0, 0, 0], 'the rectangle did not move off x = 40');

  // Fragment stage only: (1, 0.2, 0, 1) → (255, 51, 0, 255) (0.2 · 255 = 51 exactly).
  await setConstant(page, 'fs', [1, 0.2, 0, 1]);
  await page.waitForFunction(() => window.tgsiPlayground.rendered?.fsConstants?.[0]?.values.join() === '1,0.2,0,1', undefined, { timeout: 20_000 });
  shown = await canvasPixels(page);
  assert.deepEqual(at(shown, 100, 64), [255, 51, 0, 255], 'the fragment-only constant did not colour the rectangle');
  assert.deepEqual(at(shown, 40, 64), [0, 0, 0, 0]);
  const expected = await cliRender(page, RECT, ['--const', '0:0=0,0,1,1', '--vs-const', '0:0=0.5,0,0,0', '--fs-const', '0:0=1,0.2,0,1'], VS, FS_CONST);
  assert.equal(countDifferent(shown, expected), 0, 'the canvas differs from tgsi render --vs-const/--fs-const');

  // "use shared" gives the vertex stage the shared value back: the rectangle returns to 32..95.
  await page.locator('#const-tab-vs').click();
  await page.locator('#constants-vs fieldset[data-key="0:0"] .const-clear').click();
  await page.waitForFunction(() => window.tgsiPlayground.rendered?.vsConstants?.length === 0, undefined, { timeout: 20_000 });
  const back = await canvasPixels(page);
  assert.deepEqual(at(back, 40, 64), [255, 51, 0, 255], 'the cleared vertex constant still moves the rectangle');
  assert.deepEqual(at(back, 100, 64), [0, 0, 0, 0]);
  await setConstant(page, 'vs', [0.5, 0, 0, 0]);
  await page.waitForFunction(() => window.tgsiPlayground.rendered?.vsConstants?.[0]?.values.join() === '0.5,0,0,0', undefined, { timeout: 20_000 });

  // The Embed dialog says what the widget cannot carry.
  await page.locator('#open-embed').click();
  await page.waitForFunction(() => document.querySelector('#embed-status')?.textContent.includes('leaves out'), undefined, { timeout: 10_000 });
  assert.equal(await page.locator('#embed-status').textContent(), 'The embed leaves out the custom vertex data, the per-stage constants: the widget does not read them.');
  await page.locator('#embed-dialog [data-close]').click();

  // A share link keeps the per-stage values and the vertex data.
  const url = await page.evaluate(() => window.tgsiPlayground.copyLink());
  await saveScreenshot(page, 'vertices-stage-constants');
  await first.close();
  const fresh = await browser.newContext();
  const { page: other, problems: otherProblems } = await openPlayground(browser, server, { context: fresh, hash: new URL(url).hash });
  await waitForVertices(other, RECT);
  await other.waitForFunction(() => window.tgsiPlayground.rendered?.fsConstants?.[0]?.values.join() === '1,0.2,0,1', undefined, { timeout: 20_000 });
  assert.equal(countDifferent(await canvasPixels(other), shown), 0, 'the shared link draws another picture');
  assert.equal(await other.locator('#vertices-json').inputValue(), RECT);
  await other.locator('#const-tab-vs').click();
  assert.equal(await other.locator('#constants-vs fieldset[data-key="0:0"] input[data-component="x"]').inputValue(), '0.5');
  assert.deepEqual([...problems, ...otherProblems], [], 'the pages reported problems');
  await fresh.close();
});
