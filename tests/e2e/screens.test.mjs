// Screenshots of the main views (kept in test-artifacts/ for a person to look at), taken in both
// themes and in a narrow window, with the checks that the views exist and raise no errors.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
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
