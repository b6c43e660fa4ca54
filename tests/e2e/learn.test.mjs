// The "Learn TGSI" page (learn/index.html): every lesson's reference solution passes its goal
// check and its starting program does not, checked in the page by the page's own checker on the
// wasm engine; one lesson end to end through the UI (type, Check, hint, success); progress kept
// across a reload and hostile storage ignored. Without a browser: each solution is correct TGSI
// for the command-line tool (no diagnostic at all), and the picture `tgsi render` draws of it
// meets the goal's formula, so the goals agree with the native renderer too.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, launchBrowser, openPage, saveScreenshot, skipIn, startServer } from './support.mjs';
import { openPlayground, runTgsi, typeShader, waitForRender } from './playground.mjs';
import { LESSONS } from '../../web/learn/lessons.js';
import { TOLERANCE, comparePicture, renderOptions } from '../../web/learn/checker.js';
import { MAX_SAVED_TEXT, PROGRESS_KEY, loadProgress, saveProgress } from '../../web/learn/progress.js';
import { decodeState } from '../../web/state.js';

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

/** Opens the learn page (optionally at a lesson) and waits until its engine is ready. */
async function openLearn(hash = '') {
  const { page, problems } = await openPage(browser);
  await page.goto(`${server.url}learn/${hash}`);
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  return { page, problems };
}

/** The lesson's current text in the page's editor. */
const editorText = (page) => page.evaluate(() => document.querySelector('.cm-content').innerText);

/** Waits until the result box says pass or fail, and returns its state and text. */
async function result(page) {
  await page.waitForSelector('#result[data-status="pass"], #result[data-status="fail"]', { timeout: 10_000 });
  const box = page.locator('#result');
  return { status: await box.getAttribute('data-status'), text: await box.textContent() };
}

test('the playground links to the learn page, which lists every lesson', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  // Leave only after the playground has drawn (its workers loaded): no request is cut short.
  await waitForRender(page);
  await page.locator('a[href="learn/"]').click();
  // The playground has its own ready engine version: wait for the learn page's lesson list, or
  // the list could be read on the page being left.
  await page.waitForSelector('#lessons a', { timeout: 20_000 });
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  const titles = await page.$$eval('#lessons a', (links) => links.map((a) => a.textContent));
  assert.deepEqual(titles, LESSONS.map((l, i) => `${i + 1}. ${l.title}`));
  assert.ok(LESSONS.length >= 12, `${LESSONS.length} lessons`);
  await saveScreenshot(page, 'learn-page');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('every lesson: the solution passes its check and the starting program does not', { timeout: 120_000 }, async () => {
  const { page, problems } = await openLearn();
  const verdicts = await page.evaluate((lessons) => lessons.map(({ id, start, solution }) => ({
    id, start: window.tgsiLearn.check(id, start), solution: window.tgsiLearn.check(id, solution),
  })), LESSONS.map(({ id, start, solution }) => ({ id, start, solution })));
  assert.equal(verdicts.length, LESSONS.length);
  for (const v of verdicts) {
    assert.equal(v.solution.ok, true, `${v.id}: the solution fails: ${v.solution.message}`);
    assert.equal(v.start.ok, false, `${v.id}: the starting program already passes`);
    assert.ok(v.start.message.length > 0, `${v.id}: a failure without a message`);
  }
  // Every lesson opens (Next, one after another) and its starting program draws.
  for (let i = 0; i < LESSONS.length; i += 1) {
    if (i > 0) {
      const before = await page.evaluate(() => Number(document.querySelector('#picture').dataset.renders ?? 0));
      await page.locator('#next').click();
      await page.waitForFunction((n) => Number(document.querySelector('#picture').dataset.renders ?? 0) > n, before);
    }
    assert.equal(await page.locator('#lesson').getAttribute('data-lesson'), LESSONS[i].id);
    assert.equal(await page.locator('#picture-note').textContent(), '', `${LESSONS[i].id}: the starting program did not draw`);
    assert.equal((await editorText(page)).trim(), LESSONS[i].start.trim());
  }
  assert.equal(await page.locator('#next').isDisabled(), true);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('a lesson through the UI: Check gives the hint, the typed solution passes, progress survives a reload', { timeout: 90_000 }, async () => {
  const lesson = LESSONS.find((l) => l.id === 'arithmetic');
  const { page, problems } = await openLearn(`#${lesson.id}`);
  assert.equal(await page.locator('#lesson').getAttribute('data-lesson'), lesson.id);
  // The lesson links to the reference section of each opcode it teaches, at the site's root
  // (not under learn/ or web/learn/, where the page and its bundle live).
  const refs = await page.$$eval('#lesson-refs a', (links) => links.map((a) => /** @type {HTMLAnchorElement} */ (a).href));
  const here = await page.evaluate(() => location.href);
  assert.deepEqual(refs, lesson.opcodes.map((op) => new URL(`/reference/#${op}`, here).href));

  await page.locator('#check').click();
  const before = await result(page);
  assert.equal(before.status, 'fail');
  assert.ok(before.text.includes(`Hint: ${lesson.hint}`), before.text);
  // The starting program draws u², not u³: the differences figure appears.
  assert.equal(await page.locator('#differences').isVisible(), true);
  await saveScreenshot(page, 'learn-check-failed');

  // Too long: the instruction limit is checked before the pixels.
  await typeShader(page, lesson.solution.replace('  3: END', '  3: MOV OUT[0].w, IMM[0].yyyy\n  4: END'));
  await page.locator('#check').click();
  const long = await result(page);
  assert.equal(long.status, 'fail');
  assert.match(long.text, /at most 3 instructions .* has 4/);

  // Meanwhile another tab passed the swizzle lesson: saving here keeps that.
  await page.evaluate((key) => {
    const stored = JSON.parse(localStorage.getItem(key));
    localStorage.setItem(key, JSON.stringify({ ...stored, done: [...stored.done, 'swizzle'] }));
  }, PROGRESS_KEY);
  await typeShader(page, lesson.solution);
  await page.locator('#check').click();
  const passed = await result(page);
  assert.equal(passed.status, 'pass', passed.text);
  assert.ok(passed.text.includes(lesson.success), passed.text);
  assert.equal(await page.locator('#differences').isVisible(), false);
  await saveScreenshot(page, 'learn-check-passed');
  assert.equal(await page.locator(`#lessons a[data-lesson="${lesson.id}"]`).getAttribute('data-done'), 'true');
  assert.equal(await page.locator('#progress-count').textContent(), `2 of ${LESSONS.length} lessons done`);
  assert.equal(await page.locator('#lessons a[data-lesson="swizzle"]').getAttribute('data-done'), 'true');

  await page.reload();
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  assert.equal(await page.locator('#lesson').getAttribute('data-lesson'), lesson.id, 'the open lesson was not kept');
  assert.equal(await page.locator(`#lessons a[data-lesson="${lesson.id}"]`).getAttribute('data-done'), 'true');
  assert.equal((await editorText(page)).trim(), lesson.solution.trim(), 'the typed text was not kept');
  // Show solution and Start over are edits: undo brings the learner's text back.
  await typeShader(page, `${lesson.solution}\n`);
  await page.locator('#reset').click();
  assert.equal((await editorText(page)).trim(), lesson.start.trim());
  await page.keyboard.press('Control+Z');
  assert.equal((await editorText(page)).trim(), lesson.solution.trim(), 'undo did not bring the text back');
  // Another lesson still shows its starting program.
  await page.locator(`#lessons a[data-lesson="registers"]`).click();
  await page.waitForFunction(() => document.querySelector('#lesson').dataset.lesson === 'registers');
  assert.equal((await editorText(page)).trim(), LESSONS[0].start.trim());
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('every lesson links to the playground holding its program; the link opens it there for the inspector', { timeout: 120_000 }, async () => {
  const { page, problems } = await openLearn();
  for (const lesson of LESSONS) {
    await page.evaluate((id) => window.tgsiLearn.open(id), lesson.id);
    await page.waitForSelector(`#inspect-link[data-lesson="${lesson.id}"]`, { state: 'attached' });
    const href = await page.locator('#inspect-link').getAttribute('href');
    // The link is a playground share link (decoded here by the playground's own reader, as the
    // playground will): the lesson's program in its stage, its other shader, mesh and textures.
    assert.match(href, /^\.\.\/#s=/, `${lesson.id}: ${href}`);
    const state = await decodeState(href.slice(href.indexOf('#')));
    assert.ok(state, `${lesson.id}: the link holds no state`);
    if (lesson.stage === 'vs') {
      assert.deepEqual([state.vs, state.fs, state.useVs, state.mesh], [lesson.start, lesson.fs, true, lesson.mesh ?? 'fullscreen'], lesson.id);
    } else {
      assert.deepEqual([state.fs, state.useVs], [lesson.start, false], lesson.id);
    }
    assert.deepEqual(state.textures, lesson.textures ?? {}, lesson.id);
  }
  // The derivatives lesson's solution, through the link: the playground draws it, and a traced
  // pixel shows the DDX step with the two pixels it subtracts.
  await page.evaluate(() => window.tgsiLearn.open('derivatives'));
  await page.waitForSelector('#inspect-link[data-lesson="derivatives"]', { state: 'attached' });
  await page.locator('#solution').click();
  const solution = LESSONS.find((l) => l.id === 'derivatives').solution;
  await page.waitForFunction((text) => document.querySelector('.cm-content').innerText.trim() === text.trim(), solution);
  // The link follows the edit (it is rewritten as the text changes: read until it holds it).
  let linked = null;
  for (const until = Date.now() + 10_000; linked !== solution && Date.now() < until;) {
    const href = await page.locator('#inspect-link').getAttribute('href');
    linked = (await decodeState(href.slice(href.indexOf('#'))))?.fs ?? null;
    if (linked !== solution) await page.waitForTimeout(100);
  }
  assert.equal(linked, solution, 'the link does not hold the shown solution');
  await page.waitForTimeout(600);
  await page.locator('#inspect-link').click();
  await page.waitForFunction(() => /\/#s=/.test(location.href) && document.querySelector('#engine-version')?.dataset.state === 'ready', null, { timeout: 30_000 });
  await page.waitForFunction((text) => window.tgsiPlayground?.rendered?.fs === text, solution, { timeout: 30_000 });
  // Pixel (10, 20) of the 128-pixel picture: the top-left pixel of its quad.
  await page.evaluate(() => window.tgsiPlayground.inspect(10, 20));
  await page.waitForFunction(() => window.tgsiPlayground.trace?.pixel[0] === 10);
  const ddx = await page.evaluate(() => window.tgsiPlayground.trace.steps.findIndex((s) => s.opcode === 'DDX'));
  assert.equal(ddx, 2, 'the DDX is the third step');
  assert.deepEqual(problems, [], 'the pages reported problems');
  await page.close();
});

test('a program that loops forever is stopped by the budget and reported, and the page goes on', { timeout: 60_000 }, async () => {
  const { page, problems } = await openLearn('#loops');
  const endless = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0, 0.5, 0.0, 1.0 }\nBGNLOOP\nADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\nENDLOOP\nEND\n';
  await typeShader(page, endless);
  await page.waitForFunction(() => document.querySelector('#picture-note').textContent.includes('X005'), null, { timeout: 10_000 });
  // The budget counts each instruction once per quad (the loops lesson checks 32x32 pixels:
  // 256 quads). BGNLOOP costs 256, each ADD 256 before the check, each ENDLOOP 256 after it:
  // after k iterations 256 (2k + 1). The ENDLOOP of iteration 65536 is checked at
  // 256 x 131072 = 2^25, the budget, and passes; the next ADD makes 2^25 + 768: it stops there,
  // on line 5.
  assert.match(await page.locator('#picture-note').textContent(), /^line 5, column 1: X005 /);
  await page.locator('#check').click();
  const verdict = await result(page);
  assert.equal(verdict.status, 'fail');
  assert.match(verdict.text, /did not render: line 5, column 1: X005 /);
  // The next program draws and passes.
  await typeShader(page, LESSONS.find((l) => l.id === 'loops').solution);
  await page.waitForFunction(() => document.querySelector('#picture-note').textContent === '', null, { timeout: 10_000 });
  // Ctrl+Enter in the editor checks, and inserts no line.
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('#result[data-status="pass"]', { timeout: 10_000 });
  assert.equal((await editorText(page)).trim(), LESSONS.find((l) => l.id === 'loops').solution.trim());
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the picture shows what the program draws, next to the goal', { timeout: 60_000 }, async () => {
  const lesson = LESSONS.find((l) => l.id === 'registers');
  const { page, problems } = await openLearn(`#${lesson.id}`);
  await page.locator('#solution').click();
  await page.waitForFunction(() => Number(document.querySelector('#picture').dataset.renders ?? 0) >= 2);
  // The solution paints (1, 0.5, 0, 1) everywhere; 0.5 is 127 or 128 in 8 bits.
  const [mine, goal] = await page.evaluate(() => ['#picture', '#goal-picture'].map((sel) => {
    const c = document.querySelector(sel);
    return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.slice(0, 4));
  }));
  for (const px of [mine, goal]) {
    assert.equal(px[0], 255);
    assert.ok(Math.abs(px[1] - 127.5) <= 1, String(px));
    assert.deepEqual([px[2], px[3]], [0, 255]);
  }
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('malformed progress in storage is ignored, valid parts are kept', { timeout: 60_000 }, async () => {
  const { page, problems } = await openLearn();
  for (const junk of ['not json', '[1,2]', 'null', JSON.stringify({ done: 5, code: { registers: 42, nope: 'x' }, current: '<b>' }),
    JSON.stringify({ done: ['swizzle', 'no-such-lesson', 7], code: { swizzle: 'FRAG\nEND\n', ghost: 'x' }, current: 'swizzle' })]) {
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [PROGRESS_KEY, junk]);
    await page.reload();
    await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
    const done = await page.$$eval('#lessons a[data-done="true"]', (links) => links.map((a) => a.dataset.lesson));
    const open = await page.locator('#lesson').getAttribute('data-lesson');
    if (junk.includes('swizzle')) {
      assert.deepEqual(done, ['swizzle'], junk);
      assert.equal(open, 'swizzle');
      assert.equal((await editorText(page)).trim(), 'FRAG\nEND');
    } else {
      assert.deepEqual(done, [], junk);
      assert.equal(open, LESSONS[0].id, junk);
      assert.equal((await editorText(page)).trim(), LESSONS[0].start.trim(), junk);
    }
  }
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('every solution is clean for the tgsi command and its rendered picture meets the goal', {
  timeout: 120_000,
  skip: skipIn({ firefox: 'no browser in it: run once, with Chromium', webkit: 'no browser in it: run once, with Chromium' }),
}, async () => {
  /** @type {Record<string, string>} */
  const files = {};
  for (const lesson of LESSONS) {
    const options = renderOptions(lesson);
    const stageFiles = lesson.stage === 'vs' ? { 'vs.tgsi': lesson.solution, 'fs.tgsi': lesson.fs } : { 'fs.tgsi': lesson.solution };
    const textures = options.textures ?? [];
    Object.assign(files, stageFiles);
    for (const t of textures) files[`tex${t.unit}.json`] = t.description;
    const check = lesson.stage === 'vs' ? ['check', '--link', 'vs.tgsi', 'fs.tgsi'] : ['check', 'fs.tgsi'];
    const checked = await runTgsi(check, files);
    await checked.cleanup();
    assert.equal(checked.stderr + checked.stdout, '', `${lesson.id}: tgsi ${check.join(' ')} reported something`);

    const args = ['render', 'fs.tgsi', '--size', `${options.width}x${options.height}`, '-o', 'out.f32'];
    if (lesson.stage === 'vs') args.push('--vs', 'vs.tgsi');
    if (options.mesh) args.push('--mesh', options.mesh);
    for (const t of textures) args.push('--texture', `${t.unit}=tex${t.unit}.json`);
    const rendered = await runTgsi(args, files);
    const bytes = await rendered.read('out.f32');
    await rendered.cleanup();
    const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    // The CLI writes floats; the page's check compares 8-bit pixels. Round the same way here.
    const { mismatches, first } = comparePicture(lesson, (x, y) => {
      const i = (y * options.width + x) * 4;
      return /** @type {any} */ ([0, 1, 2, 3].map((c) => Math.round(Math.min(Math.max(floats[i + c], 0), 1) * 255) / 255));
    });
    assert.equal(mismatches, 0, `${lesson.id}: tgsi render differs from the goal at ${JSON.stringify(first)} (tolerance ${TOLERANCE})`);
    for (const name of Object.keys(stageFiles)) delete files[name];
  }
});

test('every opcode a lesson links to is in the engine\u2019s opcode table', { timeout: 30_000, skip: skipIn({ firefox: 'no browser in it', webkit: 'no browser in it' }) }, async () => {
  const glue = await import('../../web/pkg/tgsi.js');
  glue.initSync({ module: await readFile(path.join(ROOT, 'web/pkg/tgsi_bg.wasm')) });
  const names = new Set(glue.opcodes().map((o) => o.name));
  for (const lesson of LESSONS) {
    for (const op of lesson.opcodes) assert.ok(names.has(op), `${lesson.id}: ${op} is not an opcode`);
  }
});

test('the lessons in a narrow window and the dark theme: no sideways scrolling, every control named', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 600, height: 900 }, colorScheme: 'dark' });
  const { page, problems } = await openPage(context);
  await page.goto(`${server.url}learn/#vertex`);
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  // The vertex lesson shows the fixed fragment shader above the editor.
  assert.equal(await page.locator('#other-stage').isVisible(), true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the narrow layout scrolls sideways by ${overflow}px`);
  await saveScreenshot(page, 'learn-narrow-dark');
  const unnamed = await page.$$eval('button, select, input, a, canvas', (els) => els
    .filter((el) => el.offsetParent !== null)
    .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || el.title))
    .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, [], 'controls without a name');
  assert.deepEqual(problems, [], 'the page reported problems');
  await context.close();
});

test('stored progress: generated junk never throws and gives progress of the right shape; a save reads back', {
  skip: skipIn({ firefox: 'no browser in it', webkit: 'no browser in it' }),
}, () => {
  const ids = LESSONS.map((l) => l.id);
  const storageOf = (text) => ({ getItem: (key) => (key === PROGRESS_KEY ? text : null) });
  // A seeded generator (xorshift32), so a failure can be replayed.
  let seed = 0x2545f491;
  const next = () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed; };
  const pick = (list) => list[next() % list.length];
  const values = [null, true, 0, -1, 'x', '<b>', [], {}, ['registers', 3], { registers: 'FRAG' }, 'loops', 'x'.repeat(MAX_SAVED_TEXT + 1)];
  const randomJson = (depth = 0) => {
    if (depth > 3 || next() % 3 === 0) return pick(values);
    const o = {};
    for (let i = next() % 5; i > 0; i -= 1) o[pick(['done', 'code', 'current', '__proto__', ...ids.slice(0, 3)])] = randomJson(depth + 1);
    return next() % 5 === 0 ? [o] : o;
  };
  for (let i = 0; i < 500; i += 1) {
    const p = loadProgress(storageOf(JSON.stringify(randomJson())), ids);
    assert.ok([...p.done].every((id) => ids.includes(id)));
    assert.ok([...p.code].every(([id, text]) => ids.includes(id) && typeof text === 'string' && text.length <= MAX_SAVED_TEXT));
    assert.ok(p.current === null || ids.includes(p.current));
  }
  for (const text of [null, '', '{', 'undefined', '1e999', '"registers"']) assert.deepEqual(loadProgress(storageOf(text), ids).done.size, 0);
  assert.equal(loadProgress({ getItem: () => { throw new Error('SecurityError'); } }, ids).current, null);
  assert.equal(loadProgress(null, ids).done.size, 0);

  // What the page saves, it reads back; a refusing storage is reported, not thrown.
  const kept = new Map();
  const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  const progress = { done: new Set(['loops']), code: new Map([['loops', 'FRAG\nEND\n']]), current: 'loops' };
  assert.equal(saveProgress(storage, progress), true);
  assert.deepEqual(loadProgress(storage, ids), progress);
  assert.equal(saveProgress({ setItem: () => { throw new Error('QuotaExceededError'); } }, progress), false);
});
