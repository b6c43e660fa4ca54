// The page operations the tests rely on behave alike in every engine: Playwright's in Chromium,
// the WebDriver adapter's (webdriver.mjs) in Firefox and WebKitGTK. In particular a console
// error, an uncaught exception, a rejected promise and a failed request, of the page or of a
// worker, reach the test's `problems`, and waiting for what never appears fails, so a broken page cannot pass unseen.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ARTIFACTS_DIR, ENGINE, ROOT, launchBrowser, skipIn, startServer } from './support.mjs';
import { startSessionPool } from './sessions.mjs';
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

const TEXT = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0000, 0.0000, 0.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';

test('locators, events, mouse and keyboard', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, TEXT);
  const lines = page.locator('.cm-content .cm-line');
  assert.equal(await lines.first().textContent(), 'FRAG');
  assert.equal(await lines.nth(1).textContent(), 'DCL OUT[0], COLOR');
  assert.equal(await lines.last().textContent(), '', 'the text ends with a newline: an empty last line');
  assert.equal(await lines.count(), TEXT.split('\n').length);
  assert.match(await lines.nth(1).innerHTML(), /<span/, 'highlighted words are spans');

  // A synthetic click opens the gallery; Escape closes it.
  assert.equal(await page.locator('#gallery').isVisible(), false);
  await page.locator('#open-gallery').dispatchEvent('click');
  await page.locator('#gallery').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('#gallery').waitFor({ state: 'hidden' });

  // A click at the end of line 2 puts the cursor there; typed keys arrive one by one.
  const box = await lines.nth(1).boundingBox();
  await page.mouse.click(box.x + box.width - 1, box.y + box.height / 2);
  await page.keyboard.press('End');
  await page.keyboard.type(' ; hi');
  const text = await page.evaluate(() => window.tgsiPlayground.editor.view.state.doc.toString());
  assert.equal(text.split('\n')[1], 'DCL OUT[0], COLOR ; hi');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('console errors, uncaught exceptions and failed requests are reported', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  // From a script of the page's own (Firefox runs evaluated functions in a sandbox, whose
  // timers and promises report their errors there, not to the page).
  await page.evaluate(() => new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/tests/e2e/fixtures/plant-problems.js';
    script.onload = resolve;
    script.onerror = () => reject(new Error('the fixture did not load'));
    document.head.append(script);
  }));
  // Each event travels from the browser (and its worker) to this process on its own; on a busy
  // machine the 404 can come seconds after the errors, so wait for all of them, with a deadline.
  const expected = [/^console error: planted error$/, /^uncaught exception: planted exception$/,
    /^uncaught exception: planted rejection$/, /^HTTP 404 for .*\/no-such-file\.txt$/,
    /^console error: planted worker error$/, /^uncaught exception: planted worker exception$/];
  const missing = () => expected.filter((e) => !problems.some((p) => e.test(p)));
  const deadline = Date.now() + 20_000;
  while (missing().length > 0 && Date.now() < deadline) {
    await page.waitForTimeout(100);
    await page.evaluate(() => 0);
  }
  for (const e of missing()) assert.fail(`${e} not among ${JSON.stringify(problems)}`);
  await page.close();
});

test('waiting for something that never appears fails', { timeout: 60_000 }, async () => {
  const { page } = await openPlayground(browser, server);
  await assert.rejects(page.waitForSelector('#no-such-element', { timeout: 1000 }));
  await assert.rejects(page.locator('#no-such-element').click({ timeout: 1000 }));
  await assert.rejects(page.waitForFunction(() => false, null, { timeout: 1000 }));
  await page.close();
});

test('a new context never sees the storage of a closed one (the WebDriver adapter reuses its browsers)', { timeout: 90_000 }, async () => {
  for (let round = 0; round < 3; round++) {
    const context = await browser.newContext();
    const { page, problems } = await openPlayground(browser, server, { context });
    const seen = await page.evaluate(() => [localStorage.getItem('e2e-isolation'), sessionStorage.getItem('e2e-isolation')]);
    assert.deepEqual(seen, [null, null], `round ${round}: storage left by an earlier context`);
    await page.evaluate((r) => {
      localStorage.setItem('e2e-isolation', `local ${r}`);
      sessionStorage.setItem('e2e-isolation', `session ${r}`);
    }, round);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

/**
 * A test file's process in miniature, on the session pool at `poolUrl`: opens a page of the
 * server in a new context, reads then writes its localStorage, and prints the session's id and
 * what it read. `hold`: ends without closing the context (a crash or a time-out).
 * @param {string} poolUrl @param {string} url @param {boolean} hold
 * @returns {Promise<{ session: string, seen: string | null }>}
 */
function poolClient(poolUrl, url, hold) {
  const script = `
    const { launchBrowser } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'tests/e2e/support.mjs')).href)});
    const browser = await launchBrowser();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(${JSON.stringify(url)});
    const seen = await page.evaluate(() => localStorage.getItem('e2e-pool'));
    await page.evaluate(() => localStorage.setItem('e2e-pool', 'written'));
    console.log(JSON.stringify({ session: context.session.id, seen }));
    if (!${hold}) await context.close();
    process.exit(0);`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TGSI_WEBDRIVER_SESSIONS: poolUrl }, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? ''));
    });
  });
}

test('the run\'s session pool: the next process gets the same browser, never an earlier page\'s storage; a session not given back is ended', {
  timeout: 120_000,
  skip: skipIn({ chromium: 'each Chromium test file launches its own browser (support.mjs)' }),
}, async () => {
  const pool = await startSessionPool(ENGINE, path.join(ARTIFACTS_DIR, 'driver.log'));
  try {
    const url = `${server.url}embed.html`;
    const first = await poolClient(pool.url, url, false);
    const second = await poolClient(pool.url, url, false);
    assert.equal(second.session, first.session, 'the second process started a browser of its own');
    assert.deepEqual([first.seen, second.seen], [null, null], 'storage crossed from one process to the next');
    assert.equal(pool.size(), 1);
    const held = await poolClient(pool.url, url, true);
    assert.equal(held.session, first.session);
    assert.equal(held.seen, null);
    // Its process has ended holding the session: the pool ends it within its next look (1 s).
    const deadline = Date.now() + 10_000;
    while (pool.size() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(pool.size(), 0, 'the session of a process that ended without giving it back is still kept');
  } finally {
    await pool.close();
  }
});

test('Chromium opens no address-bar popup page beside the pages the tests open', {
  timeout: 60_000,
  skip: skipIn({ firefox: 'a Chromium feature (support.mjs CHROMIUM_FLAGS)', webkit: 'a Chromium feature (support.mjs CHROMIUM_FLAGS)' }),
}, async () => {
  // Chromium 156 draws the address bar's suggestions as a WebUI page, one renderer per window
  // (each context is a window): about 0.85 CPU-s a page the suite does not need. The flags in
  // support.mjs turn it off; a Chromium that renames the feature brings the page back.
  const { page } = await openPlayground(browser, server);
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
  const urls = targetInfos.map((t) => t.url);
  assert.ok(urls.some((u) => u.startsWith(server.url)), `the playground is a target: ${urls.join(', ')}`);
  assert.deepEqual(urls.filter((u) => u.startsWith('chrome://')), [], 'WebUI pages beside the playground');
  await cdp.detach();
  await page.close();
});
