// The Compare mode (web/compare-panel.js, the engine's `compareShaders` = `tgsi diff`): A
// starts as the playground's shader and B as a copy (no difference); B typed with a loop bound
// off by one (tests/diff-pairs/loop_bound, whose README gives the answer: every pixel's red is
// 4.0 in A and 5.0 in B) differs in every pixel; a click on the map shows that pixel in both
// with both traces; a change seen only with special values (x + 0.0 against a move: −0) is
// found by the random quads with the picture the same. At three window sizes, with screenshots.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ARTIFACTS_DIR, launchBrowser, ROOT, startServer } from './support.mjs';
import { openPlayground, typeShader } from './playground.mjs';

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

const pair = (name, side) => readFile(path.join(ROOT, 'tests/diff-pairs', `${name}.${side}.tgsi`), 'utf8');

/** Replaces one compare editor's text by typing, as a user would. */
async function typeInto(page, which, text) {
  await page.locator(`#compare-${which} .cm-content`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Waits for the comparison after run `n` and returns its verdict. */
async function verdictAfter(page, n) {
  await page.waitForFunction((k) => Number(document.querySelector('#compare-map').dataset.runs ?? 0) > k
    && document.querySelector('#compare-verdict').dataset.state !== 'busy', n, { timeout: 60_000 });
  return {
    state: await page.locator('#compare-verdict').getAttribute('data-state'),
    text: await page.locator('#compare-verdict').textContent(),
    differing: Number(await page.locator('#compare-map').getAttribute('data-differing')),
    runs: Number(await page.locator('#compare-map').getAttribute('data-runs')),
  };
}

test('Compare: a copy shows no difference, a loop bound off by one differs in every pixel and a click shows one in both, −0 is found by the random quads', { timeout: 240_000 }, async () => {
  const [a, b] = [await pair('loop_bound', 'a'), await pair('loop_bound', 'b')];
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, a);
  await page.waitForFunction((fs) => window.tgsiPlayground.rendered?.fs === fs, a, { timeout: 20_000 });

  await page.locator('#open-compare').click();
  let v = await verdictAfter(page, 0);
  assert.equal(v.state, 'same', v.text);
  assert.match(v.text, /No difference found\. 0 of 4096 pixels of the 64×64 full-screen picture/);
  assert.match(await page.locator('#compare-report').textContent(), /^no difference: the 64x64 pictures both draw of the meshes fullscreen, quad, cube, sphere; 1000 random quads/);

  await typeInto(page, 'b', b);
  await page.waitForFunction((t) => document.querySelector('#compare-b .cm-content').innerText.includes('SLT TEMP[1].y'), b);
  v = await verdictAfter(page, v.runs);
  // The last run may have started before the last keystroke: wait for the one after it.
  while (v.state !== 'differs') v = await verdictAfter(page, v.runs);
  assert.equal(v.differing, 64 * 64, v.text);
  assert.match(v.text, /4096 of 4096 pixels .* differ \(the largest by 2097152 ulps\)/);
  const report = await page.locator('#compare-report').textContent();
  assert.match(report, /first difference: pixel \(0, 0\) of the fullscreen picture/);
  assert.match(report, /A: 0x40800000 \(float 4,/);
  assert.match(report, /B: 0x40a00000 \(float 5,/);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'compare-differs.png') });

  // A click on the map: that pixel in both, with both traces side by side.
  const box = await page.locator('#compare-map').boundingBox();
  await page.mouse.click(box.x + box.width * (10.5 / 64), box.y + box.height * (20.5 / 64));
  await page.waitForFunction(() => document.querySelector('#compare-pixel').dataset.pixel === '10,20', null, { timeout: 30_000 });
  const shown = await page.locator('#compare-pixel').textContent();
  assert.match(shown, /^pixel \(10, 20\) of the fullscreen picture/);
  assert.match(shown, /output COLOR\[0\]\.x/);
  assert.match(shown, /TEMP\[0\] x=5/, 'B\'s trace reaches 5.0');
  assert.match(shown, / A: A +B: B/);

  // −0: the picture is the same, the random quads differ.
  await typeInto(page, 'a', await pair('neg_zero', 'a'));
  await typeInto(page, 'b', await pair('neg_zero', 'b'));
  // A comparison runs after each edit: the one between the new A and the old B comes first
  // (its report may also name random quads); wait for the one that reports the −0.
  const finalReport = (/** @type {string | null} */ r) => /random quad/.test(r ?? '') && /B: 0x80000000 .*= -0/.test(r ?? '');
  do v = await verdictAfter(page, v.runs);
  while (!finalReport(await page.locator('#compare-report').textContent()));
  // Read once the final report is shown (no edit follows it, so no later run changes them).
  assert.equal(await page.locator('#compare-verdict').getAttribute('data-state'), 'differs');
  assert.equal(Number(await page.locator('#compare-map').getAttribute('data-differing')), 0, 'the picture holds no −0');
  assert.match(await page.locator('#compare-report').textContent(), /B: 0x80000000 .*= -0/);
  assert.deepEqual(problems, []);
  await page.close();
});

for (const [width, height] of [[1280, 800], [1920, 1080], [390, 844]]) {
  test(`Compare at ${width}×${height}: both editors, the verdict and the map fit the width`, { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme: 'dark' });
    const { page, problems } = await openPlayground(browser, server, { context });
    await page.locator('#open-compare').click();
    await verdictAfter(page, 0);
    await typeInto(page, 'b', await pair('mask_dropped', 'b'));
    await typeInto(page, 'a', await pair('mask_dropped', 'a'));
    let v = await verdictAfter(page, 1);
    while (v.state !== 'differs') v = await verdictAfter(page, v.runs);
    for (const id of ['#compare', '#compare-a', '#compare-b', '#compare-verdict']) {
      const r = await page.locator(id).boundingBox();
      assert.ok(r && r.x >= 0 && r.x + r.width <= width + 0.5, `${id} leaves the window: ${JSON.stringify(r)}`);
    }
    const inside = await page.locator('#compare').evaluate((d) => d.scrollWidth - d.clientWidth);
    assert.ok(inside <= 0, `the dialog scrolls sideways by ${inside} px`);
    const map = await page.locator('#compare-map').boundingBox();
    assert.ok(map && map.x + map.width <= width, 'the map leaves the window');
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `compare-${width}x${height}.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  });
}
