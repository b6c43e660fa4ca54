// The playground page, served by scripts/serve.mjs, loads the wasm engine in Chromium: it shows
// the engine's version string (obtained from wasm) and a canvas, without any console error.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cargoWorkspaceVersion, launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';

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

test('the page loads the wasm engine and shows its version and a canvas', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPage(browser);
  const wasmResponse = page.waitForResponse((res) => res.url().endsWith('.wasm'));
  await page.goto(server.url);

  // The wasm module was fetched with the MIME type streaming compilation requires.
  const wasm = await wasmResponse;
  assert.equal(wasm.status(), 200);
  assert.equal(wasm.headers()['content-type'], 'application/wasm');

  // The label switches to "ready" once version() returned from wasm.
  const label = page.locator('#engine-version');
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 30_000 }).catch(() => {});
  const state = await label.getAttribute('data-state');
  const expected = `tgsi-playground ${await cargoWorkspaceVersion()}`;
  assert.equal(state, 'ready', `engine did not load; label says "${await label.textContent()}"; ${problems.join('; ')}`);
  assert.equal(await label.textContent(), expected);

  // A visible canvas with a real size.
  const canvas = page.locator('canvas#output');
  assert.equal(await canvas.count(), 1);
  const box = await canvas.boundingBox();
  assert.ok(box && box.width > 0 && box.height > 0, `canvas has no size: ${JSON.stringify(box)}`);
  const size = await canvas.evaluate((c) => [c.width, c.height]);
  assert.deepEqual(size, [256, 256]);

  await saveScreenshot(page, 'page-loaded');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the engine is an ES module with an init function and the version export', { timeout: 60_000 }, async () => {
  // wasm-bindgen --target web: the default export instantiates the module, named exports wrap
  // the #[wasm_bindgen] functions.
  const { page, problems } = await openPage(browser);
  await page.goto(server.url);
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 30_000 });
  const exports = await page.evaluate(async () => Object.keys(await import('./web/pkg/tgsi.js')));
  assert.ok(exports.includes('version'), `exports: ${exports.join(', ')}`);
  assert.ok(exports.includes('default'), 'the module has a default init export (--target web)');
  assert.deepEqual(problems, []);
  await page.close();
});
