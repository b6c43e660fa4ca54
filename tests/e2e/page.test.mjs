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

/**
 * Opens the page and waits until the engine label leaves its "loading" state (or 15 s pass).
 * Returns the page, the problems it reported and every response it received.
 */
async function loadPlayground(name) {
  const { page, problems } = await openPage(browser);
  const responses = [];
  page.on('response', (res) => responses.push(res));
  await page.goto(server.url);
  await page
    .waitForSelector('#engine-version:not([data-state="loading"])', { timeout: 15_000 })
    .catch(() => problems.push('the engine label stayed in its "loading" state for 15 s'));
  await saveScreenshot(page, name);
  return { page, problems, responses };
}

test('the page loads the wasm engine and shows its version and a canvas', { timeout: 60_000 }, async () => {
  const { page, problems, responses } = await loadPlayground('page-loaded');
  const label = page.locator('#engine-version');
  const state = await label.getAttribute('data-state');
  assert.equal(state, 'ready', `engine not ready (label: "${await label.textContent()}"); ${problems.join('; ')}`);

  // The version string comes from wasm and follows `tgsi-playground <workspace version>`.
  assert.equal(await label.textContent(), `tgsi-playground ${await cargoWorkspaceVersion()}`);

  // The wasm module was fetched with the MIME type streaming compilation requires.
  const wasm = responses.filter((res) => new URL(res.url()).pathname.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `wasm responses: ${wasm.map((r) => r.url()).join(', ')}`);
  assert.equal(wasm[0].status(), 200);
  assert.equal(wasm[0].headers()['content-type'], 'application/wasm');

  // A visible canvas with a real size.
  const canvas = page.locator('canvas#output');
  assert.equal(await canvas.count(), 1, 'no canvas#output on the page');
  const box = await canvas.boundingBox();
  assert.ok(box && box.width > 0 && box.height > 0, `canvas has no size: ${JSON.stringify(box)}`);
  assert.deepEqual(await canvas.evaluate((c) => [c.width, c.height]), [256, 256]);

  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the engine is an ES module with an init function and the version export', { timeout: 60_000 }, async () => {
  // wasm-bindgen --target web: the default export instantiates the module, named exports wrap
  // the #[wasm_bindgen] functions.
  const { page, problems } = await loadPlayground('engine-module');
  const exports = await page.evaluate(async () => Object.keys(await import('./web/pkg/tgsi.js')));
  assert.ok(exports.includes('default'), `no default (init) export; exports: ${exports.join(', ')}`);
  assert.ok(exports.includes('version'), `no version export; exports: ${exports.join(', ')}`);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});
