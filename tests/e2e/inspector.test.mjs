// The inspector: clicking a pixel shows what the shader did there, step by step for the four
// pixels of its quad; stepping back and forward shows the same state; breakpoints, run to
// NaN, the heat map and the value after instruction N. Expected numbers are worked out by hand
// from the shader below (the fragment position is the pixel centre: x + 0.5, and window rows
// count from the bottom).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
import { canvasPixels, openPlayground, renderCount, typeShader, waitForRender } from './playground.mjs';
import { program } from '../../web/programs.js';

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
// TEMP[0].x = x + 0.5 − 64; its square root is NaN left of x = 64; red = TEMP[0].x / 128.
const SHADER = readFileSync(new URL('./fixtures/sqrt-nan.tgsi', import.meta.url), 'utf8');
const MUL_LINE = 8;

async function setUp() {
  const { page, problems } = await openPlayground(browser, server);
  let n = await renderCount(page);
  await page.locator('#size').selectOption(String(SIZE));
  n = await waitForRender(page, n);
  await typeShader(page, SHADER);
  await waitForRender(page, n);
  // Frames requested before the edit may still land: wait for the one of this shader and size.
  await page.waitForFunction(([fs, size]) => {
    const r = window.tgsiPlayground.rendered;
    return r?.fs === fs && r.width === size;
  }, [SHADER, SIZE]);
  return { page, problems };
}

/** The shown value of one register channel in one lane column (0 top-left … 3 bottom-right). */
function shown(page, reg, lane) {
  return page.locator(`#trace-quad tr[data-reg="${reg}"] td[data-lane="${lane}"]`).textContent();
}

/** Moves the instruction scrubber as dragging does (an input event per position). */
function scrub(page, pc) {
  return page.evaluate((v) => {
    const slider = document.querySelector('#probe-pc');
    slider.value = String(v);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  }, pc);
}

const at = (page) => page.locator('#trace-view').getAttribute('data-at').then(Number);

/**
 * Clicks a trace control and waits until the inspector stands on step `n` (-1: the start):
 * WebKitGTK's driver delivers clicks as native events, after the click command returns.
 */
async function press(page, id, n) {
  // Clicks closer together than a double click's interval get lost in WebKitGTK.
  await page.waitForTimeout(600);
  await page.locator(id).click();
  await page.waitForFunction((k) => document.querySelector('#trace-view').dataset.at === String(k), n, { timeout: 10_000 });
}

test('clicking a pixel traces it; step, step back, breakpoint, run to NaN', { timeout: 120_000 }, async () => {
  const { page, problems } = await setUp();
  // A real click in the middle of the picture traces the pixel under the pointer.
  await page.locator('#output').click();
  await page.waitForSelector('#trace-view:not([hidden])');
  assert.match(await page.locator('#trace-title').textContent(), /Pixel \(\d+, \d+\)/);

  // Pixel (10, 20): its window row is 127 − 20 = 107 (odd), so it is in the top row of its
  // quad; x = 10 is even: the top-left pixel. The quad's other column is x = 11.
  await page.evaluate(() => window.tgsiPlayground.inspect(10, 20));
  await page.waitForFunction(() => window.tgsiPlayground.trace?.pixel[0] === 10);
  assert.match(await page.locator('#trace-title').textContent(), /Pixel \(10, 20\): the top-left pixel of the quad at \(10, 20\)/);
  assert.equal(await at(page), -1);

  await press(page, '#trace-step', 0);
  // ADD: 10.5 − 64 = −53.5 here, 11.5 − 64 = −52.5 in the top-right pixel.
  assert.equal(await shown(page, 'TEMP[0].x', 0), '-53.5');
  assert.equal(await shown(page, 'TEMP[0].x', 1), '-52.5');
  const afterFirst = await page.locator('#trace-quad').innerHTML();

  await press(page, '#trace-step', 1);
  // SQRT of a negative number: NaN in every lane of this quad.
  assert.equal(await shown(page, 'TEMP[0].y', 0), 'NaN');
  await press(page, '#trace-back', 0);
  assert.equal(await page.locator('#trace-quad').innerHTML(), afterFirst, 'step back shows the state of step 1 again');
  await press(page, '#trace-back', -1);
  assert.equal(await page.locator('#trace-quad tr[data-reg]').count(), 0, 'before the first step nothing is written');
  await press(page, '#trace-step', 0);
  assert.equal(await page.locator('#trace-quad').innerHTML(), afterFirst, 'and forward again the same');

  // Values as hex: −53.5 is 0xc2560000.
  await page.locator('#value-format').selectOption('hex');
  await page.waitForFunction(() => document.querySelector('#trace-quad tr[data-reg="TEMP[0].x"] td[data-lane="0"]')?.textContent === '0xc2560000');
  await page.locator('#value-format').selectOption('auto');
  await page.waitForFunction(() => document.querySelector('#trace-quad tr[data-reg="TEMP[0].x"] td[data-lane="0"]')?.textContent === '-53.5');

  // A breakpoint on the MUL line (a click in the breakpoint gutter), then run to it.
  // The editor line in view first: pointer coordinates are the viewport's.
  await page.evaluate((n) => document.querySelectorAll('.cm-content .cm-line')[n].scrollIntoView({ block: 'center' }), MUL_LINE - 1);
  const line = await page.locator('.cm-content .cm-line').nth(MUL_LINE - 1).boundingBox();
  const gutter = await page.locator('.cm-breakpoint-gutter').boundingBox();
  await page.mouse.click(gutter.x + gutter.width / 2, line.y + line.height / 2);
  await page.waitForFunction(() => window.tgsiPlayground.editor.breakpoints('fs').size > 0);
  assert.deepEqual(await page.evaluate(() => [...window.tgsiPlayground.editor.breakpoints('fs')]), [MUL_LINE]);
  await press(page, '#trace-run-break', 2);
  assert.match(await page.locator('.cm-trace-line').textContent(), /MUL TEMP\[1\]\.x/);
  // The step links to its opcode's section of the reference site.
  assert.equal(await page.locator('.trace-text a.trace-ref').getAttribute('href'),
    new URL('/reference/#MUL', await page.evaluate(() => location.href)).href);
  // −53.5 / 128 = −0.41796875.
  assert.equal(await shown(page, 'TEMP[1].x', 0), '-0.4179688');

  // Run to NaN from the start stops at the SQRT (step 2).
  await press(page, '#trace-first', -1);
  await press(page, '#trace-run-nan', 1);
  assert.match(await page.locator('#trace-message').textContent(), /NaN or an infinity/);

  // Right of x = 64 there is no NaN: the run goes to the end and says so.
  await page.evaluate(() => window.tgsiPlayground.inspect(100, 20));
  await page.waitForFunction(() => window.tgsiPlayground.trace?.pixel[0] === 100);
  await press(page, '#trace-run-nan', 5);
  assert.match(await page.locator('#trace-message').textContent(), /No further step/);
  // At the end the outputs are listed; the red channel is (100.5 − 64) / 128 = 0.28515625
  // (shown to 7 digits), which the canvas stores as round(0.28515625 × 255) = 73.
  const outputs = await page.locator('#trace-outputs').textContent();
  assert.match(outputs, /OUT\[0\] \(COLOR\[0\]\) = \(0\.2851563, 0\.2851563, 0\.2851563, 1\)/);
  const pixels = await canvasPixels(page);
  assert.equal(pixels[(20 * SIZE + 100) * 4], 73);
  await saveScreenshot(page, 'inspector-trace');
  assert.deepEqual(problems, []);
  await page.close();
});

test('heat map and the value after instruction N', { timeout: 120_000 }, async () => {
  const { page, problems } = await setUp();
  const probes = () => page.locator('#overlay').getAttribute('data-probes').then((v) => Number(v ?? 0));

  // Straight-line code: every pixel runs all six instructions (END included).
  let n = await probes();
  await page.locator('#view-mode').selectOption('heat');
  await page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, n);
  assert.match(await page.locator('#probe-summary').textContent(), new RegExp(`${6 * SIZE * SIZE} in all, 6 at most`));

  // After instruction 0, TEMP[0].x = x + 0.5 − 64: from −63.5 (x = 0) to 63.5 (x = 127).
  n = await probes();
  await page.locator('#view-mode').selectOption('value');
  await page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, n);
  n = await probes();
  await page.locator('#probe-register').fill('TEMP[0].x');
  await page.locator('#probe-register').dispatchEvent('change');
  await page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, n);
  assert.equal(await page.locator('#probe-min').textContent(), '-63.5');
  assert.equal(await page.locator('#probe-max').textContent(), '63.5');
  assert.match(await page.locator('#probe-pc-label').textContent(), /^0: ADD \(line 6\)/);

  // Scrub to instruction 2 (MUL): TEMP[1].x = TEMP[0].x / 128, from −0.49609375 to 0.49609375.
  n = await probes();
  await page.locator('#probe-register').fill('TEMP[1].x');
  await scrub(page, 2);
  await page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, n);
  await page.waitForFunction(() => document.querySelector('#probe-min').textContent === '-0.496094');
  assert.equal(await page.locator('#probe-max').textContent(), '0.496094');
  // Watching TEMP[1].x right after instruction 0, before anything wrote it: zero everywhere.
  n = await probes();
  await scrub(page, 0);
  await page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, n);
  await page.waitForFunction(() => document.querySelector('#probe-max').textContent === '0');
  await saveScreenshot(page, 'inspector-probe');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the vertex table and the trace of one vertex', { timeout: 120_000 }, async () => {
  const { page, problems } = await setUp();
  // The quad mesh: corners (−1, −1), (1, −1), (−1, 1), (1, 1) with uv = corner·0.5 + 0.5. The
  // vertex shader halves the position: vertex 3 writes (0.5, 0.5, 0, 1).
  const vs = `VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 { 0.5000, 0.5000, 1.0000, 1.0000 }
  0: MUL OUT[0], IN[0], IMM[0]
  1: MOV OUT[1], IN[1]
  2: END
`;
  const fs = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
`;
  const n = await renderCount(page);
  await typeShader(page, fs);
  await waitForRender(page, n);
  await page.locator('#use-vs').check();
  await page.locator('#mesh').selectOption('quad');
  await page.locator('#tab-vs').click();
  await typeShader(page, vs);
  // The frame on the canvas is the one of the typed vertex shader on the quad mesh (an earlier
  // frame, of the text half typed, has no table to list).
  await page.waitForFunction((text) => window.tgsiPlayground.rendered?.vs === text && window.tgsiPlayground.rendered?.mesh === 'quad', vs, { timeout: 20_000 });
  await page.waitForSelector('#vertex-section:not([hidden])');
  await page.waitForTimeout(600);
  await page.locator('#show-vertices').click();
  await page.waitForSelector('#vertex-table tbody tr[data-vertex="3"]');
  assert.equal(await page.locator('#vertex-table tbody tr').count(), 4);
  // Row 3: IN[0] = (1, 1, 0, 1), IN[1] = (1, 1, 0, 1), OUT[0] = (0.5, 0.5, 0, 1), OUT[1] = IN[1].
  const cells = await page.evaluate(() => [...document.querySelectorAll('#vertex-table tbody tr[data-vertex="3"] td')].map((td) => td.textContent));
  assert.deepEqual(cells, ['(1, 1, 0, 1)', '(1, 1, 0, 1)', '(0.5, 0.5, 0, 1)', '(1, 1, 0, 1)']);
  // Readable in the inspector's column: a vector breaks only between its xy and zw halves, so
  // every half is one line and every cell at most two (bounding boxes).
  const boxes = await page.evaluate(() => ({
    halves: [...document.querySelectorAll('#vertex-table tbody .half')].map((h) => h.getBoundingClientRect().height),
    cells: [...document.querySelectorAll('#vertex-table tbody td')].map((td) => {
      const [first, last] = [td.firstElementChild, td.lastElementChild].map((h) => h.getBoundingClientRect());
      return last.bottom - first.top;
    }),
  }));
  assert.equal(boxes.halves.length, 4 * 4 * 2, 'two halves in each of the 16 cells');
  const line = Math.min(...boxes.halves);
  assert.ok(boxes.halves.every((h) => h < line * 1.5), `a half broke over lines: ${boxes.halves}`);
  assert.ok(boxes.cells.every((h) => h < line * 2.5), `a cell took more than two lines: ${boxes.cells}`);

  await page.locator('#vertex-table tbody tr[data-vertex="1"] th').click();
  await page.waitForFunction(() => window.tgsiPlayground.trace?.vertex === 1);
  assert.match(await page.locator('#trace-title').textContent(), /^Vertex 1 of the mesh, run together with vertices 0 to 3/);
  await press(page, '#trace-step', 0);
  // Vertex 1 is (1, −1): MUL writes (0.5, −0.5, 0, 1) in its column.
  assert.equal(await shown(page, 'OUT[0].x', 1), '0.5');
  assert.equal(await shown(page, 'OUT[0].y', 1), '-0.5');
  assert.equal(await shown(page, 'OUT[0].y', 2), '0.5');
  assert.match(await page.locator('.cm-trace-line').textContent(), /MUL OUT\[0\], IN\[0\], IMM\[0\]/);

  // The listed table follows the frame: a quarter instead of a half, vertex 3 writes (0.25, 0.25, 0, 1).
  await typeShader(page, vs.replace('0.5000, 0.5000', '0.2500, 0.2500'));
  await page.waitForFunction(() => document.querySelectorAll('#vertex-table tbody tr[data-vertex="3"] td')[2]?.textContent === '(0.25, 0.25, 0, 1)');
  assert.equal(await page.locator('#vertex-table tbody tr').count(), 4);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a derivative shows which pixels it subtracts', { timeout: 120_000 }, async () => {
  const { page, problems } = await setUp();
  // DDX of the fragment's x position: top-right − top-left of the quad, 1 everywhere by hand.
  const fs = `FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
  0: DDX TEMP[0].x, IN[0].xxxx
  1: MOV OUT[0], TEMP[0].xxxx
  2: END
`;
  const n = await renderCount(page);
  await typeShader(page, fs);
  await waitForRender(page, n);
  await page.waitForFunction((text) => window.tgsiPlayground.rendered?.fs === text, fs);
  await page.evaluate(() => window.tgsiPlayground.inspect(10, 20));
  await page.waitForFunction(() => window.tgsiPlayground.trace?.pixel[0] === 10);
  await press(page, '#trace-step', 0);
  const row = await page.evaluate(() => [...document.querySelectorAll('#trace-quad tr.trace-derivative td')].map((td) => td.textContent));
  assert.deepEqual(row, Array(4).fill('top-right − top-left: 11.5 − 10.5'));
  assert.equal(await shown(page, 'TEMP[0].x', 3), '1');
  assert.deepEqual(problems, []);
  await page.close();
});

/** Waits for the overlay's probe counter to pass `n`. */
const probed = (page, n) => page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, n);
const probes = (page) => page.locator('#overlay').getAttribute('data-probes').then((v) => Number(v ?? 0));

/** Clicks pixel (x, y) of the picture (y from the top) with the mouse, as a user does. */
async function clickPixel(page, x, y) {
  await page.evaluate(() => document.querySelector('#output').scrollIntoView({ block: 'center' }));
  const box = await page.locator('#output').boundingBox();
  const size = await page.evaluate(() => document.querySelector('#output').width);
  await page.mouse.click(box.x + ((x + 0.5) / size) * box.width, box.y + ((y + 0.5) / size) * box.height);
}

test('value after N watches the instruction\'s destination; a click on its picture opens that pixel at that step', { timeout: 120_000 }, async () => {
  const { page, problems } = await setUp();
  let n = await probes(page);
  await page.locator('#view-mode').selectOption('value');
  await probed(page, n);
  // Instruction 0 is the ADD: it writes TEMP[0].x, so that is what the picture shows.
  assert.equal(await page.locator('#probe-register').inputValue(), 'TEMP[0].x');
  assert.equal(await page.locator('#probe-min').textContent(), '-63.5');
  // Instruction 2 (MUL) writes TEMP[1].x.
  n = await probes(page);
  await scrub(page, 2);
  await probed(page, n);
  assert.equal(await page.locator('#probe-register').inputValue(), 'TEMP[1].x');
  await page.waitForFunction(() => document.querySelector('#probe-max').textContent === '0.496094');
  // No loop around it: nothing to say about passes.
  assert.equal(await page.locator('#probe-loop').isVisible(), false);

  // A click on pixel (100, 20) of that picture opens its trace at the MUL, the step whose value
  // the picture shows there: (100.5 − 64) / 128 = 0.28515625, shown to 7 digits.
  await clickPixel(page, 100, 20);
  await page.waitForFunction(() => window.tgsiPlayground.trace?.pixel[0] === 100 && window.tgsiPlayground.trace?.pixel[1] === 20);
  await page.waitForFunction(() => document.querySelector('#trace-view').dataset.at === '2');
  assert.equal(await shown(page, 'TEMP[1].x', 0), '0.2851563');
  assert.match(await page.locator('.cm-trace-line').textContent(), /MUL TEMP\[1\]\.x/);
  // The probe holds the same bits for that pixel (its rows are top first).
  const bits = await page.evaluate(() => window.tgsiPlayground.probe.values[20 * 128 + 100]);
  assert.equal(new Float32Array(new Uint32Array([bits]).buffer)[0], 0.28515625);

  // A register typed by the user stays when the instruction changes.
  await page.locator('#probe-register').fill('TEMP[0].x');
  assert.equal(await page.locator('#probe-follow').isChecked(), false);
  n = await probes(page);
  await scrub(page, 3);
  await probed(page, n);
  assert.equal(await page.locator('#probe-register').inputValue(), 'TEMP[0].x');
  assert.deepEqual(problems, []);
  await page.close();
});

test('value after N inside a loop names the pass it shows', { timeout: 120_000 }, async () => {
  const { page, problems } = await setUp();
  // The loops lesson's solution: the loop counts TEMP[1].x up to ⌈8u⌉ (u = (x + 0.5) / 128);
  // the ADD is instruction 7.
  const fs = program('lessons/loops.solution');
  const r = await renderCount(page);
  await typeShader(page, fs);
  await waitForRender(page, r);
  await page.waitForFunction((text) => window.tgsiPlayground.rendered?.fs === text, fs);
  let n = await probes(page);
  await page.locator('#view-mode').selectOption('value');
  await probed(page, n);
  n = await probes(page);
  await scrub(page, 7);
  await probed(page, n);
  assert.equal(await page.locator('#probe-register').inputValue(), 'TEMP[1].x');
  // BGNLOOP is on line 8.
  assert.match(await page.locator('#probe-loop').textContent(), /inside the loop at line 8: each pixel shows its value after the last pass it made/);
  // Pixel (100, 20): 8u = 8 × 100.5 / 128 = 6.28…, so the ADD runs in passes 1 to 7 and leaves 7.
  await clickPixel(page, 100, 20);
  await page.waitForFunction(() => window.tgsiPlayground.trace?.pixel[0] === 100);
  await page.waitForFunction(() => /Pixel \(100, 20\): pass 7 of the loop at line 8/.test(document.querySelector('#probe-loop').textContent));
  assert.equal(await shown(page, 'TEMP[1].x', 0), '7');
  const bits = await page.evaluate(() => window.tgsiPlayground.probe.values[20 * 128 + 100]);
  assert.equal(new Float32Array(new Uint32Array([bits]).buffer)[0], 7);
  await saveScreenshot(page, 'inspector-probe-loop');
  assert.deepEqual(problems, []);
  await page.close();
});

// The quad in each engine (the engine's pixelBackends = `tgsi trace --backends`): MAD rounds
// twice in the interpreter, in the compiled module and in AGAL (mul then add), so all three give
// the same bits (tests/diff-pairs/README.md, `mad_mul_add`); FMA has no AGAL form, which the
// panel says once.
const MAD = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL IN[2], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR
  0: MAD OUT[0], IN[0], IN[1], IN[2]
  1: END
`;

/**
 * The playground with `engine` drawing the canvas and MAD in the editor, its pixel clicked and
 * the "each engine" panel open. `tableFor(p)`: the panel's text once the latest request for
 * pixel `p` has answered (read in one go).
 * @param {'compiled' | 'interpreter'} engine
 */
async function madEnginesPanel(engine) {
  const { page, problems } = await openPlayground(browser, server);
  await page.locator('#engine').selectOption(engine);
  await typeShader(page, MAD);
  // MAD's own frame, in that engine: a badge from the default shader's frame could come first,
  // and MAD's frame arriving after the click re-inspects the pixel, which reflows the trace
  // panel under the next click (it then lands beside the panel's summary).
  await page.waitForFunction((e) => window.tgsiPlayground.rendered?.fs.includes('MAD')
    && document.querySelector('#engine-badge')?.dataset.engine === e, engine, { timeout: 30_000 });
  await page.locator('#output').click();
  await page.waitForFunction(() => window.tgsiPlayground.trace !== null);
  const [x, y] = await page.evaluate(() => window.tgsiPlayground.trace.pixel);
  await page.locator('#trace-engines summary').click();
  const tableFor = async (/** @type {string} */ p) => {
    await page.waitForFunction((q) => {
      const t = document.querySelector('#trace-engines-table');
      return t.dataset.pixel === q && t.dataset.busy !== 'true';
    }, p, { timeout: 30_000 });
    return page.evaluate(() => document.querySelector('#trace-engines-table').textContent);
  };
  return { page, problems, x, y, tableFor };
}

/** How many lanes the panel's text shows in the interpreter (its rows with four words). @param {string} table */
const interpretedLanes = (table) => (table.match(/ {4}interpreter {2}[0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8}/g) ?? []).length;

test('the each-engine panel runs the quad compiled although the interpreter drew the canvas', { timeout: 120_000 }, async () => {
  // No worker has drawn this shader compiled, so none has its module: the panel's worker makes
  // it (as a worker that replaced a failed one must) instead of leaving the compiled row out.
  const { page, problems, x, y, tableFor } = await madEnginesPanel('interpreter');
  const table = await tableFor(`${x},${y}`);
  const covered = interpretedLanes(table);
  assert.ok(covered >= 1, table);
  assert.equal((table.match(/ {4}compiled {5}the same/g) ?? []).length, covered, table);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the inspected quad in each engine: interpreter, compiled and AGAL side by side', { timeout: 120_000 }, async () => {
  const { page, problems, x, y, tableFor } = await madEnginesPanel('compiled');
  const table = await tableFor(`${x},${y}`);
  assert.match(table, /^COLOR\[0\] of the quad at/);
  const covered = interpretedLanes(table);
  assert.ok(covered >= 1, table);
  assert.equal((table.match(/ {4}compiled {5}the same/g) ?? []).length, covered, table);
  assert.equal((table.match(/ {4}AGAL {9}the same/g) ?? []).length, covered, table);

  // FMA: not exported to AGAL, said once; a new click runs the new quad.
  await typeShader(page, MAD.replace('MAD', 'FMA'));
  await page.waitForFunction(() => window.tgsiPlayground.rendered?.fs.includes('FMA'), null, { timeout: 20_000 });
  await page.locator('#output').click({ position: { x: 10, y: 10 } });
  // The clicked pixel's own trace: FMA's frame re-inspects the old pixel first, and its table
  // already says "not exported".
  await page.waitForFunction(([ox, oy]) => {
    const t = window.tgsiPlayground.trace;
    return t !== null && (t.pixel[0] !== ox || t.pixel[1] !== oy)
      && /AGAL: not exported: FMA/.test(document.querySelector('#trace-engines-table').textContent);
  }, [x, y], { timeout: 30_000 });
  const [fx, fy] = await page.evaluate(() => window.tgsiPlayground.trace.pixel);
  const fma = await tableFor(`${fx},${fy}`);
  assert.equal((fma.match(/not exported/g) ?? []).length, 1, fma);
  assert.deepEqual(problems, []);
  await page.close();
});
