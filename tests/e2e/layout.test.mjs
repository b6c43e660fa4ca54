// The inspector's layout promises (docs/playground.md, "Inspecting a shader"), checked with
// bounding boxes in each window size a user is likely to have: after a click on the picture the
// four lanes of the quad are on the screen together — their headers and the cells of the row the
// current step wrote, each really visible (the element at the centre of each cell is that cell)
// — and the page never scrolls sideways. At 1280×800 the picture and the current instruction are
// on the screen with them.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, startServer } from './support.mjs';
import { openPlayground, renderCount, typeShader, waitForRender } from './playground.mjs';

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

// Four registers written one after another: the lane table has rows above and below the
// current one once the trace is at its end.
const SHADER = readFileSync(new URL('./fixtures/sqrt-nan.tgsi', import.meta.url), 'utf8');

/**
 * Which of the elements matching `selector` are not fully on the screen or not the element
 * found at their own centre (something covers them); and how many matched.
 */
function offScreen(page, selector) {
  return page.evaluate((css) => {
    const els = [...document.querySelectorAll(css)];
    const bad = [];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const inside = r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
        && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!inside || !(hit === el || el.contains(hit))) {
        bad.push(`${el.tagName.toLowerCase()}${el.dataset.lane ? `[lane ${el.dataset.lane}]` : ''} at (${Math.round(r.left)}, ${Math.round(r.top)}) ${Math.round(r.width)}×${Math.round(r.height)}${inside ? `, covered by ${hit?.tagName}.${hit?.className}` : ''}`);
      }
    }
    return { count: els.length, bad };
  }, selector);
}

/** How far the page scrolls sideways (0 when it does not). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Waits until the trace view stands on step `n`. */
const atStep = (page, n) => page.waitForFunction((k) => document.querySelector('#trace-view').dataset.at === String(k), n, { timeout: 10_000 });

for (const [width, height] of [[1280, 800], [1920, 1080], [390, 844]]) {
  test(`${width}×${height}: after a click on the picture the four lanes are on the screen`, { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width, height } });
    const { page, problems } = await openPlayground(browser, server, { context });
    let n = await renderCount(page);
    await page.locator('#size').selectOption('128');
    n = await waitForRender(page, n);
    await typeShader(page, SHADER);
    await page.waitForFunction((fs) => window.tgsiPlayground.rendered?.fs === fs, SHADER, { timeout: 20_000 });
    assert.ok(await sideways(page) <= 0, `the page scrolls sideways by ${await sideways(page)} px`);

    // A real click on the picture (the driver scrolls it into view first, as a user would).
    await page.locator('#output').click();
    await page.waitForSelector('#trace-view:not([hidden])');
    await page.waitForFunction(() => window.tgsiPlayground.trace !== null);
    const headers = await offScreen(page, '#trace-quad thead th[data-lane]');
    assert.equal(headers.count, 4);
    assert.deepEqual(headers.bad, [], 'lane headers off the screen after the click');
    assert.deepEqual((await offScreen(page, '#trace-instruction')).bad, [], 'the instruction is off the screen');

    // One step: the ADD's row, before → after in each lane, with the lane headers.
    await page.waitForTimeout(600); // WebKitGTK merges clicks closer than a double click's interval
    await page.locator('#trace-step').click();
    await atStep(page, 0);
    const row = await offScreen(page, '#trace-quad tr.changed[data-reg="TEMP[0].x"] td');
    assert.equal(row.count, 4);
    assert.deepEqual(row.bad, [], 'cells of the written row off the screen');
    assert.deepEqual((await offScreen(page, '#trace-quad thead th[data-lane]')).bad, [], 'lane headers off the screen after a step');
    // The written channel says what it held before: 0 (nothing wrote TEMP[0].x yet).
    assert.equal(await page.locator('#trace-quad tr.changed[data-reg="TEMP[0].x"] td[data-lane="0"]').getAttribute('data-before'), '0');
    // "reads" and "writes" are labelled.
    assert.match(await page.locator('#trace-quad tr.trace-source th').first().textContent(), /^reads IN\[0\]\.xxxx$/);
    assert.match(await page.locator('#trace-quad tr.changed th').textContent(), /^writes TEMP\[0\]\.x$/);

    if (width === 1280) {
      // The picture stays beside the lanes: at least half of it on the screen.
      const shown = await page.evaluate(() => {
        const r = document.querySelector('#output').getBoundingClientRect();
        return (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height;
      });
      assert.ok(shown >= 0.5, `only ${Math.round(shown * 100)} % of the picture is on the screen`);
    }

    // At the end every register has a row; the last written one is still on the screen with
    // the headers, and nothing scrolls sideways.
    await page.waitForTimeout(600);
    await page.locator('#trace-end').click();
    await atStep(page, 5);
    await page.waitForTimeout(600);
    await page.locator('#trace-back').click();
    await atStep(page, 4);
    const last = await offScreen(page, '#trace-quad tr.changed td');
    assert.equal(last.count, 4);
    assert.deepEqual(last.bad, [], 'cells of the written row off the screen at step 5');
    assert.ok(await sideways(page) <= 0, `the page scrolls sideways by ${await sideways(page)} px with a trace open`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('an edit that stops the drawing clears the frame time and the engine badge', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await page.waitForFunction(() => document.querySelector('#frame-time').textContent.endsWith('ms/frame'));
  assert.notEqual(await page.locator('#engine-badge').textContent(), '–');
  // Not TGSI: nothing is drawn, so no frame time and no engine can be claimed.
  await typeShader(page, 'FRAG\nMOV OUT[0], NOPE\nEND\n');
  await page.waitForSelector('#output[data-state="error"]', { state: 'attached', timeout: 20_000 });
  assert.equal(await page.locator('#frame-time').textContent(), '–');
  assert.equal(await page.locator('#engine-badge').textContent(), '–');
  assert.equal(await page.locator('#engine-badge').getAttribute('data-engine'), 'none');
  // Correct again: both come back.
  const n = await renderCount(page);
  await typeShader(page, SHADER);
  await waitForRender(page, n);
  await page.waitForFunction(() => document.querySelector('#frame-time').textContent.endsWith('ms/frame'));
  assert.notEqual(await page.locator('#engine-badge').getAttribute('data-engine'), 'none');
  assert.deepEqual(problems, []);
  await page.close();
});
