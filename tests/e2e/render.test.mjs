// The live canvas: it shows exactly what `tgsi render` writes for the same shader, constants
// change it, a share link reproduces it, every example draws, and an endless loop is stopped
// without freezing the page.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
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

/** Renders with the command-line tool and returns its PNG decoded to RGBA8, top row first. */
async function cliRender(page, fs, size, extra = []) {
  const out = await runTgsi(['render', 'fs.tgsi', '--size', `${size}x${size}`, ...extra, '-o', 'out.png'], { 'fs.tgsi': fs });
  try {
    return await decodePng(page, await out.read('out.png'));
  } finally {
    await out.cleanup();
  }
}

function countDifferent(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) n += 1;
  return n;
}

async function setSize(page, size) {
  const before = await renderCount(page);
  await page.locator('#size').selectOption(String(size));
  await waitForRender(page, before);
}

// An opaque picture (alpha 1 everywhere: the canvas stores premultiplied colours) that depends
// on both coordinates, a constant and a transcendental.
const SHADER = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0]
DCL TEMP[0]
IMM[0] FLT32 { 6.2832, 0.5000, 1.0000, 0.0000 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: SIN TEMP[0].x, TEMP[0].xxxx
  2: MAD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].yyyy
  3: MOV OUT[0].x, TEMP[0].xxxx
  4: MUL OUT[0].y, IN[0].yyyy, CONST[0][0].xxxx
  5: MOV OUT[0].z, CONST[0][0].yyyy
  6: MOV OUT[0].w, IMM[0].zzzz
  7: END
`;

/** Waits until the frame on the canvas was drawn with CONST[0][0].xy = `xy`. */
async function drawnWith(page, xy) {
  await page.waitForFunction((want) => {
    const c = window.tgsiPlayground.rendered?.constants?.find((k) => k.buffer === 0 && k.index === 0);
    return !!c && c.values[0] === want[0] && c.values[1] === want[1];
  }, xy, { timeout: 20_000 });
}

test('editing a shader redraws the canvas with the pixels of tgsi render', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await setSize(page, 128);
  const before = await renderCount(page);
  await typeShader(page, SHADER);
  await waitForRender(page, before);
  // Set the constant through its control: x = 1, y = 0.25.
  let n = await renderCount(page);
  await page.locator('fieldset[data-key="0:0"] input[data-component="x"]').fill('1');
  n = await waitForRender(page, n);
  await page.locator('fieldset[data-key="0:0"] input[data-component="y"]').fill('0.25');
  await waitForRender(page, n);
  // A redraw that started before the edit (the compiled module becoming ready) may be the one
  // counted: wait for the frame drawn with the values typed.
  await drawnWith(page, [1, 0.25]);
  const shown = await canvasPixels(page);
  const expected = await cliRender(page, SHADER, 128, ['--const', '0:0=1,0.25,0,0']);
  assert.equal(shown.length, expected.data.length);
  assert.equal(countDifferent(shown, expected.data), 0, 'the canvas differs from tgsi render');

  // The constant changes the picture: y = 0 turns the green channel off.
  n = await renderCount(page);
  await page.locator('fieldset[data-key="0:0"] input[data-component="x"]').fill('0');
  await waitForRender(page, n);
  await drawnWith(page, [0, 0.25]);
  const changed = await canvasPixels(page);
  assert.ok(countDifferent(shown, changed) > 0, 'changing CONST[0][0].x left the picture unchanged');
  const expected0 = await cliRender(page, SHADER, 128, ['--const', '0:0=0,0.25,0,0']);
  assert.equal(countDifferent(changed, expected0.data), 0, 'the canvas differs from tgsi render after the constant changed');
  await saveScreenshot(page, 'render-edited');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('every example renders', { timeout: 180_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  // Compute examples draw nothing: stages.test.mjs checks their buffers.
  const examples = await page.evaluate(() => window.tgsiPlayground.examples.filter((e) => e.stage !== 'compute').map((e) => ({ id: e.id, needs: e.needs ?? null })));
  const textures = await page.evaluate(() => window.tgsiPlayground.textureSupport);
  for (const ex of examples) {
    if (ex.needs === 'texture' && !textures) continue;
    const n = await renderCount(page);
    await page.evaluate((id) => window.tgsiPlayground.loadExample(id), ex.id);
    await waitForRender(page, n);
    const state = await page.locator('#output').getAttribute('data-state');
    assert.equal(state, 'ok', `example ${ex.id}: ${await page.locator('#render-status').textContent()}`);
    const status = await page.locator('#render-status').getAttribute('data-state');
    assert.equal(status, 'ok', `example ${ex.id}: ${await page.locator('#render-status').textContent()}`);
    if (['cube', 'mandelbrot', 'texture'].includes(ex.id)) await saveScreenshot(page, `example-${ex.id}`);
  }
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('a share link reproduces the same picture in a fresh page', { timeout: 120_000 }, async () => {
  const first = await browser.newContext();
  const { page, problems } = await openPlayground(browser, server, { context: first });
  let n = await renderCount(page);
  await page.evaluate(() => window.tgsiPlayground.loadExample('constants'));
  n = await waitForRender(page, n);
  await page.locator('fieldset[data-key="0:2"] input[data-component="x"]').fill('9');
  // The canvas holds the frame drawn with the new value (not one still drawing the old).
  await page.waitForFunction(() => (window.tgsiPlayground.rendered?.constants ?? []).some((c) => c.buffer === 0 && c.index === 2 && c.values[0] === 9), undefined, { timeout: 20_000 });
  const picture = await canvasPixels(page);
  const url = await page.evaluate(() => window.tgsiPlayground.copyLink());
  await first.close();

  const fresh = await browser.newContext();
  const { page: other, problems: otherProblems } = await openPlayground(browser, server, { context: fresh, hash: new URL(url).hash });
  await waitForRender(other, 0);
  await other.waitForFunction(() => (window.tgsiPlayground.rendered?.constants ?? []).some((c) => c.buffer === 0 && c.index === 2 && c.values[0] === 9), undefined, { timeout: 20_000 });
  assert.equal(countDifferent(await canvasPixels(other), picture), 0, 'the shared picture differs');
  await saveScreenshot(other, 'share-link-restored');
  assert.deepEqual([...problems, ...otherProblems], [], 'the pages reported problems');
  await fresh.close();
});

test('an endless loop is reported and the page stays responsive', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await setSize(page, 128);
  const endless = 'FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 { 1.0000, 0.0000, 0.0000, 1.0000 }\n  0: MOV TEMP[0], IMM[0]\n  1: BGNLOOP\n  2:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n  3: ENDLOOP\n  4: MOV OUT[0], TEMP[0]\n  5: END\n';
  await typeShader(page, endless);
  await page.waitForSelector('#render-status[data-state="error"]', { timeout: 30_000 });
  const message = await page.locator('#render-status').textContent();
  assert.ok(message.length > 0, 'no message for the endless loop');
  // The main thread answers at once while (or after) the loop was running.
  const t0 = Date.now();
  await page.evaluate(() => 1);
  assert.ok(Date.now() - t0 < 1000, 'the page did not answer within a second');
  await saveScreenshot(page, 'endless-loop-stopped');

  // Another edit still renders.
  const n = await renderCount(page);
  await typeShader(page, 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.0000, 1.0000, 0.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n');
  await waitForRender(page, n);
  // A frame of the endless shader may still finish after the edit (the compiled engine's
  // module becoming ready asks for one more frame): wait, up to 30 s, for the new shader's.
  let pixels = await canvasPixels(page);
  for (let t = Date.now(); Date.now() - t < 30_000; pixels = await canvasPixels(page)) {
    const state = await page.locator('#render-status').getAttribute('data-state');
    if (state === 'ok' && pixels[1] === 255) break;
    await page.waitForTimeout(200);
  }
  // Pure green, opaque, everywhere (the shader's immediate, written by hand above).
  assert.deepEqual([...pixels.slice(0, 4)], [0, 255, 0, 255]);
  assert.equal(await page.locator('#render-status').getAttribute('data-state'), 'ok');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

/** A page at `size` drawing with the interpreter only. */
async function interpreterPage(size) {
  const { page, problems } = await openPlayground(browser, server);
  await setSize(page, size);
  const drawn = await renderCount(page);
  await page.locator('#engine').selectOption('interpreter');
  await waitForRender(page, drawn);
  return { page, problems };
}

/**
 * At 1024x1024 with the interpreter only: with the compiled engine the module becoming ready
 * redraws the frame, a second slow frame these tests do not expect. (A compiled run of the
 * same loop stops at the time limit too: `crate/tests/web/jit.rs`,
 * `a_time_limit_ends_a_compiled_loop_in_the_browser`.) The budget weighs SIN 8, so that an
 * endless loop of SIN of large arguments is stopped by the budget within a few seconds: at
 * 512x512 a band of it may run out of budget before its time limit; at 1024x1024 each band's
 * budget (proportional to its quads) lasts several times the time limit.
 */
const slowFramePage = () => interpreterPage(1024);

/**
 * An endless loop of SIN of arguments near 1000 (SIN past 120 reduces its argument with 2/pi in
 * integer arithmetic): at 1024x1024 each band's budget would last about 8 s natively, so the
 * band's time limit stops it first.
 */
const SLOW_SIN_LOOP = 'FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\nIMM[0] FLT32 { 0.0010, 1000.0000, 0.0000, 1.0000 }\n  0: ADD TEMP[0], IN[0], IMM[0].yyyy\n  1: BGNLOOP\n  2:   SIN TEMP[1].x, TEMP[0].xxxx\n  3:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n  4: ENDLOOP\n  5: MOV OUT[0], TEMP[1]\n  6: END\n';

test('an edit does not wait for a slow frame of the old text', { timeout: 120_000 }, async () => {
  const { page, problems } = await slowFramePage();
  // SLOW_SIN_LOOP runs until each band's time limit stops it; a frame still drawing when an
  // edit arrives is abandoned after ABANDON_AFTER_MS (render-pool.js). WebKitGTK does not end
  // the abandoned workers inside the engine call, and the new workers barely run beside them
  // until the time limit ends them: the new frame is drawn about FRAME_TIME_LIMIT_S after the
  // old one started, not at once.
  await typeShader(page, SLOW_SIN_LOOP);
  await page.waitForFunction(() => window.tgsiPlayground.state.fs.includes('BGNLOOP'));
  await settle(page, 300);
  const before = await page.evaluate(() => window.tgsiPlayground.abandoned);
  await typeShader(page, 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.0000, 0.0000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n');
  await page.waitForFunction(() => document.querySelector('#output').dataset.state === 'ok' && window.tgsiPlayground.rendered?.fs.includes('0.0000, 0.0000, 1.0000'), undefined, { timeout: 30_000 });
  // Blue (0, 0, 1, 1 written by hand above), and the slow frame was abandoned, not awaited.
  assert.deepEqual([...(await canvasPixels(page)).slice(0, 4)], [0, 0, 255, 255]);
  assert.ok((await page.evaluate(() => window.tgsiPlayground.abandoned)) > before, 'the slow frame was awaited');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('a frame longer than its time limit stops itself before the watchdog', { timeout: 120_000 }, async () => {
  const { page, problems } = await slowFramePage();
  // SLOW_SIN_LOOP's budget would let each band run for 8 s. The engine stops each band after
  // FRAME_TIME_LIMIT_S (4 s, render-pool.js) by itself, before the watchdog (8 s), which would
  // end the workers and show no picture: a browser that cannot end a worker inside an engine
  // call (WebKitGTK) relies on this to draw the next edit.
  const n = await renderCount(page);
  await typeShader(page, SLOW_SIN_LOOP);
  await page.waitForFunction(() => /stopped after/.test(document.querySelector('#render-status').textContent), undefined, { timeout: 30_000 });
  assert.match(await page.locator('#render-status').textContent(), /^Stopped: stopped after 4 seconds \(the frame's time limit\) at (SIN|ADD|ENDLOOP|BGNLOOP)\. The picture shows what was drawn until then\.$/);
  assert.equal(await page.locator('#output').getAttribute('data-state'), 'partial');
  assert.ok((await page.evaluate(() => window.tgsiPlayground.rendered?.fs)).includes('SIN'), 'the canvas holds another frame');
  assert.ok((await renderCount(page)) > n, 'no frame was drawn');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

/**
 * A page at 128x128 drawing with the interpreter only: with the compiled engine a module
 * becoming ready redraws the frame, and that redraw could take the failure meant for the edit.
 */
const pageForWorkerFailures = () => interpreterPage(128);

const oneColour = (rgb) => `FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { ${rgb}, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n`;

test('a render worker that fails is replaced and the frame is drawn again', { timeout: 90_000 }, async () => {
  const { page, problems } = await pageForWorkerFailures();
  await page.evaluate(() => window.tgsiPlayground.failNextFrame(1));
  await typeShader(page, oneColour('0.0000, 1.0000, 0.0000'));
  // Fresh workers draw the same frame: green (0, 1, 0, 1 written by hand).
  await page.waitForFunction(() => document.querySelector('#render-status').dataset.state === 'ok' && window.tgsiPlayground.rendered?.fs.includes('0.0000, 1.0000, 0.0000'), undefined, { timeout: 20_000 });
  assert.deepEqual([...(await canvasPixels(page)).slice(0, 4)], [0, 255, 0, 255]);
  assert.equal(await page.evaluate(() => window.tgsiPlayground.replacedWorkers), 1);
  assert.equal(await page.evaluate(() => window.tgsiPlayground.retriedFrames), 1);
  // The WebDriver adapter also sees the worker's own uncaught error; nothing else went wrong.
  assert.deepEqual(problems.filter((p) => !/simulated worker failure/.test(p)), [], 'the page reported problems');
  await page.close();
});

test('a frame whose workers fail twice says so, and the next edit is drawn', { timeout: 90_000 }, async () => {
  const { page, problems } = await pageForWorkerFailures();
  await page.evaluate(() => window.tgsiPlayground.failNextFrame(2));
  await typeShader(page, oneColour('0.0000, 1.0000, 0.0000'));
  await page.waitForFunction(() => /a render worker failed/.test(document.querySelector('#render-status').textContent), undefined, { timeout: 20_000 });
  assert.equal(await page.evaluate(() => window.tgsiPlayground.replacedWorkers), 2);
  assert.equal(await page.evaluate(() => window.tgsiPlayground.retriedFrames), 1);
  // The fresh workers draw the next edit: blue (0, 0, 1, 1 written by hand).
  await typeShader(page, oneColour('0.0000, 0.0000, 1.0000'));
  await page.waitForFunction(() => document.querySelector('#render-status').dataset.state === 'ok' && window.tgsiPlayground.rendered?.fs.includes('0.0000, 0.0000, 1.0000'), undefined, { timeout: 20_000 });
  assert.deepEqual([...(await canvasPixels(page)).slice(0, 4)], [0, 0, 255, 255]);
  assert.deepEqual(problems.filter((p) => !/simulated worker failure/.test(p)), [], 'the page reported problems');
  await page.close();
});

test('a frame stopped by the budget shows what was drawn until then', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await setSize(page, 128);
  // The lower half of the picture (window y < 64, y counted upwards) is green at once; the
  // upper half loops forever. The workers draw bands of rows, each with its share of the
  // frame's budget: the bands of the lower half finish, the others stop.
  const half = `FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 64.0000, 1.0000, 0.0000, 0.0000 }
  0: MOV OUT[0], IMM[0].zyzy
  1: FSLT TEMP[0].x, IN[0].yyyy, IMM[0].xxxx
  2: UIF TEMP[0].xxxx
  3: ELSE
  4:   BGNLOOP
  5:   ENDLOOP
  6: ENDIF
  7: END
`;
  const n = await renderCount(page);
  await typeShader(page, half);
  await waitForRender(page, n);
  await page.waitForSelector('#output[data-state="partial"]', { timeout: 30_000 });
  assert.match(await page.locator('#render-status').textContent(), /^Stopped: stopped after \d+ instructions of work \(counted per quad; the budget\).*what was drawn until then/);
  const pixels = await canvasPixels(page);
  // The bottom row is green (0, 1, 0, 1 written by hand above); the top row was never drawn.
  const bottom = (127 * 128 + 5) * 4;
  assert.deepEqual([...pixels.slice(bottom, bottom + 4)], [0, 255, 0, 255]);
  assert.notDeepEqual([...pixels.slice(20, 24)], [0, 255, 0, 255]);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the shared worker pool: answers by job, a watchdog stop and a failure replace the worker, a restart ends its jobs', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const r = await page.evaluate(async () => {
    const { WorkerPool } = await import('./web/worker-pool.js');
    const notes = [];
    const failures = [];
    let started = 0;
    const pool = new WorkerPool(() => { started += 1; return new Worker('/tests/e2e/fixtures/pool-worker.js'); },
      { onMessage: (_w, m) => notes.push(m.value), onFailure: (_w, m) => failures.push(m) });
    pool.add();
    pool.add();
    // Two jobs at once on two workers: each answer reaches its own job.
    const [a, b] = await Promise.all([pool.send(0, { type: 'double', value: 21 }), pool.send(1, { type: 'double', value: 5 })]);
    // A message that answers no job goes to the user's hook.
    pool.workers[1].postMessage({ type: 'note', value: 'unasked' });
    const first = pool.workers[0];
    const stopped = await pool.send(0, { type: 'hang', ms: 3000 }, { limitMs: 300 });
    const replacedByWatchdog = pool.workers[0] !== first;
    const afterStop = await pool.send(0, { type: 'double', value: 4 });
    const failing = pool.workers[1];
    const failed = await pool.send(1, { type: 'fail' });
    const replacedAfterFailure = pool.workers[1] !== failing;
    const hanging = pool.send(0, { type: 'hang', ms: 2000 }, { limitMs: 20_000 });
    pool.restart();
    const replaced = await hanging;
    const afterRestart = await pool.send(0, { type: 'double', value: 8 });
    for (const w of pool.workers) w.terminate();
    return { a: a.answer?.value, b: b.answer?.value, notes, stopped, replacedByWatchdog, afterStop: afterStop.answer?.value,
      failed: 'failed' in failed && /pool test failure/.test(failed.failed), failures: failures.length, replacedAfterFailure,
      replaced, afterRestart: afterRestart.answer?.value, started, jobsLeft: pool.jobs.size };
  });
  // Values doubled by the stand-in worker: 42, 10, 8, 16.
  assert.equal(r.a, 42);
  assert.equal(r.b, 10);
  assert.deepEqual(r.notes, ['unasked']);
  assert.deepEqual(r.stopped, { stopped: true });
  assert.ok(r.replacedByWatchdog, 'the stuck worker was replaced');
  assert.equal(r.afterStop, 8, 'the fresh worker answers');
  assert.ok(r.failed, 'the failed job says why');
  assert.equal(r.failures, 1);
  assert.ok(r.replacedAfterFailure, 'the failed worker was replaced');
  assert.deepEqual(r.replaced, { replaced: true });
  assert.equal(r.afterRestart, 16);
  // Two at the start, one after the stop, one after the failure, two at the restart.
  assert.equal(r.started, 6);
  assert.equal(r.jobsLeft, 0);
  assert.deepEqual(problems.filter((p) => !/pool test failure/.test(p)), [], 'the page reported problems');
  await page.close();
});

test('a pool started before the engine is compiled draws once the module arrives; the page fetches its engine once', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const r = await page.evaluate(async (fs) => {
    // The page's bundle imports boot.js, engine.js and render-pool.js instead of bundling its
    // own copies: a copy of engine.js would compile (and fetch) the engine a second time. (Counted
    // before this test's own imports, which in Firefox's WebDriver pages are other modules.)
    const engineFetches = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/tgsi_bg.wasm')).length;
    const { RenderPool } = await import('./web/render-pool.js');
    const { engineModule } = await import('./web/engine.js');
    /** @type {(m: WebAssembly.Module) => void} */
    let give = () => {};
    const later = new Promise((resolve) => { give = resolve; });
    // As boot.js does: the workers start first. The frame is asked for before they have the
    // module, so its bands reach them before their instance exists and must wait for it.
    const pool = new RenderPool(later, 2);
    const frame = pool.render({ fs, vs: null, gs: null, mesh: 'fullscreen', width: 8, height: 8, engine: 'interpreter',
      builtins: { width: 8, height: 8, time: 0, timeDelta: 0, frame: 0, mouse: [0, 0], mouseDown: false } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    give(await engineModule());
    const result = await frame;
    return {
      error: result.error ?? null,
      corners: result.image ? [[...result.image.data.slice(0, 4)], [...result.image.data.slice(252, 256)]] : null,
      engineFetches,
    };
  }, oneColour('1.0000, 0.0000, 0.0000'));
  assert.equal(r.error, null);
  // MOV OUT[0], (1, 0, 0, 1): red in both corners of both bands.
  assert.deepEqual(r.corners, [[255, 0, 0, 255], [255, 0, 0, 255]]);
  assert.equal(r.engineFetches, 1);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the pool draws each frame whole into a kept picture, never into the one last shown', { timeout: 90_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  // Right half blue, left half discarded (KILL_IF where uv.x - 0.5 < 0): those pixels stay
  // cleared to 0, 0, 0, 0, whatever the reused picture held before.
  const half = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5000, 0.0000, 1.0000, 0.0000 }
  0: ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx
  1: KILL_IF TEMP[0].xxxx
  2: MOV OUT[0], IMM[0].yyzz
  3: END
`;
  const frames = await page.evaluate(async ([red, green, half]) => {
    const { RenderPool } = await import('./web/render-pool.js');
    const { engineModule } = await import('./web/engine.js');
    const pool = new RenderPool(await engineModule(), 2);
    const draw = (/** @type {string} */ fs) => pool.render({ fs, vs: null, gs: null, mesh: 'fullscreen', width: 8, height: 8, engine: 'interpreter',
      builtins: { width: 8, height: 8, time: 0, timeDelta: 0, frame: 0, mouse: [0, 0], mouseDown: false } });
    // Pixels (0, 0) and (7, 7) of a picture (top row first).
    const corners = (/** @type {ImageData} */ image) => [[...image.data.slice(0, 4)], [...image.data.slice(252, 256)]];
    const a = await draw(red);
    const b = await draw(green);
    const aAfterB = corners(a.image);
    const c = await draw(half);
    const bAfterC = corners(b.image);
    const d = await draw(red);
    const cAfterD = corners(c.image);
    // A frame drawn twice (its first try's worker fails, fresh workers draw it again) never
    // draws into the picture the last frame resolved with.
    pool.crashNext = 1;
    const e = await draw(green);
    const retried = pool.retried;
    // Each band's buffer kept to go back to its worker with the next band (`pixelsInto`):
    // 4 rows x 8 pixels x 4 bytes.
    const buffers = pool.bandBuffers.map((b) => b?.byteLength ?? null);
    for (const w of pool.workers) w.terminate();
    // Each picture read while it is still its frame's: until a newer frame has resolved.
    return {
      a: aAfterB, b: bAfterC, c: cAfterD, d: corners(d.image), e: corners(e.image), retried, buffers,
      same: [a.image === b.image, c.image === a.image, d.image === b.image, e.image === d.image],
    };
  }, [oneColour('1.0000, 0.0000, 0.0000'), oneColour('0.0000, 1.0000, 0.0000'), half]);
  // Written by hand: red, green and blue at 255 with alpha 255; discarded pixels all 0.
  assert.deepEqual(frames.a, [[255, 0, 0, 255], [255, 0, 0, 255]], 'the first frame\'s picture is untouched by the second');
  assert.deepEqual(frames.b, [[0, 255, 0, 255], [0, 255, 0, 255]], 'the second frame\'s picture is untouched by the third');
  assert.deepEqual(frames.c, [[0, 0, 0, 0], [0, 0, 255, 255]], 'the third frame left nothing of the first in the picture it reused');
  assert.deepEqual(frames.d, [[255, 0, 0, 255], [255, 0, 0, 255]], 'the fourth frame\'s picture is untouched by the retried fifth');
  assert.deepEqual(frames.e, [[0, 255, 0, 255], [0, 255, 0, 255]]);
  assert.equal(frames.retried, 1);
  assert.deepEqual(frames.buffers, [128, 128], 'the bands\' buffers are not kept for their workers');
  // Two pictures in turn: the third frame draws into the first one's, the fourth into the
  // second's; both tries of the fifth into the third's, not into the fourth's.
  assert.deepEqual(frames.same, [false, true, true, false]);
  // The WebDriver adapter also sees the worker's own uncaught error; nothing else went wrong.
  assert.deepEqual(problems.filter((p) => !/simulated worker failure/.test(p)), [], 'the page reported problems');
  await page.close();
});

test('playing draws frame after frame, its numbers written at most ten times a second; a pause shows the last frame\'s', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const before = await renderCount(page);
  const seen = await page.evaluate(async () => {
    const label = /** @type {HTMLElement} */ (document.querySelector('#frame-time'));
    const table = /** @type {HTMLElement} */ (document.querySelector('#builtins'));
    const canvas = /** @type {HTMLElement} */ (document.querySelector('#output'));
    // Every write of the label's text, and every write of the built-in values' table.
    let labelWrites = 0;
    let tableWrites = 0;
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        if (label.contains(r.target)) labelWrites += 1;
        else if (table.contains(r.target)) tableWrites += 1;
      }
    });
    observer.observe(label, { childList: true, characterData: true, subtree: true });
    observer.observe(table, { childList: true, characterData: true, subtree: true });
    const first = Number(canvas.dataset.renders);
    /** @type {HTMLButtonElement} */ (document.querySelector('#play')).click();
    const started = performance.now();
    // At least 3 s and 40 frames (a loaded machine draws fewer a second), at most 10 s.
    while (performance.now() - started < 10_000
      && (performance.now() - started < 3000 || Number(canvas.dataset.renders) - first < 40)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    /** @type {HTMLButtonElement} */ (document.querySelector('#play')).click();
    const seconds = (performance.now() - started) / 1000;
    observer.disconnect();
    return { frames: Number(canvas.dataset.renders) - first, seconds, labelWrites, tableWrites };
  });
  // Enough frames for the spacing to show: each of them would have written both otherwise.
  assert.ok(seen.frames >= 40, `only ${seen.frames} frames in ${seen.seconds.toFixed(1)} s`);
  const most = Math.ceil(seen.seconds * 10) + 2;
  assert.ok(seen.labelWrites >= 3 && seen.labelWrites <= most, `the frame time was written ${seen.labelWrites} times for ${seen.frames} frames`);
  // The built-in values' row of time changes with every frame: one cell written per write.
  assert.ok(seen.tableWrites >= 3 && seen.tableWrites <= most, `the built-in values were written ${seen.tableWrites} times for ${seen.frames} frames`);
  // Paused, the label comes to say the last frame's time (the frame's figure as a number).
  await page.waitForFunction(() => {
    const label = /** @type {HTMLElement} */ (document.querySelector('#frame-time'));
    return label.textContent === `${Number(label.dataset.ms).toFixed(1)} ms/frame`;
  }, null, { timeout: 5_000 });
  assert.ok(await renderCount(page) > before);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the page starts no more render workers than the machine has cores to spare (two at least)', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  // The machine's cores as the operating system counts them: the browser runs on this machine.
  // WebKit reports 4 or 8 whatever the machine has; the page must not take that at its word.
  const spare = Math.max(availableParallelism() - 1, 2);
  const workers = await page.evaluate(async () => (await import('./web/boot.js')).renderPool.workers.length);
  assert.ok(workers >= 2 && workers <= spare, `${workers} render workers on ${availableParallelism()} cores`);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});
