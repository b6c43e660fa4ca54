// The compiling tier on the page: a loop-heavy shader is drawn by its compiled module once the
// render workers have compiled it (the badge says "compiled"), the switch forces the
// interpreter, the canvas is the same bit for bit either way, shaders calling SIN or COS are
// compiled and texture sampling is left to the interpreter, a shader the code generator does
// not cover says why, and the switch is kept with the page's settings.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launchBrowser, startServer } from './support.mjs';
import { canvasPixels, openPlayground, renderCount, typeShader, waitForRender } from './playground.mjs';
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

// The corpus's 26_mandelbrot: a loop with two conditional breaks, integer and float ops.
const MANDELBROT = readFileSync(path.join(ROOT, 'tests/corpus/softpipe/26_mandelbrot.tgsi'), 'utf8');

// UMUL_HI has no compiled form: refused.
const NOT_COMPILED = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: UMUL_HI OUT[0], IN[0], IN[0]
  1: END
`;

// SIN and COS: the module calls the engine's own libm function for each quad (wasm to wasm).
const TRIG = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 9.0000, 0.5000, 1.0000, 0.0000 }
  0: MUL TEMP[0], IN[0], IMM[0].xxxx
  1: SIN TEMP[0].x, TEMP[0].xxxx
  2: COS TEMP[0].y, TEMP[0].yyyy
  3: MAD OUT[0].xy, TEMP[0], IMM[0].yyyy, IMM[0].yyyy
  4: MOV OUT[0].zw, IMM[0].wwwz
  5: END
`;

// Texture sampling: the page's auto engine leaves it to the interpreter.
const TEXTURED = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: END
`;

/** The badge: its text, state and tooltip. */
function badge(page) {
  return page.evaluate(() => {
    const b = document.querySelector('#engine-badge');
    return { text: b.textContent, state: b.dataset.engine, title: b.getAttribute('title') };
  });
}

/** Waits until the badge's state is `state` (a frame drawn by that engine is on the canvas). */
function waitForBadge(page, state) {
  return page.waitForFunction((s) => document.querySelector('#engine-badge')?.dataset.engine === s, state, { timeout: 30_000 });
}

async function selectEngine(page, engine) {
  const n = await renderCount(page);
  await page.locator('#engine').selectOption(engine);
  await waitForRender(page, n);
}

function countDifferent(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) n += 1;
  return n;
}

/**
 * At 128x128 with the page's default engine (auto): types `shader` after one that is never
 * compiled (the default example compiles too, so the "compiled" awaited is this shader's and not
 * a late frame of the one before), waits for its compiled frame, then switches to the
 * interpreter. Returns both canvases and the badge of the interpreter's frame.
 */
async function compiledThenInterpreted(page, shader) {
  const n = await renderCount(page);
  await page.locator('#size').selectOption('128');
  await waitForRender(page, n);
  await typeShader(page, NOT_COMPILED);
  await page.waitForFunction(() => /not compiled/.test(document.querySelector('#engine-badge')?.getAttribute('title') ?? ''), null, { timeout: 30_000 });
  await typeShader(page, shader);
  // auto (the default): the interpreter draws first, then the page draws again with the module.
  assert.equal(await page.evaluate(() => document.querySelector('#engine').value), 'auto');
  await waitForBadge(page, 'compiled');
  const compiled = await canvasPixels(page);
  assert.equal((await badge(page)).text, 'compiled');
  await selectEngine(page, 'interpreter');
  await waitForBadge(page, 'interpreter');
  const interpreted = await canvasPixels(page);
  assert.equal(interpreted.length, 128 * 128 * 4);
  return { compiled, interpreted, badge: await badge(page) };
}

test('a loop shader is drawn compiled once its module is ready, with the interpreter\'s pixels', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const { compiled, interpreted, badge: b } = await compiledThenInterpreted(page, MANDELBROT);
  assert.equal(b.text, 'interpreter');
  assert.match(b.title, /chosen with the engine switch/);
  assert.equal(countDifferent(compiled, interpreted), 0, 'the compiled module drew other pixels than the interpreter');
  // The picture is not blank: the escape counts differ across the set's border.
  assert.ok(new Set(Array.from(interpreted.filter((_, i) => i % 4 === 1))).size > 8, 'expected a range of greens');

  // Forced compiled: drawn by the module again (it is cached).
  await selectEngine(page, 'compiled');
  await waitForBadge(page, 'compiled');
  assert.equal(countDifferent(await canvasPixels(page), interpreted), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('auto compiles a shader calling SIN and COS, and leaves texture sampling to the interpreter', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const { compiled, interpreted } = await compiledThenInterpreted(page, TRIG);
  assert.equal(countDifferent(compiled, interpreted), 0, 'the compiled SIN and COS drew other pixels than the interpreter');
  assert.ok(new Set(Array.from(interpreted.filter((_, i) => i % 4 === 0))).size > 8, 'expected a range of reds');

  await selectEngine(page, 'auto');
  const m = await renderCount(page);
  await typeShader(page, TEXTURED);
  await waitForRender(page, m);
  await page.waitForFunction(() => /sample textures/.test(document.querySelector('#engine-badge')?.getAttribute('title') ?? ''), null, { timeout: 30_000 });
  const b = await badge(page);
  assert.equal(b.text, 'interpreter');
  assert.match(b.title, /the interpreter runs shaders that sample textures faster in the page/);
  assert.deepEqual(problems, []);
  await page.close();
});

// The cube at a fifth of its size across the top edge of the picture (NDC y 0.85..1.05: rows
// 236..255 of 256), so that only the last band of the frame has fragments to shade, however many
// bands. Its top lies outside the view, so the draw needs clipping and keeps denormals (a mesh
// entirely inside the view is shaded flushing denormals: docs/interpreter.md, "Denormals").
const TOP_VS = `VERT
DCL IN[0]
DCL OUT[0], POSITION
IMM[0] FLT32 {0.2000, 0.2000, 0.2000, 1.0000}
IMM[1] FLT32 {0.0000, 0.9500, 0.0000, 0.0000}
  0: MAD OUT[0], IN[0], IMM[0], IMM[1]
  1: END
`;
const FLAT_FS = `FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {0.2000, 0.4000, 0.6000, 1.0000}
  0: MOV OUT[0], IMM[0]
  1: END
`;

test('a frame whose other bands have nothing to shade is drawn compiled', { timeout: 120_000 }, async () => {
  const state = { ...defaultState(), fs: FLAT_FS, vs: TOP_VS, useVs: true, mesh: 'cube', size: 256 };
  const { page, problems } = await openPlayground(browser, server, { hash: `#${await encodeState(state)}` });
  await waitForBadge(page, 'compiled');
  const b = await badge(page);
  assert.equal(b.text, 'compiled');
  const pixels = await canvasPixels(page);
  // Row 10 from the top is in the cube (window row 245, NDC y 0.92); row 200 from the top is empty.
  const at = (x, y) => [...pixels.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)];
  assert.deepEqual(at(128, 10), [51, 102, 153, 255]);
  assert.deepEqual(at(128, 200), [0, 0, 0, 0]);
  assert.deepEqual(problems, []);
  await page.close();
});

// The same cube inside the view (NDC y 0.6..0.8): softpipe shades such a draw inside its draw
// call with denormals flushed, so the page compiles that form of the shader too (a second
// module, made once the first is ready) and draws the cube with it.
const INSIDE_VS = TOP_VS.replace('0.9500', '0.7000');

test('a mesh entirely inside the view is drawn by the compiled module of its flushing form', { timeout: 120_000 }, async () => {
  const state = { ...defaultState(), fs: FLAT_FS, vs: INSIDE_VS, useVs: true, mesh: 'cube', size: 256 };
  const { page, problems } = await openPlayground(browser, server, { hash: `#${await encodeState(state)}` });
  await waitForBadge(page, 'compiled');
  const b = await badge(page);
  assert.equal(b.text, 'compiled');
  const pixels = await canvasPixels(page);
  // Row 40 from the top (window row 215, NDC y 0.68) is in the cube.
  const at = (x, y) => [...pixels.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)];
  assert.deepEqual(at(128, 40), [51, 102, 153, 255]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a shader the code generator refuses is drawn by the interpreter, with the reason', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await selectEngine(page, 'compiled');
  const n = await renderCount(page);
  await typeShader(page, NOT_COMPILED);
  await waitForRender(page, n);
  // The worker reports the refusal with the first frame; wait for a frame of this text.
  await page.waitForFunction(() => /not compiled/.test(document.querySelector('#engine-badge')?.getAttribute('title') ?? ''), null, { timeout: 30_000 });
  const b = await badge(page);
  assert.equal(b.text, 'interpreter');
  // Asked for by name, the compiled engine's absence is marked.
  assert.equal(b.state, 'fallback');
  assert.match(b.title, /UMUL_HI is not compiled/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the engine switch is kept with the page\'s settings across a reload', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await selectEngine(page, 'interpreter');
  // The autosave runs shortly after a change.
  await page.waitForTimeout(800);
  await page.reload();
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  await page.waitForFunction(() => document.querySelector('#engine')?.value === 'interpreter', null, { timeout: 10_000 });
  assert.deepEqual(problems, []);
  await page.close();
});
