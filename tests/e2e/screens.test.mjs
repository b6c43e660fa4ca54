// Screenshots of the main views (kept in test-artifacts/ for a person to look at), taken in both
// themes and in a narrow window, with the checks that the views exist and raise no errors.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ARTIFACTS_DIR, launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';
import { openPlayground, settle } from './playground.mjs';

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

test('main views in dark and light themes, the dialogs and a narrow window', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  const { page, problems } = await openPlayground(browser, server, { context });
  await page.evaluate(() => window.tgsiPlayground.loadExample('mandelbrot'));
  await settle(page, 2500);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await saveScreenshot(page, 'view-main-dark');

  await page.locator('#tab-agal').click();
  await settle(page, 200);
  await saveScreenshot(page, 'view-agal');
  await page.locator('#tab-formatted').click();

  await page.keyboard.press('Alt+T');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await settle(page, 200);
  await saveScreenshot(page, 'view-main-light');

  await page.locator('#open-gallery').click();
  // The gallery draws its thumbnails with the renderer once it opens.
  await page.waitForFunction(() => document.querySelectorAll('#gallery-list .thumb[data-drawn]').length === window.tgsiPlayground.examples.length, null, { timeout: 30_000 });
  await saveScreenshot(page, 'view-gallery');
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  assert.ok(await page.locator('#about').evaluate((d) => d.open), 'F1 did not open the about panel');
  await saveScreenshot(page, 'view-about');
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 600, height: 900 });
  await settle(page, 300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the narrow layout scrolls sideways by ${overflow}px`);
  await saveScreenshot(page, 'view-narrow');

  // Every control has an accessible name.
  const unnamed = await page.$$eval('button, select, input', (els) => els
    .filter((el) => el.offsetParent !== null)
    .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim() || el.title))
    .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, [], 'controls without a name');
  assert.deepEqual(problems, [], 'the page reported problems');
  await context.close();
});

/** A screenshot of what is on the screen (not the whole page): what a user sees first. */
const screen = (page, name) => page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });

for (const [width, height] of [[1280, 800], [1920, 1080], [390, 844]]) {
  test(`the main views at ${width}×${height}: page, inspector after a click, value after N, a lesson`, { timeout: 120_000 }, async () => {
    const size = `${width}x${height}`;
    const context = await browser.newContext({ viewport: { width, height }, colorScheme: 'dark' });
    const { page, problems } = await openPlayground(browser, server, { context });
    await screen(page, `screen-${size}-page`);
    // The first screen says what to do: edit the shader, click a pixel.
    for (const hint of ['#edit-hint', '#canvas-hint']) assert.equal(await page.locator(hint).isVisible(), true, hint);
    const picture = await page.locator('#output').boundingBox();
    assert.ok(picture.y < height, `the picture starts below the first screen (at ${picture.y} px)`);

    await page.locator('#output').click();
    await page.waitForFunction(() => window.tgsiPlayground.trace !== null);
    for (let i = 0; i < 3; i += 1) {
      await page.waitForTimeout(600); // WebKitGTK merges clicks closer than a double click's interval
      await page.locator('#trace-step').click();
      await page.waitForFunction((k) => document.querySelector('#trace-view').dataset.at === String(k), i);
    }
    await screen(page, `screen-${size}-inspector`);

    // Value after the instruction the trace stands on (it opens there, on its destination).
    const pc = await page.evaluate(() => { const t = window.tgsiPlayground.trace; return t.steps[Number(document.querySelector('#trace-view').dataset.at)].pc; });
    const probes = Number(await page.locator('#overlay').getAttribute('data-probes') ?? 0);
    await page.locator('#view-mode').selectOption('value');
    await page.waitForFunction((k) => Number(document.querySelector('#overlay').dataset.probes ?? 0) > k, probes);
    assert.equal(await page.locator('#probe-pc').inputValue(), String(pc));
    // The picture and the scrubber together: the picture's top at the top of the screen.
    await page.evaluate(() => document.querySelector('.canvas-wrap').scrollIntoView({ block: 'start' }));
    await screen(page, `screen-${size}-value`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'the page scrolls sideways');

    // Copy link says so where the user is looking (the page scrolled down meanwhile).
    await page.locator('#copy-link').click();
    await page.waitForSelector('#toast:not([hidden])');
    const toast = await page.locator('#toast').boundingBox();
    assert.ok(toast.y >= 0 && toast.y + toast.height <= height && toast.x >= 0 && toast.x + toast.width <= width, `the notice is off the screen: ${JSON.stringify(toast)}`);
    assert.match(await page.locator('#toast').textContent(), /Link copied|Share this link/);
    assert.deepEqual(problems, [], 'the page reported problems');
    await context.close();

    const learn = await browser.newContext({ viewport: { width, height }, colorScheme: 'dark' });
    const opened = await openPage(learn);
    await opened.page.goto(`${server.url}learn/#derivatives`);
    await opened.page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
    await opened.page.waitForSelector('#inspect-link[data-lesson="derivatives"]', { state: 'attached' });
    await screen(opened.page, `screen-${size}-learn`);
    assert.deepEqual(opened.problems, [], 'the learn page reported problems');
    await learn.close();
  });
}
